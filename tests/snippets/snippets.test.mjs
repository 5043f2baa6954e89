// The step snippets (snippets/, docs/snippets.md) against the core: every snippet of every
// language in snippets/manifest.json is run on the reference cases of cases.json, and every
// state it reaches (x, y, vx, vy at each step) must agree with `stepwise run` to
// max_relative_error. JavaScript runs in this process; C++ through the runner that CMake builds
// (tests/snippets/runner.cpp, SNIPPETS_CPP_RUNNER); C# compiled with mono's mcs (scripts/setup.sh
// installs it; where it is absent that test is skipped and says why). GDScript cannot run here (no
// Godot 4): its arithmetic is compared with the JavaScript snippet's (skeleton.mjs).
// The loop around the step (snippets/*/loop.*) is run the same way on cases.json's loop_cases,
// each integrator's step handed to it by the call scripts/snippet-usage.mjs writes (the Step code
// dialog shows that call), against `stepwise run` with loop=accumulator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { forces } from './forces.mjs';
import { skeleton } from './skeleton.mjs';
import { loopUsage, pascal, laneLoop } from '../../scripts/snippet-usage.mjs';
import { laneSettings as pageLaneSettings } from '../../web/common/lanes.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const snippetsDir = path.join(root, 'snippets');
const manifest = JSON.parse(fs.readFileSync(path.join(snippetsDir, 'manifest.json'), 'utf8'));
const {
  cases, loop_cases: loopCases, solver_cases: solverCases, solver_lanes: solverLanes, max_relative_error: tolerance,
} = JSON.parse(fs.readFileSync(path.join(here, 'cases.json'), 'utf8'));
const stepwise = process.env.STEPWISE_BIN || path.join(root, 'build/native/stepwise');
const cppRunner = process.env.SNIPPETS_CPP_RUNNER || path.join(root, 'build/native/tests/snippet_runner_cpp');

// The integrator table, from the core, and the rows of it that have step code: the manifest's (a
// method without it says so in the Step code dialog and is shown another's: web/panels/stepcode.js).
// The one-body methods' steps take a body and a force and run on cases / loop_cases; the
// game-physics solvers' steps take bodies and constraints and run on solver_cases (below).
const everyRow = JSON.parse(cli(['list', '--format', 'json'])).integrators;
const withCode = new Set(manifest.snippets.map((s) => s.integrator));
const table = everyRow.filter((i) => i.family !== 'solver' && withCode.has(i.id));
const solverRows = everyRow.filter((i) => i.family === 'solver' && withCode.has(i.id));

function cli(args) {
  const r = spawnSync(stepwise, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`stepwise ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

// A case's force as a config query and as the positional numbers of a job line.
const scenarioOf = {
  spring: (p) => ({ query: `k=${p.k}&m=${p.m}&b=${p.b}`, numbers: [p.k, p.m, p.b] }),
  two_spring: (p) => ({
    query: `m=${p.m}&k1=${p.k1}&k2=${p.k2}&anchor1=${p.anchor1}&anchor2=${p.anchor2}`,
    numbers: [p.m, p.k1, p.k2, ...p.anchor1, ...p.anchor2],
  }),
  elastic_pendulum: (p) => ({
    query: `k=${p.k}&m=${p.m}&b=${p.b}&rest=${p.rest}&g=${p.g}`, numbers: [p.k, p.m, p.b, p.rest, ...p.g],
  }),
  projectile: (p) => ({ query: `m=${p.m}&g=${p.g}&drag=${p.drag}`, numbers: [p.m, 0, -p.g, p.drag] }),
};

// Reference rows per case and integrator: [x, y, vx, vy] at steps 0..N, from `stepwise run`.
function reference(c) {
  const ids = c.integrators ?? table.map((i) => i.id);
  const { query } = scenarioOf[c.force](c.params);
  const q = `scenario=${c.force}&${query}&x0=${c.x0}&v0=${c.v0}&dt=${c.dt}&integrators=${ids}`;
  const r = spawnSync(stepwise, ['run', q, '--steps', String(c.steps), '--format', 'csv'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // A lane that diverged or gave up stops advancing: the snippets would not, so no case may.
  assert.doesNotMatch(r.stderr, /diverged|substep_limit|collision/, `${c.id}: ${r.stderr}`);
  const rows = new Map(ids.map((id) => [id, []]));
  for (const line of r.stdout.trim().split('\n').slice(1)) {
    const [, id, , x, y, vx, vy] = line.split(',');
    rows.get(id).push([x, y, vx, vy].map(Number));
  }
  for (const [id, list] of rows) assert.equal(list.length, c.steps + 1, `${c.id} ${id}`);
  return rows;
}
const references = new Map(cases.map((c) => [c.id, reference(c)]));

// The jobs every runner gets, one line each:
//   case integrator version force dt steps x y vx vy params...
// version is `spring` (the spring-only step, force = spring) or `generic` (the callback step).
const jobs = [];
for (const c of cases) {
  const { numbers } = scenarioOf[c.force](c.params);
  for (const id of references.get(c.id).keys()) {
    for (const version of c.force === 'spring' ? ['spring', 'generic'] : ['generic']) {
      jobs.push({ c, id, version, line: [c.id, id, version, c.force, c.dt, c.steps, ...c.x0, ...c.v0, ...numbers].join(' ') });
    }
  }
}
const jobText = jobs.map((j) => j.line).join('\n') + '\n';

// Parses a runner's output lines `case integrator version step x y vx vy`; numbers are decimal or
// exact binary (`MANTISSApEXPONENT`, from runtimes that cannot print 17 digits).
function parseRows(text) {
  const out = new Map();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length !== 8 || !references.has(f[0])) continue;
    const key = `${f[0]} ${f[1]} ${f[2]}`;
    if (!out.has(key)) out.set(key, []);
    out.get(key)[Number(f[3])] = f.slice(4).map(parseNumber);
  }
  return out;
}
function parseNumber(s) {
  const p = s.indexOf('p');
  return p < 0 ? Number(s) : Number(s.slice(0, p)) * 2 ** Number(s.slice(p + 1));
}

// Checks a runner's rows against the references: every job present, every number within the
// tolerance of the core's. The error is relative, |a − b| / max(|b|, S/1000), S being the largest
// magnitude of that kind of number (position or velocity) in the reference run: plain relative
// error, except for values passing within a thousandth of the motion's size of zero, where
// cancellation leaves only absolute accuracy (a velocity of 3e-17 m/s at a turning point).
// Returns the largest error seen.
function compare(language, rows) {
  let worst = 0;
  const failures = [];
  for (const { c, id, version } of jobs) {
    const got = rows.get(`${c.id} ${id} ${version}`);
    const want = references.get(c.id).get(id);
    if (!got || got.length !== want.length || got.some((r) => !r)) {
      failures.push(`${c.id} ${id} ${version}: ${got ? got.filter(Boolean).length : 0} of ${want.length} rows`);
      continue;
    }
    const scale = [0, 1].map((k) => Math.max(...want.map((r) => Math.max(Math.abs(r[2 * k]), Math.abs(r[2 * k + 1])))));
    for (let s = 0; s < want.length; s++) {
      for (let q = 0; q < 4; q++) {
        const a = got[s][q], b = want[s][q];
        const e = a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(b), scale[q >> 1] / 1000);
        if (!(e <= tolerance)) {
          failures.push(`${c.id} ${id} ${version} step ${s} ${'x y vx vy'.split(' ')[q]}: ${a} vs core ${b} (error ${e})`);
          s = want.length;
          break;
        }
        worst = Math.max(worst, e);
      }
    }
  }
  console.log(`${language}: ${jobs.length} runs, largest relative difference from the core ${worst.toExponential(2)}`);
  assert.deepEqual(failures.slice(0, 20), [], `${language}: ${failures.length} runs differ`);
  return worst;
}

test('the manifest\'s rows are methods of the core, in its order, each once, and every file it names exists', () => {
  // Each a method of the core, once, in the core's order (the dialog's list is the table's).
  const rows = manifest.snippets.map((s) => s.integrator);
  assert.deepEqual(rows, everyRow.map((i) => i.id).filter((id) => withCode.has(id)), 'the manifest\'s rows are the core\'s methods, in its order');
  assert.equal(withCode.size, rows.length, 'each once');
  const without = everyRow.filter((i) => !withCode.has(i.id)).map((i) => i.id);
  console.log(`step code for ${rows.length} of the core's ${everyRow.length} methods${without.length ? `; none for ${without.join(', ')}` : ''}`);
  // The solver cases run every solver with step code, and the case file's lanes are those solvers.
  assert.deepEqual([...new Set(solverLanes.map((lane) => laneSettings(lane).method))], solverRows.map((i) => i.id));
  const languages = manifest.languages.map((l) => l.id);
  const listed = new Set();
  // The loop around the step: one file per language.
  assert.deepEqual(Object.keys(manifest.loop.files).sort(), [...languages].sort(), 'loop');
  for (const file of Object.values(manifest.loop.files)) {
    assert.ok(fs.existsSync(path.join(snippetsDir, file)), file);
    listed.add(file);
  }
  for (const row of manifest.snippets) {
    assert.deepEqual(Object.keys(row.files).sort(), [...languages].sort(), row.integrator);
    for (const file of Object.values(row.files)) {
      assert.ok(fs.existsSync(path.join(snippetsDir, file)), file);
      listed.add(file);
    }
  }
  // Nothing in the snippet folders that the manifest does not list.
  for (const lang of languages) {
    for (const f of fs.readdirSync(path.join(snippetsDir, lang))) assert.ok(listed.has(`${lang}/${f}`), `${lang}/${f} is not in the manifest`);
  }
});

