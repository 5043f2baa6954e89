// Measures the default page's first frame (issue 32 §1; not a test): dist/ as it is (this script
// builds nothing) served by scripts/serve.mjs on a free port, index.html with no hash loaded in
// headless Chromium `loads` times on each profile (profiles below: a slow line with a slow CPU,
// and unthrottled), a fresh context (empty cache, no service worker) each time. Reports, as the
// median and range of the loads:
// - the time from navigation to the first frame (the page's performance.mark('stepwise:first-frame'));
// - the requests made before it (Resource Timing, the page itself counted, as scripts/size-report.mjs
//   counts them) and their gzip bytes (the .gz beside each file in dist/);
// - where the time goes: when the motion module's wasm request starts and when its last byte
//   arrives (Resource Timing), when the page's first script starts to run (a trace's first
//   EvaluateScript or v8.evaluateModule of the site), and the main thread's busy time (its tasks'
//   wall time, which the CPU throttling stretches) before the first script, from it to the wasm's
//   last byte, and from that to the first frame.
// Writes its table into docs/performance-web.md between its two marker lines (both profiles,
// streaming; unless --no-write), with the machine's load average: a shared, loaded machine makes
// these numbers noisy. Several builds (dist folders) are measured interleaved, a load of each in
// turn, so that they share the machine's ups and downs: a before and an after. With several, the
// table has a row per build and profile, and each build's first frame over the first build's (the
// ratio of their medians) is stated per profile.
//   node scripts/measure-first-frame.mjs [dist=dist …] [--loads=7] [--profile=slow|unthrottled]
//     [--labels=A,B,…] [--no-streaming[=A,…]] [--no-write]
// --labels names the builds in the printed lines (their folders' names by default); the same
// folder may be given twice under two labels. --no-streaming (for every build, or for the labels
// named) takes WebAssembly.instantiateStreaming and compileStreaming away before the page runs,
// so the loader falls back to compiling the whole downloaded module (the comparison the docs report).
// A page error or a failed request of a load stops the measurement: it would measure something else.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';
import { fileSizes, firstFrameLoads } from './size-report.mjs';
import { chromiumArgs, mainThreadTasks } from '../tests/web/helpers.mjs';
import { median, chainsMarker } from './measure-frames.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const firstFrameBegin = '<!-- scripts/measure-first-frame.mjs writes from here -->';
export const firstFrameEnd = '<!-- scripts/measure-first-frame.mjs writes up to here -->';

// The profiles: Chromium's own network emulation (DevTools' Network.emulateNetworkConditions:
// latency added to each request, the throughput shared by all of the page's requests) and CPU
// throttling (Emulation.setCPUThrottlingRate). The slow one is a school's shared line or an old phone.
export const profiles = [
  {
    name: 'slow', title: '1.6 Mbps down, 750 kbps up, 150 ms latency, CPU 4× slower',
    network: { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 }, cpuRate: 4,
  },
  { name: 'unthrottled', title: 'no throttling (loopback, this machine\'s CPU)', network: null, cpuRate: 1 },
];

const args = process.argv.slice(2);
const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const given = args.filter((a) => !a.startsWith('--'));
const dists = (given.length ? given : [path.join(root, 'dist')]).map((d) => path.resolve(d));
const loads = Number(option('loads') || 7);
const only = option('profile');
const noStreamingFor = args.includes('--no-streaming') ? 'all' : option('no-streaming')?.split(',') ?? [];
const labels = option('labels')?.split(',') || dists.map((d) => path.basename(d));
const write = !args.includes('--no-write') && noStreamingFor.length === 0 && !only;
for (const dist of dists.filter((d) => !fs.existsSync(path.join(d, 'index.html')))) {
  console.error(`measure-first-frame: ${dist} has no index.html: build it first (node scripts/build-dist.mjs)`);
  process.exit(2);
}
if (labels.length !== dists.length) {
  console.error(`measure-first-frame: --labels names ${labels.length} builds; ${dists.length} are measured`);
  process.exit(2);
}
if (!Number.isInteger(loads) || loads < 1) {
  console.error(`measure-first-frame: --loads must be a whole number of at least 1; got '${option('loads')}'`);
  process.exit(2);
}
if (only && !profiles.some((p) => p.name === only)) {
  console.error(`measure-first-frame: --profile must be ${profiles.map((p) => p.name).join(' or ')}; got '${only}'`);
  process.exit(2);
}

