// End-to-end tests of the playground in headless Chromium, against the built site served on
// loopback. Every number the page shows comes from the wasm core; these tests drive the page
// as a person would (buttons, keys, fields) and read window.stepwise.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, openPage, pageChecks, playOn, state, framesPass, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const withPage = (options, fn) => pageChecks(env, options, fn);

test('loads with no console error and reads its config from the hash', async () => {
  await withPage({ hash: 'scenario=spring&integrators=rk4&dt=0.01' }, async (page) => {
    const config = await page.evaluate(() => window.stepwise.config());
    assert.match(config, /^v=1&scenario=spring&integrators=rk4&dt=0.01&duration=10&/);
    await page.waitForFunction((c) => location.hash === `#${c}`, config);
    assert.deepEqual(await page.evaluate(() => window.stepwise.errors()), []);
    const s = await state(page);
    assert.equal(s.t, 0);
    assert.deepEqual(s.bodies.map((b) => b.integrator), ['rk4']);
    assert.equal(await page.locator('.legend-row').count(), 2);  // rk4 and the exact ghost
    assert.match(await page.locator('.legend-row').first().textContent(), /Runge–Kutta 4.*order 4.*4 f\/step/);
  });
});

test('t advances and canvas pixels change while playing; pause stops time', async () => {
  await withPage({ hash: 'preset=damped_spring' }, async (page) => {
    const before = await page.locator('#view').screenshot();
    await page.click('#play');
    await page.waitForFunction(() => window.stepwise.state().t > 0.1);
    const s1 = await state(page);
    assert.equal(s1.playing, true);
    assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true');
    const during = await page.locator('#view').screenshot();
    assert.ok(!before.equals(during), 'canvas pixels changed');
    await page.click('#play');  // pause
    const paused = await state(page);
    await framesPass(page, 30);
    const later = await state(page);
    assert.equal(later.t, paused.t, 'pause stops time');
    assert.equal(later.playing, false);
  });
});

test('time follows the wall clock at the playback speed, in whole dt steps', async () => {
  await withPage({ hash: 'scenario=spring&integrators=semi_implicit_euler&dt=0.001&duration=1000' }, async (page) => {
    await page.locator('#speed').fill('1');  // 10×
    assert.equal(await page.textContent('#speed-out'), '10×');
    const wall0 = Date.now();
    await playOn(page, 1000);
    const wall = (Date.now() - wall0) / 1000;
    const s = await state(page);
    // Never ahead of the clock, and moving. How near it keeps up depends on the frames this machine
    // delivers (a frame counts at most maxWallPerFrame of wall time): runner.test checks the clock's
    // mapping exactly, with a clock of its own, whatever the frame rate.
    assert.ok(s.t > 0 && s.t <= 10 * wall + 0.5, `t = ${s.t} after ${wall} s at 10×`);
    assert.equal(s.t, s.steps * 0.001, 't = steps × dt');
    await page.evaluate(() => window.stepwise.reset());
    await page.locator('#speed').fill('-1');  // 0.1×
    await playOn(page, 1000);
    const slow = await state(page);
    assert.ok(slow.t > 0 && slow.t < 0.2, `t = ${slow.t} after 1 s at 0.1×`);
  });
});

test('a long pause of the main thread causes no burst of steps', async () => {
  await withPage({ hash: 'scenario=spring&integrators=rk4&dt=0.001&duration=1000' }, async (page) => {
    await page.evaluate(() => window.stepwise.play());
    await page.waitForFunction(() => window.stepwise.state().t > 0);
    const s0 = await state(page);
    // Block the page for 1.5 s (like a hidden tab or a debugger pause), then let it run a frame.
    await page.evaluate(() => { const end = performance.now() + 1500; while (performance.now() < end) { /* busy */ } });
    const s1 = await page.evaluate(() => new Promise((resolve) => {
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.stepwise.state())));
    }));
    // A burst would catch up the whole 1.5 s; a capped frame adds at most a frame's cap, plus
    // the frames on either side of the pause (longer on a loaded machine).
    assert.ok(s1.t - s0.t < 1.0, `only a capped frame of time passed: ${s1.t - s0.t} s`);
  });
});

