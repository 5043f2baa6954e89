// The page and its tests read the core's arrays by name only (web/engine/layout.js decodes them from the
// layout the core describes), and the page knows no scenario: what it draws comes from the core's
// scene description. This test reads the sources for what would break that.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const self = path.basename(fileURLToPath(import.meta.url));
// Every file under dir, its folders too (web/views/, web/strings/, …), as {name, lines}.
const read = (dir, ext) => fs.readdirSync(path.join(root, dir), { recursive: true })
  .filter((f) => f.endsWith(ext) && path.basename(f) !== self)
  .map((f) => ({ name: `${dir}/${f}`, lines: fs.readFileSync(path.join(root, dir, f), 'utf8').split('\n') }));
const page = read('web', '.js');
assert.ok(page.some((f) => f.name === 'web/strings/de.js') && page.some((f) => f.name === 'web/views/stability.js'), 'web/ is read with its folders');
// The scenario ids, from the core's own table.
const site = process.env.STEPWISE_BUILT_SITE || path.join(root, 'build/site');  // the modules under their own names (tests/web/helpers.mjs builtSite)
const createStepwise = createRequire(import.meta.url)(path.join(site, 'stepwise.js'));
const M = await createStepwise({ wasmBinary: fs.readFileSync(path.join(site, 'stepwise-all.wasm')) });  // every part of the core
const scenarioIds = JSON.parse(M.tables()).scenarios.map((s) => s.id);
const tests = read('tests/web', '.mjs');

// Each finding: "file:line: text".
function find(files, pattern, { code = false } = {}) {
  const found = [];
  for (const f of files) {
    f.lines.forEach((line, i) => {
      const text = code ? line.replace(/\/\/.*$/, '') : line;  // comments may name things
      if (pattern.test(text)) found.push(`${f.name}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

test('no numeric offsets into the state or history arrays in the page or its tests', () => {
  const patterns = [
    /lane_fixed|state_header|history_lane_width|max_csv_rows/,  // the old layout's sizes
    /\*\s*6\s*\+|\bl\s*\*\s*6\b/,                               // the old history lane width
    /\b(raw|state|history|hist|sample|s|h)\s*\[\s*\d+\s*\]/,    // a fixed index into an array
    /\[\s*\w+\s*\*\s*(w|width)\s*\+\s*\d/,                      // sample i's k-th value, by number
  ];
  for (const pattern of patterns) assert.deepEqual(find([...page, ...tests], pattern, { code: true }), [], String(pattern));
});

test('the page has no scenario ids: it draws what the core describes', () => {
  assert.ok(scenarioIds.includes('orbit') && scenarioIds.includes('elastic_pendulum'));
  for (const id of scenarioIds) {
    const quoted = new RegExp(`['"\`]${id}['"\`]|scenario=${id}\\b|=== *'${id}`);
    // The config key of a built scene shares the word with its scenario: the editor names the
    // key in one constant (web/editor/editor.js sceneKey), never the scenario.
    const key = (found) => !/^web\/editor\/editor\.js:\d+: const sceneKey = 'scene';$/.test(found);
    assert.deepEqual(find(page, quoted, { code: true }).filter(key), [], id);
  }
  assert.equal(fs.existsSync(path.join(root, 'web/scene.js')), false, 'no scene geometry worked out in the page');
});

test('the tests decode through the page\'s decoder, not a copy of their own', () => {
  const wasm = tests.find((f) => f.name.endsWith('wasm-module.test.mjs')).lines.join('\n');
  assert.match(wasm, /from '\.\.\/\.\.\/web\/engine\/layout\.js'/);
});
