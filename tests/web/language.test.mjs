// The page's language and its numbers (node only, no Chromium): the link's lang= wins, else the
// browser's first language the page has; German numbers have a decimal comma and a narrow
// no-break space between thousands, English ones are unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseLanguage, linkLanguage } from '../../web/language.js';
import { formatValue, groupDigits, setNumberLanguage } from '../../web/coords.js';

test('the link names the language; without it the browser does (de, de-DE, de-AT → German)', () => {
  assert.equal(chooseLanguage('de', ['en-US']), 'de');
  assert.equal(chooseLanguage('en', ['de-DE']), 'en');
  for (const browser of [['de'], ['de-DE'], ['de-AT', 'en'], ['DE-ch'], ['fr-FR', 'de-DE']]) {
    assert.equal(chooseLanguage(null, browser), 'de', browser.join());
  }
  for (const browser of [[], ['en-GB'], ['fr'], ['en', 'de'], ['dsb'], ['nds-DE']]) {
    assert.equal(chooseLanguage(null, browser), 'en', browser.join());
  }
  assert.equal(linkLanguage('#scenario=spring&lang=de'), 'de');
  assert.equal(linkLanguage('?lang=en'), 'en');
  assert.equal(linkLanguage('#lang=fr'), null);
  assert.equal(linkLanguage(''), null);
});

test('German numbers: decimal comma, thousands apart by a narrow no-break space; English unchanged', () => {
  try {
    const cases = [[0.5, '0.5', '0,5'], [-1.25, '-1.25', '-1,25'], [15, '15', '15'],
      [3.14159, '3.14', '3,14'], [1.5e-4, '1.50e-4', '1,50e-4'], [123456, '1.23e5', '1,23e5'], [0, '0', '0']];
    for (const [x, en, de] of cases) {
      setNumberLanguage('en');
      assert.equal(formatValue(x), en, `en ${x}`);
      setNumberLanguage('de');
      assert.equal(formatValue(x), de, `de ${x}`);
    }
    setNumberLanguage('de');
    assert.equal(groupDigits(100000), '100\u202f000');
    assert.equal(groupDigits(-1234567), '-1\u202f234\u202f567');
    assert.equal(groupDigits(999), '999');
    assert.equal(formatValue(NaN), '—');
    setNumberLanguage('en');
    assert.equal(groupDigits(100000), '100,000');
    setNumberLanguage('xx');  // unknown: English
    assert.equal(formatValue(0.5), '0.5');
  } finally {
    setNumberLanguage('en');
  }
});

// The German table against the core's own (the module of build/site, or STEPWISE_SITE): every
// integrator, view, scenario and loop kind has German text and description, none left English unless listed.
test('every integrator, view, scenario and loop kind of the core has German text, none left in English', async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { createRequire } = await import('node:module');
  const { fileURLToPath } = await import('node:url');
  const de = await import('../../web/strings/de.js');
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const site = process.env.STEPWISE_SITE || path.join(root, 'build/site');
  const createStepwise = createRequire(import.meta.url)(path.join(site, 'stepwise.js'));
  const M = await createStepwise({ wasmBinary: fs.readFileSync(path.join(site, 'stepwise.wasm')) });
  const tables = [['integrators', M.integrators(), ['name', 'description']], ['views', M.views(), ['name', 'description']],
    ['scenarios', M.scenarios(), ['name', 'description']], ['loopKinds', M.loopTable().kinds, ['description']]];
  for (const [table, rows, fields] of tables) {
    assert.deepEqual(Object.keys(de[table]).sort(), rows.map((r) => r.id).sort(), table);
    for (const row of rows) {
      const german = de[table][row.id];
      for (const field of fields) {
        assert.ok(german[field]?.trim(), `${table} ${row.id} ${field} is empty`);
        if (!de.sameInBothLanguages.has(german[field])) {
          assert.notEqual(german[field], row[field], `${table} ${row.id} ${field} is still English`);
        }
      }
    }
  }
});
