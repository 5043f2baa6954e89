// `stepwise run` text (CSV or JSON) from the native CLI, and the comparison of the wasm module's
// (or the page's download's) text with it. Both print through the same C++ formatter, so where
// the numbers are bit-identical (every fixed-step lane's x, y, vx, vy and energy) so is the text.
// Only numbers that pass through libm may differ in the last bits, because glibc and Emscripten's
// musl round exp, sin, cos and pow differently: the adaptive rk45 lane (its step control calls
// pow), the error against a closed form, and the energy drift against the reference's energy.
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cli = process.env.STEPWISE_CLI || path.join(root, 'build/native/stepwise');

// The CLI's text; steps and every as in `stepwise run QUERY --steps N --every K --format F`.
export function cliRun(query, { steps, every = 1, format = 'csv' } = {}) {
  const args = ['run', query];
  if (steps !== undefined) args.push('--steps', String(steps));
  args.push('--every', String(every), '--format', format);
  return execFileSync(cli, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 512 << 20 });
}

// The CLI's rows at the last printed time after `steps` steps (with a game loop: frames), as
// numbers: [{t, integrator, body, x, y, vx, vy, energy, error}].
export function cliRowsAt(query, steps) {
  const lines = cliRun(query, { steps, every: Math.max(steps, 1) }).trim().split('\n').slice(1);
  const t = lines.at(-1).split(',')[0];
  return lines.filter((l) => l.split(',')[0] === t).map((line) => {
    const [time, integrator, body, x, y, vx, vy, energy, error] = line.split(',');
    return { t: +time, integrator, body: +body, x: +x, y: +y, vx: +vx, vy: +vy, energy: +energy, error: +error };
  });
}

const libmFields = new Set(['error', 'energy_drift', 'reference_stopped_at']);

// Two numbers printed differently: allowed only where libm is involved, and then within 1e-12 of
// the scale (the position's size for an error, 1 for a normalised drift).
function closeEnough(a, b, scale, where) {
  assert.notEqual(a, b, `${where}: different text means different numbers (same formatting)`);
  assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(scale, Math.abs(a), Math.abs(b), 1e-300), `${where}: ${a} vs ${b}`);
}

// One CSV line t,integrator,body,x,y,vx,vy,energy,error each.
function compareCsvLine(x, y, where) {
  const a = x.split(','), b = y.split(',');
  assert.equal(a.length, b.length, where);
  assert.deepEqual(a.slice(0, 3), b.slice(0, 3), `${where}: t, integrator, body`);
  for (let f = 3; f < a.length; ++f) {
    if (a[f] === b[f]) continue;
    assert.ok(f === 8 || a[1] === 'rk45', `${where}: column ${f} differs in a fixed-step lane: ${a[f]} vs ${b[f]}`);
    closeEnough(+a[f], +b[f], Math.max(Math.abs(+b[3]), Math.abs(+b[4])), `${where} column ${f}`);
  }
}

// One JSON line: a row object, an integrator's summary, or a "key": value line.
function compareJsonLine(x, y, where) {
  const parse = (line) => {
    const text = line.trim().replace(/,$/, '');
    return JSON.parse(text.startsWith('"') ? `{${text}}` : text);
  };
  const a = parse(x), b = parse(y);
  assert.deepEqual(Object.keys(a), Object.keys(b), where);
  const rk45 = a.integrator === 'rk45' || a.id === 'rk45';
  for (const key of Object.keys(a)) {
    if (Object.is(a[key], b[key])) continue;
    assert.equal(typeof a[key], 'number', `${where}: ${key} ${JSON.stringify(a[key])} vs ${JSON.stringify(b[key])}`);
    assert.ok(rk45 || libmFields.has(key), `${where}: ${key} differs in a fixed-step lane: ${a[key]} vs ${b[key]}`);
    const scale = key === 'error' ? Math.max(Math.abs(b.x ?? 0), Math.abs(b.y ?? 0)) : key === 'energy_drift' ? 1 : 0;
    closeEnough(a[key], b[key], scale, `${where} ${key}`);
  }
}

// Returns {lines, identical}: how many lines, how many of them the same text.
export function compareRunText(page, native, format, label = '') {
  assert.ok(page.endsWith('\n') && native.endsWith('\n'), `${label}: ends with a newline`);
  const a = page.slice(0, -1).split('\n'), b = native.slice(0, -1).split('\n');
  assert.equal(a.length, b.length, `${label}: line count`);
  let identical = 0;
  for (let i = 0; i < a.length; ++i) {
    if (a[i] === b[i]) { ++identical; continue; }
    const where = `${label} line ${i + 1}`;
    if (format === 'csv') compareCsvLine(a[i], b[i], where);
    else compareJsonLine(a[i], b[i], where);
  }
  if (format === 'json') JSON.parse(page);  // and the whole is JSON
  return { lines: a.length, identical };
}