test('the step button and the right arrow advance exactly one dt; r resets; space toggles', async () => {
  await withPage({ hash: 'preset=two_point_exercise' }, async (page) => {
    const s0 = await state(page);
    await page.click('#step');
    const s1 = await state(page);
    assert.equal(s1.steps, s0.steps + 1);
    assert.equal(s1.t, 0.5);  // dt = 0.5
    assert.notDeepEqual(s1.bodies[0], s0.bodies[0]);
    await page.locator('#view').click();  // focus leaves the button
    await page.keyboard.press('ArrowRight');
    const s2 = await state(page);
    assert.equal(s2.steps, 2);
    assert.equal(s2.t, 1);
    await page.locator('#speed').fill('1');  // 10×: dt is 0.5 s here
    await page.locator('#view').click();
    await page.keyboard.press('Space');
    await page.waitForFunction(() => window.stepwise.state().playing && window.stepwise.state().steps > 2);
    await page.keyboard.press('Space');
    const s3 = await state(page);
    assert.equal(s3.playing, false);
    assert.ok(s3.steps > 2);
    await page.keyboard.press('r');
    const s4 = await state(page);
    assert.equal(s4.t, 0);
    assert.deepEqual(s4.bodies, s0.bodies);
  });
});

test('each control changes the simulation', async () => {
  await withPage({ hash: 'scenario=spring&integrators=explicit_euler,rk4&dt=0.01' }, async (page) => {
    const config = () => page.evaluate(() => window.stepwise.config());
    const stepAll = async (n) => { for (let i = 0; i < n; ++i) await page.click('#step'); return state(page); };

    const base = await stepAll(5);
    // dt through the number field.
    await page.fill('#dt', '0.02');
    await page.locator('#dt').dispatchEvent('change');
    assert.match(await config(), /&dt=0.02&/);
    const coarser = await stepAll(5);
    assert.equal(coarser.t, 0.1);
    assert.notDeepEqual(coarser.bodies, base.bodies, 'changing dt changes state()');
    // dt through the log slider.
    await page.locator('#dt-slider').fill('-3');
    assert.match(await config(), /&dt=0.001&/);
    // A parameter of the system.
    await page.fill('#param-k', '40');
    await page.locator('#param-k').dispatchEvent('change');
    assert.match(await config(), /&k=40&/);
    // A vector parameter.
    await page.fill('#param-x0-y', '0.5');
    await page.locator('#param-x0-y').dispatchEvent('change');
    assert.match(await config(), /&x0=1,0.5&/);
    // The duration.
    await page.fill('#duration', '3');
    await page.locator('#duration').dispatchEvent('change');
    assert.match(await config(), /&duration=3&/);
    // An integrator checkbox adds a lane (and its legend row).
    await page.check('#int-velocity_verlet');
    assert.match(await config(), /integrators=explicit_euler,rk4,velocity_verlet&/);
    assert.deepEqual([...new Set((await state(page)).bodies.map((b) => b.integrator))],
      ['explicit_euler', 'rk4', 'velocity_verlet']);
    assert.equal(await page.locator('.legend-row').count(), 4);
    await page.uncheck('#int-explicit_euler');
    assert.match(await config(), /integrators=rk4,velocity_verlet&/);
    // The last integrator cannot be unchecked: the page says why.
    await page.uncheck('#int-rk4');
    await page.click('#int-velocity_verlet');
    assert.equal(await page.isChecked('#int-velocity_verlet'), true);
    assert.deepEqual(await page.evaluate(() => window.stepwise.errors()), ['Keep at least one integrator selected.']);
    // The system.
    await page.selectOption('#scenario', 'projectile');
    assert.match(await config(), /scenario=projectile&integrators=velocity_verlet&dt=0.001&/);
    assert.equal(await page.locator('#param-g').inputValue(), '9.81');
    // A preset.
    await page.selectOption('#preset', 'two_springs');
    const preset = await page.evaluate(() => window.stepwise.presets().find((p) => p.id === 'two_springs'));
    assert.match(await config(), /^v=1&scenario=two_spring&integrators=semi_implicit_euler,kinematic,kinematic_avg,rk4&dt=0.05/);
    assert.ok(preset.query.includes('k1=10'));
    assert.equal(await page.locator('#preset').inputValue(), 'two_springs');
  });
});

