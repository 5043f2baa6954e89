// The page as a generic renderer of the core's scene description: every scenario in the core's
// table opens from the address and animates, the new systems' presets open, the orbit draws its
// central mass and the reference's path, a body that falls into the central mass is said to, the
// angular momentum plot shows only where the core records it, and the controls show each
// parameter's meaning and the presets grouped by system. Screenshots of the new systems.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, canvasTexts, playOn, state, screenshot, framesPass } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const withPage = (options, fn) => pageChecks(env, options, fn);
const table = (page) => page.evaluate(() => ({
  scenarios: window.stepwise.scenarios(), presets: window.stepwise.presets(),
}));
const figureHidden = (page, canvas) => page.evaluate((id) => document.getElementById(id).closest('figure').hidden, canvas);

// Dropped from rest onto the central mass: every lane falls in at about t = 1.11 s.
const collision = 'scenario=orbit&x0=1,0&v0=0,0&integrators=explicit_euler,rk4';

test('every scenario of the core\'s table opens from #scenario=<id> and animates', async () => {
  let ids = [];
  await withPage({}, async (page) => { ids = (await table(page)).scenarios.map((s) => s.id); });
  assert.ok(ids.length >= 6, `${ids.length} scenarios`);
  for (const id of ids) {
    await withPage({ hash: `scenario=${id}` }, async (page) => {
      assert.match(await page.evaluate(() => window.stepwise.config()), new RegExp(`^v=1&scenario=${id}&`));
      assert.equal(await page.inputValue('#scenario'), id);
      const scene = await page.evaluate(() => window.stepwise.scene());
      assert.equal(scene.scenario, id);
      assert.match(await page.textContent('#params legend'), new RegExp(scene.name));
      const before = await page.locator('#view').screenshot();
      await page.locator('#speed').fill('0.5');  // about 3×
      await playOn(page, 800);
      const s = await state(page);
      assert.ok(s.t > 0.3, `${id}: t advanced to ${s.t}`);
      for (const b of [...s.bodies, ...s.reference]) {
        for (const k of ['x', 'y', 'vx', 'vy']) assert.ok(Number.isFinite(b[k]), `${id} ${k}`);
      }
      assert.ok(!before.equals(await page.locator('#view').screenshot()), `${id}: canvas pixels changed`);
      // The phase plot's axes and caption are the scene's.
      assert.ok((await page.textContent('#plot-phase >> xpath=ancestor::figure')).includes(scene.phase.text), `${id}: phase caption`);
      assert.ok((await canvasTexts(page)).some((t) => t.startsWith(`${scene.phase.q} (`)), `${id}: phase axis "${scene.phase.q}"`);
    });
  }
});

test('every preset of the orbit and the elastic pendulum opens, in its group of the preset menu', async () => {
  let scenarios = [], presets = [];
  await withPage({}, async (page) => { ({ scenarios, presets } = await table(page)); });
  for (const scenario of scenarios.filter((s) => ['orbit', 'elastic_pendulum'].includes(s.id))) {
    assert.ok(scenario.presets.length >= 2, scenario.id);
    for (const id of scenario.presets) {
      const preset = presets.find((p) => p.id === id);
      await withPage({ hash: `preset=${id}` }, async (page) => {
        assert.equal(await page.inputValue('#preset'), id);
        assert.equal(await page.locator(`#preset optgroup[label="${scenario.name}"] option[value="${id}"]`).count(), 1);
        // The whole name shows under the menu, however narrow the menu is.
        assert.equal(await page.textContent('#preset-description strong'), preset.name);
        assert.equal(await page.inputValue('#scenario'), scenario.id);
        await page.locator('#speed').fill('0.5');
        await playOn(page, 700);
        assert.ok((await state(page)).t > 0.3, id);
      });
    }
  }
});

test('the preset menu has one group per system, in the order of the core\'s table', async () => {
  await withPage({}, async (page) => {
    const { scenarios } = await table(page);
    const groups = await page.$$eval('#preset optgroup', (list) => list.map((g) => ({
      label: g.label, ids: [...g.querySelectorAll('option')].map((o) => o.value),
    })));
    assert.deepEqual(groups, scenarios.filter((s) => s.presets.length > 0).map((s) => ({ label: s.name, ids: s.presets })));
  });
});

