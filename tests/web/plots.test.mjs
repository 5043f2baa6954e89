// The plots beside the canvas (web/plots/plots.js, plot-layer.js, plot-readout.js), as a student and a
// teacher use them (issue 11, defects 7 and 8, and the hover readouts): the energy plot in % on a
// linear scale set by the lanes not running away (a diverged or still growing lane marked "off
// scale", not setting the range; a bounded one always on scale, its labels never overlapping:
// issue 23 defect 4), a remembered log option, a kinetic / potential / total breakdown of a chosen lane;
// no round-off ticks or numbers at t = 0; readouts at a time by mouse, touch and keyboard, with the
// shared cursor drawn on every plot; the legend's hidden and highlighted lanes honoured; plots
// appended to, not redrawn whole, while the run goes on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, screenshot, canvasTexts, state } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env.close(); });

const report = (page) => page.evaluate(() => window.stepwise.debug.plots());

// Plays (at 10^exponent ×) until the run's time passes t, then pauses.
async function runTo(page, t, exponent = 0) {
  await page.locator('#speed').fill(String(exponent));
  await page.evaluate(() => window.stepwise.play());
  await page.waitForFunction((t1) => window.stepwise.state().t > t1, t);
  await page.evaluate(() => window.stepwise.pause());
  // The plots drawn at the paused state (while playing they are drawn ten times a second).
  await page.waitForFunction(() => window.stepwise.debug.plots().drawnAt === window.stepwise.state().t);
}

// A module of the page, the same instance the page uses (web/app/api.js debug.modules: in dist/
// it is inside the bundle).
const pageModule = (page, name, fn, arg) => page.evaluate(([n, f, a]) => window.stepwise.debug.modules[n][f](...a), [name, fn, arg]);

// Pixels of a canvas's column x (CSS px) that are not transparent.
const opaqueInColumn = (page, selector, x) => page.evaluate(([sel, cx]) => {
  const c = document.querySelector(sel);
  const ratio = c.width / c.getBoundingClientRect().width;
  const data = c.getContext('2d').getImageData(Math.round(cx * ratio), 0, 1, c.height).data;
  let n = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) ++n;
  return n;
}, [selector, x]);

test('energy plot: % on a linear scale set by the lanes still running, explicit Euler on in decades beyond it; a caption in words', async () => {
  await pageChecks(env, { width: 1440, height: 900, hash: 'preset=stiff_spring' }, async (page) => {
    const caption = await page.locator('#plot-energy').locator('xpath=ancestor::figure').locator('figcaption').innerText();
    assert.match(caption, /% of the energy scale/);
    assert.match(caption, /kinetic \+ \|potential\| energy at the start/);
    assert.doesNotMatch(caption, /KE \+ \|PE\||symmetric log/, 'no formula shorthand, no symmetric log');
    await runTo(page, 2);
    const s = await state(page);
    const euler = s.integrators.find((i) => i.id === 'explicit_euler');
    assert.ok(euler.diverged && Math.abs(euler.drift) > 1e6, `explicit Euler diverged (${euler.drift})`);
    const r = (await report(page)).energy;
    // Issue 31 §2: the lane that explodes stays on the plot, in decades past the linear band.
    assert.equal(r.scale, 'linear, then decades');
    assert.equal(r.yName, 'energy change (%)');
    // The linear band is the running lanes' (bounded: semi-implicit Euler at ωh = 1.58 swings up
    // to +377 %, 1/(1 − ωh/2) − 1 of its start energy), never Euler's 1e8 %.
    const running = s.integrators.filter((i) => !i.diverged);
    assert.equal(running.length, 3);
    const largest = Math.max(...running.map((i) => 100 * Math.abs(i.drift)));
    assert.ok(r.linearTo[1] >= largest && r.linearTo[1] <= 600 && r.linearTo[0] >= -150, `${r.linearTo} for bounded lanes, now within ±${largest} %`);
    assert.deepEqual(r.offScale, [], 'no lane off scale: explicit Euler is drawn');
    assert.ok(!(await canvasTexts(page)).includes('off scale'));
    assert.ok((await canvasTexts(page)).includes('log scale beyond'), 'the turn to decades says so');
    // Linear within the band: evenly spaced tick values there; decades (1e3, 1e8, …) beyond it.
    const values = r.yTicks.map((label) => Number(label.replace('−', '-')));
    const ticks = values.filter((v) => v >= r.linearTo[0] && v <= r.linearTo[1]);
    const steps = ticks.slice(1).map((v, k) => v - ticks[k]);
    assert.ok(ticks.length >= 3 && steps.every((d) => Math.abs(d - steps[0]) < 1e-9 * Math.abs(steps[0])), `${r.yTicks}`);
    const decades = values.filter((v) => v > r.linearTo[1]);
    assert.ok(decades.length >= 2 && decades.every((v) => Number.isInteger(Math.log10(v))), `decades beyond: ${r.yTicks}`);
    await screenshot(page, 'i11-plots-stiff-1440');
  });
});

