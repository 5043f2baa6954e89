// Every link between the README and the docs leads somewhere (issue 33 §1 moved the README's
// sections into docs/): a relative link names a file of the repository, and a link to a heading of
// a Markdown file names a heading it has, as GitHub makes its anchor (lower case, punctuation
// dropped, spaces to '-', a repeated heading numbered), or an <a id> it holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const docs = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const withoutCode = (text) => text.replace(/^( *)```[\s\S]*?^\1```/gm, '');

export const anchorOf = (heading) => heading.trim().toLowerCase().replace(/<[^>]+>/g, '')
  .replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

function anchorsIn(file) {
  const text = withoutCode(fs.readFileSync(file, 'utf8'));
  const seen = new Map(), out = new Set();
  for (const [, heading] of text.matchAll(/^#{1,6} (.*)$/gm)) {
    const a = anchorOf(heading), n = seen.get(a) ?? 0;
    seen.set(a, n + 1);
    out.add(n ? `${a}-${n}` : a);
  }
  for (const [, id] of text.matchAll(/<a id="([^"]+)"/g)) out.add(id);
  return out;
}

test('GitHub anchors as this test makes them', () => {
  assert.equal(anchorOf('Scenes you build: `scenario=scene`'), 'scenes-you-build-scenarioscene');
  assert.equal(anchorOf('The scene editor (`web/editor/`)'), 'the-scene-editor-webeditor');
  assert.equal(anchorOf('`window.stepwise`'), 'windowstepwise');
  assert.equal(anchorOf('Links: pendulums, chains, bridges'), 'links-pendulums-chains-bridges');
});

test('every relative link of the README and docs/*.md names a file and a heading that exist', () => {
  const broken = [];
  let checked = 0;
  for (const doc of docs) {
    const text = withoutCode(fs.readFileSync(path.join(root, doc), 'utf8'));
    for (const target of [...text.matchAll(/\]\(([^)\s]+)\)|<img src="([^"]+)"/g)].map((m) => m[1] ?? m[2])) {
      if (/^[a-z]+:/.test(target)) continue;
      const [file, anchor] = target.split('#');
      const full = file ? path.resolve(path.dirname(path.join(root, doc)), file) : path.join(root, doc);
      checked++;
      if (!fs.existsSync(full)) broken.push(`${doc}: ${target} (no such file)`);
      else if (anchor && full.endsWith('.md') && !anchorsIn(full).has(anchor)) broken.push(`${doc}: ${target} (no such heading)`);
    }
  }
  assert.ok(checked > 100, `links checked: ${checked}`);
  assert.deepEqual(broken, []);
});
