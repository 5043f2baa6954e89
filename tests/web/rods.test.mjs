// Rigid rods on the page (issue 31 §2): System → Chain after the spring's four force-based methods,
// or a rod added in the scene editor, opens with lanes that step rods (the core's solvers, the
// table's solves_constraints) beside the reference, instead of four lanes that never start; and a
// force-based lane on rigid links names those solvers beside the core's reason, in English and German.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, config, playOn, playUntil, screenshot, framesPass } from './helpers.mjs';
import { valueOf } from '../../web/common/query.js';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const solverIds = (page) => page.evaluate(() => window.stepwise.integrators().filter((i) => i.solves_constraints).map((i) => i.id));
const lanesOf = async (page) => valueOf(await config(page), 'integrators').split(',').filter((id) => id !== 'reference');

// Every lane moves: none stopped, each has left its start (a pendulum released at an angle).
async function assertLanesStep(page, label) {
  // Played to t = 0.2 s (waited for, however busy the machine), not for a time.
  await playUntil(page, 0.2);
  const s = await page.evaluate(async () => { await window.stepwise.settled(); return window.stepwise.state(); });
  assert.ok(s.steps > 10, `${label}: it ran (${s.steps} steps)`);
  assert.ok(s.integrators.length >= 3, `${label}: ${s.integrators.length} lanes`);
  for (const lane of s.integrators) assert.equal(lane.stopReason, '', `${label}: ${lane.id} steps (${lane.stopReason})`);
  // The energy and error plots are there: there are lanes to show.
  for (const id of ['plot-energy', 'plot-error']) {
    assert.equal(await page.evaluate((id) => document.getElementById(id).closest('figure').hidden, id), false, `${label}: ${id} shown`);
  }
}

test('System → Chain after the spring\'s defaults opens with the solvers beside the reference', async () => {
  await pageChecks(env, { width: 1280, height: 800 }, async (page) => {
    const solvers = await solverIds(page);
    assert.deepEqual(solvers, ['pbd', 'xpbd', 'soft_step', 'sequential_impulses', 'vbd'], 'the core\'s solvers, in its table\'s order');
    assert.deepEqual(await lanesOf(page), ['explicit_euler', 'semi_implicit_euler', 'velocity_verlet', 'rk4'], 'the page opens on four force-based methods');
    await page.selectOption('#scenario', 'chain');
    await page.waitForFunction(() => /scenario=chain/.test(window.stepwise.config()));
    assert.deepEqual(await lanesOf(page), solvers);
    await assertLanesStep(page, 'chain');
    await screenshot(page, 'i31-rods-chain-1280');
    // Back to the spring: the solvers are kept (they step springs too), and a system whose kept
    // lanes step rods keeps them on the way to the pendulum.
    await page.selectOption('#scenario', 'pendulum');
    await page.waitForFunction(() => /scenario=pendulum/.test(window.stepwise.config()));
    assert.deepEqual(await lanesOf(page), solvers);
  });
});

// A shared link to a rigid system that names no integrators (index.html#scenario=chain) opens
// with the core's default lanes for it, the same as the CLI's and the menu's: the solvers, which
// step rods. An explicit integrators= is kept as written (integrators=reference: the reference
// alone, linked-systems.test.mjs).
test('#scenario=chain opens with lanes that step it, named in the Integrators summary', async () => {
  await pageChecks(env, { hash: 'scenario=chain', width: 1280, height: 800 }, async (page) => {
    const solvers = await solverIds(page);
    assert.deepEqual(await lanesOf(page), solvers, 'the core\'s default lanes of a rigid system');
    const start = await page.evaluate(async () => { await window.stepwise.settled(); return window.stepwise.state(); });
    await assertLanesStep(page, '#scenario=chain');
    const s = await page.evaluate(async () => { await window.stepwise.settled(); return window.stepwise.state(); });
    assert.deepEqual(s.integrators.map((l) => l.id), solvers);
    for (const id of solvers) {
      const from = start.bodies.find((b) => b.integrator === id && b.body === 1), to = s.bodies.find((b) => b.integrator === id && b.body === 1);
      assert.ok(Math.hypot(to.x - from.x, to.y - from.y) > 0.01, `${id}: its end body moved (${JSON.stringify(from)} → ${JSON.stringify(to)})`);
    }
    assert.doesNotMatch(await page.evaluate(() => document.body.innerText), /cannot step a rigid link/);
    const names = await page.evaluate(() => window.stepwise.integrators().filter((i) => i.solves_constraints).map((i) => i.name));
    assert.equal(await page.textContent('#integrators-chosen'), names.join(', '));
    await screenshot(page, 'i31-rods-link-chain-1280');
  });
  await pageChecks(env, { hash: 'scenario=chain&lang=de', width: 1280, height: 800 }, async (page) => {
    const names = await page.evaluate(() => window.stepwise.integrators().filter((i) => i.solves_constraints).map((i) => i.name));
    assert.equal(await page.textContent('#integrators-chosen'), names.join(', '));
    assert.ok(names.includes('Erweiterte PBD (XPBD)'), `the German names: ${names}`);
    await playOn(page, 500);
    assert.doesNotMatch(await page.evaluate(() => document.body.innerText), /kann kein starres Glied rechnen/);
    await screenshot(page, 'i31-rods-link-chain-de');
  });
});

