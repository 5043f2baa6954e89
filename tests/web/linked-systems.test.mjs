// Linked systems in the page (issue 20): every pendulum, chain and bridge preset opens and draws
// with no console error; rigid links are bars, compliant ones coils (the scene's connectors carry
// their compliance); a run of the rigid links' reference alone plays with its legend row and its
// links' numbers, and no empty energy or error plot; a force-based lane on rigid links says why in
// the legend, naming compliance, in English and German; the phase cloud on a linked system says
// why in the view's place; the export includes the reference's rows when the link asks for them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startBrowser, openPage, pageChecks, playOn, state, screenshot, finished, errors, playUntil, framesPass } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const linkedPresets = ['pendulum_small', 'pendulum_large', 'pendulum_over_top', 'double_pendulum', 'pendulum_challenge',
  'pendulum_challenge_default', 'hanging_chain', 'heavy_chain_60hz', 'rope', 'bridge_sag'];

// How many of the motion canvas's pixels differ from its most common colour (the background).
const inkedPixels = (page) => page.evaluate(() => {
  const c = document.getElementById('view');
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const counts = new Map();
  for (let i = 0; i < data.length; i += 4) {
    const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  const background = Math.max(...counts.values());
  return data.length / 4 - background;
});

const legendText = (page) => page.evaluate(() => document.getElementById('legend').innerText);
const figureShown = (page, id) => page.evaluate((canvas) => !document.getElementById(canvas).closest('figure').hidden, id);

test('every linked preset opens, plays and draws, with no console error; links are bars or coils by their compliance', async () => {
  const scenarios = new Set((await (async () => {
    const p = await openPage(env, {});
    try { return p.page.evaluate(() => window.stepwise.presets().map((q) => q.id)); } finally { await p.context.close(); }
  })()));
  for (const id of linkedPresets) assert.ok(scenarios.has(id), `the core has the preset ${id}`);
  for (const id of linkedPresets) {
    await pageChecks(env, { hash: `preset=${id}` }, async (page) => {
      const scene = await page.evaluate(() => window.stepwise.scene());
      const links = scene.springs.filter((s) => s.kind === 'link');
      assert.ok(links.length > 0, `${id}: links in the scene`);
      for (const l of links) assert.equal(typeof l.compliance, 'number', `${id}: a link's compliance`);
      await playOn(page, 600);
      const s = await state(page);
      assert.ok(s.t > 0, `${id} plays (t = ${s.t})`);
      assert.ok(s.links && Number.isFinite(s.links.constraintError) && Number.isFinite(s.links.tension), `${id}: the reference's links`);
      const inked = await inkedPixels(page);
      assert.ok(inked > 500, `${id}: the canvas is drawn (${inked} pixels)`);
      assert.match(await legendText(page), /links .* · tension .* N/, `${id}: the links' numbers in the legend`);
      assert.ok(await figureShown(page, 'plot-links') && await figureShown(page, 'plot-tension'), `${id}: the links' plots`);
      const plots = await page.evaluate(() => window.stepwise.debug.plots());
      assert.ok(plots.links && plots.tension, `${id}: the links' plots drawn`);
      for (const lane of s.integrators) {
        assert.ok(Number.isFinite(lane.constraintError) && Number.isFinite(lane.tension), `${id} ${lane.id}: its links`);
      }
    });
  }
});

test('the reference of rigid links alone plays: it moves, its legend row has its links, no empty energy or error plot', async () => {
  // The reference alone is asked for (integrators=reference): a rigid system's own lanes are the
  // solvers that step rods (rods.test.mjs).
  await pageChecks(env, { hash: 'preset=pendulum_large&integrators=reference' }, async (page) => {
    const start = await state(page);
    assert.deepEqual(start.integrators, [], 'no lane: the reference alone');
    assert.match(await page.evaluate(() => window.stepwise.config()), /integrators=reference/);
    // To t = 1 s in steps of dt, the same on any machine (played for a second of wall time, a busy
    // machine stopped it earlier, near the top, where the rod pushes: tension < 0).
    await page.evaluate(() => { for (let k = 0; k < 100; ++k) window.stepwise.step(); });
    await page.waitForFunction(() => window.stepwise.state().steps >= 100);
    const s = await state(page);
    assert.equal(s.steps, 100, `it plays (t = ${s.t})`);
    assert.ok(Math.hypot(s.reference[0].x - start.reference[0].x, s.reference[0].y - start.reference[0].y) > 0.05, 'the bob moved');
    assert.ok(s.links.tension > 0 && s.links.constraintError < 1e-12, `the rod: ${JSON.stringify(s.links)}`);
    const legend = await legendText(page);
    assert.match(legend, /Exact solution/);
    assert.match(legend, /links 0 % · tension [\d.]+ N/);
    assert.doesNotMatch(legend, /diverged/, 'no lane to explain');
    assert.equal(await figureShown(page, 'plot-energy'), false, 'no energy plot without a lane');
    assert.equal(await figureShown(page, 'plot-error'), false, 'no error plot without a lane');
    assert.equal(await figureShown(page, 'plot-phase'), true);
    assert.ok(await inkedPixels(page) > 500);
    // The X-ray has no integrator's step to show, and says so with the control that adds one.
    await page.click('#xray-open');
    assert.deepEqual(await errors(page), ['The X-ray shows one step of an integrator, and this run has none (only the reference): tick one under Integrators.']);
    assert.equal(await page.isVisible('#xray'), false);
    // A lane checked beside it keeps the reference's rows (it has no box); it cannot step the rod.
    await page.check('#int-rk4');
    assert.match(await page.evaluate(() => window.stepwise.config()), /integrators=rk4,reference/);
    assert.match(await legendText(page), /set compliance above 0/);
    // Another system starts from its own integrators, not from the reference alone.
    await page.uncheck('#int-rk4');
    assert.match(await page.evaluate(() => window.stepwise.config()), /integrators=reference&/);
    await page.selectOption('#scenario', 'spring');
    assert.doesNotMatch(await page.evaluate(() => window.stepwise.config()), /integrators=reference/);
  });
});

test('a force-based lane on rigid links says why in the legend, naming compliance, in English and German', async () => {
  await pageChecks(env, { hash: 'preset=hanging_chain&integrators=rk4,reference' }, async (page) => {
    await playOn(page, 400);
    const s = await state(page);
    assert.equal(s.integrators.length, 1);
    assert.equal(s.integrators[0].stopReason, 'needs_compliance');
    const row = await page.evaluate(() => document.querySelector('.legend-row[data-lane="rk4"]').innerText);
    assert.match(row, /cannot step a rigid link: .*set compliance above 0/);
    assert.doesNotMatch(row, /at t = /, 'it never started: no time');
    assert.doesNotMatch(row, /energy|error/, 'nor numbers');
    // Only the reference is drawn; the lane's plots give way.
    assert.equal(await figureShown(page, 'plot-energy'), false);
  });
  await pageChecks(env, { hash: 'preset=hanging_chain&integrators=rk4,reference&lang=de' }, async (page) => {
    const row = await page.evaluate(() => document.querySelector('.legend-row[data-lane="rk4"]').innerText);
    assert.match(row, /kann kein starres Glied rechnen: .*compliance über 0 setzen/);
  });
});

test('German: the linked scenarios, presets, legend and plots', async () => {
  await pageChecks(env, { hash: 'preset=double_pendulum&lang=de' }, async (page) => {
    await playOn(page, 400);
    const text = await page.evaluate(() => document.body.innerText);
    for (const german of ['Kette', 'Doppelpendel', 'Glieder', 'Zugkraft', 'Winkel θ']) assert.ok(text.includes(german), german);
    for (const english of ['Double pendulum', 'tension', 'Two links released', 'start angle']) {
      assert.ok(!text.includes(english), `no English '${english}'`);
    }
    const options = await page.evaluate(() => [...document.querySelectorAll('option')].map((o) => o.textContent));
    for (const name of ['Pendel', 'Brücke', 'Hängende Kette mit schwerem Ende', 'Seil, waagerecht losgelassen', 'Brücke, die sich setzt']) {
      assert.ok(options.includes(name), `the option ${name}`);
    }
  });
});

test('the phase cloud on a linked system says why in its place, in English and German', async () => {
  // The bridge, a closed loop: turning it about one anchor would pull it off the other.
  await pageChecks(env, { hash: 'preset=bridge_sag&view=cloud' }, async (page) => {
    const report = await page.evaluate(() => window.stepwise.debug.analysis());
    assert.equal(report.view, 'cloud');
    assert.equal(report.state, 'not available');
    assert.match(report.text, /Phase cloud: not available for this system/);
    assert.match(report.text, /would pull it off the other/);
    assert.deepEqual(await page.evaluate(() => window.stepwise.errors()), [], 'no banner: the view says it');
    assert.equal(await page.isVisible('#loop-off'), false, 'no game-loop button');
  });
  await pageChecks(env, { hash: 'preset=bridge_sag&view=cloud&lang=de' }, async (page) => {
    const report = await page.evaluate(() => window.stepwise.debug.analysis());
    assert.match(report.text, /für dieses System nicht verfügbar/);
    assert.match(report.text, /vom anderen wegziehen/);
  });
});

// The analysis views on linked systems: the stability view places the double pendulum's stiffest
// mode (found when the view asks); the convergence study of the reference alone says why it
// measures nothing, rather than showing empty plots without a word.
test('the stability view of the double pendulum and the convergence view of the reference alone', async () => {
  await pageChecks(env, { hash: 'preset=double_pendulum&view=stability' }, async (page) => {
    const report = await finished(page);
    assert.ok(report.system && report.system.omega > 100, JSON.stringify(report.system));
  });
  await pageChecks(env, { hash: 'preset=pendulum_large&integrators=reference&view=convergence' }, async (page) => {
    await finished(page);
    assert.match(await page.evaluate(() => document.getElementById('analysis').innerText), /Nothing to measure: .*set compliance above 0/);
  });
});

test('the export includes the reference\'s rows when the link asks for them; the CSV keeps its columns', async () => {
  const { page, context, problems } = await openPage(env, { hash: 'preset=double_pendulum&integrators=rk4,reference&duration=0.05' });
  try {
    await page.evaluate(() => window.stepwise.step());
    const s = await state(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
    const text = fs.readFileSync(await download.path(), 'utf8');
    const lines = text.trim().split('\n');
    assert.equal(lines[0], 't,integrator,body,x,y,vx,vy,energy,error');
    const integrators = new Set(lines.slice(1).map((l) => l.split(',')[1]));
    assert.deepEqual([...integrators].sort(), ['reference', 'rk4']);
    assert.equal(lines.length - 1, (s.steps + 1) * 2 * 2, 'two lanes of rows (rk4 and the reference), two bodies');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// The pictures to judge by eye (test-artifacts/): each linked preset at 1280 × 800, on a phone,
// dark and in German.
test('screenshots of the linked presets', async () => {
  const looks = [['', { width: 1280, height: 800 }], ['-phone', { width: 390, height: 844 }],
    ['-dark', { width: 1280, height: 800, scheme: 'dark' }], ['-de', { width: 1280, height: 800 }, '&lang=de']];
  for (const id of ['double_pendulum', 'pendulum_large', 'rope', 'bridge_sag', 'hanging_chain']) {
    for (const [suffix, options, extra = ''] of looks) {
      await pageChecks(env, { hash: `preset=${id}${extra}`, ...options }, async (page) => {
        await playUntil(page, 1);
        await framesPass(page, 2);
        await screenshot(page, `linked-${id}${suffix}`);
      });
    }
  }
});

// Issue 31 §2: the constraint error in % of a link, as the presets' texts give it (heavy_chain_60hz:
// "stretched 14 %"), not as a bare fraction ("links 0.18").
test('the legend gives each lane\'s constraint error in % of a link', async () => {
  await pageChecks(env, { hash: 'preset=heavy_chain_60hz' }, async (page) => {
    await page.evaluate(() => { for (let k = 0; k < 30; ++k) window.stepwise.step(); });
    const s = await state(page);
    const texts = await page.evaluate(() => [...document.querySelectorAll('.legend-row:not(.ghost) .links')].map((e) => e.textContent));
    assert.equal(texts.length, s.integrators.length);
    s.integrators.forEach((lane, k) => {
      const m = /^links (\S+) % · tension /.exec(texts[k]);
      assert.ok(m, `${lane.id}: "${texts[k]}"`);
      const shown = Number(m[1].replace('\u2212', '-'));
      const percent = lane.constraintError * 100;
      assert.ok(Math.abs(shown - percent) <= 0.006 * Math.abs(percent), `${lane.id}: ${shown} % shown, ${percent} % in the state`);
    });
  });
});
