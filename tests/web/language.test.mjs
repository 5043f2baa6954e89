// The page's language and its numbers (node only, no Chromium): the link's lang= wins, else the
// browser's first language the page has; German numbers have a decimal comma and a narrow
// no-break space between thousands, English ones are unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseLanguage, linkLanguage } from '../../web/common/language.js';
import { formatValue, groupDigits, setNumberLanguage } from '../../web/common/text.js';

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

// The German table against the core's own (the module of build/site, or STEPWISE_BUILT_SITE): every
// integrator, view, scenario and loop kind has German text and description, none left English unless listed.
test('every integrator, view, scenario and loop kind of the core has German text, none left in English', async () => {
  const { motionModule } = await import('./texts.mjs');
  const de = await import('../../web/strings/de.js');
  const M = await motionModule();
  const tables = [['integrators', JSON.parse(M.tables()).integrators, ['name', 'description']], ['views', JSON.parse(M.tables()).views, ['name', 'description']],
    ['scenarios', JSON.parse(M.tables()).scenarios, ['name', 'description']], ['loopKinds', JSON.parse(M.tables()).loop.kinds, ['description']]];
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

// Every English text of the page has its German: the texts written through t()/marked() in web/
// and the lesson's script, the HTML's texts (index.html, which embed.html is, and lesson.html),
// and the core's texts the page shows (tests/web/texts.mjs). A German text equal to its English
// is only allowed for a name, a symbol or code (sameInBothLanguages).
test('every English text of the page and the core\'s tables has a German one; none is left English', async () => {
  const { scriptTexts, htmlTexts, coreTexts, snippetTexts, motionModule } = await import('./texts.mjs');
  const de = await import('../../web/strings/de.js');
  const M = await motionModule();
  const scripts = scriptTexts();
  const sources = [
    ...[...scripts].map(([text, file]) => [text, file]),
    ...[...htmlTexts('index.html')].map((text) => [text, 'public/index.html']),
    ...[...htmlTexts('lesson.html')].map((text) => [text, 'public/lesson.html']),
    ...[...coreTexts(M)].map((text) => [text, 'the core\'s tables']),
    ...[...snippetTexts()].map((text) => [text, 'snippets/manifest.json']),
  ];
  assert.ok(scripts.size > 300, `${scripts.size} texts in the scripts`);
  assert.ok(sources.length > 600, `${sources.length} texts in all`);
  const missing = sources.filter(([text]) => !(text in de.texts) && !de.sameInBothLanguages.has(text));
  assert.deepEqual(missing.map(([text, file]) => `${file}: ${text}`), [], 'English texts without a German one');
  for (const [english, german] of Object.entries(de.texts)) {
    assert.ok(german.trim(), `the German of '${english}' is empty`);
    if (english === german) assert.ok(de.sameInBothLanguages.has(english), `'${english}' is left English`);
    // The parts a text names ({n}, {name} …) are the same in both.
    const parts = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
    assert.equal(parts(german), parts(english), `the parts of '${english}'`);
  }
});

// The core's messages about a link, in German from their code and arguments (core/messages.cpp):
// German has a template for every row of the core's table, with the same {names}, and every
// message reads as a whole German sentence with the key, the value and what is allowed.
test('the core\'s messages about a bad link read as whole German sentences, from their codes', async () => {
  const { motionModule } = await import('./texts.mjs');
  const de = await import('../../web/strings/de.js');
  const language = await import('../../web/common/language.js');
  const M = await motionModule();
  const tables = JSON.parse(M.tables());
  const names = (text) => [...new Set(text.match(/\{\w+\}/g) || [])].sort();
  for (const [rows, german] of [[tables.messages, de.messages], [tables.allowed_forms, de.allowedForms]]) {
    assert.deepEqual(Object.keys(german).sort(), rows.map((r) => r.code).sort(), 'a German template for every code, and no other');
    for (const row of rows) assert.deepEqual(names(german[row.code]), names(row.text), `${row.code}: the same arguments`);
  }
  language.useLanguage('de', de);
  try {
    const links = ['dt=-1', 'duration=0', 'scenario=spring&k=abc', 'scenario=spring&zz=1', 'scenario=nope', 'preset=nope',
      'integrators=rk4,nope', 'integrators=rk4,rk4', 'integrators=rk4,,heun', 'dt=0.1&dt=0.2', 'loop=sometimes', 'equal_cost=2',
      'cloud=-3', 'cloud=1.5', 'v=2', 'scenario=spring&loop=fixed&hz=0', 'scenario=spring&loop=fixed&jitter=0.5',
      'scenario=spring&hz=30', 'lang=fr', 'view=nope', 'scenario=spring&loop=fixed&dt=0.1', 'novalue', '=1', 'k%zz=1',
      'k=%z', 'dt=0.00001&duration=100000', 'cloud_radius=0', 'scenario=orbit&x0=0,0', 'scenario=spring&x0=a',
      'scenario=pendulum&compliance=1e-20', 'scenario=bridge&span=100', 'scenario=chain&links=0', 'scenario=chain&end_mass=1e-9',
      'scenario=bridge&view=cloud', 'scenario=bridge&cloud=10', 'loop=variable&seed=3', 'loop=variable&max_steps=4', 'loop=fixed&equal_cost=1',
      'loop=fixed&cloud=10', 'loop=fixed&view=convergence', 'loop=variable&view=stability', 'preset=damped_spring&scenario=orbit'];
    const english = /\b(?:the|and|must|got|unknown|known|with|of|is|be|or|drop|add|a|an|to|at|than|number|whole|cannot|only|from|each)\b/;
    const codes = new Set();
    for (const link of links) {
      const { errors } = M.parse(link);
      assert.ok(errors.length > 0, `${link} has an error`);
      for (const e of errors) {
        const german = language.coreMessage(e);
        codes.add(e.code);
        assert.ok(german.includes(e.key) || e.key === '', `${link}: the key ${e.key} in '${german}'`);
        assert.ok(!/\{\w+\}/.test(german), `${link}: every argument filled in '${german}'`);
        // Quoted values and key lists are the link's own text, not words.
        const words = german.replace(/'[^']*'/g, '').replace(/bekannt sind: .*$/, '').replace(/\b[a-z_]+=\S*/g, '');
        assert.doesNotMatch(words, english, `${link}: '${german}' (from '${e.message}')`);
      }
    }
    assert.ok(codes.size >= 25, `${codes.size} codes seen`);
    // Word for word, with German decimal commas in the numbers of what is allowed, not in what was typed.
    const say = (link) => language.coreMessage(M.parse(link).errors[0]);
    assert.equal(say('dt=-1'), "dt muss eine Zahl von 1e-09 bis 10 sein; eingegeben: '-1'");
    assert.equal(say('scenario=spring&zz=1').split(';')[0], "Unbekannter Schlüssel 'zz' für das System spring");
    assert.match(say('integrators=rk4,nope'), /^integrators: unbekannter Integrator 'nope'; bekannt sind: explicit_euler, /);
    assert.equal(say('scenario=spring&loop=fixed&hz=0'), "hz muss eine Zahl von 1 bis 1000 (Bilder je Sekunde) sein; eingegeben: '0'");
    assert.equal(say('cloud_radius=0.5e-7'), "cloud_radius muss eine Zahl von 1e-06 bis 1000000 (Meter entlang x, m/s entlang vx) sein; eingegeben: '0.5e-7'");
    assert.equal(say('scenario=bridge&span=100'), "span muss mindestens length/1000 = 0,001 m und weniger als links × length = 12 m sein " +
      "(eine Brücke hängt zwischen ihren Aufhängepunkten durch); eingegeben: '100'");
    assert.equal(say('scenario=spring&hz=30'), "hz ist eine Einstellung der Spielschleife: loop=fixed hinzufügen (gelesen von " +
      "loop=fixed, variable und accumulator) oder hz weglassen; eingegeben: '30'");
    // A loop key's range in the game loop's table, in German.
    language.localiseTables({ integrators: [], scenarios: [], views: [], presets: [], loopTable: tables.loop }, de);
    assert.equal(tables.loop.keys.find((k) => k.key === 'hz').allowed, 'eine Zahl von 1 bis 1000 (Bilder je Sekunde)');
    assert.equal(tables.loop.keys.find((k) => k.key === 'jitter').allowed.replace(/\(.*\)/, '(…)'), 'eine Zahl von 0 bis unter 1 (…)');
  } finally {
    language.useLanguage('en');
  }
});

// The core's sentences with numbers: a game loop in words, a traced step's stage names.
test('the game loop\'s line and the X-ray\'s stage names in German, with decimal commas', async () => {
  const de = await import('../../web/strings/de.js');
  assert.equal(de.sentences.loop('accumulator at 30 Hz, 4 substeps (step 1/120 s), jitter 0.5 (seed 7), at most 8 steps a frame'),
    'Akkumulator (accumulator), 30 Hz, 4 Teilschritte (Schritt 1/120 s), Schwankung 0,5 (Startwert 7), höchstens 8 Schritte je Bild');
  assert.equal(de.sentences.loop('variable at 30 Hz, jitter 0'), 'variabel (variable), 30 Hz, Schwankung 0');
  assert.equal(de.sentences.loop('fixed at 60 Hz, 1 substep (step 1/60 s)'), 'fest (fixed), 60 Hz, 1 Teilschritt (Schritt 1/60 s)');
  assert.equal(de.sentences.stage('kick 2 (conservative forces at v = 0)'), 'Stoß 2 (konservative Kräfte bei v = 0)');
  assert.equal(de.sentences.stage('anchor spring 1 (no closed form: dv = a h and dx = dv h/2)'),
    'Feder am Aufhängepunkt 1 (keine geschlossene Lösung: dv = a h und dx = dv h/2)');
  assert.equal(de.sentences.stage('predictor'), 'Prädiktor');
  assert.equal(de.sentences.stage('k3'), 'k3');
});
