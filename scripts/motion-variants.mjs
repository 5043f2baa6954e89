// The motion module's variants in the built site (wasm_bindings/CMakeLists.txt builds one per row:
// stepwise.wasm carries no part of core/parts.hpp, stepwise-links.wasm the links, …), made ready
// for the page and described to it. Run by scripts/build-site.sh on build/site:
//   node scripts/motion-variants.mjs <site> <wasm build dir>
// 1. One loader for every variant. Emscripten names the wasm's imports by one letter, and names
//    them differently in each build (the loader's asmLibraryArg maps a letter to a function); the
//    rest of every variant's loader is the same. Each variant's wasm is copied into the site with
//    its imports renamed to the base loader's letters (same lengths, so only those bytes change),
//    after checking that its loader is then the base loader byte for byte: the page's one loader
//    (stepwise.js, bundled with the page in dist/) starts any of them.
// 2. The table the page chooses by (web/app/boot.js, web/engine/wasm.js): the variants, smallest
//    first, each with the parts it carries (asked of the module itself), and what needs a part: a
//    scenario, a preset, an integrator or a key, found by asking the base module to parse a link of
//    each (its missingParts; core/config.cpp). It is written into the site's pages as a JSON block
//    (<script type="application/json" id="motion-variants">), which no policy stops and nothing runs.
// Nothing here is kept by hand: the variants are the files the build made, their parts and the
// needs are the core's answers.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
export const baseVariant = 'stepwise';
const pagesWithTable = ['index.html', 'embed.html'];
export const variantsBlock = /(<script type="application\/json" id="motion-variants">)[^<]*(<\/script>)/;

// The loader's map from an import's letter to the function it names.
function importLetters(loader) {
  const m = loader.match(/var asmLibraryArg=\{([^}]*)\}/);
  if (!m) throw new Error('motion-variants: no asmLibraryArg in a loader (has Emscripten changed its output?)');
  return new Map(m[1].split(',').map((pair) => {
    const [letter, fn] = pair.split(':');
    return [JSON.parse(letter), fn];
  }));
}

const leb = (d, i) => {
  let r = 0, s = 0, x;
  do { x = d[i++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
  return [r, i];
};

// The wasm's imports: [{ module, field, fieldAt }] (fieldAt: where the field's bytes start).
function imports(wasm) {
  let i = 8;
  while (i < wasm.length) {
    const id = wasm[i++];
    let size;
    [size, i] = leb(wasm, i);
    const end = i + size;
    if (id === 2) {
      const out = [];
      let n, j = i, len;
      [n, j] = leb(wasm, j);
      for (let k = 0; k < n; k++) {
        [len, j] = leb(wasm, j);
        const module = wasm.subarray(j, j + len).toString();
        j += len;
        [len, j] = leb(wasm, j);
        const field = wasm.subarray(j, j + len).toString();
        out.push({ module, field, fieldAt: j });
        j += len;
        const kind = wasm[j++];
        if (kind === 0) [, j] = leb(wasm, j);
        else if (kind === 1) { j += 1; const [flags, a] = leb(wasm, j); [, j] = leb(wasm, a); if (flags & 1) [, j] = leb(wasm, j); }
        else if (kind === 2) { const [flags, a] = leb(wasm, j); [, j] = leb(wasm, a); if (flags & 1) [, j] = leb(wasm, j); }
        else if (kind === 3) j += 2;
        else throw new Error(`motion-variants: import kind ${kind} not understood`);
      }
      return out;
    }
    i = end;
  }
  return [];
}

// The variant's wasm with its imports renamed to the base loader's letters.
export function renamedToBase(name, wasm, loader, baseLoader) {
  const mine = importLetters(loader), base = importLetters(baseLoader);
  const letterOf = new Map([...base].map(([letter, fn]) => [fn, letter]));
  const out = Buffer.from(wasm);
  for (const imp of imports(wasm)) {
    if (imp.module !== 'a') continue;  // the loader's one import object (asmLibraryArg)
    const fn = mine.get(imp.field);
    const letter = letterOf.get(fn);
    if (!fn || !letter) throw new Error(`motion-variants: ${name} imports ${fn || imp.field}, which the base loader does not give`);
    if (letter.length !== imp.field.length) throw new Error(`motion-variants: ${name}'s import ${fn} is '${imp.field}', the base's '${letter}': not the same length`);
    out.write(letter, imp.fieldAt, 'latin1');
  }
  // Its own file's name (the page's locateFile gives the loader the variant's address) and its
  // imports' letters are all that may differ.
  const asBase = loader.replace(/var asmLibraryArg=\{[^}]*\}/, baseLoader.match(/var asmLibraryArg=\{[^}]*\}/)[0])
    .replace(`wasmBinaryFile="${name}.wasm"`, `wasmBinaryFile="${baseVariant}.wasm"`);
  if (asBase !== baseLoader) throw new Error(`motion-variants: ${name}.js differs from ${baseVariant}.js beyond its imports' letters: the page's one loader cannot start it`);
  return out;
}

