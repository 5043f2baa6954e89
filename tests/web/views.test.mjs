// The views (Motion, Convergence, Stability, Phase cloud) and equal cost, in headless Chromium:
// every view opens from a link and shows results, switching views keeps the rest of the config
// in the address (and Copy link, and embeds), the convergence study measures the table's orders
// on the undamped spring and shows the order that applies to the kind of system on screen, the stability readout gives the known limits (semi-implicit Euler 2,
// RK4 2.83 at ζ = 0), equal cost shows each lane's effective step, no main-thread task passes
// 50 ms while a view computes, hostile view/equal_cost values are refused with the banner and
// the page goes on. Screenshots of each view (desktop, phone, dark, embedded) in test-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from './run-text.mjs';
import { execFileSync } from 'node:child_process';
import { startBrowser, pageChecks, playOn, framesPass, state, screenshot, config, errors, mainThreadTasks, finished } from './helpers.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

const withPage = (options, fn) => pageChecks(env, options, fn);
const longTasks = (page, since = 0) => page.evaluate((t) => window.__longTasks.filter((e) => e.start >= t), since);
const now = (page) => page.evaluate(() => performance.now());

// The undamped spring with a few methods of known order.
const spring = 'scenario=spring&b=0&integrators=semi_implicit_euler,velocity_verlet,rk4';

test('view=convergence from a link: the study completes with the table\'s orders, the plots and the table show', async () => {
  await withPage({ hash: `${spring}&view=convergence` }, async (page) => {
    assert.deepEqual(await errors(page), []);
    assert.match(await config(page), /&view=convergence$/);
    assert.equal(await page.getAttribute('#tab-convergence', 'aria-selected'), 'true');
    assert.equal(await page.locator('#view').isVisible(), false, 'the motion canvas is hidden');
    const r = await finished(page);
    const measured = Object.fromEntries(r.rows.map((row) => [row.id, Number(row.measured)]));
    assert.ok(Math.abs(measured.rk4 - 4) < 0.3, `rk4 measured ${measured.rk4}`);
    assert.ok(Math.abs(measured.semi_implicit_euler - 1) < 0.3, `semi-implicit Euler measured ${measured.semi_implicit_euler}`);
    assert.ok(Math.abs(measured.velocity_verlet - 2) < 0.3, `velocity Verlet measured ${measured.velocity_verlet}`);
    for (const row of r.rows) assert.match(row.verdict, /^holds/, row.id);
    const table = await page.textContent('.study-table');
    assert.match(table, /Runge–Kutta 4\s*4\s*\d\.\d\d\s*holds/);
    assert.match(await page.textContent('.study-floor'), /Errors at or below \S+ m are round-off/);
    assert.match(await page.textContent('.study-status'), /^Done: 5 levels/);
    assert.equal(await page.getAttribute('progress', 'value'), '1');
  });
});

