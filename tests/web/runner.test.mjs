// The fixed-timestep loop (web/runner.js) under a fake clock and a fake simulation: whole steps
// of dt at speed × wall time, independent of the frame rate, capped per frame, no burst after
// a long gap, exactly one step for step(), and a stop at the configured duration.
import { test } from 'node:test';
import assert from 'node:assert/strict';

let pendingFrame = null;
globalThis.requestAnimationFrame = (f) => { pendingFrame = f; return 1; };
globalThis.document = { addEventListener() {} };
const { Runner, maxWallPerFrame } = await import('../../web/runner.js');

function setup({ dt = 0.01, duration = 1000 } = {}) {
  const clock = { ms: 0 };
  const sim = {
    dt,
    config: `v=1&scenario=spring&dt=${dt}&duration=${duration}`,
    snapshot: { steps: 0 },
    calls: 0,
    advance(n) { this.snapshot.steps += n; this.calls += 1; },
    refresh() {},
    reset() { this.snapshot.steps = 0; },
  };
  let draws = 0;
  const runner = new Runner({ sim: () => sim, onFrame: () => { draws += 1; }, now: () => clock.ms });
  // Runs frames every `interval` ms for `ms` ms of wall time.
  const run = (ms, interval) => {
    for (let t = 0; t < ms; t += interval) {
      clock.ms += interval;
      pendingFrame(clock.ms);
    }
  };
  pendingFrame(clock.ms);  // the first frame only starts the clock
  return { runner, sim, clock, run, draws: () => draws };
}

test('simulated time follows speed × wall time, whatever the frame rate', () => {
  for (const hz of [30, 60, 144]) {
    const { runner, sim, run } = setup({ dt: 0.01 });
    runner.play();
    run(2000, 1000 / hz);
    // The frame that starts playing only starts the clock: up to one frame's worth behind.
    const slack = 1 + (1 / hz) / 0.01;
    assert.ok(Math.abs(sim.snapshot.steps - 200) <= slack, `${hz} Hz: ${sim.snapshot.steps} steps in 2 s`);
  }
  for (const speed of [0.1, 10]) {
    const { runner, sim, run } = setup({ dt: 0.01 });
    runner.speed = speed;
    runner.play();
    run(2000, 1000 / 60);
    const slack = 1 + (speed / 60) / 0.01;
    assert.ok(Math.abs(sim.snapshot.steps - 200 * speed) <= slack, `speed ${speed}: ${sim.snapshot.steps}`);
  }
});

test('one advance call per frame at most', () => {
  const { runner, sim, run } = setup({ dt: 0.001 });
  runner.play();
  run(1000, 1000 / 60);
  assert.ok(sim.calls <= 61, `${sim.calls} calls in 60 frames`);
});

test('steps per frame are capped and the backlog is dropped', () => {
  const { runner, sim, run } = setup({ dt: 1e-5 });
  runner.speed = 10;
  runner.maxStepsPerFrame = 500;
  runner.play();
  run(100, 1000 / 60);
  assert.equal(runner.capped, true);
  assert.ok(sim.snapshot.steps <= 500 * 7, `${sim.snapshot.steps}`);
  runner.speed = 0.001;  // now easily within the cap: no catching up of what was dropped
  const before = sim.snapshot.steps;
  run(1000 / 60, 1000 / 60);
  assert.ok(sim.snapshot.steps - before <= 2, `${sim.snapshot.steps - before} steps after the cap`);
});

test('costly steps (clouds): a time budget per frame caps them, at least one step a frame', () => {
  const { runner, sim, run } = setup({ dt: 0.01 });
  // Each step takes 2 ms of real time (the budget is measured with performance.now()).
  const advance = sim.advance.bind(sim);
  sim.advance = (n) => { const end = performance.now() + 2 * n; while (performance.now() < end) { /* busy */ } advance(n); };
  runner.budgetMs = 5;
  runner.speed = 10;  // 10 × 16.7 ms / 10 ms: 16 or 17 steps a frame asked for
  runner.play();
  run(200, 1000 / 60);
  assert.ok(runner.stepMs > 1.5 && runner.stepMs < 10, `measured ${runner.stepMs} ms per step`);
  assert.equal(runner.capped, true, 'slower than asked, and it says so');
  const before = sim.snapshot.steps;
  run(1000 / 60, 1000 / 60);
  assert.ok(sim.snapshot.steps - before >= 1 && sim.snapshot.steps - before <= 2, `${sim.snapshot.steps - before} steps in a frame`);
  // A budget below one step's cost still lets one step through.
  runner.budgetMs = 0.5;
  const again = sim.snapshot.steps;
  run(1000 / 60, 1000 / 60);
  assert.equal(sim.snapshot.steps - again, 1);
  // Without a budget (no cloud) only the fixed cap applies.
  runner.budgetMs = Infinity;
  assert.equal(runner.stepCap(), runner.maxStepsPerFrame);
});

test('a long gap between frames (hidden tab, debugger) causes no burst', () => {
  const { runner, sim, clock, run } = setup({ dt: 0.01 });
  runner.play();
  run(100, 1000 / 60);
  const before = sim.snapshot.steps;
  clock.ms += 30000;  // 30 s without a frame
  pendingFrame(clock.ms);
  assert.ok(sim.snapshot.steps - before <= Math.ceil(maxWallPerFrame / 0.01), `${sim.snapshot.steps - before}`);
});

test('pause stops time; play after pause does not count the paused time', () => {
  const { runner, sim, clock, run } = setup({ dt: 0.01 });
  runner.play();
  run(500, 10);
  runner.pause();
  const paused = sim.snapshot.steps;
  run(1000, 10);
  assert.equal(sim.snapshot.steps, paused);
  clock.ms += 5000;
  runner.play();
  pendingFrame(clock.ms);
  assert.ok(sim.snapshot.steps - paused <= 1);
});

test('step() advances exactly one step and pauses', () => {
  const { runner, sim, run } = setup({ dt: 0.5 });
  runner.play();
  run(3000, 16);
  const before = sim.snapshot.steps;
  runner.step();
  assert.equal(runner.playing, false);
  assert.equal(sim.snapshot.steps, before + 1);
  run(1000, 16);
  assert.equal(sim.snapshot.steps, before + 1);
});

test('playing stops exactly at the configured duration; play again restarts', () => {
  const { runner, sim, run } = setup({ dt: 0.1, duration: 1 });
  runner.play();
  run(3000, 16);
  assert.equal(sim.snapshot.steps, 10);
  assert.equal(runner.playing, false);
  runner.play();
  assert.equal(sim.snapshot.steps, 0);
  assert.equal(runner.playing, true);
});
