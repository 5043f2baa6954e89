// Each integrator has one style everywhere, keyed by its id (web/common/palette.js): every integrator of
// the core's table has a row; the light colours reach 3:1 against the light canvas and the dark
// ones 4:1 against the dark canvas (the canvas colours read from the page's stylesheet); no two
// colours of a scheme are closer than 0.1 in OKLab; no two rows share colour, dash and marker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { integratorStyles, laneStyle } from '../../web/common/palette.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const site = process.env.STEPWISE_BUILT_SITE || path.join(root, 'build/site');  // the modules under their own names (tests/web/helpers.mjs builtSite)
const createStepwise = createRequire(import.meta.url)(path.join(site, 'stepwise.js'));
const M = await createStepwise({ wasmBinary: fs.readFileSync(path.join(site, 'stepwise-all.wasm')) });  // every part of the core
const ids = JSON.parse(M.tables()).integrators.map((i) => i.id);

const css = fs.readFileSync(path.join(root, 'public/style.css'), 'utf8');
const canvasBackgrounds = [...css.matchAll(/--canvas-bg:\s*(#[0-9a-fA-F]{6})/g)].map((m) => m[1]);
const [lightCanvas, darkCanvas] = canvasBackgrounds;

const linear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const rgb = (hex) => [1, 3, 5].map((i) => linear(parseInt(hex.slice(i, i + 2), 16) / 255));
const luminance = (hex) => { const [r, g, b] = rgb(hex); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
function oklab(hex) {
  const [r, g, b] = rgb(hex);
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s];
}
const distance = (a, b) => Math.hypot(...oklab(a).map((v, k) => v - oklab(b)[k]));

test('the contrast formula reproduces the issue\'s figures for the old colours', () => {
  assert.equal(contrast('#E69F00', '#ffffff').toFixed(2), '2.25');
  assert.equal(contrast('#56B4E9', '#ffffff').toFixed(2), '2.31');
});

test('every integrator of the core has a style, and every style an integrator', () => {
  assert.deepEqual([...ids].sort(), Object.keys(integratorStyles).sort());
});

test('a style depends on the id only, never on list position', () => {
  assert.deepEqual(laneStyle('semi_implicit_euler', 'light'), laneStyle('semi_implicit_euler', 'light'));
  assert.equal(laneStyle('semi_implicit_euler', 'light').colour, '#0072B2');
  assert.equal(laneStyle('semi_implicit_euler', 'dark').colour, '#7eaacf');
});

test('graphics contrast: light >= 3:1 on the light canvas, dark >= 4:1 on the dark canvas', () => {
  assert.equal(lightCanvas.toLowerCase(), '#ffffff');
  assert.ok(darkCanvas, 'the dark canvas colour is in the stylesheet');
  for (const id of ids) {
    const light = contrast(laneStyle(id, 'light').colour, lightCanvas);
    const dark = contrast(laneStyle(id, 'dark').colour, darkCanvas);
    assert.ok(light >= 3, `${id}: ${light.toFixed(2)}:1 on ${lightCanvas}`);
    assert.ok(dark >= 4, `${id}: ${dark.toFixed(2)}:1 on ${darkCanvas}`);
  }
});

test('every style stays distinguishable: colours >= 0.1 apart in OKLab, no two rows alike', () => {
  for (const scheme of ['light', 'dark']) {
    let closest = Infinity, pair = '';
    ids.forEach((a, i) => ids.slice(0, i).forEach((b) => {
      const d = distance(laneStyle(a, scheme).colour, laneStyle(b, scheme).colour);
      if (d < closest) { closest = d; pair = `${a}/${b}`; }
    }));
    assert.ok(closest >= 0.1, `${scheme}: ${pair} only ${closest.toFixed(3)} apart`);
  }
  const keys = ids.map((id) => { const s = laneStyle(id, 'light'); return `${s.colour}|${s.dash.join(',')}|${s.marker}`; });
  assert.equal(new Set(keys).size, ids.length);
});

test('a lane with its own settings takes a shade of its method\'s colour: at the contrast, apart from its siblings', () => {
  // The settings the presets use and the comparisons: substeps alone, iterations alone, both.
  const settings = ['2', '4', '10x1', '20', '20x1', '50x1', '100x1', '1x20', '1x100', '4x2', '2x3', '4x4'];
  for (const scheme of ['light', 'dark']) {
    for (const method of ids) {
      const lanes = [method, ...settings.map((s) => `${method}@${s}`)];
      for (const lane of lanes) {
        const c = contrast(laneStyle(lane, scheme).colour, scheme === 'light' ? lightCanvas : darkCanvas);
        assert.ok(c >= (scheme === 'light' ? 3 : 4), `${lane} (${scheme}): ${c.toFixed(2)}:1`);
      }
      // The pairs shown side by side in the presets and the issue: each pair differs in colour by
      // at least 0.05 in OKLab (and in dash or marker besides).
      for (const [a, b] of [['', '20x1'], ['1x20', '20x1'], ['20x1', '100x1'], ['20x1', '50x1'], ['', '4'], ['4', '20'], ['', '4x4'], ['2', '20x1'], ['10x1', '1x100']]) {
        const la = a ? `${method}@${a}` : method, lb = `${method}@${b}`;
        const d = distance(laneStyle(la, scheme).colour, laneStyle(lb, scheme).colour);
        assert.ok(d >= 0.05, `${scheme}: ${la} and ${lb} only ${d.toFixed(3)} apart`);
      }
    }
  }
  // A function of the id alone.
  assert.equal(laneStyle('xpbd@20x1', 'light').colour, laneStyle('xpbd@20x1', 'light').colour);
  assert.notEqual(laneStyle('xpbd@20x1', 'light').colour, laneStyle('xpbd', 'light').colour);
});

// Issue 31 §2, "Lanes that look alike": the lanes a preset compares must read apart at a glance.
// xpbd@1x20 and xpbd@20x1 (pendulum_challenge, heavy_chain_60hz) were two dark teals 0.102 apart,
// xpbd@10x1 and vbd@4x4 (scene_cloth) a purple and a magenta 0.091 apart on the dark canvas.
test('the lanes of every preset that has a lane with settings are at least 0.18 apart in OKLab, and from their own method', () => {
  const presets = JSON.parse(M.tables()).presets;
  let checked = 0;
  for (const preset of presets) {
    const lanes = (new URLSearchParams(preset.query).get('integrators') || '').split(',').filter((id) => id && id !== 'reference');
    if (!lanes.some((id) => id.includes('@'))) continue;
    checked += 1;
    for (const scheme of ['light', 'dark']) {
      for (let i = 0; i < lanes.length; i++) {
        const own = lanes[i].split('@')[0];
        if (lanes[i].includes('@')) {
          const d = distance(laneStyle(lanes[i], scheme).colour, laneStyle(own, scheme).colour);
          assert.ok(d >= 0.18, `${preset.id} (${scheme}): ${lanes[i]} only ${d.toFixed(3)} from ${own}`);
        }
        for (let j = 0; j < i; j++) {
          if (!lanes[i].includes('@') && !lanes[j].includes('@')) continue;  // two methods' own colours: the test above
          const d = distance(laneStyle(lanes[i], scheme).colour, laneStyle(lanes[j], scheme).colour);
          assert.ok(d >= 0.18, `${preset.id} (${scheme}): ${lanes[i]} and ${lanes[j]} only ${d.toFixed(3)} apart`);
        }
      }
    }
  }
  assert.ok(checked >= 10, `${checked} presets with lanes of their own settings`);
});

// Issue 31 §2: a system with rigid links opens with the solvers alone (the core's default lanes: every
// integrator that solves constraints). They were blues and violets 0.11 apart, one purple bundle
// on System → Chain; now each reads apart from the others at a glance, in both schemes.
test('the solvers a rigid system opens with are at least 0.22 apart in OKLab', () => {
  const solvers = JSON.parse(M.tables()).integrators.filter((i) => i.solves_constraints).map((i) => i.id);
  assert.deepEqual(solvers, ['pbd', 'xpbd', 'soft_step', 'sequential_impulses', 'vbd']);
  for (const scheme of ['light', 'dark']) {
    for (let i = 0; i < solvers.length; i++) {
      for (let j = 0; j < i; j++) {
        const d = distance(laneStyle(solvers[i], scheme).colour, laneStyle(solvers[j], scheme).colour);
        assert.ok(d >= 0.22, `${scheme}: ${solvers[i]} and ${solvers[j]} only ${d.toFixed(3)} apart`);
      }
    }
  }
});
