// The ensemble comparison in node (scripts/bench-wasm.sh runs it): the wasm build of the Ensemble
// (every integrator) and of the limit loops, and a plain-JavaScript version of the same
// structure-of-arrays loops (Float64Array), timed in one process in interleaved rounds.
//
//   node ensemble_compare_wasm.mjs MODULE.js [--rounds=N] [--json=FILE]
//   node ensemble_compare_wasm.mjs --summary NATIVE1.json WASM1.json [NATIVE2.json WASM2.json ...]
//
// Time is the process's CPU time (process.cpuUsage) of a run of steps from the start state sized
// to about 20 ms; the table gives medians and minima over the rounds in ns per body-step, and
// ratios as medians of the rounds' paired ratios. --summary pairs each native run (the portable
// stepwise_compare --json) with the wasm run made right after it and gives, per integrator, the
// median over the pairs of native time / wasm time (wasm's speed as a fraction of native's).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
};
const fmt = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '');

// ---------------------------------------------------------------------------------------
// Plain JavaScript: the limit loops of ensemble_compare.hpp, operation for operation.
const js = {
  semi_implicit_euler(n, x, v, nk, b, h) {
    for (let i = 0; i < n; ++i) {
      const a = nk * x[i] - b * v[i];
      const vn = v[i] + h * a;
      v[i] = vn;
      x[i] = x[i] + h * vn;
    }
  },
  semi_implicit_euler_x(n, x, v, nk, b, h) {
    for (let i = 0; i < n; ++i) {
      const xn = x[i] + h * v[i];
      const a = nk * xn - b * v[i];
      x[i] = xn;
      v[i] = v[i] + h * a;
    }
  },
  acceleration(n, a, x, v, nk, b) {
    for (let i = 0; i < n; ++i) a[i] = nk * x[i] - b * v[i];
  },
  velocity_verlet(n, x, v, a, nk, b, h) {
    const c2 = 0.5 * h * h, hh = 0.5 * h;
    for (let i = 0; i < n; ++i) {
      const xn = x[i] + (h * v[i] + c2 * a[i]);
      const vp = v[i] + h * a[i];
      const an = nk * xn - b * vp;
      v[i] = v[i] + hh * (a[i] + an);
      x[i] = xn;
      a[i] = an;
    }
  },
  rk4(n, x, v, nk, b, h) {
    const hh = 0.5 * h, h6 = h / 6.0;
    for (let i = 0; i < n; ++i) {
      const x1 = x[i], v1 = v[i];
      const a1 = nk * x1 - b * v1;
      const x2 = x1 + hh * v1, v2 = v1 + hh * a1;
      const a2 = nk * x2 - b * v2;
      const x3 = x1 + hh * v2, v3 = v1 + hh * a2;
      const a3 = nk * x3 - b * v3;
      const x4 = x1 + h * v3, v4 = v1 + h * a3;
      const a4 = nk * x4 - b * v4;
      x[i] = x1 + h6 * (v1 + 2.0 * (v2 + v3) + v4);
      v[i] = v1 + h6 * (a1 + 2.0 * (a2 + a3) + a4);
    }
  },
};

class JsEngine {
  constructor(method, start, k, b) {
    this.method = method;
    this.start = start;
    this.nk = -k;
    this.b = b;
    const n = start[0].length;
    this.n = n;
    this.s = [0, 1, 2, 3].map(() => new Float64Array(n));  // x, y, vx, vy
    this.ax = new Float64Array(n);
    this.ay = new Float64Array(n);
  }
  reset() {
    for (let c = 0; c < 4; ++c) this.s[c].set(this.start[c]);
    this.started = false;
  }
  steps(count, h) {
    const { n, nk, b } = this;
    const [x, y, vx, vy] = this.s;
    const f = js[this.method];
    for (let s = 0; s < count; ++s) {
      if (this.method === 'velocity_verlet') {
        if (!this.started) {
          js.acceleration(n, this.ax, x, vx, nk, b);
          js.acceleration(n, this.ay, y, vy, nk, b);
        }
        f(n, x, vx, this.ax, nk, b, h);
        f(n, y, vy, this.ay, nk, b, h);
      } else {
        f(n, x, vx, nk, b, h);
        f(n, y, vy, nk, b, h);
      }
      this.started = true;
    }
  }
  state() {
    return this.s;
  }
}

// ---------------------------------------------------------------------------------------
// The wasm module.
async function load(modulePath) {
  const require = createRequire(import.meta.url);
  const factory = require(path.resolve(modulePath));
  const wasmBinary = readFileSync(path.resolve(modulePath).replace(/\.js$/, '.wasm'));
  return factory({ wasmBinary });
}

