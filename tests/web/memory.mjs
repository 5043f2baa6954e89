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

// The number of objects whose prototype is what `expression` evaluates to in the page.
async function countByPrototype(cdp, expression) {
  const proto = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true });
  if (!proto.result.objectId) return null;
  const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId });
  const { result } = await cdp.send('Runtime.callFunctionOn', { objectId: objects.objectId, functionDeclaration: 'function () { return this.length; }', returnByValue: true });
  await cdp.send('Runtime.releaseObject', { objectId: objects.objectId });
  await cdp.send('Runtime.releaseObject', { objectId: proto.result.objectId });
  return result.value;
}

export async function memorySample(page) {
  const cdp = await session(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name) => metrics.find((m) => m.name === name)?.value ?? NaN;
  const handles = await countByPrototype(cdp, "import('/web/engine/wasm.js').then((m) => m.SimulationHandle.prototype)");
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
    };
  });
  return {
    heapMB: metric('JSHeapUsedSize') / 1e6, nodes: metric('Nodes'), listeners: metric('JSEventListeners'),
    handleObjects: handles, liveHandles: page0.live, motionWasmMB: page0.motionWasm / 1048576, fullWasmMB: page0.fullWasm / 1048576,
  };
}
