// The thin layer over the Embind module: loads it, decodes the flat state array into plain
// objects (through layout.js, by name), keeps the plot history in sync, and counts every Embind
// object it creates and deletes (the tests check that the live count does not grow while the
// page runs).
// No physics here: every number comes from the core.
import { ArrayLayout, decodeState, decodeStudy } from './layout.js';
import { nextTask, countCoreCall } from './slices.js';

// calls: calls into the Simulation (the tests check a frame makes a handful at most).
// analyses: live convergence studies and stability grids (the tests check none is left behind).
const counters = { created: 0, deleted: 0, calls: 0, analyses: 0, inFull: 0, fullReleased: 0 };

// A WebAssembly memory only grows: after a large phase-space cloud (15 × 100,000 points) the full
// module keeps a gigabyte for the rest of the page's life. Once nothing of it is in use, a full
// module holding more than this is let go (core.releaseFull) and made afresh when next needed.
export const fullMemoryKeptBytes = 64 * 1024 * 1024;

// Every simulation handle made, weakly: how many still exist as objects (live or deleted, each
// with its history and its cloud's points), for the tests that hold the page's memory flat.
let handleRefs = [];
function handleObjects() {
  handleRefs = handleRefs.filter((r) => r.deref() !== undefined);
  return handleRefs.length;
}

// A link as the module reads it: its UTF-8 bytes. Embind copies a Uint8Array into the heap
// whole, while a string it measures and encodes a character at a time in JavaScript (a link of
// 393,000 characters, the longest the core reads, cost 20 ms of the page's start-up that way).
const utf8 = new TextEncoder();
const linkBytes = (query) => utf8.encode(query);

// The page's two modules (wasm_bindings/CMakeLists.txt): the motion module (stepwise.js, the
// loader, defines createStepwise) is what the first frame needs; the full module
// (stepwise-full.js, createStepwiseFull) adds the phase-space clouds, the convergence and
// stability views and the export, and is loaded on demand by full(). Both are built from the
// same core and give the same numbers.
// Beside the page (the site's root); written relative to this file, as every file a module loads
// by import.meta.url: scripts/build-dist.mjs rewrites it relative to whichever bundle or chunk
// this module lands in, and renames it.
const fullLoader = new URL('../../stepwise-full.js', import.meta.url);

// Loads the full module's loader as a classic script (once) and starts the module.
function startFullModule() {
  if (globalThis.__stepwiseFullModule) return globalThis.__stepwiseFullModule;
  const started = new Promise((resolve, reject) => {
    if (typeof globalThis.createStepwiseFull === 'function') { resolve(); return; }
    const script = document.createElement('script');
    script.src = fullLoader.href;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`${fullLoader.pathname} (the full WebAssembly module's loader) could not load`));
    document.head.append(script);
  }).then(() => globalThis.createStepwiseFull());
  globalThis.__stepwiseFullModule = started;
  return started;
}

// The motion module's variants, smallest first, each with the parts of the core it carries
// (core/parts.hpp): the page's JSON block, which web/app/boot.js chose the first module by. None
// outside a page (the tests that load a module in Node).
function motionVariants() {
  if (typeof document === 'undefined') return [];
  try {
    return JSON.parse(document.getElementById('motion-variants')?.textContent || 'null')?.variants || [];
  } catch {
    return [];
  }
}

