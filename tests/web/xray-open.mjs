// Opening the stage X-ray in a test page (xray.test.mjs, xray-sheet.test.mjs).
import { sleep } from './helpers.mjs';

// What the X-ray reports (web/xray/xray.js report()).
export const report = (page) => page.evaluate(() => window.stepwise.debug.xray());

// Opens the X-ray (paused; the button closes it when it is open) for integrator `id`, or picks
// `id` in the open one, and waits until it has drawn on the canvas.
export async function openXray(page, id) {
  await page.evaluate(() => window.stepwise.pause());
  if (!(await report(page)).open) await page.click('#xray-open');
  await page.waitForSelector('#xray:not([hidden])');
  if (id) await page.selectOption('#xray-lane', id);
  for (let k = 0; k < 100; ++k) {
    const r = await report(page);
    if (r.open && r.integrator === (id || r.integrator) && r.canvas && r.canvas.points.length > 0) return r;
    await sleep(50);
  }
  throw new Error(`the X-ray of ${id} did not draw: ${JSON.stringify(await report(page)).slice(0, 400)}`);
}
