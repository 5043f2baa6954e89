// The motion module's variants (core/parts.hpp, wasm_bindings/CMakeLists.txt), as the built site
// ships them: one loader (stepwise.js) starts each (scripts/motion-variants.mjs renames their
// imports), every variant has the same tables, reads what it carries exactly as the variant with
// every part does, step for step to the last bit, and says which parts it lacks for the rest,
// never running something else; the pages' table of them is the one the core gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { builtSite } from './helpers.mjs';
import { variantsTable, variantsBlock } from '../../scripts/motion-variants.mjs';

const require = createRequire(import.meta.url);
// Each module started in Node adds its own process listeners: six of them here.
process.setMaxListeners(20);
const load = (file) => require(path.join(builtSite, 'stepwise.js'))({ wasmBinary: fs.readFileSync(path.join(builtSite, file)) });
const table = JSON.parse(fs.readFileSync(path.join(builtSite, 'index.html'), 'utf8').match(variantsBlock)[0]
  .replace(/^<script[^>]*>/, '').replace(/<\/script>$/, ''));
const modules = new Map();
for (const v of table.variants) modules.set(v.file, await load(v.file));
const all = modules.get('stepwise-all.wasm');
const tables = JSON.parse(all.tables());

// A link of every scenario and preset, a solver lane on a spring, written forces, and a scene
// with a written force (which only the variant with every part carries).
const links = [
  ...tables.scenarios.map((s) => `scenario=${s.id}`),
  ...tables.presets.map((p) => `preset=${p.id}`),
  'scenario=spring&integrators=pbd,rk4',
  'scenario=projectile&fx=-0.5*vx&fy=-9.81',
  'scenario=chain&links=3&fx=-x',
  'scenario=scene&scene=a:0,0;b:1,0;s:a0,b0,k:10&fx=-c1*vx&c1=0.3',
];

test('the pages\' table is the core\'s: every variant, its parts as it says, smallest first', async () => {
  assert.deepEqual(table, await variantsTable(builtSite));
  assert.deepEqual(table.variants.map((v) => v.file).sort(),
    ['stepwise-all.wasm', 'stepwise-links.wasm', 'stepwise-scenes.wasm', 'stepwise-written.wasm', 'stepwise.wasm']);
  assert.equal(table.variants[0].file, 'stepwise.wasm', 'the default link\'s variant is the smallest');
  assert.deepEqual(table.variants[0].parts, []);
  assert.deepEqual(table.variants.at(-1).parts, ['links', 'scenes', 'written']);
  // The families: the pendulum, the chain and the bridge need the links; a built scene the scenes too.
  assert.deepEqual(table.needs.scenario, { pendulum: ['links'], chain: ['links'], bridge: ['links'], scene: ['links', 'scenes'] });
  assert.deepEqual(table.needs.keys, { fx: ['written'], fy: ['written'] });
  assert.deepEqual(Object.keys(table.needs.integrators).sort(), ['pbd', 'sequential_impulses', 'soft_step', 'vbd', 'xpbd']);
});

test('every variant has the same tables', () => {
  for (const [file, M] of modules) assert.equal(M.tables(), all.tables(), file);
});

test('a variant runs what it carries as the whole module does, bit for bit, and names what it lacks', () => {
  let ran = 0, refused = 0;
  for (const [file, M] of modules) {
    const carried = [...M.carriedParts()];
    for (const link of links) {
      const whole = all.parse(link);
      assert.deepEqual([...whole.missingParts], [], `${link}: the whole module lacks nothing`);
      const mine = M.parse(link);
      const missing = [...mine.missingParts];
      const sim = new M.Simulation(link);
      try {
        assert.deepEqual([...sim.missingParts()], missing, `${file} ${link}: the simulation says what the parse says`);
        for (const part of missing) assert.ok(!carried.includes(part), `${file} ${link}: ${part} is missing only if not carried`);
        const unread = missing.includes('scenes') || missing.includes('written');
        if (missing.length) {
          refused += 1;
          // It runs the default system, never a part of the link, and cannot normalise what it cannot read.
          assert.equal(sim.config(), all.normalise(`scenario=${tables.limits.default_scenario}`), `${file} ${link}: the default system`);
          assert.equal(M.normalise(link), unread ? '' : all.normalise(link), `${file} ${link}: normalise`);
          if (!unread) assert.deepEqual(mine.errors, whole.errors, `${file} ${link}: a link without the links part is still read whole`);
          continue;
        }
        ran += 1;
        assert.equal(M.normalise(link), all.normalise(link), `${file} ${link}`);
        assert.deepEqual(mine, whole, `${file} ${link}: the parse`);
        const ref = new all.Simulation(link);
        try {
          assert.equal(sim.config(), ref.config());
          assert.equal(sim.advanceSteps(40), ref.advanceSteps(40));
          const a = new Float64Array(sim.state().slice()), b = new Float64Array(ref.state().slice());
          assert.deepEqual(new Uint8Array(a.buffer), new Uint8Array(b.buffer), `${file} ${link}: the state after 40 steps, bit for bit`);
        } finally {
          ref.delete();
        }
      } finally {
        sim.delete();
      }
    }
  }
  // Each variant ran some links and refused others (the whole one refused none).
  assert.ok(ran > links.length * 2 && refused > links.length, `${ran} ran, ${refused} refused`);
});
