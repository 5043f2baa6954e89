// The parts of the page its first frame does not need (web/app/later-parts.js: the help dialogs,
// the X-ray's button, sharing and export, the legend's quick study, the plots' readouts) arrive
// after the first frame, never before it; their controls show from the start, and a press or a
// key before they are there waits for them, never lost and never failing (web/app/later.js).
// Here their module's request is held until the test lets it through, so the presses come while
// it is on its way.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

// The later parts' module: in dist/ a chunk of the page's bundle, in build/site its own file.
const laterModule = /\/web\/app\/(chunk-[A-Z0-9]+-[0-9a-f]{10}|later-parts)\.js$/;

// The page with the later parts' requests held, once the first of them is: {page, context,
// problems, release(), firstFrameBefore (per request: whether the first frame was drawn when it was made)}.
async function openHeld() {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const waiting = [];
  const firstFrameBefore = [];
  let released = false;
  let firstHeld;
  const held = new Promise((resolve) => { firstHeld = resolve; });
  await page.route((url) => laterModule.test(url.pathname), async (route) => {
    firstFrameBefore.push(await page.evaluate(() => performance.getEntriesByName('stepwise:first-frame').length > 0));
    if (released) { await route.continue(); return; }
    waiting.push(route);
    firstHeld();
  });
  await page.goto(env.server.url);
  await page.waitForFunction(() => performance.getEntriesByName('stepwise:first-frame').length > 0, null, { timeout: 120000 });
  // The later parts are asked for once the page is ready (its plots drawn a frame after the first frame).
  await held;
  return {
    page, context, problems, firstFrameBefore,
    async release() {
      released = true;
      for (const route of waiting.splice(0)) await route.continue();
    },
  };
}

const controlState = (page, id, dialog) => page.evaluate(([i, d]) => ({
  busy: document.getElementById(i).getAttribute('aria-busy'), open: d ? document.getElementById(d).open : null,
}), [id, dialog]);

// fn(held) on a page opened with the later parts held (openHeld), with no console error or warning.
async function withHeld(fn) {
  const held = await openHeld();
  try {
    await fn(held);
    assert.deepEqual(held.problems, []);
  } finally {
    await held.context.close();
  }
}

test('the later parts are asked for after the first frame; a press of Keyboard before they arrive waits and then opens it, once', () => withHeld(async ({ page, firstFrameBefore, release }) => {
  assert.ok(firstFrameBefore.length > 0 && firstFrameBefore.every(Boolean), `the later parts asked for only after the first frame: ${firstFrameBefore}`);
  await page.click('#keys-open');
  await page.click('#keys-open');
  assert.deepEqual(await controlState(page, 'keys-open', 'keys-dialog'), { busy: 'true', open: false }, 'the press waits, the button says so');
  await release();
  await page.waitForSelector('#keys-dialog[open]');
  assert.deepEqual(await controlState(page, 'keys-open', 'keys-dialog'), { busy: null, open: true }, 'the press arrived: the keyboard help is open');
  assert.ok(await page.locator('#keys-list tr').count() > 0, 'with its keys listed');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.getElementById('keys-dialog').open);
  await page.evaluate(() => window.stepwise.ready);
  // From now on a press goes straight to the part.
  await page.click('#methods-open');
  assert.equal(await page.evaluate(() => document.getElementById('methods-dialog').open), true, 'Methods opens at once');
}));

test('the ? key before the later parts arrive opens the keyboard help once they are there', () => withHeld(async ({ page, release }) => {
  await page.locator('body').press('?');
  assert.equal(await page.evaluate(() => document.getElementById('keys-dialog').open), false, 'it waits for the help');
  await release();
  await page.waitForSelector('#keys-dialog[open]');
}));

test('the X-ray pressed twice before the later parts arrive opens once they are there (one press, not two)', () => withHeld(async ({ page, release }) => {
  await page.click('#xray-open');
  await page.click('#xray-open');
  assert.equal((await controlState(page, 'xray-open')).busy, 'true');
  await release();
  await page.waitForFunction(() => window.stepwise.debug.xray()?.open === true, null, { timeout: 60000 });
  assert.equal((await controlState(page, 'xray-open')).busy, null);
  assert.equal(await page.evaluate(() => window.stepwise.state().playing), false, 'the X-ray paused the run');
}));
