// The Step code dialog (web/stepcode.js, docs/snippets.md) in headless Chromium: it loads on
// demand (neither its module nor the snippets are fetched before the click), opens on the first
// lane's integrator, shows each language's file exactly as it is in snippets/ (the page's copy is
// generated from them at build time), marks the chosen variant's function, and Copy puts the file
// on the clipboard and says so. No console error: the page is served under the strict CSP
// (scripts/serve.mjs), so a violation would fail it. Screenshots (desktop, phone, dark) in
// test-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startBrowser, pageChecks, screenshot, root } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const manifest = JSON.parse(fs.readFileSync(path.join(root, 'snippets/manifest.json'), 'utf8'));
const file = (integrator, lang) => fs.readFileSync(path.join(root, 'snippets', manifest.snippets
  .find((s) => s.integrator === integrator).files[lang]), 'utf8');
const shown = (page) => page.evaluate(() => document.querySelector('#code-panel code').textContent);
const marked = (page) => page.evaluate(() => document.querySelector('#code-panel mark')?.textContent ?? '');

test('Step code: rk4 in every language equals its file in snippets/, the variant marks its function, Copy copies it', async () => {
  await pageChecks(env, { hash: 'scenario=spring&integrators=rk4,semi_implicit_euler' }, async (page, { context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
    const fetched = [];
    page.on('request', (r) => fetched.push(r.url()));
    const loaded = () => fetched.filter((u) => /stepcode\.js|snippets-data\.js/.test(u));
    assert.deepEqual(loaded(), [], 'nothing of the dialog is fetched before the click');
    await page.click('#step-code');
    await page.waitForSelector('#code-dialog[open]');
    assert.equal(loaded().length, 2, `the module and the snippets load on the click: ${loaded()}`);
    assert.equal(await page.inputValue('#code-integrator'), 'rk4', 'opens on the first lane');

    for (const lang of manifest.languages) {
      await page.click(`#code-tab-${lang.id}`);
      assert.equal(await page.getAttribute(`#code-tab-${lang.id}`, 'aria-selected'), 'true');
      assert.equal(await shown(page), file('rk4', lang.id), `${lang.name}: the shown code is snippets/${lang.id}/rk4.${lang.id}`);
      assert.match(await page.textContent('.code-check'), new RegExp(`^${lang.name.replace('+', '\\+')}: `));
      // The spring variant marks the spring step, the generic one the step taking a function.
      await page.check('#code-variant-on-a-spring');
      assert.match(await marked(page), /step_spring|stepSpring|StepSpring/, `${lang.name}: spring variant`);
      await page.check('#code-variant-any-force');
      const generic = await marked(page);
      assert.match(generic, /accel/, `${lang.name}: the any-force step takes the acceleration as a function`);
      assert.doesNotMatch(generic, /step_spring\(|stepSpring\(|StepSpring\(/, `${lang.name}: generic variant`);
      assert.equal(await shown(page), file('rk4', lang.id), `${lang.name}: marking changes no character`);
    }

    // Copy: the clipboard holds the file, the status says so.
    await page.click('#code-tab-gd');
    await page.click('#code-copy');
    await page.waitForFunction(() => /Copied/.test(document.getElementById('code-status').textContent));
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), file('rk4', 'gd'));
    assert.equal(await page.textContent('#code-status'), 'Copied: snippets/gd/rk4.gd');

    // Another integrator from the list.
    await page.selectOption('#code-integrator', 'yoshida4');
    await page.click('#code-tab-cpp');
    assert.equal(await shown(page), file('yoshida4', 'cpp'));
    await page.selectOption('#code-integrator', 'rk4');
    await page.check('#code-variant-on-a-spring');
    await screenshot(page, 'stepcode-desktop');
    await page.click('.code-actions button:has-text("Close")');
    assert.equal(await page.$('#code-dialog[open]'), null, 'Close closes the dialog');
  });
});

test('Step code on a phone, in dark mode: the dialog fits the width and its code scrolls inside', async () => {
  await pageChecks(env, { hash: 'scenario=spring&integrators=velocity_verlet', width: 390, height: 844, scheme: 'dark' }, async (page) => {
    await page.click('#step-code');
    await page.waitForSelector('#code-dialog[open]');
    await page.click('#code-tab-js');
    assert.equal(await shown(page), file('velocity_verlet', 'js'));
    const box = await page.locator('#code-dialog').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the dialog fits the phone's width: ${JSON.stringify(box)}`);
    const copy = await page.locator('#code-copy').boundingBox();
    assert.ok(copy.y + copy.height <= 844, `Copy is on screen without scrolling: ${JSON.stringify(copy)}`);
    const tabs = await Promise.all(['cpp', 'gd'].map((id) => page.locator(`#code-tab-${id}`).boundingBox()));
    assert.equal(tabs[0].y, tabs[1].y, 'the four language tabs fit on one row');
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `the page does not scroll sideways (${wide} px)`);
    const colours = await page.evaluate(() => {
      const s = getComputedStyle(document.querySelector('#code-panel'));
      return { fg: s.color, bg: s.backgroundColor };
    });
    assert.notEqual(colours.fg, colours.bg);
    assert.match(colours.bg, /rgb\((1\d|2\d), (1\d|2\d), (1\d|2\d)\)/, `a dark code background: ${colours.bg}`);
    await screenshot(page, 'stepcode-phone-dark');
  });
});

test('Step code opens on the lane being looked at: the X-ray\'s integrator, not the first lane', async () => {
  await pageChecks(env, { hash: 'scenario=spring&integrators=rk4,semi_implicit_euler' }, async (page) => {
    await page.evaluate(() => window.stepwise.pause());
    await page.click('#xray-open');
    await page.waitForSelector('#xray:not([hidden])');
    await page.selectOption('#xray-lane', 'semi_implicit_euler');
    await page.waitForFunction(() => window.stepwise.debug.xray().integrator === 'semi_implicit_euler');
    await page.click('#step-code');
    await page.waitForSelector('#code-dialog[open]');
    assert.equal(await page.inputValue('#code-integrator'), 'semi_implicit_euler');
  });
});
