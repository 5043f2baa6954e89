// The WebAssembly module against the native CLI: same config, same step, same numbers.
// Also the tables, the config functions, the layouts and scene the page relies on, and the
// export (CSV and JSON) against the CLI's text. The state is decoded by the page's own decoder
// (web/engine/layout.js), by name: no offsets here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ArrayLayout, decodeState } from '../../web/engine/layout.js';
import { cli, cliRun, compareRunText } from './run-text.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.STEPWISE_BUILT_SITE || path.join(root, 'build/site');  // the modules under their own names (tests/web/helpers.mjs builtSite)
const require = createRequire(import.meta.url);
// The page's two modules (wasm_bindings/CMakeLists.txt): the motion module (stepwise.js, -Oz, no
// clouds, no analyses, no export) and the full module (stepwise-full.js, -O3, everything). Both
// are compared with the native CLI; the rest of this file runs against the full one.
// Node 20's fetch() cannot read a file path: hand the loader the bytes (docs/toolchain.md).
const loadModule = (name) => require(path.join(site, `${name}.js`))({ wasmBinary: fs.readFileSync(path.join(site, `${name}.wasm`)) });
// The motion module as the variant with every part of the core (core/parts.hpp), under the page's
// one loader: tests/web/motion-variants.test.mjs holds every other variant to its numbers.
const Motion = await require(path.join(site, 'stepwise.js'))({ wasmBinary: fs.readFileSync(path.join(site, 'stepwise-all.wasm')) });
const M = await loadModule('stepwise-full');
const modules = { motion: Motion, full: M };
const L = JSON.parse(M.tables()).limits;

function native(query, steps, every) {
  const out = cliRun(query, { steps, every });
  const rows = out.trim().split('\n').slice(1).map((line) => {
    const [t, integrator, body, x, y, vx, vy, energy, error] = line.split(',');
    return { t: +t, integrator, body: +body, x: +x, y: +y, vx: +vx, vy: +vy, energy: +energy, error: +error };
  });
  return rows;
}

// A Simulation's state, decoded as the page decodes it.
// Every value of the state is finite, except the clouds' area ratios: NaN by design where there
// is no cloud (or no closed form for the exact flow's, or once a cloud's rim ran away).
const mayBeNaN = new Set(['area_ratio', 'exact_area_ratio']);
function assertFiniteState(sim, what = 'no NaN or infinity in the state') {
  const layout = new ArrayLayout(sim.layout().state);
  const raw = sim.state().slice();
  const allowed = new Set();
  for (const [name, f] of Object.entries(layout.fields)) {
    if (!mayBeNaN.has(name)) continue;
    const lanes = f.lane ? sim.lanes() : 1, bodies = f.body ? sim.bodies() : 1;
    for (let l = 0; l < lanes; ++l) for (let b = 0; b < bodies; ++b) allowed.add(layout.index(name, l, b));
  }
  raw.forEach((v, i) => { if (!allowed.has(i)) assert.ok(Number.isFinite(v), `${what} (slot ${i})`); });
}

function snapshot(sim) {
  const layout = new ArrayLayout(sim.layout().state);
  return decodeState(layout, sim.state().slice(), sim.laneIds(), sim.bodies());
}

// The same rows from the wasm Simulation, read from its flat state array.
function wasm(Module, query, steps, every, withReference = false) {
  const sim = new Module.Simulation(query);
  try {
    const ids = sim.laneIds();
    const layout = new ArrayLayout(sim.layout().state);
    const rows = [];
    const emit = () => {
      const s = decodeState(layout, sim.state().slice(), ids, sim.bodies());
      for (const lane of s.lanes) {
        lane.bodies.forEach((p, b) => {
          rows.push({
            t: s.t, integrator: lane.id, body: b, x: p.x, y: p.y, vx: p.vx, vy: p.vy, energy: lane.energy, error: p.error,
          });
        });
      }
      // integrators=…,reference: the CLI prints the reference's rows last (error 0 while it runs).
      if (withReference)
        s.reference.forEach((p, b) => rows.push({
          t: s.t, integrator: 'reference', body: b, x: p.x, y: p.y, vx: p.vx, vy: p.vy, energy: s.referenceEnergy,
          error: 0,  // the CSV's empty error (a stopped reference) reads as +'' = 0 too
        }));
    };
    emit();
    for (let done = 0; done + every <= steps; done += every) {
      assert.equal(sim.advanceSteps(every), every);
      emit();
    }
    return rows;
  } finally {
    sim.delete();
  }
}

const every = JSON.parse(M.tables()).integrators.map((i) => i.id).join(',');
// A body dropped from rest onto the central mass: every lane falls in.
const collisionQuery = 'scenario=orbit&x0=1,0&v0=0,0&integrators=explicit_euler,rk4';
const cases = [
  ...JSON.parse(M.tables()).presets.map((p) => ({ query: `preset=${p.id}`, steps: 400, every: 1 })),
  ...JSON.parse(M.tables()).scenarios.map((s) => ({ query: `scenario=${s.id}&integrators=${every}`, steps: 300, every: 1 })),
  { query: `scenario=spring_pair&integrators=${every}&dt=0.01&duration=100`, steps: 10000, every: 500 },
  { query: `scenario=projectile&integrators=${every}&drag=0.3&v0=30,40&dt=0.02`, steps: 2000, every: 100 },
  { query: `preset=stiff_spring&integrators=${every}`, steps: 200, every: 1 },  // divergence
];

