// The motion canvas (issue 11): edge markers for lanes out of view (defect 4), the lanes layout
// for one-dimensional motion with "same as" notes (defect 6), a view fitted to the motion in
// small embeds (defect 9), zoom, pan, follow, velocity arrows and dragging a body's start, and
// the timeline that scrubs back through the recorded motion (the shared time cursor).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, canvasTexts, config, errors, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const view = (page) => page.evaluate(() => window.stepwise.debug.canvas());
const stepTimes = (page, n) => page.evaluate((k) => { for (let i = 0; i < k; ++i) window.stepwise.step(); }, n);
// A frame drawn after now (the view's report is the last frame's).
const drawn = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
// The fitted view at rest (it eases to a grown box over a few frames).
const settled = async (page) => {
  await drawn(page);
  await page.waitForFunction(() => window.stepwise.debug.view().bounds.done && window.stepwise.debug.canvas().settling === false);
  await drawn(page);
};

const stiff = 'scenario=spring&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.05&duration=10&m=1&k=1000&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0';
const lesson = 'scenario=spring&integrators=explicit_euler,semi_implicit_euler&dt=0.1&duration=20&m=1&k=10&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0';
const all15 = 'explicit_euler,semi_implicit_euler,semi_implicit_euler_x,implicit_euler,newton,heun,midpoint,rk4,leapfrog,stormer_verlet,velocity_verlet,yoshida4,kinematic,kinematic_avg,rk45';
const pendulum = 'scenario=elastic_pendulum&integrators=explicit_euler,rk4&dt=0.01&duration=10';

test('a lane that leaves the view gets an edge marker in its colour with its distance (defect 4)', async () => {
  await pageChecks(env, { hash: stiff }, async (page) => {
    await drawn(page);
    assert.deepEqual((await view(page)).edgeMarkers, [], 'every lane in view at t = 0');
    // Explicit Euler at ωh = 1.58 grows by √(1 + 2.5) ≈ 1.87 a step: out of the ±1.16 m view in a few steps.
    // (Semi-implicit Euler's ellipse at ωh = 1.58 reaches 1.6 m: it may get one too.)
    let m;
    for (let k = 0; k < 40 && !m; ++k) {
      await stepTimes(page, 1);
      await drawn(page);
      m = (await view(page)).edgeMarkers.find((x) => x.id === 'explicit_euler');
    }
    assert.ok(m, 'explicit Euler gets a marker');
    assert.match(m.text, /^\d+(\.\d+)?(e\d+)? m [←→]$/, `"12 m →" style: ${m.text}`);
    const s = await page.evaluate(() => window.stepwise.state());
    const x = s.bodies.find((b) => b.integrator === 'explicit_euler').x;
    const v = await view(page);
    const distance = x > 0 ? x - v.visible.maxX : v.visible.minX - x;
    assert.ok(Math.abs(m.distance - distance) <= 1e-9 * Math.abs(x), `distance ${m.distance} is from the view's edge (${distance})`);
    assert.ok((await canvasTexts(page)).includes(m.text), 'the marker\'s text is drawn');
    // Much later the distance is huge but still a number ("far" past 1e12 m).
    await stepTimes(page, 200);
    await drawn(page);
    for (const marker of (await view(page)).edgeMarkers) assert.match(marker.text, /^(\d+(\.\d+)?(e\d+)? m|far) [←→]$/);
  });
});