// What the main thread does from the page's first script to its first frame, by kind: each trace
// event's own time (less the events inside it), by its name; the rest (the tasks' own time, the
// browser's messages) is "other".
const workKinds = [
  { kind: 'script', names: /^(FunctionCall|EvaluateScript|v8\.evaluateModule|v8\.compile|v8\.compileModule|v8\.callFunction|v8\.run|TimerFire|FireAnimationFrame|FireIdleCallback|EventDispatch|BlinkScheduler_PerformMicrotaskCheckpoint|RunMicrotasks|v8\.produceModuleCache|v8\.produceCache|ResizeObserver.*|IntersectionObserverController.*)$/ },
  { kind: 'WebAssembly', names: /^(v8\.wasm\..*|v8\.newInstance|WebAssembly.*)$/ },
  { kind: 'style and layout', names: /^(Layout|UpdateLayoutTree|RecalculateStyles|PrePaint|ParseAuthorStyleSheet|ScheduleStyleRecalculation|InvalidateLayout|UpdateLayerTree|HitTest)$/ },
  { kind: 'paint', names: /^(Paint|PaintImage|Commit|Layerize|CompositeLayers|UpdateLayer|Rasterize.*|Decode.*)$/ },
  { kind: 'HTML', names: /^(ParseHTML|HTMLDocumentParser::.*)$/ },
  { kind: 'garbage collection', names: /^(V8\.GC.*|MajorGC|MinorGC|BlinkGC.*|CppGC.*)$/ },
];
function workByKind(events, thread, from, to) {
  const spans = events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === thread && e.ts >= from && e.ts + (e.dur || 0) <= to)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur).map((e) => ({ name: e.name, ts: e.ts, end: e.ts + (e.dur || 0), own: e.dur || 0 }));
  const open = [];
  for (const e of spans) {
    while (open.length && open[open.length - 1].end <= e.ts) open.pop();
    if (open.length) open[open.length - 1].own -= e.end - e.ts;
    open.push(e);
  }
  const out = Object.fromEntries([...workKinds.map((k) => k.kind), 'other'].map((k) => [k, 0]));
  for (const e of spans) out[workKinds.find((k) => k.names.test(e.name))?.kind ?? 'other'] += e.own / 1000;
  return out;
}

// Before the page's first script: the start mark mainThreadTasks counts from, and, for
// --no-streaming, no streaming compilation (Emscripten's loader then fetches the bytes and compiles them whole).
const noStreaming = () => {
  delete WebAssembly.instantiateStreaming;
  delete WebAssembly.compileStreaming;
};