// Per module and field: how many values, how many bit-identical, the worst relative difference.
const stats = { motion: {}, full: {} };
// Differences in a fixed-step lane's own state (not its error, not the adaptive rk45 lane).
let fixedStepDifferences = 0;
const fields = ['t', 'x', 'y', 'vx', 'vy', 'energy', 'error'];
// The module's rows of each case, for the test of the two modules against each other.
const rowsOf = { motion: [], full: [] };

for (const [c, name] of cases.flatMap((c) => [[c, 'motion'], [c, 'full']])) test(`wasm (${name} module) equals native: ${c.query.slice(0, 60)} (${c.steps} steps)`, () => {
    const a = native(c.query, c.steps, c.every);
    const withReference = a.some((r) => r.integrator === 'reference');
    const b = wasm(modules[name], c.query, c.steps, c.every, withReference);
    // A chaotic reference is exact only up to its tolerance study's horizon (docs/config.md: "Chaos has a
    // horizon"): its rows are compared up to there.
    const summary = JSON.parse(cliRun(c.query, { steps: c.steps, every: c.steps, format: 'json' }));
    const horizon = summary.reference_trusted_until ?? Infinity;
    // An rk45 reference is held to its own claimed accuracy (below), and so is every lane's error,
    // which is a distance from it: on a chaotic chain (pendulum_challenge's lanes) the reference's
    // last-bit differences between the libms grow to 1e-12 of the mechanism within 3 s.
    const rk45Reference = summary.reference === 'rk45';
    // A force you write that calls libm (docs/config.md: the native CLI and the page agree to the last
    // digit unless the expression calls sin, cos, exp, pow, …): every lane's state goes through
    // glibc's or musl's last bit each step. Held to 1e-12 of the motion's scale (1 m, 1 m/s, 1 J,
    // or the value when larger), as the page's test of the law holds the page to the CLI.
    const libmForce = /&f[xy]=[^&]*\b(sin|cos|tan|exp|log|pow|atan2)\(/.test(summary.config);
    rowsOf[name].push(b);
    assert.equal(b.length, a.length, 'row count');
    for (let i = 0; i < a.length; ++i) {
      assert.equal(b[i].integrator, a[i].integrator);
      assert.equal(b[i].body, a[i].body);
      // At the horizon the reference's error has grown to its tolerance (that is where the study
      // puts it): two libms' references may disagree by about that much there, and a lane's error,
      // a distance from the reference, with them (the 8 × 8 cloth at 2.45 s, the 12-rod rope at 4.03 s).
      const pastHorizon = a[i].t >= horizon;
      if (a[i].integrator === 'reference' && pastHorizon) continue;
      for (const f of fields) {
        if (f === 'error' && pastHorizon) continue;
        const x = a[i][f], y = b[i][f];
        const st = (stats[name][f] ??= { values: 0, identical: 0, worst: 0 });
        ++st.values;
        if (Object.is(x, y)) { ++st.identical; continue; }
        // The reference (integrators=…,reference) is rk45 too, or a closed form through libm.
        const adaptive = a[i].integrator === 'rk45' || a[i].integrator === 'reference';
        if (f !== 'error' && !adaptive && !libmForce) ++fixedStepDifferences;
        // The error is |x - x_ref|: a difference of nearly equal numbers, so a last-bit difference
        // in x_ref (the closed form's exp/sin/cos, or rk45's pow, come from different libms)
        // shows relative to the position, not to the error itself.
        // The reference's energy on a chain released level (pendulum_challenge) is 0: kinetic and
        // potential terms of several joules that cancel, so its last bits are measured against 1 J.
        const scale = f === 'error'
          ? Math.max(Math.abs(a[i].x), Math.abs(a[i].y), Math.abs(x), Math.abs(y), 1e-300)
          : Math.max(Math.abs(x), Math.abs(y), f === 'energy' && a[i].integrator === 'reference' ? 1 : 1e-300);
        const rel = Math.abs(x - y) / scale;
        st.worst = Math.max(st.worst, rel);
        // The reference of the pendulum challenge (four links, a 100 times heavier end) is chaotic:
        // it amplifies the last-bit differences of rk45's pow() between the libms (2e-12 after
        // 0.8 s, 1.4e-10 m/s after 3 s). Its rows are held to the accuracy the reference claims for
        // itself, 1e-9 in units of the 1 m mechanism (Simulation: trusted_error); every lane's to
        // 1e-12 relative.
        const reference = a[i].integrator === 'reference' || (f === 'error' && rk45Reference);
        const diff = reference || libmForce ? Math.abs(x - y) / Math.max(scale, 1) : rel;
        assert.ok(diff <= (reference ? 1e-9 : 1e-12), `${a[i].integrator} ${f} at t=${a[i].t}: native ${x} wasm ${y} (rel ${rel})`);
      }
    }
});

test('bit-identical summary', () => {
  for (const name of Object.keys(stats)) {
    for (const [f, st] of Object.entries(stats[name])) {
      console.log(`# wasm (${name}) vs native, ${f}: ${st.identical} of ${st.values} bit-identical; ` +
                  `worst relative difference ${st.worst}`);
    }
  }
  // Every fixed-step integrator's state and energy agree to the last bit. Only the adaptive rk45
  // lane (its step-size control calls pow()) and the errors against a closed form (exp, sin, cos)
  // go through libm, whose last bit differs between glibc and Emscripten's musl.
  for (const name of Object.keys(stats)) for (const f of fields) assert.ok(stats[name][f].values > 10000);
  assert.equal(fixedStepDifferences, 0, 'fixed-step lanes bit-identical');
});

// The two modules are one core built two ways (-Oz and -O3): every value of every case, rk45's
// and the errors included, is the same to the last bit. (Linking the motion module at -Oz did
// change rk45's steps at the 1e-12 level: it is linked at -Os, wasm_bindings/CMakeLists.txt.)
test('the motion module and the full module give the same numbers, bit for bit', () => {
  assert.equal(rowsOf.motion.length, cases.length);
  assert.equal(rowsOf.full.length, cases.length);
  let values = 0;
  rowsOf.motion.forEach((rows, k) => {
    assert.equal(rows.length, rowsOf.full[k].length);
    rows.forEach((row, i) => {
      for (const f of fields) {
        ++values;
        assert.ok(Object.is(row[f], rowsOf.full[k][i][f]),
          `${cases[k].query.slice(0, 50)} ${row.integrator} ${f} at t=${row.t}: motion ${row[f]}, full ${rowsOf.full[k][i][f]}`);
      }
    });
  });
  assert.ok(values > 70000, `${values} values compared`);
});

// A link with a cloud, given to the motion module: it runs without the cloud, says it needs the
// full module, and reports no error of its own (the page makes it again in the full module).
test('the motion module hands a cloud to the full module; the full module computes it', () => {
  const query = 'preset=undamped_dt025&cloud=500';
  const motion = new Motion.Simulation(query), full = new M.Simulation(query);
  try {
    assert.equal(motion.needsFullModule(), true);
    assert.deepEqual(motion.errors(), []);
    assert.equal(motion.layout().cloud.points, 0);
    assert.equal(motion.config(), full.config(), 'the same config, cloud=500 in both');
    assert.match(motion.config(), /&cloud=500/);
    assert.equal(full.needsFullModule(), false);
    assert.equal(full.layout().cloud.points, 500);
    const plain = new Motion.Simulation('preset=undamped_dt025');
    assert.equal(plain.needsFullModule(), false);
    plain.delete();
    // What the motion module leaves out, the full module has.
    for (const name of ['Convergence', 'StabilityGrid', 'RunExport', 'exportRun', 'stabilityLimit']) {
      assert.equal(typeof Motion[name], 'undefined', name);
      assert.equal(typeof M[name], 'function', name);
    }
  } finally {
    motion.delete();
    full.delete();
  }
});

test('tables carry the metadata the page shows', () => {
  const ints = JSON.parse(M.tables()).integrators;
  assert.ok(ints.length > 0);  // the CLI's rows, every one (checked whole against stepwise list below)
  for (const i of ints) {
    for (const k of ['id', 'name', 'family', 'description', 'orders_text', 'order_note']) assert.equal(typeof i[k], 'string');
    assert.equal(typeof i.force_evaluations, 'number');
    assert.deepEqual(Object.keys(i.orders), ['constant_force', 'single_forces', 'conservative', 'dissipative', 'without_closed_form']);
    // An order is a whole number, 'exact' or null (none: adaptive), as stepwise list --format json writes it.
    for (const claim of Object.values(i.orders)) assert.ok(claim === null || claim === 'exact' || Number.isInteger(claim), String(claim));
    for (const k of ['symplectic', 'implicit']) assert.equal(typeof i[k], 'boolean');
  }
  // Every family is a row of the families table, in its order.
  const families = JSON.parse(M.tables()).families.map((f) => f.id);
  assert.deepEqual(families, ['Euler family', 'Runge–Kutta', 'Verlet family', 'kinematic', 'solver', 'reference']);
  assert.deepEqual([...new Set(ints.map((i) => i.family))].sort(), [...families].sort());
  const spring = JSON.parse(M.tables()).scenarios.find((s) => s.id === 'spring');
  const k = spring.params.find((p) => p.key === 'k');
  assert.deepEqual({ dims: k.dims, default: k.default, min: k.min, min_exclusive: k.min_exclusive, unit: k.unit },
    { dims: 1, default: [15], min: 1e-6, min_exclusive: false, unit: 'N/m' });
  assert.ok(JSON.parse(M.tables()).presets.some((p) => p.id === 'damped_spring'));
});

test('parse returns errors as {key, value, message, code, args}; normalise is canonical', () => {
  const r = M.parse('scenario=spring&dt=-1&integrators=rk4,nope');
  assert.equal(r.ok, false);
  assert.deepEqual(r.errors.map((e) => e.key).sort(), ['dt', 'integrators']);
  for (const e of r.errors) assert.equal(typeof e.message, 'string');
  const dt = r.errors.find((e) => e.key === 'dt');
  assert.equal(dt.code, 'not_allowed');
  assert.deepEqual(dt.args, { key: 'dt', got: '-1', allowed: 'number', min: '1e-09', max: '10' });
  // The CLI's list and the module's tables are one text.
  assert.equal(execFileSync(cli, ['list', '--format', 'json'], { encoding: 'utf8' }),
    Motion.tables().replace(/, "max_steps_per_call".*?\},/, '},'));
  assert.match(r.config, /^v=1&scenario=spring&integrators=rk4&dt=0.01&/);
  const n = M.normalise('#dt=0.1&scenario=spring&integrators=rk4');
  assert.equal(M.normalise(n), n);
  assert.equal(M.parse(n).ok, true);
  // The native CLI's check agrees.
  assert.equal(execFileSync(cli, ['check', 'scenario=spring&integrators=rk4&dt=0.1'], { encoding: 'utf8' }).trim(),
    M.normalise('scenario=spring&integrators=rk4&dt=0.1'));
});

