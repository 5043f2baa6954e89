// What the default page asks for before its first frame, in dist/ (issue 32 §1): at most four
// requests (the page, its style sheet, its one bundle of scripts, the WebAssembly module), counted
// as scripts/size-report.mjs and scripts/measure-first-frame.mjs count them; and the module's
// request starts first, from the page's <link rel="preload">, not after the scripts: one request,
// which the loader's streaming compilation takes over. Order and counts only: the time this takes
// is the measurement script's (docs/performance-web.md), never a test's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, openPage, site, defaultSite } from './helpers.mjs';
import { firstFrameLoads } from '../../scripts/size-report.mjs';

const maxRequests = 4;
const skip = site !== defaultSite && `the site served is ${site}, not dist/ (the bundle): its files are unbundled`;
let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const firstFrame = (page) => page.waitForFunction(() => performance.getEntriesByName('stepwise:first-frame').length > 0, null, { timeout: 120000 });

// With no link, the default link's variant of the motion module (the smallest, core/parts.hpp);
// with a chain's link, the links' variant in its place: one wasm request either way, the one the
// page's bundle makes as it starts (web/app/boot.js), after the one script.
for (const [path0, hash, variant] of [['', '', 'stepwise'], ['embed.html', '', 'stepwise'], ['', 'preset=hanging_chain', 'stepwise-links']]) {
  const name = `${path0 || 'index.html'} ${hash ? `with #${hash}` : 'with no link'}`;
  test(`${name}: at most ${maxRequests} requests before the first frame, one of them its own variant of the module`, { skip }, async () => {
    const { page, context, problems } = await openPage(env, { path: path0, hash });
    try {
      await firstFrame(page);
      const { before: requested } = await firstFrameLoads(page.mainFrame());
      assert.ok(requested.length <= maxRequests, `${requested.length} requests before the first frame, at most ${maxRequests}: ${requested.join(', ')}`);
      const entries = await page.evaluate(() => performance.getEntriesByType('resource')
        .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime, initiator: e.initiatorType })));
      const wasm = entries.filter((e) => /\.wasm$/.test(e.path));
      assert.equal(wasm.length, 1, `one motion module fetched: ${JSON.stringify(wasm)}`);
      assert.match(wasm[0].path, new RegExp(`^/${variant}-[0-9a-f]{10}\\.wasm$`), `the variant ${variant}`);
      const bundle = entries.find((e) => /^\/web\/app\/main-[0-9a-f]{10}\.js$/.test(e.path));
      assert.ok(bundle, 'the page\'s bundle');
      assert.ok(wasm[0].start >= bundle.start, `the module is asked for by the bundle's boot (${wasm[0].start} ms), not before it (${bundle.start} ms)`);
      assert.deepEqual(problems, [], 'no console warning (a preload left unused is one), no error, no failed request');
    } finally {
      await context.close();
    }
  });
}
