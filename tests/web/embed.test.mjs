// The embed mode and its postMessage API, from a host page on another origin (a second loopback
// server: another port is another origin), as a tutorial page would use it. Also the lesson page
// and the Embed dialog.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startBrowser, startHostServer, openPage, framesPass, screenshot, root } from './helpers.mjs';
import { startServer } from '../../scripts/serve.mjs';

let env, host;
before(async () => {
  env = await startBrowser();
  host = await startHostServer();
});
after(async () => { await env?.close(); await host?.close(); });

const lesson = 'v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler&dt=0.1&duration=20&m=1&k=10&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0';

// The host page with the frame at `src` (relative to the site); returns the page, the frame and
// every console message and page error of both.
async function openHost(src, { w = 640, h = 400, scheme = 'light', viewport = { width: 900, height: 700 } } = {}) {
  const context = await env.browser.newContext({ viewport, colorScheme: scheme });
  const page = await context.newPage();
  const consoleMessages = [], problems = [];
  page.on('console', (m) => {
    consoleMessages.push({ type: m.type(), text: m.text() });
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss(); });
  const url = `${host.url}host.html?w=${w}&h=${h}&src=${encodeURIComponent(env.server.url + src)}`;
  await page.goto(url);
  await page.waitForFunction(() => window.messages.some((m) => m.data && m.data.type === 'stepwise:ready'), null, { timeout: 15000 });
  const frame = page.frames().find((f) => f.url().startsWith(env.server.url));
  return { page, frame, context, consoleMessages, problems };
}

const messages = (page, type) => page.evaluate((t) => window.messages.filter((m) => m.data.type === t).map((m) => m.data), type);
const last = async (page, type) => (await messages(page, type)).at(-1);
// Posts a command, noting how many state messages had come before it: its answer may arrive
// before the test asks for it.
const send = (page, message) => page.evaluate((m) => {
  window.statesBeforeCommand = window.messages.filter((e) => e.data.type === 'stepwise:state').length;
  window.send(m);
}, message);
// The next state message after the last command (each command is followed by one), or after now.
async function nextState(page) {
  const count = await page.evaluate(() => {
    const n = window.statesBeforeCommand ?? window.messages.filter((e) => e.data.type === 'stepwise:state').length;
    window.statesBeforeCommand = undefined;
    return n;
  });
  await page.waitForFunction((n) => window.messages.filter((m) => m.data.type === 'stepwise:state').length > n, count);
  return last(page, 'stepwise:state');
}

