// What ships, opened everywhere (issue 31 §1): dist/ (scripts/build-dist.mjs) served by
// scripts/serve.mjs, with every view, dialog, panel and mode of the page opened as a teacher, a
// game programmer and a student would: the four views and the game loop's notice, the Methods and
// Keyboard help, the Embed dialog with its preview, Step code in every language, the exports, the
// X-ray, the scene editor, the force-law and loop settings, the embed page in each of its layouts,
// the lesson, German and dark. The helpers fail a test on any response of 400 or more and any
// console error (tests/web/helpers.mjs watchContext); here also the X-ray's and the editor's own
// style sheets (loaded on demand, by new URL(…, import.meta.url)) must apply, the X-ray open on
// the chain at 1280 must not widen the page, and every file of dist/ must have been asked for
// and served at least once over the suite (no part of the bundle left unopened). Screenshots in
// test-artifacts/dist-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startBrowser, openPage, screenshot, sleep, finished, site, unexpectedProblems, allowProblems } from './helpers.mjs';
import { openXray } from './xray-open.mjs';

// A bundle (what scripts/build-dist.mjs writes, with its worker), or build/site by STEPWISE_SITE:
// the checks of the bundle's files hold for a bundle only.
const isBundle = fs.existsSync(path.join(site, 'sw.js'));

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

// Every path a page of this suite asked for, with its status (the helpers fail on >= 400). Not the
// service worker's own requests: it fetches the whole bundle into its cache on install, which
// would make every file look used.
const served = new Map();
const record = (r) => {
  if (r.request().serviceWorker() || !r.url().startsWith(env.server.url)) return;
  served.set(new URL(r.url()).pathname.slice(1) || 'index.html', r.status());
};
async function open(options) {
  const p = await openPage(env, options);
  p.context.on('response', record);
  // What loaded before the listener (the page itself, its first scripts and the motion module).
  for (const e of await p.page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name).concat(location.href))) {
    const u = new URL(e);
    if (e.startsWith(env.server.url) && !served.has(u.pathname.slice(1) || 'index.html')) served.set(u.pathname.slice(1) || 'index.html', 200);
  }
  return p;
}
async function withPage(options, fn) {
  const p = await open(options);
  try {
    await fn(p.page, p);
    assert.deepEqual(p.problems, [], 'no console error or warning, no failed request');
  } finally {
    await p.context.close();
  }
}

// The style sheets of the page: each applied, with rules (a sheet sent as text/plain, or a 404,
// is refused by the browser and has none).
const sheets = (page) => page.evaluate(() => [...document.querySelectorAll('link[rel="stylesheet"]')]
  .map((l) => ({ href: new URL(l.href).pathname, rules: l.sheet ? l.sheet.cssRules.length : 0 })));
const computed = (page, selector, props) => page.$eval(selector, (e, ps) => {
  const s = getComputedStyle(e);
  return Object.fromEntries(ps.map((p) => [p, s.getPropertyValue(p)]));
}, props);
const pageWidth = (page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));

// The X-ray's own sheet applied: styles that only web/xray/xray.css sets (a grid panel with a
// 4 px lane-coloured edge, the trace command wrapping anywhere, the buttons apart).
async function assertXrayStyled(page, label) {
  const panel = await computed(page, '#xray', ['display', 'border-left-width']);
  assert.deepEqual(panel, { display: 'grid', 'border-left-width': '4px' }, `${label}: the X-ray panel is styled by xray.css`);
  assert.equal((await computed(page, '.xray-command', ['overflow-wrap']))['overflow-wrap'], 'anywhere', `${label}: the trace line wraps`);
  assert.equal((await computed(page, '.xray-head', ['display']))['display'], 'flex', `${label}: the X-ray's head in a row`);
  const gaps = await page.$$eval('.xray-actions button', (bs) => bs.slice(1).map((b, i) => b.getBoundingClientRect().left - bs[i].getBoundingClientRect().right));
  assert.ok(gaps.length > 0 && gaps.every((g) => g >= 4), `${label}: the X-ray's buttons stand apart: ${gaps}`);
  const xraySheet = (await sheets(page)).filter((s) => /^\/web\/xray\/xray(-[0-9a-f]{10})?\.css$/.test(s.href));
  assert.equal(xraySheet.length, 1, `${label}: one X-ray sheet, from its own folder: ${JSON.stringify(await sheets(page))}`);
  assert.ok(xraySheet[0].rules > 20, `${label}: the X-ray sheet applied`);
}

