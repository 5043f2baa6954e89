// Statements the docs and tables make about the model, checked against what the model does
// (issue 24, item 11): rk45's absolute tolerance is stated wherever its relative tolerance is
// (atol was found only by reproducing its step-size controller), and no text calls the damper
// "damping along the spring" when the model damps the whole velocity vector.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

const root = path.resolve(import.meta.dirname, '../..');
const files = () => {
  const out = ['README.md'];
  for (const dir of ['docs', 'core', 'web', 'public', 'cli', 'snippets/js']) {
    const full = path.join(root, dir);
    if (!fs.existsSync(full)) continue;
    // web/ with its folders (web/views/, web/strings/, …)
    for (const name of fs.readdirSync(full, { recursive: dir === 'web' })) {
      if (/\.(md|cpp|hpp|js|mjs|html)$/.test(name)) out.push(path.join(dir, name));
    }
  }
  return out;
};

test('every stated rtol value has atol beside it', () => {
  const missing = [];
  for (const file of files()) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    // "rtol 1e-9", "rtol = 1e-5", "rtol 1.3e-6": a value stated in words (not code such as L.rtol * factor).
    for (const m of text.matchAll(/\brtol(?: =)? \d[\d.e-]*/g)) {
      const window = text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40);
      if (!/\batol\b/.test(window)) missing.push(`${file}: …${text.slice(Math.max(0, m.index - 30), m.index + 40).replace(/\s+/g, ' ')}…`);
    }
  }
  assert.deepEqual(missing, []);
});

test("no text says the damper acts along the spring alone; the CLI's list says what the model does", () => {
  const wrong = [];
  for (const file of files()) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const m of text.matchAll(/damping along the spring|Dämpfung entlang der Feder/g)) wrong.push(`${file}: ${m[0]}`);
  }
  assert.deepEqual(wrong, []);
  const cli = path.join(root, 'build/native/stepwise');
  if (!fs.existsSync(cli)) return;  // the numbers tests build it; checked there when present
  const list = JSON.parse(execFileSync(cli, ['list', '--format', 'json'], { encoding: 'utf8' }));
  const scenario = (id) => list.scenarios.find((s) => s.id === id);
  const damping = (id) => scenario(id).params.find((p) => p.key === 'b' || p.name === 'b');
  assert.match(JSON.stringify(damping('elastic_pendulum')), /whole velocity, F = −b·v/);
  assert.match(JSON.stringify(damping('spring_pair')), /relative velocity, F = −b·\(v1 − v2\)/);
});
