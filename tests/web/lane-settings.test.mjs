// Lanes with their own substeps and iterations (issue 21 §2) on the page: a lane's id is its
// written form (semi_implicit_euler@20), its name says its settings in the page's language, its
// cost per step counts its substeps, two lanes of one method stay apart in style, and the
// integrator boxes keep a lane's settings when another box changes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, playFor, screenshot } from './helpers.mjs';

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
    await playFor(page, 600);
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
