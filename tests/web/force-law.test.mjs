// A force law you write (issue 22 §3) in the page: the fold of the controls (web/panels/force-law.js)
// types fx and fy, starts the constants a law reads at 1 and drops the ones it no longer reads,
// sets them by number and by slider; bad laws are refused beside the field with the core's message
// pointing at the place, the law in force running on; a link with a law gives the CLI's numbers
// (to the last digit without a libm call, to 1e-12 with one); German; screenshots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startBrowser, pageChecks, openPage, playOn, state, config, errors, screenshot, framesPass } from './helpers.mjs';
import { cliRowsAt } from './run-text.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

// Types a law and commits it (Enter), then waits for the new run.
async function typeLaw(page, key, text) {
  await page.fill(`#force-${key}`, text);
  await page.press(`#force-${key}`, 'Enter');
  await page.evaluate(() => window.stepwise.settled());
}

test('the Duffing preset opens with its law and its two constants; the other constants are hidden', async () => {
  await pageChecks(env, { hash: 'preset=scene_duffing' }, async (page) => {
    assert.equal(await page.inputValue('#force-fx'), '-c1*x-c2*x^3');
    assert.equal(await page.inputValue('#force-fy'), '');
    assert.equal(await page.inputValue('#force-c1'), '4');
    assert.equal(await page.inputValue('#force-c2'), '2');
    assert.equal(await page.locator('#force-c1').isVisible(), true);
    assert.equal(await page.locator('#force-c3').isVisible(), false);
    assert.equal(await page.locator('#force-c4').isVisible(), false);
    await playOn(page, 1500);
    const s = await state(page);
    assert.ok(s.t > 0.5, `it plays (t = ${s.t})`);
    // Explicit Euler's energy grows on the Duffing spring, velocity Verlet's stays near its start
    // (7.03125 J: ½·4·1.5² + 2·1.5⁴/4).
    const energy = (id) => s.bodies.find((b) => b.integrator === id).energy;
    assert.ok(energy('explicit_euler') > 7.1, `explicit Euler's energy grows: ${energy('explicit_euler')}`);
    assert.ok(Math.abs(energy('velocity_verlet') - 7.03125) < 0.05, `velocity Verlet's stays: ${energy('velocity_verlet')}`);
    await screenshot(page, 'force-duffing');
  });
});

test('typing a law: its constants start at 1, a slider and a number set them, a constant no longer read leaves the link', async () => {
  await pageChecks(env, { hash: 'scenario=spring' }, async (page) => {
    await typeLaw(page, 'fx', '-c1*x - c2*x^3');
    let c = await config(page);
    assert.match(c, /&fx=-c1\*x-c2\*x\^3&c1=1&c2=1$/, c);
    assert.equal(await page.inputValue('#force-fx'), '-c1*x-c2*x^3', 'the field shows the core\'s canonical text');
    await page.fill('#force-c2', '0.5');
    await page.locator('#force-c2').dispatchEvent('change');
    await page.evaluate(() => window.stepwise.settled());
    assert.match(await config(page), /&c1=1&c2=0\.5$/);
    // The slider: its keys move it, each move applies a value of 3 significant digits.
    await page.focus('#force-c1-slider');
    await page.keyboard.press('End');
    await page.evaluate(() => window.stepwise.settled());
    c = await config(page);
    const c1 = Number(c.match(/&c1=([^&]*)/)[1]);
    assert.ok(c1 > 1 && Number.isFinite(c1), `the slider's end sets c1 (${c1})`);
    assert.equal(await page.inputValue('#force-c1'), String(c1));
    // A law that reads c1 alone: c2 leaves the link.
    await typeLaw(page, 'fx', '-c1*x');
    c = await config(page);
    assert.match(c, /&fx=-c1\*x&c1=/);
    assert.doesNotMatch(c, /c2=/);
    // Emptied, the law leaves the link with its constant.
    await typeLaw(page, 'fx', '');
    c = await config(page);
    assert.doesNotMatch(c, /fx=|c1=/);
    assert.equal(await page.locator('#force-c1').isVisible(), false);
  });
});

test('a bad law is refused beside its field, pointing at the place; the law in force runs on', async () => {
  await pageChecks(env, { hash: 'preset=scene_driven' }, async (page) => {
    const before = await config(page);
    for (const [bad, pattern] of [
      ['x/', /fx: '\/' at character 2 of 'x\/' needs a value after it/],
      ['-k*x', /fx: unknown name 'k' at character 2/],
      ['(x', /fx: .*'\('/],
      ['sin(x', /fx: .*'\('/],
      ['('.repeat(30) + 'x' + ')'.repeat(30), /fx: .* nests too deeply at character 25: at most 24 levels/],
    ]) {
      await typeLaw(page, 'fx', bad);
      const message = await page.textContent('#force-fx-error');
      assert.match(message, pattern, `${bad.slice(0, 20)}: ${message}`);
      assert.equal(await page.getAttribute('#force-fx', 'aria-invalid'), 'true');
      assert.equal(await config(page), before, 'the law in force stays');
    }
    // A constant out of its range.
    await page.fill('#force-c2', '1e7');
    await page.locator('#force-c2').dispatchEvent('change');
    assert.match(await page.textContent('#force-c2-error'), /c2.*1000000/);
    assert.equal(await config(page), before);
    // A good law clears the message.
    await typeLaw(page, 'fx', '-c1*x+c2*cos(c3*t)');
    assert.equal(await page.textContent('#force-fx-error'), '');
  });
});

