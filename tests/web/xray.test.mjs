// The stage X-ray in headless Chromium: on the two-point exercise, paused, the X-ray of RK4's next
// step shows the worked step a student checks their homework against (k1 at P1 is the start
// state, the result at P1 is (−763/288, 0)), draws the stages numbered on the canvas and in the
// phase plot, copies as tab-separated text, downloads exactly what `stepwise trace` prints, and
// moves on with a step and goes away when closed or played. A later step equals `stepwise trace --step N`; rk45
// and implicit Euler open; the phone layout scrolls the table inside its panel; dark mode. A step
// with more stages than the panel shows (rk45 on a stiff spring: 14,099) says how many, shows the
// first ones and the result, and its CSV holds them all (longtasks.test.mjs: no long task).
// Screenshots in test-artifacts/xray-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { startBrowser, pageChecks, state, screenshot, config, canvasTexts } from './helpers.mjs';
import { cli } from './run-text.mjs';
import { openXray, report } from './xray-open.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const exercise = 'preset=two_point_exercise';
const trace = (query, id, step) => execFileSync(cli, ['trace', query, '--integrator', id, '--step', String(step)],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });

async function downloadCsv(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#xray-csv')]);
  return { name: download.suggestedFilename(), text: fs.readFileSync(await download.path(), 'utf8') };
}

// The table's rows of a stage (by its number), each [#?, label?, body, x, y, vx, vy, ax, ay]: the
// first row of a stage starts with its number and label; the numbers as the core's exact text
// (the table shows them rounded unless Exact is on: xray-sheet.test.mjs).
function stageRows(r, number) {
  const out = [];
  let current = 0;
  for (const row of r.exact) {
    if (row.length === 9) current = Number(row[0]);
    if (current === number) out.push(row.slice(-7));
  }
  return out;
}

test('RK4 on the two-point exercise: the worked step, the drawing, Copy, the CSV of stepwise trace, Close', async () => {
  await pageChecks(env, { hash: exercise, width: 1280, height: 800 }, async (page, p) => {
    await p.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    assert.equal(await page.getAttribute('#xray-open', 'aria-expanded'), 'false');
    const first = await openXray(page);
    const lanes = await page.$$eval('#xray-lane option', (o) => o.map((x) => x.value));
    assert.equal(first.integrator, lanes[0], 'the first lane by default');
    assert.ok(lanes.includes('rk4'));
    const r = await openXray(page, 'rk4');
    assert.equal(await page.getAttribute('#xray-open', 'aria-expanded'), 'true');
    assert.equal(r.steps, 0);
    assert.deepEqual(r.labels, ['k1', 'k2', 'k3', 'k4', 'result']);
    assert.match(r.summary, /^Runge–Kutta 4: the step from t = 0 s with h = 0\.5 s, 4 force evaluations/);
    // k1 at P1 (body 0) is the start state, as the page's own state has it.
    const s = await state(page);
    const start = s.bodies.find((b) => b.integrator === 'rk4' && b.body === 0);
    const k1 = stageRows(r, 1);
    assert.equal(k1.length, 2, 'two bodies');
    assert.deepEqual(k1[0].slice(1, 5).map(Number), [start.x, start.y, start.vx, start.vy]);
    assert.deepEqual(k1[0], ['P1', '-2', '2', '-1', '-1.5', '-2', '-10']);
    // The result at P1: (−763/288, 0), to the digits printed.
    const result = stageRows(r, 5);
    assert.equal(result[0][0], 'P1');
    assert.equal(result[0][1], '-2.6493055555555554');
    assert.ok(Math.abs(Number(result[0][1]) - -763 / 288) <= 1e-15, result[0][1]);
    assert.equal(result[0][2], '0');
    // The canvas: each stage's position, numbered, for both bodies; the velocity arrows of the
    // four evaluations and their accelerations; the phase plot's five points.
    assert.deepEqual(r.canvas.points.map((q) => `${q.stage}:${q.body}`).sort(),
      ['1:0', '1:1', '2:0', '2:1', '3:0', '3:1', '4:0', '4:1', '5:0', '5:1']);
    assert.equal(r.canvas.velocityArrows, 8);
    assert.equal(r.canvas.accelerationArrows, 8);
    const box = await page.$eval('#view', (c) => ({ w: c.clientWidth, h: c.clientHeight }));
    for (const q of r.canvas.points) assert.ok(q.px > 0 && q.px < box.w && q.py > 0 && q.py < box.h, `stage ${q.stage} in the canvas`);
    const labelled = r.canvas.labels.flatMap((l) => l.text.split(', ')).map(Number);
    for (let n = 1; n <= 5; ++n) assert.ok(labelled.includes(n), `stage ${n} numbered on the canvas`);
    assert.ok((await canvasTexts(page)).includes('1'));
    assert.deepEqual(r.phase.points.map((q) => q.stage), [1, 2, 3, 4, 5]);
    assert.equal(r.phase.points[0].q, 5, 'the spring\'s length at the start');
    // Copy: tab-separated, the same text as the table.
    await page.click('#xray-copy');
    await page.waitForFunction(() => document.querySelector('.xray-status').textContent.startsWith('Copied'));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const lines = copied.trim().split('\n');
    assert.equal(lines[0], 'stage\tlabel\tbody\tx\ty\tvx\tvy\tax\tay');
    assert.equal(lines[1], '1\tk1\t0\t-2\t2\t-1\t-1.5\t-2\t-10');
    assert.equal(lines[9], '5\tresult\t0\t-2.6493055555555554\t0\t-1.395833333333333\t-6.5\t0.4976851851851851\t-10');
    // CSV: exactly what stepwise trace prints for this config, integrator and step.
    const query = await config(page);
    const { name, text } = await downloadCsv(page);
    assert.equal(name, 'stepwise-trace-spring_pair-rk4-step0.csv');
    assert.equal(text, trace(query, 'rk4', 0));
    assert.equal(await page.textContent('.xray-command code'), `stepwise trace '${query}' --integrator rk4 --step 0`);
    await screenshot(page, 'xray-desktop-light');
    // Close: the panel, the canvas's and the phase plot's drawings go; the focus goes back.
    await page.click('#xray-close');
    assert.deepEqual(await report(page), { open: false });
    assert.equal(await page.isVisible('#xray'), false);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'xray-open');
    assert.equal(await page.getAttribute('#xray-open', 'aria-expanded'), 'false');
  });
});

