// The step code's comments in German (issue 31 §2: the Step code dialog wrote them in English on the
// German page). Node only: every comment of every file in snippets/ (each integrator's step and the
// loop, in C++, C#, JavaScript and GDScript) has its German in web/strings/code-de.js, sentence by
// sentence, and translating them leaves the code itself exactly as it was; the call that hands a
// step to the loop (web/panels/snippet-usage.js) writes its comments in German on a German page,
// its code unchanged. tests/web/snippets.test.mjs checks what the dialog shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './helpers.mjs';
import { commentTexts, localiseComments, translator, sentencesOf, codeLines } from '../../web/panels/code-comments.js';
import * as codeDe from '../../web/strings/code-de.js';
import * as de from '../../web/strings/de.js';
import { useLanguage } from '../../web/common/language.js';
import { loopUsage, laneLoop, example } from '../../web/panels/snippet-usage.js';

const dir = path.join(root, 'snippets');
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
const files = [...manifest.snippets.flatMap((s) => Object.entries(s.files)), ...Object.entries(manifest.loop.files)];
const read = (file) => fs.readFileSync(path.join(dir, file), 'utf8');
const german = translator(codeDe);

test('every comment of every step file and loop file has its German, sentence by sentence', () => {
  const missing = new Set();
  let comments = 0;
  for (const [lang, file] of files) {
    for (const text of commentTexts(read(file), lang)) {
      comments += 1;
      if (german(text) !== null) continue;
      for (const s of sentencesOf(text)) if (german(s) === null) missing.add(`${file}: ${s}`);
    }
  }
  assert.ok(comments > 900, `${comments} comments read`);
  assert.deepEqual([...missing], [], 'sentences with no German');
});

test('German comments leave the code as it is, and no comment line stays English', () => {
  for (const [lang, file] of files) {
    const english = read(file);
    const shown = localiseComments(english, lang, german);
    assert.deepEqual(codeLines(shown, lang), codeLines(english, lang), `${file}: the code is unchanged`);
    assert.notEqual(shown, english, `${file}: its comments change`);
    // Every English comment line that reads as prose (a word of three letters or more) is gone.
    const prose = (line) => /[A-Za-z]{3,}/.test(line.replace(/\b(namespace|Godot)\b.*/, ''));
    const markerOf = lang === 'gd' ? '#' : '//';
    const englishComments = new Set(english.split('\n').filter((l) => l.trim().startsWith(markerOf) && prose(l.trim().slice(markerOf.length))).map((l) => l.trim()));
    const left = shown.split('\n').map((l) => l.trim()).filter((l) => englishComments.has(l) && !/^(#|\/\/)\s{2,}/.test(l));
    assert.deepEqual(left, [], `${file}: English comment lines left`);
  }
});

test('on a German page the loop\'s call writes its comments in German, its code unchanged', () => {
  const english = new Map();
  const calls = (settings) => manifest.snippets.flatMap((s) => Object.entries(loopUsage(s.integrator, read(s.files.js), settings))
    .flatMap(([lang, variants]) => Object.entries(variants).map(([variant, u]) => [`${s.integrator} ${lang} ${variant}`, lang, u.text])));
  for (const settings of [example, laneLoop(20, 1)]) for (const [key, , text] of calls(settings)) english.set(`${key} ${settings.substeps}`, text);
  try {
    useLanguage('de', de);
    for (const settings of [example, laneLoop(20, 1)]) {
      for (const [key, lang, text] of calls(settings)) {
        const was = english.get(`${key} ${settings.substeps}`);
        assert.deepEqual(codeLines(text, lang), codeLines(was, lang), `${key}: the code is unchanged`);
        const marker = lang === 'gd' ? '#' : '//';
        const comments = (t) => t.split('\n').filter((l) => l.trim().startsWith(marker));
        const same = comments(text).filter((l) => comments(was).includes(l));
        assert.deepEqual(same, [], `${key}: every comment line in German`);
        assert.ok(comments(text).length >= 3, key);
      }
    }
  } finally {
    useLanguage('en');
  }
});
