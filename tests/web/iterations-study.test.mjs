// The convergence view along the iterations axis (issue 21 §3): with a game-physics solver among
// the lanes the view offers "Vary: iterations"; each solver lane is run again at its dt and
// substeps with its iterations doubled at each level, and the verdict says where its error goes.
// On a lone body on a zero-rest spring one XPBD iteration is implicit Euler's step, so its error
// settles at once on implicit Euler's error at that dt (0.252 m here, tests/test_cli.cpp), not the
// exact motion's 0. Without a solver lane the choice is hidden.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, errors, finished, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const withPage = (options, fn) => pageChecks(env, options, fn);

test('Vary: iterations on a spring with XPBD: settled on implicit Euler\'s error, rk4 left out; back to dt', async () => {
  const hash = 'scenario=spring&k=4&m=1&b=0&x0=1,0&v0=0,0&dt=0.05&duration=3&integrators=rk4,xpbd@1x1&view=convergence';
  await withPage({ hash }, async (page) => {
    assert.deepEqual(await errors(page), []);
    await finished(page);
    assert.equal(await page.locator('.study-axis').isVisible(), true, 'the axis choice is offered');
    await page.selectOption('.study-axis select', 'iterations');
    const r = await finished(page);
    assert.equal(r.axis, 'iterations');
    assert.deepEqual(r.rows.map((row) => row.id), ['xpbd@1x1'], 'only the lane with iterations');
    const [row] = r.rows;
    assert.equal(row.kind, 'settled');
    assert.match(row.verdict, /^settled on 0\.252 m by 16 iterations: the step's own error at dt = 0\.05 s, not the exact motion/);
    assert.equal(row.tableOrder, '—');
    assert.match(await page.textContent('.study-status'), /^Done: 5 levels, dt 0\.05 s, iterations ×1 … ×16/);
    assert.match(await page.textContent('.analysis-plots figcaption'), /^Max position error against iterations/);
    assert.match(await page.textContent('.view-intro'), /iterations doubled at each level/);
    // The address does not change: the axis is the view's, not the setup's.
    assert.doesNotMatch(await page.evaluate(() => location.hash), /iterations/);
    await screenshot(page, 'convergence-iterations');
    await page.selectOption('.study-axis select', 'dt');
    const back = await finished(page);
    assert.equal(back.axis, 'dt');
    assert.deepEqual(back.rows.map((x) => x.id), ['rk4', 'xpbd@1x1']);
    assert.equal(back.rows[0].verdict, 'holds');
  });
});

test('German: the iterations verdict in German; no solver lane hides the choice', async () => {
  const hash = 'scenario=spring&k=4&m=1&b=0&x0=1,0&v0=0,0&dt=0.05&duration=3&integrators=xpbd@1x1&view=convergence&lang=de';
  await withPage({ hash }, async (page) => {
    await finished(page);
    await page.selectOption('.study-axis select', 'iterations');
    const r = await finished(page);
    assert.match(r.rows[0].verdict, /^bleibt mit 16 Iterationen bei 0,252 m stehen/);
    assert.match(await page.textContent('.study-axis'), /^Verändert wird/);
  });
  await withPage({ hash: 'scenario=spring&b=0&integrators=rk4&view=convergence' }, async (page) => {
    await finished(page);
    assert.equal(await page.locator('.study-axis').isVisible(), false);
  });
});

test('a heavy-ended chain: XPBD\'s error still falling as its one iteration becomes sixteen, in singular and plural', async () => {
  const hash = 'preset=hanging_chain&integrators=xpbd@20x1&dt=0.016666666666666666&duration=2&view=convergence';
  await withPage({ hash }, async (page) => {
    await finished(page);
    await page.selectOption('.study-axis select', 'iterations');
    const r = await finished(page, 120000);
    assert.equal(r.rows[0].kind, 'falling');
    assert.match(r.rows[0].verdict, /^still falling: \S+ m at 1 iteration, \S+ m at 16 iterations \(\S+ % at the last doubling\)$/);
    assert.equal(await page.textContent('.study-regime'), '', 'no order in dt to explain');
  });
});
