// Lanes with their own substeps and iterations (issue 21 §2) on the page: a lane's id is its
// written form (semi_implicit_euler@20), its name says its settings in the page's language, its
// cost per step counts its substeps, two lanes of one method stay apart in style, and the
// integrator boxes keep a lane's settings when another box changes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, playOn, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const lanes = 'semi_implicit_euler@20,semi_implicit_euler,rk4@2';
const legend = (page) => page.evaluate(() => [...document.querySelectorAll('.legend-row')]
  .filter((r) => r.dataset.lane).map((r) => ({
    id: r.dataset.lane,
    name: r.querySelector('.legend-name').textContent,
    evals: r.querySelector('.badge.evals').textContent,
  })));

test('lanes with settings: named with their settings, their cost counted, kept when a box changes', async () => {
  await pageChecks(env, { hash: `preset=damped_spring&integrators=${lanes}` }, async (page) => {
    assert.deepEqual(await legend(page), [
      { id: 'semi_implicit_euler@20', name: 'Semi-implicit Euler · 20 substeps', evals: '20 f/step' },
      { id: 'semi_implicit_euler', name: 'Semi-implicit Euler', evals: '1 f/step' },
      { id: 'rk4@2', name: 'Runge–Kutta 4 · 2 substeps', evals: '8 f/step' },
    ]);
    // Two lanes of one method: a shade of the method's colour, another dash.
    const styles = await page.evaluate(async () => {
      const { laneStyle } = window.stepwise.debug.modules['common/palette.js'];
      return ['semi_implicit_euler@20', 'semi_implicit_euler'].map((id) => laneStyle(id, 'light'));
    });
    assert.equal(styles[1].colour, '#0072B2');
    assert.notEqual(styles[0].colour, styles[1].colour);
    assert.notDeepEqual(styles[0].dash, styles[1].dash);
    // The legend's swatch is the lane's own shade.
    const swatch = await page.evaluate(() => document.querySelector('.legend-row').style.getPropertyValue('--lane').trim());
    assert.equal(swatch, styles[0].colour);
    await playOn(page, 600);
    const s = await page.evaluate(() => window.stepwise.state());
    assert.ok(s.steps > 10, `it runs (${s.steps} steps)`);
    // Ticking Heun keeps the settings of the lanes already there.
    await page.evaluate(() => { const box = [...document.querySelectorAll('.family input[type=checkbox]')].find((b) => b.id.endsWith('heun')); box.click(); });
    await page.waitForFunction(() => /heun/.test(window.stepwise.config()));
    assert.match(await page.evaluate(() => window.stepwise.config()), /&integrators=semi_implicit_euler@20,semi_implicit_euler,rk4@2,heun&/);
    await screenshot(page, 'lane-settings');
  });
});

test('lanes with settings in German; a bad lane names itself in German', async () => {
  await pageChecks(env, { hash: `preset=damped_spring&integrators=${lanes}&lang=de` }, async (page) => {
    const names = (await legend(page)).map((r) => r.name);
    assert.match(names[0], / · 20 Teilschritte$/);
    assert.match(names[2], / · 2 Teilschritte$/);
  });
  await pageChecks(env, { hash: 'preset=damped_spring&integrators=rk4@2x3,heun&lang=de' }, async (page) => {
    const errors = await page.evaluate(() => window.stepwise.errors());
    assert.deepEqual(errors, ["integrators: 'rk4@2x3': rk4 hat keine Iterationen (nur die Löser der Spielphysik haben welche); rk4@2 schreiben"]);
  });
});

// The Integrators panel (issue 31 §2): each lane with its settings, another lane of a method, its
// substeps and iterations set within the core's bounds (limits.max_lane_substeps,
// max_lane_iterations, their product at most max_lane_passes), a refused edit keeping the lanes,
// and unticking and ticking a method again bringing its lanes back, not one plain lane.
const laneRows = (page) => page.$$eval('#lane-list .lane-item', (items) => items.map((li) => ({
  id: li.dataset.lane, name: li.querySelector('.lane-name').textContent,
  substeps: li.querySelector('input[id$="-substeps"]').value, iterations: li.querySelector('input[id$="-iterations"]')?.value ?? null,
})));
const lanesIn = (page) => page.evaluate(() => /[?&]integrators=([^&]*)/.exec(window.stepwise.config())[1]);
async function setField(page, selector, value) {
  await page.fill(selector, String(value));
  await page.press(selector, 'Enter');
}

