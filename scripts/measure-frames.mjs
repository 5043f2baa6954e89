// What scripts/measure-web.mjs and scripts/measure-chains.mjs both measure with: medians and
// quantiles, frame intervals as a viewer sees them, an empty page's (this browser's own rate on
// this machine, the reference every page is compared with), and the marker of the chains'
// section of docs/performance-web.md (measure-chains writes after it, measure-web keeps it).
import { sleep } from '../tests/web/helpers.mjs';

export const chainsMarker = '<!-- scripts/measure-chains.mjs writes what follows -->';
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
