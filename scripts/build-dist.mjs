// Builds dist/, the static bundle a school server, GitHub Pages or any static host serves as it is
// (docs/hosting.md), from the assembled site (build/site, scripts/build-site.sh):
// - the JavaScript bundled and minified by esbuild (bundled() below): all that a page runs before
//   its first frame in one file (the classic scripts it loads first, web/app/mode.js, the
//   WebAssembly module's loader and web/app/boot.js, then its ES module graph), what it imports
//   on demand (an analysis view, the X-ray, the step code) into chunks of their own; the other
//   classic scripts (the full module's loader) and the style sheets minified as they are;
// - every file but the HTML entry points (index.html, embed.html, lesson.html) and the service
//   worker gets a content hash in its name (web/motion/view.js → web/motion/view-3f9c0a1b2d.js), and every
//   reference to it is rewritten: HTML src/href, ES module imports (static and import()), the
//   WebAssembly loader's "stepwise.wasm", import.meta.url-relative files. A file's hash covers its
//   own bytes and those of everything it loads, directly or not, so a changed module renames
//   every module that leads to it and a cached old copy can never be mixed in;
// - a .gz (gzip -9) and a .br (brotli 11) beside every text file and the module, which
//   scripts/serve.mjs (and nginx's gzip_static/brotli_static, Apache's rewrite rules) send as
//   they are;
// - sw.js, the service worker: this version's file list and id (web/app/offline.js registers it);
// - _headers: the cache, type and security rules in the Netlify / Cloudflare Pages format.
// Deterministic: the same site gives the same bytes.
//   node scripts/build-dist.mjs [site=build/site] [out=dist]
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { contentSecurityPolicy, longCache, types } from './serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entryPoints = ['index.html', 'embed.html', 'lesson.html'];
const serviceWorker = 'sw.js';
// Files of the site that are not the product: web/package.json tells node the modules are ES
// modules (the tests import them); a browser never asks for it.
const notShipped = new Set(['web/package.json']);
const compressed = /\.(html|js|mjs|css|json|svg|txt|wasm)$/;
// The pages' ES module entries, one bundle each, built apart (the lesson page and the frames it
// embeds are separate documents: they share no module instance, so no chunk either). The classic
// scripts a page loads before its entry in the site as built (build/site), in document order, go
// into the entry's bundle in dist/, at its head: index.html and embed.html then make four
// requests before their first frame (the page, its style sheet, this bundle and the preloaded
// WebAssembly module).
// `renderBlocking`: the pages whose module is render-blocking once it holds web/app/mode.js (a
// classic script that ran before the first paint): the embed page, so that a frame is never
// painted in the full page's layout before mode.js's classes are set (browsers without the
// attribute, Firefox today, paint what they have and then change it). The index page paints its
// layout at once, as it looks with mode.js's classes (index.html?embed=1 may show that layout
// for a moment before it turns into the embed's).
const moduleEntries = [
  { entry: 'web/app/main.js', pages: ['index.html', 'embed.html'], renderBlocking: ['embed.html'] },
  { entry: 'lesson.js', pages: ['lesson.html'], renderBlocking: [] },
];
// The classic scripts a bundle may take in, each with the global it declares at its top level
// (`defines`: the loader's createStepwise), which a module would keep to itself: set on
// globalThis in the bundle. A page that loads another classic script before its module stops the
// build: what it declares is not known here.
const classicScripts = new Map([
  ['web/app/mode.js', {}],
  ['stepwise.js', { defines: 'createStepwise' }],
  ['web/app/boot.js', {}],
]);
// What the bundle runs on: the browsers the WebAssembly module needs (SIMD, CMakeLists.txt), and
// Firefox 90 rather than 89 for the page's private class fields (web/app/state.js): lowered for
// 89, their helpers became a chunk of their own that the first frame had to fetch besides its one
// bundle.
const browsers = ['chrome91', 'edge91', 'firefox90', 'safari16.4'];
const hashLength = 10;

const posix = path.posix;
const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex');