test('a link with a hostile law says why and runs the system without it: no console error, no NaN', async () => {
  for (const hash of ['scenario=spring&fx=exp(exp(exp(x+2)))', 'scenario=spring&fx=' + '('.repeat(40) + 'x' + ')'.repeat(40),
    'scenario=spring&fx=x&fy=1/0', 'scenario=spring&fx=-c1*x']) {
    await pageChecks(env, { hash }, async (page) => {
      const shown = await errors(page);
      assert.ok(shown.length > 0 && shown.every((e) => /^(fx|fy)\b|c1/.test(e)), `${hash}: ${JSON.stringify(shown)}`);
      await playOn(page, 300);
      const s = await state(page);
      for (const b of s.bodies) assert.ok(Number.isFinite(b.x) && Number.isFinite(b.energy), `${hash}: finite`);
    });
  }
});

test('NaN and Infinity written as a law are unknown names, quoted in the message; nothing drawn is not finite', async () => {
  for (const word of ['NaN', 'Infinity', '-Infinity*x']) {
    const p = await openPage(env, { hash: `scenario=spring&fx=${word}` });
    try {
      const shown = await errors(p.page);
      assert.equal(shown.length, 1);
      assert.match(shown[0], new RegExp(`^fx: unknown name '${word.replace(/^-|\*x$/g, '')}' at character ${word.startsWith('-') ? 2 : 1}`));
      await playOn(p.page, 300);
      const s = await state(p.page);
      for (const b of s.bodies) assert.ok(Number.isFinite(b.x) && Number.isFinite(b.energy));
      assert.deepEqual(await p.page.evaluate(() => window.__nonFinite), []);
      assert.deepEqual(p.problems, []);
    } finally {
      await p.context.close();
    }
  }
});

test('a link with a law gives the CLI\'s numbers: to the last digit without libm, to 1e-12 with cos', async () => {
  const cases = [
    ['scenario=scene&integrators=explicit_euler,velocity_verlet,rk4,yoshida4,implicit_euler,xpbd&dt=0.02&g=0,0&scene=b:1.5,0;b:0,1&fx=-c1*x-c2*x^3&fy=-c1*y*m&c1=4&c2=2', 0],
    ['scenario=spring&integrators=rk4,leapfrog,heun,midpoint&fx=-c1*x+c2*cos(c3*t)&c1=4&c2=1&c3=3', 1e-12],
  ];
  for (const [link, tolerance] of cases) {
    const p = await openPage(env, { hash: link });
    try {
      const n = 60;
      const s = await p.page.evaluate((steps) => { for (let i = 0; i < steps; ++i) window.stepwise.step(); return window.stepwise.state(); }, n);
      const rows = cliRowsAt(await config(p.page), n);
      assert.equal(s.bodies.length, rows.length);
      s.bodies.forEach((b, i) => {
        for (const f of ['x', 'y', 'vx', 'vy', 'energy']) {
          const where = `${link.slice(0, 40)} ${rows[i].integrator} body ${rows[i].body} ${f}: page ${b[f]} CLI ${rows[i][f]}`;
          if (tolerance === 0) assert.ok(Object.is(b[f], rows[i][f]), where);
          else assert.ok(Math.abs(b[f] - rows[i][f]) <= tolerance * Math.max(1, Math.abs(b[f])), where);
        }
      });
      assert.deepEqual(p.problems, []);
    } finally {
      await p.context.close();
    }
  }
});

test('German, a phone and dark: the fold\'s texts and its examples', async () => {
  await pageChecks(env, { hash: 'preset=scene_driven&lang=de' }, async (page) => {
    assert.equal((await page.textContent('#force-fold > summary')).trim(), 'Eigene Kraft (fx, fy)');
    assert.match(await page.textContent('#force-example'), /Duffing-Feder/);
    await typeLaw(page, 'fx', 'x/');
    assert.match(await page.textContent('#force-fx-error'), /fx: .*'x\/'/);
    await page.locator('#force-fold').scrollIntoViewIfNeeded();
    await screenshot(page, 'force-driven-de');
  });
  await pageChecks(env, { hash: 'preset=scene_duffing', width: 390, height: 844 }, async (page) => {
    // On a phone the settings fold under one button (the canvas first).
    await page.evaluate(() => { for (const d of document.querySelectorAll('details')) d.open = true; });
    await page.locator('#force-fold').scrollIntoViewIfNeeded();
    await screenshot(page, 'force-duffing-phone');
  });
  await pageChecks(env, { hash: 'preset=scene_duffing', scheme: 'dark' }, async (page) => {
    await page.locator('#force-fold').scrollIntoViewIfNeeded();
    await screenshot(page, 'force-duffing-dark');
  });
});

