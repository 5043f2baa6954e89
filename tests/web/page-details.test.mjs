// Issue 23, defect 9 (the smaller ones), in headless Chromium:
// - the timeline's label showed the time of up to a quarter second ago while playing: it reads
//   what the clock reads, every frame (the slider itself still moves a few times a second);
// - the overlay's "dashed ring: reference" caption (and the time) lay under the Methods button at
//   the canvas's top right: both sit above the plot, clear of the frame buttons;
// - the phase plot's last x tick was cut at the canvas's right edge ("1.1(", German "1,1(0"):
//   every x tick label of every plot is whole on its canvas;
// - the stability map's "this system" marker at ζ = 0 was cut by the map's bottom edge: the map
//   reaches below ζ = 0 far enough for the whole marker;
// - German leftovers: the spring's "d = x − anchor", and a game loop as "fixed mit 30 Hz".
// Screenshots of each in test-artifacts/ (i23-details-*).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, screenshot, finished, framesPass, playUntil } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const times = (page) => page.evaluate(() => {
  const read = (text) => Number((/t = ([\d.,]+) s/.exec(text) || [])[1]?.replace(',', '.'));
  return { clock: read(document.getElementById('clock').textContent), timeline: read(document.querySelector('.timeline-out').textContent) };
});

test('the timeline\'s label reads the clock\'s time while playing', async () => {
  await pageChecks(env, { width: 1280, height: 800 }, async (page) => {
    await page.evaluate(() => window.stepwise.play());
    const seen = [];
    for (let i = 0; i < 15; ++i) {
      await framesPass(page, 4);
      seen.push(await times(page));
    }
    await page.evaluate(() => window.stepwise.pause());
    assert.ok(seen.at(-1).clock > 0.5, 'it played');
    for (const s of seen) assert.equal(s.timeline, s.clock, `the timeline says the clock's time: ${JSON.stringify(seen)}`);
  });
});

// The canvas's captions against the frame buttons that hang over it, in the canvas's pixels.
const captionsAndButtons = (page) => page.evaluate(() => {
  const canvas = document.getElementById('view').getBoundingClientRect();
  const buttons = [...document.querySelectorAll('.frame-buttons button')].filter((b) => b.getBoundingClientRect().width > 0)
    .map((b) => { const r = b.getBoundingClientRect(); return { x: r.left - canvas.left, y: r.top - canvas.top, w: r.width, h: r.height }; });
  return { report: window.stepwise.debug.canvas(), buttons, width: canvas.width };
});
const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

test('the overlay\'s "dashed ring" caption and the time are clear of the frame buttons', async () => {
  for (const [name, options] of [
    ['desktop', { hash: 'preset=elastic_pendulum_chaos', width: 1280, height: 800 }],
    ['german', { hash: 'preset=elastic_pendulum_chaos&lang=de', width: 1280, height: 800 }],
    ['embed', { path: 'embed.html?ui=full', hash: 'preset=eccentric_orbit', width: 640, height: 400 }],
    ['phone', { hash: 'preset=elastic_pendulum_chaos', width: 390, height: 844, scheme: 'dark' }],
  ]) {
    await pageChecks(env, options, async (page) => {
      await playUntil(page, 0.3);
      await framesPass(page, 2);
      const { report, buttons, width } = await captionsAndButtons(page);
      assert.equal(report.layout, 'overlay');
      assert.ok(buttons.length >= 1, 'the frame buttons are shown');
      const { time, caption } = report.captions;
      const boxes = caption ? [time, caption] : [time];
      for (const box of boxes) {
        assert.ok(box.y >= 0 && box.x >= 0 && box.x + box.w <= width, `${name}: inside the canvas: ${JSON.stringify(box)}`);
        for (const b of buttons) assert.ok(!overlaps(box, b), `${name}: ${JSON.stringify(box)} is clear of a frame button ${JSON.stringify(b)}`);
      }
      if (name === 'desktop') assert.match(caption?.text ?? '', /^dashed ring( and path)?: (exact|reference)/, 'the desktop has room for the caption');
      if (name === 'german') assert.match(caption?.text ?? '', /^gestrichelter Ring/);
      if (caption) assert.ok(caption.x + caption.w <= time.x - 8, `${name}: the caption ends before the time`);
      await screenshot(page, `i23-details-caption-${name}`);
    });
  }
});

