// Measures the page on the game-physics solvers (not a test; the solvers issue, section 5): eight
// solver lanes, four methods at two settings each (20 substeps of one iteration, and one substep of
// 20 iterations: the same passes a step), on a 32-link chain stepped at dt = 1/60 s, at 1×, in
// headless Chromium. In three rounds interleaved with an empty page (this browser's own frame rate
// here): frames per second and the frame interval's p95 from requestAnimationFrame, the script's
// milliseconds per frame (stepping every lane and the reference, and drawing: the page's own
// timings) as median, p95 and worst, the longest main-thread task after Play, and the simulated
// seconds per wall second; and from a trace of another load, the main thread's CPU time per frame
// and its longest task in CPU time (what a shared machine's neighbours do not inflate). Writes its
// section of docs/performance-web.md (after its marker line: the file's last section, which
// scripts/measure-web.mjs and measure-chains.mjs keep).
//   bash scripts/build-site.sh && node scripts/measure-solvers.mjs
// --profile=FILE: instead, one load of the page with a CPU profile of 3 s of play written to FILE
// (a .cpuprofile, for Chrome's DevTools) and its heaviest functions by self time printed.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { startBrowser, openPage, root, sleep, mainThreadTasks } from '../tests/web/helpers.mjs';
import { solversMarker, median, emptyPage, playingPage } from './measure-frames.mjs';


// The four methods, each as 20 substeps of one iteration and one substep of 20 iterations.
const methods = ['xpbd', 'pbd', 'soft_step', 'vbd'];
const lanes = methods.flatMap((m) => [`${m}@20x1`, `${m}@1x20`]).join(',');
// A game's rope: 32 rigid links of 10 cm and 0.1 kg, released at 60°, one step of 1/60 s a frame.
const hash = `scenario=chain&integrators=${lanes}&links=32&m=0.1&length=0.1&compliance=0&g=9.81&theta0=60&` +
  'dt=0.016666666666666666&duration=1000';
const profileArg = process.argv.find((a) => a.startsWith('--profile='));

const env = await startBrowser();

// The main thread's own CPU time, which the neighbours on a shared machine do not add to: 3 s of
// play traced (each task's thread CPU time, as tests/web/longtasks.test.mjs reads it): the CPU
// milliseconds of its tasks per frame drawn, and its longest task.
async function tracedPage() {
  const { page, context } = await openPage(env, { width: 1440, height: 900, hash });
  await page.evaluate(() => window.stepwise.play());
  await sleep(1000);  // warm up
  await env.browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
  await page.evaluate(() => performance.mark('stepwise-test:start'));
  const frames = () => page.evaluate(() => window.stepwise.debug.timings().frames);
  const a = await frames();
  await sleep(3000);
  const b = await frames();
  const trace = JSON.parse((await env.browser.stopTracing()).toString());
  await context.close();
  const tasks = mainThreadTasks(trace);
  return {
    cpuPerFrame: tasks.reduce((sum, t) => sum + t.cpuMs, 0) / (b - a),
    longestCpu: Math.max(...tasks.map((t) => t.cpuMs)),
  };
}

// One load with the V8 CPU profiler over 3 s of play: the functions by self time.
async function profile(file) {
  const { page, context } = await openPage(env, { width: 1440, height: 900, hash });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await page.evaluate(() => window.stepwise.play());
  await sleep(1000);
  await cdp.send('Profiler.start');
  await sleep(3000);
  const { profile: p } = await cdp.send('Profiler.stop');
  await context.close();
  fs.writeFileSync(file, JSON.stringify(p));
  const self = new Map();
  const dt = new Map(p.nodes.map((n) => [n.id, 0]));
  p.samples.forEach((id, k) => dt.set(id, dt.get(id) + (p.timeDeltas[k] || 0)));
  let total = 0;
  for (const n of p.nodes) {
    const key = `${n.callFrame.functionName || '(anonymous)'} ${path.basename(n.callFrame.url || '')}:${n.callFrame.lineNumber + 1}`;
    self.set(key, (self.get(key) || 0) + dt.get(n.id));
    total += dt.get(n.id);
  }
  console.log(`profile of 3 s: ${(total / 1000).toFixed(0)} ms sampled; by self time:`);
  for (const [k, us] of [...self].sort((x, y) => y[1] - x[1]).slice(0, 25)) {
    console.log(`${(100 * us / total).toFixed(1).padStart(6)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`);
  }
}

