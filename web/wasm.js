// The thin layer over the Embind module: loads it, decodes the flat state array into plain
// objects, keeps the plot history in sync, and counts every Embind object it creates and
// deletes (the tests check that the live count does not grow while the page runs).
// No physics here: every number comes from the core.

// calls: calls into the Simulation (the tests check a frame makes a handful at most).
const counters = { created: 0, deleted: 0, calls: 0 };

// The module's loader (stepwise.js) is a classic script that defines createStepwise.
export async function loadCore() {
  if (typeof globalThis.createStepwise !== 'function') {
    throw new Error('stepwise.js (the WebAssembly loader) is missing');
  }
  const Module = await globalThis.createStepwise();
  const limits = Module.limits();
  return {
    Module,
    limits,
    integrators: Module.integrators(),
    scenarios: Module.scenarios(),
    presets: Module.presets(),
    parse: (query) => Module.parse(query),
    normalise: (query) => Module.normalise(query),
    createSimulation: (query) => new SimulationHandle(Module, limits, query),
    handles: () => ({
      created: counters.created,
      deleted: counters.deleted,
      live: counters.created - counters.deleted,
      calls: counters.calls,
      emval: typeof Module.count_emval_handles === 'function' ? Module.count_emval_handles() : 0,
    }),
  };
}

// One wasm Simulation and what the page has read from it. Call delete() when done.
export class SimulationHandle {
  constructor(Module, limits, query) {
    this.limits = limits;
    this.sim = new Module.Simulation(query);
    counters.created += 1;
    this.laneIds = this.sim.laneIds();
    this.config = this.sim.config();
    this.dt = this.sim.dt();
    this.lanes = this.sim.lanes();
    this.bodies = this.sim.bodies();
    // The box the exact (or reference) motion stays in over the whole duration: the view fits it.
    this.motionBounds = this.sim.motionBounds(400);
    this.width = 1 + this.lanes * limits.history_lane_width + 4;
    // The plot history, copied out of wasm: count samples of `width` doubles, oldest first.
    this.history = new Float64Array(limits.history_capacity * this.width);
    this.historyCount = 0;
    this.historyGeneration = -1;
    this.snapshot = null;
    this.refresh();
  }

  delete() {
    if (!this.sim) return;
    this.sim.delete();
    this.sim = null;
    counters.deleted += 1;
  }

  // One call into wasm whatever n is.
  advance(steps) {
    if (steps <= 0) return 0;
    counters.calls += 1;
    return this.sim.advanceSteps(steps);
  }

  reset() {
    counters.calls += 1;
    this.sim.reset();
    this.refresh();
  }

  // Reads the whole state in one call (and the new history samples in one more) and decodes it.
  refresh() {
    counters.calls += 1;
    const raw = this.sim.state().slice();  // copy out before anything else touches the heap
    const L = this.limits;
    const bodies = raw[3];
    const stride = 4 * bodies + L.lane_fixed + bodies;
    const lanes = [];
    for (let l = 0; l < raw[2]; ++l) {
      const o = L.state_header + l * stride;
      const f = o + 4 * bodies;
      const lane = {
        id: this.laneIds[l],
        index: l,
        bodies: [],
        energy: raw[f],
        drift: raw[f + 1],
        diverged: raw[f + 2] === 1,
        divergedAt: raw[f + 3],
        dissipated: raw[f + 4],
        error: raw[f + 5],
      };
      for (let b = 0; b < bodies; ++b) {
        lane.bodies.push({
          x: raw[o + 4 * b], y: raw[o + 4 * b + 1], vx: raw[o + 4 * b + 2], vy: raw[o + 4 * b + 3],
          error: raw[f + L.lane_fixed + b],
        });
      }
      lanes.push(lane);
    }
    const r = L.state_header + raw[2] * stride;
    const reference = [];
    for (let b = 0; b < bodies; ++b) {
      reference.push({ x: raw[r + 4 * b], y: raw[r + 4 * b + 1], vx: raw[r + 4 * b + 2], vy: raw[r + 4 * b + 3] });
    }
    this.snapshot = {
      t: raw[0],
      steps: raw[1],
      referenceEnergy: raw[4],
      referenceKind: raw[8] === 0 ? 'exact' : 'rk45',
      lanes,
      reference,
    };
    this.syncHistory(raw[5], raw[6]);
    return this.snapshot;
  }

  syncHistory(count, generation) {
    if (generation !== this.historyGeneration || count < this.historyCount) {
      this.historyCount = 0;  // compacted or reset in wasm: read it all again
      this.historyGeneration = generation;
    }
    if (count > this.historyCount) {
      counters.calls += 1;
      const fresh = this.sim.history(this.historyCount).slice();
      this.history.set(fresh, this.historyCount * this.width);
      this.historyCount = count;
    }
  }
}