// The editor's own sheet applied: its toolbar in a row, the active tool filled with the accent.
async function assertEditorStyled(page, label) {
  assert.equal((await computed(page, '.edit-tools', ['display']))['display'], 'flex', `${label}: the editor's tools in a row`);
  const fills = await page.$$eval('.edit-tools button', (bs) => bs.map((b) => ({ pressed: b.getAttribute('aria-pressed'), bg: getComputedStyle(b).backgroundColor })));
  const pressed = fills.filter((f) => f.pressed === 'true'), unpressed = fills.filter((f) => f.pressed === 'false');
  assert.ok(pressed.length === 1 && unpressed.length > 0, `${label}: one active tool: ${JSON.stringify(fills)}`);
  const accent = await page.evaluate(() => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--accent)';
    document.body.append(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  });
  assert.equal(pressed[0].bg, accent, `${label}: the active tool is filled with the accent colour`);
  assert.ok(unpressed.every((f) => f.bg !== accent), `${label}: the other tools are not`);
  assert.equal((await computed(page, '.frame-controls', ['display']))['display'], 'none', `${label}: the frame's buttons make way for the editor`);
  const editorSheet = (await sheets(page)).filter((s) => /^\/web\/editor\/editor(-[0-9a-f]{10})?\.css$/.test(s.href));
  assert.equal(editorSheet.length, 1, `${label}: one editor sheet, from its own folder: ${JSON.stringify(await sheets(page))}`);
  assert.ok(editorSheet[0].rules > 20, `${label}: the editor sheet applied`);
}

async function openEditor(page) {
  await page.click('#edit-scene');
  await page.waitForFunction(() => window.stepwise.debug.editor()?.open === true && window.stepwise.debug.editor().map);
}

// A chain whose lanes can step its rigid links (the solvers), beside the reference.
const chain = 'scenario=chain&integrators=xpbd,soft_step,sequential_impulses';

test('the watch the helpers keep on every page: a 404 and a console error are caught', async () => {
  const context = await env.browser.newContext();  // a context the test makes itself is watched too
  try {
    const page = await context.newPage();
    await page.goto(`${env.server.url}index.html`);
    await page.evaluate(() => window.stepwise.ready);
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/web/no-such.css')),
      page.evaluate(() => fetch('web/no-such.css').catch(() => null))]);
    await page.evaluate(() => console.error('stepwise-test: a console error'));
    let found = [];
    for (let k = 0; k < 100; ++k) {
      found = unexpectedProblems();
      if (found.some((p) => /console error: stepwise-test/.test(p))) break;
      await sleep(20);
    }
    assert.ok(found.some((p) => /^404 GET http:\/\/127\.0\.0\.1:\d+\/web\/no-such\.css$/.test(p)), found.join('\n'));
    assert.ok(found.some((p) => /^console error: stepwise-test: a console error/.test(p)), found.join('\n'));
    // Expected here, so the check after this test passes; every other test fails on them.
    allowProblems(/no-such\.css/, /stepwise-test: a console error/, /Failed to load resource/);
  } finally {
    await context.close();
  }
});

test('served from dist/: hashed names, the X-ray and editor sheets among them', () => {
  if (!isBundle) return;
  for (const sheet of ['web/xray', 'web/editor']) {
    assert.ok(fs.readdirSync(path.join(site, sheet)).some((f) => /^(xray|editor)-[0-9a-f]{10}\.css$/.test(f)), `${sheet}'s sheet is shipped, hashed`);
  }
});

test('the X-ray on the chain at 1280 x 800, light and dark: its sheet applies and the page keeps its width', async () => {
  for (const scheme of ['light', 'dark']) {
    await withPage({ hash: chain, width: 1280, height: 800, scheme }, async (page) => {
      const r = await openXray(page, 'xpbd');
      assert.equal(r.open, true);
      await assertXrayStyled(page, `chain, ${scheme}`);
      const w = await pageWidth(page);
      assert.ok(w.scroll <= w.viewport, `chain, ${scheme}: the page is ${w.scroll} px wide in a ${w.viewport} px window`);
      await page.locator('#xray').scrollIntoViewIfNeeded();
      await screenshot(page, `dist-xray-chain-${scheme}`);
      await screenshot(page, `dist-xray-chain-${scheme}-page`, { fullPage: true });
      // The plots stay clear of the panel: the X-ray ends where the page's next part begins.
      const xray = await page.locator('#xray').boundingBox();
      const plots = await page.locator('#plots-title').evaluate((e) => e.parentElement.getBoundingClientRect().toJSON());
      assert.ok(xray.x + xray.width <= plots.left + 1 || xray.y + xray.height <= plots.top + 1 || plots.left + plots.width <= xray.x + 1,
        `chain, ${scheme}: the X-ray does not run over the plots: ${JSON.stringify({ xray, plots })}`);
    });
  }
  // The spring (the default system) too, at its every-digit Exact setting.
  await withPage({ hash: 'scenario=spring', width: 1280, height: 800 }, async (page) => {
    await openXray(page);
    await assertXrayStyled(page, 'spring');
    const exact = page.locator('.xray-actions button').first();
    await exact.click();
    const w = await pageWidth(page);
    assert.ok(w.scroll <= w.viewport, `spring: the page is ${w.scroll} px wide in a ${w.viewport} px window`);
  });
});

