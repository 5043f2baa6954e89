// The step snippets (snippets/, docs/snippets.md) against the core: every snippet of every
// language in snippets/manifest.json is run on the reference cases of cases.json, and every
// state it reaches (x, y, vx, vy at each step) must agree with `stepwise run` to
// max_relative_error. JavaScript runs in this process; C++ through the runner that CMake builds
// (tests/snippets/runner.cpp, SNIPPETS_CPP_RUNNER); C# compiled with mono's mcs (scripts/setup.sh
// installs it; where it is absent that test is skipped and says why). GDScript cannot run here (no
// Godot 4): its arithmetic is compared with the JavaScript snippet's (skeleton.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { forces } from './forces.mjs';
import { skeleton } from './skeleton.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const snippetsDir = path.join(root, 'snippets');
const manifest = JSON.parse(fs.readFileSync(path.join(snippetsDir, 'manifest.json'), 'utf8'));
const { cases, max_relative_error: tolerance } = JSON.parse(fs.readFileSync(path.join(here, 'cases.json'), 'utf8'));
const stepwise = process.env.STEPWISE_BIN || path.join(root, 'build/native/stepwise');
const cppRunner = process.env.SNIPPETS_CPP_RUNNER || path.join(root, 'build/native/tests/snippet_runner_cpp');

// The integrator table, from the core.
const table = JSON.parse(cli(['list', '--format', 'json'])).integrators;

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

test('the manifest has one row per integrator of the core, and every file it names exists', () => {
  assert.deepEqual(manifest.snippets.map((s) => s.integrator), table.map((i) => i.id));
  const languages = manifest.languages.map((l) => l.id);
  const listed = new Set();
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
  const byId = new Map(table.map((i) => [i.id, i]));
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

test('C# snippets, compiled with mono-mcs, reproduce the core', {
  skip: mcs && mono ? false : `C# not checked: ${mcs ? 'mono' : 'mcs'} is not installed (scripts/setup.sh installs Debian's mono-mcs and mono-runtime)`,
}, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snippets-cs-'));
  try {
    const sources = manifest.snippets.map((s) => path.join(snippetsDir, s.files.cs));
    const exe = path.join(dir, 'runner.exe');
    const built = spawnSync(mcs, ['-warnaserror+', `-out:${exe}`, ...sources, path.join(here, 'Runner.cs')], { encoding: 'utf8' });
    assert.equal(built.status, 0, built.stdout + built.stderr);
    const r = spawnSync(mono, [exe], { input: jobText, encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr);
    compare('C#', parseRows(r.stdout));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
