// Where the motion module's bytes go (issue 32 §1; not a test): reads a build of the motion module
// that kept its function names (emcc --profiling-funcs: the same code, plus a name section) and
// sums each function's code, raw and gzip, into the parts of the core a table below names, then
// prints a Markdown table. The data section (the core's text: descriptions, messages, names) is one
// row of its own.
//   node scripts/measure-module.mjs --build          # builds build/wasm-prof first (emcmake, ~10 min on 2 cores)
//   node scripts/measure-module.mjs [path.wasm]      # default build/wasm-prof/stepwise.wasm
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const profDir = path.join(root, 'build/wasm-prof');

// A function belongs to the first part whose pattern its (demangled) name matches.
const parts = [
  { part: 'the X-ray (trace)', pattern: /trace|Trace/ },
  { part: 'written forces (expressions, their potential)', pattern: /WrittenForce|Expression|Compiler|written|ExprVar|gauss_legendre/ },
  { part: 'scenes (grammar, layout, building)', pattern: /parse_scene|scene_kinds|SceneSpec|SceneItem|SceneProblem|build_built_scene|scene_text|Playground::scene\b|SceneDrawing/ },
  { part: 'rigid links (constrained reference, projection)', pattern: /RigidLinks|LinkForce|project_onto_links|constrain/ },
  { part: 'game-physics solvers (rows, PBD, XPBD, soft step, SI, VBD)', pattern: /SolverRows|solver|pbd|xpbd|soft_step|sequential_impulses|vbd|Rows\b/i },
  { part: "implicit Euler (Jacobians, Newton's solve)", pattern: /implicit_euler|jacobian|Jacobian|linear_solve|band_|lu_|solve_dense|BandSolve|DenseSolve/ },
  { part: 'closed forms (pendulum, Kepler, linear bodies)', pattern: /exact|pendulum|kepler|Kepler|carlson|elliptic|agm|LinearBody/i },
  { part: 'the tables as JSON (tables(), layouts)', pattern: /web::tables|Layout|layout|json|Json/ },
  { part: 'messages and their arguments', pattern: /Message|message/ },
  { part: 'the config parser', pattern: /Parser|normalise|default_config|parse_|Config|LaneSpec|lane_spec|ranges|Limits/ },
  { part: 'numbers to text and back (printf, strtod, long double)', pattern: /printf|fmt_|number_text|append_number|strtod|scanf|__(div|mul|add|sub|extend|trunc|fix|float|lt|gt|eq|ne|ge|le)tf|__rem_pio2|frexp|fmodl|scalbn|__shgetc|decfloat|hexfloat|to_chars|from_chars/ },
  { part: 'the page bindings (Playground, Embind)', pattern: /Playground|emscripten|embind|_EmVal|val::|__wasm_call_ctors/ },
  { part: 'the step: forces, integrators, the simulation', pattern: /stepwise::/ },
  { part: 'C++ and C libraries (strings, vectors, malloc, math)', pattern: /./ },
];

function leb(b, i) {
  let r = 0, s = 0;
  for (;;) {
    const x = b[i++];
    r += (x & 0x7f) * 2 ** s;
    s += 7;
    if (x < 0x80) return [r, i];
  }
}

function sections(d) {
  const out = { custom: [] };
  let i = 8;
  while (i < d.length) {
    const id = d[i++];
    let n;
    [n, i] = leb(d, i);
    if (id === 0) {
      const [len, j] = leb(d, i);
      out.custom.push({ name: d.subarray(j, j + len).toString(), start: j + len, end: i + n });
    } else out[id] = { start: i, end: i + n };
    i += n;
  }
  return out;
}

function importedFunctions(d, sec) {
  if (!sec) return 0;
  let j = sec.start, count, funcs = 0, len;
  [count, j] = leb(d, j);
  for (let k = 0; k < count; ++k) {
    [len, j] = leb(d, j); j += len;
    [len, j] = leb(d, j); j += len;
    const kind = d[j++];
    if (kind === 0) { [, j] = leb(d, j); ++funcs; }
    else if (kind === 1) { j += 1; const flags = d[j++]; [, j] = leb(d, j); if (flags & 1) [, j] = leb(d, j); }
    else if (kind === 2) { const flags = d[j++]; [, j] = leb(d, j); if (flags & 1) [, j] = leb(d, j); }
    else if (kind === 3) j += 2;
  }
  return funcs;
}

function functionNames(d, secs) {
  const names = new Map();
  const sec = secs.custom.find((c) => c.name === 'name');
  if (!sec) return names;
  let j = sec.start;
  while (j < sec.end) {
    const sub = d[j++];
    let size;
    [size, j] = leb(d, j);
    const end = j + size;
    if (sub === 1) {
      let k = j, count, idx, len;
      [count, k] = leb(d, k);
      for (let c = 0; c < count; ++c) {
        [idx, k] = leb(d, k);
        [len, k] = leb(d, k);
        names.set(idx, d.subarray(k, k + len).toString());
        k += len;
      }
    }
    j = end;
  }
  return names;
}

const gzip = (buf) => zlib.gzipSync(buf, { level: 9 }).length;

if (process.argv.includes('--build')) {
  const env = { ...process.env, NODE_PATH: `/usr/share/nodejs${process.env.NODE_PATH ? `:${process.env.NODE_PATH}` : ''}` };
  execFileSync('emcmake', ['cmake', '-S', root, '-B', profDir, '-DCMAKE_BUILD_TYPE=Release', '-DCMAKE_EXE_LINKER_FLAGS=--profiling-funcs',
    '-DCMAKE_CROSSCOMPILING_EMULATOR=node;--no-experimental-fetch'], { stdio: 'inherit', env });
  execFileSync('cmake', ['--build', profDir, '-j2', '--target', 'stepwise_wasm'], { stdio: 'inherit', env });
}
const file = process.argv.slice(2).find((a) => !a.startsWith('--')) || path.join(profDir, 'stepwise.wasm');
const d = fs.readFileSync(file);
const secs = sections(d);
const names = functionNames(d, secs);
if (names.size === 0) throw new Error(`${file} has no function names: build it with --profiling-funcs (--build)`);
const imported = importedFunctions(d, secs[2]);
let j = secs[10].start, count;
[count, j] = leb(d, j);
const rows = new Map(parts.map((p) => [p.part, { bytes: 0, bodies: [], functions: 0 }]));
for (let f = 0; f < count; ++f) {
  let size;
  [size, j] = leb(d, j);
  const name = names.get(imported + f) || '';
  const row = rows.get(parts.find((p) => p.pattern.test(name)).part);
  row.bytes += size;
  row.functions += 1;
  row.bodies.push(d.subarray(j, j + size));
  j += size;
}
const code = d.subarray(secs[10].start, secs[10].end), data = d.subarray(secs[11].start, secs[11].end);
const kb = (n) => `${(n / 1024).toFixed(1)}`;
console.log(`${path.relative(root, file)}: code ${kb(code.length)} KB (${kb(gzip(code))} KB gzip), data ${kb(data.length)} KB (${kb(gzip(data))} KB gzip)\n`);
console.log('| part | functions | code, KB | gzip alone, KB |');
console.log('| --- | ---: | ---: | ---: |');
const sorted = [...rows].filter(([, r]) => r.functions > 0).sort((a, b) => b[1].bytes - a[1].bytes);
for (const [part, r] of sorted) console.log(`| ${part} | ${r.functions} | ${kb(r.bytes)} | ${kb(gzip(Buffer.concat(r.bodies)))} |`);
console.log(`| the data section (the core's text and constants) | — | ${kb(data.length)} | ${kb(gzip(data))} |`);