async function measureLoad(browser, url, profile, streaming) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`); });
  try {
    await page.addInitScript(() => performance.mark('stepwise-test:start'));
    if (!streaming) await page.addInitScript(noStreaming);
    const cdp = await context.newCDPSession(page);
    if (profile.network) {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', profile.network);
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuRate });
    await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel', 'blink.user_timing'] });
    let trace;
    try {
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForFunction(() => performance.getEntriesByName('stepwise:first-frame').length > 0, null, { timeout: 180000, polling: 50 });
    } finally {
      trace = JSON.parse((await browser.stopTracing()).toString());
    }
    if (problems.length) throw new Error(`measure-first-frame: ${url}: ${problems.join('; ')}`);
    const loaded = await firstFrameLoads(page.mainFrame());
    const timing = await page.evaluate(() => {
      const wasm = performance.getEntriesByType('resource').find((e) => /\/stepwise(-[0-9a-f]+)?\.wasm$/.test(new URL(e.name).pathname));
      return {
        firstFrame: performance.getEntriesByName('stepwise:first-frame')[0].startTime,
        wasm: wasm ? { start: wasm.startTime, end: wasm.responseEnd } : null,
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      };
    });
    // The trace's clock against the page's: the first-frame mark is in both.
    const events = trace.traceEvents;
    const mark = events.find((e) => e.name === 'stepwise:first-frame');
    const toPage = (ts) => (ts - mark.ts) / 1000 + timing.firstFrame;
    const origin = new URL(url).origin;
    const scriptOf = (e) => e.args?.data?.url || e.args?.data?.fileName || e.args?.fileName || '';
    // A classic script's evaluation names its file; a module's (v8.evaluateModule) does not, so
    // it is the first on the thread that compiled the site's modules, after the first of them.
    const site = events.filter((e) => scriptOf(e).startsWith(origin));
    const thread = (e) => `${e.pid}:${e.tid}`;
    const compiled = site.filter((e) => e.name === 'v8.compileModule');
    const firstCompile = Math.min(...compiled.map((e) => e.ts));
    const moduleThreads = new Set(compiled.map(thread));
    const starts = [
      ...site.filter((e) => e.name === 'EvaluateScript'),
      ...events.filter((e) => e.name === 'v8.evaluateModule' && moduleThreads.has(thread(e)) && e.ts >= firstCompile),
    ].map((e) => e.ts);
    const firstScriptTs = starts.length ? Math.min(...starts) : null;
    const firstScript = firstScriptTs === null ? null : toPage(firstScriptTs);
    const mainThread = [...moduleThreads][0] ?? `${mark.pid}:${mark.tid}`;
    const work = workByKind(events, mainThread, firstScriptTs ?? -Infinity, mark.ts);
    const tasks = mainThreadTasks(trace).map((t) => ({ start: toPage(t.ts), ms: t.wallMs }));
    // A task's time inside [from, to): the one that runs the page's script began before it.
    const busy = (from, to) => tasks.reduce((sum, t) => sum + Math.max(0, Math.min(to, t.start + t.ms) - Math.max(from, t.start)), 0);
    const wasmEnd = timing.wasm ? timing.wasm.end : timing.firstFrame;
    return {
      ...timing, firstScript, requests: loaded.before, work,
      busy: {
        beforeScript: busy(-Infinity, firstScript ?? 0),
        toWasmEnd: busy(firstScript ?? 0, wasmEnd),
        afterWasm: busy(wasmEnd, timing.firstFrame + 1e-6),
      },
    };
  } finally {
    await context.close();
  }
}

function summarise(profile, runs, sizes) {
  const requests = runs.map((r) => r.requests.length);
  const gzip = runs.map((r) => r.requests.reduce((n, f) => n + (sizes.get(f)?.gzip ?? 0), 0));
  return {
    profile, runs,
    firstFrame: summary(runs.map((r) => r.firstFrame)),
    paint: summary(runs.map((r) => r.paint)),
    requests: summary(requests), gzip: summary(gzip),
    files: [...new Set(runs.flatMap((r) => r.requests))].sort(),
    wasmStart: summary(runs.map((r) => r.wasm?.start ?? null)),
    wasmEnd: summary(runs.map((r) => r.wasm?.end ?? null)),
    firstScript: summary(runs.map((r) => r.firstScript)),
    busyBeforeScript: summary(runs.map((r) => r.busy.beforeScript)),
    busyToWasmEnd: summary(runs.map((r) => r.busy.toWasmEnd)),
    busyAfterWasm: summary(runs.map((r) => r.busy.afterWasm)),
    work: Object.fromEntries(Object.keys(runs[0].work).map((k) => [k, summary(runs.map((r) => r.work[k]))])),
  };
}

const summary = (values) => {
  const list = values.filter((v) => v !== null && Number.isFinite(v));
  return list.length ? { median: median(list), min: Math.min(...list), max: Math.max(...list) } : null;
};
const ms = (s) => (s ? `${Math.round(s.median)} ms (${Math.round(s.min)}–${Math.round(s.max)})` : '—');
const sec = (s) => (s ? `**${(s.median / 1000).toFixed(2)} s** (${(s.min / 1000).toFixed(2)}–${(s.max / 1000).toFixed(2)})` : '—');

const loadBefore = os.loadavg();
const builds = await Promise.all(dists.map(async (dist, i) => ({
  dist, label: labels[i], streaming: noStreamingFor !== 'all' && !noStreamingFor.includes(labels[i]), sizes: new Map(fileSizes(dist).map((f) => [f.file, f])), server: await startServer({ root: dist, port: 0 }),
})));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: chromiumArgs });
const results = [];
try {
  for (const profile of profiles.filter((p) => !only || p.name === only)) {
    const runs = builds.map(() => []);
    for (let i = 0; i < loads; ++i) {
      for (const [b, build] of builds.entries()) runs[b].push(await measureLoad(browser, build.server.url, profile, build.streaming));
    }
    for (const [b, build] of builds.entries()) {
      const result = summarise(profile, runs[b], build.sizes);
      results.push({ build, ...result });
      console.log(`${build.label}${build.streaming ? '' : ' (no streaming compilation)'}, ${profile.name}: first frame ${ms(result.firstFrame)}; ` +
        `${result.requests.median} requests before it (${result.requests.min}–${result.requests.max}), ` +
        `${(result.gzip.median / 1024).toFixed(1)} KB gzip; wasm from ${ms(result.wasmStart)} to ${ms(result.wasmEnd)}; ` +
        `first script at ${ms(result.firstScript)}; first paint ${ms(result.paint)}; main thread busy ` +
        `${ms(result.busyBeforeScript)} before the first script, ${ms(result.busyToWasmEnd)} from it to the wasm's last byte, ` +
        `${ms(result.busyAfterWasm)} from that to the first frame`);
      console.log(`  requested before the first frame: ${result.files.join(', ')}`);
      console.log(`  main thread from the first script to the first frame: ${Object.entries(result.work).map(([k, v]) => `${k} ${ms(v)}`).join(', ')}`);
    }
  }
} finally {
  await browser.close();
  for (const build of builds) await build.server.close();
}
const loadAfter = os.loadavg();