test('ready, then state messages: set, play, pause, step, reset drive the frame', async () => {
  const h = await openHost(`embed.html?ui=none#${lesson}`);
  const { page, frame } = h;
  try {
    const ready = await last(page, 'stepwise:ready');
    assert.equal(ready.config, lesson);
    assert.equal(ready.version, 1);
    const origins = await page.evaluate(() => [...new Set(window.messages.map((m) => m.origin))]);
    assert.deepEqual(origins, [env.server.url.replace(/\/$/, '')].map(String), 'messages come from the site origin');

    // The first state message follows 'stepwise:ready' at once, maybe before this line runs: the
    // first one, not the next one (nothing changes after it until a command).
    await page.waitForFunction(() => window.messages.some((m) => m.data.type === 'stepwise:state'));
    const [first] = await messages(page, 'stepwise:state');
    assert.equal(first.t, 0);
    assert.equal(first.playing, false, 'no autoplay unless asked');
    assert.deepEqual(first.integrators.map((i) => [i.id, i.name]),
      [['explicit_euler', 'Explicit Euler'], ['semi_implicit_euler', 'Semi-implicit Euler']]);
    for (const i of first.integrators) {
      assert.deepEqual(Object.keys(i).sort(), ['diverged', 'divergedAt', 'drift', 'error', 'id', 'name', 'stopReason']);
      assert.equal(i.diverged, false);
      assert.equal(i.divergedAt, null);
    }

    await send(page, { type: 'stepwise:step' });
    const stepped = await nextState(page);
    assert.equal(stepped.steps, 1);
    assert.equal(stepped.t, 0.1);
    // The frame's own numbers.
    const inside = await frame.evaluate(() => window.stepwise.state());
    assert.equal(inside.steps, 1);
    assert.equal(stepped.integrators[0].drift, inside.bodies[0].drift);

    await send(page, { type: 'stepwise:set', query: 'preset=damped_spring&integrators=rk4,kinematic' });
    const set = await nextState(page);
    assert.match(set.config, /^v=1&scenario=spring&integrators=rk4,kinematic&dt=0.01&/);
    assert.equal(set.t, 0);
    assert.deepEqual(set.errors, []);

    // Playing: throttled state messages with growing t.
    const before = (await messages(page, 'stepwise:state')).length;
    await send(page, { type: 'stepwise:play' });
    // Six state messages while playing, then the paused one: never closer than the throttle's
    // 250 ms (a bound on the rate, which holds however slow the machine), t never going back.
    const count = () => window.messages.filter((m) => m.data.type === 'stepwise:state').length;
    await page.waitForFunction(`(${count})() >= ${before} + 6`, null, { timeout: 30000 });
    await send(page, { type: 'stepwise:pause' });
    await page.waitForFunction(() => window.messages.filter((m) => m.data.type === 'stepwise:state').at(-1).data.playing === false);
    const states = (await messages(page, 'stepwise:state')).slice(before);
    const times = await page.evaluate((n) => window.messages.filter((m) => m.data.type === 'stepwise:state').slice(n).map((m) => m.at), before);
    assert.ok(states.length >= 7, `${states.length} state messages`);
    for (let i = 1; i < times.length; ++i) assert.ok(times[i] - times[i - 1] >= 200, `throttled: ${times[i] - times[i - 1]} ms apart`);
    for (let i = 1; i < states.length; ++i) assert.ok(states[i].t >= states[i - 1].t);
    const paused = states.at(-1);
    assert.equal(paused.playing, false);
    assert.ok(paused.t > 1, `t = ${paused.t}`);
    // Paused and nothing changing: silence, for 60 of the frame's frames (the throttle's 250 ms
    // pass within them at any frame rate below 240 Hz).
    const quiet = (await messages(page, 'stepwise:state')).length;
    await framesPass(frame, 60);
    assert.equal((await messages(page, 'stepwise:state')).length, quiet, 'no state messages while nothing changes');

    await send(page, { type: 'stepwise:reset' });
    const reset = await nextState(page);
    assert.equal(reset.t, 0);
    assert.equal(reset.steps, 0);
    assert.deepEqual(h.problems, []);
  } finally {
    await h.context.close();
  }
});

// The first state message whose config holds `text` (it may have come already).
async function stateWith(page, text) {
  const find = (t) => window.messages.find((m) => m.data.type === 'stepwise:state' && m.data.config.includes(t))?.data;
  await page.waitForFunction(find, text);
  return page.evaluate(find, text);
}

// Sets wait for the frame and the last one wins; what a newer set replaces is not run (issue 40 §5).
test('sets sent together build once: the last one, with the play before it and the step after it', async () => {
  const h = await openHost(`embed.html?ui=none#${lesson}`);
  const { page, frame } = h;
  try {
    await page.waitForFunction(() => window.messages.some((m) => m.data.type === 'stepwise:state'));
    const builds = await frame.evaluate(() => window.stepwise.debug.builds());
    // One task of the host: nothing of the frame runs between these.
    await page.evaluate(() => {
      window.send({ type: 'stepwise:set', query: 'scenario=spring&integrators=rk4&k=3' });
      window.send({ type: 'stepwise:step' });   // of the spring the next set replaces: not run
      window.send({ type: 'stepwise:play' });
      window.send({ type: 'stepwise:set', query: 'scenario=spring&integrators=rk4,kinematic&k=7&dt=0.01' });
      window.send({ type: 'stepwise:reset' });
      window.send({ type: 'stepwise:step' });   // pauses and steps the k = 7 spring once
    });
    await frame.waitForFunction(() => /k=7/.test(window.stepwise.config()) && !window.stepwise.state().playing && window.stepwise.state().steps === 1);
    assert.equal(await frame.evaluate(() => window.stepwise.debug.builds()), builds + 1, 'one Simulation built, for the last set');
    const s = await stateWith(page, 'k=7');
    assert.match(s.config, /integrators=rk4,kinematic&dt=0.01&.*k=7/);
    assert.equal(s.steps, 1);
    assert.equal(s.t, 0.01);
    assert.deepEqual(h.problems, []);
  } finally {
    await h.context.close();
  }
});