test('System → Bridge keeps kept lanes that step rods and adds none; the spring keeps force-based ones', async () => {
  await pageChecks(env, { hash: 'scenario=spring&integrators=rk4,xpbd@20x1' }, async (page) => {
    await page.selectOption('#scenario', 'bridge');
    await page.waitForFunction(() => /scenario=bridge/.test(window.stepwise.config()));
    assert.deepEqual(await lanesOf(page), ['rk4', 'xpbd@20x1'], 'one lane steps rods: the choice is kept');
  });
  await pageChecks(env, { hash: 'scenario=projectile&integrators=rk4,heun' }, async (page) => {
    await page.selectOption('#scenario', 'spring');
    await page.waitForFunction(() => /scenario=spring&/.test(window.stepwise.config()));
    assert.deepEqual(await lanesOf(page), ['rk4', 'heun'], 'no rods: the lanes are kept');
  });
});

test('a rod added in the scene editor turns force-based lanes into the solvers', async () => {
  await pageChecks(env, { hash: 'scenario=scene&integrators=semi_implicit_euler,rk4' }, async (page) => {
    await page.click('#edit-scene');
    await page.waitForFunction(() => window.stepwise.debug.editor()?.open === true && window.stepwise.debug.editor().map);
    await framesPass(page, 5);  // laid out
    const e = await page.evaluate(() => window.stepwise.debug.editor());
    const at = async ({ x, y }) => {
      const r = await page.locator('#view').boundingBox();
      const { map } = await page.evaluate(() => window.stepwise.debug.editor());
      return { x: r.x + map.ox + x * map.scale, y: r.y + map.oy - y * map.scale };
    };
    // The default scene's anchor and first body, joined by a rod with two clicks.
    const anchor = e.model.anchors[0], body = e.model.bodies[0];
    await page.click('[data-tool="links"]');
    for (const p of [anchor, body]) { const q = await at(p); await page.mouse.click(q.x, q.y); }
    await page.waitForFunction(() => window.stepwise.debug.editor().model.links.length === 1);
    await page.click('#play');
    await page.waitForFunction(() => /xpbd/.test(window.stepwise.config()));
    assert.deepEqual(await lanesOf(page), await solverIds(page));
    await page.evaluate(() => window.stepwise.pause());
    await assertLanesStep(page, 'scene with a rod');
  });
});

test('a force-based lane on rigid links names the solvers that step rods, in English and German', async () => {
  for (const lang of ['en', 'de']) {
    await pageChecks(env, { hash: `scenario=chain&integrators=rk4,xpbd&lang=${lang}` }, async (page) => {
      const names = await page.evaluate(() => window.stepwise.integrators().filter((i) => i.solves_constraints).map((i) => i.name));
      const status = await page.textContent('.legend-row[data-lane="rk4"] .status');
      const core = lang === 'en'
        ? 'cannot step a rigid link: it integrates forces and a rod has no force law (set compliance above 0 to make the links springs, or compare with the reference)'
        : 'kann kein starres Glied rechnen: das Verfahren integriert Kräfte, und eine Stange hat kein Kraftgesetz (compliance über 0 setzen, damit die Glieder Federn sind, oder mit der Referenz vergleichen)';
      const tail = lang === 'en' ? 'methods that step rods' : 'Verfahren, die starre Glieder rechnen';
      assert.equal(status, `${core}; ${tail}: ${names.join(', ')}`);
      if (lang === 'de') assert.ok(names.includes('Erweiterte PBD (XPBD)'), `the German names: ${names}`);
      await screenshot(page, `i31-rods-message-${lang}`);
    });
  }
});