export async function loadCore() {
  if (typeof globalThis.createStepwise !== 'function') {
    throw new Error('stepwise.js (the WebAssembly loader) is missing');
  }
  // Started by web/app/boot.js while the page's modules loaded, or now. A larger variant
  // replaces it when a link needs a part it lacks (withParts): every variant has the same tables
  // and gives the same numbers (tests/web/motion-variants.test.mjs), so whatever was read of one
  // holds for the next.
  let Module = await (globalThis.__stepwiseModule || globalThis.createStepwise());
  let carried = new Set(Module.carriedParts());
  let variantLoad = null;  // {file, promise}: the variant on its way
  // Embind's set-up of every binding ran in this task: the tables in the next one.
  await nextTask();
  // Every table of the core, as `stepwise list --format json` prints it (core/tables.hpp).
  const tables = JSON.parse(Module.tables());
  const limits = tables.limits;
  let Full = null, fullPromise = null;
  const core = {
    get Module() { return Module; },
    limits,
    // The game loop's kinds and keys (web/panels/gameloop.js builds its controls from them).
    loopTable: tables.loop,
    integrators: tables.integrators,
    // The integrators' families in the order lists show them ({id, name}).
    families: tables.families,
    // The keys every system shares, each with its group ({key, group}: a study's and the page's
    // keys hold for any system).
    sharedKeys: tables.shared_keys,
    scenarios: tables.scenarios,
    presets: tables.presets,
    // What the page shows by link (view=): [{id, name, description}], the first the default.
    views: tables.views,
    // The core's messages ({code, text}) and its ways of saying what a key allows: a message of
    // the core is {key, value, message, code, args}, and web/strings/ builds its text from code
    // and args in the page's language.
    messages: tables.messages,
    allowedForms: tables.allowed_forms,
    // A link the motion module lacks a part for is read by the full module once it is loaded
    // (it carries every part); until then normalise gives "" for a link the module cannot read,
    // and parse names its missingParts.
    parse: (query) => {
      countCoreCall();
      const bytes = linkBytes(query);
      const result = Module.parse(bytes);
      return result.missingParts.length && Full ? Full.parse(bytes) : result;
    },
    normalise: (query) => {
      countCoreCall();
      const bytes = linkBytes(query);
      return Module.normalise(bytes) || (Full ? Full.normalise(bytes) : '');
    },
    // A simulation of the link: in the motion module, or in the full one when the link asks for
    // a cloud and the full module is loaded. handle.needsFullModule: the link asks for a cloud and
    // this handle runs without it (load full(), then make it again). link: the config the page
    // shows when the query adds to it what the link does not carry (see runConfig), or omitted.
    // handle.missingParts: the parts of the core the link needs that this module lacks (the
    // handle then runs the default system: load withParts(missingParts), then make it again).
    // The full module carries every part.
    createSimulation: (query, link = null) => {
      const handle = new SimulationHandle(Module, limits, query, link);
      if ((!handle.needsFullModule && handle.missingParts.length === 0) || !Full) return handle;
      handle.delete();
      return new SimulationHandle(Full, limits, query, link);
    },
    // The variant of the motion module on its way (withParts), or null.
    get partsLoading() { return variantLoad?.promise ?? null; },
    // The parts of the core whose links the page reads now (core/parts.hpp), by id: the motion
    // module's, or every part once the full module is loaded.
    get carriedParts() { return Full ? [...Full.carriedParts()] : [...carried]; },
    // Resolves to core once the motion module carries `parts` too: at once, or after loading the
    // smallest variant that carries them and the ones it carries already.
    withParts: (parts) => {
      const wanted = [...new Set([...carried, ...parts])];
      if (wanted.every((part) => carried.has(part))) return Promise.resolve(core);
      const variant = motionVariants().find((v) => wanted.every((part) => v.parts.includes(part)));
      if (!variant) return Promise.reject(new Error(`no motion module carries the parts ${wanted.join(', ')} (the page's table of variants is missing)`));
      if (variantLoad?.file !== variant.file) {
        const address = new URL(variant.file, document.baseURI).href;
        const promise = globalThis.createStepwise({ locateFile: (f, dir) => (f.endsWith('.wasm') ? address : dir + f) })
          .then(async (M) => {
            await nextTask();
            if (variantLoad?.promise === promise) {
              Module = M;
              carried = new Set(M.carriedParts());
            }
            return core;
          });
        variantLoad = { file: variant.file, promise };
      }
      return variantLoad.promise;
    },
    // The full module, loaded once: resolves to core itself, whose analysis functions below work
    // from then on (fullReady true).
    full: () => {
      fullPromise ||= startFullModule().then(async (M) => { await nextTask(); Full = M; return core; });
      return fullPromise;
    },
    get fullReady() { return Full !== null; },
    // Lets the full module go when nothing lives in it (no simulation, study, grid or export) and
    // its memory has grown past fullMemoryKeptBytes; full() makes a new one. True when let go.
    releaseFull: () => {
      if (!Full || counters.inFull > 0 || counters.analyses > 0 || Full.HEAP8.buffer.byteLength <= fullMemoryKeptBytes) return false;
      Full = null;
      fullPromise = null;
      globalThis.__stepwiseFullModule = null;
      counters.fullReleased += 1;
      return true;
    },
    // oscillator_limit of one integrator at damping ratio zeta: {limit, unconditional, adaptive}.
    stabilityLimit: (id, zeta) => requireFull().stabilityLimit(id, zeta),
    // One lane on the system's stiffest mode (core lane_stability, as `stepwise stability`
    // prints it): {limit, unconditional, adaptive, omega_h, largest_stable_dt, stable_now}.
    laneStability: (id, substeps, omega, zeta, dt) => requireFull().laneStability(id, substeps, omega, zeta, dt),
    // The run's export (RunExport: run(steps, ms), take(), delete()) in the full module.
    createExport: (query, steps, every, format) => {
      const job = new (requireFull().RunExport)(linkBytes(query), steps, every, format);
      counters.inFull += 1;
      const free = job.delete.bind(job);
      job.delete = () => { counters.inFull -= 1; free(); };
      return job;
    },
    createStudy: (query, halvings, maxWork, axis = 'dt') => new StudyHandle(requireFull(), query, halvings, maxWork, axis),
    createStabilityGrid: (id, grid) => new StabilityGridHandle(requireFull(), id, grid),
    // The scene editor's side of the full module (wasm_bindings/scene_editing.hpp): a link's built
    // scene as plain objects, and such objects back as the core's canonical, checked text. The
    // grammar's bounds and each kind's fields (defaults, ranges, units) are the table's.
    sceneGrammar: tables.scene,
    sceneModel: (query) => requireFull().sceneModel(String(query)),
    sceneText: (model) => requireFull().sceneText(model),
    handles: () => ({
      created: counters.created,
      deleted: counters.deleted,
      live: counters.created - counters.deleted,
      calls: counters.calls,
      analyses: counters.analyses,
      inFull: counters.inFull,
      objects: handleObjects(),
      fullReleased: counters.fullReleased,
      emval: [Module, Full].reduce((n, M) => n + (M && typeof M.count_emval_handles === 'function' ? M.count_emval_handles() : 0), 0),
    }),
  };
  function requireFull() {
    if (!Full) throw new Error('the full WebAssembly module is not loaded yet (await core.full() first)');
    return Full;
  }
  return core;
}