// Every snippet opens with a comment that a game programmer reads first: the method's name as the
// core's table gives it, its order, and its cost in force evaluations per step (the table's note).
test('every snippet names its method, its order and its force evaluations per step', () => {
  const byId = new Map(everyRow.map((i) => [i.id, i]));
  for (const row of manifest.snippets) {
    const entry = byId.get(row.integrator);
    for (const [lang, file] of Object.entries(row.files)) {
      const marker = lang === 'gd' ? '#' : '//';
      const lines = fs.readFileSync(path.join(snippetsDir, file), 'utf8').split('\n');
      const head = lines.slice(0, lines.findIndex((l) => !l.startsWith(marker))).map((l) => l.slice(marker.length).trim());
      assert.ok(head.length > 0 && head[0].startsWith(`${entry.name}`), `${file}: first line should start with "${entry.name}": ${head[0]}`);
      assert.match(head.join(' '), /\border\b/i, `${file}: the header states no order`);
      assert.ok(head.includes(`Force evaluations per step: ${entry.evaluations_note}.`), `${file}: no "Force evaluations per step: ${entry.evaluations_note}."`);
    }
  }
});

// GDScript: same numbers and operators in the same order as the JavaScript twin that runs.
test('GDScript snippets (not run: no Godot 4) do the JavaScript snippets\' arithmetic in the same order', () => {
  for (const row of manifest.snippets) {
    const js = skeleton(fs.readFileSync(path.join(snippetsDir, row.files.js), 'utf8'), 'js');
    const gd = skeleton(fs.readFileSync(path.join(snippetsDir, row.files.gd), 'utf8'), 'gd');
    assert.ok(js.length > 20, `${row.integrator}: the JavaScript skeleton is too short (${js.length}): the normalisation lost it`);
    let k = 0;
    while (k < js.length && js[k] === gd[k]) k++;
    assert.ok(k === js.length && k === gd.length,
      `${row.files.gd} differs from ${row.files.js} at arithmetic token ${k}: gd "${gd.slice(k, k + 10).join(' ')}" vs js "${js.slice(k, k + 10).join(' ')}"`);
  }
});

test('JavaScript snippets, run under node, reproduce the core', async () => {
  const modules = new Map();
  for (const row of manifest.snippets) {
    modules.set(row.integrator, await import(pathToFileURL(path.join(snippetsDir, row.files.js))));
  }
  const rows = new Map();
  for (const { c, id, version, line } of jobs) {
    const f = line.split(' ');
    const [dt, steps, x, y, vx, vy, ...numbers] = f.slice(4).map(Number);
    const mod = modules.get(id);
    const body = { x, y, vx, vy };
    const carry = mod.newCarry ? mod.newCarry() : null;  // the methods that carry state between steps
    const force = forces[c.force](numbers);
    const spring = { k: numbers[0], m: numbers[1], b: numbers[2] };
    const one = version === 'spring'
      ? (carry ? () => mod.stepSpring(body, carry, spring, dt) : () => mod.stepSpring(body, spring, dt))
      : id === 'implicit_euler' ? () => mod.step(body, dt, force.accel, force.jacobian)
      : id === 'yoshida4' ? () => mod.step(body, dt, force.accel, force.dissipate)
      : id.startsWith('kinematic') ? ((list) => () => mod.step(body, dt, list))(force.kinematic(mod))
      : carry ? () => mod.step(body, carry, dt, force.accel)
      : () => mod.step(body, dt, force.accel);
    const out = [[body.x, body.y, body.vx, body.vy]];
    for (let s = 0; s < steps; s++) {
      one();
      out.push([body.x, body.y, body.vx, body.vy]);
    }
    rows.set(`${c.id} ${id} ${version}`, out);
  }
  compare('JavaScript', rows);
});