test('a later step: after N steps the X-ray is step N, the CSV equals stepwise trace --step N; a step moves it on, play closes it', async () => {
  await pageChecks(env, { hash: exercise }, async (page) => {
    await page.evaluate(() => window.stepwise.pause());
    const n = 3;
    for (let k = 0; k < n; ++k) await page.click('#step');
    await page.waitForFunction((steps) => window.stepwise.state().steps === steps, n);
    const r = await openXray(page, 'rk4');
    assert.equal(r.steps, n);
    assert.match(r.summary, /from t = 1\.5 s with h = 0\.5 s/);
    const query = await config(page);
    const { name, text } = await downloadCsv(page);
    assert.equal(name, `stepwise-trace-spring_pair-rk4-step${n}.csv`);
    assert.equal(text, trace(query, 'rk4', n));
    // The table's result rows are the CSV's (shortest text against %.17g: the same numbers).
    const csvResult = text.trim().split('\n').filter((l) => l.startsWith('rk4,5,result,'));
    const rows = stageRows(r, 5);
    csvResult.forEach((line, b) => {
      const f = line.split(',').slice(3);
      assert.equal(rows[b][0], `P${Number(f[0]) + 1}`);
      assert.deepEqual(rows[b].slice(1).map(Number), f.slice(1).map(Number), `result of body ${b}`);
    });
    // One more step: the X-ray moves on to the step that is next now, for the same integrator.
    await page.click('#step');
    await page.waitForFunction((steps) => window.stepwise.debug.xray().steps === steps && !window.stepwise.debug.xray().tracing, n + 1);
    const moved = await report(page);
    assert.equal(moved.integrator, 'rk4');
    assert.match(moved.summary, /from t = 2 s with h = 0\.5 s/);
    assert.equal((await downloadCsv(page)).text, trace(query, 'rk4', n + 1));
    assert.equal(await page.isVisible('#xray'), true);
    // Played: it closes.
    await page.evaluate(() => window.stepwise.play());
    await page.waitForFunction(() => !window.stepwise.debug.xray().open);
    await page.evaluate(() => window.stepwise.pause());
  });
});

