// Links: today's links pinned (they must keep opening as the same config in every future
// version), the round trip controls → address → new page, "Copy link", and hostile links.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { startBrowser, openPage, state, builtSite, screenshot } from './helpers.mjs';
import { cli, cliRowsAt } from './run-text.mjs';

const require = createRequire(import.meta.url);
// The motion module's variant with every part of the core (core/parts.hpp), under the page's one loader.
const M = await require(path.join(builtSite, 'stepwise.js'))({ wasmBinary: fs.readFileSync(path.join(builtSite, 'stepwise-all.wasm')) });

// Today's links (v=1) and the normalised config each must open as. Never edit an entry: a new
// format version must keep reading these. Presets, hand-written links with and without v=1, keys
// in any order, percent-encoding, exponents, an empty link, and the lesson page's two links.
const pinned = [
  ['preset=constant_force', 'v=1&scenario=projectile&integrators=explicit_euler,semi_implicit_euler,newton,velocity_verlet,rk4&dt=1&duration=10&m=1&g=10&drag=0&x0=0,0&v0=0,0'],
  ['preset=damped_spring', 'v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,rk4,kinematic&dt=0.01&duration=10&m=1&k=15&b=0.1&rest=0&anchor=0,0&x0=1000,0&v0=0,0'],
  ['preset=undamped_dt01', 'v=1&scenario=spring&integrators=semi_implicit_euler,rk4,velocity_verlet&dt=0.1&duration=90&m=1&k=15&b=0&rest=0&anchor=0,0&x0=1000,0&v0=0,0'],
  ['preset=undamped_dt025', 'v=1&scenario=spring&integrators=semi_implicit_euler,rk4,velocity_verlet&dt=0.25&duration=90&m=1&k=15&b=0&rest=0&anchor=0,0&x0=1000,0&v0=0,0'],
  ['preset=two_point_exercise', 'v=1&scenario=spring_pair&integrators=explicit_euler,heun,midpoint,semi_implicit_euler,leapfrog,rk4&dt=0.5&duration=10&m1=2&m2=3&k=4&b=0&rest=6&g=0,-10&x1=-2,2&x2=3,2&v1=-1,-1.5&v2=1,-1.5'],
  ['preset=two_springs', 'v=1&scenario=two_spring&integrators=semi_implicit_euler,kinematic,kinematic_avg,rk4&dt=0.05&duration=60&m=1&k1=10&k2=20&b=0&rest1=0&rest2=0&anchor1=-2,0&anchor2=2,0&x0=1,1&v0=0,0'],
  ['preset=stiff_spring', 'v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.05&duration=10&m=1&k=1000&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0'],
  ['preset=projectile_drag', 'v=1&scenario=projectile&integrators=explicit_euler,semi_implicit_euler,newton,rk4,kinematic&dt=0.1&duration=4&m=1&g=9.81&drag=0.05&x0=0,0&v0=20,20'],
  ['v=1&preset=stiff_spring&dt=0.02', 'v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.02&duration=10&m=1&k=1000&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0'],
  ['scenario=spring&integrators=explicit_euler,rk4&dt=0.01&k=15&b=0.1&x0=1000,0', 'v=1&scenario=spring&integrators=explicit_euler,rk4&dt=0.01&duration=10&m=1&k=15&b=0.1&rest=0&anchor=0,0&x0=1000,0&v0=0,0'],
  ['v=1&scenario=spring&integrators=explicit_euler,rk4&dt=0.01&k=15&b=0.1&x0=1000,0', 'v=1&scenario=spring&integrators=explicit_euler,rk4&dt=0.01&duration=10&m=1&k=15&b=0.1&rest=0&anchor=0,0&x0=1000,0&v0=0,0'],
  ['dt=0.05&integrators=newton,rk4&scenario=projectile&v0=3,4', 'v=1&scenario=projectile&integrators=newton,rk4&dt=0.05&duration=10&m=1&g=9.81&drag=0&x0=0,0&v0=3,4'],
  ['scenario=two_spring&integrators=semi_implicit_euler,kinematic,kinematic_avg&k1=10&k2=20&dt=0.001&duration=2', 'v=1&scenario=two_spring&integrators=semi_implicit_euler,kinematic,kinematic_avg&dt=0.001&duration=2&m=1&k1=10&k2=20&b=0&rest1=0&rest2=0&anchor1=-2,0&anchor2=2,0&x0=1,1&v0=0,0'],
  ['scenario=spring_pair&integrators=heun,midpoint&dt=0.5&duration=5', 'v=1&scenario=spring_pair&integrators=heun,midpoint&dt=0.5&duration=5&m1=2&m2=3&k=4&b=0&rest=6&g=0,-10&x1=-2,2&x2=3,2&v1=-1,-1.5&v2=1,-1.5'],
  ['v=1&scenario=projectile&integrators=velocity_verlet&drag=0.3&v0=30,40&dt=0.02&duration=8', 'v=1&scenario=projectile&integrators=velocity_verlet&dt=0.02&duration=8&m=1&g=9.81&drag=0.3&x0=0,0&v0=30,40'],
  ['scenario=spring&integrators=yoshida4%2Cleapfrog&dt=1e-2&k=1.5E1', 'v=1&scenario=spring&integrators=yoshida4,leapfrog&dt=0.01&duration=10&m=1&k=15&b=0.1&rest=0&anchor=0,0&x0=1,0&v0=0,0'],
  ['scenario=spring', 'v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.01&duration=10&m=1&k=15&b=0.1&rest=0&anchor=0,0&x0=1,0&v0=0,0'],
  ['', 'v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.01&duration=10&m=1&k=15&b=0.1&rest=0&anchor=0,0&x0=1,0&v0=0,0'],
  // The lesson page's frames (public/lesson.html).
  ['v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler&dt=0.1&duration=20&m=1&k=10&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0', 'v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler&dt=0.1&duration=20&m=1&k=10&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0'],
  ['v=1&scenario=spring&integrators=semi_implicit_euler,implicit_euler,kinematic&dt=0.1&duration=20&m=1&k=100&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0', 'v=1&scenario=spring&integrators=semi_implicit_euler,implicit_euler,kinematic&dt=0.1&duration=20&m=1&k=100&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0'],
];

