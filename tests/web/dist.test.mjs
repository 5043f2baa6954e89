// The static bundle (scripts/build-dist.mjs) served by scripts/serve.mjs as a host would: hashed
// names with every reference rewritten, precompressed copies, the pages running under the CSP,
// offline after the first visit (the service worker), and a deploy that replaces the old version
// cleanly. The dist is built here from build/site (helpers' builtSite) into a temporary folder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildDist } from '../../scripts/build-dist.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { builtSite as site, chromiumArgs, openPage, screenshot, allowProblems } from './helpers.mjs';

let tmp, out, server, browser, port;
before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-dist-'));
  out = path.join(tmp, 'dist');
  await buildDist({ site, out });
  server = await startServer({ root: out, port: 0 });
  port = Number(new URL(server.url).port);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: chromiumArgs });
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const listed = (dir, prefix = '') => fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? listed(dir, `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
const env = () => ({ browser, server });

test('the bundle: hashed names for all but the pages and the worker, references rewritten, .gz and .br beside, deterministic', async () => {
  const files = listed(out).filter((f) => !/\.(gz|br)$/.test(f));
  const unhashed = files.filter((f) => !/-[0-9a-f]{10}\.[a-z]+$/.test(f)).sort();
  assert.deepEqual(unhashed, ['_headers', 'embed.html', 'index.html', 'lesson.html', 'sw.js']);
  assert.ok(files.some((f) => /^stepwise-[0-9a-f]{10}\.wasm$/.test(f)), 'the module is hashed');
  assert.ok(!files.includes('web/package.json'), 'not shipped');
  // The page's modules bundled (esbuild): the entry, no module it contains on its own.
  assert.ok(files.some((f) => /^web\/app\/main-[0-9a-f]{10}\.js$/.test(f)), 'the page\'s bundle');
  assert.ok(!files.some((f) => /^web\/(motion\/view|plots\/plots|panels\/controls|engine\/runner)-[0-9a-f]{10}\.js$/.test(f)), 'its modules inside it');
  assert.ok(files.some((f) => /^stepwise-full-[0-9a-f]{10}\.wasm$/.test(f)), 'the full module, for on demand');
  // Every quoted file name in a page or script names a file of the bundle.
  for (const f of files.filter((g) => /\.(html|js)$/.test(g))) {
    const text = fs.readFileSync(path.join(out, f), 'utf8');
    for (const m of text.matchAll(/["'`]((?:\.{1,2}\/)?[\w./-]+\.(?:js|css|wasm))["'`]/g)) {
      if (m[1] === 'sw.js') continue;  // the worker, named from the page (web/app/offline.js)
      const target = path.posix.normalize(path.posix.join(f.endsWith('.html') ? '' : path.posix.dirname(f), m[1]));
      // A name that no file of the site has is text, not a reference: the Step code dialog shows
      // snippets whose own import lines name their files ('./explicit_euler.js', './loop.js').
      const unhashed = target.replace(/-[0-9a-f]{10}(\.[a-z]+)$/, '$1');
      if (!files.includes(target) && !fs.existsSync(path.join(site, unhashed))) continue;
      assert.ok(files.includes(target), `${f} names ${m[1]}, which the bundle has as ${target}`);
    }
  }
  for (const f of files.filter((g) => /\.(html|js|css|wasm)$/.test(g))) {
    const raw = fs.readFileSync(path.join(out, f));
    assert.deepEqual(zlib.gunzipSync(fs.readFileSync(path.join(out, `${f}.gz`))), raw, `${f}.gz`);
    assert.deepEqual(zlib.brotliDecompressSync(fs.readFileSync(path.join(out, `${f}.br`))), raw, `${f}.br`);
  }
  const again = path.join(tmp, 'again');
  await buildDist({ site, out: again });
  for (const f of listed(out)) assert.ok(fs.readFileSync(path.join(out, f)).equals(fs.readFileSync(path.join(again, f))), `${f} is the same bytes`);
  const headers = fs.readFileSync(path.join(out, '_headers'), 'utf8');
  assert.match(headers, /\/sw\.js\n {2}Cache-Control: no-cache/);
  assert.match(headers, /\/stepwise-[0-9a-f]{10}\.wasm\n {2}Cache-Control: public, max-age=31536000, immutable\n {2}Content-Type: application\/wasm\n/,
    'the module\'s type named, so that a host sends it as one the browser compiles while it streams');
  assert.match(headers, /\/\*\.html\n {2}Cache-Control: no-cache\n {2}Content-Security-Policy: default-src 'self'/);
});