test('energy plot: a log option beside it, keyboard operable, remembered in the page but not in the link', async () => {
  await pageChecks(env, { width: 1440, height: 900, hash: 'preset=stiff_spring' }, async (page) => {
    await runTo(page, 2);
    const link = await page.evaluate(() => window.stepwise.config());
    await page.locator('#energy-log').focus();
    await page.keyboard.press('Space');
    await page.waitForFunction(() => window.stepwise.debug.plots().energy.scale === 'log');
    const r = (await report(page)).energy;
    assert.match(r.yName, /log/);
    // On the log scale every lane fits, the diverged one included (it reached > 1e6 %).
    assert.ok(r.yRange[1] >= 6, `${r.yRange}`);
    assert.equal(await page.evaluate(() => window.stepwise.config()), link, 'not part of the link');
    await page.reload();
    await page.evaluate(() => window.stepwise.ready);
    assert.equal(await page.locator('#energy-log').isChecked(), true, 'remembered after a reload');
    await page.waitForFunction(() => window.stepwise.debug.plots().energy.scale === 'log');
    await page.locator('#energy-log').uncheck();
    // The plot redraws on the next frame.
    await page.waitForFunction(() => window.stepwise.debug.plots().energy.scale === 'linear');
  });
});

test('energy breakdown of a chosen lane: kinetic + potential = total, 500 J of spring at t = 0', async () => {
  await pageChecks(env, { width: 1440, height: 900, hash: 'preset=stiff_spring' }, async (page) => {
    const figure = page.locator('#plot-breakdown').locator('xpath=ancestor::figure');
    assert.equal(await figure.isHidden(), true, 'no breakdown until a lane is chosen');
    const options = await page.locator('#energy-breakdown option').allInnerTexts();
    assert.deepEqual(options, ['none', 'Explicit Euler', 'Semi-implicit Euler', 'Velocity Verlet', 'Runge–Kutta 4']);
    await page.locator('#energy-breakdown').selectOption('velocity_verlet');
    await figure.waitFor({ state: 'visible' });
    // At t = 0 (k = 1000 N/m, x0 = 1 m, v0 = 0): kinetic 0, potential ½·k·x0² = 500 J.
    await page.locator('#plot-breakdown').focus();
    await page.keyboard.press('Home');
    let r = (await report(page)).breakdown;
    assert.equal(r.lane, 'velocity_verlet');
    assert.equal(r.readout, 't = 0 s: kinetic 0 J; potential 500 J; total 500 J; exact total 500 J');
    await page.locator('#plot-breakdown').blur();
    await runTo(page, 1);
    await page.locator('#plot-breakdown').focus();  // the last sample
    r = (await report(page)).breakdown;
    const numbers = [...r.readout.matchAll(/(kinetic|potential|total) (−?[\d.e−]+) J/g)].map((m) => Number(m[2].replaceAll('−', '-')));
    assert.equal(numbers.length, 4, r.readout);
    const [kinetic, potential, total] = numbers;
    assert.ok(kinetic > 0 && potential > 0, r.readout);
    assert.ok(Math.abs(kinetic + potential - total) <= 0.01 * total, r.readout);
    assert.ok(r.yRange[0] <= 0 && r.yRange[1] >= Math.max(kinetic, potential, total), `${r.yRange}`);
    await screenshot(page, 'i11-plots-breakdown-1440');
    // A PNG export holds the breakdown too (the plots shown).
    const shown = await page.evaluate(() => document.getElementById('plot-breakdown').height);
    assert.ok(shown > 0);
  });
});