// The page's state() equals the CLI's rows: every fixed-step lane's x, y, vx, vy and energy to the
// last bit; rk45 and the error (through libm's exp/sin/cos/pow) to 1e-12 of the position's size.
function assertSameAsCli(pageState, rows, label) {
  assert.equal(pageState.bodies.length, rows.length, `${label}: rows`);
  pageState.bodies.forEach((b, i) => {
    const r = rows[i];
    assert.equal(b.integrator, r.integrator, label);
    assert.equal(b.body, r.body, label);
    for (const f of ['x', 'y', 'vx', 'vy', 'energy', 'error']) {
      if (f !== 'error' && r.integrator !== 'rk45') {
        assert.ok(Object.is(b[f], r[f]), `${label}: ${r.integrator} ${f}: page ${b[f]} CLI ${r[f]}`);
      } else {
        const scale = f === 'error' ? Math.max(Math.abs(r.x), Math.abs(r.y), 1e-300) : Math.max(Math.abs(r[f]), 1e-300);
        assert.ok(Math.abs(b[f] - r[f]) <= 1e-12 * scale, `${label}: ${r.integrator} ${f}: page ${b[f]} CLI ${r[f]}`);
      }
    }
  });
}

test('pinned links normalise to the same config in the core (wasm) and the CLI', () => {
  for (const [link, expected] of pinned) {
    assert.equal(M.normalise(link), expected, `wasm: ${link}`);
    assert.deepEqual(M.parse(link).errors, [], `no error: ${link}`);
    if (link !== '') {
      assert.equal(execFileSync(cli, ['check', link], { encoding: 'utf8' }).trim(), expected, `CLI: ${link}`);
    }
    // Normalised configs are fixed points; a link without v is read as v=1.
    assert.equal(M.normalise(expected), expected);
    assert.equal(M.normalise(expected.replace(/^v=1&/, '')), expected);
  }
});

let env;
before(async () => { env = await startBrowser(); });
after(async () => { await env?.close(); });

test('pinned links open in the page as the same config, and state() after N steps equals stepwise run', async () => {
  const { page, context, problems } = await openPage(env, {});
  try {
    for (const [link, expected] of pinned) {
      await page.goto('about:blank');  // then a full load, not a hash-only navigation
      await page.goto(`${env.server.url}index.html#${link}`);
      await page.evaluate(() => window.stepwise.ready);
      assert.equal(await page.evaluate(() => window.stepwise.config()), expected, link);
      await page.waitForFunction((c) => location.hash === `#${c}`, expected);
      const n = 23;
      const s = await page.evaluate((steps) => { for (let i = 0; i < steps; ++i) window.stepwise.step(); return window.stepwise.state(); }, n);
      assert.equal(s.steps, n);
      assertSameAsCli(s, cliRowsAt(expected, n), link || '(empty link)');
    }
    // Each page starts loading the full module 400 ms after it settles (the legend's study); the
    // test's own next navigation aborts that load when it is still under way (a busy machine):
    // not a request of the page that failed.
    assert.deepEqual(problems.filter((p) => !/^requestfailed: .*\/stepwise-full(-[0-9a-f]{10})?\.(js|wasm)$/.test(p)), []);
  } finally {
    await context.close();
  }
});

