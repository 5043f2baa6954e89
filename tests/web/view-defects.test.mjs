// Issue 23, defects 1, 2 and 6 of the views, in headless Chromium:
// 1. each analysis view shows only its own parts (Stability after Convergence shows no
//    convergence explanation, bar, plots or table; Convergence after Stability no map), and the
//    analysis region a screen reader reads holds only the view shown, named by its tab;
// 2. on a game-loop preset a view the core cannot run with the loop (Convergence, Phase cloud;
//    Stability with a variable loop) opens with its tab, says inside the view what to change and
//    offers one button that turns the loop off keeping its physics step as dt; no banner, since
//    the user clicked a tab, not a link;
// 3. opening Phase cloud sets view=cloud only: its cloud is not written into the link, Copy link
//    or the embed, and back on Motion the cloud panel and the area plot are gone; cloud settings
//    the user changes do enter the link.
// Screenshots of the views changed (desktop, phone, German) in test-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, state, screenshot, config, errors, finished } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const withPage = (options, fn) => pageChecks(env, options, fn);
const report = (page) => page.evaluate(() => window.stepwise.debug.analysis());
const visible = (page, selector) => page.locator(selector).first().isVisible();
// What a screen reader finds in the analysis region (Playwright's accessibility snapshot).
const spoken = (page) => page.locator('#analysis').ariaSnapshot();

test('defect 1: Stability shows only the stability view, Convergence only its own, and the analysis region follows', async () => {
  await withPage({ hash: 'preset=two_springs', width: 1280, height: 800 }, async (page) => {
    await page.click('#tab-convergence');
    await finished(page);
    assert.equal(await visible(page, '.convergence-view'), true);
    assert.equal(await visible(page, '.stability-view'), false, 'no stability view yet');
    await page.click('#tab-stability');
    await finished(page);
    assert.equal(await visible(page, '.stability-map'), true);
    for (const selector of ['.convergence-view', '.study-bar', '.study-table', '.study-button']) {
      assert.equal(await visible(page, selector), false, `${selector} is not shown on the Stability tab`);
    }
    assert.equal(await page.locator('.analysis-view:visible').count(), 1, 'one analysis view shown');
    let text = await spoken(page);
    assert.match(text, /Stable regions/);
    assert.doesNotMatch(text, /Run again|Max position error|Work–precision|halving dt divides/, 'the stability region reads no convergence part');
    assert.equal(await page.getAttribute('#analysis', 'aria-labelledby'), 'tab-stability');
    await screenshot(page, 'i23-stability-alone');

    await page.click('#tab-convergence');
    await finished(page);
    assert.equal(await visible(page, '.study-table'), true);
    for (const selector of ['.stability-view', '.stability-map', '.stability-table', '.stability-legend']) {
      assert.equal(await visible(page, selector), false, `${selector} is not shown on the Convergence tab`);
    }
    text = await spoken(page);
    assert.match(text, /Max position error against dt/);
    assert.doesNotMatch(text, /Stable regions|Largest stable dt/, 'the convergence region reads no stability part');
    assert.equal(await page.getAttribute('#analysis', 'aria-labelledby'), 'tab-convergence');
    await screenshot(page, 'i23-convergence-alone');
  });
});

// The loop's notice inside the view: its text, and its one button.
const notice = (page) => page.locator('#analysis .loop-notice');

