// The page's layers (node only, no browser): reads every import in web/ and fails on one that runs
// back up the folders' layering, or sideways between two folders of one layer, unless it is in
// allowedUpward with its reason; and fails on a global that crosses modules (a window.* or
// globalThis.* write, or any __-named global) that allowedGlobals does not list for that file.
// The page's spine: web/app/main.js makes the shared state and services and hands them to the
// parts (docs/playground.md, "The page").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// STEPWISE_LAYERS_WEB: another web/ folder to read (to count a branch's), the repository's by default.
const web = process.env.STEPWISE_LAYERS_WEB || resolve(dirname(fileURLToPath(import.meta.url)), '../../web');

// The layers, lowest first: a folder imports only from its own or a lower layer's folders.
//   common, strings: values as text, the DOM helper, the palette, the language; no page state
//   engine: the core's module, the runner, slices, studies, bounds
//   motion: the motion canvas, its coordinates, the shared cursor and lane focus
//   plots: the plots (on motion's coordinates and cursor)
//   views: the view tabs, the view switch and the analysis views (on the plots' canvases)
//   panels, xray, editor: the page's features, none of which imports another
//   app: the composition root and the page's own services (state, simulations, frame loop, API)
export const layers = [['common', 'strings'], ['engine'], ['motion'], ['plots'], ['views'], ['panels', 'xray', 'editor'], ['app']];

// Imports that run back up or sideways, each with why it stays ('from -> to', paths under web/).
export const allowedUpward = new Map([
]);

// Globals that cross modules, by name, with the files that may touch them and why.
export const allowedGlobals = new Map([
  // A classic script run before the first paint (the embed options as classes on <html>) has no
  // other way to hand them to the modules; the composition root reads them once and hands them on.
  ['__stepwiseMode', { files: ['app/mode.js', 'app/main.js'] }],
  // The module's download started by a classic deferred script before the modules arrive
  // (web/app/boot.js), taken by the loader.
  ['__stepwiseModule', { files: ['app/boot.js', 'engine/wasm.js'] }],
  // The full module's start, kept by its loader alone.
  ['__stepwiseFullModule', { files: ['engine/wasm.js'] }],
  // window.stepwise, the page's public API (docs/embedding.md, tests/web/helpers.mjs).
  ['stepwise', { files: ['app/api.js'] }],
]);

const rankOf = new Map(layers.flatMap((folders, rank) => folders.map((f) => [f, rank])));

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return /\.m?js$/.test(d.name) ? [path] : [];
  });
}

// The text without its comments (a comment may name a module; a string holding // stays).
function code(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/([;,{}()])\s*\/\/.*$/gm, '$1');
}

// Every module specifier a file imports: static imports, re-exports and import().
export function importsOf(text) {
  const body = code(text);
  const found = [];
  const patterns = [
    /(?:^|[;\n])\s*import\s+(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]/g,
    /(?:^|[;\n])\s*export\s+[\w*{}\s,$]+\s+from\s+['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of body.matchAll(pattern)) found.push(m[1]);
  return found;
}

// The globals a file touches: every window.X = / globalThis.X = (a write), and any __-named one.
export function globalsOf(text) {
  const body = code(text);
  const names = new Set();
  for (const m of body.matchAll(/\b(?:window|globalThis|self)\.([A-Za-z_$][\w$]*)\s*=(?!=)/g)) names.add(m[1]);
  for (const m of body.matchAll(/\b(?:window|globalThis|self)\.(__[\w$]*)/g)) names.add(m[1]);
  return [...names];
}

const files = sources(web).map((path) => ({ path, name: relative(web, path).split('\\').join('/') }));
const folderOf = (name) => name.split('/')[0];

// Each import between two folders: {from, to, folders, upward}.
function crossings() {
  const out = [];
  for (const { path, name } of files) {
    for (const spec of importsOf(readFileSync(path, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = relative(web, resolve(dirname(path), spec)).split('\\').join('/');
      const from = folderOf(name), to = folderOf(target);
      if (from === to || !name.includes('/')) continue;
      const upward = !(rankOf.has(from) && rankOf.has(to) && rankOf.get(to) < rankOf.get(from));
      out.push({ from: name, to: target, upward });
    }
  }
  return out;
}

test('every folder of web/ has its place in the layers', () => {
  const folders = new Set(files.filter((f) => f.name.includes('/')).map((f) => folderOf(f.name)));
  for (const folder of folders) assert.ok(rankOf.has(folder), `web/${folder}/ is in no layer of tests/web/layers.test.mjs`);
});

test('no import in web/ runs back up the layers (or sideways), but the ones listed with their reason', (t) => {
  const upward = crossings().filter((c) => c.upward);
  const key = (c) => `${c.from} -> ${c.to}`;
  t.diagnostic(`imports between folders: ${crossings().length}; back up or sideways: ${upward.length}`);
  for (const c of upward) t.diagnostic(`  ${key(c)}${allowedUpward.has(key(c)) ? ` (allowed: ${allowedUpward.get(key(c))})` : ''}`);
  const refused = upward.filter((c) => !allowedUpward.has(key(c)));
  assert.deepEqual(refused.map(key), [], 'an import runs back up the layers: hand the part what it needs instead (web/app/main.js)');
  // A listed one that is gone comes off the list, so the list says what holds.
  const stale = [...allowedUpward.keys()].filter((k) => !upward.some((c) => key(c) === k));
  assert.deepEqual(stale, [], 'allowedUpward lists an import that no longer exists');
  assert.ok(allowedUpward.size <= 2, 'at most two imports run back up (issue 32)');
});

test('no global crosses modules, but the ones listed for their files', (t) => {
  const seen = new Map();
  for (const { path, name } of files) {
    for (const global of globalsOf(readFileSync(path, 'utf8'))) {
      const allowed = allowedGlobals.get(global);
      assert.ok(allowed && allowed.files.includes(name), `web/${name} touches the global ${global}: hand it over instead (web/app/main.js)`);
      seen.set(global, (seen.get(global) || 0) + 1);
    }
  }
  t.diagnostic(`globals touched: ${[...seen].map(([g, n]) => `${g} (${n} files)`).join(', ')}`);
});

test('the readers find what they are for', () => {
  assert.deepEqual(importsOf("import { a,\n  b } from '../x/y.js';\nexport { c } from './z.js';\nconst m = import('./w.js');\n// import { d } from '../no.js';\n"),
    ['../x/y.js', './z.js', './w.js']);
  assert.deepEqual(globalsOf("window.__a = 1; globalThis.b = 2; if (window.c === 3) {} const d = globalThis.__e;"), ['__a', 'b', '__e']);
});
