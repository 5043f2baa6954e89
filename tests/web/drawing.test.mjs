// Lines on the canvases are cut to what can be seen. A canvas dashes a dashed line along its
// whole length, visible or not: a body that fell 100 km between two frames drew a 4-million-pixel
// dashed trail segment, every frame took 400–650 ms even paused, and a CSV export (which yields
// to the page's frames between its slices) took minutes. And far from the origin the view's tick
// labels stay readable.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ClippedPath, axisTicks } from '../../web/motion/coords.js';
import { offsetName, groupDigits } from '../../web/common/text.js';
import { startBrowser, openPage, canvasTexts, framesPass } from './helpers.mjs';

// A context that records the path it is given.
function recorder() {
  const ops = [];
  const round = (v) => Math.round(v * 1000) / 1000;
  return {
    ops,
    beginPath() { ops.push('begin'); },
    moveTo(x, y) { ops.push(['M', round(x), round(y)]); },
    lineTo(x, y) { ops.push(['L', round(x), round(y)]); },
  };
}

test('axisTicks: plain labels near the origin, labels relative to a stated offset far from it', () => {
  const near = axisTicks(23.7, 34.5, 2);
  assert.equal(near.offset, 0);
  assert.deepEqual(near.ticks.map((t) => t.label), ['24', '26', '28', '30', '32', '34']);
  assert.equal(offsetName('x', 'm', near.offset, 2), 'x (m)');
  const far = axisTicks(-112709.3, -112698.5, 2);
  assert.equal(far.offset, -112700);
  assert.deepEqual(far.ticks.map((t) => t.label), ['-8', '-6', '-4', '-2', '0']);
  assert.deepEqual(far.ticks.map((t) => t.value), [-112708, -112706, -112704, -112702, -112700]);
  assert.equal(offsetName('y', 'm', far.offset, 2), 'y + 112700 (m)');
  const small = axisTicks(0.10001, 0.10009, 0.00002);
  assert.equal(offsetName('x', 'm', small.offset, 0.00002), 'x \u2212 0.1000 (m)');
  assert.deepEqual(small.ticks.map((t) => t.label), ['2e-5', '4e-5', '6e-5', '8e-5']);
});

test('groupDigits: thousands grouped by commas, as toLocaleString("en-US") wrote them', () => {
  assert.equal(groupDigits(0), '0');
  assert.equal(groupDigits(999), '999');
  assert.equal(groupDigits(1000), '1,000');
  assert.equal(groupDigits(393344), '393,344');
  assert.equal(groupDigits(4194322), '4,194,322');
  assert.equal(groupDigits(-1234567), '-1,234,567');
  assert.equal(groupDigits(1999.6), '2,000');  // whole numbers: a count of points or characters
});

test('ClippedPath: inside unchanged, a far segment cut at the edges, non-finite points break the line', () => {
  const ctx = recorder();
  const path = new ClippedPath(ctx, { x: 0, y: 0, w: 100, h: 100 }, 0);
  for (const [x, y] of [[10, 10], [20, 20], [50, -4e6], [50, 50], [NaN, 1], [60, 60], [70, 70], [200, 70], [300, 70], [90, 90]]) {
    path.point(x, y);
  }
  assert.deepEqual(ctx.ops, [
    'begin',
    ['M', 10, 10], ['L', 20, 20],
    ['L', 20, 0],                    // out through the top edge: 20 + (0 − 20)/(−4e6 − 20)·30 rounds to 20
    ['M', 50, 0], ['L', 50, 50],     // back in from the top
    ['M', 60, 60], ['L', 70, 70],    // after the NaN: a new piece
    ['L', 100, 70],                  // out on the right; (200,70)→(300,70) is outside: nothing
    ['M', 100, 89.048], ['L', 90, 90],  // (300,70)→(90,90) enters at x = 100: y = 70 + 20·200/210
  ]);
  // A segment passing by outside the rectangle draws nothing; one crossing it draws its chord.
  const passing = recorder();
  const p2 = new ClippedPath(passing, { x: 0, y: 0, w: 100, h: 100 }, 10);
  p2.point(-1e9, 200); p2.point(1e9, 200);    // above it, parallel to its top
  p2.point(-1e9, 50);                          // nearly parallel: meets y = 110 at x ≈ −2e8
  p2.point(50, -1e9); p2.point(50, 1e9);       // straight through it
  assert.deepEqual(passing.ops, ['begin', ['M', 50, -10], ['L', 50, 110]]);
});

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