// A convergence study in the core, advanced in slices; results decoded by name. delete() when done.
// axis: 'dt' (halved at every level) or 'iterations' (a solver lane's, doubled at its dt).
export class StudyHandle {
  constructor(Module, query, halvings, maxWork, axis = 'dt') {
    this.study = new Module.Convergence(linkBytes(query), halvings, maxWork, axis);
    counters.analyses += 1;
    const layout = this.study.layout();
    this.layout = new ArrayLayout(layout);
    this.levels = layout.levels;
    this.ids = this.study.integratorIds();
  }

  // Runs at most `work` lane-steps, and stops after the step that passes budgetMs; true when finished.
  advance(work, budgetMs) { return this.study.advance(work, budgetMs); }
  get finished() { return this.study.finished(); }
  get progress() { return this.study.progress(); }
  results() { return decodeStudy(this.layout, this.study.results().slice(), this.ids, this.levels); }

  delete() {
    if (!this.study) return;
    this.study.delete();
    this.study = null;
    counters.analyses -= 1;
  }
}

// One integrator's stability grid: grid = {columns, rows, omegaHMin, omegaHMax, zetaMax}.
// fill(n) computes n more rows (one call), radii() copies the whole grid out (NaN: not yet filled).
export class StabilityGridHandle {
  constructor(Module, id, grid) {
    this.grid = new Module.StabilityGrid(id, grid.columns, grid.rows, grid.omegaHMin, grid.omegaHMax, grid.zetaMax);
    counters.analyses += 1;
    this.rows = grid.rows;
  }

  fill(rows) { return this.grid.fill(rows); }
  get done() { return this.grid.rowsDone() >= this.rows; }
  radii() { return this.grid.radii().slice(); }

  delete() {
    if (!this.grid) return;
    this.grid.delete();
    this.grid = null;
    counters.analyses -= 1;
  }
}