async function moduleOf(loaderFile, wasm) {
  delete require.cache[require.resolve(loaderFile)];
  return require(loaderFile)({ wasmBinary: wasm });
}

const ids = (list) => list.map((r) => r.id);
const partsOf = (M, link) => [...M.parse(link).missingParts];

// The table of the variants in `dir` (a wasm build or a site): variants smallest first, and needs.
export async function variantsTable(dir, loaderDir = dir) {
  const names = fs.readdirSync(dir).filter((f) => /^stepwise(-[a-z]+)?\.wasm$/.test(f) && f !== 'stepwise-full.wasm')
    .map((f) => f.slice(0, -'.wasm'.length));
  if (!names.includes(baseVariant)) throw new Error(`motion-variants: ${dir} has no ${baseVariant}.wasm`);
  const variants = [];
  let base = null;
  for (const name of names) {
    const wasm = fs.readFileSync(path.join(dir, `${name}.wasm`));
    const loader = fs.existsSync(path.join(loaderDir, `${name}.js`)) ? path.join(loaderDir, `${name}.js`) : path.join(loaderDir, `${baseVariant}.js`);
    const M = await moduleOf(loader, wasm);
    if (name === baseVariant) base = M;
    variants.push({ file: `${name}.wasm`, parts: [...M.carriedParts()], gzip: zlib.gzipSync(wasm, { level: 9 }).length });
  }
  variants.sort((a, b) => a.gzip - b.gzip || a.file.localeCompare(b.file));
  const tables = JSON.parse(base.tables());
  const needs = { scenario: {}, preset: {}, integrators: {}, keys: {} };
  const note = (group, id, parts) => { if (parts.length) needs[group][id] = parts; };
  for (const id of ids(tables.scenarios)) note('scenario', id, partsOf(base, `scenario=${id}`));
  for (const id of ids(tables.presets)) note('preset', id, partsOf(base, `preset=${id}`));
  for (const id of ids(tables.integrators)) note('integrators', id, partsOf(base, `integrators=${id}`));
  for (const { key } of tables.shared_keys) if (!['scenario', 'preset', 'integrators'].includes(key)) note('keys', key, partsOf(base, `${key}=0`));
  return { variants: variants.map(({ file, parts }) => ({ file, parts })), needs };
}

export async function prepareSite(site, wasmDir) {
  const baseLoader = fs.readFileSync(path.join(wasmDir, `${baseVariant}.js`), 'utf8');
  for (const f of fs.readdirSync(wasmDir).filter((f) => /^stepwise-[a-z]+\.wasm$/.test(f) && f !== 'stepwise-full.wasm')) {
    const name = f.slice(0, -'.wasm'.length);
    const loader = fs.readFileSync(path.join(wasmDir, `${name}.js`), 'utf8');
    fs.writeFileSync(path.join(site, f), renamedToBase(name, fs.readFileSync(path.join(wasmDir, f)), loader, baseLoader));
  }
  fs.copyFileSync(path.join(wasmDir, `${baseVariant}.wasm`), path.join(site, `${baseVariant}.wasm`));
  const table = await variantsTable(site);
  for (const page of pagesWithTable) {
    const file = path.join(site, page);
    const html = fs.readFileSync(file, 'utf8');
    if (!variantsBlock.test(html)) throw new Error(`motion-variants: ${page} has no <script type="application/json" id="motion-variants"> block`);
    // '<' written as \u003c: the block ends at the first "</script>".
    fs.writeFileSync(file, html.replace(variantsBlock, (_, open, close) => open + JSON.stringify(table).replace(/</g, '\\u003c') + close));
  }
  return table;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [site, wasmDir] = process.argv.slice(2).map((d) => d && path.resolve(d));
  if (!site || !wasmDir) {
    console.error('usage: node scripts/motion-variants.mjs <site> <wasm build dir>');
    process.exit(2);
  }
  const table = await prepareSite(site, wasmDir);
  console.log(`motion variants: ${table.variants.map((v) => `${v.file} [${v.parts.join(', ') || 'no part'}]`).join(', ')}`);
}
