// The README's picture (docs/images/page.png): the real page, served from the bundle as a host
// serves it, in Debian's Chromium driven by playwright-core (as tests/web/ do), on the heavy chain
// at 60 Hz with its solver lanes (XPBD 1×20 and 20×1, soft step, sequential impulses) a fixed
// number of steps in, paused, at a desktop size. Run it again when the page changes:
//   bash scripts/build-site.sh && node scripts/build-dist.mjs && node scripts/readme-picture.mjs [site=dist]
// tests/docs/readme.test.mjs checks that the README shows this file at its size.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './serve.mjs';
import { chromiumArgs } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const picture = {
  file: 'docs/images/page.png',
  width: 1280,
  height: 800,
  // The run ends where the picture is taken: the page finds the motion's box ahead of the
  // animation, a slice at a time (web/engine/bounds.js), and the picture shows the box of the
  // whole run, not of as much as the search found by then.
  link: 'preset=heavy_chain_60hz&duration=0.75',
  steps: 45,  // 0.75 s at 1/60 s: the four lanes fanned out, XPBD 20×1 still on the reference
};

async function main() {
  const site = path.resolve(root, process.env.PICTURE_SITE || 'dist');
  if (!fs.existsSync(path.join(site, 'index.html'))) {
    throw new Error(`no built site in ${site}: run bash scripts/build-site.sh, then node scripts/build-dist.mjs`);
  }
  // Loaded here, not at the top: tests/docs/readme.test.mjs reads `picture` without a browser.
  const { chromium } = await import('playwright-core');
  const server = await startServer({ root: site, port: 0 });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: picture.width, height: picture.height }, deviceScaleFactor: 1 });
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}index.html#${picture.link}`);
    await page.evaluate(() => window.stepwise.ready);
    // Paused at t = 0, then stepped: the same picture whatever the machine's speed.
    await page.evaluate(() => { window.stepwise.pause(); window.stepwise.reset(); });
    await page.evaluate((n) => { for (let i = 0; i < n; i++) window.stepwise.step(); }, picture.steps);
    await page.waitForFunction((n) => window.stepwise.state().steps === n, picture.steps);
    // The whole run's box found (the search runs ahead of the animation only while the run goes on,
    // so the run ends where the picture is taken), the view eased into it (a paused page draws
    // until it has), and the page showing that the run is over (Restart).
    await page.waitForFunction(() => window.stepwise.debug.view().bounds.done && !window.stepwise.debug.canvas().settling,
      null, { timeout: 0 });
    await page.waitForSelector('#frame-restart', { state: 'visible', timeout: 0 });
    // The last steps are drawn on the next animation frame: wait for two, so the plots have caught up.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await page.mouse.move(0, 0);  // no hover read-out on a plot
    if (problems.length) throw new Error(`the page reported problems:\n${problems.join('\n')}`);
    const out = path.join(root, picture.file);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    await page.screenshot({ path: out, type: 'png' });
    console.log(`${picture.file}: ${picture.width}×${picture.height}, ${fs.statSync(out).size} bytes, ${picture.link} after ${picture.steps} steps`);
  } finally {
    await browser.close();
    await server.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
