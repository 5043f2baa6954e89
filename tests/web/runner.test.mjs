// The fixed-timestep loop (web/engine/runner.js) under a fake clock and a fake simulation: whole steps
// of dt at speed × wall time, independent of the frame rate, capped per frame, no burst after
// a long gap, exactly one step for step(), and a stop at the configured duration.
import { test } from 'node:test';
import assert from 'node:assert/strict';

let pendingFrame = null;
globalThis.requestAnimationFrame = (f) => { pendingFrame = f; return 1; };
globalThis.document = { addEventListener() {} };
const { Runner, maxWallPerFrame } = await import('../../web/engine/runner.js');

function setup({ dt = 0.01, duration = 1000 } = {}) {
  const clock = { ms: 0 };
  const sim = {
    dt,
    config: `v=1&scenario=spring&dt=${dt}&duration=${duration}`,
    snapshot: { steps: 0 },
    calls: 0,
    // Like the module: at most n steps, fewer once budgetMs has passed; returns the steps taken.
    advance(n) { this.snapshot.steps += n; this.calls += 1; return n; },
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
  sim.advance = (n) => { const end = performance.now() + 2 * n; while (performance.now() < end) { /* busy */ } return advance(n); };
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
  // Before any step is measured only the fixed cap applies.
  runner.replaced();
  assert.equal(runner.stepCap(), runner.maxStepsPerFrame);
});

// A fake module step of `ms` milliseconds of real time that honours the budget as the module's
// advance does: whole steps until the step that ends past it (at least one).
function costlySteps(sim, ms) {
  sim.advance = (n, budgetMs = Infinity) => {
    const start = performance.now();
    let taken = 0;
    while (taken < n) {
      const end = performance.now() + ms;
      while (performance.now() < end) { /* busy */ }
      taken += 1;
      if (performance.now() - start >= budgetMs) break;
    }
    sim.snapshot.steps += taken;
    sim.calls += 1;
    sim.mostInCall = Math.max(sim.mostInCall || 0, taken);
    return taken;
  };
}

test('every frame has a time budget: the stepping of a frame lasts about that long, not the cap\'s worth', () => {
  const { runner, sim, clock } = setup({ dt: 0.001 });
  costlySteps(sim, 3);
  assert.equal(runner.budgetMs, 10, 'a budget without clouds too');
  runner.play();
  // The first frame knows no cost yet: it asks for the cap's worth, the module stops at the budget.
  for (let f = 0; f < 8; ++f) {
    clock.ms += 100;  // a slow display: 100 steps asked for every frame
    pendingFrame(clock.ms);
  }
  // At most ceil(10 / 3) + 1 steps a frame, not the 100 asked for (300 ms): counted in steps, each
  // at least 3 ms (a busy machine that preempts this process makes a call take fewer, never more).
  assert.ok(sim.snapshot.steps <= 8 * 5, `${sim.snapshot.steps} steps in 8 frames`);
  assert.ok(sim.mostInCall <= 4, `the most steps in one frame: ${sim.mostInCall} (4 fill the 10 ms budget)`);
  assert.equal(runner.capped, true, 'slower than asked, and it says so');
});

test('a step longer than the budget (a large cloud) goes on over the next frames', () => {
  const { runner, sim, run } = setup({ dt: 0.05 });
  // The module finishes a step at its third call: the first two end part-way (0 steps).
  let calls = 0;
  sim.advance = () => { calls += 1; if (calls % 3 !== 0) return 0; sim.snapshot.steps += 1; return 1; };
  runner.step();
  assert.equal(sim.snapshot.steps, 0, 'not finished within its frame');
  assert.equal(runner.pendingSteps, 1);
  run(3 * 16, 16);
  assert.equal(sim.snapshot.steps, 1, 'finished by the following frames');
  assert.equal(runner.pendingSteps, 0);
  run(10 * 16, 16);
  assert.equal(sim.snapshot.steps, 1, 'and no further while paused');
  // While playing, the run says it is slower than asked, and a step left part-way goes on at
  // every frame, even one whose clock asks for none (dt = 0.05 s is three frames at 60 Hz).
  runner.play();
  const flags = [];
  const before = sim.snapshot.steps;
  for (let f = 0; f < 15; ++f) { run(16, 16); flags.push(runner.capped); }
  const first = flags.indexOf(true);
  assert.ok(first >= 0 && first <= 5, flags.join());
  assert.ok(flags.slice(first).every(Boolean), `"slowed" once behind, held between the frames that finish a step: ${flags.join()}`);
  assert.ok(sim.snapshot.steps - before >= 3, `${sim.snapshot.steps - before} steps in 15 frames: one every third call`);
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
