// The README is the front door (issue 33 §1): at most 8 KB, one picture of the real page (made by
// scripts/readme-picture.mjs, shown at its own size), a first paragraph that names what Stepwise
// holds, a table of what is inside that names every system, method and view the core has, and the
// two commands with what their comments promise. The CLI is STEPWISE_BIN, as ctest passes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { picture } from '../../scripts/readme-picture.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const cli = process.env.STEPWISE_BIN || path.join(root, 'build/native/stepwise');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const section = (title) => {
  const start = readme.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `the README has a section "${title}"`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
};

test('the README is at most 8 KB', () => {
  const bytes = Buffer.byteLength(readme);
  assert.ok(bytes <= 8 * 1024, `README.md is ${bytes} bytes`);
});

test("the README's picture is the script's PNG, at the size the README states", () => {
  const images = [...readme.matchAll(/<img src="([^"]+)" width="(\d+)" height="(\d+)" alt="([^"]+)">/g)];
  assert.equal(images.length, 1, 'one picture');
  const [, src, width, height, alt] = images[0];
  assert.equal(src, picture.file, 'the file scripts/readme-picture.mjs writes');
  assert.ok(alt.length > 40, 'the picture says what it shows');
  const png = fs.readFileSync(path.join(root, src));
  // The signature, then the IHDR chunk: its width and height as big-endian 32-bit numbers.
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
  assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [Number(width), Number(height)], 'the size the README states');
  assert.deepEqual([Number(width), Number(height)], [picture.width, picture.height], 'the size the script shoots');
  assert.ok(png.length < 400 * 1024, `the picture is ${png.length} bytes: keep it small enough for a README`);
});

test('the first paragraph names the chains, the solvers, the scenes and the force laws', () => {
  const first = readme.split('\n\n')[1];
  for (const word of ['chains', 'solvers', 'scenes', 'force laws']) assert.ok(first.includes(word), word);
});

test('the table of what is inside names every system, integrator, solver and view of the core', () => {
  const list = JSON.parse(spawnSync(cli, ['list', '--format', 'json'], { encoding: 'utf8' }).stdout);
  const inside = section('What is inside');
  const named = (id) => inside.includes(`\`${id}\``);
  const ids = [...list.scenarios.map((s) => s.id), ...list.integrators.map((i) => i.id), ...list.views.map((v) => v.id)];
  assert.deepEqual(ids.filter((id) => !named(id)), [], 'ids the table leaves out');
  // …and nothing the core does not have: every id-like name in the table's first four rows is one.
  const rows = inside.split('\n').filter((l) => /^\| \*\*(Systems|Integrators|Solvers|Views)\*\*/.test(l));
  assert.equal(rows.length, 4);
  const extra = rows.flatMap((r) => [...r.matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]))
    .filter((id) => !ids.includes(id) && !['fx', 'fy'].includes(id));
  assert.deepEqual(extra, [], 'names in the table the core does not know');
});

test('the two commands are there, and what their comments say is what the scripts do', () => {
  const commands = section('Two commands (fresh Debian bookworm)');
  assert.ok(commands.includes('bash scripts/run.sh     # install everything, build, print a CLI table, serve the page on http://127.0.0.1:8080'));
  assert.ok(commands.includes('bash scripts/test.sh    # install everything, build, run every test (ctest, 20 s of each fuzz target, the web tests)'));
  const script = (name) => fs.readFileSync(path.join(root, 'scripts', name), 'utf8');
  assert.match(script('run.sh'), /bash scripts\/setup\.sh/);
  assert.match(script('run.sh'), /build\/native\/stepwise run /, 'run.sh prints a CLI table');
  assert.match(script('run.sh'), /exec bash scripts\/serve\.sh/);
  assert.match(script('serve.sh'), /serve\.mjs dist "\$\{PORT:-8080\}"/, 'served on port 8080');
  assert.match(script('test.sh'), /bash scripts\/setup\.sh/);
  assert.match(script('test.sh'), /ctest /);
  assert.match(script('test.sh'), /fuzz\.sh 20\n/, '20 s of each fuzz target');
  assert.match(script('test.sh'), /scripts\/test-web\.sh/);
});
