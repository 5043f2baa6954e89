// scripts/build-dist.mjs on a small site made here (no WebAssembly needed): a file a module loads
// on demand through new URL('./x', import.meta.url) resolves in dist/ from wherever the bundler put
// the module (a chunk beside the entry in web/app/, the entry), and a style sheet's url(…) follows
// its file's renaming, quoted or not (issue 31 §1: the X-ray's and the editor's sheets were asked
// for at /web/xray.css and /web/editor.css, beside the chunk); all a page runs before its first
// frame is one file, its classic scripts and the modules its on-demand parts share with it
// included (issue 32 §1).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDist } from '../../scripts/build-dist.mjs';

let tmp;
const write = (dir, file, text) => {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
};
// A page whose entry imports, on demand, a module that loads a sheet beside it and an image two
// folders up, and whose sheet names a font beside it (quoted) and again (unquoted).
function makeSite(dir, part = "export const sheet = new URL('./part.css', import.meta.url).href;\n" +
  'export const logo = new URL("../../logo.svg", import.meta.url).href;\n') {
  write(dir, 'index.html', '<!doctype html><html><head><link rel="stylesheet" href="style.css">' +
    '<script type="module" src="web/app/main.js"></script></head><body></body></html>\n');
  write(dir, 'style.css', 'body { color: #222 }\n');
  write(dir, 'web/app/main.js', "export const open = () => import('../parts/part.js');\n" +
    "export const here = new URL('./main-data.json', import.meta.url).href;\n");
  write(dir, 'web/app/main-data.json', '{"a": 1}\n');
  write(dir, 'web/parts/part.js', part);
  write(dir, 'web/parts/part.css', '.part { background: url("font.woff2") }\n@font-face { font-family: x; src: url(font.woff2) }\n');
  write(dir, 'web/parts/font.woff2', 'wOF2');
  write(dir, 'logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
}

before(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-build-dist-')); });
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const shipped = (dir, prefix = '') => fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? shipped(dir, `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
  .filter((f) => !/\.(gz|br)$/.test(f));

test('a URL from import.meta.url resolves from the chunk or entry it landed in, to the renamed file', async () => {
  const site = path.join(tmp, 'site'), out = path.join(tmp, 'dist');
  makeSite(site);
  await buildDist({ site, out });
  const files = shipped(out);
  const chunk = files.find((f) => /^web\/app\/chunk-[A-Z0-9]+-[0-9a-f]{10}\.js$/.test(f));
  assert.ok(chunk, `the on-demand module is a chunk beside the entry: ${files.join(', ')}`);
  const entry = files.find((f) => /^web\/app\/main-[0-9a-f]{10}\.js$/.test(f));
  const urls = (f) => [...fs.readFileSync(path.join(out, f), 'utf8').matchAll(/new URL\("([^"]+)",import\.meta\.url\)/g)]
    .map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(f), m[1])));
  const fromChunk = urls(chunk);
  assert.equal(fromChunk.length, 2);
  assert.match(fromChunk[0], /^web\/parts\/part-[0-9a-f]{10}\.css$/);
  assert.match(fromChunk[1], /^logo-[0-9a-f]{10}\.svg$/);
  const fromEntry = urls(entry);
  assert.equal(fromEntry.length, 1);
  assert.match(fromEntry[0], /^web\/app\/main-data-[0-9a-f]{10}\.json$/);
  for (const f of [...fromChunk, ...fromEntry]) assert.ok(files.includes(f), `${f} is shipped`);
  // The sheet's font, renamed in both its url()s (the minifier unquotes the first).
  const sheet = fs.readFileSync(path.join(out, fromChunk[0]), 'utf8');
  const fonts = [...sheet.matchAll(/url\(([^)]+)\)/g)].map((m) => m[1]);
  assert.equal(fonts.length, 2, sheet);
  for (const font of fonts) {
    assert.match(font, /^font-[0-9a-f]{10}\.woff2$/);
    assert.ok(files.includes(`web/parts/${font}`));
  }
  // The font is in the sheet's hash, the sheet in the chunk's: a new font renames all three.
  write(site, 'web/parts/font.woff2', 'wOF2 changed');
  const out2 = path.join(tmp, 'dist2');
  await buildDist({ site, out: out2 });
  const files2 = shipped(out2);
  assert.ok(!files2.includes(fromChunk[0]), 'the sheet is renamed');
  assert.ok(!files2.includes(chunk), 'the chunk is renamed');
  assert.ok(files2.includes(fromChunk[1]), 'the logo is not');
});

test('a URL from import.meta.url that names no file of the site stops the build, naming both', async () => {
  const site = path.join(tmp, 'bad'), out = path.join(tmp, 'bad-dist');
  makeSite(site, "export const sheet = new URL('./missing.css', import.meta.url).href;\n");
  await assert.rejects(buildDist({ site, out }), /web\/parts\/part\.js: new URL\('\.\/missing\.css', import\.meta\.url\) names web\/parts\/missing\.css, which the site does not have/);
});

test('the first frame\'s scripts are one file: the classic scripts at its head, the modules an on-demand part shares with the page inside it', async () => {
  const site = path.join(tmp, 'one'), out = path.join(tmp, 'one-dist');
  makeSite(site, "import { shared } from '../common/shared.js';\nexport const part = () => shared('part');\n");
  write(site, 'web/common/shared.js', "export const calls = [];\nexport const shared = (who) => calls.push(who);\n");
  write(site, 'web/app/main.js', "import { shared, calls } from '../common/shared.js';\nshared('page');\n" +
    "globalThis.seen = { loader: typeof globalThis.createStepwise, started: globalThis.started };\n" +
    "globalThis.openPart = () => import('../parts/part.js').then((m) => { m.part(); return [...calls]; });\n");
  write(site, 'stepwise.js', "var createStepwise = (() => function () { return 'module'; })();\n" +
    "if (typeof exports === 'object' && typeof module === 'object') module.exports = createStepwise;\n");
  write(site, 'web/app/boot.js', 'globalThis.started = globalThis.createStepwise();\n');
  write(site, 'web/app/mode.js', "(function () { document.documentElement.classList.add('embed'); })();\n");
  const page = '<!doctype html><html><head><link rel="stylesheet" href="style.css">\n' +
    '<script src="web/app/mode.js"></script>\n<script src="stepwise.js" defer></script>\n<script src="web/app/boot.js" defer></script>\n' +
    '<script type="module" src="web/app/main.js"></script></head><body></body></html>\n';
  write(site, 'index.html', page);
  write(site, 'embed.html', page);
  await buildDist({ site, out });
  const files = shipped(out);
  const scriptsOf = (f) => [...fs.readFileSync(path.join(out, f), 'utf8').matchAll(/<script[^>]*>/g)].map((m) => m[0]);
  const scripts = scriptsOf('index.html');
  assert.equal(scripts.length, 1, `one script: ${scripts.join(' ')}`);
  const bundle = /^<script type="module" src="(web\/app\/main-[0-9a-f]{10}\.js)">$/.exec(scripts[0]);
  assert.ok(bundle, `the page's bundle: ${scripts[0]}`);
  assert.deepEqual(scriptsOf('embed.html'), [`<script type="module" src="${bundle[1]}" blocking="render">`],
    'the embed page\'s, render-blocking in place of mode.js');
  assert.ok(!files.some((f) => /^(stepwise|web\/app\/(mode|boot))-[0-9a-f]{10}\.js$/.test(f)), `the classic scripts only inside it: ${files.join(', ')}`);
  const text = fs.readFileSync(path.join(out, bundle[1]), 'utf8');
  assert.ok(text.indexOf('embed') < text.indexOf('started'), 'mode.js first, then the loader and boot.js');
  const chunks = files.filter((f) => /chunk-/.test(f));
  assert.equal(chunks.length, 1, `the part alone in a chunk: ${chunks.join(', ')}`);
  assert.doesNotMatch(fs.readFileSync(path.join(out, chunks[0]), 'utf8'), /calls/, 'the shared module is not in the part');
  // Run as a browser would: the part, loaded on demand, uses the page's one instance of the shared module.
  const { startServer } = await import('../../scripts/serve.mjs');
  const { chromium } = await import('playwright-core');
  const { chromiumArgs } = await import('./helpers.mjs');
  const server = await startServer({ root: out, port: 0 });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: chromiumArgs });
  try {
    const page = await browser.newPage();
    const requested = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await page.goto(server.url);
    await page.waitForFunction(() => globalThis.seen);
    assert.deepEqual(await page.evaluate(() => globalThis.seen), { loader: 'function', started: 'module' });
    assert.equal(await page.evaluate(() => document.documentElement.className), 'embed');
    assert.deepEqual(requested.filter((p) => p.endsWith('.js')), [`/${bundle[1]}`], 'one script before the part is asked for');
    assert.deepEqual(await page.evaluate(() => globalThis.openPart()), ['page', 'part'], 'the part calls the page\'s own shared module');
    assert.deepEqual(requested.filter((p) => p.endsWith('.js')), [`/${bundle[1]}`, `/${chunks[0]}`], 'and only the part is asked for then');
  } finally {
    await browser.close();
    await server.close();
  }
});
