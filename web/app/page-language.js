// The page's language: the link's lang= (read before the core checks it, to start loading its
// texts at once), else the browser's (web/common/language.js). English is built in; another language's
// table (web/strings/<id>.js) loads beside the module, before the first frame.
import { chooseLanguage, linkLanguage, useLanguage, localisePage, localiseTables } from '../common/language.js';
import { setNumberLanguage } from '../common/text.js';

const languageTables = { de: () => import('../strings/de.js') };
export const pageLanguageId = chooseLanguage(linkLanguage(location.hash), navigator.languages || []);
const languageLoad = languageTables[pageLanguageId] ? languageTables[pageLanguageId]() : Promise.resolve(null);

// Once the core is loaded: the page in the link's (or the browser's) language, its HTML's texts,
// the core's tables and the page's own texts (t()), and its numbers (a decimal comma in German;
// never in links, CSV or JSON, which write the core's text).
export async function usePageLanguage(core) {
  const strings = await languageLoad;
  if (!strings) return;
  useLanguage(pageLanguageId, strings);
  setNumberLanguage(pageLanguageId);
  document.documentElement.lang = pageLanguageId;
  localisePage(document.documentElement);
  localiseTables(core, strings);
}