// Issue 31 §2: Full screen, Methods and Edit scene cover the canvas's top right; explicit Euler's
// marker on Two springs went under them. Every marker (arrow and text) stays clear of the buttons.
test('edge markers stay clear of the buttons over the canvas', async () => {
  await pageChecks(env, { hash: 'preset=two_springs&integrators=explicit_euler,semi_implicit_euler,rk4' }, async (page) => {
    await settled(page);
    const buttons = await page.evaluate(() => {
      const b = document.querySelector('.frame-buttons').getBoundingClientRect(), c = document.getElementById('view').getBoundingClientRect();
      return { x0: b.left - c.left, y0: b.top - c.top, x1: b.right - c.left, y1: b.bottom - c.top };
    });
    assert.ok(buttons.x1 > buttons.x0 + 100, `the buttons: ${JSON.stringify(buttons)}`);
    let nearButtons = 0, markers = 0;
    for (let k = 0; k < 240; ++k) {
      await stepTimes(page, 1);
      await drawn(page);
      for (const m of (await view(page)).edgeMarkers) {
        markers += 1;
        const [x0, y0, x1, y1] = m.box;
        if (y0 < buttons.y1 + 30 && x1 > buttons.x0 - 30) nearButtons += 1;
        assert.ok(x1 <= buttons.x0 || x0 >= buttons.x1 || y1 <= buttons.y0 || y0 >= buttons.y1,
          `step ${k + 1}: ${m.id}'s marker ${JSON.stringify(m.box)} under the buttons ${JSON.stringify(buttons)}`);
      }
    }
    assert.ok(markers > 0 && nearButtons > 0, `${markers} markers, ${nearButtons} beside the buttons: the case was met`);
  });
});

// Issue 31 §2: in the overlay layout the fitted view put a scene's anchor under the buttons over
// the canvas (Full screen, Methods, Edit scene): the cloth's right pinned corner at phone width,
// the editor's default scene's anchor at (0, 0) on a phone, so it could not be seen or tapped.
// The fit keeps clear of the band the buttons take: every anchor's and every body's marker
// (7 px about its point) lies outside every button's box, on a phone and on a desktop.
for (const [width, height] of [[390, 844], [1280, 800]]) {
  for (const hash of ['preset=scene_cloth', 'scenario=scene']) {
    test(`${hash} at ${width} × ${height}: no anchor or body under the buttons over the canvas`, async () => {
      await pageChecks(env, { hash, width, height }, async (page) => {
        // At rest at t = 0 (the cloth's reference is still probed: its bounds grow later, the fit with them).
        await drawn(page);
        await page.waitForFunction(() => window.stepwise.debug.canvas()?.settling === false);
        await drawn(page);
        const { buttons, v } = await page.evaluate(() => {
          const c = document.getElementById('view').getBoundingClientRect();
          const shown = [...document.querySelectorAll('.frame-controls button')].filter((b) => b.getBoundingClientRect().width > 0);
          return {
            buttons: shown.map((b) => { const r = b.getBoundingClientRect(); return { id: b.id, x0: r.left - c.left, y0: r.top - c.top, x1: r.right - c.left, y1: r.bottom - c.top }; }),
            v: window.stepwise.debug.canvas(),
          };
        });
        assert.equal(v.layout, 'overlay');
        assert.ok(buttons.length >= 2, `the buttons over the canvas: ${JSON.stringify(buttons)}`);
        const px = (p) => ({ x: v.rect.x + (p.x - v.visible.minX) * v.scale, y: v.rect.y + (v.visible.maxY - p.y) * v.scale });
        const points = [...v.anchors.map((p, i) => ({ what: `anchor ${i}`, ...px(p) })),
          ...v.bodiesDrawn.flatMap((l) => l.bodies.map((p, i) => ({ what: `${l.id} body ${i}`, ...px(p) })))];
        assert.ok(v.anchors.length > 0);
        const r = 7;
        let nearest = Infinity;
        for (const p of points) {
          for (const b of buttons) {
            const clear = p.x + r <= b.x0 || p.x - r >= b.x1 || p.y + r <= b.y0 || p.y - r >= b.y1;
            assert.ok(clear, `${p.what} at (${p.x.toFixed(1)}, ${p.y.toFixed(1)}) px under #${b.id} ${JSON.stringify(b)}`);
            if (p.x + r > b.x0 && p.x - r < b.x1) nearest = Math.min(nearest, p.y - r - b.y1);
          }
        }
        console.log(`${hash} at ${width}: the nearest marker below a button by ${nearest.toFixed(1)} px; scale ${v.scale.toFixed(1)} px/m, canvas ${v.canvas.w} × ${v.canvas.h}`);
        await screenshot(page, `buttons-clear-${hash.replace(/\W+/g, '-')}-${width}`);
      });
    });
  }
}