test('an example starts a law on the system in view, with its constants; "No written force" takes it away', async () => {
  await pageChecks(env, { hash: 'preset=damped_spring' }, async (page) => {
    await page.selectOption('#force-example', { label: 'Driven: −c1·x + c2·cos(c3·t)' });
    await page.evaluate(() => window.stepwise.settled());
    let c = await config(page);
    assert.match(c, /scenario=spring.*&fx=-c1\*x\+c2\*cos\(c3\*t\)&c1=4&c2=1&c3=3$/, c);
    assert.equal(await page.inputValue('#force-example'), '', 'the menu goes back to its prompt');
    await framesPass(page, 2);
    await page.selectOption('#force-example', { label: 'No written force' });
    await page.evaluate(() => window.stepwise.settled());
    c = await config(page);
    assert.doesNotMatch(c, /fx=|c\d=/);
  });
});

test('while a law is in force the first screen\'s sliders are its constants; without one, the system\'s parameters', async () => {
  await pageChecks(env, { hash: 'preset=scene_duffing', unfold: false }, async (page) => {
    const labels = () => page.$$eval('#main-params .slider-row label', (ls) => ls.map((l) => l.textContent));
    assert.deepEqual(await labels(), ['dt (log scale)', 'constant (c1)', 'constant (c2)']);
    // Dragging c2's slider by its keys applies it at once.
    await page.focus('#slider-c2');
    await page.keyboard.press('ArrowRight');
    await page.evaluate(() => window.stepwise.settled());
    const c2 = Number((await config(page)).match(/&c2=([^&]*)$/)[1]);
    assert.ok(c2 > 2, `c2 = ${c2}`);
    assert.equal(await page.inputValue('#force-c2'), String(c2), 'the fold shows it too');
    await page.selectOption('#force-example', { label: 'No written force' });
    await page.evaluate(() => window.stepwise.settled());
    assert.deepEqual(await labels(), ['dt (log scale)', 'damping (b)', 'air drag c (drag)', 'central G·M (gm)']);
    await screenshot(page, 'force-duffing-first-screen');
  });
});

// Issue 31: a written force whose potential does not exist (a pole at x = 1 between the origin and
// the start x = 2) makes the energy kinetic only; the energy plot says why, with the core's
// message and its arguments, in English and in German, as text. A force with a potential has none.
test('the energy plot says why a written force has no potential, in English and German', async () => {
  const pole = 'scenario=projectile&g=0&x0=2,0&v0=0,0&fx=1/(1-x)^2&integrators=rk4&dt=0.001&duration=0.5';
  const de = await import('../../web/strings/de.js');
  for (const lang of ['en', 'de']) {
    await pageChecks(env, { hash: `${pole}${lang === 'de' ? '&lang=de' : ''}`, width: 1280, height: 800 }, async (page) => {
      const note = await page.evaluate(() => window.stepwise.scene().noPotential);
      assert.equal(note.code, 'written_no_potential_pole');
      assert.ok(Math.abs(Number(note.args.near) - 1) < 1e-3, `near the pole: ${note.args.near}`);
      const want = lang === 'en' ? note.message
        : de.messages[note.code].replace(/\{(\w+)\}/g, (whole, name) => note.args[name] ?? whole);
      assert.equal(await page.locator('#energy-note').isVisible(), true, 'the note is shown');
      assert.equal(await page.textContent('#energy-note'), want);
      assert.equal(await page.evaluate(() => document.querySelector('#energy-note').children.length), 0, 'text, no markup');
      if (lang === 'en') {
        assert.equal(want, `fx: '1/(1-x)^2' has no potential: its integral from 0 to body 0's start (x = 2) does not converge near x = ${note.args.near} (a pole, or a singularity too sharp to integrate to 1e-13); the energy leaves out this force's work`);
      } else {
        assert.equal(want, `fx: '1/(1-x)^2' hat kein Potential: sein Integral von 0 bis zum Start von Körper 0 (x = 2) konvergiert nahe x = ${note.args.near} nicht (ein Pol oder eine Singularität, zu scharf, um sie auf 1e-13 zu integrieren); die Energie lässt die Arbeit dieser Kraft weg`);
      }
      await playOn(page, 300);
      await screenshot(page, `i31-no-potential-${lang}`);
      // The JSON export is the CLI's: it says why too (no_potential, in the core's English).
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
      const doc = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
      assert.equal(doc.no_potential, note.message);
    });
  }
  // A force with a potential: no note, and nothing in the description.
  await pageChecks(env, { hash: 'scenario=projectile&g=0&x0=2,0&v0=0,0&fx=-x&integrators=rk4&dt=0.001&duration=0.5' }, async (page) => {
    assert.equal(await page.evaluate(() => window.stepwise.scene().noPotential), null);
    assert.equal(await page.locator('#energy-note').isVisible(), false);
    assert.equal(await page.textContent('#energy-note'), '');
  });
});
