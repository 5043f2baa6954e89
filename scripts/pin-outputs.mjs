// Pins what the CLI prints, so a refactor that promises the same output can prove it: for every
// preset (with every integrator) and a few configs that reach the force kinds and lane settings
// the presets do not, the SHA-256 of run, cloud, convergence, stability and trace (stdout, stderr
// and exit status). `node scripts/pin-outputs.mjs` prints the table as JSON; with --write it
// writes tests/pinned/outputs.json, and tests/web/pinned.test.mjs compares a build against it.
// A change that alters output on purpose re-pins in the same commit and says why.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const pinnedFile = path.join(root, 'tests/pinned/outputs.json');
const cli = process.env.STEPWISE_BIN || path.join(root, 'build/native/stepwise');

// Configs beyond the presets: pair damping, rest lengths with damping, drag with a damper-free
// projectile at a coarse step, the accumulator loop, equal cost, a written force.
const extra = [
  'scenario=spring_pair&b=0.5&rest=0&g=0,0',
  'scenario=spring_pair&b=0.2',
  'scenario=two_spring&b=0.3&rest1=1&rest2=0.5',
  'scenario=spring&rest=0.5&b=0.2&x0=2,1&v0=0,1',
  'scenario=projectile&drag=0.3&dt=0.1&duration=5',
  'scenario=elastic_pendulum&b=0.1&dt=0.02&duration=8',
  'scenario=orbit&x0=1,0&v0=0,0.5&dt=0.02&duration=6',
  'preset=stiff_spring&loop=accumulator&hz=60&substeps=2',
  'preset=damped_spring&equal_cost=1',
  // The written force on a classic system: time, a velocity and a power (issue 22 §3).
  'scenario=spring_pair&fx=-c1*x^3+c2*cos(t)&fy=-c1*vy&c1=2&c2=0.5',
];

export function cases() {
  const list = JSON.parse(execFileSync(cli, ['list', '--format', 'json'], { encoding: 'utf8' }));
  // The fifteen integrators as they were pinned before the game-physics solvers came (their
  // outputs did not change), then the solvers with lanes of their own settings, pinned apart.
  const all = list.integrators.filter((i) => i.family !== 'solver').map((i) => i.id).join(',');
  const solvers = [...list.integrators.filter((i) => i.family === 'solver').map((i) => i.id),
    'xpbd@4x2', 'pbd@2x3', 'semi_implicit_euler@4'].join(',');
  // Linked systems and built scenes (chains of up to 32 bodies at fine steps, a 62-body cloth)
  // are pinned over their first 0.02 s:
  // their whole runs print gigabytes with every integrator.
  const linked = new Set(['pendulum', 'chain', 'bridge', 'scene']);
  const short = (p) => (linked.has(p.query.match(/scenario=([a-z_]+)/)[1]) ? '&duration=0.02' : '');
  const systems = [...list.presets.map((p) => `preset=${p.id}${short(p)}`), ...extra];
  const queries = [...systems.map((q) => `${q}&integrators=${all}`),
    ...systems.filter((q) => !q.includes('equal_cost=1')).map((q) => `${q}&integrators=${solvers}`)];
  const out = [];
  for (const q of queries) {
    // A rigid chain's reference cloud follows each of its 1072 points with the constrained rk45
    // reference (about 0.25 s of CPU a step for the 20-link hanging chain): 12 steps of it.
    const cloudSteps = q.includes('&duration=0.02') ? '12' : '120';
    out.push([`run ${q}`, ['run', q, '--format', 'json']]);
    out.push([`run csv ${q}`, ['run', q, '--every', '25']]);
    out.push([`cloud ${q}`, ['cloud', `${q}&cloud=48`, '--steps', cloudSteps, '--every', '10', '--format', 'json']]);
    out.push([`convergence ${q}`, ['convergence', q, '--halvings', '2', '--format', 'json']]);
    out.push([`stability ${q}`, ['stability', q, '--format', 'json']]);
    out.push([`trace ${q}`, ['trace', q, '--step', '3', '--format', 'json']]);
  }
  out.push(['stability', ['stability', '--format', 'json']]);
  return out;
}

export function digest(args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  return crypto.createHash('sha256').update(`${r.stdout}\n--stderr--\n${r.stderr}\n--status ${r.status}`).digest('hex');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const table = {};
  for (const [name, args] of cases()) table[name] = digest(args);
  const text = JSON.stringify(table, null, 1) + '\n';
  if (process.argv.includes('--write')) {
    fs.mkdirSync(path.dirname(pinnedFile), { recursive: true });
    fs.writeFileSync(pinnedFile, text);
    console.log(`pinned ${Object.keys(table).length} outputs in ${path.relative(root, pinnedFile)}`);
  } else {
    process.stdout.write(text);
  }
}
