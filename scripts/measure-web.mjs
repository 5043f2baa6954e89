// Measures the playground (not a test): the sizes of the module and of the whole site gzipped,
// the time from navigation to the first drawn frame on loopback, the simulation and drawing
// time per frame with every integrator running on two_spring, and the same (median and p95 per
// frame, time to first frame) with phase-space clouds: four integrators × 100,000 points and all
// fifteen × 10,000, against the page without a cloud. Writes docs/performance-web.md.
//   bash scripts/build-site.sh && node scripts/measure-web.mjs
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import os from 'node:os';
import { createRequire } from 'node:module';
import { startBrowser, openPage, site, root, sleep } from '../tests/web/helpers.mjs';
import { chainsMarker, median, quantile, rafIntervals, emptyPageIntervals } from './measure-frames.mjs';

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

function siteFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? siteFiles(p) : [p];
  });
}

// The playground page: index.html and what it loads (other pages in public/ are not counted).
const pageFile = (f) => ['index.html', 'style.css', 'stepwise.js', 'stepwise.wasm'].includes(f) || f.startsWith('web/');
const files = siteFiles(site).filter((file) => pageFile(path.relative(site, file))).map((file) => {
  const data = fs.readFileSync(file);
  return { file: path.relative(site, file), raw: data.length, gzip: zlib.gzipSync(data, { level: 9 }).length };
});
const total = files.reduce((s, f) => ({ raw: s.raw + f.raw, gzip: s.gzip + f.gzip }), { raw: 0, gzip: 0 });
const of = (name) => files.find((f) => f.file === name);

const loadBefore = os.loadavg()[0];
const env = await startBrowser();
const firstFrames = [];
for (let i = 0; i < 7; ++i) {
  const { page, context } = await openPage(env, { hash: 'preset=damped_spring' });
  firstFrames.push(await page.evaluate(() => window.stepwise.debug.firstFrameMs));
  await context.close();
}

const all = 'explicit_euler,semi_implicit_euler,semi_implicit_euler_x,implicit_euler,newton,heun,midpoint,rk4,' +
  'leapfrog,stormer_verlet,velocity_verlet,yoshida4,kinematic,kinematic_avg,rk45';
// A measurement of a config the page refused (in part) would measure something else: stop.
async function usable(page, hash) {
  const errors = await page.evaluate(() => window.stepwise.errors());
  if (errors.length > 0) throw new Error(`${hash}: ${errors.join('; ')}`);
}

async function perFrame(speedExponent, dt, hash = `scenario=two_spring&integrators=${all}&dt=${dt}&duration=${Math.round(dt * 1e6)}`) {
  const { page, context } = await openPage(env, { width: 1440, height: 900, hash });
  await usable(page, hash);
  await page.locator('#speed').fill(String(speedExponent));
  await page.evaluate(() => window.stepwise.play());
  await sleep(1000);  // warm up
  const a = await page.evaluate(() => window.stepwise.debug.timings());
  await sleep(5000);
  const b = await page.evaluate(() => window.stepwise.debug.timings());
  await context.close();
  const frames = b.frames - a.frames;
  return {
    frames, fps: frames / 5, stepsPerFrame: (b.steps - a.steps) / frames,
    simMs: (b.simMs - a.simMs) / frames, drawMs: (b.drawMs - a.drawMs) / frames,
  };
}
// Frame intervals as a viewer sees them (script, style, raster and all): requestAnimationFrame's
// timestamps over 5 s after 1 s of playing. Three rounds, interleaved: an empty page (this
// browser's own frame rate on this machine, the reference), then all fifteen integrators on
// two_spring at 1× (dt = 0.01) and at 10× (dt = 0.001). Goal: 60 frames/s, p95 under 20 ms.
async function framesOf(kind) {
  if (kind === 'empty') return emptyPageIntervals(env);
  const [speed, dt] = kind === '10x' ? [1, 0.001] : [0, 0.01];
  const hash = `scenario=two_spring&integrators=${all}&dt=${dt}&duration=${Math.round(dt * 1e6)}`;
  const { page, context } = await openPage(env, { width: 1440, height: 900, hash });
  await usable(page, hash);
  await page.locator('#speed').fill(String(speed));
  await page.evaluate(() => window.stepwise.play());
  await sleep(1000);
  const gaps = await rafIntervals(page);
  await context.close();
  return gaps;
}
const frameKinds = ['empty', '1x', '10x'];
const frameRounds = Object.fromEntries(frameKinds.map((k) => [k, []]));
for (let round = 0; round < 3; ++round) {
  for (const kind of frameKinds) {
    const gaps = await framesOf(kind);
    frameRounds[kind].push({ fps: gaps.length / (gaps.reduce((a, b) => a + b, 0) / 1000), median: median(gaps), p95: quantile(gaps, 0.95) });
  }
}
// Each figure: the median over the three rounds.
const frameSummary = Object.fromEntries(frameKinds.map((k) => [k, {
  fps: median(frameRounds[k].map((r) => r.fps)), median: median(frameRounds[k].map((r) => r.median)),
  p95: median(frameRounds[k].map((r) => r.p95)), p95s: frameRounds[k].map((r) => r.p95),
}]));