test('t = 0: no ticks or numbers from round-off, sensible default ranges', async () => {
  await pageChecks(env, { width: 1440, height: 900, hash: 'preset=stiff_spring' }, async (page) => {
    const r = await report(page);
    for (const name of ['energy', 'error', 'phase', 'angular']) {
      if (!r[name]) continue;
      for (const label of [...r[name].yTicks, ...r[name].xTicks]) {
        assert.doesNotMatch(label, /e−(9|1\d)/, `${name}: tick '${label}' at round-off level`);
      }
    }
    assert.deepEqual(r.energy.yRange, [-1, 1], 'the energy plot: ±1 % until something changes');
    assert.deepEqual(r.phase.yRange, [-1, 1], 'vx = 0 at t = 0: ±1 m/s, not ±1e-9');
    assert.doesNotMatch((await canvasTexts(page)).join(' '), /e-1\d|e−1\d/);
  });
  // One step of RK4 at a tiny dt: its energy error is round-off, and the readout prints 0 %.
  const hash = 'scenario=spring&integrators=rk4,semi_implicit_euler&dt=0.0001&duration=10';
  await pageChecks(env, { width: 1440, height: 900, hash }, async (page) => {
    await page.locator('#step').click();
    await page.locator('#step').click();
    await page.locator('#step').click();
    const rk4 = (await state(page)).integrators.find((i) => i.id === 'rk4');
    assert.ok(rk4.drift !== 0 && Math.abs(rk4.drift) < 1e-14, `rk4's drift is round-off: ${rk4.drift}`);
    await page.locator('#plot-energy').focus();
    const text = (await report(page)).energy.readout;
    assert.match(text, /Runge–Kutta 4 0 %/, text);
    assert.doesNotMatch(text, /e−1\d/, text);
  });
});

test('hover, touch and keyboard readouts; the shared cursor on every plot; leaving clears it', async () => {
  await pageChecks(env, { width: 1440, height: 900, hash: 'preset=stiff_spring' }, async (page) => {
    await runTo(page, 2);
    const names = ['Explicit Euler', 'Semi-implicit Euler', 'Velocity Verlet', 'Runge–Kutta 4'];
    // Mouse over the energy plot, 40 % across: the cursor at that time, a readout of every lane.
    const box = await page.locator('#plot-energy').boundingBox();
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.5);
    await page.waitForFunction(() => window.stepwise.debug.plots().cursor !== null);
    let r = await report(page);
    const xr = r.energy.xRange;
    const expected = xr[0] + ((box.width * 0.4 - 62) / (box.width - 72)) * (xr[1] - xr[0]);
    assert.ok(Math.abs(r.cursor - expected) <= 0.06, `cursor ${r.cursor} near ${expected}`);
    assert.match(r.energy.readout, /^t = [\d.]+ s: /);
    // Explicit Euler stopped at 1.25 s; the others' values in %.
    for (const name of names.slice(1)) assert.match(r.energy.readout, new RegExp(`${name} [+−]?[\\d.]+(e[+−]?\\d+)? %`), r.energy.readout);
    assert.equal(r.error.readout, null, 'the readout only on the plot under the pointer');
    // Every plot draws the line at that time (on its layer), the phase plot each lane's point.
    for (const name of ['energy', 'error']) {
      assert.ok(r[name].cursorX !== null, `${name} draws the cursor`);
      assert.ok(await opaqueInColumn(page, `#plot-${name} ~ .plot-overlay`, r[name].cursorX) > 50, `${name}: the line is on its layer`);
    }
    assert.equal(r.phase.cursorMarks, 3, 'the three running lanes marked on the phase plot');
    const visible = await page.locator('.plot-readout:not([hidden])').count();
    assert.equal(visible, 1);
    await screenshot(page, 'i11-plots-hover-1440');
    // Leaving clears it.
    await page.mouse.move(5, 5);
    await page.waitForFunction(() => window.stepwise.debug.plots().cursor === null);
    assert.equal((await report(page)).energy.readout, null);

    // Touch: a finger on the error plot shows its readout (and stays until a tap elsewhere).
    const errorBox = await page.locator('#plot-error').boundingBox();
    await page.locator('#plot-error').locator('xpath=..').dispatchEvent('pointerdown', {
      pointerType: 'touch', pointerId: 7, isPrimary: true, buttons: 1,
      clientX: errorBox.x + errorBox.width * 0.5, clientY: errorBox.y + errorBox.height * 0.5,
    });
    r = await report(page);
    assert.match(r.error.readout || '', / m(;|$)/, 'a touch reads the error in metres');

    // A tap elsewhere clears it.
    await page.mouse.click(5, 5);
    await page.waitForFunction(() => window.stepwise.debug.plots().cursor === null);

    // Keyboard: focus a plot, ← / → move the cursor a sample (→ does not step the run), Escape clears.
    const t0 = (await state(page)).t;
    await page.locator('#plot-error').focus();
    r = await report(page);
    const last = r.cursor;
    assert.ok(Math.abs(last - t0) <= 0.06, `focus puts the cursor at the last sample (${last}, t = ${t0})`);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    r = await report(page);
    assert.ok(r.cursor < last, `${r.cursor} < ${last}`);
    const live = await page.locator('[data-readout="error"]').textContent();
    assert.equal(live, r.error.readout, 'the readout is announced (aria-live)');
    assert.equal(await page.locator('[data-readout="error"]').getAttribute('aria-live'), 'polite');
    await page.keyboard.press('ArrowRight');
    assert.equal((await state(page)).t, t0, '→ on a plot moves its cursor, not the run');
    await page.keyboard.press('Escape');
    assert.equal((await report(page)).cursor, null);

    // The cursor set by someone else (the timeline) is drawn on every plot, without a readout.
    await pageModule(page, 'motion/cursor.js', 'setCursor', [1, 'timeline']);
    r = await report(page);
    // (No angular momentum plot here: the stiff spring moves along its axis, where it is 0.)
    assert.equal(r.angular, null);
    for (const name of ['energy', 'error']) assert.ok(r[name].cursorX !== null, `${name} draws the timeline's cursor`);
    assert.equal(r.energy.readout, null);
    await pageModule(page, 'motion/cursor.js', 'setCursor', [null, 'timeline']);
  });
});

