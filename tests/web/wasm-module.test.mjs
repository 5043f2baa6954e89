// The WebAssembly module against the native CLI: same config, same step, same numbers.
// Also the tables, the config functions and the flat state layout the page relies on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.STEPWISE_SITE || path.join(root, 'build/site');
const cli = process.env.STEPWISE_CLI || path.join(root, 'build/native/stepwise');
const require = createRequire(import.meta.url);
const createStepwise = require(path.join(site, 'stepwise.js'));
// Node 20's fetch() cannot read a file path: hand the loader the bytes (TOOLCHAIN.md).
const M = await createStepwise({ wasmBinary: fs.readFileSync(path.join(site, 'stepwise.wasm')) });
const L = M.limits();

function native(query, steps, every) {
  const out = execFileSync(cli, ['run', query, '--steps', String(steps), '--every', String(every)], {
    encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 << 20,
  });
  const rows = out.trim().split('\n').slice(1).map((line) => {
    const [t, integrator, body, x, y, vx, vy, energy, error] = line.split(',');
    return { t: +t, integrator, body: +body, x: +x, y: +y, vx: +vx, vy: +vy, energy: +energy, error: +error };
  });
  return rows;
}

// The same rows from the wasm Simulation, read from its flat state array.
function wasm(query, steps, every) {
  const sim = new M.Simulation(query);
  try {
    const ids = sim.laneIds();
    const rows = [];
    const emit = () => {
      const s = sim.state().slice();
      const lanes = s[2], bodies = s[3];
      const stride = 4 * bodies + L.lane_fixed + bodies;
      for (let l = 0; l < lanes; ++l) {
        const o = L.state_header + l * stride;
        for (let b = 0; b < bodies; ++b) {
          rows.push({
            t: s[0], integrator: ids[l], body: b,
            x: s[o + 4 * b], y: s[o + 4 * b + 1], vx: s[o + 4 * b + 2], vy: s[o + 4 * b + 3],
            energy: s[o + 4 * bodies], error: s[o + 4 * bodies + L.lane_fixed + b],
          });
        }
      }
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

const every = M.integrators().map((i) => i.id).join(',');
const cases = [
  ...M.presets().map((p) => ({ query: `preset=${p.id}`, steps: 400, every: 1 })),
  ...M.scenarios().map((s) => ({ query: `scenario=${s.id}&integrators=${every}`, steps: 300, every: 1 })),
  { query: `scenario=spring_pair&integrators=${every}&dt=0.01&duration=100`, steps: 10000, every: 500 },
  { query: `scenario=projectile&integrators=${every}&drag=0.3&v0=30,40&dt=0.02`, steps: 2000, every: 100 },
  { query: `preset=stiff_spring&integrators=${every}`, steps: 200, every: 1 },  // divergence
];

// Per field: how many values, how many bit-identical, the worst relative difference.
const stats = {};
// Differences in a fixed-step lane's own state (not its error, not the adaptive rk45 lane).
let fixedStepDifferences = 0;
const fields = ['t', 'x', 'y', 'vx', 'vy', 'energy', 'error'];

for (const c of cases) {
  test(`wasm equals native: ${c.query.slice(0, 70)} (${c.steps} steps)`, () => {
    const a = native(c.query, c.steps, c.every);
    const b = wasm(c.query, c.steps, c.every);
    assert.equal(b.length, a.length, 'row count');
    for (let i = 0; i < a.length; ++i) {
      assert.equal(b[i].integrator, a[i].integrator);
      assert.equal(b[i].body, a[i].body);
      for (const f of fields) {
        const x = a[i][f], y = b[i][f];
        const st = (stats[f] ??= { values: 0, identical: 0, worst: 0 });
        ++st.values;
        if (Object.is(x, y)) { ++st.identical; continue; }
        if (f !== 'error' && a[i].integrator !== 'rk45') ++fixedStepDifferences;
        // The error is |x - x_ref|: a difference of nearly equal numbers, so a last-bit difference
        // in x_ref (the closed form's exp/sin/cos, or rk45's pow, come from different libms)
        // shows relative to the position, not to the error itself.
        const scale = f === 'error'
          ? Math.max(Math.abs(a[i].x), Math.abs(a[i].y), Math.abs(x), Math.abs(y), 1e-300)
          : Math.max(Math.abs(x), Math.abs(y), 1e-300);
        const rel = Math.abs(x - y) / scale;
        st.worst = Math.max(st.worst, rel);
        assert.ok(rel <= 1e-12, `${a[i].integrator} ${f} at t=${a[i].t}: native ${x} wasm ${y} (rel ${rel})`);
      }
    }
  });
}

test('bit-identical summary', () => {
  for (const [f, st] of Object.entries(stats)) {
    console.log(`# wasm vs native, ${f}: ${st.identical} of ${st.values} bit-identical; ` +
                `worst relative difference ${st.worst}`);
  }
  // Every fixed-step integrator's state and energy agree to the last bit. Only the adaptive rk45
  // lane (its step-size control calls pow()) and the errors against a closed form (exp, sin, cos)
  // go through libm, whose last bit differs between glibc and Emscripten's musl.
  for (const f of fields) assert.ok(stats[f].values > 10000);
  assert.equal(fixedStepDifferences, 0, 'fixed-step lanes bit-identical');
});

test('tables carry the metadata the page shows', () => {
  const ints = M.integrators();
  assert.equal(ints.length, 15);
  for (const i of ints) {
    for (const k of ['id', 'name', 'family', 'description']) assert.equal(typeof i[k], 'string');
    for (const k of ['order', 'force_evaluations']) assert.equal(typeof i[k], 'number');
    for (const k of ['symplectic', 'implicit']) assert.equal(typeof i[k], 'boolean');
  }
  assert.deepEqual([...new Set(ints.map((i) => i.family))].sort(),
    ['Euler family', 'Runge–Kutta', 'Verlet family', 'kinematic', 'reference'].sort());
  const spring = M.scenarios().find((s) => s.id === 'spring');
  const k = spring.params.find((p) => p.key === 'k');
  assert.deepEqual({ dims: k.dims, default: k.default, min: k.min, min_exclusive: k.min_exclusive, unit: k.unit },
    { dims: 1, default: [15], min: 0, min_exclusive: true, unit: 'N/m' });
  assert.ok(M.presets().some((p) => p.id === 'damped_spring'));
});

test('parse returns errors as {key, value, message}; normalise is canonical', () => {
  const r = M.parse('scenario=spring&dt=-1&integrators=rk4,nope');
  assert.equal(r.ok, false);
  assert.deepEqual(r.errors.map((e) => e.key).sort(), ['dt', 'integrators']);
  for (const e of r.errors) assert.equal(typeof e.message, 'string');
  assert.match(r.config, /^v=1&scenario=spring&integrators=rk4&dt=0.01&/);
  const n = M.normalise('#dt=0.1&scenario=spring&integrators=rk4');
  assert.equal(M.normalise(n), n);
  assert.equal(M.parse(n).ok, true);
  // The native CLI's check agrees.
  assert.equal(execFileSync(cli, ['check', 'scenario=spring&integrators=rk4&dt=0.1'], { encoding: 'utf8' }).trim(),
    M.normalise('scenario=spring&integrators=rk4&dt=0.1'));
});

test('advanceTime, reset, history and divergence flags', () => {
  const sim = new M.Simulation('preset=stiff_spring');
  try {
    assert.equal(sim.advanceTime(1), 20);  // dt = 0.05
    let s = sim.state().slice();
    assert.equal(s[1], 20);
    assert.equal(s[0], 20 * 0.05);
    sim.advanceTime(9);
    s = sim.state().slice();
    const lanes = s[2], bodies = s[3], stride = 4 * bodies + L.lane_fixed + bodies;
    const ids = sim.laneIds();
    const flag = (id) => s[L.state_header + ids.indexOf(id) * stride + 4 * bodies + 2];
    assert.equal(flag('explicit_euler'), 1, 'explicit Euler diverges on the stiff spring');
    assert.equal(flag('semi_implicit_euler'), 0);
    for (const v of s) assert.ok(Number.isFinite(v), 'no NaN or infinity in the state');
    const count = s[5], width = s[7];
    assert.equal(width, 1 + lanes * L.history_lane_width + 4);
    const h = sim.history(0).slice();
    assert.equal(h.length, count * width);
    assert.equal(h[0], 0);
    assert.ok(h[(count - 1) * width] <= s[0] && h[(count - 1) * width] > 9);
    sim.reset();
    s = sim.state().slice();
    assert.equal(s[0], 0);
    assert.equal(s[5], 1);
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
    M.integrators();
  }
  assert.equal(M.count_emval_handles(), before);
});

test('exportCsv and CsvExport print what stepwise run prints, with no leak', () => {
  const before = M.count_emval_handles();
  for (const [query, steps, k] of [
    ['preset=two_point_exercise', 20, 1],
    ['preset=constant_force', 10, 1],
    [`scenario=spring_pair&integrators=${every}&dt=0.01&duration=1000`, 30000, 7],
  ]) {
    const wasmText = M.exportCsv(query, steps, k).join('');
    const nativeText = execFileSync(cli, ['run', query, '--steps', String(steps), '--every', String(k)], {
      encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 << 20,
    });
    const a = wasmText.split('\n'), b = nativeText.split('\n');
    assert.equal(a.length, b.length, query);
    // Where the numbers are bit-identical (every fixed-step lane's state), so is the text.
    for (let i = 0; i < a.length; ++i) {
      if (a[i] === b[i]) continue;
      const x = a[i].split(','), y = b[i].split(',');
      for (let f = 0; f < 9; ++f) {
        if (x[f] === y[f]) continue;
        assert.ok(f === 8 || x[1] === 'rk45', `${query} line ${i + 1} column ${f}: ${x[f]} vs ${y[f]}`);
        assert.notEqual(+x[f], +y[f], 'different text means different numbers: same formatting');
      }
    }
    // The sliced exporter gives the same text, in any slice size.
    for (const slice of steps <= 100 ? [1, 7, 100000] : [777, 100000]) {
      const job = new M.CsvExport(query, steps, k);
      const parts = [];
      let done = false;
      let calls = 0;
      while (!done) {
        done = job.run(slice);
        parts.push(...job.take());
        if (++calls > 1e6) break;
      }
      assert.equal(job.done(), steps);
      job.delete();
      assert.equal(parts.join(''), wasmText, `${query}, slices of ${slice}`);
    }
  }
  // The row cap holds.
  const capped = M.exportCsv(`scenario=spring_pair&integrators=${every}&dt=0.01&duration=1000`, 20000, 1).join('');
  assert.equal(capped.trim().split('\n').length - 1, L.max_csv_rows);
  assert.equal(M.count_emval_handles(), before);
});