// A host posting 17 messages a frame (about 1,000 a second at 60 Hz), 3 in 10 of them sets of
// heavy chains (issue 40 §5: 2,940 builds and 1 state message in 10 s): at most one build per
// frame the page draws, the last set is what runs, and state messages keep coming every
// stateInterval (250 ms) at the first frame after it.
const stateInterval = 250;  // ms between state messages at most (web/app/messages.js, docs/embedding.md: 4 a second)
test('a host flooding the frame: one build a frame at most, the last set wins, state messages keep their rate', async () => {
  const h = await openHost(`embed.html?ui=none#${lesson}`);
  const { page, frame } = h;
  try {
    await page.waitForFunction(() => window.messages.some((m) => m.data.type === 'stepwise:state'));
    const heavy = [40, 48, 64].map((n) => `scenario=chain&links=${n}&compliance=0&integrators=xpbd@10x4,vbd@4x4,soft_step,sequential_impulses`);
    const before = await frame.evaluate(() => ({ builds: window.stepwise.debug.builds(), frames: window.stepwise.debug.timings().frames }));
    const sent = await page.evaluate((queries) => window.flood({ frames: 120, perFrame: 17, queries }), heavy);
    const links = sent.lastSet.match(/links=(\d+)/)[1];
    await frame.waitForFunction((n) => new RegExp(`links=${n}&`).test(window.stepwise.config()), links);
    const after = await frame.evaluate(() => ({ builds: window.stepwise.debug.builds(), frames: window.stepwise.debug.timings().frames }));
    const builds = after.builds - before.builds, frames = after.frames - before.frames;
    assert.equal(sent.messages, 120 * 17);
    assert.equal(sent.sets, 612);
    assert.ok(builds >= 1 && builds <= frames + 1, `${builds} builds in ${frames} frames drawn (${sent.sets} sets sent)`);
    assert.ok(builds < sent.sets / 3, `${builds} builds for ${sent.sets} sets`);
    const times = await page.evaluate(([from, to]) => window.messages
      .filter((m) => m.data.type === 'stepwise:state' && m.at >= from && m.at <= to).map((m) => m.at), [sent.start, sent.end]);
    // One at the first frame 250 ms after the last: at least one per 250 ms and two frames (the
    // frames' length is the page's, whatever builds cost on this machine).
    const spanMs = sent.end - sent.start, frameMs = spanMs / Math.max(1, frames);
    const least = Math.floor(spanMs / (stateInterval + 2 * frameMs)) - 1;
    console.log(`flood: ${sent.messages} messages (${sent.sets} sets) over ${sent.frames} host frames, ${Math.round(spanMs)} ms: ${builds} builds in ${frames} frames drawn, ${times.length} state messages (at least ${least})`);
    assert.ok(times.length >= least, `${times.length} state messages in ${Math.round(spanMs)} ms of flooding (${frames} frames), at least ${least}`);
    assert.equal((await stateWith(page, `links=${links}&`)).errors.length, 0);
  } finally {
    await h.context.close();
  }
});

