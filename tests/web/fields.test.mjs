// The settings' number fields (web/panels/controls.js): a value the core refuses is not applied (the
// run keeps the value in force), its message shows next to the field and is tied to it
// (aria-describedby, role=alert), and ↑/↓ step by an increment that suits the field.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, config } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });
const withPage = (options, fn) => pageChecks(env, options, fn);

const typeInto = async (page, selector, text) => {
  await page.fill(selector, text);
  await page.locator(selector).dispatchEvent('change');
};
// The text of the elements that describe a field.
const description = (page, selector) => page.evaluate((s) => document.querySelector(s).getAttribute('aria-describedby')
  .split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? `(no #${id})`).join(' | '), selector);

test('a refused value keeps the value in force and says why beside the field', async () => {
  await withPage({ hash: 'preset=undamped_dt025' }, async (page) => {
    assert.match(await config(page), /&dt=0\.25&/);
    await typeInto(page, '#dt', '0');
    assert.match(await config(page), /&dt=0\.25&/, 'dt stays 0.25 (not the default 0.01)');
    assert.equal(await page.getAttribute('#dt', 'aria-invalid'), 'true');
    const error = page.locator('#dt-error');
    assert.equal(await error.getAttribute('role'), 'alert');
    assert.equal(await error.isVisible(), true);
    assert.match(await error.textContent(), /^dt must be .*got '0'.*dt stays 0\.25\.$/);
    assert.match(await description(page, '#dt'), /dt stays 0\.25/, 'tied to the field');
    // The field is next to its message: within 80 px.
    const [f, e] = [await page.locator('#dt').boundingBox(), await error.boundingBox()];
    assert.ok(e.y - (f.y + f.height) < 80, `message ${e.y - f.y - f.height} px under the field`);
    // A good value clears it.
    await typeInto(page, '#dt', '0.1');
    assert.match(await config(page), /&dt=0\.1&/);
    assert.equal(await error.textContent(), '');
    assert.equal(await page.getAttribute('#dt', 'aria-invalid'), 'false');
    // k = 40, then a bad value: k stays 40.
    await typeInto(page, '#param-k', '40');
    assert.match(await config(page), /&k=40&/);
    await typeInto(page, '#param-k', '-3');
    assert.match(await config(page), /&k=40&/);
    assert.match(await page.textContent('#param-k-error'), /^k must be .*k stays 40\.$/);
    assert.equal(await page.isVisible('#errors'), false, 'not only (nor here at all) in the banner at the top');
    // A vector's x and y share one message.
    const x0 = /&x0=([^&]*)/.exec(await config(page))[1];
    await typeInto(page, '#param-x0-y', '1e99');
    assert.equal(/&x0=([^&]*)/.exec(await config(page))[1], x0);
    assert.match(await page.textContent('#param-x0-x-error'), new RegExp(`x0 .*x0 stays ${x0}\\.$`));
  });
});

test('every aria-describedby of every field points at an element that exists', async () => {
  for (const hash of ['preset=damped_spring', 'scenario=orbit', 'scenario=two_spring', 'scenario=pendulum']) {
    await withPage({ hash }, async (page) => {
      const missing = await page.evaluate(() => [...document.querySelectorAll('[aria-describedby]')].flatMap((e) => e
        .getAttribute('aria-describedby').split(/\s+/).filter((id) => id && !document.getElementById(id)).map((id) => `#${e.id} -> ${id}`)));
      assert.deepEqual(missing, [], hash);
    });
  }
});

test('↑/↓ step dt along 1, 2, 5 and other fields by a tenth of their size', async () => {
  await withPage({ hash: 'scenario=spring&integrators=rk4&dt=0.01&k=40&b=0' }, async (page) => {
    const press = async (selector, key, times = 1) => {
      await page.focus(selector);
      for (let i = 0; i < times; ++i) await page.keyboard.press(key);
    };
    await press('#dt', 'ArrowUp');
    assert.match(await config(page), /&dt=0\.02&/, 'dt 0.01 → 0.02, never 1.01');
    await press('#dt', 'ArrowUp');
    assert.match(await config(page), /&dt=0\.05&/);
    await press('#dt', 'ArrowDown', 3);
    assert.match(await config(page), /&dt=0\.005&/);
    await press('#param-k', 'ArrowUp');
    assert.match(await config(page), /&k=50&/);
    await press('#param-x0-x', 'ArrowUp');
    assert.match(await config(page), /&x0=1\.1,0&/);
    await press('#param-b', 'ArrowUp');  // from 0: a tenth of a unit
    assert.match(await config(page), /&b=0\.1&/);
    // The spinner's own step is a tenth of the value's decade.
    assert.equal(await page.getAttribute('#dt', 'step'), '0.0001');
    assert.equal(await page.getAttribute('#param-k', 'step'), '1');
  });
});

test('sliders announce their meaning, not their log10 value', async () => {
  await withPage({ hash: 'scenario=spring&integrators=rk4&dt=0.01' }, async (page) => {
    assert.equal(await page.getAttribute('#speed', 'aria-valuetext'), '1×');
    assert.equal(await page.getAttribute('#dt-slider', 'aria-valuetext'), 'dt = 0.01 s');
    await page.locator('#speed').fill('1');
    assert.equal(await page.getAttribute('#speed', 'aria-valuetext'), '10×');
    await page.locator('#dt-slider').fill('-3');
    assert.equal(await page.getAttribute('#dt-slider', 'aria-valuetext'), 'dt = 0.001 s');
  });
});
