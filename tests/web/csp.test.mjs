// Every page under a strict Content-Security-Policy: the one scripts/serve.mjs sends with every
// HTML page, exactly as issue 12 gives it. No inline script or style, no eval (Embind is built
// with -sDYNAMIC_EXECUTION=0), the WebAssembly module compiled under 'wasm-unsafe-eval' alone.
// Each page is loaded in Chromium with a listener for 'securitypolicyviolation' in every frame
// and the console watched for CSP errors; any report fails the test. Each page must also really
// run: its simulation steps and its canvas changes. A first test shows the listener does catch
// what the policy forbids, so that a silent page means a clean one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBrowser, framesPass, screenshot, root, allowProblems } from './helpers.mjs';
import { startServer, contentSecurityPolicy } from '../../scripts/serve.mjs';

const policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "img-src 'self' data: blob:; frame-ancestors *";

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

// In every frame, before its first script: every violation report, kept in window.__violations.
const violationRecorder = () => {
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__violations.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ` +
      `${(e.sourceFile || '').split('/').pop()}:${e.lineNumber} ${e.sample || ''}`.trim());
  });
};

const cspConsole = /Content.Security.Policy|Refused to (load|execute|apply|evaluate|compile|create|frame|connect)/i;

// A page of the site at `address` (relative to the site's root) under the policy; fn(page, p)
// runs with it. Afterwards no frame may have reported a violation, nor the console a CSP error
// or any other error.
async function underPolicy(address, fn, { width = 1280, height = 860, scheme = 'light' } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height }, colorScheme: scheme, acceptDownloads: true });
  const page = await context.newPage();
  const consoleProblems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || cspConsole.test(m.text())) consoleProblems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => consoleProblems.push(`pageerror: ${e.message}`));
  await context.addInitScript(violationRecorder);
  try {
    const response = await page.goto(env.server.url + address);
    assert.equal(response.headers()['content-security-policy'], policy, `${address} is served under the policy`);
    await fn(page, { context });
    const violations = [];
    for (const frame of page.frames()) {
      const found = await frame.evaluate(() => window.__violations || []).catch(() => []);
      for (const v of found) violations.push(`${frame.url().split('/').pop().slice(0, 60)}: ${v}`);
    }
    assert.deepEqual(violations, [], `${address}: no CSP violation in any frame`);
    assert.deepEqual(consoleProblems, [], `${address}: no CSP error (nor any error) in the console`);
  } finally {
    await context.close();
  }
}

// In a frame: its page has drawn its first frame and its simulation has passed time t.
const running = (t) => document.documentElement.classList.contains('ready') && window.stepwise.state().t > t;

// Plays `frame` (a page or an iframe's frame) and checks that its simulation steps (waited for:
// 0.05 s of simulated time, however busy the machine) and that `canvas` changed on screen.
async function animates(frame, canvas) {
  const before = await canvas.screenshot();
  const t0 = await frame.evaluate(() => window.stepwise.state().t);
  await frame.evaluate(() => window.stepwise.play());
  await frame.waitForFunction((from) => window.stepwise.state().t > from + 0.05, t0, { timeout: 60000, polling: 50 });
  await framesPass(frame, 2);  // drawn
  const t1 = await frame.evaluate(() => window.stepwise.state().t);
  assert.ok(t1 > t0 + 0.05, `the simulation steps (t ${t0} → ${t1})`);
  const after = await canvas.screenshot();
  assert.ok(!before.equals(after), 'the canvas changes');
}

test('the policy is the one given, on every HTML page; the listener catches what it forbids', async () => {
  assert.equal(contentSecurityPolicy, policy);
  for (const address of ['', 'index.html', 'embed.html', 'lesson.html', 'index.html?embed=1']) {
    const response = await fetch(env.server.url + address);
    assert.equal(response.headers.get('content-security-policy'), policy, address || '/');
  }
  // In force: an inline style attribute, an inline style element, an inline script and code from
  // a string are each refused and reported. Styles set through the CSSOM (el.style.height = …, which the
  // page uses) are not: the policy governs markup, not script's own assignments.
  const context = await env.browser.newContext();
  try {
    const page = await context.newPage();
    await context.addInitScript(violationRecorder);
    await page.goto(env.server.url);
    await page.evaluate(() => window.stepwise.ready);
    const outcome = await page.evaluate(async () => {
      const box = document.createElement('div');
      document.body.append(box);
      box.style.height = '17px';                      // CSSOM: allowed
      box.style.setProperty('--lane', '#123456');     // CSSOM: allowed
      const cssom = getComputedStyle(box).height;
      box.setAttribute('style', 'height: 33px');      // a style attribute: refused
      const attribute = getComputedStyle(box).height;
      const style = document.createElement('style');
      style.textContent = 'body { --csp-probe: applied; }';
      document.head.append(style);                   // an inline style element: refused
      const probe = getComputedStyle(document.body).getPropertyValue('--csp-probe');
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true;';
      document.head.append(script);                  // an inline script: refused
      // Code from a string, run by the page itself (a string timer is eval): refused. (eval
      // called right here would pass: the test harness's own evaluation is exempt.)
      setTimeout('window.__stringRan = true', 0);
      await new Promise((r) => setTimeout(r, 100));  // the reports are queued tasks
      return { cssom, attribute, probe, inlineRan: window.__inlineRan === true, stringRan: window.__stringRan === true,
        violations: window.__violations.map((v) => v.split(' ')[0]) };
    });
    assert.equal(outcome.cssom, '17px', 'a CSSOM assignment applies');
    assert.equal(outcome.attribute, '17px', 'the style attribute does not apply');
    assert.equal(outcome.probe, '', 'the style element does not apply');
    assert.equal(outcome.inlineRan, false, 'the inline script does not run');
    assert.equal(outcome.stringRan, false, 'code from a string does not run');
    assert.deepEqual(outcome.violations.sort(), ['script-src', 'script-src-elem', 'style-src-attr', 'style-src-elem'],
      'each reported, and nothing for the CSSOM');
    // The browser's console errors for the four refusals provoked here (tests/web/helpers.mjs).
    allowProblems(/^console error: (Applying inline style|Executing inline script|Evaluating a string as JavaScript) violates/);
  } finally {
    await context.close();
  }
});

test('index.html runs under the policy: it animates, and its views, dialog, cloud and exports work', async () => {
  await underPolicy('index.html#preset=damped_spring', async (page) => {
    await page.evaluate(() => window.stepwise.ready);
    await animates(page, page.locator('#view'));
    await screenshot(page, 'csp-index-desktop-light');
    // Enter in a field does not submit the form (the listener that replaced onsubmit). The dt
    // field is under "More" (the first screen's settings fold the rest away).
    await page.click('#more-settings > summary');
    await page.fill('#dt', '0.02');
    await page.press('#dt', 'Enter');
    await page.waitForFunction(() => window.stepwise.config().includes('&dt=0.02&'));
    assert.equal(await page.evaluate(() => performance.getEntriesByType('navigation').length), 1, 'no reload');
    // The Embed dialog: its preview frame (the page again), Enter in its fields keeps it open.
    await page.click('#embed');
    await page.frameLocator('#embed-preview').locator('#play').waitFor();
    const preview = page.frames().find((f) => f.url().includes('embed.html'));
    await preview.waitForFunction(running, 0.1);
    await page.focus('#embed-size');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#embed-dialog').isVisible(), true, 'Enter does not close the dialog');
    await page.click('#embed-close');
    // Exports: a blob: download each.
    for (const button of ['#export-csv', '#export-png']) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
      assert.ok(fs.statSync(await download.path()).size > 100, button);
    }
    // The analysis views are modules loaded on demand; the cloud panel sizes its canvas.
    for (const view of ['convergence', 'stability']) {
      await page.evaluate((v) => window.stepwise.set(`preset=damped_spring&view=${v}`), view);
      await page.waitForFunction(async () => ((await window.stepwise.debug.analysis()) || {}).progress > 0);
    }
    await page.evaluate(() => window.stepwise.set('preset=undamped_dt025&cloud=2000'));
    await animates(page, page.locator('#cloud-view'));
  });
});

test('embed.html at every ui level, index.html?embed=1, dark and phone: they run under the policy', async () => {
  const config = 'v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler&dt=0.1&duration=20&m=1&k=10&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0';
  for (const [address, options] of [
    [`embed.html?ui=none#${config}`, {}],
    [`embed.html?ui=compact&autoplay=1#${config}`, { scheme: 'dark' }],
    [`embed.html?ui=full#preset=two_springs`, { width: 390, height: 844 }],
    [`index.html?embed=1&ui=compact#preset=eccentric_orbit`, { width: 640, height: 400 }],
  ]) {
    await underPolicy(address, async (page) => {
      await page.evaluate(() => window.stepwise.ready);
      await animates(page, page.locator('#view'));
    }, options);
  }
});