test('rk45 (its substeps) and implicit Euler (its Newton iterates) open without error; the CSV is stepwise trace\'s', async () => {
  await pageChecks(env, { hash: `${exercise}&integrators=rk45,implicit_euler,yoshida4,kinematic` }, async (page) => {
    const query = await config(page);
    const rk45 = await openXray(page, 'rk45');
    assert.ok(rk45.labels.some((l) => /^substep 1 \(h = [^)]+\): k1$/.test(l)), rk45.labels.join(' | '));
    assert.equal(rk45.labels.at(-1), 'result');
    const csv45 = (await downloadCsv(page)).text.trim().split('\n');
    const native45 = trace(query, 'rk45', 0).trim().split('\n');
    // rk45's step control calls pow: glibc and the module's musl may differ in the last bits.
    assert.equal(csv45.length, native45.length);
    csv45.forEach((line, k) => {
      const a = line.split(','), b = native45[k].split(',');
      assert.deepEqual(a.slice(0, 4), b.slice(0, 4), `row ${k}`);
      for (let f = 4; f < a.length; ++f) {
        if (a[f] !== b[f]) assert.ok(Math.abs(Number(a[f]) - Number(b[f])) <= 1e-12 * Math.max(1, Math.abs(Number(b[f]))), `row ${k}: ${a[f]} vs ${b[f]}`);
      }
    });
    const implicit = await openXray(page, 'implicit_euler');
    assert.deepEqual(implicit.labels.slice(0, 2), ['newton 1', 'newton 2']);
    assert.equal((await downloadCsv(page)).text, trace(query, 'implicit_euler', 0));
    // Kinematic: the increments (dx, dv) are in the table, not drawn as positions; empty cells say why.
    const kinematic = await openXray(page, 'kinematic');
    assert.ok(kinematic.labels.some((l) => l.startsWith('gravity: x y = its dx')), kinematic.labels.join(' | '));
    assert.deepEqual([...new Set(kinematic.canvas.points.map((q) => q.stage))], [1, kinematic.stages]);
    const why = await page.$$eval('#xray .part.empty', (cells) => [...new Set(cells.map((c) => c.title))]);
    assert.deepEqual(why, ['this stage has no acceleration']);
    assert.equal((await downloadCsv(page)).text, trace(query, 'kinematic', 0));
    // Yoshida 4: three kicks.
    const yoshida = await openXray(page, 'yoshida4');
    assert.deepEqual(yoshida.labels, ['kick 1', 'kick 2', 'kick 3', 'result']);
  });
});

test('the phone layout: the table scrolls inside its panel, the page does not; dark mode; keyboard', async () => {
  await pageChecks(env, { hash: exercise, width: 390, height: 844 }, async (page) => {
    const r = await openXray(page, 'rk4');
    assert.equal(r.stages, 5);
    const sizes = await page.evaluate(() => {
      const scroll = document.querySelector('.xray-scroll');
      return { page: document.documentElement.scrollWidth, scroll: scroll.clientWidth, table: scroll.scrollWidth, font: getComputedStyle(document.querySelector('.xray-table td.num')).fontSize };
    });
    assert.ok(sizes.page <= 390, `the page keeps its width (${sizes.page} px)`);
    assert.ok(sizes.scroll <= 390 && sizes.table >= sizes.scroll, JSON.stringify(sizes));
    assert.ok(parseFloat(sizes.font) >= 12, `readable numbers (${sizes.font})`);
    await page.$eval('#xray', (e) => e.scrollIntoView());
    await screenshot(page, 'xray-phone-light');
    // Keyboard: the table's region takes the focus; Escape closes and gives the focus back.
    await page.focus('.xray-scroll');
    await page.keyboard.press('ArrowRight');
    assert.equal((await report(page)).open, true, 'the arrow scrolls the table, it does not step');
    await page.keyboard.press('Escape');
    assert.equal((await report(page)).open, false);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'xray-open');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.stepwise.debug.xray().open);
    // Escape from outside the panel (the focus on the page's body) closes it too.
    await page.evaluate(() => { document.activeElement.blur(); });
    await page.keyboard.press('Escape');
    assert.equal((await report(page)).open, false, 'Escape with the focus outside the X-ray');
  });
  await pageChecks(env, { hash: exercise, width: 1280, height: 800, scheme: 'dark' }, async (page) => {
    await openXray(page, 'rk4');
    const colours = await page.$eval('.xray-table', (t) => ({ fg: getComputedStyle(t).color, bg: getComputedStyle(t.closest('.xray')).backgroundColor }));
    assert.notEqual(colours.fg, colours.bg);
    assert.equal(colours.fg, 'rgb(230, 233, 238)', 'the dark theme\'s text colour');
    await page.$eval('#xray', (e) => e.scrollIntoView());
    await screenshot(page, 'xray-dark');
  });
});

// rk45 on a stiff spring at dt = 10 (ωh = 10⁷): its step takes 2000 substeps and gives up, 14,099
// stages (`stepwise trace` prints them all, 1.8 MB). The X-ray once built every stage into the
// table and the drawings (three long tasks, 3.4 s, then 0 stages shown).
export const hugeStep = 'scenario=spring&integrators=rk45&k=1000000&m=0.000001&rest=1&x0=2,0&b=0&dt=10&duration=100000';

