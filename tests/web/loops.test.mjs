// The frame-rate lab in headless Chromium (loop=fixed|variable|accumulator, docs/game-loops.md):
// a loop preset opens from its link and animates one game frame per 1/hz of wall time with no
// console error, the line under the legend names the loop (and what the accumulator's cap
// dropped), the state after N frames equals `stepwise run … --steps N` (frames), the loop's
// controls edit the link, and a bad loop key is refused with the banner. Screenshots
// loops-{desktop,phone,dark}.png in test-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startBrowser, pageChecks, state, screenshot, config, errors } from './helpers.mjs';
import { cli, cliRowsAt } from './run-text.mjs';


let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const withPage = (options, fn) => pageChecks(env, options, fn);
const loopLine = (page) => page.textContent('#loop-line');

// N single frames (the Step button's unit with a loop), then the state.
async function framesThenState(page, n) {
  await page.evaluate((k) => { window.stepwise.pause(); for (let i = 0; i < k; ++i) window.stepwise.step(); }, n);
  await page.waitForFunction((k) => window.stepwise.state().steps >= k, n);
  return state(page);
}

// The page's bodies equal the CLI's rows to the last bit (fixed-step lanes); the error, through
// libm's exp/sin/cos, to 1e-12 of the position's size.
function assertSameAsCli(s, rows, label) {
  assert.equal(s.bodies.length, rows.length, label);
  assert.ok(Object.is(s.t, rows[0].t), `${label}: t page ${s.t} CLI ${rows[0].t}`);
  s.bodies.forEach((b, i) => {
    const r = rows[i];
    assert.equal(b.integrator, r.integrator, label);
    for (const f of ['x', 'y', 'vx', 'vy', 'energy']) assert.ok(Object.is(b[f], r[f]), `${label}: ${r.integrator} ${f}: page ${b[f]} CLI ${r[f]}`);
    assert.ok(Math.abs(b.error - r.error) <= 1e-12 * Math.max(Math.abs(r.x), Math.abs(r.y), 1), `${label}: error`);
  });
}

test('a loop preset opens from its link, names its loop, animates at its frame rate and equals the CLI frame by frame', async () => {
  await withPage({ hash: 'preset=substeps_rescue' }, async (page) => {
    assert.deepEqual(await errors(page), []);
    assert.match(await config(page), /&loop=accumulator&hz=30&substeps=4&jitter=0\.2&seed=1&max_steps=8$/);
    assert.equal(await loopLine(page),
      'game loop: accumulator at 30 Hz, 4 substeps (step 1/120 s), jitter 0.2 (seed 1), at most 8 steps a frame');
    assert.equal(await page.isVisible('#loop-line'), true);
    // The settings show the loop, its keys, and dt as the loop's step (not editable).
    assert.equal(await page.inputValue('#loop'), 'accumulator');
    assert.equal(await page.inputValue('#loop-substeps'), '4');
    assert.equal(await page.isVisible('#loop-max_steps'), true);
    assert.equal(await page.isDisabled('#dt'), true);
    assert.equal(Number(await page.inputValue('#dt')), 1 / 120);
    // A frame is the page's unit: dt is 1/30, and 7 steps are 7 frames, the CLI's 7 rows.
    const s0 = await state(page);
    assert.equal(s0.dt, 1 / 30);
    const s7 = await framesThenState(page, 7);
    assert.equal(s7.steps, 7);
    assertSameAsCli(s7, cliRowsAt('preset=substeps_rescue', 7), 'after 7 frames');
    // Playing: one new frame per 1/30 s of wall time (a busy machine may show fewer, never more),
    // and the canvas changes.
    await page.evaluate(() => window.stepwise.reset());
    const before = await page.locator('#view').screenshot();
    const start = await state(page);
    const t0 = Date.now();
    await page.evaluate(() => window.stepwise.play());
    await page.waitForFunction((s) => window.stepwise.state().steps >= s + 5, start.steps);
    await page.evaluate(() => window.stepwise.pause());
    const wall = (Date.now() - t0) / 1000;
    const played = await state(page);
    const frames = played.steps - start.steps;
    assert.ok(frames >= 5 && frames <= 30 * wall + 3, `${frames} frames in ${wall} s at 30 Hz`);
    assert.ok(Math.abs(played.t - frames / 30) < 0.2, `t ${played.t} after ${frames} frames of about 1/30 s`);
    assert.ok(!(await page.locator('#view').screenshot()).equals(before), 'the canvas changed');
    assert.ok(played.integrators.every((l) => !l.diverged), '4 substeps keep the spring bounded');
    // Where the state now is, the CLI agrees (however many frames the wall clock gave).
    assertSameAsCli(played, cliRowsAt('preset=substeps_rescue', played.steps), `after ${played.steps} frames`);
    await screenshot(page, 'loops-desktop');
  });
});