test('the Integrators panel: lanes with their settings, edited within bounds, another lane, ticked back with their settings', async () => {
  await pageChecks(env, { hash: 'preset=heavy_chain_60hz' }, async (page) => {
    assert.deepEqual(await laneRows(page), [
      { id: 'xpbd@1x20', name: 'Extended PBD (XPBD) · 1 substep × 20 iterations', substeps: '1', iterations: '20' },
      { id: 'xpbd@20x1', name: 'Extended PBD (XPBD) · 20 substeps × 1 iteration', substeps: '20', iterations: '1' },
      { id: 'soft_step@4', name: 'Soft step (Box2D v3) · 4 substeps × 1 iteration', substeps: '4', iterations: '1' },
      { id: 'sequential_impulses', name: 'Sequential impulses', substeps: '1', iterations: '8' },
    ]);
    // The bounds: 1000 substeps, 1000 iterations, 10 000 passes a step.
    const bounds = await page.$$eval('#lane-list input', (list) => list.map((i) => `${i.id}:${i.min}-${i.max}`));
    assert.deepEqual(bounds.slice(0, 4), ['lane-0-substeps:1-500', 'lane-0-iterations:1-1000', 'lane-1-substeps:1-1000', 'lane-1-iterations:1-500']);
    // XPBD 20 × 2.
    await setField(page, '#lane-1-iterations', 2);
    await page.waitForFunction(() => /integrators=xpbd@1x20,xpbd@20x2,/.test(window.stepwise.config()));
    assert.equal((await laneRows(page))[1].name, 'Extended PBD (XPBD) · 20 substeps × 2 iterations');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'lane-1-iterations', 'the focus stays on the field');
    // Beyond the bound: refused, said, the lanes kept.
    await setField(page, '#lane-1-iterations', 600);
    assert.match(await page.textContent('#lane-list-error'), /^iterations of Extended PBD \(XPBD\) · 20 substeps × 2 iterations must be a whole number from 1 to 500; got '600'\. The lanes stay as they were\.$/);
    assert.equal(await page.getAttribute('#lane-1-iterations', 'aria-invalid'), 'true');
    assert.equal(await lanesIn(page), 'xpbd@1x20,xpbd@20x2,soft_step@4,sequential_impulses');
    // The same settings as another lane: the core refuses it, the list says so.
    await setField(page, '#lane-1-substeps', 1);
    await setField(page, '#lane-1-iterations', 20);
    await page.waitForFunction(() => document.getElementById('lane-list-error').textContent !== '');
    assert.match(await page.textContent('#lane-list-error'), /xpbd@1x20/);
    assert.equal(await lanesIn(page), 'xpbd@1x20,xpbd@1x2,soft_step@4,sequential_impulses');
    // Another lane of sequential impulses: twice the substeps, after it; then removed again.
    await page.click('#lane-3-add');
    await page.waitForFunction(() => /sequential_impulses,sequential_impulses@2(&|$)/.test(window.stepwise.config()));
    assert.equal((await laneRows(page))[4].name, 'Sequential impulses · 2 substeps × 8 iterations');
    await page.click('#lane-4-remove');
    await page.waitForFunction(() => !/sequential_impulses@2/.test(window.stepwise.config()));
    // Unticking XPBD puts both of its lanes aside; ticking it again brings both back.
    await page.uncheck('#int-xpbd');
    await page.waitForFunction(() => !/xpbd@/.test(window.stepwise.config()));
    assert.equal(await lanesIn(page), 'soft_step@4,sequential_impulses');
    await page.check('#int-xpbd');
    await page.waitForFunction(() => /xpbd@/.test(window.stepwise.config()));
    assert.equal(await lanesIn(page), 'soft_step@4,sequential_impulses,xpbd@1x20,xpbd@1x2');
    // rk45 chooses its own steps: no settings to set.
    await page.check('#int-rk45');
    await page.waitForFunction(() => /rk45/.test(window.stepwise.config()));
    const rk45 = (await laneRows(page)).findIndex((r) => r.id === 'rk45');
    assert.equal(await page.isDisabled(`#lane-${rk45}-substeps`), true);
    await screenshot(page, 'i31-lane-settings-panel');
  });
});

test('the Integrators panel in German', async () => {
  await pageChecks(env, { hash: 'preset=heavy_chain_60hz&lang=de' }, async (page) => {
    assert.equal(await page.textContent('#lane-list-title'), 'Bahnen: jedes Verfahren mit seinen Teilschritten × Iterationen');
    assert.equal(await page.textContent('#lane-0-add'), '+ noch eine');
    assert.equal(await page.getAttribute('#lane-0-remove', 'aria-label'), 'Erweiterte PBD (XPBD) · 1 Teilschritt × 20 Iterationen entfernen');
    await screenshot(page, 'i31-lane-settings-panel-de');
  });
});