test('stepwise:diverged arrives once when a lane diverges, with its id, name and time', async () => {
  const h = await openHost('embed.html?ui=compact#preset=stiff_spring');
  try {
    // explicit Euler diverges at t = 1.25 s on this preset (dt = 0.05): 25 steps.
    for (let i = 0; i < 40; ++i) await send(h.page, { type: 'stepwise:step' });
    await h.page.waitForFunction(() => window.messages.some((m) => m.data.type === 'stepwise:diverged'));
    // Every step answered (the last state message at 40 steps), and still only the one message.
    await h.page.waitForFunction(() => window.messages.filter((m) => m.data.type === 'stepwise:state').at(-1)?.data.steps === 40);
    const events = await messages(h.page, 'stepwise:diverged');
    assert.equal(events.length, 1);
    assert.deepEqual(events[0], {
      type: 'stepwise:diverged', version: 1, language: 'en', integrator: 'explicit_euler', name: 'Explicit Euler', t: 1.25, reason: 'diverged',
    });
    const state = await last(h.page, 'stepwise:state');
    const euler = state.integrators.find((i) => i.id === 'explicit_euler');
    assert.equal(euler.diverged, true);
    assert.equal(euler.divergedAt, 1.25);
    assert.equal(euler.stopReason, 'diverged');
    // After a reset the lane can diverge again, and says so again.
    await send(h.page, { type: 'stepwise:reset' });
    for (let i = 0; i < 30; ++i) await send(h.page, { type: 'stepwise:step' });
    await h.page.waitForFunction(() => window.messages.filter((m) => m.data.type === 'stepwise:diverged').length === 2);
    assert.deepEqual(h.problems, []);
  } finally {
    await h.context.close();
  }
});

test('stepwise:diverged says collision when a body falls into the central mass', async () => {
  const h = await openHost('embed.html?ui=compact#scenario=orbit&x0=1,0&v0=0,0&integrators=explicit_euler,rk4&dt=0.01');
  try {
    for (let i = 0; i < 10; ++i) await h.frame.evaluate(() => { for (let k = 0; k < 15; ++k) window.stepwise.step(); });
    await h.page.waitForFunction(() => window.messages.filter((m) => m.data.type === 'stepwise:diverged').length === 2);
    const events = await messages(h.page, 'stepwise:diverged');
    assert.deepEqual(events.map((e) => [e.integrator, e.reason]).sort(), [['explicit_euler', 'collision'], ['rk4', 'collision']]);
    for (const e of events) assert.ok(e.t > 1 && e.t < 1.3, `${e.integrator} at ${e.t}`);
    assert.deepEqual(h.problems, []);
  } finally {
    await h.context.close();
  }
});

test('malformed and unknown messages are ignored with a console warning', async () => {
  const h = await openHost(`embed.html?ui=none#${lesson}`);
  const { page, frame } = h;
  try {
    // The frame settled after its ready message (a paused frame sends no state message unasked:
    // waiting for one here stood for the 30 s of its timeout).
    await frame.evaluate(() => window.stepwise.settled());
    const config = await frame.evaluate(() => window.stepwise.config());
    const bad = [
      'stepwise:play',                                   // a bare string
      null,
      [1, 2, 3],
      { type: 'stepwise:explode' },                      // unknown type
      { type: 42 },
      { kind: 'stepwise:play' },                         // no type
      { type: 'stepwise:set' },                          // no query
      { type: 'stepwise:set', query: 12 },               // not a string
      { type: 'stepwise:set', query: { toString: 'x' } },
      { type: 'stepwise:set', query: `scenario=spring&k=${'9'.repeat(440000)}` },  // longer than the core reads
      { type: 'STEPWISE:PLAY' },
    ];
    const warningsBefore = h.consoleMessages.filter((m) => m.type === 'warning').length;
    for (const m of bad) await page.evaluate((msg) => window.send(msg), m).catch(() => {});
    // One warning each: waited for (the frame reads each message in a task of its own).
    for (let k = 0; k < 600 && h.consoleMessages.filter((m) => m.type === 'warning').length < warningsBefore + bad.length; ++k) await framesPass(page, 1);
    await framesPass(frame, 10);  // and no more than one each
    const warnings = h.consoleMessages.filter((m) => m.type === 'warning').slice(warningsBefore);
    assert.equal(warnings.length, bad.length, warnings.map((w) => w.text).join('\n'));
    for (const w of warnings) assert.match(w.text, /^Stepwise: ignored a message: /);
    assert.ok(warnings.some((w) => w.text.includes('The config is 440,018 characters long; Stepwise reads at most 438,272 ')),
      'the over-long query is refused with the same message as set() and the address');
    assert.equal(await frame.evaluate(() => window.stepwise.config()), config, 'config unchanged');
    assert.equal((await frame.evaluate(() => window.stepwise.state())).playing, false);
    // A message the frame posts to itself (not from its parent) is ignored too.
    const before = h.consoleMessages.length;
    await frame.evaluate(() => window.postMessage({ type: 'stepwise:play' }, '*'));
    for (let k = 0; k < 600 && h.consoleMessages.length === before; ++k) await framesPass(page, 1);
    assert.equal((await frame.evaluate(() => window.stepwise.state())).playing, false);
    assert.match(h.consoleMessages.at(-1).text, /not from the parent frame/);
    // A hostile query through set: shown as text, never run.
    await send(page, { type: 'stepwise:set', query: 'scenario=spring&k=<img src=x onerror="window.__pwned=1">&integrators=rk4' });
    const s = await nextState(page);
    assert.match(s.config, /integrators=rk4&/);
    assert.ok(s.errors.some((e) => e.startsWith('k ')), s.errors.join('\n'));
    assert.equal(await frame.evaluate(() => window.__pwned), undefined);
    assert.equal(await frame.locator('#errors img').count(), 0);
    assert.deepEqual(h.problems, []);
  } finally {
    await h.context.close();
  }
});

