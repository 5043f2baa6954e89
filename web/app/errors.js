// The message banner: every problem of the link (the core's messages name the key, the bad
// value and what is allowed) and the page's own, dismissable; it comes back when the problems
// change. Messages go in as text only (never innerHTML: they quote text from the address). One
// MessageBanner, made by web/app/main.js and handed to the parts that report a problem (notify).
import { coreMessage, pageMessage, t } from '../common/language.js';

const $ = (id) => document.getElementById(id);

// The core's message names the key and what is allowed, and quotes the bad value, except for a
// few (a repeated key, an over-long value): then the value is added. Identical messages are shown once.
// The embed options belong in the address's query (web/app/mode.js), not in the config after '#':
// a link with them in the hash gets the core's "unknown key" and where to put them instead.
// In another language than English the core's message is translated from its parts
// (web/strings/<id>.js coreMessage: the key, the value and what is allowed), never shown half-translated.
function describeError(e, mode) {
  const value = typeof e.value === 'string' ? e.value : '';
  const text = coreMessage(e);
  const message = value === '' || text.includes(`'${value}'`) ? text : `${text} ${t("(value: '{value}')", { value })}`;
  if (!mode.options.includes(e.key)) return message;
  return `${message}. ${t("{key} is an embed option: put it in the query before the '#', as in embed.html?{key}=…#scenario=…", { key: e.key })}`;
}

export class MessageBanner {
  #pageErrors = [];  // from the page (e.g. "keep at least one integrator", a link too long)
  #shown = '';

  // page: the PageState (web/app/state.js): its mode and the link's errors.
  constructor(page) {
    this.page = page;
    this.notify = this.notify.bind(this);  // handed to the parts as a function
  }

  // Every message shown: the embed options' problems (web/app/mode.js) first, as they stay for
  // the page's life; then the link's and the page's.
  messages() {
    const mode = this.page.mode;
    return [...(mode.problems || []).map(pageMessage), ...new Set(this.page.configErrors.map((e) => describeError(e, mode))),
      ...this.#pageErrors];
  }

  show() {
    const banner = $('errors');
    const messages = this.messages();
    const key = messages.join('\n');
    if (key === this.#shown && banner.dataset.dismissed === 'true') return;
    this.#shown = key;
    banner.dataset.dismissed = 'false';
    $('error-list').replaceChildren(...messages.map((m) => {
      const li = document.createElement('li');
      li.textContent = m;
      return li;
    }));
    const n = this.page.configErrors.length;
    $('errors-title').textContent = n === 0 ? ''
      : n === 1 ? t('One part of this link could not be used; the rest was.')
        : t('{n} parts of this link could not be used; the rest was.', { n });
    banner.hidden = messages.length === 0;
  }

  // A new simulation: the page's own problems with it (a link too long), or none, and the banner shown.
  showFor(pageErrors) {
    this.#pageErrors = pageErrors;
    this.show();
  }

  // A problem of the page's own (a part that could not load, a link too long): shown in place of
  // the last one.
  notify(message) {
    this.showFor([message]);
  }

  bindDismiss() {
    $('errors-dismiss').addEventListener('click', () => {
      $('errors').hidden = true;
      $('errors').dataset.dismissed = 'true';
    });
  }
}

// The page could not start: the one message left to show.
export function showStartFailure(error) {
  const li = document.createElement('li');
  li.textContent = t('The simulation could not start: {error}', { error: error.message });
  $('error-list').replaceChildren(li);
  $('errors').hidden = false;
}