test('the address hash is the single source of truth', async () => {
  await withPage({ hash: 'scenario=projectile&integrators=newton,rk4&dt=0.05&v0=3,4' }, async (page) => {
    const config = await page.evaluate(() => window.stepwise.config());
    assert.equal(config, 'v=1&scenario=projectile&integrators=newton,rk4&dt=0.05&duration=10&m=1&g=9.81&drag=0&x0=0,0&v0=3,4');
    assert.equal(await page.inputValue('#dt'), '0.05');
    assert.equal(await page.inputValue('#param-v0-x'), '3');
    // set() changes the hash; editing the hash changes the simulation.
    await page.evaluate(() => window.stepwise.set('preset=stiff_spring'));
    await page.waitForFunction(() => /^#v=1&scenario=spring&.*k=1000/.test(location.hash));
    await page.evaluate(() => { location.hash = 'scenario=two_spring&integrators=heun'; });
    await page.waitForFunction(() => window.stepwise.config().startsWith('v=1&scenario=two_spring&integrators=heun&'));
    assert.equal(await page.inputValue('#scenario'), 'two_spring');
  });
});

test('config errors are shown as text, never as markup', async () => {
  const evil = encodeURIComponent('<img src=x onerror="window.__pwned=1">');
  await withPage({ hash: `scenario=spring&dt=-1&k=${evil}&integrators=rk4,nope` }, async (page) => {
    const errors = await page.evaluate(() => window.stepwise.errors());
    assert.equal(errors.length, 3);
    assert.ok(errors.some((e) => e.includes('<img')));
    assert.equal(await page.locator('#errors img').count(), 0);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.locator('#errors li').count(), 3);
    assert.equal(await page.getAttribute('#dt', 'aria-invalid'), 'true');
    // The valid parts still run.
    assert.match(await page.evaluate(() => window.stepwise.config()), /integrators=rk4&dt=0.01&/);
  });
});

test('a diverging explicit Euler is flagged while the others keep running', async () => {
  await withPage({ hash: 'preset=stiff_spring' }, async (page) => {
    await page.locator('#speed').fill('1');
    await page.evaluate(() => window.stepwise.play());
    await page.waitForFunction(() => window.stepwise.state().t > 3, null, { timeout: 10000 });
    const s1 = await state(page);
    const euler = s1.bodies.find((b) => b.integrator === 'explicit_euler');
    assert.equal(euler.diverged, true);
    assert.ok(euler.divergedAt > 0 && euler.divergedAt < 3, `diverged at ${euler.divergedAt}`);
    for (const b of s1.bodies) {
      for (const k of ['x', 'y', 'vx', 'vy', 'energy', 'error']) assert.ok(Number.isFinite(b[k]), `${b.integrator}.${k}`);
      if (b.integrator !== 'explicit_euler') assert.equal(b.diverged, false, b.integrator);
    }
    await page.waitForFunction((t) => window.stepwise.state().t > t, s1.t);
    const s2 = await state(page);
    const moved = s2.bodies.filter((b, i) => b.x !== s1.bodies[i].x);
    assert.deepEqual(moved.map((b) => b.integrator).sort(), ['rk4', 'semi_implicit_euler', 'velocity_verlet']);
    await page.evaluate(() => window.stepwise.pause());
    const row = page.locator('.legend-row.diverged');
    assert.equal(await row.count(), 1);
    assert.match(await row.textContent(), /Explicit Euler.*diverged at t = \d/);
    await screenshot(page, 'diverged-stiff-spring-desktop-light');
  });
});

test('every scenario and preset runs with every integrator, never drawing a NaN', async () => {
  await withPage({}, async (page) => {
    const all = await page.evaluate(() => window.stepwise.integrators().map((i) => i.id).join(','));
    const queries = [
      ...(await page.evaluate(() => window.stepwise.presets().map((p) => `preset=${p.id}`))),
      ...(await page.evaluate(() => window.stepwise.scenarios().map((s) => s.id)))
        .map((s) => `scenario=${s}&integrators=${all}&dt=0.2`),
    ];
    await page.locator('#speed').fill('1');
    for (const q of queries) {
      await page.evaluate((query) => { window.stepwise.set(query); window.stepwise.play(); }, q);
      // It plays: time moves (waited for, however busy the machine).
      await page.waitForFunction(() => window.stepwise.state().t > 0, null, { timeout: 30000 }).catch(() => {});
      const s = await state(page);
      assert.ok(s.t > 0, q);
    }
  });
});