test('one-dimensional motion: a row per integrator by default, named, coincident rows say "same as" (defect 6)', async () => {
  await pageChecks(env, { hash: `scenario=spring&integrators=${all15}&dt=0.01&duration=10&m=1&k=15&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0` }, async (page) => {
    await stepTimes(page, 40);
    await drawn(page);
    const v = await view(page);
    assert.equal(v.layout, 'lanes', 'every body on y = 0 with the anchor: lanes');
    assert.equal(v.rows.length, 15, 'a row per integrator');
    const names = await page.evaluate(() => window.stepwise.integrators().map((i) => i.name));
    const texts = await canvasTexts(page);
    for (const row of v.rows) {
      assert.ok(names.includes(row.name));
      // A narrow row names a coincident lane in a shorter form where the long one would not fit
      // (issue 23: a name never lies on its row's motion).
      const forms = row.sameAs ? [`${row.name} · same as ${row.sameAs}`, `${row.name} = ${row.sameAs}`] : [row.name];
      assert.ok(forms.includes(row.drawn?.text) && texts.includes(row.drawn.text), `row label ${JSON.stringify(forms)} drawn: ${JSON.stringify(row.drawn)}`);
    }
    // Velocity Verlet is leapfrog written differently: the same positions, named as such.
    const verlet = v.rows.find((r) => r.id === 'velocity_verlet');
    assert.ok(verlet.sameAs !== null, 'velocity Verlet coincides with an earlier row');
    assert.ok(v.rows.some((r) => r.sameAs !== null), 'some rows coincide and say so');
    await screenshot(page, 'i11-canvas-lanes-15');
    // The toggle: a labelled select, reachable by keyboard.
    const select = page.getByLabel('Layout');
    await select.focus();
    await select.selectOption('overlay');
    await drawn(page);
    const o = await view(page);
    assert.equal(o.layout, 'overlay');
    assert.ok(o.sameAs.length > 0);
    const overlayTexts = await canvasTexts(page);
    for (const s of o.sameAs) {
      assert.ok(overlayTexts.some((t) => t.includes(' same as ')), `overlay names coincident lanes (${s.id})`);
    }
  });
  // A two-dimensional motion stays overlaid.
  await pageChecks(env, { hash: pendulum }, async (page) => {
    await drawn(page);
    assert.equal((await view(page)).layout, 'overlay');
  });
});

test('embeds: the view hugs the motion at 300x200, 480x320 and 800x500 (defect 9)', async () => {
  for (const [w, h] of [[300, 200], [480, 320], [800, 500]]) {
    await pageChecks(env, { hash: lesson, width: w, height: h, path: 'embed.html?ui=none' }, async (page) => {
      await drawn(page);
      let v = await view(page);
      assert.ok(v.motionFraction.x >= 0.75, `${w}x${h}: the ±1 m motion spans ${v.motionFraction.x} of the width at t = 0`);
      // Explicit Euler grows without bound: the view keeps hugging the exact motion.
      await stepTimes(page, 60);
      await drawn(page);
      v = await view(page);
      assert.ok(v.motionFraction.x >= 0.75, `${w}x${h}: still ${v.motionFraction.x} after 6 s`);
      assert.ok(v.visible.maxX - v.visible.minX <= 2 * 1.35, `${w}x${h}: view spans ${v.visible.minX}…${v.visible.maxX} m for ±1 m`);
      await screenshot(page, `i11-canvas-embed-${w}x${h}`);
    });
    await pageChecks(env, { hash: pendulum, width: w, height: h, path: 'embed.html?ui=none' }, async (page) => {
      await drawn(page);
      const v = await view(page);
      // Of the part of the canvas it is fitted in: at 300 × 200 the frame's Play, Restart and Full
      // screen take the top right, and the pendulum, which starts level with its anchor, is fitted
      // left of them (0.52 of the canvas's height, 0.86 of that part's).
      const filled = { x: v.motionFraction.x * v.canvas.w / v.fit.w, y: v.motionFraction.y * v.canvas.h / v.fit.h };
      assert.ok(Math.max(filled.x, filled.y) >= 0.6, `${w}x${h}: the pendulum fills ${JSON.stringify(filled)} of ${JSON.stringify(v.fit)}`);
      const scene = await page.evaluate(() => window.stepwise.scene());
      for (const a of scene.anchors) {
        assert.ok(a.x >= v.visible.minX && a.x <= v.visible.maxX && a.y >= v.visible.minY && a.y <= v.visible.maxY, 'the anchor in view');
      }
    });
  }
});