test('lesson.html: its frames start and animate under the policy, and its buttons drive them', async () => {
  await underPolicy('lesson.html', async (page) => {
    await page.waitForFunction(() => /t = .* Explicit Euler: energy/.test(document.getElementById('readout-euler').textContent), null, { timeout: 20000 });
    // A frame plays only while it is in view (web/engine/runner.js).
    await page.locator('#frame-euler').scrollIntoViewIfNeeded();
    const first = await page.textContent('#readout-euler');
    await page.waitForFunction((was) => document.getElementById('readout-euler').textContent !== was, first, { timeout: 20000 });
    await page.click('button[data-frame="frame-euler"][data-dt="0.02"]');
    const frame = await (await page.$('#frame-euler')).contentFrame();
    await frame.waitForFunction(() => window.stepwise.config().includes('&dt=0.02&'));
    // The frames further down load lazily: scroll through the lesson so every one starts.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 400) { window.scrollTo(0, y); await new Promise((r) => setTimeout(r, 150)); }
    });
    const frames = page.frames().filter((f) => f.url().includes('embed.html'));
    assert.ok(frames.length >= 2, `${frames.length} frames`);
    for (const f of frames) {
      await (await f.frameElement()).scrollIntoViewIfNeeded();  // each plays while it is seen
      await f.waitForFunction(running, 0.2, { timeout: 20000 });
    }
  });
});

