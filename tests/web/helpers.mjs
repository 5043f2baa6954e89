// Shared setup for the browser tests: the built site served on a free loopback port, and
// Debian's Chromium driven by playwright-core (never a downloaded browser; TOOLCHAIN.md).
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const site = process.env.STEPWISE_SITE || path.join(root, 'build/site');
export const artifacts = path.join(root, 'test-artifacts');

export const chromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
];

export async function startBrowser() {
  if (!fs.existsSync(path.join(site, 'stepwise.wasm'))) {
    throw new Error(`no built site in ${site}: run scripts/build-site.sh`);
  }
  const server = await startServer({ root: site, port: 0 });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: chromiumArgs,
  });
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

// Counts every non-finite number handed to a canvas drawing call: none may ever reach it.
const canvasGuard = () => {
  window.__nonFinite = [];
  const proto = CanvasRenderingContext2D.prototype;
  for (const name of ['moveTo', 'lineTo', 'arc', 'rect', 'fillRect', 'strokeRect', 'fillText', 'translate']) {
    const original = proto[name];
    proto[name] = function guarded(...args) {
      for (const a of args) {
        if (typeof a === 'number' && !Number.isFinite(a)) window.__nonFinite.push(name);
      }
      return original.apply(this, args);
    };
  }
};

// A page at `hash` with its console errors, page errors and failed requests collected.
export async function openPage(env, { hash = '', width = 1280, height = 860, scheme = 'light' } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height }, colorScheme: scheme });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()}`));
  await page.addInitScript(canvasGuard);
  await page.goto(env.server.url + (hash ? `#${hash}` : ''));
  await page.evaluate(() => window.stepwise.ready);
  return { page, context, problems };
}

export const state = (page) => page.evaluate(() => window.stepwise.state());
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function screenshot(page, name, options = {}) {
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), ...options });
}