function listFiles(dir, prefix = '') {
  const out = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

// The quoted references in a text file that name another file of the site: [{ text, target }],
// `text` as written (with its ./ or ../), `target` the site path it resolves to. In HTML the
// attributes resolve from the page's folder, in scripts and CSS from the file's own folder (ES
// imports, import.meta.url and the WebAssembly loader's script directory all do).
// A style sheet's url(…) may be unquoted (esbuild's minifier drops the quotes), so in CSS those
// count too.
const assetTypes = 'js|mjs|css|wasm|json|svg|png|jpg|jpeg|webp|gif|ico|woff2?|ttf|otf|webmanifest|txt';
const quotedName = new RegExp(`(["'\`])([^"'\`\\s$<>{}()]+?\\.(?:${assetTypes}))\\1`, 'g');
const cssUrl = new RegExp(`url\\(\\s*([^"'\\s$<>{}()]+?\\.(?:${assetTypes}))\\s*\\)`, 'g');
function references(file, text, known) {
  const dir = posix.dirname(file);
  const found = [];
  const add = (index, written) => {
    if (/^[a-z]+:/i.test(written) || written.startsWith('/')) return;
    const target = posix.normalize(posix.join(dir, written));
    if (known.has(target)) found.push({ index, text: written, target });
  };
  for (const m of text.matchAll(quotedName)) add(m.index + 1, m[2]);
  if (file.endsWith('.css')) for (const m of text.matchAll(cssUrl)) add(m.index + m[0].indexOf(m[1]), m[1]);
  return found;
}

function hashedName(file, hash) {
  const ext = posix.extname(file);
  return `${file.slice(0, -ext.length)}-${hash}${ext}`;
}

export async function buildDist({ site = path.join(root, 'build/site'), out = path.join(root, 'dist') } = {}) {
  if (!fs.existsSync(path.join(site, 'index.html'))) {
    throw new Error(`${site} has no index.html: build the site first (bash scripts/build-site.sh)`);
  }
  const siteFiles = listFiles(site).filter((f) => !notShipped.has(f) && f !== serviceWorker && f !== '_headers');
  const content = await bundled(site, new Map(siteFiles.map((f) => [f, fs.readFileSync(path.join(site, f))])));
  const files = [...content.keys()].sort();
  const isText = (f) => !f.endsWith('.wasm');
  const assets = new Set(files.filter((f) => !entryPoints.includes(f)));
  const refs = new Map(files.map((f) => [f, isText(f) ? references(f, content.get(f).toString('utf8'), assets) : []]));

  // Each asset's hash: its bytes and the bytes of everything it reaches (cycles included).
  const own = new Map(files.map((f) => [f, sha256(content.get(f))]));
  const newName = new Map();
  for (const f of assets) {
    const reach = new Set([f]);
    const todo = [f];
    while (todo.length) for (const r of refs.get(todo.pop())) if (!reach.has(r.target)) { reach.add(r.target); todo.push(r.target); }
    const hash = sha256([...reach].sort().map((g) => `${g}:${own.get(g)}`).join('\n')).slice(0, hashLength);
    newName.set(f, hashedName(f, hash));
  }

  fs.rmSync(out, { recursive: true, force: true });
  const written = [];
  const write = (name, data) => {
    fs.mkdirSync(path.dirname(path.join(out, name)), { recursive: true });
    fs.writeFileSync(path.join(out, name), data);
    written.push(name);
  };
  for (const f of files) {
    let data = content.get(f);
    if (isText(f)) {
      let text = data.toString('utf8');
      // Back to front, so earlier indices stay valid.
      for (const r of [...refs.get(f)].sort((a, b) => b.index - a.index)) {
        const renamed = posix.basename(newName.get(r.target));
        const replacement = r.text.slice(0, r.text.length - posix.basename(r.text).length) + renamed;
        text = text.slice(0, r.index) + replacement + text.slice(r.index + r.text.length);
      }
      // The pages of the bundle register the service worker (web/app/offline.js reads this).
      if (entryPoints.includes(f)) text = text.replace(/<html([^>]*)>/, '<html$1 data-offline="sw.js">');
      data = Buffer.from(text, 'utf8');
    }
    write(newName.get(f) || f, data);
  }

  // The version: every shipped file's name (hashed names carry their content) and the pages' bytes.
  const shipped = [...written].sort();
  const version = sha256(shipped.map((f) => `${f}:${sha256(fs.readFileSync(path.join(out, f)))}`).join('\n')).slice(0, hashLength);
  const template = fs.readFileSync(path.join(root, 'scripts/sw-template.js'), 'utf8');
  write(serviceWorker, template
    .replace('__STEPWISE_VERSION__', JSON.stringify(version))
    .replace('__STEPWISE_FILES__', JSON.stringify(shipped, null, 1)));

  write('_headers', headersFile([...newName.values()]));

  for (const f of [...written]) {
    if (!compressed.test(f)) continue;
    const data = fs.readFileSync(path.join(out, f));
    write(`${f}.gz`, zlib.gzipSync(data, { level: 9 }));
    write(`${f}.br`, zlib.brotliCompressSync(data, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length },
    }));
  }
  return { out, version, files: shipped, renamed: newName };
}

