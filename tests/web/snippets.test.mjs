// The Step code dialog (web/panels/stepcode.js, docs/snippets.md) in headless Chromium: it loads on
// demand (neither its module nor the snippets are fetched before the click), opens on the first
// lane's integrator, shows each language's file exactly as it is in snippets/ (the page's copy is
// generated from them at build time), marks the chosen variant's function, and Copy puts the file
// on the clipboard and says so. No console error: the page is served under the strict CSP
// (scripts/serve.mjs), so a violation would fail it. "The loop around it" shows, in every
// language, the loop's file (snippets/*/loop.*) under the call that hands it the chosen step
// (scripts/snippet-usage.mjs, run against the core by tests/snippets/). Screenshots (desktop,
// phone, dark, the loop in English at 1280 × 800, on a phone and in German) in test-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startBrowser, pageChecks, screenshot, root } from './helpers.mjs';
import { loopUsage, laneLoop } from '../../scripts/snippet-usage.mjs';
import { localiseComments, translator, codeLines } from '../../web/panels/code-comments.js';
import * as codeDe from '../../web/strings/code-de.js';

const german = translator(codeDe);

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
    // The scripts fetched, known by what they hold (in dist/ the names are hashed chunks'): the
    // dialog's module makes #code-dialog, the snippets' module holds the table of snippets.
    const fetched = [];
    page.on('response', (r) => {
      if (/\.js$/.test(new URL(r.url()).pathname)) fetched.push(r.text().then((text) => ({ url: r.url(), text }), () => null));
    });
    const loaded = async () => (await Promise.all(fetched)).filter((f) => f && (/code-dialog/.test(f.text) ||
      /"?integrator"?:"rk4"/.test(f.text))).map((f) => f.url);
    assert.deepEqual(await loaded(), [], 'nothing of the dialog is fetched before the click');
    await page.click('#step-code');
    await page.waitForSelector('#code-dialog[open]');
    assert.equal((await loaded()).length, 2, `the module and the snippets load on the click: ${await loaded()}`);
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

// The loop around the step: the loop's file, and the call for the chosen integrator and variant.
const loopFile = (lang) => fs.readFileSync(path.join(root, 'snippets', manifest.loop.files[lang]), 'utf8');
const call = (integrator, lang, variant) => loopUsage(integrator, file(integrator, 'js'))[lang][variant].text;
const usage = (page) => page.evaluate(() => {
  const u = document.getElementById('code-usage');
  return { visible: !u.hidden && u.getBoundingClientRect().height > 0, title: u.querySelector('h3').textContent, code: u.querySelector('code').textContent };
});
// The step's call in each language's loop call, for rk4's spring step and leapfrog's (with its carry).
const stepCall = {
  cpp: [/rk4::step_spring\(b, spring, h\)/, /leapfrog::step_spring\(b, carry, spring, h\)/],
  cs: [/Rk4\.StepSpring\(ref b, spring, h\)/, /Leapfrog\.StepSpring\(ref b, carry, spring, h\)/],
  js: [/stepSpring\(b, spring, h\)/, /stepSpring\(b, carry, spring, h\)/],
  gd: [/Rk4\.step_spring\(b, spring, h\)/, /Leapfrog\.step_spring\(b, carry, spring, h\)/],
};