test('every plot\'s x tick labels are whole on their canvas, the phase plot\'s last one too', async () => {
  // The phase plot of this spring runs from 0.94 to 1.06 m: its last tick, "1.06", at the right
  // edge (drawn centred on it, it lost its last digit).
  for (const lang of ['en', 'de']) {
    const hash = `scenario=spring&integrators=explicit_euler,semi_implicit_euler,rk4&dt=0.01&duration=10&m=1&k=15&b=0&rest=1&anchor=0,0&x0=1.05,0&v0=0,0${lang === 'de' ? '&lang=de' : ''}`;
    for (const [width, height] of [[1280, 800], [390, 844]]) {
      await pageChecks(env, { hash, width, height }, async (page) => {
        // 50 steps, t = 0.5 s, whatever the machine's speed (played for a wall time, a busy
        // machine reached another part of explicit Euler's growing swing, and another last tick).
        await page.evaluate(() => { for (let i = 0; i < 50; ++i) window.stepwise.step(); });
        await page.evaluate(() => window.stepwise.settled());
        await framesPass(page, 3);  // the plots drawn from the last step
        const plots = await page.evaluate(() => window.stepwise.debug.plots());
        let checked = 0;
        for (const name of ['energy', 'error', 'phase']) {
          const p = plots[name];
          assert.ok(p && p.xLabels && p.xLabels.length >= 2, `${name} reports the x labels it drew`);
          for (const l of p.xLabels) {
            assert.ok(l.left >= 0 && l.right <= p.width, `${lang} ${width}: ${name}'s "${l.text}" is whole (${l.left.toFixed(1)} … ${l.right.toFixed(1)} of ${p.width})`);
            checked += 1;
          }
        }
        assert.ok(checked >= 6);
        const last = plots.phase.xLabels.at(-1);
        assert.equal(last.text, lang === 'de' ? '1,06' : '1.06', 'the last tick is labelled');
        assert.ok(p_close(last.right, plots.phase.width - 1), 'it ends at the canvas\'s edge');
        if (width === 1280) {
          const phase = page.locator('#plot-phase');
          await phase.scrollIntoViewIfNeeded();
          await phase.screenshot({ path: `test-artifacts/i23-details-phase-${lang}.png` });
        }
      });
    }
  }
});
const p_close = (a, b) => Math.abs(a - b) < 0.5;

test('the stability map shows this system\'s marker whole at ζ = 0', async () => {
  for (const [hash, width, height] of [['preset=two_springs&view=stability', 1280, 800], ['preset=stiff_spring&view=stability', 390, 844]]) {
    await pageChecks(env, { hash, width, height }, async (page) => {
      const r = await finished(page);
      assert.equal(r.system.zeta, 0, 'an undamped system: its point is on ζ = 0');
      const { mark } = r;
      assert.ok(mark, 'the marker is reported');
      assert.ok(mark.bottom <= mark.area.y + mark.area.h, `the marker is inside the map's frame: ${JSON.stringify(mark)}`);
      assert.ok(mark.top >= mark.area.y);
      const map = page.locator('.stability-map canvas');
      await map.scrollIntoViewIfNeeded();
      await map.screenshot({ path: `test-artifacts/i23-details-stability-${width}.png` });
    });
  }
});

test('German: the spring\'s formula and a game loop\'s line are German', async () => {
  await pageChecks(env, { hash: 'scenario=spring&lang=de', width: 1280, height: 800 }, async (page) => {
    // (The parameter's field names its key, "Aufhängepunkt (anchor, m)", as the link writes it.)
    const text = await page.locator('#scenario-description').innerText();
    assert.doesNotMatch(text, /anchor\b/, 'no English "anchor" in the German description');
    assert.match(text, /d = x − A\b/);
  });
  await pageChecks(env, { hash: 'preset=explodes_at_30fps&lang=de', width: 1280, height: 800 }, async (page) => {
    const line = await page.locator('#loop-line').textContent();
    assert.match(line, /^Spielschleife: fest \(fixed\), 30 Hz, 1 Teilschritt/);
    assert.doesNotMatch(line, / mit \d+ Hz|fixed mit/);
    await page.click('#tab-convergence');
    const notice = await page.locator('#analysis .loop-notice').innerText();
    assert.match(notice, /fest \(fixed\), 30 Hz/);
    assert.doesNotMatch(notice, /fixed mit/);
    await screenshot(page, 'i23-details-loop-notice-de');
  });
});