test('the scene editor, light and dark and on a phone: its sheet applies, the active tool shows', async () => {
  for (const [scheme, width, height] of [['light', 1280, 800], ['dark', 1280, 800], ['light', 390, 844]]) {
    await withPage({ hash: 'preset=two_point_exercise', width, height, scheme }, async (page) => {
      await openEditor(page);
      await assertEditorStyled(page, `editor ${scheme} ${width}`);
      const w = await pageWidth(page);
      assert.ok(w.scroll <= w.viewport, `editor ${scheme} ${width}: the page is ${w.scroll} px wide in ${w.viewport} px`);
      await screenshot(page, `dist-editor-${scheme}-${width}`);
      await page.click('#edit-done');
      await page.waitForFunction(() => window.stepwise.debug.editor().open === false);
    });
  }
});

test('every view: motion, phase cloud, convergence, stability, and the game loop\'s notice in place of a study', async () => {
  await withPage({ hash: 'preset=damped_spring', width: 1280, height: 860 }, async (page) => {
    const views = await page.$$eval('#view-tabs [role="tab"]', (tabs) => tabs.map((t) => t.dataset.view));
    assert.deepEqual([...views].sort(), ['cloud', 'convergence', 'motion', 'stability']);
    for (const id of views) {
      await page.click(`#tab-${id}`);
      await page.waitForFunction((v) => window.stepwise.debug.shownView() === v, id);
      if (id === 'convergence' || id === 'stability') {
        const r = await finished(page);
        assert.equal(r.state, 'done', id);
      } else if (id === 'cloud') {
        await page.waitForFunction(() => (window.stepwise.state().cloud?.points ?? 0) > 0);
      }
      await page.evaluate(() => window.stepwise.settled());
      await screenshot(page, `dist-view-${id}`);
    }
  });
  // A game loop rules the studies out: its notice shows, loaded on demand.
  await withPage({ hash: 'preset=damped_spring&loop=fixed&view=convergence' }, async (page) => {
    await page.waitForFunction(() => document.querySelector('#analysis')?.textContent.trim().length > 0);
    assert.ok(await page.locator('#analysis button').count() > 0, 'the notice offers to turn the loop off');
  });
});

test('every dialog and panel: Methods, Keyboard, Embed, Step code in every language, the exports, copy link, force law, game loop', async () => {
  await withPage({ hash: 'preset=damped_spring&fx=-k*x-b*vx', width: 1280, height: 860 }, async (page, { context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
    await page.click('#methods-open');
    await page.waitForSelector('#methods-dialog[open]');
    await page.check('#methods-all');
    assert.ok(await page.locator('#methods-list > *').count() >= 10, 'every method described');
    await page.keyboard.press('Escape');
    await page.click('#keys-open');
    await page.waitForSelector('#keys-dialog[open]');
    assert.ok(await page.locator('#keys-list tr').count() > 3);
    await page.keyboard.press('Escape');
    // Embed: its help (loaded on demand) and its preview frame, in each layout.
    await page.click('#embed');
    await page.waitForSelector('#embed-dialog[open]');
    for (const ui of ['none', 'compact', 'full']) {
      await page.selectOption('#embed-ui', ui);
      let frame = null;
      for (let k = 0; k < 300 && !frame; ++k) {
        frame = page.frames().find((f) => f.url().includes(`ui=${ui}`)) || null;
        if (!frame) await sleep(50);
      }
      assert.ok(frame, `the preview in ui=${ui}`);
      await frame.waitForFunction(() => window.stepwise && window.stepwise.ready);
      await frame.evaluate(() => window.stepwise.ready);
    }
    await page.click('#embed-close');
    // Step code, every language.
    await page.click('#step-code');
    await page.waitForSelector('#code-dialog[open]');
    const tabs = await page.$$eval('[id^="code-tab-"]', (ts) => ts.map((t) => t.id));
    assert.ok(tabs.length >= 4, `the languages: ${tabs}`);
    for (const id of tabs) {
      await page.click(`#${id}`);
      assert.ok((await page.textContent('#code-panel')).length > 200, id);
    }
    await page.keyboard.press('Escape');
    // The exports, each a download.
    for (const [button, ext] of [['#export-csv', '.csv'], ['#export-json', '.json'], ['#export-png', '.png']]) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
      assert.ok(download.suggestedFilename().endsWith(ext), `${button}: ${download.suggestedFilename()}`);
    }
    await page.click('#copy-link');
    await page.waitForFunction(() => document.getElementById('share-status').textContent.trim().length > 0);
    // The game loop's settings, picked in the panel.
    await page.selectOption('#loop', 'accumulator');
    await page.waitForFunction(() => window.stepwise.config().includes('loop=accumulator'));
    await page.waitForSelector('#loop-line');
  });
});