test('C++ snippets, compiled into the runner, reproduce the core', () => {
  assert.ok(fs.existsSync(cppRunner), `no C++ runner at ${cppRunner}: build the snippet_runner_cpp target`);
  const r = spawnSync(cppRunner, [], { input: jobText, encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  compare('C++', parseRows(r.stdout));
});

// The path of a program on PATH, or null.
function which(name) {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}
const mcs = which('mcs'), mono = which('mono');

const csSkip = mcs && mono ? false
  : `C# not checked: ${mcs ? 'mono' : 'mcs'} is not installed (scripts/setup.sh installs Debian's mono-mcs and mono-runtime)`;

// Compiles every C# snippet with Runner.cs (mcs, warnings as errors) and runs it under mono on the
// job lines `input`: its output.
function runCsRunner(input) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snippets-cs-'));
  try {
    const sources = manifest.snippets.map((s) => path.join(snippetsDir, s.files.cs));
    const exe = path.join(dir, 'runner.exe');
    const built = spawnSync(mcs, ['-warnaserror+', `-out:${exe}`, ...sources, path.join(here, 'Runner.cs')], { encoding: 'utf8' });
    assert.equal(built.status, 0, built.stdout + built.stderr);
    const r = spawnSync(mono, [exe], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('C# snippets, compiled with mono-mcs, reproduce the core', { skip: csSkip }, () => {
  compare('C#', parseRows(runCsRunner(jobText)));
});

// The step code allocates nothing per step (issue 31 §2), in C# counted: a program calls every
// one-body snippet's StepSpring and Step directly, as a game does (the body, spring, carry and
// the caller's delegates made once before), warms them up, then counts the bytes the thread
// allocates over 100 steps of each (GC.GetAllocatedBytesForCurrentThread): none. The spring steps
// of leapfrog, Störmer–Verlet, velocity Verlet and rk45 made a closure and a delegate a call
// (a lambda capturing the spring), 168 bytes a step under mono (16800 in the 100 steps).
test('C# one-body steps allocate nothing: no byte allocated in 100 steps of any StepSpring or Step', { skip: csSkip }, () => {
  const src = csProgramHead('AllocationRunner', 'every one-body step, called directly');
  const argumentOf = {
    'ref Body b': 'ref b', 'Carry c': 'c', 'Spring s': 's', 'double h': '0.01', 'Acceleration accel': 'accel',
    'Jacobian jacobian': 'jacobian', 'Dissipation dissipate = null': 'dissipate', 'Force[] forces': 'forces',
  };
  const calls = [];
  for (const { id } of table) {
    const P = pascal(id);
    const text = fs.readFileSync(path.join(snippetsDir, manifest.snippets.find((s) => s.integrator === id).files.cs), 'utf8');
    for (const name of ['StepSpring', 'Step']) {
      const params = text.match(new RegExp(`public static \\w+ ${name}\\(([^)]*)\\)`))[1].split(', ');
      const args = params.map((p) => {
        assert.ok(p in argumentOf, `${id}.cs ${name}: a parameter this test does not know: ${p}`);
        return argumentOf[p];
      }).join(', ');
      const fn = `Count_${id}_${name}`;
      calls.push(`        ${fn}();`);
      src.push(`    static void ${fn}()`, '    {',
        `        var b = new ${P}.Body { X = 1, Y = 0.5, Vx = 0, Vy = 1 };`,
        ...(params.includes('Spring s') || params.includes('Force[] forces') ? [`        var s = new ${P}.Spring { K = 15, M = 1, B = 0.1 };`] : []),
        ...(params.includes('Carry c') ? [`        var c = new ${P}.Carry();`] : []),
        ...(params.includes('Acceleration accel') ? [`        ${P}.Acceleration accel = (x, y, vx, vy) => (-15 * x - 0.1 * vx, -15 * y - 0.1 * vy);`] : []),
        ...(params.includes('Jacobian jacobian') ? [`        ${P}.Jacobian jacobian = (x, y, vx, vy) => new ${P}.Derivatives { AxX = -15, AyY = -15, AxVx = -0.1, AyVy = -0.1 };`] : []),
        ...(params.includes('Dissipation dissipate = null') ? [`        ${P}.Dissipation dissipate = (vx, vy, t, reverse) => (vx * Math.Exp(-0.1 * t), vy * Math.Exp(-0.1 * t));`] : []),
        ...(params.includes('Force[] forces') ? [`        ${P}.Force[] forces = { ${P}.SpringForce(s) };`] : []),
        `        for (int i = 0; i < 10; i++) ${P}.${name}(${args});`,
        '        long before = GC.GetAllocatedBytesForCurrentThread();',
        `        for (int i = 0; i < 100; i++) ${P}.${name}(${args});`,
        '        long bytes = GC.GetAllocatedBytesForCurrentThread() - before;',
        `        Out.Append("${id} ${name} ").Append(bytes).Append(' ').Append(N(b.X)).Append('\\n');`,
        '    }');
    }
  }
  src.push('    public static int Main()', '    {', ...calls, '        Console.Out.Write(Out.ToString());', '        return 0;', '    }', '}', '');
  const lines = runCsProgram('AllocationRunner', src.join('\n')).trim().split('\n').map((l) => l.split(' '));
  assert.equal(lines.length, 2 * table.length, 'a count for every step');
  // The steps did step: the body moved off its start and stayed finite.
  for (const [id, name, , x] of lines) assert.ok(Number.isFinite(Number(x)) && Number(x) !== 1, `${id} ${name}: x = ${x}`);
  assert.deepEqual(lines.filter(([, , bytes]) => bytes !== '0').map(([id, name, bytes]) => `${id} ${name}: ${bytes} bytes`), [],
    'C# steps that allocated');
});

// Compiles a generated C++ program with the step runner's flags (tests/CMakeLists.txt), the
// snippets and forces.hpp on the include path (CXX, default g++), and runs it: its output.
function runCppProgram(name, source) {
  const cxx = process.env.CXX || 'g++';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `snippets-${name}-`));
  try {
    const file = path.join(dir, `${name}.cpp`);
    fs.writeFileSync(file, source);
    const exe = path.join(dir, name);
    const built = spawnSync(cxx, ['-std=c++17', '-O1', '-ffp-contract=off', '-fno-fast-math', '-Wall', '-Wextra', '-Wpedantic',
      '-Wshadow', '-Werror', `-I${path.join(snippetsDir, 'cpp')}`, `-I${here}`, file, '-o', exe], { encoding: 'utf8' });
    assert.equal(built.status, 0, `${cxx}: ${built.error ?? ''}${built.stderr}`);
    const r = spawnSync(exe, [], { encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// A double in generated C#, by its bits; and a generated program's first lines: its class `name`
// with an output buffer, Bits and N (17 digits).
const csNumber = (x) => `Bits(unchecked((long)${bitsOf(x)}UL))`;
const csProgramHead = (name, what) => [`// Generated by tests/snippets/snippets.test.mjs: ${what}, called as the dialog shows.`,
  'using System;', 'using System.Globalization;', 'using System.Text;', '', `public static class ${name}`, '{',
  '    static readonly StringBuilder Out = new StringBuilder();',
  '    static double Bits(long u) => BitConverter.Int64BitsToDouble(u);',
  '    static string N(double x) => x.ToString("G17", CultureInfo.InvariantCulture);'];

// Compiles a generated C# program (its class `name` holds Main) with mcs beside every snippet, the
// loop and Runner.cs (its forces), and runs it under mono: its output.
function runCsProgram(name, source) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `snippets-${name}-`));
  try {
    const file = path.join(dir, `${name}.cs`);
    fs.writeFileSync(file, source);
    const sources = [...manifest.snippets.map((s) => s.files.cs), manifest.loop.files.cs].map((f) => path.join(snippetsDir, f));
    const exe = path.join(dir, `${name}.exe`);
    const built = spawnSync(mcs, ['-warnaserror+', `-main:${name}`, `-out:${exe}`, ...sources, path.join(here, 'Runner.cs'), file], { encoding: 'utf8' });
    assert.equal(built.status, 0, built.stdout + built.stderr);
    const r = spawnSync(mono, [exe], { encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// ---- The loop around the step (snippets/*/loop.*, docs/snippets.md "The loop around the step") ----

// The core's frame lengths (core/frame_loop.cpp): (1/hz)·(1 + jitter·u), u uniform in [−1, 1) from
// splitmix64 of the seed (the top 53 bits as k·2^-53, doubled, minus 1); exactly 1/hz without jitter.
function frameTimes({ hz, jitter, seed }, n) {
  const mask = (1n << 64n) - 1n;
  let state = BigInt(seed);
  const period = 1 / hz;
  const out = [];
  for (let i = 0; i < n; i++) {
    let u = 0;
    if (jitter > 0) {
      state = (state + 0x9e3779b97f4a7c15n) & mask;
      let z = state;
      z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
      z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
      z ^= z >> 31n;
      u = 2 * (Number(z >> 11n) * 2 ** -53) - 1;
    }
    out.push(period * (1 + jitter * u));
  }
  return out;
}

// A double's bits as an unsigned 64-bit hex literal: the C++ and C# runners read every number
// exactly, never through a decimal parser.
function bitsOf(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return `0x${view.getBigUint64(0).toString(16).padStart(16, '0')}`;
}

const loopSettings = (c) => ({ hz: c.loop.hz, substeps: c.loop.substeps, maxSteps: c.loop.max_steps });
const jsCode = new Map(manifest.snippets.map((s) => [s.integrator, fs.readFileSync(path.join(snippetsDir, s.files.js), 'utf8')]));
const usageOf = (c, id, lang) => loopUsage(id, jsCode.get(id), loopSettings(c))[lang][c.variant];

// The core's render state at every frame (frame 0: the start) for every integrator, and the loop's
// counts: physics steps, steps the cap dropped, frames that hit the cap.
function loopReference(c) {
  const ids = table.map((i) => i.id);
  const { query } = scenarioOf[c.force](c.params);
  const L = c.loop;
  const q = `scenario=${c.force}&${query}&x0=${c.x0}&v0=${c.v0}&integrators=${ids}&loop=accumulator&hz=${L.hz}` +
    `&substeps=${L.substeps}&max_steps=${L.max_steps}${L.jitter > 0 ? `&jitter=${L.jitter}&seed=${L.seed}` : ''}`;
  const r = JSON.parse(cli(['run', q, '--steps', String(c.frames), '--format', 'json']));
  for (const i of r.integrators) assert.equal(i.stopped, null, `${c.id} ${i.id} stopped (${i.stopped}): the snippets would not`);
  const rows = new Map(ids.map((id) => [id, []]));
  for (const row of r.rows) rows.get(row.integrator).push([row.x, row.y, row.vx, row.vy, row.t]);
  for (const [id, list] of rows) assert.equal(list.length, c.frames + 1, `${c.id} ${id}`);
  const counts = { steps: r.physics_steps, dropped: Math.round(r.dropped_time / r.dt), capped: r.capped_frames };
  return { rows, counts, frames: frameTimes(L, c.frames) };
}
const loopReferences = new Map(loopCases.map((c) => [c.id, loopReference(c)]));
const loopJobs = loopCases.flatMap((c) => table.map((i) => ({ c, id: i.id })));

// The cases do what they are there for: long frames hit the cap (the dropped steps are counted), and
// frames of exactly 1/hz take exactly `substeps` steps each.
test('the loop cases: long frames hit the cap; exact frames take substeps steps each', () => {
  const long = loopCases.filter((c) => c.loop.jitter > 0);
  assert.ok(long.length >= 2);
  for (const c of long) {
    const { counts } = loopReferences.get(c.id);
    assert.ok(counts.capped > 0 && counts.dropped > 0, `${c.id}: the cap never hit (${JSON.stringify(counts)})`);
  }
  const exact = loopCases.find((c) => c.loop.jitter === 0);
  assert.equal(loopReferences.get(exact.id).counts.steps, exact.frames * exact.loop.substeps);
  assert.notEqual((1 / exact.loop.hz) / (1 / (exact.loop.hz * exact.loop.substeps)), exact.loop.substeps,
    `${exact.id}: a frame over h should not come out whole in floating point, or the case tests nothing`);
});

// Checks a language's loop results against the core: every frame's render state (x, y, vx, vy) and
// its time, to the tolerance, and the counts exactly. The error is relative as compare() measures
// it, but near zero the floor is S/100, not S/1000: a loop case takes up to 840 steps (the step
// cases 200), and a few units in the last place a step add up to 2e-15·S where x passes zero
// (implicit Euler's spring step solves the linear equation directly, the core by Newton).
function compareLoop(language, results) {
  let worst = 0;
  const failures = [];
  for (const { c, id } of loopJobs) {
    const ref = loopReferences.get(c.id);
    const want = ref.rows.get(id);
    const got = results.get(`${c.id} ${id}`);
    if (!got || got.rows.length !== want.length || got.rows.some((r) => !r)) {
      failures.push(`${c.id} ${id}: ${got ? got.rows.filter(Boolean).length : 0} of ${want.length} frames`);
      continue;
    }
    if (JSON.stringify(got.counts) !== JSON.stringify(ref.counts)) {
      failures.push(`${c.id} ${id}: counts ${JSON.stringify(got.counts)} vs core ${JSON.stringify(ref.counts)}`);
    }
    const groups = [[0, 1], [2, 3], [4]];
    const scale = groups.map((g) => Math.max(...want.flatMap((r) => g.map((q) => Math.abs(r[q])))));
    const group = [0, 0, 1, 1, 2];
    for (let f = 0; f < want.length; f++) {
      for (let q = 0; q < 5; q++) {
        const a = got.rows[f][q], b = want[f][q];
        const e = a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(b), scale[group[q]] / 100);
        if (!(e <= tolerance)) {
          failures.push(`${c.id} ${id} frame ${f} ${'x y vx vy t'.split(' ')[q]}: ${a} vs core ${b} (error ${e})`);
          f = want.length;
          break;
        }
        worst = Math.max(worst, e);
      }
    }
  }
  console.log(`${language}: the loop, ${loopJobs.length} runs, largest relative difference from the core ${worst.toExponential(2)}`);
  assert.deepEqual(failures.slice(0, 20), [], `${language}: ${failures.length} loop runs differ`);
}

// Parses a runner's loop output: `case integrator x y vx vy t` a frame, `case integrator counts S D C`.
function parseLoopRows(text) {
  const out = new Map();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (!loopReferences.has(f[0])) continue;
    const key = `${f[0]} ${f[1]}`;
    if (!out.has(key)) {
      const c = loopCases.find((k) => k.id === f[0]);
      out.set(key, { rows: [[...c.x0, ...c.v0, 0]], counts: null });
    }
    if (f[2] === 'counts') {
      const [steps, dropped, capped] = f.slice(3).map(Number);
      out.get(key).counts = { steps, dropped, capped };
    } else if (f.length === 7) {
      out.get(key).rows.push(f.slice(2).map(parseNumber));
    }
  }
  return out;
}

test('GDScript loop (not run: no Godot 4) does the JavaScript loop\'s arithmetic in the same order', () => {
  const js = skeleton(fs.readFileSync(path.join(snippetsDir, manifest.loop.files.js), 'utf8'), 'js');
  const gd = skeleton(fs.readFileSync(path.join(snippetsDir, manifest.loop.files.gd), 'utf8'), 'gd');
  assert.ok(js.length > 20, `the JavaScript loop's skeleton is too short (${js.length})`);
  assert.deepEqual(gd, js);
});

test('JavaScript loop, around every integrator\'s step as the dialog calls it, reproduces the core\'s loop', async () => {
  const { FixedStepLoop } = await import(pathToFileURL(path.join(snippetsDir, manifest.loop.files.js)));
  const results = new Map();
  for (const { c, id } of loopJobs) {
    const mod = await import(pathToFileURL(path.join(snippetsDir, manifest.snippets.find((s) => s.integrator === id).files.js)));
    const usage = usageOf(c, id, 'js');
    // The imports name what the module exports.
    for (const line of usage.imports) {
      const [, names, from] = line.match(/^import \{ (.*) \} from '\.\/(.*)'/);
      const exports = from === 'loop.js' ? { FixedStepLoop } : mod;
      for (const name of names.split(', ')) assert.equal(typeof exports[name], 'function', `${id}: ${line}`);
    }
    const numbers = scenarioOf[c.force](c.params).numbers;
    const force = forces[c.force](numbers);
    const names = {
      FixedStepLoop, stepSpring: mod.stepSpring, step: mod.step, newCarry: mod.newCarry,
      start: { x: c.x0[0], y: c.x0[1], vx: c.v0[0], vy: c.v0[1] },
      spring: { k: numbers[0], m: numbers[1], b: numbers[2] },
      accel: force.accel, jacobian: force.jacobian, dissipate: force.dissipate,
      forces: mod.gravity ? force.kinematic(mod) : null, frames: loopReferences.get(c.id).frames,
    };
    const body = [...usage.setup, 'const rows = [];', 'for (const frameSeconds of frames) {', ...usage.frame,
      'rows.push([shown.x, shown.y, shown.vx, shown.vy, loop.shownTime()]);', '}', 'return { rows, loop };'].join('\n');
    const { rows, loop } = new Function(...Object.keys(names), body)(...Object.values(names));
    results.set(`${c.id} ${id}`, {
      rows: [[...c.x0, ...c.v0, 0], ...rows], counts: { steps: loop.steps, dropped: loop.dropped, capped: loop.cappedFrames },
    });
  }
  compareLoop('JavaScript', results);
});

// C++: one program, every case and integrator a function made of the dialog's call as it is,
// compiled with the flags the step runner gets (tests/CMakeLists.txt).
test('C++ loop, compiled around every integrator\'s step as the dialog calls it, reproduces the core\'s loop', () => {
  const indent = (lines, n) => lines.map((l) => ' '.repeat(n) + l);
  const src = ['// Generated by tests/snippets/snippets.test.mjs: the loop around every step, called as the dialog shows.'];
  for (const s of manifest.snippets) src.push(`#include "${path.basename(s.files.cpp)}"`);
  src.push(`#include "${path.basename(manifest.loop.files.cpp)}"`, '#include "forces.hpp"', '#include <cstdint>',
    '#include <cstdio>', '#include <cstring>', '', 'using namespace snippet_forces;', '',
    'static double from_bits(std::uint64_t u) {', '    double d;', '    std::memcpy(&d, &u, sizeof d);', '    return d;', '}');
  for (const c of loopCases) {
    src.push(`static const std::uint64_t frames_${c.id}[] = {${loopReferences.get(c.id).frames.map((x) => `${bitsOf(x)}u`).join(', ')}};`);
  }
  const calls = [];
  for (const { c, id } of loopJobs) {
    const usage = usageOf(c, id, 'cpp');
    const uses = (name) => new RegExp(`\\b${name}\\b`).test(usage.frame.join('\n'));
    const numbers = scenarioOf[c.force](c.params).numbers;
    const fn = `loop_${c.id}_${id}`;
    calls.push(`    ${fn}();`);
    src.push(`static void ${fn}() {`,
      `    const std::vector<double> p = {${numbers.map((x) => `from_bits(${bitsOf(x)}u)`).join(', ')}};`,
      `    [[maybe_unused]] const Force f = make_force("${c.force}", p);`,
      `    const ${id}::Body start{${[...c.x0, ...c.v0].map((x) => `from_bits(${bitsOf(x)}u)`).join(', ')}};`,
      ...(uses('spring') ? [`    const ${id}::Spring spring{p[0], p[1], p[2]};`] : []),
      ...(uses('accel') ? ['    const Accel& accel = f.accel;'] : []),
      ...(uses('jacobian') ? ['    const Jacobian& jacobian = f.jacobian;'] : []),
      ...(uses('dissipate') ? ['    const Dissipate& dissipate = f.dissipate;'] : []),
      ...(uses('gravity') ? [`    const auto gravity = ${id}::gravity(f.gx, f.gy);`, `    const auto drag = ${id}::approximate(f.approximated);`] : []),
      ...indent(usage.setup, 4),
      `    for (const std::uint64_t frame_bits : frames_${c.id}) {`,
      '        const double frame_seconds = from_bits(frame_bits);',
      ...indent(usage.frame, 8),
      `        std::printf("${c.id} ${id} %.17g %.17g %.17g %.17g %.17g\\n", shown.x, shown.y, shown.vx, shown.vy, loop.shown_time());`,
      '    }',
      `    std::printf("${c.id} ${id} counts %lld %lld %lld\\n", loop.steps, loop.dropped, loop.capped_frames);`,
      '}');
  }
  src.push('', 'int main() {', ...calls, '    return 0;', '}', '');
  compareLoop('C++', parseLoopRows(runCppProgram('loop_runner', src.join('\n'))));
});

// C#: the same, compiled with mcs beside the snippets and Runner.cs (its forces), run under mono.
test('C# loop, compiled around every integrator\'s step as the dialog calls it, reproduces the core\'s loop', { skip: csSkip }, () => {
  const indent = (lines, n) => lines.map((l) => ' '.repeat(n) + l);
  const num = csNumber;
  const src = csProgramHead('LoopRunner', 'the loop around every step');
  for (const c of loopCases) {
    src.push(`    static readonly double[] Frames_${c.id} = { ${loopReferences.get(c.id).frames.map(num).join(', ')} };`);
  }
  const calls = [];
  for (const { c, id } of loopJobs) {
    const usage = usageOf(c, id, 'cs');
    const uses = (name) => new RegExp(`\\b${name}\\b`).test(usage.frame.join('\n'));
    const P = pascal(id);
    const numbers = scenarioOf[c.force](c.params).numbers;
    const fn = `Loop_${c.id}_${id}`;
    calls.push(`        ${fn}();`);
    src.push(`    static void ${fn}()`, '    {',
      `        double[] p = { ${numbers.map(num).join(', ')} };`,
      ...(['accel', 'jacobian', 'dissipate', 'forces'].some(uses) ? [`        var f = SnippetRunner.MakeForce("${c.force}", p);`] : []),
      `        var start = new ${P}.Body { X = ${num(c.x0[0])}, Y = ${num(c.x0[1])}, Vx = ${num(c.v0[0])}, Vy = ${num(c.v0[1])} };`,
      ...(uses('spring') ? [`        var spring = new ${P}.Spring { K = p[0], M = p[1], B = p[2] };`] : []),
      ...(uses('accel') ? [`        ${P}.Acceleration accel = (ax, ay, avx, avy) => f.Accel(ax, ay, avx, avy);`] : []),
      ...(uses('jacobian') ? [`        ${P}.Jacobian jacobian = (jx, jy, jvx, jvy) =>`, '        {',
        '            double[] d = f.Jacobian(jx, jy, jvx, jvy);',
        `            return new ${P}.Derivatives { AxX = d[0], AxY = d[1], AyX = d[2], AyY = d[3], AxVx = d[4], AxVy = d[5], AyVx = d[6], AyVy = d[7] };`,
        '        };'] : []),
      ...(uses('dissipate') ? [`        ${P}.Dissipation dissipate = f.Dissipate == null ? null : new ${P}.Dissipation((dvx, dvy, dt, back) => f.Dissipate(dvx, dvy, dt, back));`] : []),
      ...(uses('forces') ? [`        var forces = new[] { ${P}.Gravity(f.Gx, f.Gy), ${P}.Approximate((gx, gy, gvx, gvy) => f.Approximated(gx, gy, gvx, gvy)) };`] : []),
      ...indent(usage.setup, 8),
      `        foreach (double frameSeconds in Frames_${c.id})`, '        {',
      ...indent(usage.frame, 12),
      `            Out.Append("${c.id} ${id} ").Append(N(x)).Append(' ').Append(N(y)).Append(' ').Append(N(loop.Shown(s => s.Vx)))` +
        '.Append(\' \').Append(N(loop.Shown(s => s.Vy))).Append(\' \').Append(N(loop.ShownTime())).Append(\'\\n\');',
      '        }',
      `        Out.Append("${c.id} ${id} counts ").Append(loop.Steps).Append(' ').Append(loop.Dropped).Append(' ').Append(loop.CappedFrames).Append('\\n');`,
      '    }');
  }
  src.push('    public static int Main()', '    {', ...calls, '        Console.Out.Write(Out.ToString());', '        return 0;', '    }', '}', '');
  compareLoop('C#', parseLoopRows(runCsProgram('LoopRunner', src.join('\n'))));
});

// ---- The game-physics solvers (pbd, xpbd, soft_step, sequential_impulses, vbd; docs/snippets.md) ----
// Their step takes bodies and distance constraints: cases.json's solver_cases are linked presets run by
// `stepwise run` with every solver lane, and by every language's snippets on the bodies and
// constraints the core builds from the run's config, each lane's S substeps a step as S calls of
// h = dt/S with its I iterations.

// A lane id as the core writes it: METHOD, METHOD@S or METHOD@SxI (the default iterations left out).
function laneSettings(lane) {
  const [, method, substeps, iterations] = lane.match(/^(\w+)(?:@(\d+)(?:x(\d+))?)?$/);
  const row = everyRow.find((i) => i.id === method);
  return { method, substeps: Number(substeps ?? 1), iterations: Number(iterations ?? row.default_iterations) };
}

// The config the core echoes, as numbers and vectors.
function configParams(config) {
  return Object.fromEntries(config.split('&').map((kv) => kv.split('='))
    .map(([k, v]) => [k, /^-?[\d.e+-]+(,-?[\d.e+-]+)*$/.test(v) ? (v.includes(',') ? v.split(',').map(Number) : Number(v)) : v]));
}

// The bodies' masses and the constraints the solvers see (core/scenarios.cpp builds the system,
// core/forces/*'s add_solver_rows its rows: a link one distance row with its compliance and
// damping; a spring with a rest length one row of compliance 1/k), and the external acceleration's
// parts (core/system.cpp, solver_external_accelerations): gravity, the damper on every body's
// velocity (a = g − (b·w)·v) and a spring's damper, which stays external (a −= w·(b·v)).
function hanging(p, links, endMass) {
  return {
    masses: Array.from({ length: links }, (_, k) => (k === links - 1 ? endMass : p.m)),
    constraints: Array.from({ length: links }, (_, k) => ({
      i: k, j: k - 1, ax: p.anchor[0], ay: p.anchor[1], rest: p.length, compliance: p.compliance, damping: p.link_damping,
    })),
    gx: 0, gy: -p.g, bodyDamping: p.b, springDamping: 0,
  };
}
const solverSystems = {
  pendulum: (p) => hanging(p, 1, p.m),
  chain: (p) => hanging(p, p.links, p.end_mass > 0 ? p.end_mass : p.m),
  elastic_pendulum: (p) => ({
    masses: [p.m],
    constraints: [{ i: 0, j: -1, ax: p.anchor[0], ay: p.anchor[1], rest: p.rest, compliance: 1 / p.k, damping: 0 }],
    gx: p.g[0], gy: p.g[1], bodyDamping: 0, springDamping: p.b,
  }),
};

// The external acceleration of one body, in the core's order of operations.
// Written into the step's buffer (out), returning nothing: the solvers' steps read the buffer.
const externalAcceleration = (sys) => (b, out) => {
  let ax = sys.gx - (sys.bodyDamping * b.invMass) * b.vx;
  let ay = sys.gy - (sys.bodyDamping * b.invMass) * b.vy;
  ax -= b.invMass * (sys.springDamping * b.vx);
  ay -= b.invMass * (sys.springDamping * b.vy);
  out[0] = ax;
  out[1] = ay;
};

// Each case's run: its system, start, dt, stiffness, and per lane the states [step][body] = [x, y, vx, vy].
function solverReference(c) {
  const lanes = c.lanes ?? solverLanes;
  const r = JSON.parse(cli(['run', `${c.query}&integrators=${lanes}`, '--steps', String(c.steps), '--format', 'json']));
  const p = configParams(r.config);
  const sys = solverSystems[p.scenario](p);
  const n = sys.masses.length;
  const states = new Map(lanes.map((lane) => [lane, []]));
  const written = r.integrators.map((i) => i.id);  // the core's own spelling of each lane, in order
  for (const i of r.integrators) assert.equal(i.stopped, null, `${c.id} ${i.id} stopped (${i.stopped})`);
  for (const row of r.rows) {
    const list = states.get(lanes[written.indexOf(row.integrator)]);
    if (row.body === 0) list.push([]);
    list.at(-1)[row.body] = [row.x, row.y, row.vx, row.vy];
  }
  for (const [lane, list] of states) {
    assert.equal(list.length, c.steps + 1, `${c.id} ${lane}`);
    assert.ok(list.every((s) => s.length === n && s.every(Boolean)), `${c.id} ${lane}: a body missing`);
  }
  const start = states.get(lanes[0])[0];
  return { c, lanes, sys, start, dt: r.dt, stiffness: p.pbd_stiffness ?? 1, states };
}
const solverReferences = new Map(solverCases.map((c) => [c.id, solverReference(c)]));

// The cases reach what they are there for: rigid and compliant links, a heavy end, a damper on the
// bodies and on a spring, PBD's stiffness below 1, and every solver at several settings.
test('the solver cases cover rigid and compliant constraints, dampers and every solver\'s settings', () => {
  const all = [...solverReferences.values()];
  assert.ok(all.some((r) => r.sys.constraints.every((k) => k.compliance === 0) && Math.max(...r.sys.masses) >= 100 * Math.min(...r.sys.masses)));
  assert.ok(all.some((r) => r.sys.constraints.every((k) => k.compliance > 0 && k.damping > 0) && r.sys.bodyDamping > 0));
  assert.ok(all.some((r) => r.sys.springDamping > 0));
  assert.ok(all.some((r) => r.stiffness < 1 && r.lanes.every((lane) => laneSettings(lane).method === 'pbd')));
  for (const { id } of solverRows) {
    const settings = solverLanes.map(laneSettings).filter((s) => s.method === id);
    assert.ok(settings.some((s) => s.substeps > 1 && s.iterations === 1) && settings.some((s) => s.substeps === 1 && s.iterations > 1), id);
  }
  // docs/snippets.md counts them: 15 lanes (each solver at its defaults, @20x1 and @1x20), 79 runs.
  assert.equal(solverLanes.length, 15);
  assert.equal(solverJobs.length, 79);
  // The motion is not trivial: every lane's bodies move.
  for (const r of all) {
    for (const [lane, list] of r.states) assert.notDeepEqual(list.at(-1), list[0], `${r.c.id} ${lane}`);
  }
});

// One job per case and lane; the line the C++ and C# runners read, every number a double's bits:
//   solver CASE LANE METHOD SUBSTEPS ITERATIONS STIFFNESS DT STEPS GX GY BODY_DAMPING SPRING_DAMPING
//     N (x y vx vy invMass)×N  R (i j ax ay rest compliance damping)×R
const solverJobs = [...solverReferences.values()].flatMap((ref) => ref.lanes.map((lane) => {
  const { method, substeps, iterations } = laneSettings(lane);
  assert.ok(manifest.snippets.some((s) => s.integrator === method), `${method}: no snippet in the manifest`);
  const { sys, start, dt, stiffness, c } = ref;
  const bodies = start.map(([x, y, vx, vy], k) => ({ x, y, vx, vy, invMass: 1 / sys.masses[k] }));
  const constraints = sys.constraints.map((k) => ({ ...k, lambda: 0 }));
  const line = ['solver', c.id, lane, method, substeps, iterations, bitsOf(stiffness), bitsOf(dt), c.steps,
    ...[sys.gx, sys.gy, sys.bodyDamping, sys.springDamping].map(bitsOf), bodies.length,
    ...bodies.flatMap((b) => [b.x, b.y, b.vx, b.vy, b.invMass].map(bitsOf)), constraints.length,
    ...constraints.flatMap((k) => [k.i, k.j, ...[k.ax, k.ay, k.rest, k.compliance, k.damping].map(bitsOf)])].join(' ');
  return { ref, lane, method, substeps, iterations, bodies, constraints, line };
}));
const solverJobText = solverJobs.map((j) => j.line).join('\n') + '\n';

// Checks a language's solver states against the core's, as compare() does (the scale S per kind of
// number over the lane's whole run and all its bodies). Returns the largest error.
function compareSolvers(language, results) {
  let worst = 0;
  const failures = [];
  for (const { ref, lane } of solverJobs) {
    const want = ref.states.get(lane);
    const got = results.get(`${ref.c.id} ${lane}`);
    if (!got || got.length !== want.length || got.some((s) => !s || s.length !== want[0].length || s.some((b) => !b))) {
      failures.push(`${ref.c.id} ${lane}: ${got ? got.filter(Boolean).length : 0} of ${want.length} steps`);
      continue;
    }
    const scale = [0, 1].map((k) => Math.max(...want.flat().map((b) => Math.max(Math.abs(b[2 * k]), Math.abs(b[2 * k + 1])))));
    outer: for (let s = 0; s < want.length; s++) {
      for (let b = 0; b < want[s].length; b++) {
        for (let q = 0; q < 4; q++) {
          const x = got[s][b][q], y = want[s][b][q];
          const e = x === y ? 0 : Math.abs(x - y) / Math.max(Math.abs(y), scale[q >> 1] / 1000);
          if (!(e <= tolerance)) {
            failures.push(`${ref.c.id} ${lane} step ${s} body ${b} ${'x y vx vy'.split(' ')[q]}: ${x} vs core ${y} (error ${e})`);
            break outer;
          }
          worst = Math.max(worst, e);
        }
      }
    }
  }
  console.log(`${language}: the solvers, ${solverJobs.length} runs, largest relative difference from the core ${worst.toExponential(2)}`);
  assert.deepEqual(failures.slice(0, 20), [], `${language}: ${failures.length} solver runs differ`);
  // docs/snippets.md says more: the solvers' snippets reproduce the core bit for bit (sqrt, the
  // only function they call besides PBD's pow, is exact in every language).
  assert.equal(worst, 0, `${language}: the solvers' snippets are not bit for bit the core's, as docs/snippets.md says`);
  return worst;
}

// Parses a runner's solver output: `CASE LANE STEP BODY x y vx vy`.
function parseSolverRows(text) {
  const out = new Map();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length !== 8 || !solverReferences.has(f[0])) continue;
    const key = `${f[0]} ${f[1]}`;
    if (!out.has(key)) out.set(key, []);
    const steps = out.get(key);
    (steps[Number(f[2])] ??= [])[Number(f[3])] = f.slice(4).map(parseNumber);
  }
  return out;
}

// The JavaScript solver step on one job: S calls of h = dt/S a step, the lane's iterations each
// (PBD also its stiffness), as the Step code dialog's loop call makes them.
async function runSolverJs() {
  const results = new Map();
  for (const { ref, lane, method, substeps, iterations, bodies: start, constraints } of solverJobs) {
    const mod = await import(pathToFileURL(path.join(snippetsDir, manifest.snippets.find((s) => s.integrator === method).files.js)));
    const bodies = start.map((b) => ({ ...b }));
    const accel = externalAcceleration(ref.sys);
    const h = ref.dt / substeps;
    const out = [bodies.map((b) => [b.x, b.y, b.vx, b.vy])];
    for (let s = 0; s < ref.c.steps; s++) {
      for (let k = 0; k < substeps; k++) {
        if (method === 'pbd') mod.step(bodies, constraints, h, accel, iterations, ref.stiffness);
        else mod.step(bodies, constraints, h, accel, iterations);
      }
      out.push(bodies.map((b) => [b.x, b.y, b.vx, b.vy]));
    }
    results.set(`${ref.c.id} ${lane}`, out);
  }
  return results;
}

test('JavaScript solver snippets, run under node, reproduce the core', async () => {
  compareSolvers('JavaScript', await runSolverJs());
});

test('C++ solver snippets, compiled into the runner, reproduce the core', () => {
  assert.ok(fs.existsSync(cppRunner), `no C++ runner at ${cppRunner}: build the snippet_runner_cpp target`);
  const r = spawnSync(cppRunner, [], { input: solverJobText, encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  compareSolvers('C++', parseSolverRows(r.stdout));
});

// The step code a game programmer pastes allocates nothing per step (issue 31: a vector per substep
// in C++, Geometry.new() in GDScript's inner loop). C++: the runner counts the heap allocations of
// every job's steps (operator new replaced), one-body and solver jobs alike, and each must be 0.
test('C++ steps allocate nothing: no heap allocation in any job\'s steps', () => {
  assert.ok(fs.existsSync(cppRunner), `no C++ runner at ${cppRunner}: build the snippet_runner_cpp target`);
  const counts = new Map();
  for (const input of [jobText, solverJobText]) {
    const r = spawnSync(cppRunner, [], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr);
    for (const line of r.stdout.split('\n')) {
      const f = line.split(' ');
      if (f[0] === 'allocations') counts.set(`${f[1]} ${f[2]}`, Number(f[3]));
    }
  }
  assert.equal(counts.size, jobText.trim().split('\n').length + solverJobs.length, 'a count for every job');
  const allocating = [...counts].filter(([, n]) => n !== 0).map(([job, n]) => `${job}: ${n}`);
  assert.deepEqual(allocating, [], 'jobs whose steps allocated');
});

// The others, read: inside the solvers' functions no buffer made (JavaScript's new, array and object
// literals, map and forEach with their closures; GDScript's .new(), PackedFloat64Array(), [] and
// append; C#'s arrays); the one geometry (JavaScript) or each constraint's own (GDScript) is filled.
const allocationSyntax = {
  js: /\bnew\b|=\s*\[|return\s*[[{]|=\s*\{|\.(?:map|forEach|filter|slice|concat)\(|=>/,
  gd: /\.new\(|PackedFloat64Array\(|\[\]|\.append\(|=\s*\[|return\s*\[/,
  cs: /new\s+\w+\s*\[|new\s+List\b|\.ToArray\(|\.Select\(/,
};
test('the solvers\' steps in JavaScript, GDScript and C# make no buffer or object per step', () => {
  const found = [];
  for (const { id } of solverRows) {
    const row = manifest.snippets.find((s) => s.integrator === id);
    for (const [lang, pattern] of Object.entries(allocationSyntax)) {
      const marker = lang === 'gd' ? '#' : '//';
      // What runs in a step: GDScript's static funcs; JavaScript's and C#'s indented lines (the top
      // level, the classes' fields and the one scratch, runs once).
      let inFunction = false;
      fs.readFileSync(path.join(snippetsDir, row.files[lang]), 'utf8').split('\n').forEach((line, k) => {
        const code = line.split(marker)[0];
        if (lang === 'gd' && /^\S/.test(code)) inFunction = /^static func\b/.test(code);
        const inBody = lang === 'gd' ? inFunction : /^\s/.test(code);
        if (inBody && pattern.test(code)) found.push(`${row.files[lang]}:${k + 1}: ${line.trim()}`);
      });
    }
  }
  assert.deepEqual(found, []);
});

test('C# solver snippets, compiled with mono-mcs, reproduce the core', { skip: csSkip }, () => {
  compareSolvers('C#', parseSolverRows(runCsRunner(solverJobText)));
});

// The solvers in the loop: the call the Step code dialog shows (scripts/snippet-usage.mjs, the
// example loop of 60 frames a second and 4 substeps at the step's default settings), run as it is
// for frames of exactly 1/60 s, must step the world as the core's lane METHOD@4 does at dt = 1/60
// (4 steps a frame: h = 1/240 s either way, bit for bit, since 1/60 over 4 is exact).
const solverLoopFrames = 60;
const solverLoop = solverReference({
  id: 'loop', steps: solverLoopFrames, lanes: solverRows.map((i) => `${i.id}@4`),
  query: solverCases.find((c) => c.id === 'compliant_chain').query.replace(/&dt=[^&]*/, '') + `&dt=${1 / 60}`,
});
const solverUsageOf = (id, lang) => loopUsage(id, jsCode.get(id))[lang].constraints;

// results: id -> {states: [frame][body] = [x, y, vx, vy] after each frame, steps, dropped}.
function compareSolverLoop(language, results) {
  let worst = 0;
  for (const { id } of solverRows) {
    const got = results.get(id);
    assert.ok(got, `${language} ${id}: no result`);
    assert.equal(got.steps, 4 * solverLoopFrames, `${language} ${id}: steps`);
    assert.equal(got.dropped, 0, `${language} ${id}: dropped`);
    const want = solverLoop.states.get(`${id}@4`);
    assert.equal(got.states.length, solverLoopFrames, `${language} ${id}: frames`);
    for (let f = 0; f < solverLoopFrames; f++) {
      for (let b = 0; b < want[0].length; b++) {
        for (let q = 0; q < 4; q++) {
          const x = got.states[f][b][q], y = want[f + 1][b][q];
          const e = x === y ? 0 : Math.abs(x - y) / Math.max(Math.abs(y), 1e-3);
          assert.ok(e <= tolerance, `${language} ${id} frame ${f + 1} body ${b}: ${x} vs core ${y}`);
          worst = Math.max(worst, e);
        }
      }
    }
  }
  console.log(`${language}: the solvers in the loop, ${solverRows.length} runs of ${solverLoopFrames} frames, largest relative difference from the core ${worst.toExponential(2)}`);
  assert.equal(worst, 0, `${language}: the solvers in the loop are bit for bit the core's lanes, as docs/snippets.md says`);
}

// The start of the loop's world, as each language writes it: [x, y, vx, vy, invMass] a body,
// [i, j, ax, ay, rest, compliance, damping] a constraint, and the external acceleration's numbers.
const loopBodies = solverLoop.start.map(([x, y, vx, vy], k) => [x, y, vx, vy, 1 / solverLoop.sys.masses[k]]);
const loopConstraints = solverLoop.sys.constraints.map((k) => [k.i, k.j, k.ax, k.ay, k.rest, k.compliance, k.damping]);
const { gx: loopGx, gy: loopGy, bodyDamping: loopB, springDamping: loopSpringB } = solverLoop.sys;
// The external acceleration of body b in C++ or C# (externalAcceleration's order): ax and ay, given
// the names of the body's inverse mass and velocity and how the language writes a number.
const accelerationLines = (num, [w, vx, vy]) => [
  `double ax = ${num(loopGx)} - (${num(loopB)} * b.${w}) * b.${vx};`,
  `double ay = ${num(loopGy)} - (${num(loopB)} * b.${w}) * b.${vy};`,
  `ax -= b.${w} * (${num(loopSpringB)} * b.${vx});`,
  `ay -= b.${w} * (${num(loopSpringB)} * b.${vy});`,
];

test('JavaScript solvers in the loop, called as the dialog shows, step the world as the core\'s METHOD@4 lane', async () => {
  const { FixedStepLoop } = await import(pathToFileURL(path.join(snippetsDir, manifest.loop.files.js)));
  const results = new Map();
  for (const { id } of solverRows) {
    const usage = solverUsageOf(id, 'js');
    const mod = await import(pathToFileURL(path.join(snippetsDir, manifest.snippets.find((s) => s.integrator === id).files.js)));
    const bodies = loopBodies.map(([x, y, vx, vy, invMass]) => ({ x, y, vx, vy, invMass }));
    const constraints = loopConstraints.map(([i, j, ax, ay, rest, compliance, damping]) => ({ i, j, ax, ay, rest, compliance, damping, lambda: 0 }));
    const body = [...usage.setup, 'const states = [];', 'for (let f = 0; f < frames; f++) {', 'const frameSeconds = 1 / 60;',
      ...usage.frame, 'states.push(bodies.map((b) => [b.x, b.y, b.vx, b.vy]));', '}', 'return { states, steps: loop.steps, dropped: loop.dropped };'].join('\n');
    results.set(id, new Function('FixedStepLoop', 'step', 'bodies', 'constraints', 'accel', 'frames', body)(
      FixedStepLoop, mod.step, bodies, constraints, externalAcceleration(solverLoop.sys), solverLoopFrames));
  }
  compareSolverLoop('JavaScript', results);
});

// The call the Step code dialog writes for a lane with settings of its own (issue 31 §2: it used
// to write the example's 4 substeps and tell the reader to pass 20 and 1 by hand): for the lane
// the core writes METHOD@SxI (web/common/lanes.js laneSettings, as the dialog reads it), the
// loop of laneLoop(S, I) (60 frames a second, S substeps, at most 2·S steps a frame, I iterations
// in the call), run as it is for frames of exactly 1/60 s, steps the world as the core's lane
// does at dt = 1/60, bit for bit (S a power of two: h = 1/(60·S) and dt/S are the same double).
const ownSettings = [[16, 1], [1, 20], [2, 5]];
const ownLoop = solverReference({
  id: 'own-settings', steps: solverLoopFrames, lanes: solverRows.flatMap((i) => ownSettings.map(([S, I]) => `${i.id}@${S}x${I}`)),
  query: solverCases.find((c) => c.id === 'compliant_chain').query.replace(/&dt=[^&]*/, '') + `&dt=${1 / 60}`,
});

test('JavaScript solvers in the loop, called as the dialog writes it for a lane of its own substeps and iterations, step the world as that lane', async () => {
  const { FixedStepLoop } = await import(pathToFileURL(path.join(snippetsDir, manifest.loop.files.js)));
  const written = JSON.parse(cli(['run', `${ownLoop.c.query}&integrators=${ownLoop.lanes}`, '--steps', '1', '--format', 'json'])).integrators.map((i) => i.id);
  let worst = 0, runs = 0;
  for (const [k, lane] of ownLoop.lanes.entries()) {
    const id = lane.split('@')[0];
    const settings = pageLaneSettings(written[k]);
    const usage = loopUsage(id, jsCode.get(id), laneLoop(settings.substeps, settings.iterations)).js.constraints;
    const [S, I] = lane.split('@')[1].split('x').map(Number);
    assert.match(usage.text, new RegExp(`FixedStepLoop\\(\\{[^}]*\\}, 60, ${S}, ${2 * S}\\)`), `${lane}: the loop has the lane's ${S} substeps`);
    assert.match(usage.text, new RegExp(`accel, ${I}[,)]`), `${lane}: the call has the lane's ${I} iterations`);
    const mod = await import(pathToFileURL(path.join(snippetsDir, manifest.snippets.find((s) => s.integrator === id).files.js)));
    const bodies = loopBodies.map(([x, y, vx, vy, invMass]) => ({ x, y, vx, vy, invMass }));
    const constraints = loopConstraints.map(([i, j, ax, ay, rest, compliance, damping]) => ({ i, j, ax, ay, rest, compliance, damping, lambda: 0 }));
    const body = [...usage.setup, 'const states = [];', 'for (let f = 0; f < frames; f++) {', 'const frameSeconds = 1 / 60;',
      ...usage.frame, 'states.push(bodies.map((b) => [b.x, b.y, b.vx, b.vy]));', '}', 'return { states, steps: loop.steps, dropped: loop.dropped };'].join('\n');
    const got = new Function('FixedStepLoop', 'step', 'bodies', 'constraints', 'accel', 'frames', body)(
      FixedStepLoop, mod.step, bodies, constraints, externalAcceleration(ownLoop.sys), solverLoopFrames);
    assert.equal(got.steps, S * solverLoopFrames, `${lane}: steps`);
    assert.equal(got.dropped, 0, `${lane}: dropped`);
    const want = ownLoop.states.get(lane);
    for (let f = 0; f < solverLoopFrames; f++) {
      for (let b = 0; b < want[0].length; b++) {
        for (let q = 0; q < 4; q++) {
          const x = got.states[f][b][q], y = want[f + 1][b][q];
          worst = Math.max(worst, x === y ? 0 : Math.abs(x - y) / Math.max(Math.abs(y), 1e-3));
        }
      }
    }
    runs += 1;
  }
  console.log(`JavaScript: the solvers in the loop at their lanes' own settings, ${runs} runs of ${solverLoopFrames} frames, largest relative difference from the core ${worst.toExponential(2)}`);
  assert.equal(runs, 15);
  assert.equal(worst, 0, 'the call the dialog writes for a lane steps the world bit for bit as that lane');
});

// Parses `ID frame F body B x y vx vy` and `ID counts STEPS DROPPED` lines.
function parseSolverLoop(text) {
  const results = new Map();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (!solverRows.some((i) => i.id === f[0])) continue;
    if (!results.has(f[0])) results.set(f[0], { states: [], steps: -1, dropped: -1 });
    const r = results.get(f[0]);
    if (f[1] === 'counts') [r.steps, r.dropped] = [Number(f[2]), Number(f[3])];
    else (r.states[Number(f[2])] ??= [])[Number(f[4])] = f.slice(5).map(parseNumber);
  }
  return results;
}

// C++: the dialog's call as it is, in a program around the world's start (every number by its bits).
test('C++ solvers in the loop, compiled around the call the dialog shows, step the world as the core\'s METHOD@4 lane', () => {
  const num = (x) => `from_bits(${bitsOf(x)}u)`;
  const src = ['// Generated by tests/snippets/snippets.test.mjs: every solver in the loop, called as the dialog shows.'];
  for (const { id } of solverRows) src.push(`#include "${id}.cpp"`);
  src.push(`#include "${path.basename(manifest.loop.files.cpp)}"`, '#include <array>', '#include <cstdint>', '#include <cstdio>',
    '#include <cstring>', '#include <vector>', '', 'static double from_bits(std::uint64_t u) {', '    double d;',
    '    std::memcpy(&d, &u, sizeof d);', '    return d;', '}');
  for (const { id } of solverRows) {
    const usage = solverUsageOf(id, 'cpp');
    src.push(`static void loop_${id}() {`, `    std::vector<${id}::Body> bodies;`);
    for (const b of loopBodies) src.push(`    bodies.push_back(${id}::Body{${b.map(num).join(', ')}});`);
    src.push(`    std::vector<${id}::Constraint> constraints;`);
    for (const [i, j, ...rest] of loopConstraints) {
      src.push('    {', `        ${id}::Constraint c{};`, `        c.i = ${i};`, `        c.j = ${j};`,
        ...['ax', 'ay', 'rest', 'compliance', 'damping'].map((name, k) => `        c.${name} = ${num(rest[k])};`),
        '        constraints.push_back(c);', '    }');
    }
    src.push(`    const auto accel = [](const ${id}::Body& b) {`,
      ...accelerationLines(num, ['inv_mass', 'vx', 'vy']).map((l) => `        ${l}`),
      '        return std::array<double, 2>{ax, ay};', '    };',
      ...usage.setup.map((l) => `    ${l}`),
      `    for (int f = 0; f < ${solverLoopFrames}; ++f) {`, '        const double frame_seconds = 1.0 / 60;',
      ...usage.frame.map((l) => `        ${l}`),
      '        for (size_t n = 0; n < bodies.size(); ++n)',
      `            std::printf("${id} frame %d body %zu %.17g %.17g %.17g %.17g\\n", f, n, bodies[n].x, bodies[n].y, bodies[n].vx, bodies[n].vy);`,
      '    }', `    std::printf("${id} counts %lld %lld\\n", loop.steps, loop.dropped);`, '}');
  }
  src.push('', 'int main() {', ...solverRows.map(({ id }) => `    loop_${id}();`), '    return 0;', '}', '');
  compareSolverLoop('C++', parseSolverLoop(runCppProgram('solver_loop', src.join('\n'))));
});

// C#: the same, compiled with mcs beside the snippets and the loop, run under mono.
test('C# solvers in the loop, compiled around the call the dialog shows, step the world as the core\'s METHOD@4 lane', { skip: csSkip }, () => {
  const num = csNumber;
  const src = csProgramHead('SolverLoopRunner', 'every solver in the loop');
  for (const { id } of solverRows) {
    const P = pascal(id);
    const usage = solverUsageOf(id, 'cs');
    src.push(`    static void Loop_${id}()`, '    {',
      `        var bodies = new ${P}.Body[]`, '        {',
      ...loopBodies.map(([x, y, vx, vy, w]) => `            new ${P}.Body { X = ${num(x)}, Y = ${num(y)}, Vx = ${num(vx)}, Vy = ${num(vy)}, InvMass = ${num(w)} },`),
      '        };', `        var constraints = new ${P}.Constraint[]`, '        {',
      ...loopConstraints.map(([i, j, ax, ay, rest, compliance, damping]) => `            new ${P}.Constraint { I = ${i}, J = ${j}, Ax = ${num(ax)}, ` +
        `Ay = ${num(ay)}, Rest = ${num(rest)}, Compliance = ${num(compliance)}, Damping = ${num(damping)} },`),
      '        };',
      `        ${P}.Acceleration accel = b =>`, '        {',
      ...accelerationLines(num, ['InvMass', 'Vx', 'Vy']).map((l) => `            ${l}`),
      '            return (ax, ay);', '        };',
      ...usage.setup.map((l) => `        ${l}`),
      `        for (int f = 0; f < ${solverLoopFrames}; f++)`, '        {', '            double frameSeconds = 1.0 / 60;',
      ...usage.frame.map((l) => `            ${l}`),
      '            for (int n = 0; n < bodies.Length; n++)',
      `                Out.Append("${id} frame ").Append(f).Append(" body ").Append(n).Append(' ').Append(N(bodies[n].X)).Append(' ')` +
        '.Append(N(bodies[n].Y)).Append(\' \').Append(N(bodies[n].Vx)).Append(\' \').Append(N(bodies[n].Vy)).Append(\'\\n\');',
      '        }',
      `        Out.Append("${id} counts ").Append(loop.Steps).Append(' ').Append(loop.Dropped).Append('\\n');`,
      '    }');
  }
  src.push('    public static int Main()', '    {', ...solverRows.map(({ id }) => `        Loop_${id}();`),
    '        Console.Out.Write(Out.ToString());', '        return 0;', '    }', '}', '');
  compareSolverLoop('C#', parseSolverLoop(runCsProgram('SolverLoopRunner', src.join('\n'))));
});

// Issue 31 §2: "code a game programmer pastes allocates nothing per step". The JavaScript and
// GDScript steps made an array for every accel call (const [ax, ay] = accel(...), var a: Array =
// accel.call(...)) and the spring steps a closure for every call. Now accel writes into one buffer,
// made once per file (JavaScript: a Float64Array(2); GDScript: a static Array), which every call
// is handed last; the spring steps hand over a function made once. The runs above check the
// numbers (their accel returns nothing, so a step that read a returned array would fail); this
// checks the text. C++ and C# return a struct or a tuple, values on the stack: no allocation.
test('JavaScript and GDScript steps write accel into one buffer made once: no array or closure per call', () => {
  const code = (text, marker) => text.split('\n').filter((l) => !l.trim().startsWith(marker)).map((l) => l.replace(marker === '#' ? /\s#\s.*$/ : /\s\/\/\s.*$/, ''));
  for (const { integrator, files } of manifest.snippets) {
    const js = code(fs.readFileSync(path.join(snippetsDir, files.js), 'utf8'), '//');
    const jsCalls = js.filter((l) => /\baccel\(/.test(l) && !/function\s+\w+\(|=>\s*\(/.test(l) && !/\(accel\)/.test(l));
    assert.ok(jsCalls.length > 0, `${integrator}.js calls accel`);
    for (const l of jsCalls) assert.match(l, /\baccel\([^;]*, acceleration\);$/, `${integrator}.js: accel writes into the buffer: ${l.trim()}`);
    assert.equal(js.filter((l) => /^const acceleration = new Float64Array\(2\);$/.test(l)).length, 1, `${integrator}.js: one buffer, made once`);
    assert.ok(!js.some((l) => /step\([^)]*\(x, y, vx, vy\) =>/.test(l) || /^\s*step\(body, carry, h, \(/.test(l)), `${integrator}.js: no closure per spring step`);
    const gd = code(fs.readFileSync(path.join(snippetsDir, files.gd), 'utf8'), '#');
    const gdCalls = gd.filter((l) => /\baccel\.call\(/.test(l));
    assert.ok(gdCalls.length > 0, `${integrator}.gd calls accel`);
    for (const l of gdCalls) assert.match(l, /^\s*accel\.call\(.*, acceleration\)$/, `${integrator}.gd: accel writes into the buffer: ${l.trim()}`);
    assert.equal(gd.filter((l) => /^static var acceleration: Array = \[0\.0, 0\.0\]$/.test(l)).length, 1, `${integrator}.gd: one buffer, made once`);
    assert.ok(!gd.some((l) => /var accel := func\(/.test(l)), `${integrator}.gd: no closure per spring step`);
  }
});

// The same for everything else a one-body step calls back or calls (issue 31 §2): implicit Euler's
// jacobian wrote an 8-element array a call, Yoshida's dissipate [vx, vy], the kinematic pair's
// forces [dvx, dvy, dx, dy] and their oscillator map and spring increment an array each. Now each
// writes into a buffer its file makes once (derivatives, velocity, increment, oscillator), handed
// last. Read: what runs in a step makes no array, object or closure. JavaScript: every indented
// line of a function (the top level runs once, at import or when a force is built, except a
// builder's inner arrow on its line) but newCarry (which makes the carry, once); no new, no array
// or object literal, no array read out of a call (destructured: the callee made it), no arrow or
// function, no spread. GDScript: every line of a static func; no .new(), no array literal or
// constructor, no Vector2, no Array read out of a call, no lambda but the one a force builder
// (-> Callable) returns, made once when the force is built.
const perStepAllocation = {
  js: [/\bnew\b/, /(?:^|[^\w\]).\s])\s*\[/, /\breturn\s*\[/, /(?:[=(,:?]|\breturn)\s*\{/, /=>/, /\bfunction\b/, /\.\.\./,
    /\.(?:map|forEach|filter|slice|concat|from)\(/, /(?:^|\)|\bconst|\blet)\s*\[[^\]]*\]\s*=[^=]/],
  gd: [/\.new\(/, /(?:^|[^\w\].\s])\s*\[/, /\breturn\s*\[/, /PackedFloat64Array\(|Vector2\(|\bArray\(/, /\.(?:duplicate|append)\(/,
    /\bfunc\(/, /:\s*Array\s*=\s*[\w.]+\(/],
};
function perStepLines(text, lang) {
  const lines = [];
  // GDScript: the static func the line is in, or null. JavaScript: the top-level statement the line
  // continues: a function (its header has function or =>), newCarry, or data (a table of constants).
  let region = null;
  text.split('\n').forEach((line, k) => {
    const code = line.replace(lang === 'gd' ? /#.*$/ : /\/\/.*$/, '').replace(/"[^"]*"|'[^']*'/g, '""');
    if (!code.trim()) return;
    if (/^\S/.test(code)) {
      region = lang === 'gd' ? (/^static func\b/.test(code) ? code : null)
        : /\bnewCarry\(/.test(code) ? 'newCarry' : /\bfunction\b|=>/.test(code) ? 'function' : 'data';
      if (lang === 'gd') return;
    }
    // JavaScript's top level runs once, but a builder's inner arrow written on its line runs per step.
    const inner = lang === 'js' && /^\S/.test(code) && /=>[^;]*=>\s*(?:\[|\(\s*\{)/.test(code);
    if (lang === 'js' && !inner && (region !== 'function' || /^\S/.test(code))) return;
    if (lang === 'gd' && region === null) return;
    // A force builder's one lambda, made when the force is built.
    if (lang === 'gd' && /-> Callable:$/.test(region) && /^\treturn func\(/.test(code)) return;
    lines.push({ code, where: `${k + 1}: ${line.trim()}` });
  });
  return lines;
}
test('JavaScript and GDScript one-body steps make no array, object or closure per step: jacobian, dissipate and forces write into buffers made once', () => {
  const found = [];
  let checked = 0;
  for (const { id } of table) {
    const row = manifest.snippets.find((s) => s.integrator === id);
    for (const lang of ['js', 'gd']) {
      const lines = perStepLines(fs.readFileSync(path.join(snippetsDir, row.files[lang]), 'utf8'), lang);
      assert.ok(lines.length > 5, `${row.files[lang]}: no step read (${lines.length} lines)`);
      checked += lines.length;
      for (const { code, where } of lines) {
        if (perStepAllocation[lang].some((re) => re.test(code))) found.push(`${row.files[lang]}:${where}`);
      }
    }
    // The callbacks write into the file's buffer, handed last, as accel does.
    const js = fs.readFileSync(path.join(snippetsDir, row.files.js), 'utf8');
    const gd = fs.readFileSync(path.join(snippetsDir, row.files.gd), 'utf8');
    for (const [callback, buffer, n] of [['jacobian', 'derivatives', 8], ['dissipate', 'velocity', 2], ['force', 'increment', 4]]) {
      const jsCalls = js.split('\n').filter((l) => !l.trim().startsWith('//') && !/\bfunction\b|=>/.test(l) && new RegExp(`(?<![\\w.])${callback}\\(`).test(l));
      const gdCalls = gd.split('\n').filter((l) => !l.trim().startsWith('#') && new RegExp(`\\b${callback}\\.call\\(`).test(l));
      for (const l of jsCalls) if (!new RegExp(`, ${buffer}\\);$`).test(l)) found.push(`${id}.js: ${callback} does not write into ${buffer}: ${l.trim()}`);
      for (const l of gdCalls) {
        if (!new RegExp(`^\\s+${callback}\\.call\\(.*, ${buffer}\\)$`).test(l)) found.push(`${id}.gd: ${callback} does not write into ${buffer}: ${l.trim()}`);
      }
      assert.equal(jsCalls.length > 0, gdCalls.length > 0, `${id}: ${callback} called in one language only`);
      if (jsCalls.length > 0 && js.split('\n').filter((l) => l === `const ${buffer} = new Float64Array(${n});`).length !== 1) {
        found.push(`${id}.js: not one ${buffer} buffer, made once`);
      }
      if (gdCalls.length > 0 && gd.split('\n').filter((l) => l === `static var ${buffer}: Array = [${Array(n).fill('0.0').join(', ')}]`).length !== 1) {
        found.push(`${id}.gd: not one ${buffer} buffer, made once`);
      }
    }
  }
  assert.ok(checked > 800, `${checked} lines read`);  // 964 when written: the reading lost no function
  assert.deepEqual(found, [], 'lines that make an array, object or closure in a step');
});
