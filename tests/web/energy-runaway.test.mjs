// The energy plot keeps the method that explodes (issue 31 §2): once explicit Euler passes 100 %
// the axis goes on past the other lanes' linear range in decades (a symmetric log axis, as a
// plotting tool's symlog), so the lane stays drawn, with no "off scale" triangle and no box to
// tick, while the lanes that keep their energy keep their readable linear band.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

// Steps the page n steps and waits until the plots have drawn that state.
async function stepAndDraw(page, n) {
  const t = await page.evaluate((n) => { for (let k = 0; k < n; ++k) window.stepwise.step(); return window.stepwise.state().t; }, n);
  await page.waitForFunction((t) => window.stepwise.debug.plots()?.drawnAt === t && window.stepwise.debug.plots().energy, t);
  return page.evaluate(() => window.stepwise.debug.plots());
}

test('the default spring at 10 s: explicit Euler at +130 % stays on the energy plot beside the others\' linear band', async () => {
  for (const [scheme, lang] of [['light', 'en'], ['dark', 'de']]) {
    await pageChecks(env, { hash: lang === 'de' ? 'lang=de' : '', width: 1280, height: 800, scheme }, async (page) => {
      const plots = await stepAndDraw(page, 1000);
      const s = await page.evaluate(() => window.stepwise.state());
      const euler = s.integrators.find((i) => i.id === 'explicit_euler');
      assert.ok(euler.drift > 1.2, `explicit Euler has run away: ${euler.drift}`);
      const e = plots.energy;
      assert.equal(plots.log, false, 'no log scale ticked');
      assert.equal(e.scale, 'linear, then decades');
      assert.deepEqual(e.offScale, [], 'no lane off scale');
      assert.ok(e.lanes.some((l) => l.id === 'explicit_euler'), 'explicit Euler is drawn');
      // The linear band is the bounded lanes' (semi-implicit Euler's −0.6 %), not ±130 %.
      const bounded = Math.max(...s.integrators.filter((i) => i.id !== 'explicit_euler').map((i) => Math.abs(i.drift) * 100));
      assert.ok(e.linearTo[1] >= bounded && e.linearTo[1] < 5 * Math.max(bounded, 0.2), `the linear band ${e.linearTo} for ${bounded} %`);
      // The decades above it are labelled: 10 % and 100 %.
      assert.ok(e.yTicks.includes('10') && e.yTicks.includes('100'), `decade ticks: ${e.yTicks}`);
      await screenshot(page, `i31-energy-runaway-${scheme}-${lang}`);
    });
  }
});

test('a lane that diverges (stiff spring, explicit Euler at ×10¹³): in view, its stop marked on the plot', async () => {
  await pageChecks(env, { hash: 'preset=stiff_spring', width: 1280, height: 800 }, async (page) => {
    const plots = await stepAndDraw(page, 60);
    const s = await page.evaluate(() => window.stepwise.state());
    assert.equal(s.integrators.find((i) => i.id === 'explicit_euler').stopReason, 'diverged');
    const e = plots.energy;
    assert.equal(e.scale, 'linear, then decades');
    assert.deepEqual(e.offScale, []);
    assert.ok(e.lanes.some((l) => l.id === 'explicit_euler'));
    assert.ok(e.yTicks.some((label) => /^1e1[0-9]$/.test(label)), `decades up to 1e10 % and past: ${e.yTicks}`);
    await screenshot(page, 'i31-energy-diverged');
  });
});