test('ui=none shows only the canvas, legend and link; compact adds playback; full adds everything', async () => {
  const visible = (frame, sel) => frame.locator(sel).first().isVisible();
  for (const [ui, shown, hidden] of [
    ['none', ['#view', '#legend', '#open-full'], ['#play', '#controls', '#plot-energy', '.top', '.share', '#config-string']],
    ['compact', ['#view', '#play', '#step', '#reset', '#open-full'], ['#controls', '#plot-energy', '.top', '.share']],
    ['full', ['#view', '#play', '#controls', '#plot-energy', '#open-full'], ['.top', '.share']],
  ]) {
    const h = await openHost(`embed.html?ui=${ui}#${lesson}`);
    try {
      // In a frame narrower than 820 px the settings fold under one button above the canvas.
      if (ui === 'full') await h.frame.click('#settings-box > summary');
      for (const sel of shown) assert.equal(await visible(h.frame, sel), true, `ui=${ui}: ${sel} visible`);
      for (const sel of hidden) assert.equal(await visible(h.frame, sel), false, `ui=${ui}: ${sel} hidden`);
      const href = await h.frame.getAttribute('#open-full', 'href');
      assert.equal(href, `${env.server.url}index.html#${lesson}`);
      assert.equal(await h.frame.getAttribute('#open-full', 'target'), '_blank');
      assert.deepEqual(h.problems, []);
    } finally {
      await h.context.close();
    }
  }
  // A hostile ui option: a warning, the compact layout, nothing run.
  {
    const h = await openHost(`embed.html?ui=${encodeURIComponent('<img src=x onerror="window.__pwned=1">')}&autoplay=yes#${lesson}`);
    try {
      assert.equal(await visible(h.frame, '#play'), true);
      assert.equal(await h.frame.evaluate(() => document.documentElement.className), 'embed ui-compact ready');
      assert.equal(await h.frame.evaluate(() => window.__pwned), undefined);
      assert.ok(h.consoleMessages.some((m) => m.type === 'warning' && /ui must be none, compact or full/.test(m.text)));
      assert.equal((await h.frame.evaluate(() => window.stepwise.state())).playing, false, 'autoplay only with 1');
      assert.deepEqual(h.problems, []);
    } finally {
      await h.context.close();
    }
  }
  // index.html?embed=1 is the same embed mode; autoplay=1 starts it.
  const h = await openHost(`index.html?embed=1&ui=none&autoplay=1#${lesson}`);
  try {
    assert.equal(await visible(h.frame, '#play'), false);
    assert.equal(await visible(h.frame, '.top'), false);
    await h.page.waitForFunction(() => window.messages.some((m) => m.data.type === 'stepwise:state' && m.data.t > 0.3));
    assert.equal((await last(h.page, 'stepwise:state')).playing, true);
  } finally {
    await h.context.close();
  }
});

