// Starts the WebAssembly module as soon as its loader (stepwise.js) has run, while the page's ES
// modules are still arriving: the module's compilation overlaps them instead of following them.
// The motion module is built in variants, one per family of systems (core/parts.hpp,
// wasm_bindings/CMakeLists.txt): the default link's carries none of the parts, others the links,
// the scenes or the written forces. The page's JSON block <script id="motion-variants"> (written
// by scripts/motion-variants.mjs from the core's own answers) lists them smallest first, with what
// needs a part. This picks the first variant that carries every part the link's scenario, preset,
// lanes and keys need, and starts it: a family's code is downloaded only when the link asks for it.
// That choice only saves a download: the core decides. A link whose parse still names missing
// parts is made again in a module that carries them (web/engine/wasm.js).
// web/engine/wasm.js takes the promise from here. In the site as built (build/site) a classic
// deferred script, so it runs before the module scripts, in document order; in dist/ the first
// part of the page's bundle.
if (typeof globalThis.createStepwise === 'function') {
  let table = null;
  try { table = JSON.parse(document.getElementById('motion-variants')?.textContent || 'null'); } catch { table = null; }
  let file = 'stepwise.wasm';
  if (table && Array.isArray(table.variants)) {
    const needed = new Set();
    const need = (group, id) => { for (const part of table.needs?.[group]?.[id] || []) needed.add(part); };
    // The link is the whole hash (web/app/links.js); web/app/mode.js took a link too long off the address already.
    let link;
    try { link = new URLSearchParams(location.hash.slice(1)); } catch { link = new URLSearchParams(''); }
    need('scenario', link.get('scenario'));
    need('preset', link.get('preset'));
    for (const lane of (link.get('integrators') || '').split(',')) need('integrators', lane.split('@')[0]);
    for (const key of link.keys()) need('keys', key);
    const variant = table.variants.find((v) => [...needed].every((part) => v.parts.includes(part)));
    if (variant) file = variant.file;
  }
  const address = new URL(file, document.baseURI).href;
  globalThis.__stepwiseModule = globalThis.createStepwise({ locateFile: (f, dir) => (f.endsWith('.wasm') ? address : dir + f) });
  // Seen by loadCore(), which reports a failure; not an unhandled rejection meanwhile.
  globalThis.__stepwiseModule.catch(() => {});
}
