// Builds dist/, the static bundle a school server, GitHub Pages or any static host serves as it is
// (docs/hosting.md), from the assembled site (build/site, scripts/build-site.sh):
// - the JavaScript bundled and minified by esbuild (bundled() below): each page's ES module graph
//   from its entry into one file, what it imports on demand (an analysis view, the X-ray, the
//   step code) into chunks of their own; the classic scripts (the modules' loaders among them)
//   and the style sheets minified as they are;
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
import { contentSecurityPolicy, longCache } from './serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entryPoints = ['index.html', 'embed.html', 'lesson.html'];
const serviceWorker = 'sw.js';
// Files of the site that are not the product: web/package.json tells node the modules are ES
// modules (the tests import them); a browser never asks for it.
const notShipped = new Set(['web/package.json']);
const compressed = /\.(html|js|mjs|css|json|svg|txt|wasm)$/;
// The pages' ES module entries (index.html and embed.html load web/app/main.js, lesson.html lesson.js).
const moduleEntries = ['web/app/main.js', 'lesson.js'];
// What the bundle runs on: the browsers the WebAssembly module needs (SIMD, CMakeLists.txt).
const browsers = ['chrome91', 'edge91', 'firefox89', 'safari16.4'];
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

// The site's files as dist/ ships them: the module graphs of moduleEntries bundled, minified and
// split where the code imports on demand (every module a bundle contains is left out), every
// other script and style sheet minified alone. Scripts that are not modules (web/app/mode.js,
// web/app/boot.js, stepwise.js, stepwise-full.js) are minified as scripts: their top-level names
// (createStepwise, createStepwiseFull) stay. Deterministic: esbuild names chunks by content.
async function bundled(site, content) {
  const entries = moduleEntries.filter((f) => content.has(f));
  const result = await esbuild.build({
    absWorkingDir: site, entryPoints: entries, outdir: site, outbase: site, write: false,
    bundle: true, splitting: true, format: 'esm', minify: true, target: browsers, charset: 'utf8',
    entryNames: '[dir]/[name]', chunkNames: 'web/chunk-[hash]', metafile: true, legalComments: 'none', logLevel: 'error',
    plugins: [siteFileUrls(site, content)],
  });
  const out = new Map(content);
  for (const input of Object.keys(result.metafile.inputs)) out.delete(input);
  for (const file of result.outputFiles) {
    const name = path.relative(site, file.path).split(path.sep).join('/');
    out.set(name, Buffer.from(fromSitePaths(name, file.text), 'utf8'));
  }
  for (const [f, data] of out) {
    const loader = f.endsWith('.css') ? 'css' : f.endsWith('.js') ? 'js' : null;
    if (!loader || result.outputFiles.some((o) => o.path === path.join(site, f))) continue;
    const minified = esbuild.transformSync(data.toString('utf8'), {
      loader, minify: true, target: browsers, charset: 'utf8', legalComments: 'none', sourcefile: f,
    });
    out.set(f, Buffer.from(minified.code, 'utf8'));
  }
  return out;
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
function siteFileUrls(site, content) {
  return {
    name: 'site-file-urls',
    setup(build) {
      build.onLoad({ filter: /\.m?js$/ }, (args) => {
        const file = path.relative(site, args.path).split(path.sep).join('/');
        const text = content.get(file)?.toString('utf8') ?? fs.readFileSync(args.path, 'utf8');
        const contents = text.replace(fileUrl, (whole, quote, written) => {
          if (/^[a-z]+:/i.test(written) || written.startsWith('/')) return whole;
          const target = posix.normalize(posix.join(posix.dirname(file), written));
          if (!content.has(target)) throw new Error(`${file}: new URL('${written}', import.meta.url) names ${target}, which the site does not have`);
          return `new URL(${quote}${sitePathMarker}${target}${quote}, import.meta.url)`;
        });
        return { contents, loader: 'js' };
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
  const immutable = [...hashed].sort().map((f) => `/${f}\n  Cache-Control: ${longCache}\n`).join('\n');
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