test('round trip: set through the controls, open the address in a new page, same state after the same steps', async () => {
  const a = await openPage(env, { hash: 'preset=two_springs' });
  try {
    const { page } = a;
    const entries = await page.evaluate(() => history.length);
    await page.selectOption('#preset', 'stiff_spring');
    await page.check('#int-kinematic');
    await page.uncheck('#int-velocity_verlet');
    await page.fill('#dt', '0.02');
    await page.locator('#dt').dispatchEvent('change');
    await page.fill('#param-k', '750');
    await page.locator('#param-k').dispatchEvent('change');
    await page.fill('#param-v0-y', '2.5');
    await page.locator('#param-v0-y').dispatchEvent('change');
    const config = await page.evaluate(() => window.stepwise.config());
    assert.equal(config, 'v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,rk4,kinematic&dt=0.02&duration=10&m=1&k=750&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,2.5');
    // The address follows every change (replaceState, throttled to 5 a second: wait for it).
    await page.waitForFunction((c) => location.hash === `#${c}`, config);
    assert.equal(await page.evaluate(() => history.length), entries, 'replaceState: no history entries added');
    await page.locator('#speed').fill('0.5');
    await page.evaluate(() => window.stepwise.play());
    await page.waitForFunction(() => window.stepwise.state().steps > 10);
    await page.evaluate(() => window.stepwise.pause());
    const s1 = await state(page);
    assert.ok(s1.steps > 10);
    const view1 = await page.evaluate(() => window.stepwise.debug.view());
    const address = page.url();

    // A new page opened at the address (not a page navigated away mid-load: its full module's
    // request, aborted by the navigation, is no failure of the page's).
    const b = await openPage(env, { hash: new URL(address).hash.slice(1) });
    try {
      assert.equal(b.page.url(), address);
      assert.equal(await b.page.evaluate(() => window.stepwise.config()), config);
      const s2 = await b.page.evaluate((n) => { for (let i = 0; i < n; ++i) window.stepwise.step(); return window.stepwise.state(); }, s1.steps);
      assert.deepEqual(s2.bodies, s1.bodies, 'bit-identical state after the same steps');
      assert.equal(s2.t, s1.t);
      assert.deepEqual(await b.page.evaluate(() => window.stepwise.debug.view()), view1, 'the same view');
      for (const id of ['#scenario', '#dt', '#param-k', '#param-v0-y']) {
        assert.equal(await b.page.inputValue(id), await page.inputValue(id), id);
      }
      // And the CLI agrees.
      assertSameAsCli(s2, cliRowsAt(config, s1.steps), 'round trip vs CLI');
      assert.deepEqual(b.problems, []);
    } finally {
      await b.context.close();
    }
    assert.deepEqual(a.problems, []);
  } finally {
    await a.context.close();
  }
});

