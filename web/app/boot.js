// Starts the WebAssembly module as soon as its loader (stepwise.js) has run, while the page's ES
// modules are still arriving: the module's compilation overlaps them instead of following them.
// Its bytes are already on the way: index.html preloads them (<link id="motion-module">), and the
// loader is told that address (locateFile), so its streaming fetch is the preload's request
// whichever file the loader's code ends up in (scripts/build-dist.mjs bundles it with the page).
// web/engine/wasm.js takes the promise from here. In the site as built (build/site) a classic
// deferred script, so it runs before the module scripts, in document order; in dist/ the first
// part of the page's bundle.
if (typeof globalThis.createStepwise === 'function') {
  const preload = document.getElementById('motion-module');
  globalThis.__stepwiseModule = globalThis.createStepwise(preload
    ? { locateFile: (file, dir) => (file.endsWith('.wasm') ? preload.href : dir + file) }
    : {});
  // Seen by loadCore(), which reports a failure; not an unhandled rejection meanwhile.
  globalThis.__stepwiseModule.catch(() => {});
}
