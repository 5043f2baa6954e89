// Shared setup for the browser tests: the bundle that ships (dist/) served on a free loopback port
// by scripts/serve.mjs, and Debian's Chromium driven by playwright-core (never a downloaded
// browser; docs/toolchain.md). Every response of 400 or more and every console error or uncaught
// exception of a page they open fails the test it happens in (watchContext).
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { afterEach } from 'node:test';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { chromiumArgs } from '../../scripts/chromium.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The assembled site (scripts/build-site.sh) that dist/ is built from: the WebAssembly modules
// under their own names, for the tests that run them in node, and the input of dist.test.
export const builtSite = process.env.STEPWISE_BUILT_SITE || path.join(root, 'build/site');
// What the browser tests serve: dist/ (node scripts/build-dist.mjs), what a school hosts; or
// another site named by STEPWISE_SITE (STEPWISE_SITE=build/site: the modules unbundled, to debug).
export const defaultSite = path.join(root, 'dist');
export const site = process.env.STEPWISE_SITE || defaultSite;
export const artifacts = path.join(root, 'test-artifacts');

// The problems of every page watched since the last test ended, and the ones the running test
// expects (allowProblems): checked and forgotten after each test.
const unexpected = [];
let allowed = [];
const watched = new WeakSet();
export function watchContext(context) {
  if (watched.has(context)) return context;
  watched.add(context);
  context.on('response', (r) => { if (r.status() >= 400) unexpected.push(`${r.status()} ${r.request().method()} ${r.url()}`); });
  context.on('console', (m) => {
    if (m.type() === 'error') unexpected.push(`console error: ${m.text()} (${m.location().url || 'no source'})`);
  });
  context.on('weberror', (e) => unexpected.push(`pageerror: ${e.error().message}`));
  return context;
}
// A test that provokes problems on purpose names them (regular expressions over the texts above).
export function allowProblems(...patterns) { allowed.push(...patterns); }
// The problems so far that no allowProblems pattern matches (the ones the next check would fail on).
export const unexpectedProblems = () => unexpected.filter((p) => !allowed.some((a) => a.test(p)));
afterEach(() => {
  const found = unexpectedProblems();
  unexpected.length = 0;
  allowed = [];
  assert.deepEqual(found, [], 'no response of 400 or more, no console error, no uncaught exception on a page');
});

// The bundle must be built from the current site: a dist/ older than build/site would test what
// an earlier build shipped.
function checkSite() {
  if (!fs.existsSync(path.join(site, 'index.html'))) {
    throw new Error(`no built site in ${site}: run scripts/build-site.sh, then node scripts/build-dist.mjs`);
  }
  const built = path.join(builtSite, 'index.html');
  if (site === defaultSite && fs.existsSync(built) && fs.statSync(built).mtimeMs > fs.statSync(path.join(site, 'index.html')).mtimeMs) {
    throw new Error(`${site} is older than ${builtSite}: run node scripts/build-dist.mjs`);
  }
}

export { chromiumArgs };

export async function startBrowser() {
  checkSite();
  const server = await startServer({ root: site, port: 0 });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: chromiumArgs,
  });
  // Every context of this browser is watched, the ones a test makes itself too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => watchContext(await newContext(...args));
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

// The host pages of tests/web/fixtures: a tutorial's own site stand-in, on another loopback port
// (so another origin than the site) and with no policy of ours (they use inline script).
export function startHostServer() {
  return startServer({ root: path.join(root, 'tests/web/fixtures'), port: 0, policy: null });
}