test('zoom, pan, reset view, follow and velocity arrows', async () => {
  await pageChecks(env, { hash: pendulum }, async (page) => {
    await settled(page);
    const v0 = await view(page);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await drawn(page);
    const v1 = await view(page);
    assert.ok(v1.scale / v0.scale > 1.2, `zoomed in (${v1.scale / v0.scale})`);
    assert.equal(v1.manual, true);
    // Zoomed, the view stays where the user put it: the steps are exact.
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await drawn(page);
    const out = await view(page);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await drawn(page);
    assert.ok(Math.abs((await view(page)).scale / out.scale - 1.25) < 1e-9, 'Zoom in: ×1.25');
    // The wheel zooms out about the pointer.
    const box = await page.locator('#view').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 100);
    await drawn(page);
    assert.ok(Math.abs((await view(page)).scale / v1.scale - 0.8) < 1e-9, 'wheel: zoomed out');
    // A drag on the empty canvas pans: the view moves with the pointer.
    const before = await view(page);
    await page.mouse.move(box.x + 20, box.y + box.height - 40);
    await page.mouse.down();
    await page.mouse.move(box.x + 120, box.y + box.height - 40, { steps: 4 });
    await page.mouse.up();
    await drawn(page);
    const panned = await view(page);
    assert.ok(Math.abs((before.visible.minX - panned.visible.minX) * panned.scale - 100) < 1, 'panned 100 px');
    // The keyboard: on the focused canvas Shift+→ pans 40 px (and does not step), + zooms.
    await page.locator('#view').focus();
    const k0 = await view(page);
    const steps0 = (await page.evaluate(() => window.stepwise.state())).steps;
    await page.keyboard.press('Shift+ArrowRight');
    await drawn(page);
    const k1 = await view(page);
    assert.ok(Math.abs((k1.visible.minX - k0.visible.minX) * k1.scale - 40) < 1e-6, 'Shift+ArrowRight pans 40 px');
    assert.equal((await page.evaluate(() => window.stepwise.state())).steps, steps0, 'no step');
    await page.keyboard.press('+');
    await drawn(page);
    assert.ok(Math.abs((await view(page)).scale / k1.scale - 1.25) < 1e-9, '+ zooms in');
    await page.getByRole('button', { name: 'Reset view' }).click();
    await drawn(page);
    const reset = await view(page);
    assert.equal(reset.manual, false);
    assert.ok(Math.abs(reset.scale / v0.scale - 1) < 1e-9, 'back to the fitted view');
    // Follow RK4's body: the view is centred on it.
    await page.getByLabel('Follow').selectOption({ label: 'Runge–Kutta 4' });
    await stepTimes(page, 30);
    await drawn(page);
    const f = await view(page);
    const rk4 = f.bodiesDrawn.find((l) => l.id === 'rk4').bodies[0];
    assert.deepEqual(f.followBody, { id: 'rk4', body: 0 });
    // Centred in the part of the canvas the box is fitted in (below or beside the buttons over it).
    const centre = { x: f.visible.minX + (f.fit.x + f.fit.w / 2 - f.rect.x) / f.scale, y: f.visible.maxY - (f.fit.y + f.fit.h / 2 - f.rect.y) / f.scale };
    assert.ok(Math.abs(centre.x - rk4.x) < 1e-9 && Math.abs(centre.y - rk4.y) < 1e-9, `centred on the body: ${JSON.stringify(centre)} ${JSON.stringify(rk4)}`);
    await page.getByLabel('Velocity arrows').check();
    await drawn(page);
    assert.equal((await view(page)).arrows, true);
    await screenshot(page, 'i11-canvas-desktop-arrows');
  });
});

