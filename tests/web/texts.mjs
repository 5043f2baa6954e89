// The page's English texts, found where they are written: every t(…), t_(…) and marked(…) with a
// literal text in web/ and public/lesson.js (web/common/language.js), and every text node and read
// attribute of the pages' HTML (what localisePage translates). The language tests check each
// against the German table.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArrayLayout } from '../../web/engine/layout.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The page's motion module (build/site, or STEPWISE_BUILT_SITE), in Node.
export function motionModule() {
  const site = process.env.STEPWISE_BUILT_SITE || path.join(root, 'build/site');  // the modules under their own names (tests/web/helpers.mjs builtSite)
  // The motion module's variant with every part of the core (core/parts.hpp), under the page's one loader.
  return createRequire(import.meta.url)(path.join(site, 'stepwise.js'))({ wasmBinary: fs.readFileSync(path.join(site, 'stepwise-all.wasm')) });
}

function scripts() {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) { if (e.name !== 'strings') walk(p); } else if (p.endsWith('.js')) out.push(p);
    }
  };
  walk(path.join(root, 'web'));
  return [...out, path.join(root, 'public/lesson.js')];
}

// A JavaScript string literal's value ('…' or "…", with the escapes the sources use).
function literal(text) {
  const body = text.slice(1, -1);
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|.)/g, (all, e) => {
    if (e[0] === 'u') return String.fromCodePoint(parseInt(e.replace(/[u{}]/g, ''), 16));
    return { n: '\n', t: '\t' }[e] ?? e;
  });
}

const quoted = String.raw`(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")`;
const call = new RegExp(String.raw`(?<![\w.$])(?:t|t_|marked)\(\s*(${quoted}(?:\s*\+\s*${quoted})*)`, 'g');

export function scriptTexts() {
  const keys = new Map();  // text -> first file
  for (const file of scripts()) {
    const source = fs.readFileSync(file, 'utf8');
    for (const m of source.matchAll(call)) {
      const text = [...m[1].matchAll(new RegExp(quoted, 'g'))].map((q) => literal(q[0])).join('');
      if (!keys.has(text)) keys.set(text, path.relative(root, file));
    }
  }
  return keys;
}

const entities = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'", '&nbsp;': '\u00a0' };
const decode = (s) => s.replace(/&(?:lt|gt|amp|quot|#39|nbsp);/g, (e) => entities[e]);

// How each language's step code was checked (the step code dialog shows it through t()).
export function snippetTexts() {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'snippets/manifest.json'), 'utf8'));
  return new Set(manifest.languages.map((l) => l.check));
}

// The texts of a page's HTML as the browser reads them: text nodes (white space runs as one) and
// the attributes people read, and the document's description.
export function htmlTexts(page) {
  const html = fs.readFileSync(path.join(root, 'public', page), 'utf8')
    .replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style)\b[\s\S]*?<\/\1>/g, '');
  const keys = new Set();
  for (const m of html.matchAll(/>([^<>]+)</g)) {
    const text = decode(m[1]).replace(/\s+/g, ' ').trim();
    if (/[A-Za-z]/.test(text)) keys.add(text);
  }
  for (const m of html.matchAll(/\s(aria-label|title|placeholder|alt)="([^"]+)"/g)) keys.add(decode(m[2]).trim());
  const description = html.match(/<meta name="description" content="([^"]+)"/);
  if (description) keys.add(decode(description[1]));
  return keys;
}

// The core's texts the page shows through t() (web/common/language.js localiseTables, the scene's
// texts, the stop reasons): from the module itself, every scenario and preset.
export function coreTexts(M) {
  const out = new Set();
  const add = (s) => { if (typeof s === 'string' && s) out.add(s); };
  const tables = JSON.parse(M.tables());
  for (const i of tables.integrators) for (const f of ['orders_text', 'order_note', 'evaluations_note']) add(i[f]);
  for (const f of tables.families) add(f.name);  // the integrators' headings (web/panels/controls.js)
  // The update equations' lines that have words in them (web/panels/help.js shows each through t()).
  for (const i of tables.integrators) {
    for (const line of String(i.update).split('\n')) if (/[a-z]{3,}/.test(line.replace(/\b(?:exp|sqrt|cos|sin|clamp|max|err|atol|rtol)\b/g, ''))) add(line);
  }
  for (const s of tables.scenarios) {
    add(s.rules);
    add(s.reference);
    for (const p of s.params) { add(p.label); add(p.meaning); }
  }
  for (const p of tables.presets) { add(p.name); add(p.description); }
  const loop = tables.loop;
  // (A key's `allowed` is built from its range in the page's language: web/language.js allowedText.)
  for (const k of loop.keys) for (const f of ['label', 'meaning']) add(k[f]);
  add('metres along x, m/s along vx');  // the note of cloud_radius's range (a message argument)
  add(loop.rules);
  for (const query of [...tables.scenarios.map((s) => `scenario=${s.id}`), ...tables.presets.map((p) => `preset=${p.id}`)]) {
    const sim = new M.Simulation(query);
    try {
      const scene = sim.scene();
      add(scene.phase.text);
      if (scene.cloudPlane) add(scene.cloudPlane.of);
      add(scene.reference.text);
      if (scene.regime) add(scene.regime.text);
      const layout = new ArrayLayout(sim.layout().history);
      for (const name of ['phase_q', 'phase_p']) add(layout.label(name));
      // Why a lane stopped (the legend and the plots show it through t()).
      for (const r of sim.layout().state.stop_reasons) add(r.text);
    } finally {
      sim.delete();
    }
  }
  return out;
}
