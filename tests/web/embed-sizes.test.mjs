// Issue 23, defect 8: every size the Embed dialog offers works, at each level of controls.
// - ui=full at Medium (640 × 400) needed 1,395 px of height: the motion, its playback and its
//   canvas fit the frame's first screen, and the whole frame at most two frames' heights (the
//   plots side by side, named; their explanations are the full page's);
// - "Open in Stepwise ↗" lay over the canvas's tick labels (pinned to the frame's corner): it is
//   inside the frame and clear of the canvas at every size and level;
// - compact at Small (400 × 260) printed the lanes' names over their trails: a name drawn on the
//   canvas keeps clear of its row's motion (the line the bodies, trails and coils move on; short
//   rows draw smaller bodies), in a shorter form or not at all (the legend under the canvas names
//   the rows);
// - the dialog referred to "docs/embedding.md in the Stepwise sources" with no link: it links
//   the lesson page (two frames driven from their host) and lists the messages, in English and
//   German.
// Screenshots of each size and level in test-artifacts/ (i23-embed-*).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageChecks, playUntil, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const sizes = [['small', 400, 260], ['medium', 640, 400], ['large', 800, 520]];

const measure = (page) => page.evaluate(() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return { x: r.left, y: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height }; };
  const $ = (id) => document.getElementById(id);
  return {
    w: innerWidth, h: innerHeight, sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight,
    view: box($('view')), link: box($('open-full')), play: box($('play')), report: window.stepwise.debug.canvas(),
  };
});
const overlaps = (a, b) => a.w > 0 && b.w > 0 && a.x < b.r && b.x < a.r && a.y < b.b && b.y < a.b;

for (const [size, width, height] of sizes) {
  for (const ui of ['none', 'compact', 'full']) {
    test(`${size} (${width} × ${height}), ui=${ui}: the link clear of the canvas, the motion in the first screen, names clear of the trails`, async () => {
      for (const scheme of ui === 'full' || size === 'small' ? ['light', 'dark'] : ['light']) {
        await pageChecks(env, { path: `embed.html?ui=${ui}`, width, height, scheme, unfold: false }, async (page) => {
          // Played to t = 0.6 s of the simulation (waited for, not timed: 600 ms of wall time on a
          // loaded machine was another state of the page, one 809 px frame in about 20 runs),
          // then two frames drawn before it is measured.
          await playUntil(page, 0.6);
          await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
          const m = await measure(page);
          const where = `${size} ui=${ui} ${scheme}: ${JSON.stringify({ ...m, report: undefined })}`;
          assert.ok(m.sw <= m.w, `no sideways scroll: ${where}`);
          assert.ok(m.link.w > 0 && m.link.x >= 0 && m.link.y >= 0 && m.link.r <= m.w && m.link.b <= m.h, `the link is inside the frame: ${where}`);
          // The canvas's box holds its tick labels (under the plot) too.
          assert.ok(!overlaps(m.link, m.view), `the link is clear of the canvas and its tick labels: ${where}`);
          assert.ok(m.view.y >= 0 && m.view.b <= m.h + 0.5 && m.view.h >= 100, `the canvas is in the first screen: ${where}`);
          if (ui === 'none') assert.ok(m.sh <= m.h, `no scroll: ${where}`);
          else {
            assert.ok(m.play.b <= m.view.y + 1 && m.play.y >= 0, `play above the canvas, in view: ${where}`);
            if (ui === 'compact') assert.ok(m.sh <= m.h, `no scroll: ${where}`);
            else assert.ok(m.sh <= (size === 'small' ? 3.5 : 2) * m.h, `the whole frame is ${m.sh} px high: ${where}`);
          }
          // Each name drawn on the canvas keeps clear of its row's motion.
          const rows = m.report.rows;
          assert.ok(rows.length >= 4, 'the default spring is drawn a row per integrator');
          for (const row of rows) {
            assert.ok(row.drawn, `the row's name is reported: ${JSON.stringify(row)}`);
            if (!row.drawn.box) continue;
            // The bodies' markers are 5 px (short rows) or 7 px about the line, the coils 5 px.
            assert.ok(row.drawn.box.y + row.drawn.box.h <= row.drawn.line - 6, `${row.name}'s name clear of its line: ${where} ${JSON.stringify(row)}`);
          }
          if (size === 'small' && ui === 'compact') {
            assert.ok(rows.some((row) => row.drawn.text), 'a small frame still names the rows it has room for');
          }
          await screenshot(page, `i23-embed-${size}-${ui}-${scheme}`);
          if (ui === 'full') await screenshot(page, `i23-embed-${size}-${ui}-${scheme}-whole`, { fullPage: true });
        });
      }
    });
  }
}