test('dragging a body sets its start position, Shift-drag its start velocity, through the config', async () => {
  await pageChecks(env, { hash: pendulum }, async (page) => {
    await stepTimes(page, 20);  // t ≠ 0: the drag takes the run back to t = 0
    await page.evaluate(() => window.stepwise.reset());
    await settled(page);
    const v = await view(page);
    const canvas = await page.locator('#view').boundingBox();
    const start = (await page.evaluate(() => window.stepwise.scene())).bodies[0].start;
    const px = (x) => canvas.x + v.rect.x + v.rect.w / 2 + (x - (v.visible.minX + v.visible.maxX) / 2) * v.scale;
    const py = (y) => canvas.y + v.rect.y + v.rect.h / 2 - (y - (v.visible.minY + v.visible.maxY) / 2) * v.scale;
    await page.mouse.move(px(start.x), py(start.y));
    await page.mouse.down();
    await page.mouse.move(px(start.x) + 60, py(start.y) - 30, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction((s) => !window.stepwise.config().includes(`x0=${s.x},${s.y}`), start);
    const moved = (await config(page)).match(/x0=([^&]+)/)[1].split(',').map(Number);
    assert.ok(Math.abs(moved[0] - (start.x + 60 / v.scale)) < 0.02 * (v.visible.maxX - v.visible.minX), `x0 ${moved} vs ${start.x + 60 / v.scale}`);
    assert.ok(Math.abs(moved[1] - (start.y + 30 / v.scale)) < 0.02 * (v.visible.maxX - v.visible.minX), `y0 ${moved} vs ${start.y + 30 / v.scale}`);
    assert.equal((await page.evaluate(() => window.stepwise.scene())).bodies[0].start.x, moved[0], 'the core starts the body there');
    // Shift-drag: a start velocity to the right.
    await settled(page);
    const w = await view(page);
    const p = { x: canvas.x + w.rect.x + w.rect.w / 2 + (moved[0] - (w.visible.minX + w.visible.maxX) / 2) * w.scale,
      y: canvas.y + w.rect.y + w.rect.h / 2 - (moved[1] - (w.visible.minY + w.visible.maxY) / 2) * w.scale };
    await page.keyboard.down('Shift');
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await page.mouse.move(p.x + 50, p.y, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    await page.waitForFunction(() => !/v0=0,0(&|$)/.test(window.stepwise.config()));
    const v0 = (await config(page)).match(/v0=([^&]+)/)[1].split(',').map(Number);
    assert.ok(v0[0] > 0 && v0[1] === 0, `a start velocity to the right: ${v0}`);
    assert.deepEqual(await errors(page), []);
  });
  // A start the core refuses (on the central body) gets the core's message, naming the key.
  await pageChecks(env, { hash: 'scenario=orbit&integrators=rk4&dt=0.01&duration=10&m=1&gm=1&x0=1,0&v0=0,1' }, async (page) => {
    await settled(page);
    const v = await view(page);
    const canvas = await page.locator('#view').boundingBox();
    const px = (x) => canvas.x + v.rect.x + v.rect.w / 2 + (x - (v.visible.minX + v.visible.maxX) / 2) * v.scale;
    const py = (y) => canvas.y + v.rect.y + v.rect.h / 2 - (y - (v.visible.minY + v.visible.maxY) / 2) * v.scale;
    await page.mouse.move(px(1), py(0));
    await page.mouse.down();
    await page.mouse.move(px(0), py(0), { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(() => window.stepwise.errors().length > 0);
    const [message] = await errors(page);
    assert.match(message, /^x0 must be at least 1e-06 m from the central body/, message);
    // In the banner (and under the x0 field too, where the settings show it).
    assert.ok(await page.locator('#error-list').getByText(message).isVisible(), 'shown on the page');
  });
});

test('the timeline scrubs back: the canvas shows each lane at that time; playing ends it; hidden lanes are not drawn', async () => {
  await pageChecks(env, { hash: stiff.replace('k=1000', 'k=15').replace('dt=0.05', 'dt=0.01') }, async (page) => {
    // Frames drawn at known states: one step a frame.
    for (let k = 0; k < 60; ++k) { await stepTimes(page, 1); await drawn(page); }
    const timeline = page.getByLabel('Timeline');
    assert.ok(Math.abs(Number(await timeline.getAttribute('max')) - 0.6) < 1e-9, 'from 0 to now');
    await timeline.focus();
    await timeline.fill('0.25');
    await drawn(page);
    const v = await view(page);
    assert.equal(v.scrubTime, 0.25);
    assert.equal(await timeline.getAttribute('aria-valuetext'), 't = 0.25 s');
    assert.equal(await page.evaluate(async () => window.stepwise.debug.modules['motion/cursor.js'].cursorTime()), 0.25, 'the shared cursor is at the scrubbed time');
    // The bodies drawn are the state at step 25 (every step was a frame here).
    const drawnBodies = v.bodiesDrawn;
    assert.ok((await canvasTexts(page)).includes('timeline: t = 0.25 s'));
    await page.evaluate(() => window.stepwise.reset());
    await stepTimes(page, 25);
    const s = await page.evaluate(() => window.stepwise.state());
    for (const lane of drawnBodies) {
      const b = s.bodies.find((x) => x.integrator === lane.id);
      assert.equal(lane.bodies[0].x, b.x, `${lane.id} drawn where it was at t = 0.25`);
    }
  });
  await pageChecks(env, { hash: stiff.replace('k=1000', 'k=15').replace('dt=0.05', 'dt=0.01') }, async (page) => {
    for (let k = 0; k < 30; ++k) { await stepTimes(page, 1); await drawn(page); }
    await page.getByLabel('Timeline').fill('0.1');
    await drawn(page);
    assert.equal((await view(page)).scrubTime, 0.1);
    await page.evaluate(() => window.stepwise.play());
    await drawn(page);
    await page.evaluate(() => window.stepwise.pause());
    assert.equal((await view(page)).scrubTime, null, 'playing ends the scrub');
    // A plot's cursor (a hover) marks the bodies at that time, faintly.
    await page.evaluate(async () => window.stepwise.debug.modules['motion/cursor.js'].setCursor(0.15, 'plots'));
    await drawn(page);
    assert.equal((await view(page)).cursorMarkers, true);
    // Lane focus: a hidden lane is not drawn.
    await page.evaluate(async () => window.stepwise.debug.modules['motion/lane-focus.js'].setHidden('rk4', true));
    await drawn(page);
    const v = await view(page);
    assert.ok(!v.bodiesDrawn.some((l) => l.id === 'rk4'));
    assert.ok(!v.rows.some((r) => r.id === 'rk4'));
    // A highlighted lane is drawn last (on top), the others faded.
    await page.evaluate(async () => window.stepwise.debug.modules['motion/lane-focus.js'].setHighlighted('explicit_euler'));
    await drawn(page);
    const h = await view(page);
    assert.equal(h.drawOrder.at(-1), 'explicit_euler');
    assert.deepEqual(h.faded.sort(), ['semi_implicit_euler', 'velocity_verlet']);
  });
});

// Issue 31 §2: with all twenty methods the lanes were 9 px rows without names (every method of
// the core at once, as many as it has: at most max_lanes, one lane each). Each row keeps its
// name above its line, on a desktop and a phone: the canvas grows (the page scrolls).
test('every method at once in the lanes layout: every row named and at least 28 px tall', async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const ids = await (async () => {
      let list;
      await pageChecks(env, {}, async (page) => { list = await page.evaluate(() => window.stepwise.integrators().map((i) => i.id)); });
      return list;
    })();
    assert.ok(ids.length >= 20, `the core's ${ids.length} methods`);
    await pageChecks(env, { width, height, hash: `scenario=spring&integrators=${ids.join(',')}&x0=1,0&v0=0,0` }, async (page) => {
      await stepTimes(page, 5);
      await settled(page);
      const v = await view(page);
      assert.equal(v.layout, 'lanes');
      assert.equal(v.rows.length, ids.length);
      const unnamed = v.rows.filter((r) => !r.drawn || !r.drawn.text).map((r) => r.id);
      assert.deepEqual(unnamed, [], `${width}: rows without their name`);
      const rowH = (v.rect.h - 36) / ids.length;
      assert.ok(rowH >= 27, `${width}: rows ${rowH.toFixed(1)} px`);
      await screenshot(page, `twenty-lanes-${width}`, { fullPage: true });
    });
  }
});