const normal = await perFrame(0, 0.01);
const fast = await perFrame(1, 0.001);
const typical = await perFrame(0, 0.01, 'preset=damped_spring&duration=1000');

// Phase-space clouds: per-frame times (median, p95) over 5 s of playing at 1× after 1 s of
// warm-up, the time to the first frame (median of 3 loads), and where the time goes.
async function cloudRun(hash) {
  const loads = [];
  for (let i = 0; i < 3; ++i) {
    const { page, context } = await openPage(env, { width: 1440, height: 900, hash });
    await usable(page, hash);
    loads.push(await page.evaluate(() => window.stepwise.debug.firstFrameMs));
    if (i < 2) await context.close();
    else {
      const timings = () => page.evaluate(() => window.stepwise.debug.timings());
      const snap = () => page.evaluate(() => window.stepwise.state());
      await page.evaluate(() => window.stepwise.play());
      await sleep(1000);
      const a = await timings(), ta = (await snap()).t, wa = Date.now();
      await sleep(5000);
      const b = await timings(), tb = (await snap()).t, wb = Date.now();
      await context.close();
      const frames = b.frames - a.frames;
      const sim = b.recentSimMs.slice(-frames), draw = b.recentDrawMs.slice(-frames);
      const total = sim.map((x, k) => x + draw[k]);
      const per = (x, y) => (y - x) / Math.max(1, frames);
      const cloudDraws = (b.cloud?.draws ?? 0) - (a.cloud?.draws ?? 0);
      const perDraw = (k) => (cloudDraws > 0 ? ((b.cloud[k] - a.cloud[k]) / cloudDraws) : 0);
      return {
        hash, firstFrame: median(loads), frames, fps: frames / ((wb - wa) / 1000),
        speed: (tb - ta) / ((wb - wa) / 1000), stepsPerFrame: (b.steps - a.steps) / frames,
        sim: { median: median(sim), p95: quantile(sim, 0.95) }, draw: { median: median(draw), p95: quantile(draw, 0.95) },
        total: { median: median(total), p95: quantile(total, 0.95) },
        stepMs: b.stepMs,
        reads: b.reads ? {
          state: per(a.reads.state, b.reads.state), history: per(a.reads.history, b.reads.history), cloud: per(a.reads.cloud, b.reads.cloud),
        } : null,
        cloud: { draws: cloudDraws, ms: perDraw('ms'), fitMs: perDraw('fitMs'), pointsMs: perDraw('pointsMs'), putMs: perDraw('putMs') },
      };
    }
  }
}
const clouds = [
  ['no cloud (the default page: spring, 4 integrators)', await cloudRun('duration=1000')],
  ['(a) 4 default integrators × 100,000 points', await cloudRun('cloud=100000&duration=1000')],
  ['(b) all 15 integrators × 10,000 points', await cloudRun(`scenario=spring&integrators=${all}&cloud=10000&duration=1000`)],
];
await env.close();
const loadAfter = os.loadavg()[0];