test('Step code: the loop around the step in every language, its file and the call that hands it the chosen step; Copy takes either', async () => {
  await pageChecks(env, { hash: 'scenario=spring&integrators=rk4,leapfrog', height: 800 }, async (page, { context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
    await page.click('#step-code');
    await page.waitForSelector('#code-dialog[open]');
    assert.equal((await usage(page)).visible, false, 'the step first, no loop');
    await page.check('#code-part-loop');
    await page.check('#code-variant-on-a-spring');
    for (const lang of manifest.languages) {
      await page.click(`#code-tab-${lang.id}`);
      assert.equal(await shown(page), loopFile(lang.id), `${lang.name}: the shown code is snippets/${manifest.loop.files[lang.id]}`);
      assert.equal(await marked(page), '', `${lang.name}: the loop's file has nothing marked`);
      const u = await usage(page);
      assert.ok(u.visible, `${lang.name}: the call is shown`);
      assert.equal(u.title, 'The call that hands Runge–Kutta 4’s spring step to the loop:');
      assert.equal(u.code, call('rk4', lang.id, 'on-a-spring'), `${lang.name}: the call as scripts/snippet-usage.mjs writes it`);
      assert.match(u.code, stepCall[lang.id][0], `${lang.name}: the call hands rk4's spring step to the loop`);
      assert.match(u.code, /FixedStepLoop/);
      assert.match(await page.textContent('.code-check'), new RegExp(`^${lang.name.replace('+', '\\+')}: `));
    }
    assert.match(await page.textContent('.code-note'), /accumulator.*max_steps.*interpolated/);
    // The any-force variant hands over the step that takes the acceleration as a function.
    await page.check('#code-variant-any-force');
    await page.click('#code-tab-cpp');
    assert.equal((await usage(page)).code, call('rk4', 'cpp', 'any-force'));
    assert.match((await usage(page)).code, /rk4::step\(b, h, accel\)/);
    assert.equal(await shown(page), loopFile('cpp'), 'the variant changes the call, not the loop');
    // Another integrator: its step, with the carry it needs.
    await page.check('#code-variant-on-a-spring');
    await page.selectOption('#code-integrator', 'leapfrog');
    for (const lang of manifest.languages) {
      await page.click(`#code-tab-${lang.id}`);
      const u = await usage(page);
      assert.equal(u.code, call('leapfrog', lang.id, 'on-a-spring'));
      assert.match(u.code, stepCall[lang.id][1], `${lang.name}: leapfrog's step, its carry made once`);
      assert.equal(await shown(page), loopFile(lang.id));
    }
    // Copy takes the loop's file; Copy the call the call.
    await page.click('#code-tab-js');
    await page.click('#code-copy');
    await page.waitForFunction(() => /Copied/.test(document.getElementById('code-status').textContent));
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), loopFile('js'));
    assert.equal(await page.textContent('#code-status'), 'Copied: snippets/js/loop.js');
    await page.click('#code-copy-call');
    await page.waitForFunction(() => /the call/.test(document.getElementById('code-status').textContent));
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), call('leapfrog', 'js', 'on-a-spring'));
    assert.equal(await page.textContent('#code-status'), 'Copied: the call for Leapfrog');
    // At 1280 × 800 the call, the file and Copy are all on screen.
    for (const id of ['#code-usage', '#code-panel', '#code-copy']) {
      const box = await page.locator(id).boundingBox();
      assert.ok(box.y >= 0 && box.y + box.height <= 800, `${id} is on screen: ${JSON.stringify(box)}`);
    }
    await page.selectOption('#code-integrator', 'rk4');
    await page.click('#code-tab-cpp');
    await screenshot(page, 'stepcode-loop-desktop');
    // Back to the step: its file, the loop's call gone.
    await page.check('#code-part-step');
    assert.equal(await shown(page), file('rk4', 'cpp'));
    assert.equal((await usage(page)).visible, false);
  });
});

test('Step code: the loop on a phone and in German', async () => {
  await pageChecks(env, { hash: 'scenario=spring&integrators=velocity_verlet', width: 390, height: 844 }, async (page) => {
    await page.click('#step-code');
    await page.waitForSelector('#code-dialog[open]');
    await page.check('#code-part-loop');
    await page.click('#code-tab-gd');
    assert.equal(await shown(page), loopFile('gd'));
    assert.equal((await usage(page)).code, call('velocity_verlet', 'gd', 'on-a-spring'));
    const box = await page.locator('#code-dialog').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the dialog fits the phone's width: ${JSON.stringify(box)}`);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `the page does not scroll sideways (${wide} px)`);
    await screenshot(page, 'stepcode-loop-phone');
  });
  await pageChecks(env, { hash: 'scenario=spring&integrators=rk4&lang=de', height: 800 }, async (page) => {
    await page.click('#step-code');
    await page.waitForSelector('#code-dialog[open]');
    assert.equal((await page.textContent('label:has(#code-part-loop)')).trim(), 'Die Schleife drumherum');
    assert.equal((await page.textContent('label:has(#code-part-step)')).trim(), 'Den Schritt');
    await page.check('#code-part-loop');
    await page.click('#code-tab-cs');
    const u = await usage(page);
    assert.equal(u.title, 'Der Aufruf, der den Federschritt von Runge–Kutta 4 an die Schleife übergibt:');
    // The code stays as written, its comments in German (code-comments.test checks every file).
    assert.deepEqual(codeLines(u.code, 'cs'), codeLines(call('rk4', 'cs', 'on-a-spring'), 'cs'), 'the code stays as written');
    assert.match(u.code, /^\/\/ In jedem Bild, frameSeconds nach dem letzten:$/m);
    assert.equal(await shown(page), localiseComments(loopFile('cs'), 'cs', german));
    assert.match(await page.textContent('.code-note'), /^Die Schleife um den Schritt: /);
    assert.equal(await page.textContent('#code-copy-call'), 'Aufruf kopieren');
    await screenshot(page, 'stepcode-loop-de');
  });
});

