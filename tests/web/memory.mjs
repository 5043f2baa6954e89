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

// Work under way when a sample is asked for (a view's task built in parts, a frame's drawing) still
// holds what it replaces: on a loaded machine a sample taken in the middle counted ~170 detached DOM
// nodes more than one taken a moment later, held by nothing after. So each sample waits for the
// page to be idle twice (requestIdleCallback: no task queued) before the collection, and what the
// page holds is the least of three such samples; anything kept for good is in all three.
const idle = (page) => page.evaluate(() => new Promise((resolve) =>
  requestIdleCallback(() => requestIdleCallback(resolve, { timeout: 5000 }), { timeout: 5000 })));

export async function memorySample(page) {
  const samples = [];
  for (let i = 0; i < 3; ++i) samples.push(await oneSample(page));
  const least = (key) => Math.min(...samples.map((s) => s[key]));
  return { ...samples[samples.length - 1], heapMB: least('heapMB'), nodes: least('nodes'), listeners: least('listeners') };
}

async function oneSample(page) {
  const cdp = await session(page);
  await idle(page);
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
