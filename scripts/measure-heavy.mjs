// Measures the page on the heaviest links the limits accept (issue 31 §4; not a test): for each,
// one load traced in headless Chromium from the page's first script, the first frame, then 4 s
// of play at 1×. Reports the longest main-thread task while loading (up to the first frame) and
// while playing, in thread CPU time (the page's own work, which a shared machine's neighbours do
// not add to) and in wall time, and the most work one call into the simulation did, in the core's
// units (window.stepwise.debug.work(): force evaluations times what one visits, against the
// budget max_work_per_call of wasm_bindings/playground.hpp). Writes its section of
// docs/performance-web.md between its two marker lines.
//   bash scripts/build-site.sh && node scripts/measure-heavy.mjs [--only=name,…]
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { startBrowser, root, sleep, mainThreadTasks } from '../tests/web/helpers.mjs';
import { heavyLinks } from '../tests/web/heavy-links.mjs';

export const heavyBegin = '<!-- scripts/measure-heavy.mjs writes from here -->';
export const heavyEnd = '<!-- scripts/measure-heavy.mjs writes up to here -->';

const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const playMs = 4000;
const env = await startBrowser();

async function measure(link) {
  const context = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => performance.mark('stepwise-test:start'));
  await env.browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
  let trace, work, firstFrameAt, state;
  try {
    await page.goto(`${env.server.url}#${link.hash}`);
    await page.evaluate(() => window.stepwise.ready);
    firstFrameAt = await page.evaluate(() => performance.now());
    await page.evaluate(() => window.stepwise.play());
    await sleep(playMs);
    work = await page.evaluate(() => window.stepwise.debug.work());
    state = await page.evaluate(() => { const s = window.stepwise.state(); return { steps: s.steps, t: s.t }; });
  } finally {
    trace = JSON.parse((await env.browser.stopTracing()).toString());
  }
  await context.close();
  const tasks = mainThreadTasks(trace);
  const loading = tasks.filter((t) => t.at <= firstFrameAt), playing = tasks.filter((t) => t.at > firstFrameAt);
  const longest = (list, key) => list.reduce((m, t) => Math.max(m, t[key]), 0);
  return {
    loadCpu: longest(loading, 'cpuMs'), loadWall: longest(loading, 'wallMs'),
    playCpu: longest(playing, 'cpuMs'), playWall: longest(playing, 'wallMs'),
    over50: tasks.filter((t) => t.cpuMs > 50).length, work, ...state,
  };
}

const loadBefore = os.loadavg()[0];
const rows = [];
for (const link of heavyLinks.filter((l) => !only || only.includes(l.name))) {
  const m = await measure(link);
  console.log(`${link.name}: loading ${m.loadCpu.toFixed(1)} ms CPU (${m.loadWall.toFixed(1)} wall); playing ` +
    `${m.playCpu.toFixed(1)} ms CPU (${m.playWall.toFixed(1)} wall); tasks over 50 ms CPU: ${m.over50}; ` +
    `most work of a call ${m.work.most} (cap ${m.work.cap}); ${m.steps} steps in ${playMs / 1000} s`);
  rows.push({ link, m });
}
await env.close();
const loadAfter = os.loadavg()[0];

if (!only) {
  const ms = (x) => x.toFixed(1);
  const table = rows.map(({ link, m }) => `| ${link.title} | ${ms(m.loadCpu)} (${ms(m.loadWall)}) | ${ms(m.playCpu)} (${ms(m.playWall)}) | ` +
    `${m.over50} | ${Math.round(m.work.most).toLocaleString('en')} | ${m.steps} |`).join('\n');
  const section = `${heavyBegin}

## The heaviest links: the longest task

Measured by \`node scripts/measure-heavy.mjs\` on ${new Date().toISOString().slice(0, 10)} (load average ${loadBefore.toFixed(1)} before,
${loadAfter.toFixed(1)} after, on ${os.cpus().length} cores), 1440 × 900, one load each traced from the page's first
script: the longest main-thread task while loading (to the first frame) and over ${playMs / 1000} s of play at 1×,
in thread CPU time (wall time in brackets, which on a shared machine includes the neighbours'),
and the most work one call into the simulation did, in the core's units (force evaluations times
what one evaluation visits: bodies, force terms, a written law's operations on every body). A
call does at most max_work_per_call = ${rows[0].m.work.cap.toLocaleString('en')} of it plus one unit (a substep of one lane, or
a few of an rk45 step's substeps; wasm_bindings/playground.hpp), and a step that costs more goes
on over the next frames, the picture showing the last whole step and "slowed" (the links:
tests/web/heavy-links.mjs).

| link | loading: longest task, ms CPU (wall) | playing: longest task, ms CPU (wall) | tasks over 50 ms CPU | most work of a call | steps in ${playMs / 1000} s |
| --- | ---: | ---: | ---: | ---: | ---: |
${table}

${heavyEnd}`;
  const doc = path.join(root, 'docs', 'performance-web.md');
  const text = fs.readFileSync(doc, 'utf8');
  const a = text.indexOf(heavyBegin), b = text.indexOf(heavyEnd);
  const marker = '<!-- scripts/measure-chains.mjs writes what follows -->';
  const next = a >= 0 && b > a ? text.slice(0, a) + section + text.slice(b + heavyEnd.length)
    : text.replace(marker, `${section}\n\n${marker}`);
  fs.writeFileSync(doc, next);
}