if (profileArg) {
  await profile(profileArg.slice('--profile='.length));
  await env.close();
  process.exit(0);
}

const loadBefore = os.loadavg()[0];
const rounds = { empty: [], solvers: [], traced: [] };
for (let round = 0; round < 3; ++round) {
  rounds.empty.push(await emptyPage(env));
  rounds.solvers.push(await playingPage(env, hash));
  rounds.traced.push(await tracedPage());
}
await env.close();
const loadAfter = os.loadavg()[0];

const of = (id, field) => median(rounds[id].map((r) => r[field]));
const ms = (x) => `${x.toFixed(2)} ms`;
const emptyFps = of('empty', 'fps');
const met = of('solvers', 'fps') >= 0.95 * emptyFps && of('traced', 'longestCpu') <= 50;
const section = `${solversMarker}

## Game-physics solvers: eight lanes on a chain at 1×

Measured by \`node scripts/measure-solvers.mjs\` on ${new Date().toISOString().slice(0, 10)} (load average ${loadBefore.toFixed(1)} before,
${loadAfter.toFixed(1)} after, on ${os.cpus().length} cores), 1440 × 900, three rounds interleaved with an empty page;
each figure is the median of the three rounds (the worst script time: the median of each round's
worst frame). The page: \`${hash}\`: eight lanes, ${methods.join(', ')}, each at 20 substeps of one
iteration and at one substep of 20 iterations, on 32 rigid links of 10 cm and 0.1 kg released at
60°, one step of 1/60 s a frame, the reference (rk45 of the constrained equations) beside them.
*Script* is the page's own time per frame (wall clock): stepping every lane and the reference,
reading the state, drawing the canvas, the plots and the legend. *Main-thread CPU* is the thread
CPU time of all the main thread's tasks over 3 s of play (a trace) per frame drawn, and the
*longest task* the longest of them in CPU time (the wall-clock longest, from the page's long-task
observer, in brackets): on a loaded machine the wall-clock figures include the time the OS gave
the neighbours.

| page | frames/s | frame p95 | steps/frame | script/frame (median, p95, worst) | simulation | drawing | main-thread CPU/frame | longest task, CPU (wall) | simulated s per s |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
| empty page (this browser's rate) | ${emptyFps.toFixed(0)} | ${ms(of('empty', 'p95'))} | | | | | | | |
| 8 solver lanes, 32-link chain | ${of('solvers', 'fps').toFixed(0)} | ${ms(of('solvers', 'p95'))} | ${of('solvers', 'stepsPerFrame').toFixed(1)} | ` +
  `**${ms(of('solvers', 'script'))}**, ${ms(of('solvers', 'scriptP95'))}, ${ms(of('solvers', 'scriptWorst'))} | ${ms(of('solvers', 'sim'))} | ${ms(of('solvers', 'draw'))} | ` +
  `${ms(of('traced', 'cpuPerFrame'))} | ${ms(of('traced', 'longestCpu'))} (${of('solvers', 'longest').toFixed(0)} ms) | ${of('solvers', 'speed').toFixed(2)} |

Goal (the solvers issue, section 5): 60 frames/s at 1× with no task over 50 ms: ${met ? '**met**' : '**not met**'}.
Lanes that stopped during the run: ${rounds.solvers[0].stopped.join(', ') || 'none'}.

Where a frame's time goes (docs/benchmarks.md, "The solvers", has the profiles and the changes
they led to): the simulation is mostly the reference, rk45 of the rigid links' constrained
equations, not the eight solver lanes (8 % of a native run of this page's config); beyond the
script, the main thread paints, lays out and commits the page and its canvases (a software canvas
here, \`--disable-gpu\`). The frame rate is judged against the empty page's in the same run: on a
machine too busy for the empty page to reach 60 frames/s, this page cannot either.
`;

const doc = path.join(root, 'docs', 'performance-web.md');
const text = fs.readFileSync(doc, 'utf8');
const at = text.indexOf(solversMarker);
fs.writeFileSync(doc, `${(at >= 0 ? text.slice(0, at) : `${text.trimEnd()}\n\n`)}${section}`);
console.log(section);
