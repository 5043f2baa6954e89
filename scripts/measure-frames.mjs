// What scripts/measure-web.mjs, measure-chains.mjs and measure-solvers.mjs measure with: medians
// and quantiles, frame intervals as a viewer sees them, an empty page's (this browser's own rate on
// this machine, the reference every page is compared with), a page played at 1×, and the marker of
// the chains' section of docs/performance-web.md (measure-chains writes after it, measure-web keeps
// it).
import { openPage, sleep } from '../tests/web/helpers.mjs';

export const chainsMarker = '<!-- scripts/measure-chains.mjs writes what follows -->';
// The solvers' section comes after the chains' (measure-solvers writes after it, the others keep it).
export const solversMarker = '<!-- scripts/measure-solvers.mjs writes what follows -->';
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

// requestAnimationFrame's intervals over 5 s (script, style, raster and all).
export async function rafIntervals(page) {
  return page.evaluate(() => new Promise((resolve) => {
    const stamps = [];
    const tick = (now) => {
      stamps.push(now);
      if (now - stamps[0] < 5000) requestAnimationFrame(tick);
      else resolve(stamps.slice(1).map((t, k) => t - stamps[k]));
    };
    requestAnimationFrame(tick);
  }));
}

// An empty page's frame intervals at 1440 × 900, after 1 s.
export async function emptyPageIntervals(env) {
  const context = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.setContent('<!doctype html><title>empty</title><p>empty</p>');
  await sleep(1000);
  const gaps = await rafIntervals(page);
  await context.close();
  return gaps;
}

// An empty page's frames per second and frame interval p95.
export async function emptyPage(env) {
  const gaps = await emptyPageIntervals(env);
  return { fps: gaps.length / (gaps.reduce((a, b) => a + b, 0) / 1000), p95: quantile(gaps, 0.95) };
}

// The page at `hash` (1440 × 900) played at 1×: after 1 s of warming up, 5 s of frames: frames per
// second and the interval's p95 (requestAnimationFrame), steps a frame, simulated seconds per wall
// second, the page's own script time a frame (simulation + drawing: median, p95 and worst), the
// longest main-thread task since Play, and the lanes that stopped.
export async function playingPage(env, hash) {
  const { page, context } = await openPage(env, { width: 1440, height: 900, hash });
  const errors = await page.evaluate(() => window.stepwise.errors());
  if (errors.length > 0) throw new Error(`${hash}: ${errors.join('; ')}`);
  const played = await page.evaluate(() => { window.stepwise.play(); return performance.now(); });
  await sleep(1000);  // warm up
  const timings = () => page.evaluate(() => window.stepwise.debug.timings());
  const a = await timings();
  const ta = await page.evaluate(() => window.stepwise.state().t), wa = Date.now();
  const gaps = await rafIntervals(page);
  const b = await timings();
  const tb = await page.evaluate(() => window.stepwise.state().t), wb = Date.now();
  // Tasks since Play (the page's load is measured elsewhere: docs/performance-web.md, first frame).
  const longest = await page.evaluate((t0) => Math.max(0, ...(window.__longTasks || []).filter((x) => x.start >= t0).map((x) => x.ms)), played);
  const stopped = await page.evaluate(() => window.stepwise.state().integrators.filter((i) => i.diverged || i.stopReason).map((i) => i.id));
  await context.close();
  const frames = b.frames - a.frames;
  const sim = b.recentSimMs.slice(-frames), draw = b.recentDrawMs.slice(-frames);
  const script = sim.map((x, k) => x + draw[k]);
  return {
    fps: gaps.length / (gaps.reduce((x, y) => x + y, 0) / 1000), p95: quantile(gaps, 0.95),
    stepsPerFrame: (b.steps - a.steps) / frames, speed: (tb - ta) / ((wb - wa) / 1000),
    sim: median(sim), draw: median(draw), script: median(script), scriptP95: quantile(script, 0.95),
    scriptWorst: Math.max(...script), longest, stopped,
  };
}
