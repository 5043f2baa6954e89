// Starts the WebAssembly module as soon as its loader (stepwise.js) has run, while the page's ES
// modules are still arriving (main.js and its imports are a two-level waterfall of some thirty
// files): the module's download and compilation overlap them instead of following them.
// web/engine/wasm.js takes the promise from here. A classic deferred script, so it runs before the
// module scripts, in document order.
if (typeof globalThis.createStepwise === 'function') {
  globalThis.__stepwiseModule = globalThis.createStepwise();
  // Seen by loadCore(), which reports a failure; not an unhandled rejection meanwhile.
  globalThis.__stepwiseModule.catch(() => {});
}