// The site's files as dist/ ships them: each entry of moduleEntries bundled with its classic
// scripts (bundleEntry), minified and split where the code imports on demand (every module a
// bundle contains is left out, and its classic scripts' tags out of its pages), every other script
// and style sheet minified alone. Scripts that are not modules (stepwise-full.js) are minified as
// scripts: their top-level names (createStepwiseFull) stay. Deterministic: esbuild names chunks by content.
async function bundled(site, content) {
  const out = new Map(content);
  const built = new Set();
  for (const spec of moduleEntries.filter((e) => content.has(e.entry))) {
    const pages = spec.pages.filter((f) => content.has(f));
    const classic = classicScriptsOf(pages.map((f) => [f, content.get(f).toString('utf8')]), spec.entry);
    const { inputs, outputs, pageScript } = await bundleEntry(site, content, spec.entry, classic);
    for (const input of inputs) out.delete(input);
    for (const [name, data] of outputs) {
      if (built.has(name) && !out.get(name).equals(data)) throw new Error(`two bundles write ${name} with different bytes`);
      out.set(name, data);
      built.add(name);
    }
    for (const page of pages) {
      const html = pageWithBundle(page, out.get(page).toString('utf8'), spec.entry, classic, pageScript, spec.renderBlocking.includes(page));
      out.set(page, Buffer.from(html, 'utf8'));
    }
  }
  for (const [f, data] of out) {
    const loader = f.endsWith('.css') ? 'css' : f.endsWith('.js') ? 'js' : null;
    if (!loader || built.has(f)) continue;
    const minified = esbuild.transformSync(data.toString('utf8'), {
      loader, minify: true, target: browsers, charset: 'utf8', legalComments: 'none', sourcefile: f,
    });
    out.set(f, Buffer.from(minified.code, 'utf8'));
  }
  return out;
}