test('numbers: the module reads and writes them as the native CLI does, at every precision', () => {
  // Emscripten's libc++ has no to_chars/from_chars for double: the module goes through musl's
  // strtod/snprintf, the CLI through libstdc++'s from_chars/to_chars (core/number_text.cpp). The
  // normalised text must be the same bytes. Inputs with 1 to 17 significant digits from 1e-300 to
  // 1e6, subnormals and values where %g switches notation.
  let seed = 12345;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const numbers = ['1e-320', '4.9406564584124654e-324', '999999.9999999999', '0.1', '1e-7', '100000.00000000001',
    '0.30000000000000004', '-2.5e-5', '0.000123456789', '0.0001', '123456', '-1000000'];
  for (let p = 1; p <= 17; ++p) {
    for (let k = 0; k < 12; ++k) {
      let digits = String(1 + rand(9));
      for (let d = 1; d < p; ++d) digits += String(rand(10));
      const exp = k < 6 ? -rand(300) : rand(12) - 6;
      numbers.push(`${rand(2) ? '-' : ''}${digits[0]}.${digits.slice(1)}e${exp}`);
    }
  }
  let compared = 0;
  for (let i = 0; i < numbers.length; i += 6) {
    const [a, b, c, d, e, f] = [0, 1, 2, 3, 4, 5].map((j) => numbers[(i + j) % numbers.length]);
    const query = `scenario=spring&integrators=rk4&x0=${a},${b}&v0=${c},${d}&anchor=${e},${f}&rest=${a.replace(/^-/, '')}`;
    const native = execFileSync(cli, ['check', query], { encoding: 'utf8' }).trim();
    assert.equal(M.normalise(query), native, query);
    assert.equal(M.parse(query).ok, true, query);
    compared += 7;
  }
  assert.ok(compared >= 17 * 12);
  assert.equal(L.min_cloud_radius, 1e-6);
  assert.equal(L.max_cloud_radius, 1e6);
});

