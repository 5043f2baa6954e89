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
export function linkLanguage(text) {
  const query = String(text || '').replace(/^[?#]/, '');
  const value = new URLSearchParams(query).get('lang');
  return pageLanguages.includes(value) ? value : null;
}