// One page entry's bundle: { inputs (the site files it holds), outputs (name → bytes), pageScript
// (the file its pages load) }. Everything the entry reaches statically is one file, the page's
// script, named as the entry: esbuild puts a module reached from several entries (a dynamic
// import is one) into a chunk of each set of entries that reach it, which gave the first frame a
// handful of small chunks besides the entry (its modules that an on-demand part imports too). So
// each part loaded on demand also imports the entry here (a module the page has already run when
// it asks for the part: ES modules run once): every module of the first frame is then reached
// by the same entries, all in one chunk, and the entry's own output only imports that chunk,
// which takes its place and name. The chunks are written beside the entry, so their relative
// imports of each other stay right. Only parts that import something are given the import (a
// part with none shares nothing): lesson.js awaits the German texts at its top level, and a part
// it awaits that imported it would wait for it in turn.
const bundleEntryPrefix = 'stepwise-bundle:';
// Every bundle's chunks in one folder, beside the index page's entry: a part two bundles load
// (the German texts, for the lesson and for its frames) is then one file, the same bytes under
// the same name (bundled() checks), cached once.
const chunkDir = 'web/app';
const staticImport = /^\s*(?:import|export)\b[^;(]*?\bfrom\s*["'`]|^\s*import\s*["'`]/m;
async function bundleEntry(site, content, entry, classic) {
  for (const c of classic) if (!content.has(c.file)) throw new Error(`${entry}'s page loads ${c.file}, which the site does not have`);
  const head = bundleEntryPrefix + entry;
  const lazy = new Set();
  const result = await esbuild.build({
    absWorkingDir: site, entryPoints: [{ in: head, out: entry.replace(/\.m?js$/, '') }], outdir: site, outbase: site, write: false,
    bundle: true, splitting: true, format: 'esm', minify: true, target: browsers, charset: 'utf8',
    entryNames: '[dir]/[name]', chunkNames: `${chunkDir}/chunk-[hash]`, metafile: true,
    legalComments: 'none', logLevel: 'error',
    plugins: [{
      name: 'page-bundle',
      setup(build) {
        build.onResolve({ filter: new RegExp(`^${bundleEntryPrefix}`) }, (args) => ({ path: args.path.slice(bundleEntryPrefix.length), namespace: 'page-bundle' }));
        build.onLoad({ filter: /.*/, namespace: 'page-bundle' }, () => ({
          // The entry's exports kept, as when it is an entry of its own (an export unused here
          // may be what a dynamic import hangs on).
          contents: [...classic.map((c) => `import ${JSON.stringify(`./${c.file}`)};`), `export * from ${JSON.stringify(`./${entry}`)};`].join('\n'),
          resolveDir: site, loader: 'js',
        }));
        build.onResolve({ filter: /.*/ }, async (args) => {
          if (args.kind !== 'dynamic-import' || args.pluginData?.resolving) return undefined;
          const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { resolving: true } });
          if (!resolved.errors.length) lazy.add(resolved.path);
          return resolved.errors.length ? undefined : { path: resolved.path };
        });
      },
    }, siteFileUrls(site, content, {
      wrap: (file) => classic.find((c) => c.file === file && c.defines),
      extra: (absolute, text) => (lazy.has(absolute) && staticImport.test(text) ? `\nimport ${JSON.stringify(bundleEntryPrefix + entry)};\n` : ''),
    })],
  });
  const named = (file) => path.relative(site, file).split(path.sep).join('/');
  const entryOut = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === `page-bundle:${entry}`);
  const pageChunk = entryOut[1].imports.filter((i) => i.kind === 'import-statement');
  const ownCode = Object.keys(entryOut[1].inputs).some((i) => !i.startsWith('page-bundle:'));
  // Either the entry's output holds all of it (no part shares a module with it) or it only imports the one chunk that does.
  if (pageChunk.length > 1 || (pageChunk.length === 1 && ownCode)) {
    throw new Error(`${entry}'s bundle is not one file: its entry imports ${pageChunk.map((i) => i.path).join(', ')}${ownCode ? ' and holds modules of its own' : ''}`);
  }
  const entryName = named(path.resolve(site, entryOut[0]));
  const chunkName = pageChunk.length ? named(path.resolve(site, pageChunk[0].path)) : entryName;
  if (posix.dirname(chunkName) !== posix.dirname(entryName)) throw new Error(`${chunkName} is not beside ${entryName}, which it would replace (chunkDir)`);
  const outputs = new Map();
  const chunkRef = new RegExp(`(["'])\\./${posix.basename(chunkName).replace(/[.]/g, '\\.')}\\1`, 'g');
  for (const file of result.outputFiles) {
    const name = named(file.path);
    if (name === entryName && chunkName !== entryName) continue;
    const text = fromSitePaths(name === chunkName ? entryName : name, file.text).replace(chunkRef, `$1./${posix.basename(entryName)}$1`);
    outputs.set(name === chunkName ? entryName : name, Buffer.from(text, 'utf8'));
  }
  const inputs = Object.keys(result.metafile.inputs).filter((i) => !i.startsWith('page-bundle:'));
  return { inputs, outputs, pageScript: entryName };
}

// The classic scripts (<script src="…"> with no type) the pages of an entry load before it, in
// document order, as [{ file, defines }]: the same in each page, each one classicScripts names.
const classicTag = /<script src="([^"]+)"( defer)?><\/script>/g;
function classicScriptsOf(pages, entry) {
  let found = null;
  for (const [page, html] of pages) {
    const at = html.indexOf(`<script type="module" src="${entry}">`);
    const files = [...html.slice(0, at < 0 ? html.length : at).matchAll(classicTag)].map((m) => m[1]);
    if (found && found.join() !== files.join()) throw new Error(`${page} loads ${files.join(', ') || 'no classic script'} before ${entry}; ${pages[0][0]} ${found.join(', ') || 'none'}`);
    found = files;
  }
  return (found || []).map((file) => {
    if (!classicScripts.has(file)) throw new Error(`${pages[0][0]} loads ${file} before ${entry}, which classicScripts in scripts/build-dist.mjs does not name (with the globals it declares)`);
    return { file, ...classicScripts.get(file) };
  });
}

// A page of the bundle: its classic scripts' tags taken out (the bundle holds them) and its
// module script pointed at the bundle, render-blocking where moduleEntries says so.
function pageWithBundle(page, html, entry, classic, pageScript, renderBlocking) {
  let text = html;
  for (const c of classic) {
    const tag = new RegExp(`[ \\t]*<script src="${c.file.replace(/[.]/g, '\\.')}"( defer)?></script>\\n?`);
    if (!tag.test(text)) throw new Error(`${page} does not load ${c.file} as <script src="${c.file}">`);
    text = text.replace(tag, '');
  }
  const module = `<script type="module" src="${entry}"></script>`;
  if (!text.includes(module)) throw new Error(`${page} does not load ${entry} as ${module}`);
  const blocking = renderBlocking && classic.length ? ' blocking="render"' : '';
  return text.replace(module, `<script type="module" src="${pageScript}"${blocking}></script>`);
}

