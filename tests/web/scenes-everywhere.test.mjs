// A built scene (scenario=scene), with and without a force you write, in everything the page does
// (issue 22 §1: "every method and lane setting, plot, view, the X-ray, export, embeds, lessons and
// German work on a built scene, with the right reference and its name in the legend"): the
// convergence, stability and cloud views, the X-ray, the CSV download against `stepwise run`, an
// embed driven by postMessage, the legend's reference, German.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startBrowser, startHostServer, pageChecks, openPage, playOn, state, config, errors, finished, screenshot } from './helpers.mjs';
import { openXray } from './xray-open.mjs';
import { cliRun, compareRunText } from './run-text.mjs';

let env, host;
before(async () => { env = await startBrowser(); host = await startHostServer(); });
after(async () => { await env?.close(); await host?.close(); });

test('convergence on the driven oscillator you write: every method at its order, against rk45', async () => {
  await pageChecks(env, { hash: 'preset=scene_driven&integrators=explicit_euler,velocity_verlet,rk4,heun&view=convergence' }, async (page) => {
    const r = await finished(page, 120000);
    const measured = Object.fromEntries(r.rows.map((row) => [row.id, Number(row.measured)]));
    // A force of time: a method that took its stages at the step's start would fall to order 1.
    assert.ok(Math.abs(measured.explicit_euler - 1) < 0.2, `explicit Euler ${measured.explicit_euler}`);
    assert.ok(Math.abs(measured.velocity_verlet - 2) < 0.2, `velocity Verlet ${measured.velocity_verlet}`);
    assert.ok(Math.abs(measured.heun - 2) < 0.2, `Heun ${measured.heun}`);
    assert.ok(Math.abs(measured.rk4 - 4) < 0.3, `RK4 ${measured.rk4}`);
    assert.deepEqual(await errors(page), []);
    await screenshot(page, 'scene-driven-convergence');
  });
});

test('stability on the Duffing spring: the stiffest mode at the start, ω = √(c1 + 3·c2·x²) = √17.5', async () => {
  await pageChecks(env, { hash: 'preset=scene_duffing&integrators=semi_implicit_euler,rk4,implicit_euler&view=stability' }, async (page) => {
    const r = await finished(page);
    const row = Object.fromEntries(r.rows.map((x) => [x.id, x]));
    // 2 / √17.5 = 0.478 s, 2.83 / √17.5 = 0.676 s.
    assert.match(row.semi_implicit_euler.largestDt, /^0\.478? s$/, row.semi_implicit_euler.largestDt);
    assert.match(row.rk4.largestDt, /^0\.676? s$/, row.rk4.largestDt);
    assert.equal(row.implicit_euler.largestDt, 'any dt');
    assert.equal(row.rk4.current, 'stable');
  });
});

test('the phase cloud of a built scene with a written force: copies stepped one by one, every point finite', async () => {
  await pageChecks(env, { hash: 'preset=scene_duffing&integrators=velocity_verlet,explicit_euler&cloud=400&view=cloud' }, async (page) => {
    await page.waitForFunction(() => (window.stepwise.debug.cloud()?.cells?.length ?? 0) > 0, null, { timeout: 30000 });
    await playOn(page, 1000);
    const cloud = await page.evaluate(() => window.stepwise.debug.cloud());
    assert.ok(cloud.draws > 0, 'the cloud is drawn');
    const s = await state(page);
    assert.ok(s.t > 0.2, `it plays (t = ${s.t})`);
    assert.deepEqual(await errors(page), []);
    await screenshot(page, 'scene-duffing-cloud');
  });
});

test('the X-ray of a built scene: XPBD\'s stages on the rope, RK4\'s on the driven oscillator', async () => {
  for (const [hash, id] of [['preset=scene_rope', 'xpbd@20x1'], ['preset=scene_driven', 'rk4'], ['preset=scene_molecule', 'velocity_verlet']]) {
    await pageChecks(env, { hash }, async (page) => {
      for (let i = 0; i < 5; ++i) await page.evaluate(() => window.stepwise.step());
      const r = await openXray(page, id);
      assert.equal(r.integrator, id);
      assert.ok(r.canvas.points.length > 0, `${hash}: the X-ray draws`);
      for (const p of r.canvas.points) assert.ok(Number.isFinite(p.x ?? p[0]) && Number.isFinite(p.y ?? p[1]), `${hash}: finite points`);
    });
  }
});

test('the CSV download of a built scene (links, springs, a written force) equals stepwise run', async () => {
  for (const hash of ['preset=scene_molecule', 'preset=scene_duffing', 'preset=scene_heavy_chain']) {
    const { page, context, problems } = await openPage(env, { hash });
    try {
      for (let i = 0; i < 30; ++i) await page.evaluate(() => window.stepwise.step());
      const s = await state(page);
      const link = await config(page);
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
      const text = fs.readFileSync(await download.path(), 'utf8');
      const { lines } = compareRunText(text, cliRun(link, { steps: s.steps, every: 1 }), 'csv', hash);
      assert.ok(lines > 30, `${hash}: ${lines} lines`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('the legend names a built scene\'s reference; German names it too', async () => {
  await pageChecks(env, { hash: 'preset=scene_triple_pendulum' }, async (page) => {
    const legend = await page.textContent('#legend');
    assert.match(legend, /Dormand–Prince|reference/i, legend.slice(0, 300));
  });
  await pageChecks(env, { hash: 'preset=scene_triple_pendulum&lang=de' }, async (page) => {
    const legend = await page.textContent('#legend');
    assert.match(legend, /Dormand–Prince|Referenz/i, legend.slice(0, 300));
    await screenshot(page, 'scene-triple-pendulum-de');
  });
});

test('an embed of a built scene: ready with its link, a postMessage sets another scene with a written force', async () => {
  const context = await env.browser.newContext({ viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  try {
    const src = `${env.server.url}embed.html?ui=none#preset=scene_bridge`;
    await page.goto(`${host.url}host.html?w=640&h=400&src=${encodeURIComponent(src)}`);
    await page.waitForFunction(() => window.messages.some((m) => m.data && m.data.type === 'stepwise:ready'), null, { timeout: 15000 });
    const ready = await page.evaluate(() => window.messages.find((m) => m.data.type === 'stepwise:ready').data);
    assert.match(ready.config, /&scene=a:-3,0;a:3,0;rope:a0,a1,n:10,m:0\.5,len:0\.65$/);
    const query = 'preset=scene_duffing&integrators=explicit_euler,velocity_verlet';
    await page.evaluate((q) => window.send({ type: 'stepwise:set', query: q }), query);
    await page.waitForFunction(() => window.messages.some((m) => m.data.type === 'stepwise:state' && /&fx=/.test(m.data.config)), null, { timeout: 15000 });
    for (let i = 0; i < 20; ++i) await page.evaluate(() => window.send({ type: 'stepwise:step' }));
    await page.waitForFunction(() => window.messages.some((m) => m.data.type === 'stepwise:state' && m.data.steps === 20), null, { timeout: 15000 });
    const last = await page.evaluate(() => window.messages.filter((m) => m.data.type === 'stepwise:state').at(-1).data);
    assert.match(last.config, /&scene=b:1\.5,0&fx=-c1\*x-c2\*x\^3&c1=4&c2=2$/);
    assert.deepEqual(last.errors, []);
    assert.deepEqual(last.integrators.map((l) => [l.id, l.diverged]), [['explicit_euler', false], ['velocity_verlet', false]]);
    assert.ok(last.integrators.every((l) => Number.isFinite(l.error) && Number.isFinite(l.drift)));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