class WasmEngine {
  // kind: 'ensemble' (index: an integrator) or 'limit' (index: a limit method)
  constructor(M, kind, index) {
    Object.assign(this, { M, kind, index });
  }
  reset() {
    const M = this.M;
    // One object of each kind lives in the module: (re)create it, then it starts at the start.
    if (this.kind === 'ensemble') M._sw_ensemble_create(this.index);
    else M._sw_limit_create(this.index);
  }
  steps(count) {
    if (this.kind === 'ensemble') this.M._sw_ensemble_steps(count);
    else this.M._sw_limit_steps(count);
  }
  state() {
    const M = this.M, n = M._sw_copies();
    return [0, 1, 2, 3].map((c) => {
      const p = this.kind === 'ensemble' ? M._sw_ensemble_state(c) : M._sw_limit_state(c);
      return M.HEAPF64.slice(p / 8, p / 8 + n);
    });
  }
}

const cpuNs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3;
};

let sink = 0;
function timedRun(row, copies, h) {
  row.e.reset();
  const t0 = cpuNs();
  row.e.steps(row.steps, h);
  const t1 = cpuNs();
  for (const c of row.e.state()) sink += c[0];
  return (t1 - t0) / (row.steps * copies);
}

const maxDiff = (a, b) => {
  let d = 0;
  for (let c = 0; c < 4; ++c) for (let i = 0; i < a[c].length; ++i) d = Math.max(d, Math.abs(a[c][i] - b[c][i]));
  return d;
};

async function run(modulePath, rounds, jsonPath) {
  const M = await load(modulePath);
  const str = (p) => M.UTF8ToString(p);
  const copies = M._sw_copies(), h = M._sw_dt(), k = M._sw_stiffness(), b = M._sw_damping();
  const start = [0, 1, 2, 3].map((c) => M.HEAPF64.slice(M._sw_start(c) / 8, M._sw_start(c) / 8 + copies));
  const integrators = Array.from({ length: M._sw_integrator_count() }, (_, i) => str(M._sw_integrator_id(i)));
  const limits = Array.from({ length: M._sw_limit_method_count() }, (_, m) => str(M._sw_limit_method_id(m)));

  const rows = [];
  for (const [m, id] of limits.entries()) {
    rows.push({ method: id, engine: 'wasm ensemble', e: new WasmEngine(M, 'ensemble', integrators.indexOf(id)) });
    rows.push({ method: id, engine: 'wasm limit', e: new WasmEngine(M, 'limit', m) });
    rows.push({ method: id, engine: 'js', e: new JsEngine(id, start, k, b) });
  }
  for (const [i, id] of integrators.entries())
    if (!limits.includes(id)) rows.push({ method: id, engine: 'wasm ensemble', e: new WasmEngine(M, 'ensemble', i) });

  for (const r of rows) {
    // Warm up (V8 compiles wasm with its baseline compiler first and optimises hot functions
    // later; the JavaScript loops likewise): short runs for at least 150 ms of CPU time.
    r.steps = 5;
    const warm = cpuNs();
    for (let w = 0; w < 3 || cpuNs() - warm < 150e6; ++w) timedRun(r, copies, h);
    const ns = timedRun(r, copies, h);
    r.steps = Math.min(1000, Math.max(5, Math.round(20e6 / (Math.max(ns, 0.05) * copies))));
    r.ns = [];
  }
  for (let round = 0; round < rounds; ++round)
    for (let j = 0; j < rows.length; ++j) {
      const r = rows[(j + round * 7) % rows.length];
      r.ns.push(timedRun(r, copies, h));
    }

  const find = (method, engine) => rows.find((r) => r.method === method && r.engine === engine);
  const paired = (slow, fast) => median(slow.ns.map((t, i) => t / fast.ns[i]));
  console.log(`wasm (node ${process.version}): ${copies} copies, dt = ${h}; ${rounds} interleaved rounds, CPU time`);
  console.log('ns per body-step (median, min over rounds); "x js": how many times faster than the JavaScript loop\n');
  console.log(`${'method'.padEnd(22)} ${'engine'.padEnd(14)} ${'steps'.padStart(6)} ${'median'.padStart(8)} ${'min'.padStart(8)} ${'x js'.padStart(8)}`);
  for (const r of rows) {
    const j = find(r.method, 'js');
    const vs = j && j !== r ? fmt(paired(j, r), 2) : '';
    console.log(`${r.method.padEnd(22)} ${r.engine.padEnd(14)} ${String(r.steps).padStart(6)} ${fmt(median(r.ns)).padStart(8)} ${fmt(Math.min(...r.ns)).padStart(8)} ${vs.padStart(8)}`);
  }

  // The check: 1000 steps from the start state; the wasm limit and the JavaScript loop against
  // the wasm Ensemble (the same operations: every bit equal).
  let ok = true;
  console.log('\ncheck: largest |difference| of any coordinate from the wasm Ensemble after 1000 steps');
  for (const id of limits) {
    const ref = find(id, 'wasm ensemble');
    ref.e.reset();
    ref.e.steps(1000, h);
    const want = ref.e.state();
    for (const engine of ['wasm limit', 'js']) {
      const r = find(id, engine);
      r.e.reset();
      r.e.steps(1000, h);
      const d = maxDiff(want, r.e.state());
      ok = ok && d <= 1e-12;
      console.log(`  ${id.padEnd(22)} ${engine.padEnd(11)} ${d}${d <= 1e-12 ? '  ok' : '  FAIL'}`);
    }
  }
  console.log(`\n(sum of final states: ${sink})`);

  if (jsonPath) {
    const out = rows.map((r) => ({ method: r.method, engine: r.engine, median_ns: median(r.ns), min_ns: Math.min(...r.ns) }));
    const ratios = limits.map((id) => ({ method: id, ensemble_x_js: paired(find(id, 'js'), find(id, 'wasm ensemble')), limit_x_js: paired(find(id, 'js'), find(id, 'wasm limit')) }));
    writeFileSync(jsonPath, JSON.stringify({ build: 'wasm', node: process.version, rounds, rows: out, ratios }, null, 1));
  }
  if (!ok) process.exitCode = 1;
}

