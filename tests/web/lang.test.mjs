// The German page (lang=de): the link key kept and checked like any other, and the page, an embed
// and the lesson in German across their states, with no English text left anywhere a reader
// sees or hears it (text, aria-label, title, placeholder, what the canvases draw), and numbers
// with a decimal comma on the page but never in the link, the CSV or the JSON.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, openPage, canvasTexts, screenshot, framesPass } from './helpers.mjs';
import { scriptTexts, htmlTexts } from './texts.mjs';
import { sameInBothLanguages } from '../../web/strings/de.js';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

// The English texts of the page (a German page showing one of them shows English) and words no
// German sentence has.
const english = new Set([...scriptTexts().keys(), ...htmlTexts('index.html'), ...htmlTexts('lesson.html')]
  .map((s) => s.replace(/\{\w+\}/g, '').trim()).filter((s) => /[a-z]{3}/.test(s) && !sameInBothLanguages.has(s)));
const englishWords = /\b(?:the|and|with|of|from|this|each|every|which|when|stopped|energy|error|step|steps|points|none|show|hide|copy|close|order|exact|measured|velocity|play|reset|settings)\b/i;

// Everything a reader meets in the page now: visible text nodes, and the read attributes, except
// code (the link, commands, code snippets: the core's and the CLI's words stay as they are).
function readTexts(page) {
  return page.evaluate(() => {
    const out = [];
    const skip = (el) => el.closest('code, pre, kbd, textarea, #config-string, [hidden], script, style');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.nodeValue.replace(/\s+/g, ' ').trim();
      if (!text || skip(n.parentElement)) continue;
      const box = n.parentElement.getClientRects().length > 0 || n.parentElement.closest('.visually-hidden, option, optgroup');
      if (box) out.push(text);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], optgroup[label]')) {
      if (skip(el)) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'label']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
    out.push(document.title);
    return out;
  });
}

function assertGerman(texts, where) {
  const left = texts.filter((s) => {
    const plain = s.trim();
    if (sameInBothLanguages.has(plain)) return false;
    return english.has(plain) || englishWords.test(plain.replace(/\b[a-z_]+=[^\s,;)]*/g, '').replace(/'[^']*'/g, ''));
  });
  assert.deepEqual([...new Set(left)], [], `English left ${where}`);
}

test('lang=de and lang=en are kept in the address; no lang stays without; lang=fr is refused by name', async () => {
  for (const [lang, pagePath] of [['de', ''], ['en', ''], ['de', 'embed.html']]) {
    const { page, context, problems } = await openPage(env, { hash: `preset=damped_spring&lang=${lang}`, path: pagePath });
    try {
      assert.deepEqual(await page.evaluate(() => window.stepwise.errors()), [], lang);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      const config = await page.evaluate(() => window.stepwise.config());
      assert.match(config, new RegExp(`&lang=${lang}$`), lang);
      if (pagePath === '') {
        // The preset is still recognised, and choosing another keeps the language.
        assert.equal(await page.locator('#preset').inputValue(), 'damped_spring', lang);
        await page.locator('#preset').selectOption('stiff_spring');
        await page.waitForFunction((l) => window.stepwise.config().endsWith(`&lang=${l}`) && !window.stepwise.config().includes('k=15&'), lang);
      }
      await page.waitForFunction(() => location.hash === `#${window.stepwise.config()}`);
      assert.deepEqual(problems, [], lang);
    } finally {
      await context.close();
    }
  }
  const plain = await openPage(env, { hash: 'preset=damped_spring' });
  try {
    assert.doesNotMatch(await plain.page.evaluate(() => window.stepwise.config()), /lang=/);
    assert.equal(await plain.page.evaluate(() => document.documentElement.lang), 'en', 'the browser here is English');
  } finally {
    await plain.context.close();
  }
  const bad = await openPage(env, { hash: 'preset=damped_spring&lang=fr' });
  try {
    const errors = await bad.page.evaluate(() => window.stepwise.errors());
    assert.ok(errors.some((e) => e.includes("unknown lang 'fr'; known: en, de")), errors.join(' | '));
    assert.doesNotMatch(await bad.page.evaluate(() => window.stepwise.config()), /lang=/);
  } finally {
    await bad.context.close();
  }
});

test('a browser that prefers German gets the German page; a link with lang=en keeps it English', async () => {
  const context = await env.browser.newContext({ locale: 'de-DE' });
  try {
    const page = await context.newPage();
    await page.goto(`${env.server.url}#preset=damped_spring`);
    await page.evaluate(() => window.stepwise.ready);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    assert.equal(await page.locator('#play').textContent(), 'Start');
    assert.doesNotMatch(await page.evaluate(() => window.stepwise.config()), /lang=/, 'the link does not gain a lang');
    // A link in another language, typed into the address: the page starts again in it.
    await Promise.all([
      page.waitForEvent('load'),
      page.evaluate(() => { location.hash = '#preset=damped_spring&lang=en'; }),
    ]);
    await page.waitForFunction(() => window.stepwise && document.documentElement.classList.contains('ready'));
    await page.evaluate(() => window.stepwise.ready);
    assert.match(await page.evaluate(() => location.hash), /&lang=en$/);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await page.locator('#play').textContent(), 'Play');
  } finally {
    await context.close();
  }
});