test('advanceTime, reset, history and divergence flags', () => {
  const sim = new M.Simulation('preset=stiff_spring');
  try {
    assert.equal(sim.advanceTime(1), 20);  // dt = 0.05
    let s = snapshot(sim);
    assert.equal(s.steps, 20);
    assert.equal(s.t, 20 * 0.05);
    sim.advanceTime(9);
    s = snapshot(sim);
    const lane = (id) => s.lanes.find((l) => l.id === id);
    assert.equal(lane('explicit_euler').diverged, true, 'explicit Euler diverges on the stiff spring');
    assert.equal(lane('explicit_euler').stopReason, 'diverged');
    assert.ok(lane('explicit_euler').divergedAt > 0);
    assert.equal(lane('semi_implicit_euler').diverged, false);
    assert.equal(lane('semi_implicit_euler').stopReason, '');
    assertFiniteState(sim);
    const layout = sim.layout();
    const history = new ArrayLayout(layout.history);
    assert.equal(layout.history_capacity, L.history_capacity);
    const h = sim.history(0).slice();
    assert.equal(h.length, s.historyCount * history.width);
    const t = history.series(h, 't');
    assert.equal(t(0), 0);
    assert.ok(t(s.historyCount - 1) <= s.t && t(s.historyCount - 1) > 9);
    sim.reset();
    s = snapshot(sim);
    assert.equal(s.t, 0);
    assert.equal(s.historyCount, 1);
  } finally {
    sim.delete();
  }
});

// The energy breakdown the page plots for a chosen lane (web/plots/plots.js): kinetic and potential
// per lane in the history, summing to the lane's energy. Stiff spring, k = 1000 N/m, m = 1 kg,
// x0 = 1 m, v0 = 0: at t = 0 all of it is the spring's ½·k·x² = 500 J; after one step of explicit
// Euler (x stays 1, v = −k·x·dt/m = −50 m/s) the kinetic energy is ½·50² = 1250 J.
test('history: kinetic and potential energy per lane, summing to its energy', () => {
  const sim = new M.Simulation('preset=stiff_spring');
  try {
    const history = new ArrayLayout(sim.layout().history);
    const euler = sim.laneIds().indexOf('explicit_euler');
    let h = sim.history(0).slice();
    assert.equal(history.get(h, 'kinetic_energy', euler), 0);
    assert.equal(history.get(h, 'potential_energy', euler), 500);
    assert.equal(history.get(h, 'reference_energy'), 500);
    sim.advanceTime(0.05);
    const s = snapshot(sim);
    h = sim.history(0).slice();
    const last = s.historyCount - 1;
    assert.equal(history.get(h, 'kinetic_energy', euler, 0, last), 1250);
    assert.equal(history.get(h, 'potential_energy', euler, 0, last), 500);
    s.lanes.forEach((lane, l) => {
      const sum = history.get(h, 'kinetic_energy', l, 0, last) + history.get(h, 'potential_energy', l, 0, last);
      assert.ok(Math.abs(sum - lane.energy) <= 1e-12 * Math.abs(lane.energy), `${lane.id}: ${sum} vs ${lane.energy}`);
    });
  } finally {
    sim.delete();
  }
});