test('hidden lanes are left out, faded ones drawn under the highlighted one; redrawn when that changes', async () => {
  await pageChecks(env, { width: 1440, height: 900, hash: 'preset=stiff_spring' }, async (page) => {
    await runTo(page, 0.5);
    await pageModule(page, 'motion/lane-focus.js', 'setHidden', ['rk4', true]);
    await page.waitForFunction(() => !window.stepwise.debug.plots().energy.lanes.some((l) => l.id === 'rk4'));
    let r = await report(page);
    for (const name of ['energy', 'error', 'phase']) {
      assert.deepEqual(r[name].lanes.map((l) => l.id), ['explicit_euler', 'semi_implicit_euler', 'velocity_verlet'], name);
    }
    await page.locator('#plot-energy').focus();
    assert.doesNotMatch((await report(page)).energy.readout, /Runge–Kutta/, 'a hidden lane has no readout');
    await page.locator('#plot-energy').blur();
    await pageModule(page, 'motion/lane-focus.js', 'setHighlighted', ['velocity_verlet']);
    await page.waitForFunction(() => window.stepwise.debug.plots().energy.lanes.some((l) => l.faded));
    r = await report(page);
    assert.deepEqual(r.energy.lanes.map((l) => [l.id, l.faded]),
      [['explicit_euler', true], ['semi_implicit_euler', true], ['velocity_verlet', false]]);
    await pageModule(page, 'motion/lane-focus.js', 'setHighlighted', [null]);
    await pageModule(page, 'motion/lane-focus.js', 'setHidden', ['rk4', false]);
    await page.waitForFunction(() => window.stepwise.debug.plots().energy.lanes.length === 4);
  });
});

