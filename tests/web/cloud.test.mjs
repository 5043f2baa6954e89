// The phase-space clouds in the page (headless Chromium): the cloud panel and the area-ratio plot
// shown only when the config asks for clouds, every lane's points drawn in its legend colour, the
// area ratios in the state (1 for a symplectic method, > 1 for explicit Euler), the largest clouds
// the page allows, refused and hostile cloud values (an error naming the key, the rest runs), the
// controls, and screenshots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, openPage, pageChecks, playOn, playUntil, state, sleep, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const withPage = (options, fn) => pageChecks(env, options, fn);
const config = (page) => page.evaluate(async () => { await window.stepwise.settled(); return window.stepwise.config(); });
const errors = (page) => page.evaluate(() => window.stepwise.errors());
const visible = (page, selector) => page.locator(selector).isVisible();
const all = 'explicit_euler,semi_implicit_euler,semi_implicit_euler_x,implicit_euler,newton,heun,midpoint,rk4,' +
  'leapfrog,stormer_verlet,velocity_verlet,yoshida4,kinematic,kinematic_avg,rk45';

async function steps(page, n) {
  for (let i = 0; i < n; ++i) await page.evaluate(() => window.stepwise.step());
  // The draw after the last step.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

// For every window of the cloud panel: how many of its pixels have its lane's legend colour
// (the exact flow's: the ghost colour), and how many differ from the background.
async function cloudPixels(page) {
  return page.evaluate(() => {
    const canvas = document.getElementById('cloud-view');
    // Read from a copy (one readback per canvas: Chromium warns about several on the page's own).
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const ctx = copy.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(canvas, 0, 0);
    const ratio = canvas.width / canvas.getBoundingClientRect().width;
    const css = getComputedStyle(document.documentElement);
    const rgb = (colour) => {
      const probe = document.createElement('canvas').getContext('2d');
      probe.fillStyle = colour;
      probe.fillRect(0, 0, 1, 1);
      return [...probe.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const background = rgb(css.getPropertyValue('--canvas-bg').trim());
    const ghost = rgb(css.getPropertyValue('--ghost').trim());
    const legend = [...document.querySelectorAll('.legend-row:not(.ghost)')]
      .map((row) => rgb(row.style.getPropertyValue('--lane').trim()));
    const { cells } = window.stepwise.debug.cloud();
    const ids = window.stepwise.state().integrators.map((i) => i.id);
    return cells.map((cell) => {
      const x = Math.round(cell.x * ratio), y = Math.round(cell.y * ratio);
      const w = Math.round(cell.w * ratio), h = Math.round(cell.h * ratio);
      const data = ctx.getImageData(x, y, w, h).data;
      const colour = cell.lane === 'exact' ? ghost : legend[ids.indexOf(cell.lane)];
      let own = 0, drawn = 0;
      for (let i = 0; i < data.length; i += 4) {
        const px = [data[i], data[i + 1], data[i + 2]];
        if (px.some((v, k) => v !== background[k])) drawn += 1;
        if (px.every((v, k) => v === colour[k])) own += 1;
      }
      return { lane: cell.lane, own, drawn, window: cell.window };
    });
  });
}

test('preset=undamped_dt025&cloud=2000: clouds drawn in the legend colours, the area plot, ratios of 1 for symplectic methods', async () => {
  await withPage({ hash: 'preset=undamped_dt025&cloud=2000' }, async (page) => {
    assert.deepEqual(await errors(page), []);
    assert.match(await config(page), /&cloud=2000&cloud_radius=0\.1$/);
    assert.equal(await visible(page, '#cloud-panel'), true, 'the cloud panel shows');
    assert.equal(await visible(page, '#plot-area'), true, 'the area plot shows');
    assert.match(await page.textContent('#cloud-panel figcaption'), /symplectic method keeps the area/);
    await steps(page, 12);
    const s = await state(page);
    assert.equal(s.steps, 12);
    assert.deepEqual(s.cloud, { points: 2000, radius: 0.1 });
    for (const lane of s.integrators) assert.equal(lane.pointsFinite, 2000, lane.id);
    const ratio = Object.fromEntries(s.integrators.map((i) => [i.id, i.areaRatio]));
    for (const id of ['semi_implicit_euler', 'velocity_verlet']) assert.ok(Math.abs(ratio[id] - 1) < 1e-9, `${id}: ${ratio[id]}`);
    assert.ok(ratio.rk4 < 0.99, `RK4 shrinks the patch at ωh ≈ 0.97: ${ratio.rk4}`);
    assert.ok(Math.abs(s.exactAreaRatio - 1) < 1e-9, `exact flow: ${s.exactAreaRatio}`);
    // Every window has points, in its lane's legend colour (the exact flow's in grey).
    const cells = await cloudPixels(page);
    assert.deepEqual(cells.map((c) => c.lane), [...s.integrators.map((i) => i.id), 'exact']);
    for (const c of cells) {
      assert.ok(c.drawn > 50, `${c.lane}: ${c.drawn} pixels drawn`);
      assert.ok(c.own > 30, `${c.lane}: ${c.own} pixels in its legend colour`);
      for (const v of Object.values(c.window)) assert.ok(Number.isFinite(v), `${c.lane}: a finite window`);
    }
    // The legend says it in words.
    const rows = page.locator('.legend-row:not(.ghost) .area');
    assert.equal(await rows.count(), 3);
    assert.match(await rows.nth(0).textContent(), /^area × 1\.000 · 2,000 points finite$/);
    assert.match(await page.textContent('.legend-row.ghost'), /exact flow's cloud \(grey\): area × 1\.000/);

    // Explicit Euler added with its checkbox: its patch grows, (1 + (ωh)²) per step.
    await page.check('#int-explicit_euler');
    assert.match(await config(page), /integrators=semi_implicit_euler,rk4,velocity_verlet,explicit_euler&.*&cloud=2000/);
    await steps(page, 8);
    const t = await state(page);
    const euler = t.integrators.find((i) => i.id === 'explicit_euler');
    const wh2 = 15 * 0.25 * 0.25;  // k/m · dt²
    assert.ok(Math.abs(euler.areaRatio / Math.pow(1 + wh2, 8) - 1) < 1e-6, `explicit Euler: ${euler.areaRatio}`);
    assert.ok(Math.abs(t.integrators.find((i) => i.id === 'semi_implicit_euler').areaRatio - 1) < 1e-9);
    assert.match(await page.locator('.legend-row:not(.ghost) .area').nth(3).textContent(), /^area × 1\d\d\.?\d* · 2,000 points finite$/);
    await playOn(page, 800);
    const cells2 = await cloudPixels(page);
    for (const c of cells2) assert.ok(c.own > 30, `${c.lane} still drawn`);
  });
});

test('with no cloud (the default) there is no cloud panel, no area plot and no cloud call', async () => {
  await withPage({ hash: 'preset=undamped_dt025' }, async (page) => {
    assert.doesNotMatch(await config(page), /cloud/);
    assert.equal(await visible(page, '#cloud-panel'), false);
    assert.equal(await visible(page, '#plot-area'), false);
    assert.equal(await page.locator('.legend-row .area').count(), 0);
    const s = await state(page);
    assert.deepEqual(s.cloud, { points: 0, radius: 0.1 });
    assert.ok(s.integrators.every((i) => i.areaRatio === null));
    await page.locator('#speed').fill('1');
    const a = await page.evaluate(() => ({ ...window.stepwise.debug.handles(), ...window.stepwise.debug.timings() }));
    await playOn(page, 1000);
    const b = await page.evaluate(() => ({ ...window.stepwise.debug.handles(), ...window.stepwise.debug.timings() }));
    const stepped = b.steps - a.steps;
    assert.ok(stepped > 10);
    // A stepping frame reads the state and the new history: at most two calls besides the step.
    assert.ok(b.calls - a.calls <= 3 * (b.frames - a.frames), `${b.calls - a.calls} calls in ${b.frames - a.frames} frames`);
    assert.equal((await page.evaluate(() => window.stepwise.debug.cloud())).draws, 0, 'the cloud was never drawn');
  });
});

test('the largest cloud the page allows, four integrators × 100,000 points, loads and animates', async () => {
  await withPage({ hash: 'cloud=100000' }, async (page) => {
    assert.deepEqual(await errors(page), []);
    assert.match(await config(page), /integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&.*&cloud=100000/);
    const before = await page.locator('#cloud-view').screenshot();
    await playUntil(page, 0.1);
    const s = await state(page);
    assert.ok(s.integrators.every((i) => i.pointsFinite === 100000));
    const after = await page.locator('#cloud-view').screenshot();
    assert.ok(!before.equals(after), 'the clouds moved');
    const timings = await page.evaluate(() => window.stepwise.debug.timings());
    assert.ok(timings.frames > 5, `${timings.frames} frames`);
    const cells = await cloudPixels(page);
    for (const c of cells) assert.ok(c.own > 100, `${c.lane}: ${c.own} pixels in its colour`);
  });
});

test('all fifteen integrators × 100,000 points on spring_pair: what the module says, and the page runs', async () => {
  // The page's memory limit for clouds (1 GiB in wasm_bindings/playground.hpp) is above what 15
  // lanes of 100,000 points of two bodies need (about 250 MB): the module accepts it.
  await withPage({ hash: `scenario=spring_pair&integrators=${all}&cloud=100000&dt=0.05` }, async (page) => {
    const problems = await errors(page);
    const s0 = await state(page);
    if (problems.length > 0) {
      for (const e of problems) assert.match(e, /^cloud/);
      assert.equal(s0.cloud.points, 0);
      assert.equal(await visible(page, '#errors'), true);
    } else {
      assert.equal(s0.cloud.points, 100000);
      assert.equal(s0.integrators.length, 15);
    }
    // A step of all fifteen clouds is hundreds of milliseconds of work: it is spread over frames
    // (each within its budget, no long task: longtasks.test.mjs), so it takes a while to come.
    await page.evaluate(() => window.stepwise.play());
    await page.waitForFunction(() => window.stepwise.state().steps >= 2, null, { timeout: 30000 });
    const timings = await page.evaluate(() => window.stepwise.debug.timings());
    assert.equal(timings.capped, true, 'slower than asked, and it says so');
    await page.evaluate(() => window.stepwise.pause());
  });
});

test('cloud=100001 is refused with a message naming the key; the rest of the link runs', async () => {
  await withPage({ hash: 'preset=undamped_dt025&cloud=100001' }, async (page) => {
    const messages = await errors(page);
    assert.equal(messages.length, 1);
    assert.match(messages[0], /^cloud must be a whole number from 0 to 100000 in the page.*got '100001'/);
    assert.equal(await visible(page, '#errors'), true);
    assert.match(await page.textContent('#error-list'), /cloud must be/);
    assert.equal(await page.getAttribute('#cloud', 'aria-invalid'), 'true');
    assert.equal(await visible(page, '#cloud-panel'), false);
    assert.equal(await visible(page, '#plot-area'), false);
    assert.match(await config(page), /^v=1&scenario=spring&integrators=semi_implicit_euler,rk4,velocity_verlet&dt=0\.25/);
    await page.locator('#speed').fill('1');
    await playOn(page, 600);
    assert.ok((await state(page)).t > 0, 'the page still runs');
  });
});

test('hostile cloud and cloud_radius values are refused, each with a message naming its key', async () => {
  await withPage({ hash: 'preset=undamped_dt025' }, async (page) => {
    const markup = '%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E';
    const cases = [
      ...['-1', '1.5', 'abc', '1e9', 'NaN', '0x10', 'Infinity', '', '100001', markup].map((v) => ['cloud', v]),
      ...['-1', '0', '9e-7', 'abc', '1e9', 'NaN', '0x10', 'Infinity', '', markup].map((v) => ['cloud_radius', v]),
    ];
    for (const [key, value] of cases) {
      // cloud_radius alone needs a cloud to matter: the valid cloud keeps running.
      const hash = key === 'cloud' ? `preset=undamped_dt025&cloud=${value}` : `preset=undamped_dt025&cloud=500&cloud_radius=${value}`;
      // Through the address, as a link would: the page applies it on hashchange.
      await page.evaluate((h) => new Promise((resolve) => {
        window.addEventListener('hashchange', () => setTimeout(resolve, 0), { once: true });
        location.hash = h;
      }), hash);
      const messages = await errors(page);
      assert.equal(messages.length, 1, `${hash}: ${JSON.stringify(messages)}`);
      assert.ok(messages[0].startsWith(`${key} must be`), `${hash}: ${messages[0]}`);
      assert.equal(await visible(page, '#errors'), true, hash);
      assert.equal(await page.getAttribute(`#${key}`, 'aria-invalid'), 'true', hash);
      assert.equal(await page.locator('#errors img').count(), 0, 'text, never markup');
      const s = await state(page);
      assert.equal(s.cloud.points, key === 'cloud' ? 0 : 500, hash);
      assert.equal(s.cloud.radius, 0.1, hash);
      assert.equal(await visible(page, '#cloud-panel'), key !== 'cloud', hash);
    }
    // 1.5 is a radius (metres along x, m/s along vx), not a point count.
    await page.evaluate(() => window.stepwise.set('preset=undamped_dt025&cloud=500&cloud_radius=1.5'));
    assert.deepEqual(await errors(page), []);
    assert.equal((await state(page)).cloud.radius, 1.5);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    await page.locator('#speed').fill('1');
    await playOn(page, 600);
    assert.ok((await state(page)).t > 0, 'the page still runs');
  });
});

test('the cloud controls change the config; a preset or another system keeps the cloud', async () => {
  await withPage({ hash: 'preset=undamped_dt025' }, async (page) => {
    assert.equal(await page.inputValue('#cloud'), '0');
    assert.equal(await page.inputValue('#cloud_radius'), '0.1');
    assert.equal(await page.getAttribute('#cloud', 'max'), '100000');
    await page.click('#cloud-toggle');
    assert.match(await config(page), /&cloud=20000&cloud_radius=0\.1$/);
    assert.equal(await visible(page, '#cloud-panel'), true);
    assert.equal(await page.inputValue('#preset'), 'undamped_dt025', 'still the preset, with a cloud');
    await page.fill('#cloud', '3000');
    await page.locator('#cloud').dispatchEvent('change');
    assert.match(await config(page), /&cloud=3000&/);
    await page.fill('#cloud_radius', '0.5');
    await page.locator('#cloud_radius').dispatchEvent('change');
    assert.match(await config(page), /&cloud=3000&cloud_radius=0\.5$/);
    assert.equal((await state(page)).cloud.radius, 0.5);
    await page.selectOption('#preset', 'damped_spring');
    assert.match(await config(page), /&k=15&b=0\.1&.*&cloud=3000&cloud_radius=0\.5$/);
    await page.selectOption('#scenario', 'orbit');
    assert.match(await config(page), /^v=1&scenario=orbit&.*&cloud=3000&cloud_radius=0\.5$/);
    await steps(page, 20);
    const s = await state(page);
    assert.ok(s.integrators.every((i) => i.areaRatio === null || Number.isFinite(i.areaRatio)));
    await page.click('#cloud-toggle');
    assert.doesNotMatch(await config(page), /&cloud=[1-9]/);
    assert.equal(await visible(page, '#cloud-panel'), false);
    assert.equal(await visible(page, '#plot-area'), false);
    // The address carries the cloud: a new page from the link shows the same.
    await page.evaluate(() => window.stepwise.set('preset=undamped_dt025&cloud=700'));
    const link = await config(page);
    const other = await openPage(env, { hash: link });
    try {
      assert.equal(await config(other.page), link);
      assert.equal((await state(other.page)).cloud.points, 700);
      assert.equal(await other.page.inputValue('#cloud'), '700');
    } finally {
      await other.context.close();
    }
  });
});

test('an embedded frame without the full controls shows no cloud panel', async () => {
  const p = await openPage(env, { hash: 'preset=undamped_dt025&cloud=2000', width: 640, height: 400 });
  try {
    await p.page.goto(`${env.server.url}embed.html?ui=compact#preset=undamped_dt025&cloud=2000`);
    await p.page.evaluate(() => window.stepwise.ready);
    assert.equal(await visible(p.page, '#cloud-panel'), false);
    await playOn(p.page, 500);
    assert.equal((await p.page.evaluate(() => window.stepwise.debug.cloud())).draws, 0, 'not drawn while hidden');
    assert.deepEqual(p.problems, []);
  } finally {
    await p.context.close();
  }
});

test('screenshots of the clouds (desktop light and dark, phone)', async () => {
  const hash = 'preset=undamped_dt025&cloud=20000&integrators=explicit_euler,semi_implicit_euler,rk4,implicit_euler';
  const views = [['desktop', 1440, 900, 'light'], ['desktop', 1440, 900, 'dark'], ['phone', 390, 844, 'light']];
  for (const [name, width, height, scheme] of views) {
    await withPage({ width, height, scheme, hash }, async (page) => {
      await playOn(page, 3000);
      await screenshot(page, `cloud-${name}-${scheme}`);
      await screenshot(page, `cloud-${name}-${scheme}-full`, { fullPage: true });
      await page.locator('#cloud-panel').screenshot({ path: `test-artifacts/cloud-${name}-${scheme}-panel.png` });
      const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
      assert.ok(scroll <= inner, `no horizontal scroll: ${scroll} <= ${inner}`);
    });
  }
});