test('layouts: every series named, every slot inside the array, no two series in one slot', () => {
  const state = ['t', 'steps', 'history_count', 'history_generation', 'last_advance', 'reference_energy',
    'reference_stopped', 'reference_stopped_at', 'reference_angular_momentum', 'reference_phase_q', 'reference_phase_p',
    'x', 'y', 'vx', 'vy', 'error', 'energy', 'energy_drift', 'stopped', 'stopped_at', 'dissipated', 'max_error',
    'angular_momentum', 'angular_momentum_drift', 'phase_q', 'phase_p',
    'reference_x', 'reference_y', 'reference_vx', 'reference_vy'];
  const history = ['t', 'reference_phase_q', 'reference_phase_p', 'energy_drift', 'max_error', 'phase_q', 'phase_p',
    'kinetic_energy', 'potential_energy', 'reference_energy', 'reference_x', 'reference_y'];
  for (const query of ['preset=two_point_exercise', 'preset=eccentric_orbit', 'preset=projectile_drag',
    `scenario=elastic_pendulum&integrators=${every}`]) {
    const sim = new M.Simulation(query);
    try {
      const desc = sim.layout(), scene = sim.scene();
      const lanes = sim.lanes(), bodies = sim.bodies();
      for (const [desc1, names] of [[desc.state, state], [desc.history, history]]) {
        const layout = new ArrayLayout(desc1);
        for (const name of names) assert.ok(layout.has(name), `${query}: ${name}`);
        const used = new Map();
        for (const name of Object.keys(desc1.fields)) {
          const f = desc1.fields[name];
          const laneCount = f.scope === 'lane' || f.scope === 'lane_body' ? lanes : 1;
          const bodyCount = f.scope === 'body' || f.scope === 'lane_body' ? bodies : 1;
          for (let l = 0; l < laneCount; ++l) {
            for (let b = 0; b < bodyCount; ++b) {
              const i = layout.index(name, l, b);
              assert.ok(i >= 0 && i < layout.width, `${query}: ${name}[${l}][${b}] = ${i} inside ${layout.width}`);
              assert.ok(!used.has(i), `${query}: ${name} and ${used.get(i)} share slot ${i}`);
              used.set(i, name);
            }
          }
        }
        assert.equal(used.size, layout.width, `${query}: every slot used`);
      }
      assert.equal(sim.state().length, desc.state.width);
      // Angular momentum drift is recorded exactly where the scene says it is conserved.
      assert.equal(new ArrayLayout(desc.history).has('angular_momentum_drift'), scene.angularMomentum, query);
      // Phase series carry the scene's names.
      assert.equal(desc.history.fields.phase_q.label, scene.phase.q);
      assert.equal(desc.history.fields.phase_p.unit, scene.phase.pUnit);
    } finally {
      sim.delete();
    }
  }
});

test('scene: what to draw, from the core, for every scenario', () => {
  for (const row of JSON.parse(M.tables()).scenarios) {
    const sim = new M.Simulation(`scenario=${row.id}`);
    try {
      const scene = sim.scene();
      assert.equal(scene.scenario, row.id);
      assert.equal(scene.name, row.name);
      assert.equal(scene.bodies.length, sim.bodies());
      for (const b of scene.bodies) assert.ok(b.mass > 0 && Number.isFinite(b.start.x) && Number.isFinite(b.start.y));
      for (const s of scene.springs) {
        for (const end of [s.from, s.to]) {
          if (end.anchor !== undefined) assert.ok(end.anchor >= 0 && end.anchor < scene.anchors.length);
          else assert.ok(end.body >= 0 && end.body < scene.bodies.length);
        }
      }
      assert.ok(['exact', 'rk45'].includes(scene.reference.kind));
      assert.equal(scene.reference.text, row.reference);
      assert.equal(scene.phase.text, row.phase_plot);
      for (const k of ['launchLine', 'referencePath', 'angularMomentum', 'dissipative']) assert.equal(typeof scene[k], 'boolean');
      assert.ok(scene.size >= 0);
      // The kind of system and each lane's claim on it: the native CLI names the same kind, and
      // each claim is the integrator table's for that kind.
      const native = JSON.parse(execFileSync(cli, ['run', `scenario=${row.id}`, '--format', 'json', '--steps', '0'], { encoding: 'utf8' }));
      assert.equal(scene.regime.id, native.order_regime);
      assert.equal(typeof scene.regime.text, 'string');
      const table = new Map(JSON.parse(M.tables()).integrators.map((i) => [i.id, i]));
      assert.equal(scene.laneOrders.length, sim.laneIds().length);
      sim.laneIds().forEach((id, l) => {
        // The scene's claim ({kind, p, text}) is the table's order (n, 'exact' or null) and the CLI's.
        const claim = scene.laneOrders[l];
        const order = claim.kind === 'power' ? claim.p : claim.kind === 'exact' ? 'exact' : null;
        assert.equal(order, table.get(id).orders[scene.regime.id], id);
        assert.equal(native.integrators[l].order, order);
      });
    } finally {
      sim.delete();
    }
  }
  const orbit = new M.Simulation('preset=eccentric_orbit');
  try {
    const scene = orbit.scene();
    assert.equal(scene.centres.length, 1);
    assert.deepEqual([scene.centres[0].x, scene.centres[0].y, scene.centres[0].gm], [0, 0, 1]);
    assert.equal(scene.referencePath, true);
    assert.equal(scene.angularMomentum, true);
  } finally {
    orbit.delete();
  }
});