test('a run stepped far at once: every line drawn stays near its canvas, the paused page rests', async () => {
  const all = 'explicit_euler,semi_implicit_euler,semi_implicit_euler_x,implicit_euler,newton,heun,midpoint,rk4,leapfrog,stormer_verlet,velocity_verlet,yoshida4,kinematic,kinematic_avg,rk45';
  // A spring pair falls freely: after 123 s it is 100 km below where its trails began.
  const { page, context, problems } = await openPage(env, { hash: `scenario=spring_pair&integrators=${all}&dt=0.01&duration=1000` });
  try {
    await page.evaluate(() => { for (let n = 0; n < 12345; n += 1) window.stepwise.step(); });
    await framesPass(page, 10);  // drawn
    const farthest = await page.evaluate(() => window.__farthestPathPx);
    const size = await page.evaluate(() => Math.max(...[...document.querySelectorAll('canvas')].map((c) => Math.max(c.width, c.height))));
    assert.ok(farthest < size + 100, `the farthest point of a line: ${farthest} px (canvases up to ${size} px)`);
    // Paused, the page draws only when something changed. The reference's box still grows slice
    // by slice in idle time for as long as its free work lasts (longer on a busy machine, as while
    // the full module compiles), and the view eases to each new box over a few frames. Once the
    // box has rested for a second, the page rests too: counted in the page over the next 2 s.
    const rested = await page.evaluate(() => new Promise((resolve) => {
      const box = () => JSON.stringify(window.stepwise.debug.view().bounds);
      let last = box(), since = performance.now();
      const start = since;
      const tick = () => {
        const now = box();
        if (now !== last) { last = now; since = performance.now(); }
        if (performance.now() - since >= 1000) resolve(performance.now() - start);
        else if (performance.now() - start > 30000) resolve(null);
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }));
    assert.ok(rested !== null, 'the box stops growing while paused');
    const frames = () => page.evaluate(() => window.stepwise.debug.timings().frames);
    const before = await frames();
    await framesPass(page, 120);
    const drawn = (await frames()) - before;
    console.log(`paused: the box rested after ${Math.round(rested)} ms, then ${drawn} redraws in 120 animation frames; ` +
      `farthest line point ${farthest.toFixed(0)} px`);
    assert.ok(drawn < 10, `a paused page redraws on changes only: ${drawn} redraws in 120 animation frames`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('100 km down, the view\'s y labels are relative to an offset its name states', async () => {
  // They were "1.127e5" at every tick, the minus sign cut off by the margin.
  const { page, context, problems } = await openPage(env, { hash: 'preset=two_point_exercise' });
  try {
    await page.evaluate(() => { for (let n = 0; n < 300; n += 1) window.stepwise.step(); });
    // Waits for the view drawn after the steps (a fixed sleep missed it on a loaded machine).
    await page.waitForFunction(() => [...window.__texts].some((t) => /^y \+ 112[67]\d0 \(m\)$/.test(t)), null,
      { timeout: 60000 }).catch(() => {});
    const names = (await canvasTexts(page)).filter((t) => /^y /.test(t));
    assert.ok(names.some((n) => /^y \+ 112[67]\d0 \(m\)$/.test(n)), `the y axis names its offset: ${names}`);
    const texts = await canvasTexts(page);
    assert.deepEqual(texts.filter((t) => /^-?1\.12\de5$/.test(t)), [], 'no label repeats the depth');
    assert.ok(texts.some((t) => /^-\d{1,2}$/.test(t)), 'small negative tick labels below the offset');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
