// Export: the CSV and JSON downloads equal `stepwise run` (`--format json`) for the same query
// (the core re-runs the config from t = 0 with the CLI's own formatter), the PNG, and the file
// names.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startBrowser, openPage, state, root, mainThreadTasks, playUntil } from './helpers.mjs';
import { cliRun, compareRunText } from './run-text.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

// Clicks an export button and returns the download's name and bytes.
async function downloadFrom(page, button) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
}

// The CSV against the CLI's: the same header, rows, integrators and bodies; every number
// written the same way (%.17g). Fixed-step lanes' x, y, vx, vy, energy are the same text; only
// the error column and the adaptive rk45 lane go through libm (glibc natively, musl in wasm)
// and may differ in the last bits: within 1e-12 of the position's size.
function compareCsv(page, native) {
  assert.equal(page.slice(0, page.indexOf('\n')), 't,integrator,body,x,y,vx,vy,energy,error');
  const { lines, identical } = compareRunText(page, native, 'csv', 'CSV');
  return { rows: lines - 1, identical: identical - 1 };
}

const run = (query, steps, every) => cliRun(query, { steps, every });

test('CSV: the download equals stepwise run for the same query, up to the current step', async () => {
  const { page, context, problems } = await openPage(env, { hash: 'preset=damped_spring&integrators=explicit_euler,rk4' });
  try {
    await playUntil(page, 0.5);
    const s = await state(page);
    const config = await page.evaluate(() => window.stepwise.config());
    const { name, bytes } = await downloadFrom(page, '#export-csv');
    assert.equal(name, 'stepwise-spring-explicit_euler-rk4.csv');
    const status = await page.textContent('#share-status');
    assert.ok(status.includes(`stepwise run '${config}' --steps ${s.steps} --every 1`), status);
    const { rows, identical } = compareCsv(bytes.toString('utf8'), run(config, s.steps, 1));
    assert.equal(rows, (s.steps + 1) * 2);
    console.log(`CSV vs CLI, ${s.steps} steps: ${identical} of ${rows} rows identical text`);
    // The last rows are the page's state now.
    const lastRows = bytes.toString('utf8').trim().split('\n').slice(-2).map((l) => l.split(','));
    assert.equal(+lastRows[0][0], s.t);
    assert.equal(+lastRows[0][3], s.bodies[0].x);
    assert.equal(+lastRows[1][5], s.bodies[1].vx);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('CSV: every integrator, two bodies, rk45, a long run sampled every K steps; the whole run at t = 0', async () => {
  const all = 'explicit_euler,semi_implicit_euler,semi_implicit_euler_x,implicit_euler,newton,heun,midpoint,rk4,leapfrog,stormer_verlet,velocity_verlet,yoshida4,kinematic,kinematic_avg,rk45';
  const { page, context, problems } = await openPage(env, { hash: `scenario=spring_pair&integrators=${all}&dt=0.01&duration=1000` });
  try {
    const config = await page.evaluate(() => window.stepwise.config());
    const steps = 12345;
    await page.evaluate((n) => { for (let done = 0; done < n; done += 1) window.stepwise.step(); }, steps);
    const { name, bytes } = await downloadFrom(page, '#export-csv');
    assert.equal(name, 'stepwise-spring_pair-15-integrators.csv');
    const status = await page.textContent('#share-status');
    const m = status.match(/--steps (\d+) --every (\d+)/);
    assert.ok(m, status);
    assert.equal(+m[1], steps);
    const every = +m[2];
    assert.ok(every > 1, `sampled: every ${every}`);
    const { rows, identical } = compareCsv(bytes.toString('utf8'), run(config, steps, every));
    console.log(`CSV vs CLI, 15 integrators, ${steps} steps every ${every}: ${identical} of ${rows} rows identical text`);
    assert.equal(rows, (Math.floor(steps / every) + 1) * 15 * 2);
    assert.ok(rows <= 200000);
  } finally {
    await context.close();
  }
  // At t = 0 the CSV covers the whole configured run.
  const p = await openPage(env, { hash: 'preset=two_point_exercise' });
  try {
    const config = await p.page.evaluate(() => window.stepwise.config());
    const { name, bytes } = await downloadFrom(p.page, '#export-csv');
    assert.equal(name, 'stepwise-spring_pair-6-integrators.csv');
    assert.match(await p.page.textContent('#share-status'), /t = 0 to the end of the run/);
    const native = cliRun(config);
    assert.equal(bytes.toString('utf8'), native, 'the two-point exercise: byte-identical to stepwise run');
    assert.deepEqual([...problems, ...p.problems], []);
  } finally {
    await p.context.close();
  }
});

// Judged on the main thread's CPU time (a Chromium trace), as tests/web/longtasks.test.mjs
// judges: on this shared machine the OS preempts Chromium for 100-300 ms at times (a minor GC of
// 1.4 ms of CPU lasted 102 ms), so the gaps between frames say more about the neighbours than
// the page. The frames drawn meanwhile are counted too: at least 10 a second on average.
test('CSV of a long run: made in slices, the page keeps drawing frames meanwhile', async () => {
  const all = 'explicit_euler,semi_implicit_euler,semi_implicit_euler_x,implicit_euler,newton,heun,midpoint,rk4,leapfrog,stormer_verlet,velocity_verlet,yoshida4,kinematic,kinematic_avg,rk45';
  const { page, context, problems } = await openPage(env, { hash: `scenario=spring&integrators=${all}&dt=0.001&duration=600` });
  try {
    // At t = 0 the CSV covers the whole run: 600,000 steps of 15 integrators.
    await page.evaluate(() => {
      window.__gaps = [];
      let last = performance.now();
      const tick = (now) => { window.__gaps.push(now - last); last = now; window.__raf = requestAnimationFrame(tick); };
      window.__raf = requestAnimationFrame(tick);
    });
    await env.browser.startTracing(page, { categories: ['toplevel'] });
    const t0 = Date.now();
    let name, bytes, tasks;
    try {
      ({ name, bytes } = await downloadFrom(page, '#export-csv'));
    } finally {
      tasks = mainThreadTasks(JSON.parse((await env.browser.stopTracing()).toString()));
    }
    const ms = Date.now() - t0;
    const gaps = await page.evaluate(() => { cancelAnimationFrame(window.__raf); return window.__gaps; });
    assert.equal(name, 'stepwise-spring-15-integrators.csv');
    const lines = bytes.toString('utf8').trim().split('\n');
    const every = Math.ceil(600000 / 10000);
    assert.equal(lines.length - 1, (600000 / every + 1) * 15);
    const worst = Math.max(...gaps);
    const longest = tasks.reduce((w, t) => (t.cpuMs > w.cpuMs ? t : w), tasks[0]);
    console.log(`CSV of 600,000 steps × 15 integrators: ${ms} ms, ${(bytes.length / 1e6).toFixed(1)} MB, ` +
      `${gaps.length} frames meanwhile, longest frame gap ${worst.toFixed(0)} ms, longest task ${longest.cpuMs.toFixed(1)} ms CPU ` +
      `(${longest.wallMs.toFixed(1)} ms wall)`);
    assert.ok(longest.cpuMs < 50, `no main-thread task over 50 ms of CPU: ${longest.cpuMs} ms`);
    assert.ok(gaps.length >= ms / 100, `the page kept drawing: ${gaps.length} frames in ${ms} ms`);
    assert.equal(await page.isEnabled('#export-csv'), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('PNG of the canvas and the plots shown', async () => {
  const { page, context, problems } = await openPage(env, { hash: 'preset=stiff_spring', width: 1280, height: 860 });
  try {
    for (let i = 0; i < 30; ++i) await page.evaluate(() => window.stepwise.step());
    const png = await downloadFrom(page, '#export-png');
    assert.equal(png.name, 'stepwise-spring-4-integrators.png');
    assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
    const width = png.bytes.readUInt32BE(16), height = png.bytes.readUInt32BE(20);
    const view = await page.evaluate(() => { const c = document.getElementById('view'); return { w: c.width, h: c.height }; });
    assert.ok(width > view.w && height > view.h + 150, `${width} × ${height}: the canvas and the plots below it`);
    fs.mkdirSync(path.join(root, 'test-artifacts'), { recursive: true });
    fs.writeFileSync(path.join(root, 'test-artifacts', 'export-stiff-spring.png'), png.bytes);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
  // An orbit: four plots, the angular momentum one included.
  const p = await openPage(env, { hash: 'preset=eccentric_orbit', width: 1280, height: 860 });
  try {
    await p.page.evaluate(() => { for (let i = 0; i < 300; ++i) window.stepwise.step(); });
    const png = await downloadFrom(p.page, '#export-png');
    assert.equal(png.name, 'stepwise-orbit-4-integrators.png');
    fs.writeFileSync(path.join(root, 'test-artifacts', 'export-eccentric-orbit.png'), png.bytes);
    assert.deepEqual(p.problems, []);
  } finally {
    await p.context.close();
  }
  // With phase-space clouds: the cloud panel and the area plot are in the picture too.
  const c = await openPage(env, { hash: 'preset=undamped_dt025&cloud=2000', width: 1280, height: 860 });
  try {
    await c.page.evaluate(() => { for (let i = 0; i < 12; ++i) window.stepwise.step(); });
    const png = await downloadFrom(c.page, '#export-png');
    assert.equal(png.name, 'stepwise-spring-semi_implicit_euler-rk4-velocity_verlet.png');
    const height = png.bytes.readUInt32BE(20);
    const shown = await c.page.evaluate(() => ['cloud-view', 'plot-area'].map((id) => document.getElementById(id).height));
    assert.ok(height > shown[0] + shown[1], `${height}: the cloud panel and the area plot stacked beside the canvas`);
    fs.writeFileSync(path.join(root, 'test-artifacts', 'export-undamped-cloud.png'), png.bytes);
    assert.deepEqual(c.problems, []);
  } finally {
    await c.context.close();
  }
});

// The PNG in every view. The cloud view hides the motion canvas: its box of 0 px once made the
// picture's scale 300 px per CSS pixel, toBlob gave null and URL.createObjectURL threw an
// unhandled TypeError; the analysis views did the same. Now each view saves what it shows (the
// cloud panel, the analysis plots), and a picture the browser cannot make says so in the status.
const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
test('PNG in every view: the cloud panel, the convergence and stability plots; a failure says why', async () => {
  for (const [hash, shownIds, wait] of [
    ['scenario=spring&cloud=1000&view=cloud', ['cloud-view'], () => window.stepwise.debug.cloud().shown],
    ['scenario=spring&view=convergence', [], async () => (await window.stepwise.debug.analysis())?.state === 'done'],
    ['scenario=spring&view=stability', [], async () => Boolean(await window.stepwise.debug.analysis())],
  ]) {
    const { page, context, problems } = await openPage(env, { hash, width: 1280, height: 860 });
    try {
      await page.waitForFunction(wait, null, { timeout: 30000 });
      const png = await downloadFrom(page, '#export-png');
      assert.equal(png.name, 'stepwise-spring-4-integrators.png', hash);
      assert.deepEqual([...png.bytes.subarray(0, 8)], pngSignature, `${hash}: a PNG`);
      const width = png.bytes.readUInt32BE(16), height = png.bytes.readUInt32BE(20);
      // The view's pictures, each at its size on the page, are in it.
      const sizes = await page.evaluate((ids) => {
        const canvases = ids.length ? ids.map((id) => document.getElementById(id))
          : [...document.querySelectorAll('#analysis figure canvas')].filter((c) => c.getClientRects().length > 0);
        return canvases.map((c) => ({ w: c.width, h: c.height }));
      }, shownIds);
      assert.ok(sizes.length > 0, hash);
      for (const c of sizes) assert.ok(width > c.w && height > c.h, `${hash}: ${width} × ${height} holds a ${c.w} × ${c.h} picture`);
      assert.ok(width < 5000 && height < 5000, `${hash}: ${width} × ${height}, the page's own scale`);
      assert.match(await page.textContent('#share-status'), /^PNG saved: the view, the legend and the plots\.$/);
      fs.writeFileSync(path.join(root, 'test-artifacts', `export-${hash.split('view=')[1]}.png`), png.bytes);
      assert.deepEqual(problems, [], `${hash}: no error`);
    } finally {
      await context.close();
    }
  }
  // A picture the browser cannot make (toBlob gives null: too large, or out of memory): the status
  // says why, in German on a German page, and nothing is thrown.
  for (const [hash, expected] of [
    ['scenario=spring&cloud=1000&view=cloud', /^The PNG could not be made: the browser could not make an image of [\d,]+ × [\d,]+ pixels$/],
    ['scenario=spring&cloud=1000&view=cloud&lang=de', /^Das PNG konnte nicht erstellt werden: der Browser konnte kein Bild von [\d\u202f]+ × [\d\u202f]+ Pixeln erstellen$/],
  ]) {
    const { page, context, problems } = await openPage(env, { hash, width: 1280, height: 860 });
    try {
      await page.waitForFunction(() => window.stepwise.debug.cloud().shown);
      await page.evaluate(() => { HTMLCanvasElement.prototype.toBlob = function toBlob(callback) { setTimeout(() => callback(null), 0); }; });
      await page.click('#export-png');
      await page.waitForFunction(() => document.getElementById('share-status').textContent !== '');
      assert.match(await page.textContent('#share-status'), expected);
      assert.deepEqual(problems, [], 'no uncaught error');
    } finally {
      await context.close();
    }
  }
});

test('JSON: the download is the text of stepwise run --format json, config included', async () => {
  for (const [hash, steps] of [['preset=two_point_exercise', 7], ['preset=eccentric_orbit', 250], ['preset=stiff_spring', 0]]) {
    const { page, context, problems } = await openPage(env, { hash });
    try {
      await page.evaluate((n) => { for (let i = 0; i < n; ++i) window.stepwise.step(); }, steps);
      const config = await page.evaluate(() => window.stepwise.config());
      const s = await state(page);
      const { name, bytes } = await downloadFrom(page, '#export-json');
      assert.match(name, /^stepwise-[a-z_]+-[\w-]+\.json$/);
      const status = await page.textContent('#share-status');
      const m = status.match(/stepwise run '([^']*)' --steps (\d+) --every (\d+) --format json/);
      assert.ok(m, status);
      assert.equal(m[1], config);
      const text = bytes.toString('utf8');
      const native = cliRun(config, { steps: +m[2], every: +m[3], format: 'json' });
      const { lines, identical } = compareRunText(text, native, 'json', hash);
      console.log(`JSON vs CLI, ${hash}: ${identical} of ${lines} lines identical text`);
      if (hash === 'preset=two_point_exercise') assert.equal(text, native, 'byte-identical to stepwise run --format json');
      const data = JSON.parse(text);
      assert.equal(data.config, config);
      if (steps > 0) {
        assert.equal(+m[2], s.steps, 'up to the current step');
        const last = data.rows.at(-1);
        assert.equal(last.t, s.t);
        assert.equal(last.x, s.bodies.at(-1).x);
      } else {
        assert.match(status, /t = 0 to the end of the run/);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});
