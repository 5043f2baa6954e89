// Scenes users build (scenario=scene, core/scene_spec.hpp) in the page: every scene preset opens,
// plays and draws with no console error and finite numbers; its link keeps the scene through a
// change of another key and reads back to the same config; a broken scene says which item and
// why (in English and German) and keeps the last good scene; screenshots at desktop, phone, dark
// and German sizes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, playOn, state, config, errors, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const scenePresets = ['scene_rope', 'scene_bridge', 'scene_cloth', 'scene_triple_pendulum', 'scene_heavy_chain',
  'scene_molecule'];

test('every scene preset opens, plays and draws finite numbers; its link names the scene', async () => {
  for (const preset of scenePresets) {
    await pageChecks(env, { hash: `preset=${preset}` }, async (page) => {
      const c = await config(page);
      assert.match(c, /&scene=[a-z]/, `${preset}: the normalised link holds the scene`);
      await playOn(page, 800);
      const s = await state(page);
      assert.ok(s.t > 0, `${preset} plays (t = ${s.t})`);
      for (const b of [...s.bodies, ...s.reference]) {
        assert.ok(Number.isFinite(b.x) && Number.isFinite(b.y), `${preset} ${b.integrator || 'reference'}: finite`);
      }
      assert.deepEqual(await errors(page), [], `${preset}: no message`);
      await screenshot(page, `scene-${preset}`);
    });
  }
});

test('a scene survives a change of another key, and the link reads back to the same config', async () => {
  await pageChecks(env, { hash: 'preset=scene_molecule' }, async (page) => {
    const before = await config(page);
    const scene = before.match(/&scene=([^&]*)/)[1];
    await page.fill('#param-b', '0.5');
    await page.locator('#param-b').dispatchEvent('change');
    const after = await config(page);
    assert.match(after, /&b=0\.5&/);
    assert.equal(after.match(/&scene=([^&]*)/)[1], scene, 'the scene is kept');
    await page.waitForFunction((s) => decodeURIComponent(location.hash).includes(s), scene);
  });
});

test('a broken scene names the item and why, in English and German, and keeps the default scene', async () => {
  await pageChecks(env, { hash: 'scenario=scene&scene=b:0,0;l:b0,b3' }, async (page) => {
    const [e] = await errors(page);
    assert.match(e, /item 2, 'l:b0,b3': b3 names no body made before it/);
    assert.match(await config(page), /&scene=a:0,0;b:0,-1;b:0,-2,vx:1;s:a0,b0,k:40;s:b0,b1,k:40$/);
  });
  await pageChecks(env, { hash: 'scenario=scene&scene=b:0,0;l:b0,b3&lang=de' }, async (page) => {
    const [e] = await errors(page);
    assert.match(e, /Element 2, 'l:b0,b3': b3 bezeichnet keinen Körper/);
  });
});

test('screenshots: the cloth on a phone and dark, the bridge in German', async () => {
  await pageChecks(env, { hash: 'preset=scene_cloth', width: 390, height: 844 }, async (page) => {
    await playOn(page, 1200);
    await screenshot(page, 'scene-cloth-phone');
  });
  await pageChecks(env, { hash: 'preset=scene_cloth', scheme: 'dark' }, async (page) => {
    await playOn(page, 1200);
    await screenshot(page, 'scene-cloth-dark');
  });
  await pageChecks(env, { hash: 'preset=scene_bridge&lang=de' }, async (page) => {
    await playOn(page, 1200);
    await screenshot(page, 'scene-bridge-de');
  });
});
