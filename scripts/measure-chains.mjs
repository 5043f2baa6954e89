// Measures the page on linked systems (not a test; issue 20 §5): all fifteen integrators on a
// 16-link compliant chain and eight on a 32-link one, at 1×, in headless Chromium. For each, in
// three interleaved rounds with an empty page (this browser's own frame rate here): frames per
// second and the frame interval's p95 from requestAnimationFrame, the script's milliseconds per
// frame (simulation and drawing, the page's own timings), the longest main-thread task, and the
// simulated seconds per wall second. Writes its section of docs/performance-web.md (after the
// marker line, which scripts/measure-web.mjs keeps).
//   bash scripts/build-site.sh && node scripts/measure-chains.mjs
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { startBrowser, root } from '../tests/web/helpers.mjs';
import { chainsMarker as marker, solversMarker, median, emptyPage, playingPage } from './measure-frames.mjs';
const all = 'explicit_euler,semi_implicit_euler,semi_implicit_euler_x,implicit_euler,newton,heun,midpoint,rk4,' +
  'leapfrog,stormer_verlet,velocity_verlet,yoshida4,kinematic,kinematic_avg,rk45';
const eight = 'semi_implicit_euler,implicit_euler,heun,midpoint,rk4,leapfrog,velocity_verlet,yoshida4';
// A game's chain: links of 10 cm and 0.1 kg, stiffness 1/α = 10⁴ N/m (its fastest mode about
// 630 rad/s, so ω·dt ≈ 0.6 at 1 kHz), released at 60°, stepped at dt = 1 ms.
const chain = (links, integrators) =>
  `scenario=chain&integrators=${integrators}&links=${links}&m=0.1&length=0.1&compliance=0.0001&g=9.81&theta0=60&dt=0.001&duration=1000`;
const cases = [
  { id: 'c16', label: '16-link compliant chain, all 15 integrators', hash: chain(16, all) },
  { id: 'c32', label: '32-link compliant chain, 8 integrators', hash: chain(32, eight) },
];

const env = await startBrowser();
const loadBefore = os.loadavg()[0];

const rounds = { empty: [], ...Object.fromEntries(cases.map((c) => [c.id, []])) };
for (let round = 0; round < 3; ++round) {
  rounds.empty.push(await emptyPage(env));
  for (const c of cases) rounds[c.id].push(await playingPage(env, c.hash));
}
await env.close();
const loadAfter = os.loadavg()[0];

const of = (id, field) => median(rounds[id].map((r) => r[field]));
const ms = (x) => `${x.toFixed(2)} ms`;
const emptyFps = of('empty', 'fps');
const met = (id) => of(id, 'fps') >= 0.95 * emptyFps && of(id, 'longest') <= 50;
const section = `${marker}

## Linked systems: chains at 1×

Measured by \`node scripts/measure-chains.mjs\` on ${new Date().toISOString().slice(0, 10)} (load average ${loadBefore.toFixed(1)} before,
${loadAfter.toFixed(1)} after, on ${os.cpus().length} cores), 1440 × 900, three rounds interleaved with an empty page;
each figure is the median of the three rounds. The chains: links of 10 cm and 0.1 kg, compliance
1e-4 m/N (stiffness 10⁴ N/m), released at 60°, dt = 1 ms (17 steps a frame at 60 Hz), the
reference (rk45 at a tight tolerance) beside them. *Script* is the page's own time per frame:
stepping every lane and the reference, reading the state, drawing the canvas, the plots and the
legend; *frames/s* and the *frame p95* are what a viewer sees (requestAnimationFrame, rasterising
included); the *longest task* is the longest main-thread task after Play.

| page | frames/s | frame p95 | steps/frame | script/frame (median, p95) | simulation | drawing | longest task | simulated s per s |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
| empty page (this browser's rate) | ${emptyFps.toFixed(0)} | ${ms(of('empty', 'p95'))} | | | | | | |
${cases.map((c) => `| ${c.label} | ${of(c.id, 'fps').toFixed(0)} | ${ms(of(c.id, 'p95'))} | ${of(c.id, 'stepsPerFrame').toFixed(1)} | ` +
  `**${ms(of(c.id, 'script'))}**, ${ms(of(c.id, 'scriptP95'))} | ${ms(of(c.id, 'sim'))} | ${ms(of(c.id, 'draw'))} | ` +
  `${of(c.id, 'longest').toFixed(0)} ms | ${of(c.id, 'speed').toFixed(2)} |`).join('\n')}

Goal (issue 20): 60 frames/s at 1× with no task over 50 ms: ${cases.map((c) => `${c.label}: ${met(c.id) ? '**met**' : '**not met**'}`).join('; ')}.
Lanes that stopped during the run (a diverging lane is a lesson, not a cost): ${cases.map((c) => `${c.id === 'c16' ? '16 links' : '32 links'}: ${rounds[c.id][0].stopped.join(', ') || 'none'}`).join('; ')}.
`;

const doc = path.join(root, 'docs', 'performance-web.md');
const text = fs.readFileSync(doc, 'utf8');
const at = text.indexOf(marker), solvers = text.indexOf(solversMarker);
// The solvers' section after it (scripts/measure-solvers.mjs) is kept as it is.
fs.writeFileSync(doc, `${(at >= 0 ? text.slice(0, at) : `${text.trimEnd()}\n\n`)}${section}` +
  (solvers >= 0 ? `\n${text.slice(solvers)}` : ''));
console.log(section);
