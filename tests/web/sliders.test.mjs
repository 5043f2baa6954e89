// The first screen's parameter sliders (web/panels/controls.js mainSlider/showSlider, issue 31 §2):
// every slider's span holds a sensible range around its start value, and dragging it to its end
// moves the value past where the old first span (0 … 1, taken as given) stopped it. A log slider
// spans two decades either side of its start (within the parameter's bounds), so k1 = 10 on
// two_springs reaches 0.1 … 1000 N/m, not 1 … 10; a linear one from 0 at least to 10 in its unit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, config, screenshot } from './helpers.mjs';
import { valueOf } from '../../web/common/query.js';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

// [hash, the slider's key, its start value, log or linear]: the ones issue 31 found stuck.
const cases = [
  ['preset=two_springs', 'k1', 10, 'log'],
  ['scenario=spring_pair', 'k', null, 'log'],
  ['scenario=orbit', 'gm', null, 'log'],
  ['scenario=pendulum', 'length', 1, 'log'],
  ['scenario=chain', 'length', 1, 'log'],
  ['scenario=chain', 'links', 2, 'log'],
  ['scenario=bridge', 'length', null, 'log'],
  ['scenario=bridge', 'span', 8, 'log'],
  ['scenario=spring', 'b', 0.1, 'linear'],
  ['scenario=projectile', 'drag', 0, 'linear'],
  ['preset=scene_duffing', 'c2', 2, 'linear'],
];

const sliderOf = (page, key) => page.$eval(`#slider-${key}`, (r) => ({ min: Number(r.min), max: Number(r.max), value: Number(r.value) }));

test('each main slider spans a sensible range around its start, and dragging it goes past the old 0 … 1', async () => {
  for (const [hash, key, start, kind] of cases) {
    await pageChecks(env, { hash, width: 1280, height: 800, unfold: false }, async (page) => {
      const spec = await page.evaluate(({ hash, key }) => {
        const scenario = /scenario=(\w+)/.exec(window.stepwise.config())[1];
        return window.stepwise.scenarios().find((s) => s.id === scenario).params.find((p) => p.key === key) ?? null;
      }, { hash, key });
      const value = Number(valueOf(await config(page), key));
      if (start !== null) assert.equal(value, start, `${hash}: ${key} starts at ${start}`);
      const r = await sliderOf(page, key);
      if (kind === 'log') {
        const c = Math.log10(value);
        const least = spec ? Math.log10(spec.min) : -Infinity, most = spec ? Math.log10(spec.max) : Infinity;
        assert.ok(Math.abs(r.value - c) < 1e-9, `${hash} ${key}: the slider is at the value (${r.value} vs ${c})`);
        assert.ok(r.min <= Math.max(c - 1, least) + 1e-9, `${hash} ${key}: a decade below ${value} at least (${JSON.stringify(r)})`);
        assert.ok(r.max >= Math.min(c + 1, most) - 1e-9, `${hash} ${key}: a decade above ${value} at least (${JSON.stringify(r)})`);
      } else {
        assert.ok(r.min <= Math.min(0, value) && r.max >= Math.max(10, 2 * Math.abs(value)), `${hash} ${key}: 0 … 10 at least around ${value} (${JSON.stringify(r)})`);
      }
      // Dragged to its far end: the value goes past the old span's end (10^1 on a log slider, 1 on a linear one).
      await page.$eval(`#slider-${key}`, (range) => {
        range.focus();
        range.value = range.max;
        range.dispatchEvent(new Event('input', { bubbles: true }));
      });
      await page.waitForFunction(([key, old]) => {
        const m = new RegExp(`[?&]${key}=([^&]*)`).exec(window.stepwise.config());
        return m !== null && Number(m[1]) !== old;
      }, [key, value]);
      const dragged = Number(valueOf(await config(page), key));
      const oldEnd = kind === 'log' ? 10 : 1;
      assert.ok(dragged > oldEnd, `${hash} ${key}: dragged to ${dragged}, past the old end ${oldEnd}`);
      assert.deepEqual(await page.evaluate(() => window.stepwise.errors()), [], `${hash} ${key}: the core takes the dragged value`);
      if (key === 'k1') await screenshot(page, 'i31-sliders-two-springs');
    });
  }
});