// Issue 31: why a written force has no potential (a pole between the origin and the start), in
// the system's description, as the CLI prints it (stderr "energy: …", JSON no_potential), with
// its code and arguments for the page's languages; none where the force has a potential.
test('scene: a written force\'s missing potential, as a message with its code and arguments', () => {
  const pole = 'scenario=projectile&g=0&x0=2,0&v0=0,0&fx=1/(1-x)^2&integrators=rk4&dt=0.001&duration=0.5';
  const csv = spawnSync(cli, ['run', pole, '--steps', '0'], { encoding: 'utf8' });
  const said = /^energy: (.*)$/m.exec(csv.stderr)?.[1];
  assert.ok(said, `the CLI says why on stderr: ${csv.stderr}`);
  const json = spawnSync(cli, ['run', pole, '--steps', '0', '--format', 'json'], { encoding: 'utf8' });
  assert.equal(JSON.parse(json.stdout).no_potential, said);
  for (const [name, Module] of Object.entries(modules)) {
    const sim = new Module.Simulation(pole);
    try {
      const note = sim.scene().noPotential;
      assert.equal(note.code, 'written_no_potential_pole', name);
      assert.equal(note.message, said, name);
      assert.deepEqual(Object.keys(note.args), ['key', 'got', 'body', 'axis', 'start', 'near'], name);
      assert.equal(note.key, 'fx');
      assert.equal(note.value, note.args.got);
      assert.deepEqual([note.args.key, note.args.body, note.args.axis, note.args.start], ['fx', '0', 'x', '2']);
      assert.ok(Math.abs(Number(note.args.near) - 1) < 1e-3, `the pole at x = 1: near ${note.args.near}`);
    } finally {
      sim.delete();
    }
  }
  for (const query of ['scenario=projectile&g=0&x0=2,0&fx=-x', 'scenario=projectile&g=0&x0=2,0&fx=-x-0.1*vx', 'scenario=spring']) {
    const sim = new M.Simulation(query);
    try {
      assert.equal(sim.scene().noPotential, null, query);
    } finally {
      sim.delete();
    }
  }
});

// The core says when a link's lanes cannot step its system (force-based lanes on rigid links),
// and a rigid system's own default lanes are the solvers: the page asks it, and keeps no rule.
test('parse: noLaneSteps, and a rigid system\'s default lanes', () => {
  for (const [query, none] of [['scenario=chain&integrators=rk4,heun', true], ['scenario=chain&integrators=rk4,xpbd', false],
    ['scenario=chain&integrators=reference', false], ['scenario=chain&compliance=0.001&integrators=rk4', false],
    ['scenario=spring&integrators=rk4', false], ['scenario=chain', false]]) {
    assert.equal(M.parse(query).noLaneSteps, none, query);
    assert.equal(Motion.parse(query).noLaneSteps, none, query);
  }
  assert.match(M.normalise('scenario=chain'), /&integrators=pbd,xpbd,soft_step,sequential_impulses,vbd&/);
  assert.match(M.normalise('scenario=chain&integrators=reference'), /&integrators=reference&/);
});

test('a body that falls into the central mass stops with reason collision; the others run on', () => {
  // Dropped from rest at r = 1: it reaches the centre at t = π/(2√2) ≈ 1.11 s.
  const sim = new M.Simulation(collisionQuery);
  try {
    sim.advanceTime(5);
    const s = snapshot(sim);
    for (const lane of s.lanes) {
      assert.equal(lane.stopReason, 'collision', lane.id);
      assert.equal(lane.diverged, true);
      assert.ok(lane.divergedAt > 1 && lane.divergedAt < 1.3, `${lane.id} stopped at ${lane.divergedAt}`);
      for (const b of lane.bodies) assert.ok(Math.hypot(b.x, b.y) < 0.5, `${lane.id} stays near the centre`);
    }
    assertFiniteState(sim);
    assert.notEqual(s.referenceStopped, '', 'the reference stops too');
  } finally {
    sim.delete();
  }
});

test('no handle leaks across many create/advance/read/delete cycles', () => {
  const before = M.count_emval_handles();
  for (let i = 0; i < 200; ++i) {
    const sim = new M.Simulation('preset=two_point_exercise');
    sim.advanceSteps(5);
    sim.state().slice();
    sim.history(0).slice();
    sim.errors();
    sim.laneIds();
    sim.delete();
    M.parse('scenario=spring&x=1');
    JSON.parse(M.tables());
  }
  assert.equal(M.count_emval_handles(), before);
});

test('exportRun and RunExport print what stepwise run prints, CSV and JSON, with no leak', () => {
  const before = M.count_emval_handles();
  for (const [query, steps, k] of [
    ['preset=two_point_exercise', 20, 1],
    ['preset=constant_force', 10, 1],
    ['preset=eccentric_orbit', 400, 3],
    [collisionQuery, 200, 1],
    ['preset=elastic_pendulum_resonance', 300, 2],
    ['preset=stiff_spring', 200, 1],  // a divergence
    [`scenario=spring_pair&integrators=${every}&dt=0.01&duration=1000`, 30000, 7],
  ]) {
    for (const format of ['csv', 'json']) {
      const wasmText = M.exportRun(query, steps, k, format).join('');
      const nativeText = cliRun(query, { steps, every: k, format });
      const { lines, identical } = compareRunText(wasmText, nativeText, format, `${query} ${format}`);
      if (format === 'json') {
        const data = JSON.parse(wasmText);
        assert.equal(data.config, M.normalise(query));
        assert.equal(data.steps, steps);
      }
      if (query === 'preset=two_point_exercise' || query === 'preset=constant_force') {
        assert.equal(wasmText, nativeText, `${query} ${format}: byte-identical`);
      }
      console.log(`# ${format} of ${query.slice(0, 40)}: ${identical} of ${lines} lines identical text`);
      // The sliced exporter gives the same text, in any slice size.
      for (const slice of steps <= 100 ? [1, 7, 100000] : [777, 100000]) {
        const job = new M.RunExport(query, steps, k, format);
        const parts = [];
        let done = false;
        let calls = 0;
        while (!done) {
          done = job.run(slice, Infinity);
          parts.push(...job.take());
          if (++calls > 1e6) break;
        }
        assert.equal(job.done(), steps);
        assert.equal(job.total(), steps);
        job.delete();
        assert.equal(parts.join(''), wasmText, `${query} ${format}, slices of ${slice}`);
      }
    }
  }
  // The row cap holds.
  const capped = M.exportRun(`scenario=spring_pair&integrators=${every}&dt=0.01&duration=1000`, 20000, 1, 'csv').join('');
  assert.equal(capped.trim().split('\n').length - 1, L.max_export_rows);
  assert.equal(M.count_emval_handles(), before);
});