test('the embed page in each layout, with the editor when edit=1; the lesson with all its frames', async () => {
  for (const query of ['ui=none', 'ui=compact', 'ui=full', 'ui=full&edit=1']) {
    await withPage({ path: `embed.html?${query}`, hash: 'preset=scene_molecule', width: 800, height: 600 }, async (page) => {
      if (query.includes('edit=1')) {
        await openEditor(page);
        await assertEditorStyled(page, `embed ${query}`);
      }
      await page.evaluate(() => window.stepwise.play());
      await page.waitForFunction(() => window.stepwise.state().t > 0.05);
    });
  }
  // The lesson has no window.stepwise of its own (its frames have): opened here, not by openPage.
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 860 } });
  context.on('response', record);
  try {
    const page = await context.newPage();
    await page.goto(`${env.server.url}lesson.html`);
    // Every frame of the lesson, scrolled to (they load lazily).
    const frames = await page.locator('iframe').count();
    assert.ok(frames >= 2, `the lesson's demos: ${frames}`);
    for (let i = 0; i < frames; ++i) {
      await page.locator('iframe').nth(i).scrollIntoViewIfNeeded();
      const handle = await page.locator('iframe').nth(i).elementHandle();
      let frame = null;
      for (let k = 0; k < 200 && !frame; ++k) { frame = await handle.contentFrame(); if (!frame || frame.url() === 'about:blank') { frame = null; await sleep(50); } }
      await frame.waitForFunction(() => window.stepwise && window.stepwise.ready, null, { timeout: 30000 });
      await frame.evaluate(() => window.stepwise.ready);
    }
    await page.locator('button[data-dt="0.02"]').first().click();
    await screenshot(page, 'dist-lesson');
  } finally {
    await context.close();
  }
});

test('German and dark: the X-ray, the editor, Step code and the help in German on a dark page', async () => {
  await withPage({ hash: `${chain}&lang=de`, width: 1280, height: 800, scheme: 'dark' }, async (page) => {
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    await openXray(page, 'xpbd');
    await assertXrayStyled(page, 'German, dark');
    const w = await pageWidth(page);
    assert.ok(w.scroll <= w.viewport, `German, dark: the page is ${w.scroll} px wide`);
    await page.click('#xray-open');
    await page.waitForSelector('#xray', { state: 'hidden' });
    await openEditor(page);
    await assertEditorStyled(page, 'German, dark');
    await page.click('#edit-done');
    await page.click('#step-code');
    await page.waitForSelector('#code-dialog[open]');
    await page.keyboard.press('Escape');
    await page.click('#methods-open');
    await page.waitForSelector('#methods-dialog[open]');
    await page.keyboard.press('Escape');
    await screenshot(page, 'dist-german-dark');
  });
});

// The motion module's variants (core/parts.hpp): a link of each family opens in its own, the one
// module it loads before its first frame.
test('a link of each family of systems opens in its own variant of the motion module', async () => {
  for (const [hash, variant] of [['preset=hanging_chain', 'stepwise-links'], ['preset=scene_cloth', 'stepwise-scenes'],
    ['scenario=projectile&fx=-0.5*vx', 'stepwise-written'], ['preset=scene_duffing', 'stepwise-all']]) {
    await withPage({ hash, width: 1280, height: 860 }, async (page) => {
      await page.evaluate(() => window.stepwise.settled());
      const wasm = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname.slice(1))
        .filter((f) => f.endsWith('.wasm') && !f.startsWith('stepwise-full')));
      assert.equal(wasm.length, 1, `${hash}: one motion module, ${wasm}`);
      assert.match(wasm[0], new RegExp(`^${variant}(-[0-9a-f]{10})?\\.wasm$`), hash);
    });
  }
});

test('every file of dist/ was asked for and served over the suite: no part of the bundle unopened', () => {
  if (!isBundle) return;
  const listed = (dir, prefix = '') => fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listed(dir, `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
  // Not for a page: the precompressed copies (sent in place of their file), the host's rules,
  // and the worker (the browser fetches it for itself; dist.test checks it).
  const files = listed(site).filter((f) => !/\.(gz|br)$/.test(f) && f !== '_headers' && f !== 'sw.js');
  const unasked = files.filter((f) => !served.has(f));
  assert.deepEqual(unasked, [], `every shipped file loads somewhere: ${unasked.join(', ')}`);
  const failed = [...served].filter(([, status]) => status >= 400);
  assert.deepEqual(failed, []);
});