test('a tutorial page of another origin with the documented snippet: the frame runs under the policy', async () => {
  const doc = fs.readFileSync(path.join(root, 'docs/embedding.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## The snippet'));
  const start = section.indexOf('```html') + 7;
  const snippet = section.slice(start, section.indexOf('```', start)).replaceAll('https://YOUR-HOST/', env.server.url);
  assert.match(snippet, /^\s*<iframe src=".*embed\.html\?ui=compact&amp;autoplay=1#v=1&amp;/s);
  // The host's own style for the frame, for a host with a strict policy of its own (docs/embedding.md).
  const hostCss = doc.slice(doc.indexOf('```css') + 6, doc.indexOf('```', doc.indexOf('```css') + 6));
  assert.match(hostCss, /border: 0/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-host-'));
  const page = (head, body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A tutorial</title>` +
    `<link rel="icon" href="data:,">${head}</head><body><h1>A tutorial</h1>\n${body}\n</body></html>`;
  fs.writeFileSync(path.join(dir, 'plain.html'), page('', snippet));
  fs.writeFileSync(path.join(dir, 'host.css'), hostCss);
  fs.writeFileSync(path.join(dir, 'strict.html'),
    page('<link rel="stylesheet" href="host.css">', snippet.replace(/ style="[^"]*"/, '')));
  // Without a policy of its own, and with a strict one that allows the frame (frame-src).
  const hosts = [
    [null, 'plain.html'],
    [`default-src 'self'; style-src 'self'; img-src 'self' data:; frame-src ${env.server.url.replace(/\/$/, '')}`, 'strict.html'],
  ];
  try {
    for (const [hostPolicy, file] of hosts) {
      const host = await startServer({ root: dir, port: 0, policy: hostPolicy });
      const context = await env.browser.newContext({ viewport: { width: 900, height: 700 } });
      try {
        const tab = await context.newPage();
        const problems = [];
        tab.on('console', (m) => { if (m.type() === 'error' || cspConsole.test(m.text())) problems.push(m.text()); });
        tab.on('pageerror', (e) => problems.push(e.message));
        await context.addInitScript(violationRecorder);
        await tab.goto(host.url + file);
        await tab.waitForFunction(() => window.frames.length === 1);
        const frame = await (await tab.$('iframe')).contentFrame();
        // The snippet autoplays: the frame's simulation runs.
        await frame.waitForFunction(running, 0.3, { timeout: 15000 });
        const box = await tab.locator('iframe').boundingBox();
        assert.equal(Math.round(box.width), 640, `${file}: the snippet's size`);
        const border = await tab.locator('iframe').evaluate((f) => getComputedStyle(f).borderTopWidth);
        assert.equal(border, '0px', `${file}: no border (the snippet's style, or the host's stylesheet)`);
        await screenshot(tab, `csp-host-${file.replace('.html', '')}`);
        for (const f of tab.frames()) {
          assert.deepEqual(await f.evaluate(() => window.__violations || []), [], `${file}: ${f.url().slice(0, 60)}`);
        }
        assert.deepEqual(problems, [], file);
      } finally {
        await context.close();
        await host.close();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