// A game-physics solver's lane: the dialog opens on the lane's method (a lane id with settings,
// xpbd@20x1, is the method xpbd), shows its one step for bodies and constraints in every language
// with no choice of force, and in the loop the call that steps the whole world.
test('Step code on solver lanes: XPBD\'s step for bodies and constraints in every language, soft step\'s call in the loop', async () => {
  await pageChecks(env, { hash: 'preset=hanging_chain&integrators=xpbd@20x1,soft_step@4', height: 800 }, async (page, { context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
    await page.click('#step-code');
    await page.waitForSelector('#code-dialog[open]');
    assert.equal(await page.inputValue('#code-integrator'), 'xpbd', 'opens on the first lane\'s method');
    assert.equal(await page.isVisible('.code-missing'), false, 'a solver has step code: nothing is missing');
    assert.equal(await page.isVisible('#code-variant-any-force'), false, 'a solver has one step: no choice of force');
    assert.match(await page.textContent('#code-dialog .hint'), /^Bodies and distance constraints/);
    for (const lang of manifest.languages) {
      await page.click(`#code-tab-${lang.id}`);
      assert.equal(await shown(page), file('xpbd', lang.id), `${lang.name}: the shown code is snippets/${lang.id}/xpbd.${lang.id}`);
      const step = await marked(page);
      assert.match(step, /(?:step|Step)\((?:std::vector<Body>& |Body\[\] |)bodies(?:: Array)?, /, `${lang.name}: the step is marked`);
      assert.match(step, /constraints/);
    }
    assert.match(await page.textContent('.code-note'), /one substep for bodies and constraints/);
    await page.click('#code-tab-js');
    await screenshot(page, 'stepcode-solver-desktop');
    await page.click('#code-copy');
    await page.waitForFunction(() => /Copied/.test(document.getElementById('code-status').textContent));
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), file('xpbd', 'js'));

    // The call is written with the lane's own settings (issue 31 §2: not the example's 4 substeps
    // and a note to pass 20 and 1 by hand): XPBD · 20 substeps × 1 iteration, in every language,
    // as web/panels/snippet-usage.js writes it for laneLoop(20, 1) (tests/snippets runs that call).
    await page.check('#code-part-loop');
    assert.equal(await page.textContent('#code-usage-lane'),
      'This call is written for your lane, Extended PBD (XPBD) · 20 substeps × 1 iteration: 20 substeps a frame of 60 Hz (h = 1/1200 s), at most 40 steps a frame, 1 iteration each.');
    for (const lang of manifest.languages) {
      await page.click(`#code-tab-${lang.id}`);
      const u = await usage(page);
      assert.equal(u.code, loopUsage('xpbd', file('xpbd', 'js'), laneLoop(20, 1))[lang.id].constraints.text, `${lang.name}: the lane's call`);
      assert.match(u.code, /, 60(?:\.0)?, 20, 40\)/, `${lang.name}: the loop of 20 substeps`);
      assert.match(u.code, /(?:step|Step)\(bodies, constraints, h, accel, 1\)/, `${lang.name}: 1 iteration`);
      assert.doesNotMatch(u.code, /xpbd@4\b/);
    }
    await screenshot(page, 'i31-stepcode-lane-settings');
    // The second lane's method, and its call in the loop (another method than the lane's: no note).
    await page.selectOption('#code-integrator', 'soft_step');
    assert.equal(await page.isVisible('#code-usage-lane'), false);
    for (const lang of manifest.languages) {
      await page.click(`#code-tab-${lang.id}`);
      assert.equal(await shown(page), loopFile(lang.id));
      const u = await usage(page);
      assert.ok(u.visible, `${lang.name}: the call is shown`);
      assert.equal(u.title, 'The call that hands Soft step (Box2D v3)’s step to the loop:');
      assert.equal(u.code, call('soft_step', lang.id, 'constraints'), `${lang.name}: the call as scripts/snippet-usage.mjs writes it`);
      assert.match(u.code, /(?:step|Step)\(bodies, constraints, h, accel, 1\)/);
    }
    assert.match(await page.textContent('.code-note'), /A solver moves every body in place: draw the bodies as they are/);
    await screenshot(page, 'stepcode-solver-loop-desktop');
    // A one-body integrator again: the choice of force is back.
    await page.selectOption('#code-integrator', 'rk4');
    assert.equal(await page.isVisible('#code-variant-any-force'), true);
  });
});