test('explodes at 30 fps: the lanes diverge; the hz control set to 60 keeps them bounded', async () => {
  await withPage({ hash: 'preset=explodes_at_30fps' }, async (page) => {
    assert.equal(await loopLine(page), 'game loop: fixed at 30 Hz, 1 substep (step 1/30 s)');
    assert.equal(await page.isVisible('#loop-jitter'), false, 'the fixed loop reads no jitter');
    const s = await framesThenState(page, 15);
    for (const lane of s.integrators) {
      assert.equal(lane.diverged, true, lane.id);
      assert.ok(lane.divergedAt < 0.4, `${lane.id} at ${lane.divergedAt}`);
    }
    // The legend shows it at its next frame.
    await page.waitForFunction(() => /diverged at t = 0\.36/.test(document.querySelector('#legend').textContent));
    await page.fill('#loop-hz', '60');
    await page.dispatchEvent('#loop-hz', 'change');
    await page.waitForFunction(() => window.stepwise.config().includes('&hz=60'));
    assert.deepEqual(await errors(page), []);
    const s60 = await framesThenState(page, 60);
    assert.ok(s60.integrators.every((l) => !l.diverged), 'bounded at 60 Hz');
    assertSameAsCli(s60, cliRowsAt(await config(page), 60), '60 Hz');
  });
});

test('the loop control: another loop drops the keys it does not read, none brings dt back', async () => {
  await withPage({ hash: 'preset=substeps_rescue' }, async (page) => {
    await page.selectOption('#loop', 'variable');
    await page.waitForFunction(() => window.stepwise.config().includes('loop=variable'));
    assert.deepEqual(await errors(page), []);
    const variable = await config(page);
    assert.doesNotMatch(variable, /substeps=|max_steps=|&dt=/);
    assert.match(variable, /&loop=variable&hz=30&jitter=0\.2&seed=1$/);
    assert.equal(await loopLine(page), 'game loop: variable at 30 Hz, jitter 0.2 (seed 1)');
    await page.fill('#loop-jitter', '0');
    await page.dispatchEvent('#loop-jitter', 'change');
    await page.waitForFunction(() => window.stepwise.config().endsWith('&loop=variable&hz=30&jitter=0'));
    assert.deepEqual(await errors(page), [], 'no jitter, no seed');
    await page.selectOption('#loop', '');
    await page.waitForFunction(() => !window.stepwise.config().includes('loop='));
    assert.match(await config(page), /&dt=0\.03333333333333333&/);
    assert.equal(await page.isVisible('#loop-line'), false);
    assert.equal(await page.isDisabled('#dt'), false);
    await page.selectOption('#loop', 'fixed');
    await page.waitForFunction(() => window.stepwise.config().includes('loop=fixed'));
    assert.deepEqual(await errors(page), []);
    // The system changes, the loop stays (and no dt=null appears).
    await page.selectOption('#scenario', 'orbit');
    await page.waitForFunction(() => window.stepwise.config().includes('scenario=orbit'));
    assert.deepEqual(await errors(page), []);
    assert.match(await config(page), /&loop=fixed&hz=60&substeps=1$/);  // a new loop starts at the default 60 Hz
  });
});

test('the accumulator\'s cap: the line says how much game time was dropped, as the CLI counts it', async () => {
  const link = 'scenario=spring&integrators=rk4&loop=accumulator&hz=10&substeps=8&jitter=0.9&seed=2';
  await withPage({ hash: link }, async (page) => {
    await framesThenState(page, 40);
    const json = JSON.parse(execFileSync(cli, ['run', link, '--steps', '40', '--format', 'json', '--every', '40'], { encoding: 'utf8' }));
    assert.ok(json.dropped_time > 0);
    const n = json.capped_frames;
    assert.equal(await loopLine(page), 'game loop: accumulator at 10 Hz, 8 substeps (step 1/80 s), jitter 0.9 (seed 2), at ' +
      `most 8 steps a frame · slowed: ${json.dropped_time.toFixed(2)} s of game time dropped in ${n} frame${n === 1 ? '' : 's'}`);
  });
});

test('variable dt drifts: the preset opens, and bad loop keys are refused naming the key', async () => {
  await withPage({ hash: 'preset=variable_dt_drifts' }, async (page) => {
    assert.equal(await loopLine(page), 'game loop: variable at 30 Hz, jitter 0.5 (seed 1)');
    const s = await framesThenState(page, 30);
    assertSameAsCli(s, cliRowsAt('preset=variable_dt_drifts', 30), 'variable, 30 frames');
    await page.evaluate(() => window.stepwise.set('scenario=spring&loop=sometimes&hz=0'));
    const shown = await errors(page);
    assert.ok(shown.includes("loop must be fixed, variable or accumulator; got 'sometimes'"), shown.join('\n'));
    assert.ok(shown.includes("hz must be a number from 1 to 1000 (frames per second); got '0'"), shown.join('\n'));
    assert.equal(await page.isVisible('#errors'), true);
    await page.evaluate(() => window.stepwise.set('preset=explodes_at_30fps&dt=0.01'));
    assert.match((await errors(page)).join('\n'), /dt=0\.01 cannot be combined with loop=fixed/);
  });
});

test('screenshots of a loop preset: phone and dark', async () => {
  for (const [name, options] of [['loops-phone', { width: 390, height: 844 }], ['loops-dark', { scheme: 'dark' }]]) {
    await withPage({ hash: 'preset=substeps_rescue', ...options }, async (page) => {
      await framesThenState(page, 45);
      assert.match(await loopLine(page), /^game loop: accumulator at 30 Hz/);
      await screenshot(page, name, { fullPage: name === 'loops-phone' });
    });
  }
});