test('served as a host would: brotli for the module, a year for hashed files, no-cache for pages', async () => {
  const wasm = listed(out).find((f) => /\.wasm$/.test(f));
  const r = await fetch(server.url + wasm, { headers: { 'Accept-Encoding': 'br' } });
  assert.equal(r.headers.get('content-encoding'), 'br');
  assert.equal(r.headers.get('content-type'), 'application/wasm');
  assert.equal(r.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const page = await fetch(server.url);
  assert.equal(page.headers.get('cache-control'), 'no-cache');
  assert.match(page.headers.get('content-security-policy'), /script-src 'self' 'wasm-unsafe-eval'/);
  assert.match(await page.text(), /<html lang="en" data-offline="sw.js">/);
  const worker = await fetch(`${server.url}sw.js`);
  assert.equal(worker.headers.get('cache-control'), 'no-cache');
});

// Waits until the service worker controls the page and has its version cached.
// Waits until fn, run in the page (it may be async), returns true; fails after ms. Not
// waitForFunction: it takes the promise an async predicate returns as true at once (the waits for
// the worker went on while it was still installing, and a deploy then removed the files its
// install was fetching: 404s).
async function eventually(page, fn, what, ms = 30000) {
  const until = Date.now() + ms;
  while (!(await page.evaluate(fn))) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
// The page is controlled by the worker once it is installed (every file in its cache) and active.
const controlled = (page) => eventually(page, async () => navigator.serviceWorker.controller !== null &&
  (await caches.keys()).some((n) => n.startsWith('stepwise-')), 'the page controlled by the worker, its cache made');

async function animates(page) {
  const t0 = (await page.evaluate(() => window.stepwise.state())).t;
  await page.evaluate(() => window.stepwise.play());
  await page.waitForFunction((t) => window.stepwise.state().t > t + 0.05, t0, { timeout: 15000 });
}

test('the bundle\'s pages run under the CSP with no console error, and offline after the first visit', async () => {
  const { page, context, problems } = await openPage(env(), { hash: 'preset=damped_spring' });
  try {
    await animates(page);
    await controlled(page);
    await screenshot(page, 'i13-dist-desktop');
    // The embed and the lesson visited once too (the worker caches the whole bundle anyway).
    const embed = await context.newPage();
    await embed.goto(`${server.url}embed.html?ui=none#preset=stiff_spring`);
    await embed.evaluate(() => window.stepwise.ready);
    const lesson = await context.newPage();
    await lesson.goto(`${server.url}lesson.html`);
    await lesson.waitForFunction(() => navigator.serviceWorker.controller !== null);
    // No network at all: the server is gone, its open connections too.
    const closing = server.close();
    server.server.closeAllConnections();
    await closing;
    await assert.rejects(fetch(server.url), 'nothing answers any more');
    await page.reload();
    await page.evaluate(() => window.stepwise.ready);
    await animates(page);
    await screenshot(page, 'i13-dist-offline');
    // The full module (loaded on demand) comes from the worker's cache too: a cloud offline.
    await page.evaluate(() => window.stepwise.set('preset=undamped_dt025&cloud=500'));
    await page.evaluate(() => window.stepwise.settled());
    assert.equal((await page.evaluate(() => window.stepwise.state())).cloud.points, 500, 'the cloud, offline');
    // A preset of each family of systems, opened offline: each loads its own variant of the motion
    // module (core/parts.hpp), which the worker cached at install with every other file.
    for (const [link, scenario] of [['preset=hanging_chain', 'chain'], ['preset=scene_cloth', 'scene'],
      ['scenario=projectile&fx=-0.5*vx', 'projectile'], ['preset=scene_duffing', 'scene']]) {
      const family = await context.newPage();
      await family.goto(`${server.url}index.html#${link}`);
      await family.evaluate(() => window.stepwise.ready);
      assert.equal(new URLSearchParams(await family.evaluate(() => window.stepwise.config())).get('scenario'), scenario, `${link}, offline`);
      const wasm = await family.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.wasm')));
      assert.equal(wasm.length, 1, `${link}: one variant, ${wasm}`);
      await animates(family);
      await family.close();
    }
    await embed.reload();
    await embed.evaluate(() => window.stepwise.ready);
    await animates(embed);
    await lesson.reload();
    const frame = lesson.frameLocator('iframe').first();
    await frame.locator('canvas').first().waitFor({ timeout: 15000 });
    const lessonFrame = lesson.frames().find((f) => /embed\.html/.test(f.url()));
    await lessonFrame.waitForFunction(() => window.stepwise && window.stepwise.ready, null, { timeout: 15000 });
    await lessonFrame.evaluate(() => window.stepwise.ready);
    const problemsNow = problems.filter((p) => !/ERR_CONNECTION_REFUSED|Failed to load resource|net::ERR/.test(p));
    assert.deepEqual(problemsNow, [], 'no error but the refused connections while offline');
  } finally {
    await context.close();
    server = await startServer({ root: out, port });
  }
});

test('a deploy replaces the version cleanly: reloaded online, the new one runs and loads none of the old files', async () => {
  const { page, context } = await openPage(env(), { hash: 'preset=damped_spring' });
  try {
    await controlled(page);
    const oldFiles = new Set(listed(out));
    // The next version: a visible change to the page and a changed module.
    const site2 = path.join(tmp, 'site2');
    fs.cpSync(site, site2, { recursive: true });
    const index = path.join(site2, 'index.html');
    fs.writeFileSync(index, fs.readFileSync(index, 'utf8').replace('<title>Stepwise', '<title>Stepwise (next)'));
    // A change that survives minifying (a comment would not): the page's bundle, which contains
    // web/panels/legend.js, gets a new name.
    fs.appendFileSync(path.join(site2, 'web/panels/legend.js'), '\nglobalThis.__stepwiseNextVersion = true;\n');
    await buildDist({ site: site2, out });
    const requested = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname.slice(1)));
    await page.reload();
    await page.evaluate(() => window.stepwise.ready);
    assert.match(await page.title(), /^Stepwise \(next\)/);
    await animates(page);
    const stale = requested.filter((f) => /-[0-9a-f]{10}\./.test(f) && oldFiles.has(f) && !fs.existsSync(path.join(out, f)));
    assert.deepEqual(stale, [], 'no file of the old version');
    assert.ok(requested.some((f) => /^web\/app\/main-[0-9a-f]{10}\.js$/.test(f) && !oldFiles.has(f)), 'the changed bundle, by its new name');
    assert.equal(await page.evaluate(() => globalThis.__stepwiseNextVersion), true, 'the new code runs');
    // The new worker takes over; the old cache is kept for tabs still open on it, no more.
    await eventually(page, async () => (await caches.keys()).filter((n) => n.startsWith('stepwise-')).length === 2, 'two versions\' caches');
  } finally {
    await context.close();
  }
});
