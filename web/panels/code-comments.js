// The comments of the step code (snippets/, the loop's call web/panels/snippet-usage.js) in the
// page's language: the code stays as it is, byte for byte, and each comment's prose is looked up
// by its English in the language's table (web/strings/code-<lang>.js) and wrapped to the width
// the English had. A comment is either a block (full comment lines at one indentation, joined
// into one text; an empty comment line is a paragraph's end, a line whose text starts with two
// spaces is an example of code, kept, its own trailing comment translated) or a trailing comment
// (code, two spaces or more, the marker, the text). Text only: nothing here becomes HTML.

const markers = { cpp: '//', cs: '//', js: '//', gd: '#' };

// The index of the comment marker on a line of code outside a string literal, or -1.
function markerAt(line, marker) {
  let quote = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'" || ch === '`') {
      quote = ch;
    } else if (line.startsWith(marker, i)) {
      return i;
    }
  }
  return -1;
}

// Every comment text of `code` (in `lang`), in order: what the table must translate.
export function commentTexts(code, lang) {
  const found = [];
  localiseComments(code, lang, (text) => { found.push(text); return null; });
  return found;
}

// `code` with each comment's text replaced by translate(text) (null or undefined: kept as is).
export function localiseComments(code, lang, translate) {
  const marker = markers[lang];
  const lines = code.split('\n');
  const out = [];
  const full = new RegExp(`^(\\s*)${marker.replace(/\//g, '\\/')}(?: (.*))?$`);
  const trailing = (line) => {
    const at = markerAt(line, marker);
    if (at <= 0 || !/\s{2,}$|\s$/.test(line.slice(0, at)) || !line.slice(0, at).trim()) return line;
    const text = line.slice(at + marker.length).trim();
    if (!text) return line;
    const german = translate(text);
    return german == null ? line : `${line.slice(0, at + marker.length)} ${german}`;
  };
  // After a comment that ends with a colon ("use it through preload:"), indented comment lines are
  // an example of code; elsewhere they continue the text above them (a hanging indent).
  let example = false;
  for (let i = 0; i < lines.length;) {
    const m = lines[i].match(full);
    if (!m) { out.push(trailing(lines[i])); example = false; i++; continue; }
    const indent = m[1];
    const text = m[2] ?? '';
    if (text === '' || (text.startsWith('  ') && example)) {
      // A paragraph's end, or an example of code inside the comment (its own comment translated).
      out.push(text === '' ? lines[i] : `${indent}${marker} ${trailing(text)}`);
      example = text !== '';
      i++;
      continue;
    }
    // A block: the full comment lines at this indentation that follow, up to an empty comment
    // line, a line of code or an example of code.
    const block = [];
    let width = 0;
    for (; i < lines.length; i++) {
      const n = lines[i].match(full);
      if (!n || n[1] !== indent || !n[2]) break;
      if (n[2].startsWith('  ') && block.length > 0 && block[block.length - 1].endsWith(':')) break;
      block.push(n[2].trim());
      width = Math.max(width, lines[i].length);
    }
    example = block[block.length - 1].endsWith(':');
    const english = block.join(' ');
    const german = translate(english);
    if (german == null) {
      for (let k = block.length; k > 0; k--) out.push(lines[i - k]);
      continue;
    }
    out.push(...wrap(german, `${indent}${marker} `, Math.max(width, 100)));
  }
  return out.join('\n');
}

// `text` in lines of at most `width` characters (a longer word alone on its line), each after `prefix`.
function wrap(text, prefix, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && prefix.length + line.length + 1 + word.length > width) {
      lines.push(prefix + line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line || lines.length === 0) lines.push(prefix + line);
  return lines;
}

// A comment's text in its sentences (each looked up alone: the same sentence recurs across the
// files and languages): split after a full stop, colon or semicolon before a capital.
export const sentencesOf = (text) => text.split(/(?<=[.:;])\s+(?=[A-Z])/);

// translate(text) for localiseComments from a language's table ({sentences, patterns}: web/strings/
// code-<lang>.js): each sentence by its English, or by a pattern whose {name} stands for a file's
// or a class's name; null when a sentence has no row (the English stays, and the test names it).
export function translator({ sentences, patterns }) {
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const compiled = patterns.map(([english, german]) => {
    const names = [];
    const source = english.split(/\{(\w+)\}/).map((part, i) => (i % 2 ? (names.push(part), '(.+?)') : escape(part))).join('');
    return { re: new RegExp(`^${source}$`), names, german };
  });
  const one = (sentence) => {
    if (Object.hasOwn(sentences, sentence)) return sentences[sentence];
    for (const p of compiled) {
      const m = sentence.match(p.re);
      if (m) return p.german.replace(/\{(\w+)\}/g, (all, name) => m[1 + p.names.indexOf(name)] ?? all);
    }
    return null;
  };
  return (text) => {
    const parts = sentencesOf(text).map(one);
    return parts.includes(null) ? null : parts.join(' ');
  };
}

// The code of `code` without its comments, line by line (a comment line gone, a trailing comment
// cut off): what a translation of the comments must leave exactly as it was.
export function codeLines(code, lang) {
  const marker = markers[lang];
  const full = new RegExp(`^\\s*${marker.replace(/\//g, '\\/')}`);
  return code.split('\n').filter((line) => !full.test(line)).map((line) => {
    const at = markerAt(line, marker);
    return (at < 0 ? line : line.slice(0, at)).trimEnd();
  });
}