// Counts every non-finite number handed to a canvas drawing call: none may ever reach it. Also
// keeps the distinct texts drawn (window.__texts, at most 5000): no 'NaN' may be among them, and
// the farthest point a line went to (window.__farthestPathPx: a canvas dashes a line along its
// whole length, so lines must be cut to what can be seen).
const canvasGuard = () => {
  window.__nonFinite = [];
  window.__texts = new Set();
  window.__farthestPathPx = 0;
  const proto = CanvasRenderingContext2D.prototype;
  for (const name of ['moveTo', 'lineTo', 'arc', 'rect', 'fillRect', 'strokeRect', 'fillText', 'translate']) {
    const original = proto[name];
    proto[name] = function guarded(...args) {
      for (const a of args) {
        if (typeof a === 'number' && !Number.isFinite(a)) window.__nonFinite.push(name);
      }
      if (name === 'fillText' && window.__texts.size < 5000) window.__texts.add(String(args[0]));
      if (name === 'moveTo' || name === 'lineTo') {
        window.__farthestPathPx = Math.max(window.__farthestPathPx, Math.abs(args[0]), Math.abs(args[1]));
      }
      return original.apply(this, args);
    };
  }
};

// The texts drawn on any canvas of the page so far.
export const canvasTexts = (page) => page.evaluate(() => [...window.__texts]);

// Records every long task (a main-thread task over 50 ms, Chromium's 'longtask' entries) into
// window.__longTasks as {start, ms}, from the first script on.
export const longTaskRecorder = () => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
};

// A page at `hash` with its console errors, page errors and failed requests collected. path: the
// page under the site's root ('' is index.html; 'embed.html?ui=compact', '?embed=1'). unfold: the
// settings that fold away on the first screen (details.fold: the integrators' list, "More") are
// opened, so a test reaches every field as a user who opened them does (first-screen.test keeps
// them shut).
export async function openPage(env, { hash = '', width = 1280, height = 860, scheme = 'light', path: page0 = '', unfold = true } = {}) {
  const context = watchContext(await env.browser.newContext({ viewport: { width, height }, colorScheme: scheme }));
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => {
    // A frame inside the page whose address changed again while it loaded (the Embed dialog's
    // preview, when options change quickly) aborts its old requests: that is not a failure.
    const aborted = r.failure()?.errorText === 'net::ERR_ABORTED';
    let inner = true;
    try { inner = r.frame() !== page.mainFrame(); } catch { /* a detached frame */ }
    if (!(aborted && inner)) problems.push(`requestfailed: ${r.url()}`);
  });
  await page.addInitScript(canvasGuard);
  await page.addInitScript(longTaskRecorder);
  await page.goto(env.server.url + page0 + (hash ? `#${hash}` : ''));
  await page.evaluate(() => window.stepwise.ready);
  if (unfold) await page.evaluate(() => { for (const d of document.querySelectorAll('details.fold')) d.open = true; });
  return { page, context, problems };
}

export const state = (page) => page.evaluate(async () => { await window.stepwise.settled(); return window.stepwise.state(); });
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Waits for n animation frames of a page or frame: the unit a negative check counts in ("held for
// 60 frames"), where a playing run that is not held advances every frame however slow the machine.
export const framesPass = (target, n) => target.evaluate((count) => new Promise((done) => {
  let k = 0;
  const next = () => { if (++k >= count) done(); else requestAnimationFrame(next); };
  requestAnimationFrame(next);
}), n);

export async function screenshot(page, name, options = {}) {
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), ...options });
}

// Opens a page, runs fn(page, p), then checks that no NaN or infinity reached a canvas and that
// there was no console error or warning and no failed request.
export async function pageChecks(env, options, fn) {
  const p = await openPage(env, options);
  try {
    await fn(p.page, p);
    const nonFinite = await p.page.evaluate(() => window.__nonFinite);
    assert.deepEqual(nonFinite, [], 'no NaN or infinity reached the canvas');
    const texts = (await canvasTexts(p.page)).filter((t) => /NaN|Infinity/.test(t));
    assert.deepEqual(texts, [], 'no NaN or Infinity written on a canvas');
    assert.doesNotMatch(await p.page.evaluate(() => document.body.innerText), /\bNaN\b|Infinity/, 'nor in the page text');
    assert.deepEqual(p.problems, [], 'no console error or warning, no failed request');
  } finally {
    await p.context.close();
  }
}