test('defect 2: on a game-loop preset Convergence and Phase cloud say inside the view what to change, one click changes it', async () => {
  await withPage({ hash: 'preset=explodes_at_30fps', width: 1280, height: 800 }, async (page) => {
    const base = await config(page);
    assert.match(base, /&loop=fixed&hz=30/);
    for (const [tab, words] of [['convergence', /convergence study halves dt/], ['cloud', /phase-space cloud carries/]]) {
      await page.click(`#tab-${tab}`);
      assert.equal(await page.getAttribute(`#tab-${tab}`, 'aria-selected'), 'true', `${tab}: its tab is selected`);
      assert.deepEqual(await errors(page), [], `${tab}: no link error: the user clicked a tab`);
      assert.equal(await visible(page, '#errors'), false, `${tab}: no banner`);
      assert.equal(await visible(page, '#view'), false, `${tab}: the view left the motion canvas`);
      assert.equal(await notice(page).isVisible(), true, `${tab}: the view says why`);
      const said = await notice(page).textContent();
      assert.match(said, words);
      assert.match(said, /game loop: fixed at 30 Hz/);
      assert.match(said, /dt = 0\.0333 s/);
      assert.equal(await config(page), base, `${tab}: the setup did not change`);
      assert.equal((await report(page)).state, 'needs the loop off');
      assert.equal(await page.getAttribute('#analysis', 'aria-labelledby'), `tab-${tab}`);
      assert.equal(await page.getAttribute(`#tab-${tab}`, 'aria-controls'), 'analysis');
    }
    await screenshot(page, 'i23-loop-cloud-notice');
    // The cloud's one click: the loop goes, its physics step stays as dt, the cloud runs.
    await page.locator('#analysis .loop-notice button').click();
    await page.evaluate(() => window.stepwise.settled());
    let c = await config(page);
    assert.doesNotMatch(c, /loop=|hz=/);
    assert.match(c, /&dt=0\.03333333333333333&/);
    assert.match(c, /&view=cloud$/);
    assert.equal(await visible(page, '#cloud-panel'), true, 'the cloud view runs');
    assert.ok((await state(page)).cloud.points > 0);
    assert.deepEqual(await errors(page), []);

    // Convergence the same way, from the link itself.
    await page.evaluate((q) => window.stepwise.set(q), base);
    await page.click('#tab-convergence');
    await screenshot(page, 'i23-loop-convergence-notice');
    // A setting changed meanwhile keeps the view and its notice (now at 60 Hz).
    await page.fill('#loop-hz', '60');
    await page.locator('#loop-hz').dispatchEvent('change');
    assert.match(await config(page), /&hz=60/);
    assert.equal(await page.getAttribute('#tab-convergence', 'aria-selected'), 'true');
    assert.match(await notice(page).textContent(), /dt = 0\.0167 s/);
    await page.locator('#analysis .loop-notice button').click();
    c = await config(page);
    assert.doesNotMatch(c, /loop=/);
    assert.match(c, /&dt=0\.016666666666666666&.*view=convergence$/);
    const r = await finished(page);
    assert.equal(r.view, 'convergence');
    assert.deepEqual(await errors(page), []);
    assert.equal(await notice(page).isVisible(), false, 'the notice has gone');
    // Motion again: no notice, no banner.
    await page.click('#tab-motion');
    assert.equal(await visible(page, '#view'), true);
    assert.equal(await notice(page).isVisible(), false);
  });
});

test('defect 2: a link asking for a view the loop rules out opens that view with the notice, not a banner; a variable loop on Stability too', async () => {
  await withPage({ hash: 'preset=explodes_at_30fps&view=convergence' }, async (page) => {
    assert.deepEqual(await errors(page), []);
    assert.equal(await page.getAttribute('#tab-convergence', 'aria-selected'), 'true');
    assert.equal(await notice(page).isVisible(), true);
  });
  await withPage({ hash: 'scenario=spring&loop=variable&hz=30' }, async (page) => {
    await page.click('#tab-stability');
    assert.deepEqual(await errors(page), []);
    assert.match(await notice(page).textContent(), /variable game loop/);
    // The loop select in the settings turns it off too: the view then runs.
    await page.selectOption('#loop', '');
    assert.match(await config(page), /&view=stability$/);
    const r = await finished(page);
    assert.equal(r.view, 'stability');
    assert.equal(await notice(page).isVisible(), false);
  });
});