// One wasm Simulation and what the page has read from it. Call delete() when done.
// Read once per simulation: its layouts (by name), its scene (what to draw) and its lanes.
export class SimulationHandle {
  constructor(Module, limits, query, link = null) {
    this.limits = limits;
    this.query = query;  // the link as given (config is what the core kept of it)
    this.sim = new Module.Simulation(linkBytes(query));
    counters.created += 1;
    this.inFull = Boolean(Module.RunExport);  // the full module's (the motion module has no export)
    handleRefs.push(new WeakRef(this));
    if (this.inFull) counters.inFull += 1;
    this.needsFullModule = this.sim.needsFullModule();
    this.missingParts = [...this.sim.missingParts()];
    this.laneIds = this.sim.laneIds();
    // The config that runs, and the config shown: the same, unless the page's view added to the
    // link what it does not carry (the cloud view's own cloud: web/app/simulation.js
    // withViewDefaults gives the link).
    this.runConfig = this.sim.config();
    this.config = link ?? this.runConfig;
    // Every problem of the query, the page's own limits included (a cloud too large for the page).
    this.errors = this.sim.errors();
    this.dt = this.sim.dt();  // with a game loop: a frame, 1/hz
    this.loop = this.sim.loop();  // {kind ('' for none), text, hz, substeps, jitter, seed, maxSteps, step}
    this.lanes = this.sim.lanes();
    this.bodies = this.sim.bodies();
    const layout = this.sim.layout();
    this.layout = { state: new ArrayLayout(layout.state), history: new ArrayLayout(layout.history) };
    // The phase-space clouds: `points` (x, vx) pairs of body 0 per lane, then `exact` pairs of the
    // exact flow's followed points (a ghost). None when points is 0: no buffer, no call.
    const cloud = layout.cloud || { points: 0, lanes: 0, exact: 0, radius: 0 };
    this.cloud = { points: cloud.points, lanes: cloud.lanes, exact: cloud.exact, radius: cloud.radius };
    this.cloudPoints = this.cloud.points > 0
      ? new Float32Array(2 * (this.cloud.points * this.cloud.lanes + this.cloud.exact)) : null;
    this.cloudSteps = -1;  // the step count cloudPoints was read at
    // Large clouds are built a cloud at a time (prepare), before the run can start.
    this.cloudReady = this.sim.cloudsReady();
    // What to draw (bodies, anchors, springs, central bodies, gravity, the reference, the phase
    // plot's axes), from the core: the page knows no scenario.
    this.scene = this.sim.scene();
    // The box the exact (or reference) motion stays in, as far as it is known: {minX, maxX, minY,
    // maxY, t, done}, known up to time t. A closed form's covers the whole duration at once; an
    // rk45 reference's grows as a probe steps it ahead (growBounds, a slice at a time, between
    // frames: web/engine/bounds.js). The view fits it; boundsVersion counts its changes.
    this.bounds = null;
    this.boundsVersion = 0;
    // A closed form's whole box now; a reference's start only (one of its steps may take
    // milliseconds): web/engine/bounds.js finds the rest in its own tasks, the first before the first frame.
    this.growBounds(0);
    // The system's fastest mode at its start state ({oscillates, omega, zeta}): see stiffestMode.
    this.stiffest = null;
    this.width = this.layout.history.width;
    // The plot history, copied out of wasm: count samples of `width` doubles, oldest first.
    this.history = new Float64Array(layout.history_capacity * this.width);
    this.historyCount = 0;
    this.historyGeneration = -1;
    this.snapshot = null;
    // Milliseconds spent reading the state, the history and the clouds (for the measurements).
    this.readMs = { state: 0, history: 0, cloud: 0 };
    this.refresh();
  }

  // The system's fastest mode at its start state ({oscillates, omega, zeta}), for the stability
  // view: found when that view first asks (the modes of a 32-link chain took 39 ms, inside the
  // start-up task that makes the simulation).
  get stiffestMode() {
    if (!this.stiffest) this.stiffest = this.sim.stiffestMode();
    return this.stiffest;
  }

  // Frees the core's simulation, and the copies of it kept here (the history, the clouds'
  // points: megabytes for a large system), should anything still hold this handle.
  delete() {
    if (!this.sim) return;
    this.sim.delete();
    this.sim = null;
    if (this.inFull) counters.inFull -= 1;
    this.history = new Float64Array(0);
    this.historyCount = 0;
    this.cloudPoints = null;
    counters.deleted += 1;
  }

  // Builds more of the clouds for about budgetMs; true once all are built (the state is read
  // again then: the clouds' ratios and the history's first sample are there from then on).
  prepare(budgetMs) {
    if (this.cloudReady || !this.sim) return this.cloudReady;
    counters.calls += 1;
    this.cloudReady = this.sim.prepare(budgetMs);
    if (this.cloudReady) this.refresh();
    return this.cloudReady;
  }