test('no Embind handle leaks while the page runs and changes config', async () => {
  await withPage({ hash: 'preset=two_springs' }, async (page) => {
    const h0 = await page.evaluate(() => window.stepwise.debug.handles());
    assert.equal(h0.live, 1);
    await playOn(page, 500);
    for (let i = 0; i < 30; ++i) {
      await page.evaluate((k) => window.stepwise.set(`preset=two_springs&k1=${10 + k}`), i);
    }
    for (let i = 0; i < 120; ++i) await page.locator('#dt-slider').fill(String(-3 + i / 100));  // a long drag
    await page.locator('#dt-slider').fill('-2.5');
    await page.check('#int-rk45');
    await playOn(page, 500);
    const h1 = await page.evaluate(() => window.stepwise.debug.handles());
    assert.equal(h1.live, 1, 'one Simulation alive');
    assert.equal(h1.created - h1.deleted, 1);
    assert.ok(h1.created >= 33);
    assert.ok(h1.emval <= h0.emval, `emval handles did not grow: ${h0.emval} -> ${h1.emval}`);
  });
});

test('a frame crosses into wasm a handful of times at most', async () => {
  await withPage({ hash: 'scenario=two_spring&integrators=explicit_euler,rk4,rk45,implicit_euler&dt=0.001' }, async (page) => {
    await page.locator('#speed').fill('1');
    await page.evaluate(() => window.stepwise.play());
    await page.waitForFunction(() => window.stepwise.state().t > 0);
    const a = await page.evaluate(() => ({ ...window.stepwise.debug.handles(), ...window.stepwise.debug.timings() }));
    await framesPass(page, 30);
    const b = await page.evaluate(() => ({ ...window.stepwise.debug.handles(), ...window.stepwise.debug.timings() }));
    const frames = b.frames - a.frames, calls = b.calls - a.calls;
    assert.ok(frames > 5, `${frames} frames`);
    assert.ok(b.steps - a.steps > frames * 10, 'many steps per frame');
    assert.ok(calls <= 3 * frames, `${calls} calls in ${frames} frames`);
  });
});

test('every control has a label and can be reached with Tab', async () => {
  await withPage({}, async (page) => {
    const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input, select, button')]
      .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim())
      .map((e) => e.id || e.outerHTML));
    assert.deepEqual(unlabelled, []);
    const reached = new Set();
    // Every fold is open here (openPage's unfold), the Integrators panel's lanes too: a field and
    // two buttons each (issue 31 §2), so the Play button is further along than on the first screen.
    for (let i = 0; i < 90; ++i) {
      await page.keyboard.press('Tab');
      reached.add(await page.evaluate(() => document.activeElement.id));
    }
    for (const id of ['play', 'step', 'reset', 'speed', 'scenario', 'preset', 'dt-slider', 'dt', 'int-rk4', 'param-k']) {
      assert.ok(reached.has(id), `Tab reaches #${id}`);
    }
  });
});

test('at 360 px wide there is no horizontal scroll, light and dark', async () => {
  for (const scheme of ['light', 'dark']) {
    await withPage({ width: 360, height: 780, scheme, hash: 'preset=two_point_exercise' }, async (page) => {
      await playOn(page, 1500);
      const { scroll, width } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth, width: window.innerWidth,
      }));
      assert.ok(scroll <= width, `scrollWidth ${scroll} <= ${width}`);
      await screenshot(page, `phone-two-point-exercise-${scheme}`);
      await screenshot(page, `phone-two-point-exercise-${scheme}-full`, { fullPage: true });
    });
  }
});

test('screenshots of the main views (desktop, light and dark)', async () => {
  const views = [
    ['damped-spring', 'preset=damped_spring', 2500],
    ['two-springs-all', 'scenario=two_spring&integrators=explicit_euler,semi_implicit_euler,semi_implicit_euler_x,' +
      'implicit_euler,newton,heun,midpoint,rk4,leapfrog,stormer_verlet,velocity_verlet,yoshida4,kinematic,kinematic_avg,rk45&dt=0.05', 2500],
    ['projectile-drag', 'preset=projectile_drag', 2000],
  ];
  for (const scheme of ['light', 'dark']) {
    for (const [name, hash, ms] of views) {
      await withPage({ width: 1440, height: 900, scheme, hash }, async (page) => {
        await playOn(page, ms);
        await screenshot(page, `desktop-${name}-${scheme}`);
      });
    }
  }
  await withPage({ width: 1024, height: 768, hash: 'preset=undamped_dt025' }, async (page) => {
    await playOn(page, 2000);
    await screenshot(page, 'tablet-undamped-dt025-light', { fullPage: true });
  });
});