// A module's `new URL('./xray.css', import.meta.url)` names a file beside the module, but
// esbuild copies it into the bundle or chunk as written, where import.meta.url is the output
// file's (web/chunk-….js): it would ask for web/xray.css. So each such URL's file is written, while
// the module loads, as its path in the site behind a marker (sitePathMarker), and fromSitePaths writes
// it back relative to the output file it landed in; references() then finds and renames it like
// any other. A URL that names no file of the site stops the build: it would be a 404 on the page.
const fileUrl = /new\s+URL\(\s*(["'`])([^"'`$]+)\1\s*,\s*import\.meta\.url\s*\)/g;
const sitePathMarker = 'stepwise-site-path:';
const sitePaths = new RegExp(`(["'\`])${sitePathMarker}([^"'\`]+)\\1`, 'g');
// Also, as each module loads: `wrap(file)` names the global a classic script declares
// ({ defines }): its text is run in a function of its own, where a UMD tail's `module`, `exports`,
// `define` and `require` are nothing (the loader's Node branch never runs in a page), and the
// global set from what it returns; `extra(path, text)` is text added to the module (bundleEntry's
// import of the page entry).
function siteFileUrls(site, content, { wrap = () => null, extra = () => '' } = {}) {
  return {
    name: 'site-file-urls',
    setup(build) {
      build.onLoad({ filter: /\.m?js$/ }, (args) => {
        const file = path.relative(site, args.path).split(path.sep).join('/');
        const text = content.get(file)?.toString('utf8') ?? fs.readFileSync(args.path, 'utf8');
        let contents = text.replace(fileUrl, (whole, quote, written) => {
          if (/^[a-z]+:/i.test(written) || written.startsWith('/')) return whole;
          const target = posix.normalize(posix.join(posix.dirname(file), written));
          if (!content.has(target)) throw new Error(`${file}: new URL('${written}', import.meta.url) names ${target}, which the site does not have`);
          return `new URL(${quote}${sitePathMarker}${target}${quote}, import.meta.url)`;
        });
        const classic = wrap(file);
        if (classic) contents = `globalThis.${classic.defines} = (function (module, exports, define, require) {\n${contents}\nreturn ${classic.defines};\n})();\n`;
        return { contents: contents + extra(args.path, text), loader: 'js' };
      });
    },
  };
}
function fromSitePaths(outputFile, text) {
  return text.replace(sitePaths, (whole, quote, target) => {
    const relative = posix.relative(posix.dirname(outputFile), target);
    return `${quote}${relative.startsWith('../') ? relative : `./${relative}`}${quote}`;
  });
}

// The rules of scripts/serve.mjs, for a host that reads a _headers file (Netlify, Cloudflare
// Pages). docs/hosting.md has them for nginx and Apache.
function headersFile(hashed) {
  // One rule per hashed file: a host combines every rule that matches a path, so a pattern like
  // /*.js would also give sw.js a year's cache.
  // A module is compiled while it streams only when sent as application/wasm (else the loader
  // waits for its last byte and compiles it then): named, not left to the host's own table.
  const typed = (f) => (f.endsWith('.wasm') ? `  Content-Type: ${types['.wasm']}\n` : '');
  const immutable = [...hashed].sort().map((f) => `/${f}\n  Cache-Control: ${longCache}\n${typed(f)}`).join('\n');
  return `# Stepwise: cache, type and security rules (docs/hosting.md)
/*
  X-Content-Type-Options: nosniff
  Referrer-Policy: strict-origin-when-cross-origin

/
  Cache-Control: no-cache
  Content-Security-Policy: ${contentSecurityPolicy}

/*.html
  Cache-Control: no-cache
  Content-Security-Policy: ${contentSecurityPolicy}

/sw.js
  Cache-Control: no-cache

${immutable}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const site = path.resolve(process.argv[2] || path.join(root, 'build/site'));
  const out = path.resolve(process.argv[3] || path.join(root, 'dist'));
  const { version, files } = await buildDist({ site, out });
  console.log(`dist: ${out} (version ${version}, ${files.length} files, each with .gz and .br where text)`);
}