// Plays on until the simulation has gone as far as `ms` of wall time takes it on an idle machine
// at the page's speed (state().speed × ms of simulated time), or until the run stops by itself
// (its end); then pauses. However busy the machine: the simulated time is waited for, not the
// wall time (a run that loops back to 0 counts what it ran before). Fails after `timeout` ms.
export async function playOn(page, ms, timeout = 120000) {
  await page.evaluate(async ({ ms, timeout }) => {
    const api = window.stepwise;
    const want = (ms / 1000) * api.state().speed;
    const start = performance.now();
    api.play();
    let last = api.state().t, advanced = 0;
    while (advanced < want) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const s = api.state();
      advanced += Math.max(0, s.t - last);
      last = s.t;
      if (!s.playing) break;
      if (performance.now() - start > timeout) {
        api.pause();
        throw new Error(`playOn: ${advanced} of ${want} s simulated after ${timeout} ms`);
      }
    }
    api.pause();
  }, { ms, timeout });
}

// Plays until the simulation's time reaches t (however busy the machine: waited for, not timed),
// then pauses; fails after ms.
export async function playUntil(page, t, ms = 120000) {
  await page.evaluate(() => window.stepwise.play());
  await page.waitForFunction((until) => window.stepwise.state().t >= until, t, { timeout: ms, polling: 100 });
  await page.evaluate(() => window.stepwise.pause());
}

// Waits until the shown analysis view (web/views/*.js) reports it is done, and returns its report
// (window.stepwise.debug.analysis()), or fails after `ms`.
export async function finished(page, ms = 60000) {
  const until = Date.now() + ms;
  for (;;) {
    const r = await page.evaluate(() => window.stepwise.debug.analysis());
    if (r && r.state === 'done') return r;
    if (Date.now() > until) throw new Error(`the view did not finish: ${JSON.stringify(r)}`);
    await sleep(100);
  }
}

// The page's normalised config and the messages it shows.
export const config = (page) => page.evaluate(() => window.stepwise.config());
export const errors = (page) => page.evaluate(() => window.stepwise.errors());

// The main-thread tasks of the page's renderer in a Chromium trace, from the page's start: the
// RunTask events of the renderer main thread that did the most work, each {ts (µs, trace
// clock), wallMs, cpuMs}. A task run inside another (a nested run loop) is a task of its own:
// the outer one's times leave it out.
export function mainThreadTasks(trace) {
  const events = trace.traceEvents || trace;
  const marks = events.filter((e) => e.name === 'stepwise-test:start').map((e) => e.ts);
  const start = marks.length ? Math.min(...marks) : -Infinity;
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args.name === 'CrRendererMain')
    .map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || e.name !== 'ThreadControllerImpl::RunTask' || !mains.has(thread)) continue;
    if (!byThread.has(thread)) byThread.set(thread, []);
    byThread.get(thread).push(e);
  }
  let best = [], bestCpu = -1;
  for (const runs of byThread.values()) {
    runs.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    const tasks = runs.map((e) => ({ ts: e.ts, at: (e.ts - start) / 1000, end: e.ts + e.dur, wallMs: e.dur / 1000,
      cpuMs: (e.tdur ?? e.dur) / 1000 }));
    const open = [];  // the tasks the current one runs inside
    for (const t of tasks) {
      while (open.length && open[open.length - 1].end <= t.ts) open.pop();
      const parent = open[open.length - 1];
      if (parent) { parent.wallMs -= t.wallMs; parent.cpuMs -= t.cpuMs; }
      open.push(t);
    }
    const mine = tasks.filter((t) => t.ts >= start);  // not the browser's, before the page's first script
    const cpu = mine.reduce((sum, t) => sum + t.cpuMs, 0);
    if (cpu > bestCpu) { best = mine; bestCpu = cpu; }
  }
  return best;
}
