// Convergence verdicts that follow from the numbers on screen (issue 23, defect 3): a verdict
// rests on the slopes between successive halvings of dt, says over which dts an order holds and
// why the coarser ones do not show it; the Measured column and the legend's "measured" badge give
// the order the verdict rests on, never a fit over levels it set aside; a note about damping is
// not shown on a system without any.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, finished, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const byId = (r) => Object.fromEntries(r.rows.map((x) => [x.id, x]));
const near = (text, p, tol = 0.35) => Math.abs(Number(text) - p) <= tol;

test('two_springs: kinematic falls as dt² at every halving, so its order holds; a drifting slope is not settled', async () => {
  await pageChecks(env, { width: 1280, height: 800, hash: 'preset=two_springs&view=convergence' }, async (page) => {
    const rows = byId(await finished(page));
    // Errors 0.98, 0.24, 0.060, 0.015, 0.0038 m: every halving divides them by 4.
    assert.equal(rows.kinematic.verdict, 'holds', rows.kinematic.verdict);
    assert.ok(near(rows.kinematic.measured, 2, 0.05), rows.kinematic.measured);
    assert.equal(rows.kinematic_avg.verdict, 'holds');
    assert.equal(rows.rk4.verdict, 'holds');
    // Semi-implicit Euler's slope goes 1.77, 1.72, 1.57, 1.40: towards 1, not an order yet.
    const semi = rows.semi_implicit_euler;
    assert.equal(semi.kind, 'unfit');
    assert.match(semi.verdict, /^its slope goes from 1\.77 to 1\.40 as dt shrinks, towards the table's order 1: not settled yet/);
    assert.equal(semi.measured, '', 'no measured order while the slope is not settled');
    assert.doesNotMatch(await page.textContent('.study-table'), /as large as the motion/);
    await screenshot(page, 'i23-verdicts-two-springs-1280');
  });
});

test('stiff_spring: the order holds at the finer dts, the coarser ones are named with why; no damping note at b = 0', async () => {
  await pageChecks(env, { width: 1280, height: 800, hash: 'preset=stiff_spring&view=convergence' }, async (page) => {
    const r = await finished(page);
    const rows = byId(r);
    // Velocity Verlet: errors 2.0, 2.0, 1.73, 0.51, 0.13 m; Runge–Kutta 4: 1.0, 0.71, 0.063, 0.0040, 0.00025 m.
    for (const [id, p] of [['velocity_verlet', 2], ['rk4', 4]]) {
      const row = rows[id];
      assert.equal(row.kind, 'holds', `${id}: ${row.verdict}`);
      assert.match(row.verdict, /^holds at dt ≤ 0\.0125 s \(slope \d\.\d\d\); at dt ≥ 0\.025 s its errors \(up to [\d.]+ m\) are as large as the motion/, row.verdict);
      assert.ok(near(row.measured, p), `${id}: measured ${row.measured} against the table's ${p}`);
      assert.equal(row.measuredOver, 'dt ≤ 0.0125 s');
    }
    // Semi-implicit Euler: slopes 0.33, 0.18, 1.60, 1.77, changing from halving to halving.
    assert.match(rows.semi_implicit_euler.verdict, /^its slope changes from one halving to the next \(0\.33 → 0\.18 → 1\.60 → 1\.77\): .*; at dt ≥ 0\.025 s its errors \(up to 2\.62 m\) are as large as the motion/);
    assert.equal(rows.semi_implicit_euler.measured, '');
    // Every shown measured order that a verdict calls "holds" is within reach of the table's.
    for (const row of r.rows) {
      if (row.kind === 'holds') assert.ok(near(row.measured, Number(row.tableOrder)), `${row.id}: ${row.measured} vs ${row.tableOrder}`);
    }
    const table = await page.textContent('.study-table');
    assert.match(table, /Velocity Verlet\s*2\s*1\.\d\ddt ≤ 0\.0125 s\s*holds at dt ≤ 0\.0125 s/);
    // b = 0: nothing here is damped, so "Damping and drag see a predicted velocity" is no note here.
    assert.doesNotMatch(await page.textContent('.study-notes'), /Damping and drag/);
    await screenshot(page, 'i23-verdicts-stiff-1280');
  });
});

test('the motion legend\'s measured badge agrees with the order badge beside it or says why not', async () => {
  await pageChecks(env, { width: 1280, height: 800, hash: 'preset=stiff_spring' }, async (page) => {
    await page.waitForFunction(() => [...document.querySelectorAll('.legend-row:not(.ghost)')]
      .filter((r) => !r.querySelector('.badge.measured').hidden).length >= 3, null, { timeout: 30000 });
    const rows = Object.fromEntries(await page.$$eval('.legend-row:not(.ghost)', (list) => list.map((r) => [r.dataset.lane, {
      order: r.querySelector('.badge.order').textContent,
      measured: r.querySelector('.badge.measured').hidden ? null : r.querySelector('.badge.measured').textContent,
      title: r.querySelector('.badge.measured').title,
    }])));
    assert.equal(rows.explicit_euler.measured, null, 'diverged at every dt: no measured order');
    assert.match(rows.velocity_verlet.measured, /^measured 1\.\d\d at dt ≤ 0\.0125 s$/);
    assert.ok(near(rows.velocity_verlet.measured.split(' ')[1], 2));
    assert.match(rows.rk4.measured, /^measured [34]\.\d\d at dt ≤ 0\.0125 s$/);
    assert.ok(near(rows.rk4.measured.split(' ')[1], 4));
    assert.equal(rows.semi_implicit_euler.measured, 'measured: not settled');
    // The why, in the badge's title: the verdict of the Convergence view.
    assert.match(rows.rk4.title, /\(Convergence view\): holds at dt ≤ 0\.0125 s .*as large as the motion/);
    assert.match(rows.semi_implicit_euler.title, /: its slope changes from one halving to the next/);
  });
});
