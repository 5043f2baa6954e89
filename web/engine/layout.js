// The one decoder of the flat arrays the core hands out (Simulation.state() and each plot-history
// sample). The core describes both by name (Simulation.layout(), from one series table in
// wasm_bindings/layout.cpp): for every series its offset, lane stride and body stride, so the
// value of NAME for lane l and body b is array[offset + l * lane + b * body] (and history sample i
// starts at i * width). Nothing here knows a number of its own. Plain ES module, no DOM: the page
// and the node tests import it alike.
import { t } from '../common/language.js';


export class ArrayLayout {
  // desc: {width, fields: {name: {offset, lane, body, scope, unit, label}}}
  constructor(desc) {
    this.width = desc.width;
    this.fields = desc.fields;
    // The core's stop codes (series such as `stopped`, `reference_stopped`): [{name, text}],
    // code 0 running ('' and '').
    this.stopReasons = desc.stop_reasons;
  }

  // A stop code as {name, text}: name '' (running), 'diverged', 'collision', 'substep_limit', …;
  // text in words ("fell into the central body").
  stop(code) {
    const r = this.stopReasons[code];
    if (!r) throw new Error(`the core's layout has no stop code ${code}`);
    return r;
  }

  has(name) {
    return Object.prototype.hasOwnProperty.call(this.fields, name);
  }

  field(name) {
    if (!this.has(name)) throw new Error(`the core's layout has no series '${name}'`);
    return this.fields[name];
  }

  // Where series `name` of lane `lane` and body `body` sits in one array (or one history sample).
  index(name, lane = 0, body = 0) {
    const f = this.field(name);
    return f.offset + lane * f.lane + body * f.body;
  }

  // Its value in `array`, at history sample `sample` (0 for the state array).
  get(array, name, lane = 0, body = 0, sample = 0) {
    return array[sample * this.width + this.index(name, lane, body)];
  }

  // A reader of one series over the samples of a history array: at(i) is sample i's value.
  series(array, name, lane = 0, body = 0) {
    const base = this.index(name, lane, body), width = this.width;
    return (i) => array[i * width + base];
  }

  label(name) { return this.field(name).label; }
  unit(name) { return this.field(name).unit; }
  // "distance r (m)": the label with its unit, for an axis title.
  title(name) {
    const f = this.field(name);
    return f.unit ? `${t(f.label)} (${f.unit})` : t(f.label);
  }
}