  // Finds more of the motion's box for about budgetMs (nothing once it is done).
  growBounds(budgetMs) {
    if (!this.sim || (this.bounds && this.bounds.done)) return this.bounds;
    const b = this.sim.growBounds(budgetMs);
    this.bounds = { minX: b.minX, maxX: b.maxX, minY: b.minY, maxY: b.maxY, t: b.t, done: b.done };
    this.boundsVersion += 1;
    return this.bounds;
  }

  // The stage X-ray of the next step of the lane whose integrator is `id` (the simulation does not
  // move), as a job in slices (wasm_bindings/playground.hpp), one at a time: traceStart(id)
  // (false when no lane has that integrator), traceRun(budgetMs) until it says true,
  // traceStages(first, count): {layout (an ArrayLayout: a "lane" of it is a stage), kinds,
  // columns, stages (in this part), bodies, values, labels, cells, text} as
  // wasm_bindings/trace_view.hpp describes it; traceCsv(first, budgetMs): {text, next}, the text of
  // `stepwise trace` from stage `first` on; traceEnd() frees the job.
  traceStart(id) {
    counters.calls += 1;
    return this.sim.traceStart(id);
  }

  traceRun(budgetMs) {
    counters.calls += 1;
    return this.sim.traceRun(budgetMs);
  }

  traceStages(first, count) {
    counters.calls += 1;
    const t = this.sim.traceStages(first, count);
    if (!t) return null;
    const d = t.layout;
    return {
      layout: new ArrayLayout(d), kinds: d.kinds, columns: d.columns, stages: d.stages, bodies: d.bodies,
      values: t.values, labels: t.labels, cells: t.cells, text: t.text,
    };
  }

  traceCsv(first, budgetMs) {
    counters.calls += 1;
    return this.sim.traceCsv(first, budgetMs);
  }

  traceEnd() {
    if (!this.sim) return;
    counters.calls += 1;
    this.sim.traceEnd();
  }

  // One call into wasm whatever n is; it returns after the step that passes budgetMs of wall
  // time (Infinity: all n). Returns the steps taken.
  advance(steps, budgetMs = Infinity) {
    if (steps <= 0) return 0;
    counters.calls += 1;
    return this.sim.advanceWithin(steps, budgetMs);
  }

  // The work of the page's calls into this simulation, in the core's units (force evaluations
  // times what one visits; wasm_bindings/playground.hpp: max_work_per_call): the last
  // advance's, the most of any call (an advance or a slice of the bounds probe), and one
  // evaluation's.
  work() {
    if (!this.sim) return null;
    return { last: this.sim.lastWork(), most: this.sim.mostWork(), evaluation: this.sim.evaluationSize() };
  }

  reset() {
    counters.calls += 1;
    this.sim.reset();
    this.refresh();
  }

  // Reads the whole state in one call (and the new history samples in one more) and decodes it.
  refresh() {
    counters.calls += 1;
    const t0 = performance.now();
    const raw = this.sim.state().slice();  // copy out before anything else touches the heap
    this.snapshot = decodeState(this.layout.state, raw, this.laneIds, this.bodies);
    this.snapshot.referenceKind = this.scene.reference.kind;
    const t1 = performance.now();
    this.syncHistory(this.snapshot.historyCount, this.snapshot.historyGeneration);
    this.readMs.state += t1 - t0;
    this.readMs.history += performance.now() - t1;
    return this.snapshot;
  }

  // The clouds' points, read when the cloud panel is about to draw them (one call), copied at
  // once into a buffer of our own (the heap may grow, and move, at the next call into wasm). The
  // state at a step count is always the same, so a read at an unchanged step count is skipped.
  // cloudVersion counts the reads (the panel redraws on a change).
  syncCloud() {
    if (!this.cloudPoints || !this.cloudReady || this.snapshot.steps === this.cloudSteps) return;
    const t0 = performance.now();
    counters.calls += 1;
    const view = this.sim.cloudPoints();
    if (view.length !== this.cloudPoints.length) {
      throw new Error(`the core handed ${view.length} cloud values where its layout promises ${this.cloudPoints.length}`);
    }
    this.cloudPoints.set(view);
    this.cloudSteps = this.snapshot.steps;
    this.cloudVersion = (this.cloudVersion || 0) + 1;
    this.readMs.cloud += performance.now() - t0;
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