test('every preset\'s whole name fits the closed preset menu (desktop and phone)', async () => {
  for (const width of [1440, 900, 360]) {
    await withPage({ width, height: 800 }, async (page) => {
      // On a narrow screen the settings are folded under a button: open them.
      await page.evaluate(() => { document.getElementById('settings-box').open = true; });
      const cut = await page.evaluate(() => {
        const select = document.getElementById('preset');
        const css = getComputedStyle(select);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = `${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
        // Room for the text: the box less its padding and the arrow (about 20 px in Chromium).
        const room = select.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - 22;
        return [...select.options].filter((o) => ctx.measureText(o.text).width > room)
          .map((o) => `${o.text}: ${Math.round(ctx.measureText(o.text).width)} > ${Math.round(room)}`);
      });
      assert.deepEqual(cut, [], `${width} px`);
    });
  }
});

test('each parameter shows its meaning; aria-describedby names only ids that exist', async () => {
  await withPage({ hash: 'preset=eccentric_orbit' }, async (page) => {
    const orbit = (await table(page)).scenarios.find((s) => s.id === 'orbit');
    for (const spec of orbit.params) {
      const hint = page.locator(`#param-${spec.key}-hint`);
      assert.equal(await hint.textContent(), spec.meaning);
      assert.ok(await hint.isVisible(), `${spec.key}: the meaning is visible`);
    }
    // Its meaning, its range, and its own error message (empty while the value is good).
    assert.equal(await page.getAttribute('#param-v0-y', 'aria-describedby'), 'param-v0-hint param-v0-range param-v0-x-error');
    for (const query of ['preset=eccentric_orbit', 'scenario=spring_pair', 'scenario=elastic_pendulum']) {
      await page.evaluate((q) => window.stepwise.set(q), query);
      const missing = await page.evaluate(() => [...document.querySelectorAll('[aria-describedby]')].flatMap(
        (e) => e.getAttribute('aria-describedby').split(/\s+/).filter((id) => !document.getElementById(id))
          .map((id) => `${e.id}: ${id}`)));
      assert.deepEqual(missing, [], query);
    }
  });
});

test('the orbit draws its central mass and the exact path, with finite numbers only', async () => {
  await withPage({ hash: 'preset=eccentric_orbit', width: 1440, height: 900 }, async (page) => {
    await page.locator('#speed').fill('0.3');  // 2×: a whole period (2.4 s) in about 1.3 s
    await playOn(page, 1800);
    const s = await state(page);
    assert.ok(s.t > 2.4, `t = ${s.t}`);
    assert.equal(s.referenceKind, 'exact');
    for (const lane of s.integrators) {
      for (const k of ['energy', 'drift', 'error', 'angularMomentum', 'angularMomentumDrift']) {
        assert.ok(Number.isFinite(lane[k]), `${lane.id}.${k}`);
      }
    }
    const texts = await canvasTexts(page);
    assert.ok(texts.includes('central mass'), 'the central mass is named');
    assert.ok(texts.includes('dashed ring and path: exact'));
    assert.match(await page.textContent('.legend-row.ghost'), /Exact solution \(dashed ring and path\)/);
  });
});

test('a body that falls into the central mass stops, says so, and is never drawn as NaN', async () => {
  await withPage({ hash: collision, width: 1280, height: 860 }, async (page) => {
    await page.locator('#speed').fill('0.3');
    await page.evaluate(() => window.stepwise.play());
    await page.waitForFunction(() => window.stepwise.state().t > 1.6, null, { timeout: 10000 });
    await framesPass(page, 3);  // the legend and plots catch up
    await page.evaluate(() => window.stepwise.pause());
    const s = await state(page);
    assert.deepEqual(s.integrators.map((i) => i.stopReason), ['collision', 'collision']);
    for (const b of s.bodies) {
      assert.equal(b.stopReason, 'collision');
      assert.ok(b.divergedAt > 1 && b.divergedAt < 1.3, `${b.integrator} at ${b.divergedAt}`);
      for (const k of ['x', 'y', 'vx', 'vy', 'energy', 'error']) assert.ok(Number.isFinite(b[k]), `${b.integrator}.${k}`);
    }
    const rows = page.locator('.legend-row.diverged');
    assert.equal(await rows.count(), 2);
    for (let i = 0; i < 2; ++i) assert.match(await rows.nth(i).textContent(), /fell into the central mass at t = 1\.\d+ s/);
    assert.ok((await canvasTexts(page)).some((t) => /^fell into the central mass at t = 1\.\d+ s$/.test(t)), 'the plots mark it');
    await screenshot(page, 'orbit-collision-desktop-light');
  });
});

test('the angular momentum plot shows on the orbit and hides on the projectile', async () => {
  await withPage({ hash: 'preset=circular_orbit' }, async (page) => {
    assert.equal(await figureHidden(page, 'plot-angular'), false);
    await playOn(page, 600);
    assert.ok(await page.locator('#plot-angular').isVisible());
    assert.ok((await page.locator('#plot-angular').boundingBox()).height > 100);
    assert.match(await page.textContent('#plot-angular >> xpath=ancestor::figure'), /angular momentum minus the exact motion's, in % of its size at the start/);
    await page.selectOption('#scenario', 'projectile');
    assert.equal(await figureHidden(page, 'plot-angular'), true);
    assert.equal(await page.locator('#plot-angular').isVisible(), false);
  });
  await withPage({ hash: 'scenario=projectile' }, async (page) => {
    assert.equal(await figureHidden(page, 'plot-angular'), true);
  });
});

// Issue 31 §2: a spring on one line through its anchor (released from rest, or pushed along its
// axis) has angular momentum 0 at every step, for every method: no plot of it. Off the line, the plot.
test('no angular momentum plot where the motion stays on a line through the anchor', async () => {
  for (const [hash, hidden] of [['scenario=spring&x0=1,0&v0=0,0&b=0', true], ['scenario=spring&x0=0,2&v0=0,-1&b=0&anchor=0,5', true],
    ['scenario=spring&x0=1,0&v0=0,1&b=0', false], ['scenario=spring&x0=1,0&v0=0,0&b=0&anchor=0,1', true], ['scenario=spring&x0=1,0&v0=1,1&b=0', false]]) {
    await withPage({ hash }, async (page) => {
      assert.equal(await figureHidden(page, 'plot-angular'), hidden, hash);
    });
  }
});

test('screenshots: orbits and the elastic pendulum (desktop, phone, dark, embedded)', async () => {
  const views = [
    ['circular-orbit', 'preset=circular_orbit', 0.5, 2500],
    ['eccentric-orbit', 'preset=eccentric_orbit', 0.3, 3000],
    ['hyperbolic-flyby', 'preset=hyperbolic_flyby', 0.5, 2500],
    ['elastic-pendulum-resonance', 'preset=elastic_pendulum_resonance', 0, 3000],
    ['elastic-pendulum-chaos', 'preset=elastic_pendulum_chaos', 0, 3000],
  ];
  for (const [name, hash, speed, ms] of views) {
    for (const [size, width, height, scheme] of [['desktop', 1440, 900, 'light'], ['desktop', 1440, 900, 'dark'],
      ['phone', 390, 844, 'light']]) {
      await withPage({ hash, width, height, scheme }, async (page) => {
        await page.locator('#speed').fill(String(speed));
        await playOn(page, ms);
        const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(scroll <= width, `${name} ${size}: no horizontal scroll (${scroll})`);
        await screenshot(page, `${size}-${name}-${scheme}`);
        if (size === 'phone') await screenshot(page, `${size}-${name}-${scheme}-full`, { fullPage: true });
      });
    }
  }
  const context = await env.browser.newContext({ viewport: { width: 640, height: 400 } });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
    await page.goto(`${env.server.url}embed.html?ui=compact#preset=eccentric_orbit`);
    await page.evaluate(() => window.stepwise.ready);
    // (a compact frame of 640 px or less has no speed slider: it plays at 1×)
    await playOn(page, 2500);
    const fits = await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight && document.documentElement.scrollWidth <= innerWidth);
    assert.ok(fits, 'the embedded frame needs no scrolling');
    await screenshot(page, 'embed-compact-eccentric-orbit');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