// The cost of one step of a 100,000-point cloud per integrator (the spring, dt = 0.01), in Node
// with the same module (the full one, -O3, which computes the clouds): where a cloud's
// simulation time goes.
const createStepwise = createRequire(import.meta.url)(path.join(site, 'stepwise-full.js'));
const M = await createStepwise({ wasmBinary: fs.readFileSync(path.join(site, 'stepwise-full.wasm')) });
const stepCost = JSON.parse(M.tables()).integrators.map((info) => {
  const sim = new M.Simulation(`scenario=spring&integrators=${info.id}&cloud=100000`);
  sim.advanceSteps(2);
  const times = [];
  for (let k = 0; k < 5; ++k) {
    const t0 = performance.now();
    sim.advanceSteps(2);
    times.push((performance.now() - t0) / 2);
  }
  const t0 = performance.now();
  for (let k = 0; k < 5; ++k) sim.state();
  const state = (performance.now() - t0) / 5;
  sim.delete();
  return { id: info.id, name: info.name, step: median(times), state };
});
const ms = (x) => `${x.toFixed(2)} ms`;
const cloudRow = ([label, r]) => `| ${label} | ${r.firstFrame.toFixed(0)} ms | ${r.fps.toFixed(0)} | ${r.stepsPerFrame.toFixed(2)} | ` +
  `${r.speed.toFixed(2)}× | ${ms(r.sim.median)} / ${ms(r.sim.p95)} | ${ms(r.draw.median)} / ${ms(r.draw.p95)} | ` +
  `**${ms(r.total.median)}** / ${ms(r.total.p95)} |`;
const whereRow = ([label, r]) => `| ${label} | ${ms(r.stepMs)} | ${ms(r.reads.state)} | ${ms(r.reads.cloud)} | ` +
  `${r.cloud.draws ? `${ms(r.cloud.ms)} (fit ${ms(r.cloud.fitMs)}, points ${ms(r.cloud.pointsMs)}, putImageData ${ms(r.cloud.putMs)})` : '—'} |`;

