// A soak of the page (issue 40 §7; not a test): one page on the loopback server, in rounds; each
// round changes the configuration ten times (presets, a built scene, a 64-link chain with solver
// lanes, a phase-space cloud of 15 × 100,000 points in the full module, the analysis views) and
// makes a round in the scene editor (open, add two bodies and a rod, Done), plays a moment, and
// then, after a full garbage collection, samples what the page holds (tests/web/memory.mjs): the
// JavaScript heap, the DOM nodes, the event listeners, the simulation handles that still exist
// as objects, and the two WebAssembly modules' memories. Bounded in rounds and in time.
//   bash scripts/build-site.sh && node scripts/measure-soak.mjs [--rounds=9] [--max-seconds=300] [--dwell-ms=2500]
import os from 'node:os';
import { startBrowser, openPage, sleep } from '../tests/web/helpers.mjs';
import { memorySample } from '../tests/web/memory.mjs';
import { soakConfigs, editorRound } from '../tests/web/soak-steps.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const rounds = Math.min(40, Math.max(1, arg('rounds', 9)));
const maxSeconds = Math.min(1800, Math.max(10, arg('max-seconds', 300)));
// How long each configuration plays (its clouds built, its history and plots filling).
const dwellMs = Math.min(10000, Math.max(100, arg('dwell-ms', 2500)));

const env = await startBrowser();
const started = Date.now();
const { page, context, problems } = await openPage(env, { width: 1280, height: 860 });
const rows = [{ round: 0, changes: 0, ...(await memorySample(page)) }];
let changes = 0;
for (let round = 1; round <= rounds && (Date.now() - started) / 1000 < maxSeconds; ++round) {
  for (const query of soakConfigs) {
    await page.evaluate(async (q) => { window.stepwise.set(q); await window.stepwise.settled(); window.stepwise.play(); }, query);
    changes += 1;
    if (process.env.STEPWISE_SOAK_VERBOSE) console.log(`  ${((Date.now() - started) / 1000).toFixed(0)} s: ${query.slice(0, 60)}`);
    await sleep(dwellMs);
  }
  await editorRound(page);
  rows.push({ round, changes, ...(await memorySample(page)) });
  const r = rows.at(-1);
  console.log(`round ${round}: ${changes} changes; heap ${r.heapMB.toFixed(1)} MB, ${r.nodes} nodes, ${r.listeners} listeners, ` +
    `${r.handleObjects} handle objects (${r.liveHandles} live), wasm ${r.motionWasmMB.toFixed(0)} + ${r.fullWasmMB.toFixed(0)} MB`);
}
await context.close();
await env.close();
const first = rows[0], last = rows.at(-1);
console.log(`\n${rows.length - 1} rounds, ${changes} configuration changes in ${((Date.now() - started) / 1000).toFixed(0)} s ` +
  `(load ${os.loadavg()[0].toFixed(1)}): heap ${first.heapMB.toFixed(1)} → ${last.heapMB.toFixed(1)} MB ` +
  `(most ${Math.max(...rows.map((r) => r.heapMB)).toFixed(1)}), nodes ${first.nodes} → ${last.nodes}, ` +
  `handle objects ${first.handleObjects} → ${last.handleObjects}, full module ${last.fullWasmMB.toFixed(0)} MB ` +
  `(most ${Math.max(...rows.map((r) => r.fullWasmMB)).toFixed(0)})`);
if (problems.length) console.log(`console: ${problems.slice(0, 5).join(' | ')}`);
