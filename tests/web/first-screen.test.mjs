// Issue 23 §2, the first screen, measured from the elements' boxes in headless Chromium:
// - at 1280 × 800, without scrolling: the canvas, play / step / reset, the system's main
//   parameters as sliders with their values (dt, and the first three that are not a mass),
//   the integrators chosen (by name), and the game loop's controls when a loop is on; dragging a
//   slider applies its value at once; the rest (the integrators' whole list, the time step's
//   fields, the cloud, every parameter) folds under summaries a keyboard opens;
// - on a phone the canvas and play are in the first screen, before the settings' fields.
// The page was 2,661 px tall there, with the parameters about 1,900 px down. Screenshots in
// test-artifacts/ (i23-first-screen-*).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, screenshot, config } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

// Each selector's first element's box, and whether it lies whole inside the first screen.
const boxes = (page, selectors) => page.evaluate((list) => list.map((sel) => {
  const e = document.querySelector(sel);
  if (!e) return { sel, shown: false };
  const r = e.getBoundingClientRect();
  const shown = r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  return { sel, shown, box: [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)] };
}), selectors);

const assertShown = async (page, selectors, where) => {
  for (const b of await boxes(page, selectors)) assert.ok(b.shown, `${where}: ${b.sel} in the first screen (${JSON.stringify(b.box)})`);
};

const playback = ['#view', '#play', '#step', '#reset'];

test('1280 × 800: canvas, playback, the main sliders with their values and the chosen integrators, no scrolling', async () => {
  for (const scheme of ['light', 'dark']) {
    await pageChecks(env, { width: 1280, height: 800, scheme, unfold: false }, async (page) => {
      assert.equal(await page.evaluate(() => scrollY), 0);
      const sliders = ['#dt-slider', '#slider-k', '#slider-b', '#slider-rest'];
      await assertShown(page, [...playback, ...sliders, '#dt-slider-value', '#integrators-chosen', '#loop'], `spring ${scheme}`);
      // Each slider's value beside it, with its unit.
      const values = await page.$$eval('#main-params .slider-value', (list) => list.map((o) => o.textContent));
      assert.deepEqual(values, ['0.01 s', '15 N/m', '0.1 N·s/m', '0 m']);
      // The lanes in the link's order, as the legend lists them.
      assert.equal(await page.textContent('#integrators-chosen'), 'Explicit Euler, Semi-implicit Euler, Velocity Verlet, Runge–Kutta 4');
      // The rest folds away: the fields are not on the first screen, their summaries are.
      for (const sel of ['#dt', '#duration', '#cloud', '#param-k', '#int-heun']) {
        assert.equal(await page.locator(sel).isVisible(), false, `${sel} is folded away`);
      }
      await assertShown(page, ['#more-settings > summary', '#integrators-fold > summary'], 'the summaries');
      await screenshot(page, `i23-first-screen-1280-${scheme}`);
    });
  }
});

test('a slider applies its value at once, and the folded settings open from the keyboard', async () => {
  await pageChecks(env, { width: 1280, height: 800, unfold: false }, async (page) => {
    await page.evaluate(() => window.stepwise.play());
    await page.focus('#slider-k');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => !/&k=15&/.test(window.stepwise.config()));
    const k = Number(/&k=([^&]+)&/.exec(await config(page))[1]);
    assert.ok(k > 15, `k went up: ${k}`);
    assert.equal(await page.textContent('#slider-k + output, #main-params output[for="slider-k"]'), `${k} N/m`);
    assert.equal(await page.inputValue('#param-k'), String(k), 'the parameter\'s field says the same');
    // The damping slider: linear from 0; its end is past the value.
    const b = await page.$eval('#slider-b', (r) => ({ min: Number(r.min), max: Number(r.max), value: Number(r.value) }));
    assert.ok(b.min === 0 && b.max >= 1 && b.value === 0.1, JSON.stringify(b));
    // Tab reaches the "More" summary; Enter opens it and the dt field is there.
    await page.focus('#more-settings > summary');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#dt').isVisible(), true);
    await page.focus('#integrators-fold > summary');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#int-heun').isVisible(), true);
    await page.check('#int-heun');
    await page.waitForFunction(() => window.stepwise.config().includes('heun'));
    assert.match(await page.textContent('#integrators-chosen'), /Heun/);
  });
});

test('1280 × 800 with a game loop: its controls are in the first screen too, in English and German', async () => {
  for (const [hash, rows] of [
    ['preset=explodes_at_30fps', ['#loop', '#loop-hz', '#loop-substeps']],
    ['preset=explodes_at_30fps&lang=de', ['#loop', '#loop-hz', '#loop-substeps']],
    ['preset=substeps_rescue', ['#loop', '#loop-hz', '#loop-substeps']],
  ]) {
    await pageChecks(env, { hash, width: 1280, height: 800, unfold: false }, async (page) => {
      await assertShown(page, [...playback, '#slider-k', '#integrators-chosen', ...rows], hash);
      assert.equal(await page.locator('#dt-slider').isVisible(), false, 'the loop sets the step: no dt slider');
      await screenshot(page, `i23-first-screen-1280-${hash.replace(/\W+/g, '-')}`);
    });
  }
});

test('a phone: the canvas and play come first, in the first screen', async () => {
  for (const [hash, scheme] of [['', 'light'], ['preset=explodes_at_30fps&lang=de', 'dark']]) {
    await pageChecks(env, { hash, width: 390, height: 844, scheme, unfold: false }, async (page) => {
      await assertShown(page, playback, `phone ${hash}`);
      const [view, play] = await boxes(page, ['#view', '#play']);
      // Nothing of the settings but their one folded button above them.
      assert.equal(await page.locator('#main-params').isVisible(), false, 'the settings are folded on a phone');
      assert.ok(view.box[1] < 844 / 2 && play.box[1] < view.box[1], `play, then the canvas, high on the screen: ${JSON.stringify([view, play])}`);
      await screenshot(page, `i23-first-screen-phone-${scheme}`);
    });
  }
});
