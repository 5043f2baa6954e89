// What a soak of the page does (scripts/measure-soak.mjs, tests/web/memory.test.mjs): the
// configurations it changes to in turn, and a round in the scene editor.
const all15 = 'explicit_euler,semi_implicit_euler,semi_implicit_euler_x,implicit_euler,newton,heun,midpoint,rk4,' +
  'leapfrog,stormer_verlet,velocity_verlet,yoshida4,kinematic,kinematic_avg,rk45';

export const soakConfigs = [
  'preset=damped_spring',
  `preset=elastic_pendulum_chaos&integrators=${all15}`,
  'preset=scene_cloth',
  'scenario=chain&links=64&integrators=xpbd@20x1,pbd@20x1,soft_step,vbd@4x4,reference',
  `scenario=spring&cloud=100000&integrators=${all15}`,
  'preset=rope',
  'preset=stiff_spring&view=convergence',
  'preset=scene_bridge',
  'scenario=two_spring&b=0.3&view=stability',
  'preset=hanging_chain',
];

// Opens the scene editor on the default scene, adds two bodies and a rod between them, and
// runs the result (Done).
export async function editorRound(page) {
  await page.click('#edit-scene');
  await page.waitForFunction(() => window.stepwise.debug.editor()?.open === true && window.stepwise.debug.editor().map);
  const at = async (x, y) => {
    const { map } = await page.evaluate(() => window.stepwise.debug.editor());
    const r = await page.locator('#view').boundingBox();
    return { x: r.x + map.ox + x * map.scale, y: r.y + map.oy - y * map.scale };
  };
  await page.click('[data-tool="body"]');
  for (const [x, y] of [[1, -0.6], [1.6, -0.6]]) { const p = await at(x, y); await page.mouse.click(p.x, p.y); }
  await page.click('[data-tool="links"]');
  for (const [x, y] of [[1, -0.6], [1.6, -0.6]]) { const p = await at(x, y); await page.mouse.click(p.x, p.y); }
  await page.click('#edit-done');
  await page.waitForFunction(() => window.stepwise.debug.editor().open === false);
}
