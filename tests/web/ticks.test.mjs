// Axis ticks and grid lines never depend on a step that can be 0, non-finite or too small for its
// span (issue 40 §1): `#scenario=spring&dt=5e-324&duration=5e-324` hung the page, because
// niceStep(5e-324, 5) was 0 and the time axis's loop `k·step ≤ end` never ended, and after about
// 65 s the renderer crashed. Every loop over multiples of a step now counts its lines and stops
// at a bound (coords.js stepMultiples, mostMultiples).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { niceStep, stepMultiples, linearTicks, axisTicks, mostMultiples } from '../../web/motion/coords.js';
import { decadeTicks } from '../../web/views/parts.js';
import { startBrowser, openPage, state } from './helpers.mjs';

const hostileSpans = [0, -1, 5e-324, 1e-323, 6e-323, 1e-310, 1e308, 1.7e308, Number.MAX_VALUE, Infinity, -Infinity, NaN];

test('niceStep: positive, finite and at most 20 × count steps across the span, for every span', () => {
  for (const span of hostileSpans) {
    for (const count of [1, 4, 5, 16, 100]) {
      const step = niceStep(span, count);
      assert.ok(step > 0 && Number.isFinite(step), `niceStep(${span}, ${count}) = ${step}`);
      if (span > 0 && Number.isFinite(span)) assert.ok(span / step <= 20 * count, `niceStep(${span}, ${count}) = ${step}: too small`);
    }
  }
  // Ordinary spans keep their 1-2-5 steps.
  assert.equal(niceStep(10, 5), 2);
  assert.equal(niceStep(0.3, 4), 0.1);
  assert.equal(niceStep(7, 1), 5);
  // Below 6e-323 a fifth of the span rounds to 0 (it was the step): the span itself is the step.
  assert.equal(niceStep(5e-324, 5), 5e-324);
  // 1.7e308 / 1 gives 2e308, which overflows: the span itself.
  assert.equal(niceStep(1.7e308, 1), 1.7e308);
});

test('linearTicks: a bounded list for hostile ranges, the usual ticks for ordinary ones', () => {
  assert.deepEqual(linearTicks([0, 10], 5).map((t) => t.label), ['0', '2', '4', '6', '8', '10']);
  assert.deepEqual(linearTicks([-0.3, 0.3], 4).map((t) => t.label), ['\u22120.3', '\u22120.2', '\u22120.1', '0', '0.1', '0.2', '0.3']);
  // The run of one subnormal step: the time axis [0, 5e-324] has ticks at 0 and 5e-324, the first "0".
  assert.deepEqual(linearTicks([0, 5e-324], 5).map((t) => t.value), [0, 5e-324]);
  assert.equal(linearTicks([0, 5e-324], 5)[0].label, '0');
  for (const lo of hostileSpans) {
    for (const hi of hostileSpans) {
      const ticks = linearTicks([lo, hi], 5);
      assert.ok(ticks.length <= mostMultiples, `[${lo}, ${hi}]: ${ticks.length} ticks`);
      for (const t of ticks) assert.ok(Number.isFinite(t.value), `[${lo}, ${hi}]: tick ${t.value}`);
    }
  }
  // The whole range of doubles: 2e307 apart, from −1e308 to 1e308 (its span overflows to
  // Infinity, so the step is 1: the loop once ran 1e308 times).
  assert.ok(linearTicks([-1e308, 1e308], 5).length <= mostMultiples);
  assert.deepEqual(linearTicks([0, 1e308], 5).map((t) => t.value), [0, 2e307, 4e307, 6e307, 8e307, 1e308]);
});

test('stepMultiples: nothing for a step of 0, NaN or Infinity; at most the bound where the step does not advance', () => {
  for (const step of [0, -1, NaN, Infinity, -Infinity]) assert.deepEqual(stepMultiples(0, 1, step), []);
  assert.deepEqual(stepMultiples(NaN, 1, 0.5), []);
  assert.deepEqual(stepMultiples(0, Infinity, 0.5), []);
  assert.deepEqual(stepMultiples(-1, 1, 0.5), [-2, -1, 0, 1, 2]);
  assert.deepEqual(stepMultiples(0, 1, 0.25, 1e-9, 3), [0, 1, 2]);
  // At 1e17 m, 1 m steps: k + 1 is k again past 2^53, and x += step never moved x.
  assert.equal(stepMultiples(1e17, 2e17, 1).length, mostMultiples);
  // A step far too small for its span stops at the bound; one whose count overflows gives none.
  assert.equal(stepMultiples(0, 1, 1e-300).length, mostMultiples);
  assert.equal(axisTicks(0, 1, 1e-300).ticks.length, mostMultiples);
  assert.deepEqual(stepMultiples(0, 1, 5e-324), []);
  assert.equal(axisTicks(0, 1, 0).ticks.length, 0);
});

test('decadeTicks: bounded when a range runs to infinity', () => {
  assert.deepEqual(decadeTicks(-3, 1).map((t) => t.value), [-3, -2, -1, 0, 1]);
  assert.ok(decadeTicks(0, Infinity).length <= mostMultiples);
});

describe('the page', () => {
  let env;
  before(async () => { env = await startBrowser(); });
  after(async () => { await env.close(); });

  // The link of issue 40 §1: refused with a message or drawn, and the page answers: the plots are
  // drawn for the state shown after playing. Before, page.evaluate never returned (the test's timeout).
  for (const link of ['scenario=spring&dt=5e-324&duration=5e-324', 'scenario=pendulum&integrators=rk4,semi_implicit_euler&dt=1e-300&duration=1e-300']) {
    test(`the hostile link #${link} does not hang the page`, { timeout: 120000 }, async () => {
      const { page, context, problems } = await openPage(env, { hash: link });
      try {
        const s = await state(page);
        await page.evaluate(() => window.stepwise.play());
        await page.waitForFunction(() => window.stepwise.debug.plots().drawnAt === window.stepwise.state().t);
        await page.evaluate(() => window.stepwise.pause());
        const after = await state(page);
        assert.ok(Number.isFinite(after.t), `t = ${after.t}`);
        const errors = await page.evaluate(() => window.stepwise.errors());
        // Either the core refused the step (a message naming dt) or it ran it.
        if (errors.length) assert.match(errors.join(' '), /dt|duration/);
        else assert.ok(s.integrators.length > 0);
      // The plots drawn, each with a bounded number of ticks, none of them "0e0" or NaN.
      const plots = await page.evaluate(() => window.stepwise.debug.plots());
      const drawn = Object.entries(plots).filter(([, p]) => p && Array.isArray(p.xTicks));
      assert.ok(drawn.length >= 1, 'a plot drawn');
      for (const [name, p] of drawn) {
        assert.ok(p.xTicks.length <= mostMultiples && p.yTicks.length <= mostMultiples, name);
        for (const label of [...p.xTicks, ...p.yTicks]) assert.doesNotMatch(label, /NaN|Infinity|^0e0$/, `${name}: ${label}`);
      }
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
});