test('the embed works at 300 × 200: no scrolling, a usable canvas, light and dark', async () => {
  for (const scheme of ['light', 'dark']) {
    for (const ui of ['none', 'compact']) {
      const h = await openHost(`embed.html?ui=${ui}&autoplay=1#preset=damped_spring`, { w: 300, h: 200, scheme, viewport: { width: 340, height: 260 } });
      try {
        // Playing and laid out: a state message past t = 0.3 s, then two of its frames drawn.
        await h.page.waitForFunction(() => window.messages.some((m) => m.data.type === 'stepwise:state' && m.data.t > 0.3));
        await framesPass(h.frame, 2);
        const m = await h.frame.evaluate(() => {
          const r = document.getElementById('view').getBoundingClientRect();
          const link = document.getElementById('open-full').getBoundingClientRect();
          return {
            sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight,
            w: innerWidth, h: innerHeight, cw: r.width, ch: r.height, linkBottom: link.bottom,
          };
        });
        assert.ok(m.sw <= m.w && m.sh <= m.h, `no scroll inside the frame: ${JSON.stringify(m)}`);
        assert.ok(m.cw >= 280 && m.ch >= (ui === 'none' ? 110 : 80), `canvas ${m.cw} × ${m.ch}`);
        assert.ok(m.linkBottom <= m.h, 'the open link is inside the frame');
        await h.page.locator('#frame').screenshot({ path: path.join(root, 'test-artifacts', `embed-300x200-${ui}-${scheme}.png`) });
        assert.deepEqual(h.problems, []);
      } finally {
        await h.context.close();
      }
    }
  }
});

