// On a phone (issue 31 §2, "Smaller items"): the settings fold says what a tap does ("Show the
// settings" shut, "Hide the settings" open; it read "Show the settings (hide)" open, the "(hide)"
// English on the German page too), and the canvas hint on a touch screen speaks of fingers, not
// of Shift and keys.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

async function phone(hash, fn) {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  try {
    await page.goto(`${env.server.url}#${hash}`);
    await page.evaluate(() => window.stepwise.ready);
    await fn(page);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
}

const summary = (page) => page.evaluate(() => document.querySelector('#settings-box > summary').innerText.trim());

for (const [lang, shut, open, hint] of [
  ['en', 'Show the settings', 'Hide the settings', /^Drag a body to move its start, or its arrow's tip to set its velocity; drag the canvas to pan, pinch to zoom\.$/],
  ['de', 'Einstellungen zeigen', 'Einstellungen ausblenden', /^Einen Körper ziehen verschiebt seinen Start, .*zwei Finger zoomen\.$/],
]) {
  test(`a phone (${lang}): the settings fold says show or hide; the canvas hint speaks of fingers`, async () => {
    await phone(`preset=damped_spring&lang=${lang}`, async (page) => {
      assert.equal(await page.evaluate(() => document.getElementById('settings-box').open), false, 'shut on a phone');
      assert.equal(await summary(page), shut);
      await page.locator('#settings-box > summary').tap();
      assert.equal(await page.evaluate(() => document.getElementById('settings-box').open), true);
      assert.equal(await summary(page), open);
      await screenshot(page, `phone-settings-open-${lang}`);
      const text = await page.locator('.motion-hint').textContent();
      assert.match(text, hint);
      assert.doesNotMatch(text, /Shift|Umschalt|keys|Tasten/);
    });
  });
}

// On a phone the energy plot comes right after the canvas and its tools (issue 31 §2, "Smaller
// items": it was 2,800 px below the canvas, then 772–994 px after the settings folded: the share
// buttons and the legend sat between them, 877 px on the German page at the default preset, 994 px
// on stiff_spring). One scroll position shows the whole canvas and the energy plot's caption: the
// figure's top lies within one viewport height (844 px) of the canvas's top, so also of its bottom.
// The legend and the share buttons follow the plots.
for (const lang of ['en', 'de']) {
  for (const preset of ['', 'preset=stiff_spring']) {
    test(`a phone (${lang}, ${preset || 'the default'}): the energy plot is within one screen of the canvas`, async () => {
      await phone(`${preset}${preset ? '&' : ''}lang=${lang}`, async (page) => {
        await page.waitForFunction(() => document.getElementById('plot-energy')?.getBoundingClientRect().height > 0);
        const m = await page.evaluate(() => {
          const box = (e) => { const r = e.getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY }; };
          return {
            canvas: box(document.getElementById('view')),
            energy: box(document.getElementById('plot-energy').closest('figure')),
            legend: box(document.getElementById('legend')),
            share: box(document.getElementById('step-code')),
            viewport: innerHeight,
          };
        });
        console.log(`phone ${lang} ${preset || 'default'}: canvas ${m.canvas.top}–${m.canvas.bottom} px, energy plot from ${m.energy.top} px (${m.energy.top - m.canvas.bottom} px below the canvas)`);
        assert.ok(m.energy.top - m.canvas.bottom <= m.viewport, `energy plot ${m.energy.top - m.canvas.bottom} px below the canvas`);
        assert.ok(m.energy.top + 40 - m.canvas.top <= m.viewport, `the canvas's top to the energy plot's caption: ${m.energy.top + 40 - m.canvas.top} px`);
        assert.ok(m.legend.top > m.energy.top && m.share.top > m.energy.top, 'the legend and the share buttons follow the plots');
      });
    });
  }
}
