// The projectile the System menu opens (issue 31 §2): it has no ground yet, so the menu writes a
// duration that ends the flight where it comes back to its launch height, t = 2·v0y/g (the core's
// defaults, 10 s, stay for the CLI and the pinned outputs), and the view fits that 5 m arc rather
// than a 400 m fall. Explicit Euler's energy change is then the straight line its closed form
// gives, g²·h·t/(2·|v0|²) (v_n exact, y_n = exact + g·h·t/2), to the end: the energy scale (the
// exact motion's kinetic + |potential| energy) never grows during the flight. The launch line's
// label never covers the notes on coincident lanes ("Runge–Kutta 4 same as Velocity Verlet").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, config, screenshot } from './helpers.mjs';
import { valueOf } from '../../web/common/query.js';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const g = 9.81, v0 = [10, 10];
const flight = 2 * v0[1] / g;  // 2.0387… s
const apex = v0[1] * v0[1] / (2 * g);  // 5.097 m

const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

test('System → Projectile: the flight back to the launch height, fitted, with explicit Euler\'s energy change on its line', async () => {
  for (const scheme of ['light', 'dark']) {
    await pageChecks(env, { width: 1280, height: 800, scheme }, async (page) => {
      await page.selectOption('#scenario', 'projectile');
      await page.waitForFunction(() => /scenario=projectile/.test(window.stepwise.config()));
      const c = await config(page);
      assert.equal(Number(valueOf(c, 'duration')), flight, `the duration is 2·v0y/g: ${c}`);
      assert.equal(valueOf(c, 'v0'), '10,10');
      assert.equal(valueOf(c, 'g'), '9.81');
      // Step to the end of the run, reading explicit Euler's energy change on the way.
      const { dt, samples, end } = await page.evaluate(async () => {
        const s = () => window.stepwise.state();
        const euler = () => s().integrators.findIndex((i) => i.id === 'explicit_euler');
        const samples = [];
        for (let n = 0; n < 400 && s().t < Number(/duration=([^&]+)/.exec(window.stepwise.config())[1]); ++n) {
          window.stepwise.step();
          if (n % 25 === 0) samples.push({ t: s().t, drift: s().integrators[euler()].drift });
        }
        return { dt: s().dt, samples, end: { t: s().t, drift: s().integrators[euler()].drift } };
      });
      assert.ok(end.t >= flight && end.t < flight + dt, `the run ends with the flight (t = ${end.t})`);
      for (const { t, drift } of samples) {
        const line = g * g * dt * t / (v0[0] ** 2 + v0[1] ** 2);
        assert.ok(Math.abs(drift - line) <= 1e-9 * line, `t = ${t}: explicit Euler's drift ${drift} on its line ${line}`);
      }
      // The last step ends 1.3 ms past the flight, 1.2 cm below y = 0: the scale grows by 2·m·g·1.2 cm of 100 J there.
      const line = g * g * dt * end.t / (v0[0] ** 2 + v0[1] ** 2);
      assert.ok(Math.abs(end.drift - line) <= 3e-3 * line, `the end: ${end.drift} against ${line}`);
      // The view fits the arc: the launch and landing points and the apex, and not a fall below.
      const view = await page.evaluate(() => window.stepwise.debug.canvas());
      const v = view.visible;
      assert.ok(v.minX <= 0 && v.maxX >= v0[0] * flight, `the flight's 20.4 m across in view: ${JSON.stringify(v)}`);
      assert.ok(v.minY <= 0 && v.maxY >= apex, `the apex at ${apex} m in view: ${JSON.stringify(v)}`);
      // Fitted to the arc, not a fall: as wide as the flight with a margin, centred on its height.
      assert.ok(v.maxX - v.minX <= 1.3 * v0[0] * flight, `as wide as the flight: ${JSON.stringify(v)}`);
      assert.ok(Math.abs((v.minY + v.maxY) / 2 - apex / 2) < 0.1 * apex, `centred on the arc's height: ${JSON.stringify(v)}`);
      // The plots' time axis ends with the flight, not at the next round time (3 s).
      await page.waitForFunction((t) => window.stepwise.debug.plots()?.drawnAt === t, end.t);
      const plots = await page.evaluate(() => window.stepwise.debug.plots());
      assert.deepEqual(plots.energy.xRange, [0, end.t]);
      await screenshot(page, `i31-projectile-menu-1280-${scheme}`);
    });
  }
});

test('the launch line\'s label never covers the notes on coincident lanes', async () => {
  // The core's own 10 s projectile (a link gives it): y = 0 is at the top, where the notes are.
  for (const hash of ['scenario=projectile', 'scenario=projectile&lang=de', 'scenario=projectile&duration=2.038735983690112']) {
    await pageChecks(env, { hash, width: 1280, height: 800 }, async (page) => {
      await page.evaluate(() => { for (let n = 0; n < 150; ++n) window.stepwise.step(); });
      await page.waitForFunction(() => window.stepwise.debug.canvas()?.sameAs.length > 0);
      const view = await page.evaluate(() => window.stepwise.debug.canvas());
      assert.deepEqual(view.sameAs, [{ id: 'rk4', sameAs: 'velocity_verlet' }], hash);
      assert.ok(view.sameNotesBox && view.launchLabelBox, `${hash}: both are drawn: ${JSON.stringify(view)}`);
      assert.ok(!overlap(view.sameNotesBox, view.launchLabelBox), `${hash}: ${JSON.stringify([view.sameNotesBox, view.launchLabelBox])}`);
      const r = view.rect, b = view.launchLabelBox;
      assert.ok(b.x >= r.x && b.x + b.w <= r.x + r.w && b.y >= r.y && b.y + b.h <= r.y + r.h, `${hash}: the label inside the view`);
      await screenshot(page, `i31-launch-label-${hash.replace(/\W+/g, '-')}`);
    });
  }
});