test('"Copy link" copies the full address of this exact setup and says so', async () => {
  const { page, context, problems } = await openPage(env, { hash: 'preset=projectile_drag&dt=0.05' });
  try {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
    await page.click('#copy-link');
    await page.waitForFunction(() => /Link copied/.test(document.getElementById('share-status').textContent));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const config = await page.evaluate(() => window.stepwise.config());
    assert.equal(copied, `${env.server.url}index.html#${config}`);
    assert.match(config, /&dt=0.05&/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// Hostile links: [name, hash, keys some error must name].
const hostile = [
  ['script in a key', '<script>window.__pwned=1</script>=1', ['<script>window.__pwned']],
  ['markup in a value', 'scenario=spring&k=<img src=x onerror="window.__pwned=1">', ['k']],
  ['markup in an integrator', `integrators=rk4,"><svg/onload=window.__pwned=1>`, ['integrator', '"><svg/onload']],
  ['a javascript: scenario', 'scenario=javascript:window.__pwned=1', ['scenario']],
  ['percent-encoded markup', 'k=%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E&dt=%22%3E%3Cb%3E', ['k', 'dt']],
  ['NaN', 'dt=NaN&x0=nan,1', ['dt', 'x0']],
  ['Infinity', 'scenario=spring&k=Infinity&m=-Infinity', ['k', 'm']],
  ['1e308', 'scenario=spring&m=1e308&k=1e308&x0=1e308,0', ['m', 'k', 'x0']],
  ['negative and zero masses', 'scenario=spring_pair&m1=-1&m2=0', ['m1', 'm2']],
  ['dt = 0', 'dt=0&duration=0', ['dt', 'duration']],
  ['a huge integrator list', `integrators=${Array(5000).fill('rk4').join(',')}`, ['integrators']],
  ['listed twice', 'integrators=rk4,rk4,heun', ['rk4']],
  ['unknown keys', 'scenario=projectile&foo=bar&onload=alert(1)', ['foo', 'onload']],
  ['repeated keys', 'dt=0.1&dt=0.2&k=3&k=4', ['dt', 'k']],
  ['broken percent-encoding', 'k=%E0%A4%A&dt=%zz&%=1', ['k', 'dt']],
  ['a hex number', 'dt=0x10', ['dt']],
  ['an unknown version', 'v=2&scenario=spring', ['v']],
  ['a 100 KB value', `k=${'9'.repeat(100000)}`, ['k']],
  ['a 100 KB link of pairs', 'x0=1,1&'.repeat(14300), ['x0']],
];

test('hostile links: errors name the key, nothing runs, the valid parts work, the page animates', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 860 } });
  try {
    for (const [name, hash, keys] of hostile) {
      const page = await context.newPage();
      const problems = [];
      const requests = [];
      page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss(); });
      page.on('request', (r) => requests.push(new URL(r.url()).pathname));
      const t0 = Date.now();
      await page.goto(`${env.server.url}index.html#${hash}`);
      await page.evaluate(() => window.stepwise.ready);
      const readyMs = Date.now() - t0;
      assert.ok(readyMs < 8000, `${name}: ready in ${readyMs} ms`);
      const errors = await page.evaluate(() => window.stepwise.errors());
      for (const key of keys) {
        assert.ok(errors.some((e) => e.includes(key)), `${name}: an error names ${key}: ${errors.join(' | ').slice(0, 400)}`);
      }
      // Shown, as text, and dismissable.
      assert.equal(await page.locator('#errors').isVisible(), true, name);
      const tags = await page.evaluate(() => [...new Set([...document.querySelectorAll('#errors *')].map((e) => e.tagName))].sort());
      assert.deepEqual(tags.filter((t) => !['BUTTON', 'LI', 'P', 'UL'].includes(t)), [], `${name}: no markup from the link`);
      assert.equal(await page.evaluate(() => window.__pwned), undefined, `${name}: nothing executed`);
      // The page's own files only (the full module loads 400 ms after the page settles), under
      // their content-hashed names in dist/ (its chunks named by esbuild), plus dist's worker.
      const own = /^\/(index\.html|sw\.js|style(-[0-9a-f]{10})?\.css|stepwise(-full)?(-[0-9a-f]{10})?\.(js|wasm)|web\/(?:[a-z-]+\/)*[a-z-]+(-[A-Z0-9]{8})?(-[0-9a-f]{10})?\.js)$/;
      assert.deepEqual(requests.filter((p) => !own.test(p)), [], `${name}: no request from the link`);
      // The valid parts: the address now holds the normalised config.
      const config = await page.evaluate(() => window.stepwise.config());
      await page.waitForFunction((c) => location.hash === `#${c}`, config);
      assert.deepEqual(M.parse(config).errors, [], `${name}: the kept config is valid`);
      // Still animating.
      const frames0 = (await page.evaluate(() => window.stepwise.debug.timings())).frames;
      await page.evaluate(() => window.stepwise.play());
      // Time moves and frames are drawn (waited for: a busy machine takes more steps a frame).
      await page.waitForFunction(() => window.stepwise.state().t > 0.05, null, { timeout: 30000 });
      await page.waitForFunction((f0) => window.stepwise.debug.timings().frames > f0 + 2, frames0, { timeout: 30000 }).catch(() => {});
      const frames1 = (await page.evaluate(() => window.stepwise.debug.timings())).frames;
      assert.ok(frames1 > frames0 + 2, `${name}: frames drawn`);
      if (name === 'markup in a value') await screenshot(page, 'error-banner-desktop-light');
      await page.click('#errors-dismiss');
      assert.equal(await page.locator('#errors').isVisible(), false, `${name}: dismissed`);
      assert.deepEqual(problems, [], name);
      await page.close();
    }
  } finally {
    await context.close();
  }
});

test('the error banner at phone width, dark', async () => {
  const { page, context, problems } = await openPage(env, {
    width: 360, height: 740, scheme: 'dark', hash: 'scenario=spring&dt=0&k=<b>bold</b>&integrators=rk4,nope&foo=1',
  });
  try {
    assert.equal(await page.textContent('#errors-title'), '4 parts of this link could not be used; the rest was.');
    assert.equal(await page.locator('#errors li').count(), 4);
    const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: innerWidth }));
    assert.ok(scroll <= width);
    await screenshot(page, 'error-banner-phone-dark');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
