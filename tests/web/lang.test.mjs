// The lang= link key in the page (so far the key only: the page does not switch its texts yet). A
// German link opens saying so (never silently English) and keeps lang=de in the address (a shared German link stays
// German); a link without lang does not gain one; an unknown language is an error naming the key
// and the known ones, and the rest of the link is used.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, openPage } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

test('lang=de and lang=en are kept in the address; no lang stays without; lang=fr is refused by name', async () => {
  for (const [lang, pagePath] of [['de', ''], ['en', ''], ['de', 'embed.html']]) {
    const { page, context, problems } = await openPage(env, { hash: `preset=damped_spring&lang=${lang}`, path: pagePath });
    try {
      // Until the page's texts are translated, a German link says the page is in English.
      const errors = await page.evaluate(() => window.stepwise.errors());
      if (lang === 'de') {
        assert.equal(errors.length, 1, errors.join(' | '));
        assert.match(errors[0], /^lang=de: Die deutsche Fassung der Seite ist noch nicht fertig; .*\(The German page is not finished yet; this page is in English\.\)$/);
        assert.equal(await page.locator('#errors').isVisible(), true, 'shown in the banner');
      } else {
        assert.deepEqual(errors, [], lang);
      }
      const config = await page.evaluate(() => window.stepwise.config());
      assert.match(config, new RegExp(`&lang=${lang}$`), lang);
      if (pagePath === '') {
        // The preset is still recognised, and choosing another keeps the language.
        assert.equal(await page.locator('#preset').inputValue(), 'damped_spring', lang);
        await page.locator('#preset').selectOption('stiff_spring');
        await page.waitForFunction((l) => /preset|k=/.test(window.stepwise.config()) && window.stepwise.config().endsWith(`&lang=${l}`)
          && !window.stepwise.config().includes('k=15&'), lang);
        await page.locator('#preset').selectOption('damped_spring');
        await page.waitForFunction(() => window.stepwise.config().includes('k=15&'));
      }
      await page.waitForFunction((c) => location.hash === `#${c}`, config);
      assert.deepEqual(problems, [], lang);
    } finally {
      await context.close();
    }
  }
  const plain = await openPage(env, { hash: 'preset=damped_spring' });
  try {
    assert.doesNotMatch(await plain.page.evaluate(() => window.stepwise.config()), /lang=/);
  } finally {
    await plain.context.close();
  }
  const bad = await openPage(env, { hash: 'preset=damped_spring&lang=fr' });
  try {
    const errors = await bad.page.evaluate(() => window.stepwise.errors());
    assert.ok(errors.some((e) => e.includes("unknown lang 'fr'; known: en, de")), errors.join(' | '));
    assert.equal(await bad.page.locator('#errors').isVisible(), true);
    assert.match(await bad.page.evaluate(() => window.stepwise.config()), /preset=damped_spring|k=/);
    assert.doesNotMatch(await bad.page.evaluate(() => window.stepwise.config()), /lang=/);
  } finally {
    await bad.context.close();
  }
});