// ---------------------------------------------------------------------------------------
// The summary of several (native, wasm) pairs of runs made back to back.
function summary(files) {
  const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')));
  const pairs = [];
  for (let i = 0; i + 1 < runs.length; i += 2) pairs.push([runs[i], runs[i + 1]]);
  const ns = (run, method, engine) => run.rows.find((r) => r.method === method && r.engine === engine)?.median_ns;
  const [native0, wasm0] = pairs[0];
  const isas = [...new Set(native0.rows.filter((r) => r.engine.startsWith('ensemble/')).map((r) => r.engine))];
  console.log(`${pairs.length} (native portable, wasm) pairs of runs, each wasm run right after its native one.`);
  console.log('Per pair: native median / wasm median (ns per body-step); the median over the pairs (smallest-largest).');
  console.log(`"native": the portable build's Ensemble with the widest instruction set it chose (${native0.widest_isa});`);
  console.log(`${isas.map((s) => `"vs ${s}"`).join(', ')}: the same build's Ensemble held to that one ("default": the build's own, SSE2).`);
  console.log('"x js": the wasm Ensemble against the JavaScript loop, in the wasm run.\n');
  const head = ['integrator'.padEnd(22), 'wasm ns'.padStart(8), 'native ns'.padStart(10), 'wasm/native'.padStart(18)];
  for (const s of isas) head.push(`vs ${s}`.padStart(20));
  head.push('x js'.padStart(18));
  console.log(head.join(' '));
  const methods = wasm0.rows.filter((r) => r.engine === 'wasm ensemble').map((r) => r.method);
  const values = (f) => pairs.map(f).filter(Number.isFinite);
  const med = (f) => median(values(f));
  // A ratio's median over the pairs, with its smallest and largest.
  const spread = (f) => {
    const v = values(f);
    return v.length ? `${fmt(median(v), 2)} (${fmt(Math.min(...v), 2)}-${fmt(Math.max(...v), 2)})` : '';
  };
  for (const m of methods) {
    const line = [m.padEnd(22)];
    line.push(fmt(med(([, w]) => ns(w, m, 'wasm ensemble'))).padStart(8));
    line.push(fmt(med(([n]) => ns(n, m, 'ensemble'))).padStart(10));
    line.push(spread(([n, w]) => ns(n, m, 'ensemble') / ns(w, m, 'wasm ensemble')).padStart(18));
    for (const s of isas) line.push(spread(([n, w]) => ns(n, m, s) / ns(w, m, 'wasm ensemble')).padStart(20));
    line.push(spread(([, w]) => w.ratios.find((r) => r.method === m)?.ensemble_x_js).padStart(18));
    console.log(line.join(' '));
  }
  console.log('\nThe limit loop: wasm against the portable native build (native / wasm) and against JavaScript');
  for (const r of wasm0.ratios) {
    const m = r.method;
    console.log(`  ${m.padEnd(22)} native/wasm ${spread(([n, w]) => ns(n, m, 'limit') / ns(w, m, 'wasm limit'))}   x js ${spread(([, w]) => w.ratios.find((q) => q.method === m).limit_x_js)}`);
  }
}

const args = process.argv.slice(2);
if (args[0] === '--summary') {
  summary(args.slice(1));
} else {
  const modulePath = args.find((a) => !a.startsWith('--'));
  const rounds = Number((args.find((a) => a.startsWith('--rounds=')) ?? '--rounds=9').slice(9));
  const jsonPath = args.find((a) => a.startsWith('--json='))?.slice(7);
  if (!modulePath) {
    console.error('usage: node ensemble_compare_wasm.mjs MODULE.js [--rounds=N] [--json=FILE] | --summary FILES...');
    process.exit(2);
  }
  await run(modulePath, rounds, jsonPath);
}