// Issue 31 §2: on the German page the step code's comments were English. Now every comment the
// dialog shows is German, in all four languages (an explicit integrator, a symplectic one, RK4's
// loop call and XPBD with its lane's own settings), and the code is the file's, character for
// character: no comment line of the English file is left, no code line is changed.
test('Step code on the German page: German comments, the same code', async () => {
  const commentLines = (text, lang) => text.split('\n').map((l) => l.trim()).filter((l) => l.startsWith(lang === 'gd' ? '#' : '//'));
  const checkGerman = (text, english, lang, label) => {
    assert.notEqual(text, english, `${label}: not the English file`);
    assert.deepEqual(codeLines(text, lang), codeLines(english, lang), `${label}: the code is the file's`);
    const englishProse = new Set(commentLines(english, lang).filter((l) => /\b(the|and|of|is|returns|step)\b/.test(l)));
    const left = commentLines(text, lang).filter((l) => englishProse.has(l));
    assert.deepEqual(left, [], `${label}: English comment lines left`);
    assert.doesNotMatch(text, /(\/\/|#) .*\b(Force evaluations|Any force|returns|the step)\b/, `${label}: no English comment`);
  };
  await pageChecks(env, { hash: 'scenario=spring&integrators=explicit_euler,velocity_verlet,rk4&lang=de', height: 800 }, async (page) => {
    await page.click('#step-code');
    await page.waitForSelector('#code-dialog[open]');
    for (const [integrator, lang] of [['explicit_euler', 'cpp'], ['velocity_verlet', 'gd'], ['rk4', 'cs'], ['rk4', 'js']]) {
      await page.selectOption('#code-integrator', integrator);
      await page.click(`#code-tab-${lang}`);
      await page.check('#code-part-step');
      const text = await shown(page);
      checkGerman(text, file(integrator, lang), lang, `${integrator}.${lang}`);
      assert.match(text.replace(/\n\s*(\/\/|#) ?/g, ' '), /Kraftauswertungen je Schritt: \d/, `${integrator}.${lang}: the method's header in German`);
      await page.check('#code-part-loop');
      checkGerman((await usage(page)).code, call(integrator, lang, 'on-a-spring'), lang, `${integrator}.${lang}'s call`);
      checkGerman(await shown(page), loopFile(lang), lang, `loop.${lang}`);
    }
    await screenshot(page, 'stepcode-de-comments');
  });
  // XPBD's 20 × 1 lane: its call written with the lane's settings, the step file, both in German.
  await pageChecks(env, { hash: 'preset=hanging_chain&integrators=xpbd@20x1,soft_step@4&lang=de', height: 800, scheme: 'dark' }, async (page) => {
    await page.click('#step-code');
    await page.waitForSelector('#code-dialog[open]');
    assert.equal(await page.inputValue('#code-integrator'), 'xpbd');
    for (const lang of manifest.languages.map((l) => l.id)) {
      await page.click(`#code-tab-${lang}`);
      await page.check('#code-part-step');
      checkGerman(await shown(page), file('xpbd', lang), lang, `xpbd.${lang}`);
      await page.check('#code-part-loop');
      const u = (await usage(page)).code;
      checkGerman(u, loopUsage('xpbd', file('xpbd', 'js'), laneLoop(20, 1))[lang].constraints.text, lang, `xpbd@20x1's call in ${lang}`);
      assert.match(u, /60 Bilder je Sekunde, 20 Teilschritte \(h = 1\/1200 s\), höchstens 40 Schritte je Bild;/, `${lang}: the lane's settings in German`);
      assert.match(u, /iterations 1 \(Stepwises Bahn xpbd@20x1\)/);
    }
    await screenshot(page, 'stepcode-de-xpbd-lane');
  });
});