const row = (label, r) => `| ${label} | ${r.fps.toFixed(0)} | ${r.stepsPerFrame.toFixed(1)} | ${r.simMs.toFixed(2)} ms | ${r.drawMs.toFixed(2)} ms |`;
const report = `# Web playground: sizes and timings

Measured by \`node scripts/measure-web.mjs\` (after \`bash scripts/build-site.sh\`) on ${new Date().toISOString().slice(0, 10)}:
${os.cpus().length} cores (${os.cpus()[0]?.model?.trim() || 'unknown CPU'}), headless Debian Chromium with \`--disable-gpu\`
(software canvas), the site served on 127.0.0.1 by \`scripts/serve.mjs\`. Numbers from a different machine
or a real GPU will differ; rerun the script to update this file.

## Sizes

| file | bytes | gzipped |
| --- | ---: | ---: |
| stepwise.wasm (the motion module) | ${of('stepwise.wasm').raw} (${kb(of('stepwise.wasm').raw)}) | ${kb(of('stepwise.wasm').gzip)} |
| stepwise.js (Emscripten loader + Embind) | ${of('stepwise.js').raw} (${kb(of('stepwise.js').raw)}) | ${kb(of('stepwise.js').gzip)} |
| web/*.js (the page's modules) | ${kb(files.filter((f) => f.file.startsWith('web/')).reduce((s, f) => s + f.raw, 0))} | ${kb(files.filter((f) => f.file.startsWith('web/')).reduce((s, f) => s + f.gzip, 0))} |
| index.html + style.css | ${kb(of('index.html').raw + of('style.css').raw)} | ${kb(of('index.html').gzip + of('style.css').gzip)} |
| **whole page** (${files.length} files) | ${kb(total.raw)} | **${kb(total.gzip)}** (target: under 150 KB) |

(gzip -9 of each file of build/site, summed: the motion module, built with -Oz; the full module, -O3, loads on
demand and is not counted here. \`node scripts/size-report.mjs\` reports the bundle the way it is served, docs/size.md.)

## Time to the first drawn frame

From navigation start to the end of the first frame drawn (\`performance.now()\` there, also marked as
\`stepwise:first-frame\`), damped spring preset, fresh browser context each time, 7 loads:
median **${median(firstFrames).toFixed(0)} ms** (min ${Math.min(...firstFrames).toFixed(0)} ms, max ${Math.max(...firstFrames).toFixed(0)} ms).

## Time per frame, every integrator on two_spring

All 15 integrators (including implicit Euler's Newton iteration and the adaptive rk45 lane) plus the
reference, 1440 × 900 window, 5 s of playing after 1 s of warm-up. *Simulation* is the one
\`advanceSteps\` call plus reading the flat state and the new history samples; *drawing* is the canvas,
the three plots and the legend.

| run | frames/s | steps/frame | simulation/frame | drawing/frame |
| --- | ---: | ---: | ---: | ---: |
${row('dt = 0.01, 1× speed', normal)}
${row('dt = 0.001, 10× speed', fast)}
| *for comparison: damped_spring preset, 4 integrators, 1×* | | | | |
${row('dt = 0.01, 1× speed', typical)}

The JavaScript side of a frame (both columns) stays far below the 16.7 ms of a 60 Hz display. With
all 15 lanes the frame rate here is nevertheless lower than 60 frames/s: without a GPU, Chromium
rasterises the canvases (15 trails, 30 coils, 45 plot lines, several dashed) in software after the
script returns, which this measurement does not count; the plots are redrawn at most 10 times a
second while playing to leave room for the animation. The typical preset runs at the display rate.

## Frames as a viewer sees them

\`requestAnimationFrame\` timestamps over 5 s of playing (after 1 s), 1440 × 900: everything the browser
does per frame, rasterising included. Three interleaved rounds of an empty page (this browser's
own rate on this machine), all 15 integrators on two_spring at 1× (dt = 0.01) and at 10×
(dt = 0.001); each figure is the median of the three rounds (the p95 of each round in brackets).
Goal: 60 frames/s with the frame p95 under 20 ms.

| page | frames/s | frame interval, median | p95 |
| --- | ---: | ---: | ---: |
${frameKinds.map((k) => `| ${{ empty: 'empty page (reference)', '1x': 'all 15, 1×', '10x': 'all 15, 10×' }[k]} | ${frameSummary[k].fps.toFixed(0)} | ${ms(frameSummary[k].median)} | ${ms(frameSummary[k].p95)} (${frameSummary[k].p95s.map((x) => x.toFixed(1)).join(', ')}) |`).join('\n')}

Goal ${['1x', '10x'].every((k) => frameSummary[k].p95 < 20 && frameSummary[k].fps >= 0.95 * frameSummary.empty.fps) ? '**met**' : '**not met**'}
(frames/s within 5 % of the empty page's and p95 under 20 ms at both speeds).

## Phase-space clouds

\`node scripts/measure-web.mjs\` also opens, in the same run and the same headless Chromium at
1440 × 900, the page without a cloud (for reference) and two cloud configs on the spring
(dt = 0.01, 1× speed): each loaded 3 times (time to first frame: the median), then played for 5 s
after 1 s of warm-up. Per frame, from \`stepwise.debug.timings()\`: *simulation* is the stepping
call plus reading the state, the new history samples and the clouds' points; *drawing* is the
motion canvas, the cloud panel (when the points changed), the legend and the plots (at most 10 times
a second, hence the p95). With clouds the page steps within a budget of 5 ms per frame (at least
one step): when one step costs more, the run goes slower than asked (the *speed* column, and the
"slowed" badge) instead of dropping frames. Goal: simulation + drawing under 8 ms per frame.

| run | first frame | frames/s | steps/frame | speed | simulation (median / p95) | drawing (median / p95) | **both** (median / p95) |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${clouds.map(cloudRow).join('\n')}

Where the time goes (per frame, or per cloud redraw):

| run | one step | reading the state | reading the clouds | one cloud redraw |
| --- | ---: | ---: | ---: | --- |
${clouds.map(whereRow).join('\n')}

One step of a cloud of 100,000 points, per integrator (spring, dt = 0.01; Node, the same module,
median of 5), and one \`state()\` read of that simulation (it counts the cloud's finite points):

| integrator | one step | one state() |
| --- | ---: | ---: |
${stepCost.map((r) => `| ${r.name} | ${ms(r.step)} | ${ms(r.state)} |`).join('\n')}

Load average of the machine (1 minute) before and after the browser runs: ${loadBefore.toFixed(2)} and
${loadAfter.toFixed(2)} on ${os.cpus().length} cores; other work on the machine makes these numbers
noisy.

### Reading these numbers

- **Goal (under 8 ms per frame for simulation + drawing): ${clouds.slice(1).every(([, r]) => r.total.median < 8) ? 'met at the median' : 'not met'}**
  (median ${clouds.slice(1).map(([, r]) => ms(r.total.median)).join(' and ')} for (a) and (b); p95
  ${clouds.slice(1).map(([, r]) => ms(r.total.p95)).join(' and ')}). Without a cloud the page takes
  ${ms(clouds[0][1].total.median)}: a cloud of 0 costs nothing (no panel, no plot, no call).
- Most of the time is the module's: one step of the clouds (${ms(clouds[1][1].stepMs)} in (a),
  ${ms(clouds[2][1].stepMs)} in (b), where the adaptive Dormand–Prince lane and implicit Euler's
  Newton iteration dominate, see the table above), and reading the state
  (${ms(clouds[1][1].reads.state)} per frame in (a), against ${ms(clouds[0][1].reads.state)} without
  a cloud): \`state()\` counts every cloud's finite points at each read (\`points_finite\`); counted
  once per step in the module it would cost nothing here.
- Reading the clouds' points (\`cloudPoints()\`: the module writes floats, the page copies them
  into a buffer of its own) takes ${ms(clouds[1][1].reads.cloud)} per frame in (a).
- Drawing: one redraw of the cloud panel writes every point as one pixel of an ImageData
  (${ms(clouds[1][1].cloud.pointsMs)} for 4 × 100,000 points, fitting the windows
  ${ms(clouds[1][1].cloud.fitMs)}, \`putImageData\` ${ms(clouds[1][1].cloud.putMs)}); while playing, a
  redraw costing more than 3 ms is repeated at most every 30 ms, so the clouds move at about
  30 frames a second while the motion canvas keeps the display's rate.
- The step budget of 5 ms per frame lets ${clouds.slice(1).map(([, r]) => r.stepsPerFrame.toFixed(2)).join(' and ')}
  steps per frame through (at least one): the runs play at
  ${clouds.slice(1).map(([, r]) => `${r.speed.toFixed(2)}×`).join(' and ')} of real time instead of 1× (the page shows "slowed").
`;
fs.mkdirSync(path.join(root, 'docs'), { recursive: true });
// The chains' section (scripts/measure-chains.mjs) is kept as it is.
const docPath = path.join(root, 'docs/performance-web.md');
const previous = fs.existsSync(docPath) ? fs.readFileSync(docPath, 'utf8') : '';
const chains = previous.indexOf(chainsMarker);
fs.writeFileSync(docPath, chains >= 0 ? `${report.trimEnd()}\n\n${previous.slice(chains)}` : report);
console.log(report);