test('the German page has no English left: every preset, every view, the dialogs, the X-ray, the game loop, an error', async () => {
  const { page, context, problems } = await openPage(env, { hash: 'preset=damped_spring&lang=de', width: 1440, height: 900 });
  try {
    const seen = [];
    const look = async (where) => {
      const texts = [...await readTexts(page), ...await canvasTexts(page)];
      seen.push(...texts);
      assertGerman(texts, where);
    };
    await look('at the start');
    // Decimal commas on the page; points in the link.
    assert.match(await page.locator('#clock').textContent(), /^t = 0,00 s · Schritt 0$/);
    assert.match(await page.evaluate(() => window.stepwise.config()), /&dt=0\.01&/);
    await page.evaluate(() => window.stepwise.step());
    await screenshot(page, 'i13-de-desktop');
    const presets = await page.evaluate(() => window.stepwise.presets().map((p) => p.id));
    for (const id of presets) {
      await page.locator('#preset').selectOption(id);
      await page.evaluate(() => window.stepwise.settled());
      for (let k = 0; k < 3; ++k) await page.evaluate(() => window.stepwise.step());
      await framesPass(page, 2);
      await look(`with the preset ${id}`);
    }
    await page.evaluate(() => window.stepwise.set('preset=damped_spring&lang=de'));
    for (const view of ['convergence', 'stability', 'cloud']) {
      await page.locator(`#view-tabs button[data-view="${view}"], #view-tabs [role="tab"]:nth-child(${['motion', 'convergence', 'stability', 'cloud'].indexOf(view) + 1})`).first().click();
      await page.evaluate(() => window.stepwise.settled());
      for (let wait = 0; wait < 600; ++wait) {
        const report = await page.evaluate(() => window.stepwise.debug.analysis());
        if (!report || report.state === 'done') break;
        await page.waitForTimeout(100);
      }
      await framesPass(page, 3);
      await look(`in the ${view} view`);
    }
    await page.evaluate(() => window.stepwise.set('preset=two_point_exercise&lang=de'));
    await page.evaluate(() => window.stepwise.settled());
    await page.locator('#xray-open').click();
    await page.waitForSelector('#xray table');
    await look('with the X-ray open');
    assert.match(await page.locator('#xray table tbody').textContent(), /\d,\d/, 'decimal commas in the worked step');
    await page.locator('#xray-close').click();
    for (const [opener, dialog] of [['#methods-open', '#methods-dialog'], ['#keys-open', '#keys-dialog'], ['#embed', '#embed-dialog']]) {
      await page.locator(opener).click();
      await page.waitForSelector(`${dialog}[open]`);
      await look(`in ${dialog}`);
      await page.keyboard.press('Escape');
    }
    await page.locator('#step-code').click();
    await page.waitForSelector('#code-dialog[open]');
    await look('in the step code dialog');
    await page.keyboard.press('Escape');
    await page.evaluate(() => window.stepwise.set('preset=substeps_rescue&lang=de'));
    await page.evaluate(() => { for (let k = 0; k < 5; ++k) window.stepwise.step(); });
    await look('with a game loop');
    assert.match(await page.locator('#loop-line').textContent(), /^Spielschleife: Akkumulator \(accumulator\), 30 Hz/);
    // The loop menu's options in German, each with the id the link keeps (issue 31 §2).
    assert.deepEqual(await page.locator('#loop option').allTextContents(),
      ['keine: Schritte von dt', 'fest (fixed)', 'variabel (variable)', 'Akkumulator (accumulator)']);
    // A bad link: the banner in German, the core's message from its parts.
    await page.evaluate(() => window.stepwise.set('scenario=spring&dt=-1&zz=3&lang=de'));
    const errors = await page.evaluate(() => window.stepwise.errors());
    assert.ok(errors.includes("dt muss eine Zahl von 1e-09 bis 10 sein; eingegeben: '-1'"), errors.join(' | '));
    assert.equal(await page.locator('#errors-title').textContent(), '2 Teile dieses Links waren nicht verwendbar; der Rest wurde übernommen.');
    await look('with an error banner');
    await screenshot(page, 'i13-de-error');
    assert.ok(seen.length > 500, `${seen.length} texts read`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('German numbers stay out of the link, the CSV and the JSON', async () => {
  const { page, context } = await openPage(env, { hash: 'preset=damped_spring&lang=de' });
  try {
    for (let k = 0; k < 20; ++k) await page.evaluate(() => window.stepwise.step());
    const download = async (button) => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.locator(button).click()]);
      const chunks = [];
      for await (const chunk of await file.createReadStream()) chunks.push(chunk);
      return Buffer.concat(chunks).toString('utf8');
    };
    const csv = await download('#export-csv');
    const [head, ...rows] = csv.trim().split('\n');
    assert.match(rows[0], /^0,explicit_euler,0,1000,0,0,0,/, 'the CLI\'s CSV, commas between fields');
    // A decimal comma would split a number into two fields: every row has the header's fields,
    // every number reads as one.
    for (const row of rows) {
      const fields = row.split(',');
      assert.equal(fields.length, head.split(',').length, row);
      for (const [k, f] of fields.entries()) if (k !== 1) assert.ok(Number.isFinite(Number(f)), `${f} in ${row}`);
    }
    assert.ok(rows.some((row) => /^0\.\d+,/.test(row)), 'times with a point');
    const json = JSON.parse(await download('#export-json'));
    assert.match(json.config, /&dt=0\.01&.*&lang=de$/);
    assert.match(await page.evaluate(() => location.hash), /&b=0\.1&/);
    assert.match(await page.locator('#share-status').textContent(), /^JSON gespeichert: t = 0 bis jetzt/);
  } finally {
    await context.close();
  }
});

test('the embed and the lesson in German; the lesson passes its language to its frames', async () => {
  const embed = await openPage(env, { hash: 'preset=stiff_spring&lang=de', path: 'embed.html?ui=compact&autoplay=0', width: 640, height: 400 });
  try {
    assertGerman([...await readTexts(embed.page), ...await canvasTexts(embed.page)], 'in the embed');
    await screenshot(embed.page, 'i13-de-embed');
  } finally {
    await embed.context.close();
  }
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${env.server.url}lesson.html?lang=de`);
    await page.waitForFunction(() => document.documentElement.lang === 'de');
    const frame = page.frameLocator('#frame-euler');
    await page.locator('#frame-euler').scrollIntoViewIfNeeded();
    await frame.locator('canvas').first().waitFor();
    assert.match(await page.locator('#frame-euler').getAttribute('src'), /&lang=de$/);
    await page.waitForFunction(() => /Energie/.test(document.getElementById('readout-euler').textContent), null, { timeout: 20000 });
    assert.match(await page.locator('#readout-euler').textContent(), /^t = \d+,\d s · Explizites Euler-Verfahren: Energie [+−]\d/);
    const texts = await page.evaluate(() => [...document.querySelectorAll('main p, main h1, main h2, main li, main button, main span')]
      .filter((e) => !e.closest('code, pre')).map((e) => e.textContent.replace(/\s+/g, ' ').trim()));
    assertGerman(texts, 'in the lesson');
    assert.equal(await page.title(), 'Warum deine Feder explodiert: explizites gegen semi-implizites Euler-Verfahren – eine Stepwise-Lektion');
    const inner = page.frames().find((f) => /embed\.html/.test(f.url()));
    await inner.waitForFunction(() => window.stepwise && document.documentElement.lang === 'de');
    await screenshot(page, 'i13-de-lesson-phone');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a lesson frame that loaded in English before the lesson's script gave it lang=de starts again in German; no English name reaches a readout", async () => {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    // Every text the readout is given, from the first (a MutationObserver from before the page's scripts).
    await page.addInitScript(() => {
      window.__readouts = [];
      document.addEventListener('DOMContentLoaded', () => {
        const readout = document.getElementById('readout-euler');
        if (!readout) return;  // the frames run this too
        new MutationObserver(() => window.__readouts.push(readout.textContent)).observe(readout, { childList: true, characterData: true, subtree: true });
      });
    });
    // The lesson's own scripts wait until its first frame has drawn in English.
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route(/\/lesson[^/]*\.js$/, async (route) => { await held; await route.continue(); });
    await page.goto(`${env.server.url}lesson.html?lang=de`, { waitUntil: 'commit' });
    const englishFrame = await (await page.waitForSelector('#frame-euler')).contentFrame();
    await englishFrame.waitForFunction(() => window.stepwise && document.documentElement.classList.contains('ready'), null, { timeout: 30000 });
    assert.equal(await englishFrame.evaluate(() => document.documentElement.lang), 'en');
    release();
    await page.waitForFunction(() => /Explizites Euler-Verfahren: Energie/.test(document.getElementById('readout-euler').textContent), null, { timeout: 30000 });
    const inner = await (await page.$('#frame-euler')).contentFrame();
    assert.equal(await inner.evaluate(() => document.documentElement.lang), 'de');
    const shown = await page.evaluate(() => window.__readouts);
    assert.ok(shown.length > 0);
    for (const text of shown) assert.doesNotMatch(text, /Explicit Euler|Semi-implicit Euler/, `a readout in English: ${text}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
