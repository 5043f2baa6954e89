// scratch: measure longest task of a link (not committed)
import { startBrowser, longTaskRecorder, sleep, mainThreadTasks } from './helpers.mjs';
const env = await startBrowser();
const startMark = () => performance.mark('stepwise-test:start');
const cases = JSON.parse(process.argv[2]);
for (const c of cases) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text().slice(0, 200)}`); });
  await page.addInitScript(startMark);
  await page.addInitScript(longTaskRecorder);
  await env.browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing', 'devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  let trace;
  try {
    await page.goto(env.server.url + (c.path || '') + (c.hash ? `#${c.hash}` : ''));
    await page.evaluate(() => window.stepwise.ready);
    if (c.act) await page.evaluate(c.act);
    if (c.play !== false) await page.evaluate(() => window.stepwise.play());
    await sleep(c.playMs || 2500);
  } finally {
    trace = JSON.parse((await env.browser.stopTracing()).toString());
  }
  if (c.dump) (await import('node:fs')).writeFileSync(c.dump, JSON.stringify(trace));
  const tasks = mainThreadTasks(trace);
  const sorted = [...tasks].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 4);
  const extra = c.after ? await page.evaluate(c.after) : '';
  console.log(`${c.name || c.hash.slice(0, 80)}: ${sorted.map((t) => `${t.cpuMs.toFixed(1)}cpu/${t.wallMs.toFixed(1)}w@${Math.round(t.at)}`).join(' ')} ${problems.join(' | ')} ${extra ? JSON.stringify(extra).slice(0, 300) : ''}`);
  await context.close();
}
await env.close();