test('the lesson page drives its two frames; readouts and divergence notes follow', async () => {
  for (const [scheme, width, height] of [['light', 1280, 900], ['dark', 390, 844]]) {
    const { page, context, problems } = await openLesson(scheme, width, height);
    try {
      await page.waitForFunction(() => /t = .* Explicit Euler: energy/.test(document.getElementById('readout-euler').textContent), null, { timeout: 15000 });
      await page.click('button[data-dt="0.02"]');
      const euler = page.frames().find((f) => f.url().includes('embed.html') && f.url().includes('explicit_euler'));
      await euler.waitForFunction(() => window.stepwise.config().includes('&dt=0.02&'));
      assert.equal(await page.getAttribute('button[data-dt="0.02"]', 'aria-pressed'), 'true');
      await page.locator('#frame-limit').scrollIntoViewIfNeeded();
      await page.click('button[data-k="420"]');
      // Semi-implicit Euler diverges at t = 3.1 s at k = 420, dt = 0.1 (stepwise run agrees).
      await page.waitForFunction(() => /Semi-implicit Euler blew up at t = 3.10 s/.test(document.getElementById('events-limit').textContent), null, { timeout: 15000 });
      await page.waitForFunction(() => /Semi-implicit Euler: diverged at t = 3.10 s/.test(document.getElementById('readout-limit').textContent));
      await page.click('button[data-frame="frame-limit"][data-action="step"]');
      await page.locator('#frame-euler').scrollIntoViewIfNeeded();
      await framesPass(page, 2);
      await screenshot(page, `lesson-${width}-${scheme}`);
      await screenshot(page, `lesson-${width}-${scheme}-full`, { fullPage: true });
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth);
      assert.ok(scroll, 'no horizontal scroll');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

async function openLesson(scheme, width, height) {
  const context = await env.browser.newContext({ viewport: { width, height }, colorScheme: scheme });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${env.server.url}lesson.html`);
  return { page, context, problems };
}

test('the Embed dialog gives a snippet that works, with a preview', async () => {
  const { page, context, problems } = await openPage(env, { hash: 'preset=damped_spring', width: 1280, height: 860 });
  try {
    const config = await page.evaluate(() => window.stepwise.config());
    await page.click('#embed');
    assert.equal(await page.locator('#embed-dialog').isVisible(), true);
    const snippet = await page.inputValue('#embed-code');
    const src = `${env.server.url}embed.html?ui=compact&autoplay=1#${config}`;
    assert.equal(snippet, `<iframe src="${src.replace(/&/g, '&amp;')}" title="Spring: 4 integrators" ` +
      'width="640" height="400" style="border:0;max-width:100%" loading="lazy" allowfullscreen></iframe>');
    await page.selectOption('#embed-ui', 'none');
    await page.selectOption('#embed-size', 'small');
    await page.uncheck('#embed-autoplay');
    const small = await page.inputValue('#embed-code');
    assert.match(small, /embed\.html\?ui=none#v=1&amp;scenario=spring/);
    assert.match(small, /width="400" height="260"/);
    await page.selectOption('#embed-ui', 'compact');
    await page.check('#embed-autoplay');
    // The snippet, pasted into a page, runs the same config.
    const preview = page.frameLocator('#embed-preview');
    await preview.locator('#play').waitFor();
    const frame = page.frames().find((f) => f.url().includes('embed.html'));
    await frame.waitForFunction(() => document.documentElement.classList.contains('ready') && window.stepwise.state().t > 0.2);
    assert.equal(await frame.evaluate(() => window.stepwise.config()), config);
    await screenshot(page, 'embed-dialog-desktop-light');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('#embed-dialog').isVisible(), false);
    // The dialog's close event (queued after Escape) stops the preview: wait for it, briefly.
    await page.waitForFunction(() => !document.getElementById('embed-preview').hasAttribute('src'), null, { timeout: 2000 })
      .catch(() => {});
    assert.equal(await page.getAttribute('#embed-preview', 'src'), null, 'the preview stops with the dialog');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the copy-paste example of docs/embedding.md works as written', async () => {
  const fsm = await import('node:fs');
  const os = await import('node:os');
  const doc = fsm.readFileSync(path.join(root, 'docs/embedding.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Copy-paste example'));
  const html = section.slice(section.indexOf('```html') + 7, section.indexOf('```', section.indexOf('```html') + 7));
  const dir = fsm.mkdtempSync(path.join(os.tmpdir(), 'stepwise-example-'));
  fsm.writeFileSync(path.join(dir, 'example.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>Example</title>\n${html.replaceAll('https://YOUR-HOST/', env.server.url)}`);
  const server = await startServer({ root: dir, port: 0, policy: null });
  const context = await env.browser.newContext({ viewport: { width: 800, height: 700 } });
  try {
    const page = await context.newPage();
    const logs = [], problems = [];
    page.on('console', (m) => { logs.push(m.text()); if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}example.html`);
    const frame = () => page.frames().find((f) => f.url().includes('embed.html'));
    await page.waitForFunction(() => window.frames.length === 1);
    await page.waitForFunction(() => [...document.querySelectorAll('iframe')].some((f) => f.src.includes('embed.html')));
    for (let k = 0; k < 600 && !frame(); ++k) await framesPass(page, 1);
    await frame().waitForFunction(() => document.documentElement.classList.contains('ready'));
    await page.click('text=Play');
    await page.waitForFunction(() => /^t = .* Explicit Euler: /.test(document.getElementById('readout').textContent));
    // explicit Euler diverges at t = 1.25 s on the stiff spring.
    await page.waitForFunction(() => /Explicit Euler: diverged at 1.25 s/.test(document.getElementById('readout').textContent), null, { timeout: 10000 });
    assert.ok(logs.includes('Explicit Euler diverged at t = 1.25 s'), logs.join('\n'));
    await page.click('#smaller');
    await frame().waitForFunction(() => window.stepwise.config().includes('&dt=0.01&'));
    await page.click('text=Pause');
    await page.click('text=One step');
    await page.click('text=Reset');
    await frame().waitForFunction(() => window.stepwise.state().t === 0);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await server.close();
    fsm.rmSync(dir, { recursive: true, force: true });
  }
});

test('an embed option put in the hash is refused by the core and the message says to put it in the query', async () => {
  const { page, context } = await openPage(env, { path: 'embed.html?ui=compact', hash: 'scenario=spring&ui=none', width: 640, height: 400 });
  try {
    const errors = await page.evaluate(() => window.stepwise.errors());
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0], /^unknown key 'ui' for scenario spring/);
    assert.match(errors[0], /ui is an embed option: put it in the query before the '#', as in embed\.html\?ui=…#scenario=…$/);
    assert.equal(await page.evaluate(() => window.stepwise.config()).then((c) => c.includes('ui=')), false);
  } finally {
    await context.close();
  }
});
