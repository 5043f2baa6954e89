// The help panels and the frame's layout (issue 11): each integrator's update equations in a
// "Methods" panel (a modal dialog, reached by keyboard, touch and screen readers, not a tooltip),
// the keyboard help (? or its button), full screen, and embeds of every size and ui level whose
// canvas has the room and whose "Open in Stepwise" link is in view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { cli } from './run-text.mjs';
import { startBrowser, startHostServer, openPage, pageChecks, screenshot, root, framesPass } from './helpers.mjs';

let env, host;
before(async () => {
  env = await startBrowser();
  host = await startHostServer();
});
after(async () => { await env?.close(); await host?.close(); });

const two = 'preset=stiff_spring&integrators=explicit_euler,semi_implicit_euler';
const focusedIn = (page, selector) => page.evaluate((s) => Boolean(document.activeElement && document.activeElement.closest(s)), selector);
const focusedId = (page) => page.evaluate(() => document.activeElement && document.activeElement.id);

test('Methods: a modal panel with each shown lane\'s update equations from the core, by keyboard and by touch', async () => {
  const { page, context, problems } = await openPage(env, { hash: two, width: 1280, height: 720 });
  try {
    const button = page.getByRole('button', { name: 'Methods' });
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'The methods shown' });
    await dialog.waitFor({ state: 'visible' });
    assert.equal(await focusedIn(page, '#methods-dialog'), true, 'the focus moves into the panel');
    const sections = page.locator('#methods-dialog .method');
    assert.equal(await sections.count(), 2, 'one section per lane shown');
    const lines = async (k) => (await sections.nth(k).locator('.method-update li').allInnerTexts()).map((l) => l.trim());
    // Written from core/integrators.cpp's step functions: the start's slopes only, then v first.
    assert.deepEqual(await lines(0), ['a₀ = a(x₀, v₀)', 'x₁ = x₀ + v₀·h', 'v₁ = v₀ + a₀·h']);
    assert.deepEqual(await lines(1), ['a₀ = a(x₀, v₀)', 'v₁ = v₀ + a₀·h', 'x₁ = x₀ + v₁·h']);
    assert.match(await sections.nth(0).locator('h3').innerText(), /Explicit Euler/);
    assert.match(await sections.nth(1).locator('.method-about').innerText(), /symplectic/i);
    // The rest of the page is inert: Tab stays inside the panel.
    for (let k = 0; k < 4; ++k) {
      await page.keyboard.press('Tab');
      assert.equal(await focusedIn(page, '#methods-dialog'), true, `Tab ${k + 1} stays in the panel`);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await focusedId(page), 'methods-open', 'the focus returns to the Methods button');
    await screenshot(page, 'i11-embed-methods-closed-1280');

    // Every method of the core (the integrators and the game-physics solvers, as the CLI lists
    // them) at once: every one has its equations (the core's table: no lane without them).
    const ids = await page.evaluate(() => window.stepwise.integrators().map((i) => i.id));
    assert.deepEqual(ids, JSON.parse(execFileSync(cli, ['list', '--format', 'json'], { encoding: 'utf8' })).integrators.map((i) => i.id));
    await page.evaluate((list) => window.stepwise.set(`preset=two_springs&integrators=${list.join(',')}`), ids);
    await button.click();
    await dialog.waitFor({ state: 'visible' });
    assert.equal(await sections.count(), ids.length);
    for (let k = 0; k < ids.length; ++k) {
      const text = await lines(k);
      assert.ok(text.length >= 2 && text.every((l) => l.length > 0), `${ids[k]}: ${text.join(' | ')}`);
    }
    await screenshot(page, 'i11-embed-methods-open-1280');
    await dialog.getByRole('button', { name: 'Close the methods panel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Every method, whatever the lanes: the two lanes shown, then every one.
    await page.evaluate(() => window.stepwise.set('preset=stiff_spring&integrators=rk4,leapfrog'));
    await button.click();
    assert.equal(await sections.count(), 2);
    await dialog.getByRole('checkbox', { name: /Every method/ }).check();
    assert.equal(await sections.count(), ids.length);
    assert.equal(await page.getByRole('dialog', { name: 'Every method' }).isVisible(), true);
    await page.keyboard.press('Escape');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
  // A phone, by touch, dark.
  const context2 = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, colorScheme: 'dark' });
  try {
    const page = await context2.newPage();
    await page.goto(`${env.server.url}#${two}`);
    await page.evaluate(() => window.stepwise.ready);
    await page.getByRole('button', { name: 'Methods' }).tap();
    const dialog = page.getByRole('dialog', { name: 'The methods shown' });
    await dialog.waitFor({ state: 'visible' });
    const box = await dialog.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the panel fits the phone: ${JSON.stringify(box)}`);
    await screenshot(page, 'i11-embed-methods-phone-dark');
  } finally {
    await context2.close();
  }
});

test('Keyboard help: ? and a visible button open it; it lists the keys; Escape closes it and the focus returns', async () => {
  const { page, context, problems } = await openPage(env, { hash: two, width: 1280, height: 720 });
  try {
    await page.locator('#play').focus();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard' });
    await dialog.waitFor({ state: 'visible' });
    const keys = await dialog.locator('tbody th').allInnerTexts();
    for (const k of ['Space', '→', 'R', '?', 'Esc']) assert.ok(keys.some((t) => t.split(' or ').includes(k)), `${k} in ${keys.join(', ')}`);
    assert.equal(await focusedIn(page, '#keys-dialog'), true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(await focusedIn(page, '#keys-dialog'), true, 'the focus stays in the panel');
    // The page's keys are the panel's while it is open: → does not step the run.
    await page.keyboard.press('ArrowRight');
    await framesPass(page, 5);
    assert.equal(await page.evaluate(() => window.stepwise.state().steps), 0);
    assert.equal(await dialog.isVisible(), true);
    await screenshot(page, 'i11-embed-keys-open-1280');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await focusedId(page), 'play', 'the focus returns where it was');
    // The visible button.
    await page.getByRole('button', { name: 'Keyboard' }).click();
    await dialog.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    assert.equal(await focusedId(page), 'keys-open');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Full screen: the canvas area on the full page, the whole frame in an embed; hidden where it cannot be', async () => {
  const { page, context } = await openPage(env, { hash: two, width: 1280, height: 720 });
  try {
    const before = await page.locator('#view').boundingBox();
    const button = page.getByRole('button', { name: 'Full screen' });
    await button.click();
    await page.waitForFunction(() => document.fullscreenElement && document.fullscreenElement.classList.contains('stage'));
    await page.waitForFunction(() => document.getElementById('view').getBoundingClientRect().height > 0.6 * innerHeight);
    const inside = await page.locator('#view').boundingBox();
    assert.ok(inside.height > before.height, `the canvas grows: ${before.height} → ${inside.height}`);
    // The canvas's pixels follow its new size.
    await page.waitForFunction(() => Math.abs(document.getElementById('view').height - document.getElementById('view').getBoundingClientRect().height * devicePixelRatio) <= 2);
    await screenshot(page, 'i11-embed-fullscreen-1280');
    assert.equal(await page.getByRole('button', { name: 'Leave full screen' }).getAttribute('aria-pressed'), 'true');
    await page.keyboard.press('Escape');
    await framesPass(page, 10);
    if (await page.evaluate(() => document.fullscreenElement !== null)) {
      // Headless Chromium leaves Escape to the window manager: the button does the same.
      await page.getByRole('button', { name: 'Leave full screen' }).click();
    }
    await page.waitForFunction(() => document.fullscreenElement === null);
    await page.waitForFunction((h) => Math.abs(document.getElementById('view').getBoundingClientRect().height - h) < 2, before.height);
  } finally {
    await context.close();
  }
  // In a frame: only with the host's allowfullscreen (the host.html fixture has none).
  const ctx = await env.browser.newContext({ viewport: { width: 700, height: 500 } });
  try {
    const tab = await ctx.newPage();
    await tab.goto(`${host.url}host.html?w=480&h=320&src=${encodeURIComponent(`${env.server.url}embed.html?ui=none#${two}`)}`);
    const frame = await (await tab.$('#frame')).contentFrame();
    await frame.waitForFunction(() => document.documentElement.classList.contains('ready'));
    assert.equal(await frame.locator('#fullscreen').isVisible(), false, 'no full screen without allowfullscreen');
    await tab.goto(`${host.url}fold.html?src=${encodeURIComponent(`${env.server.url}embed.html?ui=none#${two}`)}`);
    await tab.locator('#frame').scrollIntoViewIfNeeded();
    const frame2 = await (await tab.$('#frame')).contentFrame();
    await frame2.waitForFunction(() => document.documentElement.classList.contains('ready'));
    await frame2.getByRole('button', { name: 'Full screen' }).click();
    await frame2.waitForFunction(() => document.fullscreenElement === document.documentElement);
  } finally {
    await ctx.close();
  }
});

test('embeds at 300 × 200, 480 × 320 and 800 × 500, each ui level, light and dark: the link in view, the canvas has the room', async () => {
  for (const scheme of ['light', 'dark']) {
    for (const [w, h] of [[300, 200], [480, 320], [800, 500]]) {
      for (const ui of ['none', 'compact', 'full']) {
        const context = await env.browser.newContext({ viewport: { width: w + 40, height: h + 60 }, colorScheme: scheme });
        try {
          const page = await context.newPage();
          await page.goto(`${host.url}host.html?w=${w}&h=${h}&src=${encodeURIComponent(`${env.server.url}embed.html?ui=${ui}&autoplay=1#preset=damped_spring`)}`);
          const frame = await (await page.$('#frame')).contentFrame();
          await frame.waitForFunction(() => document.documentElement.classList.contains('ready') && window.stepwise.state().t > 0.3);
          const m = await frame.evaluate(() => {
            const box = (id) => document.getElementById(id).getBoundingClientRect();
            const view = box('view'), link = box('open-full');
            return { w: innerWidth, h: innerHeight, view: [view.left, view.top, view.right, view.bottom], link: [link.left, link.top, link.right, link.bottom], linkShown: link.width > 0 };
          });
          const where = `${w}×${h} ui=${ui} ${scheme}: ${JSON.stringify(m)}`;
          assert.ok(m.linkShown, where);
          assert.ok(m.link[0] >= 0 && m.link[1] >= 0 && m.link[2] <= m.w && m.link[3] <= m.h, `the link is inside the frame: ${where}`);
          if (ui !== 'full') {
            const area = (m.view[2] - m.view[0]) * (m.view[3] - m.view[1]) / (m.w * m.h);
            assert.ok(area >= 0.6, `the canvas has ${(area * 100).toFixed(0)} % of the frame: ${where}`);
          }
          // The controls over the canvas stay clear of the link.
          const buttons = await frame.evaluate(() => [...document.querySelectorAll('.frame-buttons button')]
            .filter((b) => b.getBoundingClientRect().width > 0).map((b) => { const r = b.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }));
          for (const b of buttons) {
            const overlaps = b[0] < m.link[2] && m.link[0] < b[2] && b[1] < m.link[3] && m.link[1] < b[3];
            assert.ok(!overlaps, `a frame button over the link: ${where}`);
          }
          await page.locator('#frame').screenshot({ path: path.join(root, 'test-artifacts', `i11-embed-${w}x${h}-${ui}-${scheme}.png`) });
        } finally {
          await context.close();
        }
      }
    }
  }
});

// Issue 31 §2: long preset names were cut off in the closed menu. A name that does not fit shows
// whole under it; one that fits does not repeat.
test('a preset whose name the closed menu cuts off shows it whole under the menu', async () => {
  const met = [];
  for (const [width, height, hash] of [[1280, 800, ''], [390, 844, ''], [1280, 800, 'lang=de'], [390, 844, 'lang=de']]) {
    await pageChecks(env, { width, height, hash }, async (page) => {
      await page.evaluate(() => { const box = document.getElementById('settings-box'); if (box) box.open = true; });
      const presets = await page.evaluate(() => window.stepwise.presets().map((p) => ({ id: p.id, name: p.name })));
      let shown = 0;
      for (const p of presets) {
        await page.locator('#preset').selectOption(p.id);
        await page.evaluate(() => window.stepwise.settled());
        const r = await page.evaluate(() => {
          const select = document.getElementById('preset'), style = getComputedStyle(select);
          const ctx = document.createElement('canvas').getContext('2d');
          ctx.font = style.font;
          const text = select.selectedOptions[0].text;
          const inner = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          const line = document.getElementById('preset-name');
          return { text, width: ctx.measureText(text).width, inner, line: line && !line.hidden && line.getClientRects().length ? line.textContent : null };
        });
        // Cut by the menu (its arrow takes about 20 px): the whole name under it.
        if (r.width > r.inner - 20) assert.equal(r.line, r.text, `${width}: ${p.id} "${r.text}" (${r.width.toFixed(0)} px in ${r.inner} px)`);
        if (r.line !== null) { shown += 1; met.push(`${width} ${hash}: ${p.id} ${r.text}`); }
        if (r.width <= r.inner - 30) assert.equal(r.line, null, `${width}: ${p.id} fits: not repeated`);
      }
      assert.ok(shown >= 0);
    });
  }
  console.log(met.join('\n'));
  assert.ok(met.length > 0, 'a name the menu cuts off was met');
});