test('the convergence view shows the order the table claims for the kind of system on screen, with the notes', async () => {
  // Two springs and a damper: several forces including damping, where the kinematic pair is first
  // order (and says so), RK4 and Yoshida 4 (its symmetric step around the damper's exact flow) fourth.
  await withPage({ hash: 'scenario=two_spring&b=0.4&integrators=kinematic,kinematic_avg,rk4,yoshida4&view=convergence' }, async (page) => {
    const r = await finished(page);
    const row = Object.fromEntries(r.rows.map((x) => [x.id, x]));
    assert.deepEqual(r.rows.map((x) => x.tableOrder), ['1', '1', '4', '4']);
    for (const x of r.rows) assert.equal(x.verdict, 'holds', `${x.id}: ${x.verdict} (measured ${x.measured})`);
    assert.ok(Math.abs(Number(row.kinematic.measured) - 1) < 0.15, row.kinematic.measured);
    assert.match(row.kinematic.claimTitle, /^order 1 here \(several forces on a body including damping\)\. Its orders: exact with uniform gravity alone/);
    assert.equal(await page.textContent('.study-regime'),
      'This system: several forces on a body including damping. The table order is each method\'s order on that kind of system.');
    const notes = await page.textContent('.study-notes');
    assert.match(notes, /Kinematic: Exact wherever each force's own flow is the whole motion/);
    assert.match(notes, /Kinematic \(average acceleration\): Second order with one force on each body/);
    assert.match(await page.textContent('.study-table'), /Kinematic\s*1\s*1\.\d\d\s*holds/);
  });
  // One damped spring alone: kinematic follows its flow exactly, the average variant is second order.
  await withPage({ hash: 'scenario=spring&b=2&integrators=kinematic,kinematic_avg,rk45&view=convergence' }, async (page) => {
    const r = await finished(page);
    const row = Object.fromEntries(r.rows.map((x) => [x.id, x]));
    assert.equal(row.kinematic.tableOrder, 'exact');
    assert.equal(row.kinematic.kind, 'exact');
    assert.match(row.kinematic.verdict, /^exact here, as the table says for one force with a closed form on each body/);
    assert.equal(row.kinematic_avg.tableOrder, '2');
    assert.equal(row.kinematic_avg.verdict, 'holds');
    assert.equal(row.rk45.tableOrder, '—');
    assert.match(row.rk45.verdict, /^adaptive/);
  });
});

test("the Stability view's largest stable dt and verdicts are stepwise stability's, lanes with substeps included", async () => {
  // ω = √40, ζ ≈ 0.04, ωh ≈ 1.9: semi-implicit Euler and RK4 stable, velocity Verlet and Yoshida
  // just past their limits at this ζ, Heun and midpoint far past; rk4@4 and heun@8 a quarter and
  // an eighth of the step.
  const query = 'scenario=spring&k=40&b=0.5&integrators=semi_implicit_euler,rk4,heun,velocity_verlet,yoshida4,midpoint,rk4@4,heun@8&dt=0.3';
  const expected = JSON.parse(execFileSync(cli, ['stability', query, '--format', 'json'], { encoding: 'utf8' })).integrators;
  assert.deepEqual(expected.map((e) => e.stable_now), [true, true, false, false, false, false, true, true]);
  await withPage({ hash: `${query}&view=stability` }, async (page) => {
    const r = await finished(page);
    const row = Object.fromEntries(r.rows.map((x) => [x.id, x]));
    for (const e of expected) {
      const shown = row[e.id];
      assert.equal(/^stable/.test(shown.current), e.stable_now, `${e.id}: ${shown.current}`);
      const dt = Number(shown.largestDt.replace(/ s$/, ''));
      assert.ok(Math.abs(dt - e.largest_stable_dt) <= 5e-3 * e.largest_stable_dt, `${e.id}: ${shown.largestDt} against ${e.largest_stable_dt}`);
    }
  });
});

test('view=stability from a link: the readout gives 2 for semi-implicit Euler and 2.83 for RK4 at ζ = 0', async () => {
  await withPage({ hash: 'scenario=spring&b=0&integrators=semi_implicit_euler,rk4,implicit_euler,rk45,explicit_euler&view=stability' }, async (page) => {
    assert.equal(await page.getAttribute('#tab-stability', 'aria-selected'), 'true');
    const r = await finished(page);
    const row = Object.fromEntries(r.rows.map((x) => [x.id, x]));
    assert.equal(row.semi_implicit_euler.limit0, '2');
    assert.equal(row.rk4.limit0, '2.83');
    assert.equal(row.rk4.current, 'stable');
    assert.match(row.rk4.largestDt, /^0\.73\d? s$/, 'ω = √15: 2.83 / 3.87');
    assert.equal(row.implicit_euler.largestDt, 'any dt');
    assert.equal(row.rk45.largestDt, 'adaptive: stable at any dt (its controller subdivides)');
    assert.equal(row.explicit_euler.limit0, 'none (unstable at every ωh)');
    assert.match(row.explicit_euler.current, /^unstable/);
    assert.ok(Math.abs(r.system.omegaH - Math.sqrt(15) * 0.01) < 1e-12);
    const text = await page.textContent('.stability-table');
    assert.match(text, /Runge–Kutta 4\s*2\.83/);
    assert.match(text, /Largest stable dt for this system/);
    assert.match(await page.textContent('.system-point'), /ωh = 0\.0387/);
    // A legend entry toggles its region.
    const button = page.locator('.stability-legend button', { hasText: 'Runge–Kutta 4' });
    await button.click();
    assert.equal(await button.getAttribute('aria-pressed'), 'false');
    await button.click();
    assert.equal(await button.getAttribute('aria-pressed'), 'true');
  });
});

test('the stability view says what its map leaves out of a method: soft step\'s stiffness cap acts on rigid links only', async () => {
  await withPage({ hash: 'scenario=spring&integrators=soft_step,xpbd&view=stability' }, async (page) => {
    await finished(page);
    const legend = await page.textContent('.stability-legend');
    assert.match(legend, /Soft step \(Box2D v3\) stable on the whole map\. Its stiffness cap, a rigid link's frequency min\(60 Hz, 1\/\(8h\)\), acts on rigid links only/);
    assert.match(legend, /Extended PBD \(XPBD\) stable on the whole map(?!\.)/);
  });
});

test('a run too long for a study says so instead of running for minutes', async () => {
  await withPage({ hash: 'scenario=spring&dt=0.01&duration=50000&view=convergence' }, async (page) => {
    await finished(page);
    assert.match(await page.textContent('.study-status'), /^Not run: even the coarsest level needs .* Shorten the duration or raise dt/);
  });
});

test('a projectile has no oscillation: the stability view says so instead of a point', async () => {
  await withPage({ hash: 'scenario=projectile&view=stability' }, async (page) => {
    const r = await finished(page);
    assert.equal(r.system, null);
    assert.match(await page.textContent('.system-point'), /does not oscillate/);
  });
});

test('switching views by tab and keyboard keeps the rest of the config in the address, Copy link and the embed', async () => {
  await withPage({ hash: `${spring}&dt=0.02` }, async (page) => {
    const base = await config(page);
    assert.doesNotMatch(base, /view=/, 'the default view is not written');
    assert.equal(await page.getAttribute('#tab-motion', 'aria-selected'), 'true');
    await page.click('#tab-stability');
    assert.equal(await config(page), `${base}&view=stability`);
    await page.waitForFunction(() => location.hash.endsWith('&view=stability'));
    assert.match(await page.getAttribute('#open-full', 'href'), /&view=stability$/);
    // ← from the focused tab: the one before it, selected at once.
    await page.focus('#tab-stability');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await config(page), `${base}&view=convergence`);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-convergence');
    assert.equal(await state(page).then((s) => s.steps), 0, 'the arrow key did not step the motion');
    await page.keyboard.press('End');
    // The cloud view loads its module first: wait for the switch, then read the link.
    await page.waitForFunction(() => document.getElementById('tab-cloud').getAttribute('aria-selected') === 'true');
    assert.equal(await config(page), `${base}&view=cloud`, 'the cloud view starts its cloud, not written into the link');
    assert.equal(await page.locator('#cloud-panel').isVisible(), true, 'the cloud is the main view');
    await page.click('#tab-motion');
    assert.doesNotMatch(await config(page), /view=/);
    assert.equal(await page.locator('#view').isVisible(), true);
    // The tabs are reachable with Tab: exactly one of them is in the tab order.
    assert.deepEqual(await page.$$eval('.view-tab', (tabs) => tabs.map((t) => t.tabIndex)), [0, -1, -1, -1]);
    // The embed snippet keeps the view.
    await page.click('#tab-stability');
    await page.click('#embed');
    assert.match(await page.inputValue('#embed-code'), /#v=1&amp;[^"]*&amp;view=stability"/);
    await page.click('#embed-close');
  });
});

for (const [name, path] of [['index.html?embed=1', '?embed=1'], ['embed.html?ui=compact', 'embed.html?ui=compact']]) {
  test(`${name} honours the view: the stability and convergence views fill the frame`, async () => {
    await withPage({ hash: `${spring}&view=stability`, path, width: 640, height: 400 }, async (page) => {
      const r = await finished(page);
      assert.equal(r.rows.find((x) => x.id === 'rk4').limit0, '2.83');
      assert.equal(await page.locator('.stability-map canvas').isVisible(), true);
      assert.equal(await page.locator('#view').isVisible(), false);
      await page.evaluate((q) => window.stepwise.set(q), `${spring}&view=convergence`);
      await finished(page);
      assert.equal(await page.locator('.study-table').isVisible(), true);
    });
  });
}

test('equal cost: the toggle sets equal_cost=1 and the legend shows each lane\'s effective step', async () => {
  await withPage({ hash: 'scenario=spring&integrators=explicit_euler,rk4,implicit_euler,rk45' }, async (page) => {
    assert.equal(await page.locator('label[for="equal_cost"]').textContent(), 'Equal cost: same force evaluations per simulated second');
    await page.check('#equal_cost');
    assert.match(await config(page), /&equal_cost=1$/);
    await playOn(page, 600);
    const legend = await page.textContent('#legend');
    assert.match(legend, /Runge–Kutta 4.*step 4 × dt = 0\.04 s/s);
    assert.match(legend, /Explicit Euler.*step 1 × dt = 0\.01 s/s);
    assert.match(legend, /Implicit Euler.*step ≈ \S+ s \(measured\)/s);
    assert.match(legend, /Dormand–Prince 5\(4\).*step ≈ \S+ s \(measured\) · rtol \S+/s);
    await page.uncheck('#equal_cost');
    assert.doesNotMatch(await config(page), /equal_cost/);
    assert.doesNotMatch(await page.textContent('#legend'), /× dt/);
  });
});

test('the motion legend shows the measured order next to the table\'s once a quick study has run', async () => {
  await withPage({ hash: spring }, async (page) => {
    await page.waitForFunction(() => [...document.querySelectorAll('.badge.measured')].every((b) => !b.hidden), null, { timeout: 30000 });
    const rows = await page.$$eval('.legend-row:not(.ghost)', (rows) => rows.map((r) => r.querySelector('.badge.measured').textContent));
    assert.equal(rows.length, 3);
    for (const text of rows) assert.match(text, /^measured \d\.\d\d$/);
    assert.ok(Math.abs(Number(rows[2].split(' ')[1]) - 4) < 0.3, rows[2]);
  });
});

test('the motion legend shows each lane\'s order on the kind of system on screen, every order and the note in its tooltip', async () => {
  const badges = (page) => page.$$eval('.legend-row:not(.ghost) .badge.order', (b) => b.map((x) => [x.textContent, x.title]));
  await withPage({ hash: 'scenario=two_spring&b=0.4&integrators=kinematic,kinematic_avg,rk4,rk45' }, async (page) => {
    const b = await badges(page);
    assert.deepEqual(b.map((x) => x[0]), ['order 1', 'order 1', 'order 4', 'adaptive']);
    assert.match(b[0][1], /^order 1 here \(several forces on a body including damping\)\. Its orders: exact with uniform gravity alone or one force with a closed form on each body; .*\. Exact wherever each force's own flow/);
    assert.match(b[3][1], /^no order in dt here \(adaptive\) \(several forces on a body including damping\)\. Its orders: no order in dt on every kind of system\. Adaptive: its error follows its tolerance/);
  });
  await withPage({ hash: 'scenario=spring&b=0.4&integrators=kinematic,kinematic_avg' }, async (page) => {
    assert.deepEqual((await badges(page)).map((x) => x[0]), ['exact here', 'order 2']);
  });
});

test('no main-thread task over 50 ms while a view computes (default spring, and a long run)', async () => {
  for (const hash of ['', 'scenario=spring&integrators=explicit_euler,semi_implicit_euler,implicit_euler,rk4,yoshida4,kinematic,rk45&dt=0.01&duration=2000']) {
    await withPage({ hash }, async (page) => {
      await page.evaluate(() => window.stepwise.play());
      await page.waitForFunction(() => window.stepwise.state().t > 0.2, null, { polling: 50 });  // it runs
      const t0 = await now(page);
      // Judged on each task's CPU time from a Chromium trace (as longtasks.test.mjs does): the
      // tests share two cores with builds, and wall time there is 2–4× the page's own work.
      await env.browser.startTracing(page, { categories: ['toplevel'] });
      await page.click('#tab-convergence');
      await finished(page, 120000);
      await page.click('#tab-stability');
      await finished(page);
      await page.click('#tab-motion');
      await playOn(page, 1500);  // the quick study behind the legend, while 1.5 s of the motion plays
      const trace = JSON.parse((await env.browser.stopTracing()).toString());
      const tasks = mainThreadTasks(trace);
      const over = tasks.filter((t) => t.cpuMs > 50).map((t) => `${t.cpuMs.toFixed(1)} ms CPU, ${t.wallMs.toFixed(1)} ms wall`);
      const wall = await longTasks(page, t0);
      const slices = await page.evaluate(() => window.stepwise.debug.slices());
      console.log(`# ${hash || 'default'}: ${tasks.length} tasks, longest CPU ${Math.max(...tasks.map((t) => t.cpuMs)).toFixed(1)} ms; ` +
        `longest slice ${slices.longestMs.toFixed(1)} ms (wall) over ${slices.slices} slices; long-task entries (wall) ${JSON.stringify(wall)}`);
      assert.ok(tasks.length > 20, 'the trace holds the page\'s tasks');
      assert.ok(slices.slices > 0, 'the studies ran in slices');
      // Judged only in a measuring run (the tasks' times are the machine's: tests/web/longtasks.test.mjs).
      if (process.env.STEPWISE_LONGTASK_TIMED === '1') assert.deepEqual(over, [], 'no main-thread task over 50 ms of CPU');
    });
  }
});

test('hostile view and equal_cost values: the banner names the key, nothing is inserted as markup, the page works', async () => {
  const cases = [
    ['view=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E', 'view'],
    ['view=', 'view'],
    ['equal_cost=2', 'equal_cost'],
    ['view=motion%22%3E%3Cscript%3Ealert(1)%3C/script%3E&equal_cost=%3Cb%3E', 'view'],
  ];
  for (const [bad, key] of cases) {
    await withPage({ hash: `scenario=spring&${bad}` }, async (page) => {
      let dialogs = 0;
      page.on('dialog', (d) => { dialogs += 1; d.dismiss(); });
      const messages = await errors(page);
      assert.ok(messages.some((m) => m.includes(key)), `${bad}: ${JSON.stringify(messages)}`);
      assert.equal(await page.locator('#errors').isVisible(), true);
      assert.equal(await page.locator('#errors img, #errors script, #errors b, .view-tabs img').count(), 0);
      assert.equal(await page.locator('img').count(), 0, 'no image inserted anywhere');
      assert.doesNotMatch(await config(page), /view=|equal_cost=/, 'the defaults are used');
      await playOn(page, 300);
      assert.ok((await state(page)).t > 0, 'the page still animates');
      assert.equal(dialogs, 0);
    });
  }
});

test('screenshots: convergence, stability and equal-cost motion (desktop, phone, dark, embedded)', async () => {
  const shots = [
    ['convergence', `${spring}&view=convergence`],
    ['stability', 'scenario=spring&integrators=explicit_euler,semi_implicit_euler,rk4,implicit_euler,rk45&view=stability'],
    ['equal-cost', 'scenario=spring&integrators=explicit_euler,rk4,implicit_euler,rk45&equal_cost=1&dt=0.02'],
  ];
  const looks = [
    { name: 'desktop', width: 1280, height: 900 },
    { name: 'phone', width: 390, height: 844 },
    { name: 'dark', width: 1280, height: 900, scheme: 'dark' },
    { name: 'embed', width: 640, height: 400, path: 'embed.html?ui=compact' },
  ];
  for (const [view, hash] of shots) {
    for (const look of looks) {
      await withPage({ hash, ...look }, async (page) => {
        if (view === 'equal-cost') await playOn(page, 1500);
        else await finished(page);
        await framesPass(page, 12);  // laid out and drawn
        await screenshot(page, `views-${view}-${look.name}`, { fullPage: look.name !== 'embed' });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `${view} ${look.name}: no horizontal scroll (${overflow} px)`);
      });
    }
  }
});