// Runs fn with a new Simulation of the query, and deletes it.
function withSimulation(query, fn) {
  const sim = new M.Simulation(query);
  try {
    fn(sim);
  } finally {
    sim.delete();
  }
}

test('clouds through the module: layout, points, area ratios by name, history series only with clouds', () => {
  const query = 'preset=undamped_dt025&integrators=explicit_euler,semi_implicit_euler,implicit_euler,rk4,velocity_verlet&cloud=500';
  withSimulation(query, (sim) => {
    assert.deepEqual([...sim.errors()], []);
    const layout = sim.layout();
    assert.deepEqual({ ...layout.cloud }, { points: 500, lanes: 5, exact: 500, radius: L.default_cloud_radius });
    const state = new ArrayLayout(layout.state), history = new ArrayLayout(layout.history);
    assert.ok(history.has('area_ratio') && history.has('exact_area_ratio'));
    const n = 10;
    sim.advanceSteps(n);
    const raw = sim.state().slice();
    const ratio = (id) => state.get(raw, 'area_ratio', sim.laneIds().indexOf(id));
    const wh2 = 15 * 0.25 * 0.25;  // ω²h² of the undamped spring at dt = 0.25
    const wh = Math.sqrt(wh2);
    const close = (a, b, what) => assert.ok(Math.abs(a / b - 1) < 1e-9, `${what}: ${a} vs ${b}`);
    close(ratio('explicit_euler'), Math.pow(1 + wh2, n), 'explicit Euler');
    close(ratio('implicit_euler'), Math.pow(1 + wh2, -n), 'implicit Euler');
    close(ratio('rk4'), Math.pow(1 - Math.pow(wh, 6) / 72 + Math.pow(wh, 8) / 576, n), 'RK4');
    close(ratio('semi_implicit_euler'), 1, 'semi-implicit Euler');
    close(ratio('velocity_verlet'), 1, 'velocity Verlet');
    close(state.get(raw, 'exact_area_ratio'), 1, 'exact flow');
    sim.laneIds().forEach((id, l) => assert.equal(state.get(raw, 'points_finite', l), 500, id));
    const points = sim.cloudPoints().slice();
    assert.equal(points.length, 2 * (5 * 500 + 500));
    assert.ok(points.every(Number.isFinite));
    // The history's last sample carries the same ratios.
    const h = sim.history(0).slice();
    const last = (h.length / history.width) - 1;
    close(history.get(h, 'area_ratio', 0, 0, last), Math.pow(1 + wh2, n), 'explicit Euler in the history');
  });
  // Without a cloud: no history series, NaN ratios in the state, no points.
  withSimulation('preset=undamped_dt025', (plain) => {
    const layout = plain.layout();
    assert.equal(layout.cloud.points, 0);
    assert.equal(new ArrayLayout(layout.history).has('area_ratio'), false);
    const state = new ArrayLayout(layout.state);
    assert.ok(Number.isNaN(state.get(plain.state().slice(), 'area_ratio', 0)));
    assert.equal(plain.cloudPoints().length, 0);
  });
  // The damped spring: the exact flow shrinks the patch by e^(-b t / m).
  withSimulation('preset=damped_spring&cloud=200', (damped) => {
    damped.advanceSteps(100);
    const raw = damped.state().slice();
    const state = new ArrayLayout(damped.layout().state);
    assert.ok(Math.abs(state.get(raw, 'exact_area_ratio') / Math.exp(-0.1 * 1) - 1) < 1e-9);
  });
});

test('a large cloud is built and stepped in parts within a budget: the same numbers as all at once', () => {
  // Four clouds of 20,000 points (84,096 copies with their rims): more than one part per step.
  const query = 'preset=undamped_dt025&integrators=explicit_euler,implicit_euler,rk4,rk45&cloud=20000';
  const whole = new M.Simulation(query), parts = new M.Simulation(query);
  try {
    // Not built with the simulation: nothing steps until they are, and they read as not there.
    assert.equal(parts.cloudsReady(), false);
    const state = new ArrayLayout(parts.layout().state);
    assert.ok(Number.isNaN(state.get(parts.state().slice(), 'area_ratio', 0)));
    assert.equal(parts.advanceWithin(5, 0), 0, 'no step before the clouds are built');
    let calls = 1;
    while (!parts.prepare(0)) ++calls;  // a budget of 0: one unit of work a call
    assert.ok(calls > 4, `${calls} calls to build them`);
    assert.equal(parts.cloudsReady(), true);
    // A budget of 0 takes one part of a step a call: several calls make one step, and until the
    // step is whole the state and the points read are the last whole step's.
    const before = parts.cloudPoints().slice();
    let taken = 0, partial = 0;
    while (taken === 0) {
      taken = parts.advanceWithin(1, 0);
      if (taken === 0) {
        ++partial;
        assert.deepEqual(parts.cloudPoints().slice(), before, 'a step part-way reads as the last whole step');
        assert.equal(state.get(parts.state().slice(), 'steps'), 0);
      }
    }
    assert.ok(partial > 10, `${partial} calls left the step part-way`);
    for (let n = 1; n < 12; ) n += parts.advanceWithin(12 - n, 0);
    whole.advanceSteps(12);
    // Every value but how many steps the last call took.
    const comparable = (sim) => { const raw = sim.state().slice(); raw[state.index('last_advance')] = 0; return raw; };
    assert.deepEqual(comparable(parts), comparable(whole), 'the same state, area ratios and finite counts, bit for bit');
    assert.deepEqual(parts.cloudPoints().slice(), whole.cloudPoints().slice(), 'the same points');
    assert.deepEqual(parts.history(0).slice(), whole.history(0).slice(), 'the same history');
    // reset drops a step left part-way.
    parts.advanceWithin(1, 0);
    parts.reset();
    assert.equal(parts.advanceWithin(3, Infinity), 3);
    whole.reset();
    whole.advanceSteps(3);
    assert.deepEqual(comparable(parts), comparable(whole));
  } finally {
    whole.delete();
    parts.delete();
  }
  // Small clouds are built with the simulation.
  withSimulation('preset=undamped_dt025&cloud=500', (small) => assert.equal(small.cloudsReady(), true));
});

