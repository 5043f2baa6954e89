// What a page holds, after a full garbage collection, through Chromium's DevTools protocol: the
// JavaScript heap in use, the DOM nodes and event listeners alive (attached or not), how many
// simulation handles (web/engine/wasm.js SimulationHandle) still exist as objects, live or
// deleted, and the two WebAssembly modules' memories. For scripts/measure-soak.mjs and the tests
// that hold a page's memory flat (tests/web/memory.test.mjs).

// A CDP session on the page (one per page, reused).
const sessions = new WeakMap();
async function session(page) {
  if (!sessions.has(page)) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    sessions.set(page, cdp);
  }
  return sessions.get(page);
}

export async function memorySample(page) {
  const cdp = await session(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name) => metrics.find((m) => m.name === name)?.value ?? NaN;
  const page0 = await page.evaluate(async () => {
    const bytes = async (promise) => {
      if (!promise) return 0;
      const M = await promise;
      return M.HEAP8 ? M.HEAP8.buffer.byteLength : (M.wasmMemory ? M.wasmMemory.buffer.byteLength : 0);
    };
    return {
      motionWasm: await bytes(globalThis.__stepwiseModule),
      fullWasm: await bytes(globalThis.__stepwiseFullModule),
      live: window.stepwise.debug.handles().live,
      objects: window.stepwise.debug.handles().objects,  // weakly held: after the collection above
    };
  });
  return {
    heapMB: metric('JSHeapUsedSize') / 1e6, nodes: metric('Nodes'), listeners: metric('JSEventListeners'),
    handleObjects: page0.objects, liveHandles: page0.live, motionWasmMB: page0.motionWasm / 1048576, fullWasmMB: page0.fullWasm / 1048576,
  };
}