test('defect 2: the notice in German, on a phone and on a desktop; in English on a phone', async () => {
  for (const [lang, width, height] of [['de', 390, 844], ['de', 1280, 800], ['en', 390, 844]]) {
    await withPage({ hash: `preset=explodes_at_30fps&lang=${lang}`, width, height }, async (page) => {
      await page.click('#tab-cloud');
      const said = await notice(page).textContent();
      assert.match(said, lang === 'de' ? /Phasenraumwolke.*Spielschleife/ : /phase-space cloud.*game loop/);
      assert.match(said, lang === 'de' ? /dt = 0,0333 s/ : /dt = 0\.0333 s/);
      if (lang === 'de') assert.match(await page.locator('#analysis .loop-notice button').textContent(), /^Spielschleife ausschalten/);
      const box = await notice(page).boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= width, 'the notice fits the width');
      assert.equal(await page.locator('#loop-line').isVisible(), false, 'the loop is named once, in the notice');
      await screenshot(page, `i23-loop-notice-${lang}-${width}`);
    });
  }
});

test('defect 6: Phase cloud sets view=cloud only; back on Motion no cloud, and no link made afterwards carries one', async () => {
  await withPage({ hash: 'preset=two_springs' }, async (page) => {
    const base = await config(page);
    await page.click('#tab-cloud');
    await page.evaluate(() => window.stepwise.settled());
    assert.equal(await config(page), `${base}&view=cloud`, 'the view is the only change');
    await page.waitForFunction(() => location.hash.endsWith('&view=cloud'));
    assert.doesNotMatch(await page.evaluate(() => location.hash), /cloud=|cloud_radius=/);
    assert.equal(await visible(page, '#cloud-panel'), true, 'the cloud view shows its cloud');
    assert.equal((await state(page)).cloud.points, 20000);
    assert.equal(await page.inputValue('#cloud'), '20000', 'the settings show the cloud in force');
    assert.doesNotMatch(await page.getAttribute('#open-full', 'href'), /cloud=/);
    await page.click('#embed');
    assert.doesNotMatch(await page.inputValue('#embed-code'), /cloud=/);
    await page.click('#embed-close');
    await screenshot(page, 'i23-cloud-view');

    await page.click('#tab-motion');
    await page.evaluate(() => window.stepwise.settled());
    assert.equal(await config(page), base, 'back on Motion: the setup as it was');
    assert.equal(await visible(page, '#cloud-panel'), false, 'no cloud panel');
    assert.equal(await visible(page, '#plot-area'), false, 'no area-ratio plot');
    assert.equal((await state(page)).cloud.points, 0);
    await page.click('#embed');
    assert.doesNotMatch(await page.inputValue('#embed-code'), /cloud/);
    await page.click('#embed-close');
    assert.doesNotMatch(await page.getAttribute('#open-full', 'href'), /cloud/);

    // A cloud setting the user changes enters the link, and stays.
    await page.click('#tab-cloud');
    await page.evaluate(() => window.stepwise.settled());
    await page.fill('#cloud_radius', '0.2');
    await page.locator('#cloud_radius').dispatchEvent('change');
    await page.evaluate(() => window.stepwise.settled());
    assert.equal(await config(page), `${base}&cloud=20000&cloud_radius=0.2&view=cloud`);
    await page.click('#tab-motion');
    assert.equal(await config(page), `${base}&cloud=20000&cloud_radius=0.2`, 'the user\'s cloud stays');
  });
});

test('defect 6: a link to the cloud view opens with its cloud and keeps the link as given', async () => {
  await withPage({ hash: 'scenario=spring&view=cloud' }, async (page) => {
    assert.match(await config(page), /&view=cloud$/);
    assert.doesNotMatch(await config(page), /cloud=/);
    assert.equal((await state(page)).cloud.points, 20000);
    assert.equal(await visible(page, '#cloud-panel'), true);
    assert.deepEqual(await errors(page), []);
  });
});