test('the Embed dialog links the lesson page and lists the messages, in English and German', async () => {
  for (const lang of ['en', 'de']) {
    await pageChecks(env, { hash: lang === 'de' ? 'lang=de' : '', width: 1280, height: 800 }, async (page) => {
      await page.click('#embed');
      await page.locator('.embed-api').waitFor();
      const text = await page.locator('#embed-dialog').innerText();
      assert.doesNotMatch(text, /docs\/embedding\.md|Stepwise sources|Quellen von Stepwise/, 'no file named without a link');
      const link = page.locator('#embed-dialog .hint a').first();
      assert.equal(await link.getAttribute('href'), 'lesson.html');
      assert.equal(await link.getAttribute('target'), '_blank');
      assert.match(await link.innerText(), lang === 'de' ? /Lektionsseite/ : /lesson page/);
      const status = await page.evaluate(async (href) => (await fetch(href)).status, await link.evaluate((a) => a.href));
      assert.equal(status, 200, 'the lesson page is on the site');
      await page.click('.embed-api summary');
      const api = await page.locator('.embed-api').innerText();
      for (const type of ['set', 'play', 'pause', 'step', 'reset', 'ready', 'state', 'diverged']) assert.match(api, new RegExp(`stepwise:${type}\\b`));
      assert.match(api, lang === 'de' ? /An den Rahmen, nach stepwise:ready/ : /To the frame, after stepwise:ready/);
      await screenshot(page, `i23-embed-dialog-${lang}`);
    });
  }
});

// The "slowed" badge never moves a frame. A machine that falls behind shows it (the runner at its
// step cap); in a 640 × 400 frame with the full controls it took room at the row's end and wrapped
// the row, 24 px more frame (809 px against 785), which a loaded test machine met about once in 20
// runs. Here the run is capped whatever the machine's speed: dt = 1e-5 s at 10× asks for about
// 16,700 steps a frame, past the cap of 2,000. The badge is in view, over nothing it hides, and
// the frame is as high as before it showed. The same holds for the clock, whose step count grows with
// the run (past step 10,000 it wrapped the same row): the run is past step 12,000 when measured.
test('the "slowed" badge and a long run\'s clock show without moving the frame or the page', async () => {
  for (const [ui, width, height] of [['full', 640, 400], ['compact', 640, 400], ['full', 1000, 700], ['page', 1280, 800], ['page', 390, 844]]) {
    const path = ui === 'page' ? '' : `embed.html?ui=${ui}`;
    await pageChecks(env, { path, hash: 'dt=0.00001', width, height, unfold: false }, async (page) => {
      const frame = () => page.evaluate(() => ({ sh: document.documentElement.scrollHeight, row: document.querySelector('.transport').getBoundingClientRect().height }));
      const before = await frame();
      await page.evaluate(() => { document.getElementById('speed').value = '1'; document.getElementById('speed').dispatchEvent(new Event('input', { bubbles: true })); });
      assert.equal((await page.evaluate(() => window.stepwise.state())).speed, 10, 'the speed is 10×');
      await page.evaluate(() => window.stepwise.play());
      await page.waitForFunction(() => window.stepwise.debug.timings().capped && !document.getElementById('capped').hidden && window.stepwise.state().steps >= 12000, null, { timeout: 120000 });
      const after = await frame();
      const where = `${ui} ${width} × ${height}: ${JSON.stringify({ before, after })}`;
      assert.equal(after.sh, before.sh, `the frame is as high as before: ${where}`);
      assert.equal(after.row, before.row, `the row did not wrap: ${where}`);
      const hits = await page.evaluate(() => {
        const c = document.getElementById('capped').getBoundingClientRect();
        const over = (r) => r.width > 0 && c.left < r.right && r.left < c.right && c.top < r.bottom && r.top < c.bottom;
        return { box: c.toJSON(), hits: [...document.querySelectorAll('button, input, output, a, .clock, canvas')].filter((e) => e.id !== 'capped' && over(e.getBoundingClientRect())).map((e) => e.id || e.className) };
      });
      assert.ok(hits.box.width > 0 && hits.box.right <= width && hits.box.top >= 0, `the badge is in view: ${where} ${JSON.stringify(hits)}`);
      assert.deepEqual(hits.hits, [], `the badge hides nothing: ${where}`);
      await screenshot(page, `i23-embed-slowed-${ui}-${width}`);
    });
  }
});