test('while the run goes on the plots append to what they drew instead of drawing it all again', async () => {
  const all = 'explicit_euler,semi_implicit_euler,semi_implicit_euler_x,implicit_euler,newton,heun,midpoint,rk4,' +
    'leapfrog,stormer_verlet,velocity_verlet,yoshida4,kinematic,kinematic_avg,rk45';
  await pageChecks(env, { width: 1440, height: 900, hash: `scenario=two_spring&integrators=${all}&dt=0.01&duration=100` }, async (page) => {
    // After the first seconds (when the time axis and the ranges still grow fast).
    await page.evaluate(() => window.stepwise.play());
    await page.waitForFunction(() => window.stepwise.state().t > 3);
    await page.evaluate(() => window.stepwise.pause());
    // Then 40 frames of 5 steps each, one after the other: the same run on any machine (played in
    // real time, a busy machine draws fewer frames for the same time, each appending more).
    const a = await report(page);
    for (let k = 0; k < 40; ++k) {
      const target = await page.evaluate(() => { const n = window.stepwise.state().steps + 5; for (let s = 0; s < 5; ++s) window.stepwise.step(); return n; });
      await page.waitForFunction((n) => window.stepwise.state().steps >= n, target);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    }
    const b = await report(page);
    for (const name of ['energy', 'error', 'phase']) {
      const appended = b[name].appended - a[name].appended, full = b[name].full - a[name].full;
      assert.ok(appended > 2 * full, `${name}: ${appended} appends, ${full} whole draws`);
    }
    assert.equal(b.energy.lanes.length, 15);
  });
});

// Every text drawn on a plot's layer (the marks' labels) with its box in device pixels, as the
// layer now shows it (a clear of the whole layer starts the list again): el.__labels.
const labelRecorder = () => {
  const proto = CanvasRenderingContext2D.prototype;
  const fillText = proto.fillText, clearRect = proto.clearRect;
  proto.clearRect = function clear(x, y, w, h) {
    if (this.canvas.classList?.contains('plot-overlay') && w >= this.canvas.width && h >= this.canvas.height) this.canvas.__labels = [];
    return clearRect.call(this, x, y, w, h);
  };
  proto.fillText = function text(s, x, y, ...rest) {
    if (this.canvas.classList?.contains('plot-overlay')) {
      const m = this.measureText(s), tr = this.getTransform();
      const box = [x - m.actualBoundingBoxLeft, y - m.actualBoundingBoxAscent, x + m.actualBoundingBoxRight, y + m.actualBoundingBoxDescent];
      (this.canvas.__labels ||= []).push({
        text: String(s), box: [tr.a * box[0] + tr.e, tr.d * box[1] + tr.f, tr.a * box[2] + tr.e, tr.d * box[3] + tr.f],
      });
    }
    return fillText.call(this, s, x, y, ...rest);
  };
};

// The energy plot's labels now; none overlaps another (by more than half a pixel) or leaves the plot.
async function energyLabels(page) {
  const { labels, width, height } = await page.evaluate(() => {
    const layer = document.querySelector('#plot-energy ~ .plot-overlay');
    return { labels: layer.__labels || [], width: layer.width, height: layer.height };
  });
  labels.forEach((a, i) => {
    assert.ok(a.box[0] >= 0 && a.box[1] >= 0 && a.box[2] <= width && a.box[3] <= height, `'${a.text}' inside the plot`);
    for (const b of labels.slice(i + 1)) {
      const w = Math.min(a.box[2], b.box[2]) - Math.max(a.box[0], b.box[0]);
      const h = Math.min(a.box[3], b.box[3]) - Math.max(a.box[1], b.box[1]);
      assert.ok(w <= 0.5 || h <= 0.5, `'${a.text}' ${a.box.map(Math.round)} overlaps '${b.text}' ${b.box.map(Math.round)}`);
    }
  });
  return labels.map((l) => l.text);
}