if (write) {
  const several = builds.length > 1;
  const buildCell = (r) => (several ? `${r.build.label} | ` : '');
  const row = (r) => `| ${buildCell(r)}${r.profile.title} | ${sec(r.firstFrame)} | ${r.requests.median}${r.requests.min !== r.requests.max ? ` (${r.requests.min}–${r.requests.max})` : ''} | ` +
    `${(r.gzip.median / 1024).toFixed(1)} KB | ${ms(r.firstScript)} | ${ms(r.wasmStart)} | ${ms(r.wasmEnd)} | ` +
    `${ms(r.busyBeforeScript)} | ${ms(r.busyToWasmEnd)} | ${ms(r.busyAfterWasm)} | ${ms(r.paint)} |`;
  const measured = profiles.filter((p) => results.some((r) => r.profile === p));
  // Each build's first frame over the first build's, per profile (the ratio of the medians).
  const ratios = several ? measured.map((p) => {
    const [first, ...rest] = results.filter((r) => r.profile === p);
    return `On the ${p.name} profile: ${rest.map((r) => `${r.build.label} ${(r.firstFrame.median / first.firstFrame.median).toFixed(2)} × ${first.build.label}'s first frame ` +
      `(${Math.round(r.firstFrame.median)} against ${Math.round(first.firstFrame.median)} ms)`).join('; ')}.`;
  }).join('\n') : '';
  const builtFrom = several ? ` Builds, measured interleaved (a load of each in turn, ${loads} of each): ` +
    `${builds.map((b) => b.label).join(', ')}.` : '';
  const section = `${firstFrameBegin}

## The default page's first frame

Measured by \`node scripts/measure-first-frame.mjs\` on ${new Date().toISOString().slice(0, 10)}, on this shared machine while
other work ran (load average ${loadBefore[0].toFixed(1)} before, ${loadAfter[0].toFixed(1)} after, on ${os.cpus().length} cores): dist/ served by
scripts/serve.mjs on loopback, index.html with no hash in headless Chromium at 1280 × 860, ${loads} loads on
each profile, each in a fresh context (empty cache, no service worker).${builtFrom} Each figure is the median
of the loads (their range in brackets), in ms from navigation. The slow profile is Chromium's
network emulation and CPU throttling: 1.6 Mbps down, 750 kbps up, 150 ms added to each request,
the CPU 4× slower. *Requests* are the page's own (the page itself counted) made before the first
frame, *gzip* their bytes as gzip -9 (the server sends brotli where the browser takes it). *Busy*
is the main thread's time in tasks (wall time: the throttling stretches it) before the page's
first script, from it to the wasm's last byte, and from that to the first frame. Goal (issue 32):
the first frame within 1.0 s on the slow profile and 300 ms unthrottled.

| ${several ? 'build | ' : ''}profile | first frame | requests | gzip | first script runs | wasm request starts | wasm's last byte | busy before the first script | busy from it to the wasm's last byte | busy from that to the first frame | first paint |
| ${several ? '--- | ' : ''}--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${results.map(row).join('\n')}
${ratios ? `\n${ratios}\n` : ''}
Requested before the first frame: ${builds.map((b) => `${several ? `${b.label}: ` : ''}${results.find((r) => r.build === b).files.map((f) => `\`${f}\``).join(', ')}`).join('; ')}.

The main thread from the page's first script to its first frame, by kind (each trace event's own
time by its name; *other* is the tasks' own time and the browser's messages, and on the slow
profile the throttling's pauses; medians, ms):

| ${several ? 'build | ' : ''}profile | ${Object.keys(results[0].work).join(' | ')} |
| ${several ? '--- | ' : ''}--- | ${Object.keys(results[0].work).map(() => '---:').join(' | ')} |
${results.map((r) => `| ${buildCell(r)}${r.profile.name} | ${Object.values(r.work).map((v) => Math.round(v.median)).join(' | ')} |`).join('\n')}

${firstFrameEnd}`;
  const doc = path.join(root, 'docs', 'performance-web.md');
  const text = fs.readFileSync(doc, 'utf8');
  const a = text.indexOf(firstFrameBegin), b = text.indexOf(firstFrameEnd);
  const next = a >= 0 && b > a ? text.slice(0, a) + section + text.slice(b + firstFrameEnd.length)
    : text.replace(chainsMarker, `${section}\n\n${chainsMarker}`);
  fs.writeFileSync(doc, next);
  console.log(`measure-first-frame: wrote its section of ${path.relative(root, doc)}`);
}