test('a step of 14,099 stages: the panel says how many, shows the first 100 and the result; the CSV has them all', async () => {
  for (const [width, height, name] of [[1280, 800, 'xray-huge-desktop'], [390, 844, 'xray-huge-phone']]) {
    await pageChecks(env, { hash: hugeStep, width, height }, async (page) => {
      const r = await openXray(page, 'rk45');
      assert.equal(r.stages, 14099, 'every stage of the step counted');
      assert.deepEqual(r.shownStages, [...Array.from({ length: 100 }, (_, k) => k + 1), 14099], 'the first 100 and the result');
      assert.equal(r.labels.at(-1), 'result');
      assert.match(r.summary, /; 14,099 stages, the last its result\. The table and the drawings show the first 100 and the result; the CSV has all 14,099\./);
      assert.match(r.summary, /This step stops it \(needed more than 2000 rk45 substeps/);
      // The table: a row per stage shown (one body), and one row between saying what is left out.
      const gaps = await page.$$eval('#xray tr.xray-gap', (rows) => rows.map((row) => row.textContent));
      assert.deepEqual(gaps, ['… 13,998 more stages: the CSV has them all …']);
      assert.equal(r.rows.length, 101);
      assert.ok(r.canvas.points.length > 0 && r.canvas.points.length <= 101, `${r.canvas.points.length} points drawn`);
      assert.ok(r.canvas.points.some((q) => q.result), 'the result is drawn');
      const query = await config(page);
      if (width === 1280) {
        // The CSV: every stage, as stepwise trace prints it (its first rows to the digit; further
        // on, libm's last bits in rk45's step control, glibc's against musl's, grow through 2000
        // rejected substeps of a system this stiff, so there the numbers may differ, not the rows).
        const { name: file, text } = await downloadCsv(page);
        assert.equal(file, 'stepwise-trace-spring-rk45-step0.csv');
        assert.match(await page.textContent('.xray-status'), /^Downloaded stepwise-trace-spring-rk45-step0\.csv\.$/);
        const lines = text.trim().split('\n');
        const native = trace(query, 'rk45', 0).trim().split('\n');
        assert.equal(lines.length, 14100, 'the header and a row per stage');
        assert.equal(lines.length, native.length);
        assert.deepEqual(lines.slice(0, 1000), native.slice(0, 1000));
        const shape = (line) => line.split(',').slice(0, 4).join(',').replace(/\(h = [^)]*\)/, '(h = …)');
        assert.deepEqual(lines.map(shape), native.map(shape));
        assert.match(lines.at(-1), /^rk45,14099,result,0,/);
        // The table's result row is the CSV's last (shortest text against %.17g: the same numbers).
        const result = r.exact.at(-1).slice(-6).map(Number);
        assert.deepEqual(result, lines.at(-1).split(',').slice(4).map(Number));
      }
      await page.$eval('#xray', (e) => e.scrollIntoView());
      await screenshot(page, name);
      // A step: the lane stopped on it, so the next step has nothing to show, and says why.
      await page.click('#step');
      await page.waitForFunction(() => window.stepwise.debug.xray().steps === 1 && !window.stepwise.debug.xray().tracing);
      const after = await report(page);
      assert.equal(after.stages, 0);
      assert.match(after.summary, /stopped before this step \(needed more than 2000 rk45 substeps/);
    });
  }
});

// Issue 31 §2: the X-ray opened on the first lane even when it had diverged ("no next step to
// show"). It opens on the first lane that still runs; a stopped one stays one pick away.
test('the X-ray opens on the first lane that has not stopped', async () => {
  await pageChecks(env, { hash: 'preset=stiff_spring' }, async (page) => {
    const first = (await page.evaluate(() => window.stepwise.state())).integrators[0].id;
    await page.evaluate(() => window.stepwise.play());
    await page.waitForFunction((id) => window.stepwise.state().integrators.find((i) => i.id === id).diverged, first, { timeout: 60000 });
    await page.evaluate(() => window.stepwise.pause());
    const s = await page.evaluate(() => window.stepwise.state());
    const running = s.integrators.find((i) => !i.diverged);
    assert.ok(running, 'a lane still runs');
    const r = await openXray(page);
    assert.equal(r.integrator, running.id, `opened on ${r.integrator}, the first running lane is ${running.id} (${first} diverged)`);
    assert.doesNotMatch(r.summary, /no next step/);
    // The stopped lane is still there to pick, and says why it has nothing to show.
    await page.selectOption('#xray-lane', first);
    await page.waitForFunction((id) => { const x = window.stepwise.debug.xray(); return x.integrator === id && /no next step/.test(x.summary); }, first);
  });
});
