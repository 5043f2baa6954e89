// docs/reference.md is generated from the core's tables by scripts/gen-reference.mjs (issue 33 §1):
// the committed page must be what the script makes from this build's CLI (STEPWISE_BIN, as ctest
// passes it), so a key, range, default, preset or option that changes without the page failing here
// cannot happen. The fix is `node scripts/gen-reference.mjs`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { reference, referencePath, defaultCli, readmePath, readmeIntegratorsRow, readmeWithRow } from '../../scripts/gen-reference.mjs';

const cli = defaultCli();
const list = JSON.parse(spawnSync(cli, ['list', '--format', 'json'], { encoding: 'utf8' }).stdout);

test('docs/reference.md is what scripts/gen-reference.mjs makes from the core now', () => {
  const committed = fs.readFileSync(referencePath, 'utf8');
  const made = reference(cli);
  if (committed !== made) {
    const a = committed.split('\n'), b = made.split('\n');
    const at = a.findIndex((line, i) => line !== b[i]);
    assert.fail(`docs/reference.md differs from the generated page at line ${at + 1}:\n  committed: ${a[at]}\n  generated: ${b[at]}\n` +
      'run `node scripts/gen-reference.mjs`');
  }
});

test('the README\'s row of integrators is what scripts/gen-reference.mjs writes from the core now', () => {
  const readme = fs.readFileSync(readmePath, 'utf8');
  const row = readmeIntegratorsRow(cli);
  assert.ok(readme.includes(`\n${row}\n`), `the README's row should read\n${row}\nrun \`node scripts/gen-reference.mjs\``);
  assert.equal(readmeWithRow(readme, row), readme);
});

test('the same tables make the same page (the output depends on nothing else)', () => {
  assert.equal(reference(cli), reference(cli));
});

test('the page holds every scenario, preset, method, shared key, view and command the CLI knows', () => {
  const page = fs.readFileSync(referencePath, 'utf8');
  // A generator that dropped a table would still match its own output: check the tables' ids.
  for (const s of list.scenarios) {
    assert.ok(page.includes(`\n### ${s.id}\n`), `scenario ${s.id}`);
    for (const p of s.params) assert.ok(page.includes(`| \`${p.key}\` |`), `${s.id}'s key ${p.key}`);
  }
  for (const p of list.presets) assert.ok(page.includes(`<a id="preset-${p.id}"></a>`) && page.includes(p.query), `preset ${p.id}`);
  for (const i of list.integrators) assert.ok(page.includes(`| \`${i.id}\` | ${i.name} |`), `integrator ${i.id}`);
  for (const k of list.shared_keys) assert.ok(page.includes(`| \`${k.key}\` | ${k.group} |`), `shared key ${k.key}`);
  for (const v of list.views) assert.ok(page.includes(`| \`${v.id}\` | ${v.name} |`), `view ${v.id}`);
  for (const k of list.scene.kinds) assert.ok(page.includes(`### \`${k.id}\`: ${k.name}`), `scene item ${k.id}`);
  for (const m of list.messages) assert.ok(page.includes(`| \`${m.code}\` |`), `message ${m.code}`);
  const usage = spawnSync(cli, ['--help'], { encoding: 'utf8' }).stdout;
  for (const [, command] of usage.matchAll(/^ {2}stepwise (\w+)/gm)) assert.ok(page.includes(`### \`stepwise ${command}\``), `command ${command}`);
  // Every option of the usage has its row, with the CLI's own words for what it accepts.
  assert.match(page, /\| `--halvings` \| a whole number from 0 to 12, digits only \|/);
  assert.match(page, /\| `--budget` \| seconds of run time, a plain decimal number from 0\.001 to 86400 \(default 60\) \|/);
  assert.match(page, new RegExp(`\\| \`dt\` \\| run \\| the step \\(s\\) \\| a number from 1e-09 to 10 \\| \`${list.limits.default_dt}\` \\|`));
});
