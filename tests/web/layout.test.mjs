// The page's layout (public/index.html, style.css): on a phone the canvas, the transport and the
// settings come first; at 1280 × 720 the phase plot and the export buttons are in view; Tab
// follows the visual order (Settings, the left column, first); → never steps past the duration.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, state, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });
const withPage = (options, fn) => pageChecks(env, options, fn);
const box = (page, selector) => page.locator(selector).boundingBox();

test('on a phone (390 × 844) the settings button, the transport and the canvas are on the first screen', async () => {
  await withPage({ width: 390, height: 844, hash: 'preset=stiff_spring' }, async (page) => {
    const summary = await box(page, '#settings-box > summary');
    const play = await box(page, '#play');
    const canvas = await box(page, '#view');
    assert.ok(summary.y + summary.height <= 844, `settings at ${summary.y}`);
    assert.ok(play.y + play.height <= 844, `play at ${play.y}`);
    assert.ok(canvas.y + canvas.height / 2 <= 844, `canvas at ${canvas.y}`);
    assert.ok(summary.y < canvas.y, 'the settings (one button) above the canvas');
    assert.equal(await page.isVisible('#scenario'), false, 'folded');
    await page.click('#settings-box > summary');
    assert.equal(await page.isVisible('#scenario'), true);
    const scenario = await box(page, '#scenario');
    assert.ok(scenario.y < 400, `the first setting at ${scenario.y} px (was 1,830)`);
    await screenshot(page, 'i11-legend-phone-settings-open');
  });
});

test('at 1280 × 720 the phase plot and the export buttons are in view without scrolling', async () => {
  await withPage({ width: 1280, height: 720, hash: 'preset=stiff_spring' }, async (page) => {
    for (const selector of ['#plot-phase', '#export-json', '#export-png', '#copy-link', '#play', '#view']) {
      const b = await box(page, selector);
      assert.ok(b.y >= 0 && b.y + b.height <= 720, `${selector}: ${Math.round(b.y)} … ${Math.round(b.y + b.height)} of 720`);
    }
  });
});

test('Tab follows the visual order: Settings (the left column), then the transport, then the legend', async () => {
  for (const width of [1440, 1000]) {
    await withPage({ width, height: 900, hash: 'preset=stiff_spring' }, async (page) => {
      const order = [];
      // Each lane's row in the Integrators list adds its substeps field and two buttons.
      for (let i = 0; i < 140; ++i) {
        await page.keyboard.press('Tab');
        order.push(await page.evaluate(() => document.activeElement.id || document.activeElement.className));
      }
      const at = (id) => order.indexOf(id);
      for (const id of ['scenario', 'play', 'export-csv']) assert.ok(at(id) >= 0, `${width}: Tab reaches ${id}`);
      assert.ok(at('scenario') < at('play'), `${width}: Settings before Play (${at('scenario')} < ${at('play')})`);
      // The left column ends before the middle one starts.
      const lastSetting = Math.max(...order.map((id, i) => (['cloud_radius', 'param-v0-y'].includes(id) ? i : -1)));
      assert.ok(lastSetting < at('play'), `${width}: the whole settings column before the stage`);
    });
  }
});

test('→ and Step stop at the duration (t = 1 of 1 s, never 1.5)', async () => {
  await withPage({ hash: 'scenario=spring&integrators=rk4&dt=0.5&duration=1' }, async (page) => {
    await page.locator('#view').click();
    for (let i = 0; i < 4; ++i) await page.keyboard.press('ArrowRight');
    assert.equal((await state(page)).t, 1);
    await page.click('#step');
    const s = await state(page);
    assert.equal(s.t, 1);
    assert.equal(s.steps, 2);
    assert.match(await page.textContent('#clock'), /^t = 1\.00 s/);
  });
});
