// Export: the CSV download equals `stepwise run` for the same query (the core re-runs the config
// from t = 0 and prints with %.17g like the CLI), the PNG, the config JSON, and the file names.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startBrowser, openPage, state, sleep, root } from './helpers.mjs';

const cli = process.env.STEPWISE_CLI || path.join(root, 'build/native/stepwise');

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
  assert.ok(page.endsWith('\n') && native.endsWith('\n'));
  const a = page.slice(0, -1).split('\n'), b = native.slice(0, -1).split('\n');
  assert.equal(a.length, b.length, 'line count');
  assert.equal(a[0], 't,integrator,body,x,y,vx,vy,energy,error');
  assert.equal(a[0], b[0]);
  let identical = 0, rows = 0;
  for (let i = 1; i < a.length; ++i) {
    if (a[i] === b[i]) { ++identical; ++rows; continue; }
    ++rows;
    const x = a[i].split(','), y = b[i].split(',');
    assert.deepEqual(x.slice(0, 3), y.slice(0, 3), `line ${i + 1}: t, integrator, body`);
    for (let f = 3; f < 9; ++f) {
      if (x[f] === y[f]) continue;
      assert.ok(f === 8 || x[1] === 'rk45', `line ${i + 1}: column ${f} differs in a fixed-step lane: ${x[f]} vs ${y[f]}`);
      const scale = Math.max(Math.abs(+y[3]), Math.abs(+y[4]), Math.abs(+y[f]), 1e-300);
      assert.ok(Math.abs(+x[f] - +y[f]) <= 1e-12 * scale, `line ${i + 1}: ${x[f]} vs ${y[f]}`);
    }
  }
  return { rows, identical };
}

const run = (query, steps, every) => execFileSync(cli, ['run', query, '--steps', String(steps), '--every', String(every)], {
  encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 << 20,
});

test('CSV: the download equals stepwise run for the same query, up to the current step', async () => {
  const { page, context, problems } = await openPage(env, { hash: 'preset=damped_spring&integrators=explicit_euler,rk4' });
  try {
    await page.evaluate(() => window.stepwise.play());
    await sleep(800);
    await page.evaluate(() => window.stepwise.pause());
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
    const native = execFileSync(cli, ['run', config], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    assert.equal(bytes.toString('utf8'), native, 'the two-point exercise: byte-identical to stepwise run');
    assert.deepEqual([...problems, ...p.problems], []);
  } finally {
    await p.context.close();
  }
});

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
    const t0 = Date.now();
    const { name, bytes } = await downloadFrom(page, '#export-csv');
    const ms = Date.now() - t0;
    const gaps = await page.evaluate(() => { cancelAnimationFrame(window.__raf); return window.__gaps; });
    assert.equal(name, 'stepwise-spring-15-integrators.csv');
    const lines = bytes.toString('utf8').trim().split('\n');
    const every = Math.ceil(600000 / 10000);
    assert.equal(lines.length - 1, (600000 / every + 1) * 15);
    const worst = Math.max(...gaps);
    console.log(`CSV of 600,000 steps × 15 integrators: ${ms} ms, ${(bytes.length / 1e6).toFixed(1)} MB, ` +
      `${gaps.length} frames meanwhile, longest frame gap ${worst.toFixed(0)} ms`);
    assert.ok(worst < 400, `the page kept drawing: longest gap ${worst} ms`);
    assert.equal(await page.isEnabled('#export-csv'), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('PNG of the canvas and plots, and the config as JSON', async () => {
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

    const json = await downloadFrom(page, '#export-json');
    assert.equal(json.name, 'stepwise-spring-4-integrators.json');
    const data = JSON.parse(json.bytes.toString('utf8'));
    const config = await page.evaluate(() => window.stepwise.config());
    assert.equal(data.format, 'stepwise-config');
    assert.equal(data.version, 1);
    assert.equal(data.config, config);
    assert.equal(data.scenario, 'spring');
    assert.deepEqual(data.integrators, ['explicit_euler', 'semi_implicit_euler', 'velocity_verlet', 'rk4']);
    assert.equal(data.dt, 0.05);
    assert.equal(data.duration, 10);
    assert.deepEqual(data.params, { m: 1, k: 1000, b: 0, rest: 0, anchor: [0, 0], x0: [1, 0], v0: [0, 0] });
    assert.equal(data.steps, 30);
    assert.equal(data.t, 1.5);
    assert.equal(data.link, `${env.server.url}index.html#${config}`);
    assert.equal(data.cli, `stepwise run '${config}' --steps 30`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