// The snapshot the page draws from: one state array decoded into plain objects.
// laneIds: the integrator id of each lane (Simulation.laneIds()); bodies: bodies per lane.
export function decodeState(layout, raw, laneIds, bodies) {
  const get = (name, lane = 0, body = 0) => layout.get(raw, name, lane, body);
  const has = (name) => layout.has(name);
  const lanes = laneIds.map((id, l) => {
    const stop = layout.stop(get('stopped', l));
    const lane = {
      id,
      index: l,
      bodies: [],
      energy: get('energy', l),
      drift: get('energy_drift', l),
      diverged: stop.name !== '',  // stopped, for any reason
      stopReason: stop.name,
      stopText: stop.text,
      divergedAt: get('stopped_at', l),
      dissipated: get('dissipated', l),
      error: get('max_error', l),
      angularMomentum: has('angular_momentum') ? get('angular_momentum', l) : 0,
      angularMomentumDrift: has('angular_momentum_drift') ? get('angular_momentum_drift', l) : 0,
      phase: { q: get('phase_q', l), p: get('phase_p', l) },
      // The lane's phase-space cloud (NaN when there is none, or once its rim is not finite).
      areaRatio: has('area_ratio') ? get('area_ratio', l) : NaN,
      pointsFinite: has('points_finite') ? get('points_finite', l) : 0,
      // Equal cost: clock ticks per step (0: by budget), the lane's own time and steps, the step it
      // effectively takes, whether its state is at the clock's time, and rk45's tolerance.
      stride: has('stride') ? get('stride', l) : 1,
      laneTime: has('lane_time') ? get('lane_time', l) : NaN,
      laneSteps: has('lane_steps') ? get('lane_steps', l) : NaN,
      effectiveDt: has('effective_dt') ? get('effective_dt', l) : NaN,
      current: has('current') ? get('current', l) === 1 : true,
      rtol: has('rtol') ? get('rtol', l) : NaN,
      // Linked systems: the largest |length − L|/L over the links, and the first link's tension (N).
      constraintError: has('constraint_error') ? get('constraint_error', l) : NaN,
      tension: has('tension') ? get('tension', l) : NaN,
    };
    for (let b = 0; b < bodies; ++b) {
      lane.bodies.push({
        x: get('x', l, b), y: get('y', l, b), vx: get('vx', l, b), vy: get('vy', l, b), error: get('error', l, b),
      });
    }
    return lane;
  });
  const reference = [];
  for (let b = 0; b < bodies; ++b) {
    reference.push({
      x: get('reference_x', 0, b), y: get('reference_y', 0, b),
      vx: get('reference_vx', 0, b), vy: get('reference_vy', 0, b),
    });
  }
  return {
    t: get('t'),
    steps: get('steps'),
    historyCount: get('history_count'),
    historyGeneration: get('history_generation'),
    lastAdvance: get('last_advance'),
    referenceEnergy: get('reference_energy'),
    referenceStopped: layout.stop(get('reference_stopped')).name,
    referenceStopText: layout.stop(get('reference_stopped')).text,
    referenceStoppedAt: get('reference_stopped_at'),
    referenceAngularMomentum: get('reference_angular_momentum'),
    referencePhase: { q: get('reference_phase_q'), p: get('reference_phase_p') },
    // The exact flow's area ratio (NaN without clouds or without a closed form).
    exactAreaRatio: has('exact_area_ratio') ? get('exact_area_ratio') : NaN,
    // The game loop (with loop=): physics steps taken, and the game time the accumulator's cap dropped.
    physicsSteps: has('physics_steps') ? get('physics_steps') : get('steps'),
    loopDroppedTime: has('loop_dropped_time') ? get('loop_dropped_time') : 0,
    loopCappedFrames: has('loop_capped_frames') ? get('loop_capped_frames') : 0,
    // Linked systems: the reference's own constraint error and first link's tension (else NaN).
    linked: has('constraint_error'),
    referenceConstraintError: has('reference_constraint_error') ? get('reference_constraint_error') : NaN,
    referenceTension: has('reference_tension') ? get('reference_tension') : NaN,
    lanes,
    reference,
  };
}

// A convergence study's results (Convergence.results(), described by Convergence.layout()): a
// "lane" of the layout is a row (an integrator), a "body" a level (a halving of dt). Levels not
// yet run are left out. ids: the rows' integrator ids (Convergence.integratorIds()).
export function decodeStudy(layout, raw, ids, levels) {
  const get = (name, row = 0, level = 0) => layout.get(raw, name, row, level);
  const done = Math.min(levels, get('levels_done'));
  const rows = ids.map((id, r) => {
    const points = [];
    for (let k = 0; k < done; ++k) {
      points.push({
        dt: get('dt', r, k), iterations: get('iterations', r, k), evaluations: get('evaluations', r, k), maxError: get('max_error', r, k),
        finalError: get('final_error', r, k), stopReason: layout.stop(get('stopped', r, k)).name, stopText: layout.stop(get('stopped', r, k)).text, stoppedAt: get('stopped_at', r, k),
      });
    }
    return {
      id, points,
      fit: { valid: get('order_valid', r) === 1, order: get('order', r), points: get('fitted_points', r) },
      // Along the iterations axis: where the error went as the iterations doubled (IterationsTrend).
      trend: { valid: get('trend_valid', r) === 1, change: get('trend_change', r), settled: get('trend_settled', r) === 1, atFloor: get('trend_at_floor', r) === 1 },
    };
  });
  return {
    levels: get('levels'), levelsRequested: get('levels_requested'), levelsDone: done,
    noiseFloor: get('noise_floor'), lengthScale: get('length_scale'), reference: get('reference') === 0 ? 'exact' : 'rk45', progress: get('progress'),
    axis: get('axis') === 1 ? 'iterations' : 'dt', rows,
  };
}