test('energy plot, issue 23 defect 4: a bounded lane is on scale at 60 Hz; at 30 Hz the labels of two lanes diverging together do not overlap', async () => {
  // ω·h = 1.25: both symplectic lanes stay bounded, semi-implicit Euler's energy swinging past +100 %.
  await pageChecks(env, { width: 1280, height: 800, hash: 'preset=explodes_at_30fps&hz=60' }, async (page) => {
    await page.addInitScript(labelRecorder);
    await page.reload();
    await page.evaluate(() => window.stepwise.ready);
    // Every frame's drift of each lane, to compare with the plot's range.
    await page.evaluate(() => {
      window.__extent = {};
      const sample = () => {
        for (const lane of window.stepwise.state().integrators) {
          const e = (window.__extent[lane.id] ||= [0, 0]);
          e[0] = Math.min(e[0], 100 * lane.drift); e[1] = Math.max(e[1], 100 * lane.drift);
        }
        requestAnimationFrame(sample);
      };
      sample();
    });
    await runTo(page, 4.9);
    const s = await state(page);
    assert.ok(s.integrators.every((i) => !i.diverged), 'bounded at 60 Hz');
    const semi = s.integrators.find((i) => i.id === 'semi_implicit_euler');
    const r = (await report(page)).energy;
    assert.deepEqual(r.offScale, [], 'no bounded lane is off scale');
    const extent = await page.evaluate(() => window.__extent);
    // Its energy swings (the drift at the pause depends on where a loaded machine stops): its
    // largest is far past the 20 % an axis cut at 0 would have hidden.
    assert.ok(extent.semi_implicit_euler[1] > 20, `semi-implicit Euler's largest drift +${extent.semi_implicit_euler[1]} %`);
    for (const [id, [lo, hi]] of Object.entries(extent)) {
      assert.ok(r.yRange[0] <= lo && r.yRange[1] >= hi, `${id}: its energy change ${lo} … ${hi} % within the axis ${r.yRange}`);
    }
    assert.ok(r.yRange[0] <= 100 * semi.drift && r.yRange[1] >= 100 * semi.drift, `the axis ${r.yRange} holds the legend's ${100 * semi.drift} %`);
    assert.ok(!(await energyLabels(page)).includes('off scale'));
    await screenshot(page, 'i23-energy-60hz-1280', { clip: await page.locator('#plot-energy').locator('xpath=ancestor::figure').boundingBox() });
  });
  // ω·h = 2.5: both lanes diverge at the same frame, t = 0.367 s.
  await pageChecks(env, { width: 1280, height: 800, hash: 'preset=explodes_at_30fps' }, async (page) => {
    await page.addInitScript(labelRecorder);
    await page.reload();
    await page.evaluate(() => window.stepwise.ready);
    await runTo(page, 1);
    const s = await state(page);
    assert.deepEqual(s.integrators.map((i) => i.divergedAt), [0.36666666666666664, 0.36666666666666664]);
    const texts = await energyLabels(page);
    assert.ok(texts.includes('diverged at t = 0.367 s'), texts.join(' | '));
    await screenshot(page, 'i23-energy-30hz-1280', { clip: await page.locator('#plot-energy').locator('xpath=ancestor::figure').boundingBox() });
  });
});

// Issue 31 §2: axis titles were cut by the canvas's edges ("angular momentum chang", "|energy
// change| (%), lo"). Every y axis name drawn fits its canvas's height: smaller, or on two lines.
test('every plot\'s y axis name fits along its canvas, English and German, desktop and phone', async () => {
  const fitted = [];  // the names that did not fit at 11 px on one line: the case was met
  for (const [hash, width, height] of [['preset=circular_orbit', 1280, 800], ['preset=circular_orbit&lang=de', 1280, 800],
    ['preset=circular_orbit', 390, 844], ['preset=heavy_chain_60hz&lang=de', 390, 844]]) {
    await pageChecks(env, { hash, width, height }, async (page) => {
      await page.locator('#energy-log').check();  // the energy plot's log name, the longer one
      for (let k = 0; k < 3; ++k) await page.evaluate(() => window.stepwise.step());
      await page.waitForFunction(() => window.stepwise.debug.plots().drawnAt === window.stepwise.state().t);
      const r = await report(page);
      const drawn = Object.entries(r).filter(([, p]) => p && p.yTitle);
      assert.ok(drawn.length >= 3, `${hash}: ${drawn.length} plots`);
      for (const [name, p] of drawn) {
        p.yTitle.widths.forEach((w, k) => assert.ok(w <= p.yTitle.room, `${hash} ${width}: ${name}'s "${p.yTitle.lines[k]}" is ${w.toFixed(0)} px in ${p.yTitle.room}`));
        assert.equal(p.yTitle.lines.join(' '), p.yName, `${name}: the whole name`);
        if (p.yTitle.size < 11 || p.yTitle.lines.length > 1) fitted.push(`${hash} ${width}: ${name} ${p.yTitle.size} px × ${p.yTitle.lines.length}`);
      }
    });
  }
  console.log(fitted.join('\n'));
  assert.ok(fitted.length > 0, 'some name was too long for 11 px on one line');
});
