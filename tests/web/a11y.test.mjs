// axe-core (an npm devDependency, injected into the page) on every page and embed mode, in the
// light and the dark scheme: no violation at all, and no "needs review" item of serious or
// critical impact. The analysis views are checked once their first results are drawn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startBrowser, root } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const axePath = path.join(root, 'node_modules/axe-core/axe.min.js');

const pages = [
  ['index', { hash: 'preset=stiff_spring' }],
  ['embed none', { path: 'embed.html?ui=none', hash: 'preset=damped_spring', width: 640, height: 400 }],
  ['embed compact', { path: 'embed.html?ui=compact', hash: 'preset=damped_spring', width: 640, height: 400 }],
  ['embed full', { path: 'embed.html?ui=full', hash: 'preset=damped_spring', width: 800, height: 520 }],
  ['convergence', { hash: 'preset=damped_spring&view=convergence' }],
  ['stability', { hash: 'preset=damped_spring&view=stability' }],
  ['cloud', { hash: 'preset=undamped_dt025&view=cloud' }],
  ['lesson', { path: 'lesson.html' }],
  // A stopped lane's row (issue 31 §2: 3.84:1 on a diverged lane's energy and error text), in
  // English and German: played until explicit Euler diverges.
  ['index, a lane diverged', { hash: 'preset=stiff_spring', diverge: true }],
  ['index in German, a lane diverged', { hash: 'preset=stiff_spring&lang=de', diverge: true }],
];

// The rule, the impact and where, for a message that says what to fix.
const describe = (items) => items.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.slice(0, 4)
  .map((n) => `${n.target.join(' ')} ${n.failureSummary ? n.failureSummary.replace(/\s+/g, ' ').slice(0, 160) : ''}`).join('\n    ')}`).join('\n');

async function check(name, options, scheme) {
  // axe is injected as a script: the page's CSP (script-src 'self') is bypassed for the test only.
  const context = await env.browser.newContext({
    viewport: { width: options.width || 1280, height: options.height || 860 }, colorScheme: scheme, bypassCSP: true,
  });
  const page = await context.newPage();
  await page.goto(`${env.server.url}${options.path || ''}${options.hash ? `#${options.hash}` : ''}`);
  await page.waitForLoadState('load');
  // Every document with the page (the lesson's frames too) has drawn its first frame.
  await page.waitForFunction(() => [...document.querySelectorAll('iframe[src]')].every((f) => f.contentWindow?.stepwise));
  const frames = page.frames().filter((f) => f.url() !== 'about:blank' && f.url() !== '');
  for (const frame of frames) {
    await frame.waitForFunction(() => !document.querySelector('script[src$="main.js"]') || window.stepwise);
    await frame.evaluate(() => window.stepwise?.ready);
  }
  try {
    if (/convergence|stability/.test(name)) {
      await page.waitForFunction(async () => (await window.stepwise.debug.analysis()) !== null, null, { timeout: 60000 });
    }
    await page.evaluate(() => window.stepwise?.step());  // a lane's numbers on screen
    if (options.diverge) {
      await page.evaluate(() => window.stepwise.play());
      await page.waitForFunction(() => window.stepwise.state().integrators.some((i) => i.diverged), null, { timeout: 60000 });
      await page.evaluate(() => window.stepwise.pause());
      await page.waitForFunction(() => document.querySelector('.legend-row.diverged'));
    }
    const results = [];
    for (const frame of frames) {
      await frame.addScriptTag({ path: axePath });
      // Each document on its own (a frame is checked as the page it is).
      // (frame-tested only says a frame was left to its own run: it is, here.)
      results.push(await frame.evaluate(() => window.axe.run(document, {
        iframes: false, resultTypes: ['violations', 'incomplete'], rules: { 'frame-tested': { enabled: false } },
      })));
    }
    const violations = results.flatMap((r) => r.violations);
    const review = results.flatMap((r) => r.incomplete).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.equal(violations.length, 0, `${name} (${scheme}): violations\n${describe(violations)}`);
    assert.equal(review.length, 0, `${name} (${scheme}): serious or critical items to review\n${describe(review)}`);
  } finally {
    await context.close();
  }
}

for (const [name, options] of pages) {
  for (const scheme of ['light', 'dark']) {
    test(`axe-core: ${name}, ${scheme}`, async () => { await check(name, options, scheme); });
  }
}
