// A run advances only while it can be seen (issue 11, defect 1): an embedded frame scrolled out of
// the host page's view, or any page in a hidden tab, holds its simulated time, and goes on from
// there without a jump when it is seen again. Frames offer a restart and, paused, a play button;
// autoplay=0 starts paused, and a bad autoplay value is named in the frame's message banner.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { startBrowser, openPage, framesPass, root } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const spring = 'v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler&dt=0.01&duration=60&m=1&k=10&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0';
const frameTime = (frame) => frame.evaluate(() => window.stepwise.state().t);
const ready = (frame) => frame.waitForFunction(() => window.stepwise && document.documentElement.classList.contains('ready'), null, { timeout: 20000 });

// Waits until the frame's t passes `after`; returns the wall time (ms) it took, measured in the frame.
async function advancesPast(frame, after) {
  await frame.waitForFunction((t) => window.stepwise.state().t > t, after, { timeout: 15000 });
  return frameTime(frame);
}

// Hides or shows the page as a browser does for a background tab (document.visibilityState and
// its event), while its animation frames keep coming: only the page's own check can hold it.
const setHidden = (frame, hidden) => frame.evaluate((h) => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
  document.dispatchEvent(new Event('visibilitychange'));
}, hidden);

// The host page on the site's own origin (as lesson.html is): Chromium throttles the animation
// frames of an unseen frame from another origin, but not of one from the same origin.
async function openFold(page, src) {
  const url = `${env.server.url}fold-host.html`;
  const body = fs.readFileSync(path.join(root, 'tests/web/fixtures/fold.html'), 'utf8');
  await page.route(url + '*', (route) => route.fulfill({ status: 200, contentType: 'text/html', body }));
  await page.goto(`${url}?src=${encodeURIComponent(src)}`);
  return (await page.$('#frame')).contentFrame();
}