// Issue 31 §4: a step that costs more than a frame's work (max_work_per_call, in the core's units:
// force evaluations times what one visits) is taken over several calls, lane by lane, substep by
// substep and a few of rk45's substeps at a time, the reference's too; each call does at most its
// budget plus one unit (here a solver's substep of 100 passes and its external forces, or one
// rk45 substep, at most 102 evaluations, and a step's check of its energy), and the run is the same bits as steps taken whole. A
// whole step of this link is about 1.4 million units.
test('a step heavier than a call\'s work is taken in parts: at most the budget and a unit a call, the same bits as whole', () => {
  const query = 'preset=scene_cloth&integrators=rk45,xpbd@10x100,soft_step@10x100,reference&fx=-c1*x&c1=40&duration=1';
  const whole = new M.Simulation(query), parts = new M.Simulation(query);
  try {
    const cap = L.max_work_per_call, size = parts.evaluationSize();
    assert.equal(cap, 100000);
    // A unit: 102 evaluations, and the check of a lane's finished step, whose energy takes the
    // written potential's quadrature (Simulation::work counts its nodes): 16 a body and axis,
    // one expression each, at most 32 × size.
    const unit = 102 * size + 32 * size;
    let taken = 0, calls = 0, most = 0, partial = 0;
    const state = new ArrayLayout(parts.layout().state);
    while (taken < 3) {
      const before = parts.state().slice();
      const n = parts.advanceWithin(1, 1e9);  // a finite budget of time, never reached here: the work bounds the call
      calls += 1;
      most = Math.max(most, parts.lastWork());
      if (n === 0) {
        partial += 1;
        assert.deepEqual(parts.state().slice(), before, 'part-way, the state read is the last whole step');
      }
      taken += n;
    }
    assert.ok(partial >= 6, `${partial} calls ended part-way through a step (${calls} calls for 3 steps)`);
    assert.ok(most <= cap + unit, `the most work of a call, ${most}, is within ${cap} + one unit (${unit})`);
    assert.ok(most > cap / 2, `the calls use their budget (${most})`);
    whole.advanceSteps(3);
    const comparable = (sim) => { const raw = sim.state().slice(); raw[state.index('last_advance')] = 0; return raw; };
    assert.deepEqual(comparable(parts), comparable(whole), 'the same state, bit for bit');
    assert.deepEqual(parts.history(0).slice(), whole.history(0).slice(), 'the same history');
    assert.ok(whole.lastWork() === 0, 'advanceSteps counts no work of its own');
  } finally {
    whole.delete();
    parts.delete();
  }
});

test('advanceWithin stops at its budget; growBounds finds a closed form at once and a reference a step at a time', () => {
  withSimulation('preset=damped_spring', (sim) => {
    assert.equal(sim.advanceWithin(1000, 0), 1, 'a budget of 0: one step');
    assert.equal(sim.advanceWithin(1000, Infinity), 1000, 'no budget: all of them');
    // A closed form: the whole duration at once, whatever the budget.
    const b = sim.growBounds(0);
    assert.equal(b.done, true);
    assert.equal(b.t, 10);
    assert.equal(b.maxX, 1000, 'the start, x0 = 1000');
    assert.ok(b.minX < -900 && b.minX > -1000, `the first swing back: ${b.minX}`);
  });
  // No closed form (a rest length): the reference stepped dt by dt for the budget.
  withSimulation('scenario=spring&rest=1&x0=2,0&b=0&duration=100000', (sim) => {
    const start = sim.growBounds(0);
    assert.deepEqual({ ...start }, { minX: 2, maxX: 2, minY: 0, maxY: 0, t: 0, done: false }, 'a budget of 0: the start alone');
    const first = sim.growBounds(1e-9);
    assert.equal(first.t, 0.01, 'any budget: at least one step');
    let b = first;
    for (let k = 0; k < 50; ++k) b = sim.growBounds(2);
    assert.ok(b.t > 1 && b.t < 100000, `t = ${b.t}`);
    // Along x between the start (2) and the anchor side (|x| - 1 = -1 by energy: x = 0).
    assert.equal(b.maxX, 2);
    assert.ok(Math.abs(b.minX) < 1e-3, `${b.minX}`);
    assert.equal(b.minY, 0);
    assert.equal(b.maxY, 0);
    // The simulation itself has not moved.
    assert.equal(sim.time(), 0);
  });
});

test('the longest query the page passes to the core, from the core limits', () => {
  assert.equal(L.max_pairs, 64);
  assert.equal(L.max_value_length, 1024);
  // A scene's value may be 16,000 characters instead of 1,024 (core/scene_spec.hpp).
  assert.equal(L.max_scene_length, 16000);
  assert.equal(L.max_query_length, 64 * (2 * 3 * 1024 + 2) + 3 * (16000 - 1024));
});
