// The page's language: the link's lang= when it names one (the core has validated it), else the
// browser's first preferred language that the page has (de, de-DE, de-AT, de-CH → German), else
// English. English is built in; another language's table (web/strings/<id>.js) is imported only
// when it is chosen, so the English first frame loads nothing more.
export const pageLanguages = ['en', 'de'];

export function chooseLanguage(linkLang, browserLanguages = []) {
  if (pageLanguages.includes(linkLang)) return linkLang;
  for (const tag of browserLanguages) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (pageLanguages.includes(base)) return base;
  }
  return 'en';
}

// The lang= of a link's query or hash ("#…&lang=de", "?lang=de"), or null: read before the module
// has parsed it, to start loading the table early; the core's check of the same text decides.
// Found by the string's own search, with no copy or decoding of the rest of the link: a link may
// be megabytes long before the page refuses it (parsing 2 MB with URLSearchParams took 21 ms).
export function linkLanguage(text) {
  const link = String(text || '');
  for (let at = link.indexOf('lang='); at >= 0; at = link.indexOf('lang=', at + 5)) {
    if (at > 0 && !'?#&'.includes(link[at - 1])) continue;  // another key ending in "lang"
    const end = link.indexOf('&', at + 5);
    const value = link.slice(at + 5, end < 0 ? link.length : end);
    return pageLanguages.includes(value) ? value : null;  // the first lang= (a second one is an error)
  }
  return null;
}

// The page's texts are written in English where they are used, each through t(): the English text
// is its own key (as gettext does), and web/strings/<id>.js holds one language's translation of
// every key, in one place (tests/web/language.test.mjs checks that German has them all). Texts
// with numbers or names in them name their parts: t('{n} points', { n: groupDigits(count) });
// the numbers are formatted by web/motion/coords.js for the page's language before they go in.
let texts = null;  // English key → this language's text; null for English
let current = 'en';

// strings: the language's module (web/strings/<id>.js): its texts, and the functions that put
// the core's sentences built with numbers (a game loop's line) into that language.
let sentences = null;
let messages = null;
export function useLanguage(lang, strings = null) {
  current = lang;
  texts = strings ? strings.texts : null;
  sentences = strings ? strings.sentences : null;
  messages = strings;
}
// A problem the core found in a link ({key, value, message, code, args}) in the page's language:
// the language's template for its code (web/strings/<id>.js messages, the same {names} as the
// core's English row in core/messages.cpp) filled from its arguments; in English, the core's own
// sentence. A code the language has no template for (tests/web/language.test.mjs finds none)
// shows the language's sentence naming the key and the value.
export function coreMessage(e) {
  if (!messages) return e.message;
  const template = messages.messages?.[e.code];
  return template ? fillMessage(template, e.args || {}) : messages.unknownMessage(e);
}
// What a key allows ({allowed: form, min, max, note}, a loop key's range) in the page's language.
export function allowedText(args) {
  if (!messages) return null;
  const template = messages.allowedForms?.[args.allowed];
  return template ? fillMessage(template, args) : null;
}
// {name} replaced by the argument of that name, each in the language's form (a number with the
// language's decimal mark; `got`, what the user typed, as typed); {allowed} is itself a form.
function fillMessage(template, args) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in args)) return whole;
    if (name === 'allowed') return allowedText(args) ?? args.allowed;
    const format = messages.messageArgs?.[name];
    return format ? format(String(args[name])) : String(args[name]);
  });
}
// One of the embed options' problems (web/app/mode.js writes them in English), in the page's language.
export const pageMessage = (text) => (messages && messages.pageMessage ? messages.pageMessage(text) : text);
// One of the core's sentences (kind: a function of sentences, e.g. 'loop') in the page's language.
export const sentence = (kind, text) => (sentences && sentences[kind] ? sentences[kind](text) : text);
export const pageLanguage = () => current;

// Marks a text for translation where it is written, when it is translated later, where it is
// shown (a table's row: t(row.action)): the texts' test finds every key through t( and marked(.
export const marked = (english) => english;

export function t(english, parts = null) {
  const text = (texts && texts[english]) || english;
  return parts ? text.replace(/\{(\w+)\}/g, (all, name) => (name in parts ? String(parts[name]) : all)) : text;
}

// The attributes of the page's HTML that people read (or hear).
export const readAttributes = ['aria-label', 'title', 'placeholder', 'alt'];

// Translates the texts written in a page's HTML: every text node and read attribute under root
// whose text (trimmed) is a key of the table, and the title and description of the document.
// Never markup: text nodes and attributes only.
export function localisePage(root) {
  if (!texts) return;
  const walker = root.ownerDocument.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    // The key is the text as it reads: its runs of white space (line breaks in the HTML) as one.
    const text = node.nodeValue.replace(/\s+/g, ' ').trim();
    if (!text || !texts[text]) continue;
    // The space around the text stays, except before punctuation the translation starts with; a
    // translation may bring its own (a sentence split by inline markup reads differently there).
    const [lead] = node.nodeValue.match(/^\s*/), [trail] = node.nodeValue.match(/\s*$/);
    const to = texts[text];
    node.nodeValue = `${lead && !/^[\s,.;:]/.test(to) ? ' ' : ''}${to}${trail && !/\s$/.test(to) ? ' ' : ''}`;
  }
  for (const element of root.querySelectorAll(readAttributes.map((a) => `[${a}]`).join(','))) {
    for (const name of readAttributes) {
      const value = element.getAttribute(name);
      if (value && texts[value.trim()]) element.setAttribute(name, texts[value.trim()]);
    }
  }
  const description = root.ownerDocument.querySelector('meta[name="description"]');
  if (description && texts[description.content]) description.content = texts[description.content];
}

// The core's tables in the page's language, in place: every part of the page that shows a name or
// a description reads these tables. Names and descriptions by id (web/strings/<id>.js: integrators,
// scenarios, views, loop kinds), the other texts by their English, as the page's own (t()).
// Never the ids, nor `family`, which the page groups by (its label goes through t()).
export function localiseTables(core, strings) {
  const byId = (rows, table, fields) => {
    for (const row of rows) for (const field of fields) if (table[row.id]?.[field]) row[field] = table[row.id][field];
  };
  byId(core.integrators, strings.integrators, ['name', 'description']);
  byId(core.scenarios, strings.scenarios, ['name', 'description']);
  byId(core.views, strings.views, ['name', 'description']);
  byId(core.loopTable.kinds, strings.loopKinds, ['name', 'description']);
  const text = (row, field) => { if (typeof row[field] === 'string' && row[field]) row[field] = t(row[field]); };
  for (const i of core.integrators) for (const f of ['orders_text', 'order_note', 'evaluations_note', 'stability_note']) text(i, f);
  for (const s of core.scenarios) {
    text(s, 'rules');
    text(s, 'reference');
    for (const p of s.params) { text(p, 'label'); text(p, 'meaning'); }
  }
  for (const p of core.presets) { text(p, 'name'); text(p, 'description'); }
  for (const k of core.loopTable.keys) {
    for (const f of ['label', 'meaning']) text(k, f);
    k.allowed = allowedText(k.range) ?? k.allowed;
  }
  text(core.loopTable, 'rules');
}