test('a frame far below the fold waits until it is scrolled into view, then plays from t = 0', async () => {
  const context = await env.browser.newContext({ viewport: { width: 900, height: 600 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  try {
    const frame = await openFold(page, `${env.server.url}embed.html?ui=none&autoplay=1#${spring}`);
    await ready(frame);
    await frame.evaluate(() => window.stepwise.ready);
    await framesPass(frame, 60);
    const unseen = await frame.evaluate(() => window.stepwise.state());
    assert.equal(unseen.t, 0, 'no step while out of view');
    assert.equal(unseen.playing, true, 'autoplay=1: it plays once seen');
    await page.locator('#frame').scrollIntoViewIfNeeded();
    const seenAt = Date.now();
    const t = await advancesPast(frame, 0.3);
    // From t = 0 on, at 1×: no more simulated time than wall time since it was seen.
    assert.ok(t <= (Date.now() - seenAt) / 1000 + 0.05, `t = ${t} after ${(Date.now() - seenAt) / 1000} s in view`);
    // Out of view again: held, and back without the unseen time.
    await page.evaluate(() => window.scrollTo(0, 0));
    await framesPass(frame, 10);  // the frame's observer hears of it within a frame or two
    const left = await frameTime(frame);
    await framesPass(frame, 60);
    assert.equal(await frameTime(frame), left, 'held while scrolled away');
    await page.locator('#frame').scrollIntoViewIfNeeded();
    const backAt = Date.now();
    const back = await advancesPast(frame, left);
    assert.ok(back - left <= (Date.now() - backAt) / 1000 + 0.05, `no catch-up: ${left} → ${back}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('lesson.html: each demo runs only while it is in view; the second has not run while the reader is above it', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  try {
    await page.goto(`${env.server.url}lesson.html`);
    const euler = await (await page.$('#frame-euler')).contentFrame();
    await ready(euler);
    await page.locator('#frame-euler').scrollIntoViewIfNeeded();
    await advancesPast(euler, 0.5);  // the first demo, in view, plays
    const limit = await (await page.$('#frame-limit')).contentFrame();
    await ready(limit);
    await limit.evaluate(() => window.stepwise.ready);
    await framesPass(limit, 60);
    assert.equal(await frameTime(limit), 0, 'the second demo waits for its reader');
    await page.locator('#frame-limit').scrollIntoViewIfNeeded();
    await advancesPast(limit, 0.3);
    // The first one is out of view now: held.
    await framesPass(euler, 10);
    const held = await frameTime(euler);
    await framesPass(euler, 60);
    assert.equal(await frameTime(euler), held);
  } finally {
    await context.close();
  }
});

test('a hidden tab does not advance, the full page nor a frame, and resumes without a jump', async () => {
  for (const address of ['', `embed.html?ui=compact&autoplay=1`]) {
    const { page, context, problems } = await openPage(env, { path: address, hash: spring, width: 900, height: 600 });
    try {
      if (address === '') await page.click('#play');
      const t0 = await advancesPast(page, 0.2);
      await setHidden(page, true);
      await framesPass(page, 2);
      const hiddenT = await frameTime(page);
      assert.ok(hiddenT - t0 < 0.5, `${address}: ${t0} → ${hiddenT}`);
      await framesPass(page, 60);
      assert.equal(await frameTime(page), hiddenT, `${address || 'index.html'}: held while hidden`);
      assert.equal(await page.evaluate(() => window.stepwise.state().playing), true, 'still playing: held, not paused');
      await setHidden(page, false);
      const shownAt = Date.now();
      const back = await advancesPast(page, hiddenT);
      assert.ok(back - hiddenT <= (Date.now() - shownAt) / 1000 + 0.05, `no jump: ${hiddenT} → ${back}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('every frame offers a restart and, paused, a play button; autoplay=0 starts paused; a bad value is named', async () => {
  // ui=none: the frame's own play and restart buttons over the canvas.
  {
    const { page, context, problems } = await openPage(env, { path: 'embed.html?ui=none&autoplay=0', hash: spring, width: 480, height: 320 });
    try {
      const play = page.getByRole('button', { name: 'Play' });
      const restart = page.getByRole('button', { name: 'Restart' });
      assert.equal(await play.isVisible(), true, 'a play button while paused');
      assert.equal(await restart.isVisible(), true, 'a restart button');
      await framesPass(page, 30);
      assert.equal(await frameTime(page), 0, 'autoplay=0: paused');
      await play.click();
      await advancesPast(page, 0.3);
      assert.equal(await page.getByRole('button', { name: 'Pause' }).isVisible(), true);
      await restart.click();
      const t = await frameTime(page);
      assert.ok(t < 0.2, `restarted: t = ${t}`);
      assert.equal(await page.evaluate(() => window.stepwise.state().playing), true, 'and playing');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
  // At the end of a run every frame shows the restart, ui=compact too (it has Reset in its bar).
  {
    const short = spring.replace('duration=60', 'duration=0.5');
    const { page, context } = await openPage(env, { path: 'embed.html?ui=compact&autoplay=1', hash: short, width: 480, height: 320 });
    try {
      const restart = page.getByRole('button', { name: 'Restart' });
      await page.waitForFunction(() => window.stepwise.state().t >= 0.5 && !window.stepwise.state().playing);
      await restart.waitFor({ state: 'visible' });
      await restart.click();
      await advancesPast(page, 0.1);
    } finally {
      await context.close();
    }
  }
  // A value autoplay does not take: the frame says which, and starts paused.
  {
    const context = await env.browser.newContext({ viewport: { width: 480, height: 320 } });
    const page = await context.newPage();
    try {
      await page.goto(`${env.server.url}embed.html?ui=none&autoplay=yes#${spring}`);
      await page.evaluate(() => window.stepwise.ready);
      const banner = await page.locator('#error-list').innerText();
      assert.match(banner, /autoplay must be 1 \(play while the frame is in view\) or 0 \(start paused\); got 'yes'/);
      assert.equal(await page.locator('#errors').isVisible(), true);
      assert.equal(await frameTime(page), 0);
    } finally {
      await context.close();
    }
  }
});
