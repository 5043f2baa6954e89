// The CLI's output is what tests/pinned/outputs.json pinned (scripts/pin-outputs.mjs): every
// preset and a few more configs, with every integrator, through run, cloud, convergence,
// stability and trace, bit for bit. A change that alters output on purpose re-pins in the same
// commit (node scripts/pin-outputs.mjs --write) and says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { cases, digest, pinnedFile } from '../../scripts/pin-outputs.mjs';

test('the CLI prints what was pinned, bit for bit', () => {
  const pinned = JSON.parse(fs.readFileSync(pinnedFile, 'utf8'));
  const changed = [];
  const now = cases();
  for (const [name, args] of now) {
    if (!(name in pinned)) changed.push(`not pinned: ${name}`);
    else if (digest(args) !== pinned[name]) changed.push(`changed: ${name}`);
  }
  for (const name of Object.keys(pinned)) if (!now.some(([n]) => n === name)) changed.push(`pinned but not run: ${name}`);
  assert.deepEqual(changed, []);
});
