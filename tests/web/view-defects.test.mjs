// Issue 23, defects of the views, in headless Chromium:
// 1. each analysis view shows only its own parts (Stability after Convergence shows no
//    convergence explanation, bar, plots or table; Convergence after Stability no map), and the
//    analysis region a screen reader reads holds only the view shown, named by its tab.
// Screenshots of the views changed in test-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, screenshot, finished } from './helpers.mjs';

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
