// Issue 23, defects of the views, in headless Chromium:
// 1. each analysis view shows only its own parts (Stability after Convergence shows no
//    convergence explanation, bar, plots or table; Convergence after Stability no map), and the
//    analysis region a screen reader reads holds only the view shown, named by its tab;
// 6. opening Phase cloud sets view=cloud only: its cloud is not written into the link, Copy link
//    or the embed, and back on Motion the cloud panel and the area plot are gone; cloud settings
//    the user changes do enter the link.
// Screenshots of the views changed in test-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, state, screenshot, config, errors, finished } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const withPage = (options, fn) => pageChecks(env, options, fn);
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
