// The page's two help panels, as modal dialogs (not tooltips: keyboard, touch and screen-reader
// users reach them as well as a mouse does):
// - "Methods": each shown integrator's update equations (the core's table, field `update`) and
//   a paragraph on what it does and what that costs;
// - "Keyboard": the page's keys (web/app/keyboard.js's list), opened with ? too.
// A modal <dialog> keeps the focus inside it (the rest of the page is inert) and closes with
// Escape; on closing, the focus goes back to what opened it. Text goes in with textContent only.
import { laneStyle, currentScheme } from '../common/palette.js';
import { t } from '../common/language.js';
import { el } from '../common/dom.js';
import { methodOf } from '../common/lanes.js';

const $ = (id) => document.getElementById(id);

const focusable = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

// Tab and Shift+Tab go round inside the dialog: past its last control to its first, and back.
// (A modal dialog makes the page inert, but Tab past its end would leave for the browser's own UI.)
function trapFocus(dialog) {
  dialog.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    const items = [...dialog.querySelectorAll(focusable)].filter((e) => e.getClientRects().length > 0);
    if (items.length === 0) return;
    const first = items[0], last = items[items.length - 1];
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !dialog.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  });
}

// Opens `dialog` modally; the focus returns to `opener` (or whatever had it) when it closes.
function openDialog(dialog, opener) {
  if (dialog.open) return;
  const back = opener || document.activeElement;
  dialog.addEventListener('close', () => {
    if (back && back.isConnected && typeof back.focus === 'function') back.focus();
  }, { once: true });
  dialog.showModal();
  // The dialog's heading area first: its close button, not the first link in the text.
  const close = dialog.querySelector('[data-close]');
  if (close) close.focus();
}

// The paragraph under a method's name: the table's description, its order by kind of system,
// its cost per step, and what it keeps.
function explanation(info) {
  const keeps = [];
  if (info.symplectic) keeps.push(t('It is symplectic: it keeps phase-space area, so on a conservative system its energy stays in a band instead of drifting.'));
  if (info.implicit) keeps.push(t('It is implicit: each step solves an equation for the new state.'));
  if (info.stateful) keeps.push(t('It carries values from one step to the next (restart it whenever dt or the system changes).'));
  if (info.adaptive) keeps.push(t('It chooses its own substeps to meet its error tolerance.'));
  return [
    info.description,
    t('Accuracy: {orders}.', { orders: info.orders_text }),
    info.order_note,
    t('Force evaluations per step: {note}.', { note: info.evaluations_note }),
    ...keeps,
  ].filter(Boolean).join(' ');
}

// integrators: the core's table; laneIds(): the integrators shown, in lane order; shortcuts: the
// page's keys (web/app/keyboard.js's list, handed over: the keys are the page's, not a panel's).
export function installPanels({ integrators, laneIds, shortcuts, openers = {} }) {
  const byId = new Map(integrators.map((i) => [i.id, i]));
  const methods = $('methods-dialog');
  const keys = $('keys-dialog');

  for (const dialog of [methods, keys]) {
    trapFocus(dialog);
    for (const button of dialog.querySelectorAll('[data-close]')) button.addEventListener('click', () => dialog.close());
    // A click on the backdrop (outside the panel's box) closes it too, as a tap does on a phone.
    dialog.addEventListener('click', (event) => {
      if (event.target !== dialog) return;
      const r = dialog.getBoundingClientRect();
      const inside = event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top && event.clientY <= r.bottom;
      if (!inside) dialog.close();
    });
  }

  function fillMethods() {
    const scheme = currentScheme();
    const list = $('methods-list');
    // The lanes' methods, each once (xpbd@1x20 and xpbd@20x1 are one method).
    const ids = $('methods-all').checked ? integrators.map((i) => i.id) : [...new Set(laneIds().map(methodOf))];
    $('methods-title').textContent = $('methods-all').checked ? t('Every method') : t('The methods shown');
    list.replaceChildren(...ids.map((id) => {
      const info = byId.get(id);
      const item = el('section', { class: 'method' });
      item.setAttribute('aria-labelledby', `method-${id}`);
      const heading = el('h3', { class: 'method-name' });
      heading.id = `method-${id}`;
      const swatch = el('span', { class: 'method-swatch' });
      swatch.setAttribute('aria-hidden', 'true');
      swatch.style.setProperty('--lane-colour', laneStyle(id, scheme).colour);
      heading.append(swatch, document.createTextNode(info ? info.name : id));
      item.append(heading);
      if (!info) return item;
      const equations = el('ul', { class: 'method-update' });
      equations.setAttribute('aria-label', t('{name}: one step', { name: info.name }));
      for (const line of String(info.update || '').split('\n')) equations.append(el('li', { text: t(line) }));
      item.append(equations, el('p', { class: 'method-about', text: explanation(info) }));
      return item;
    }));
  }

  function fillKeys() {
    const body = $('keys-list');
    body.replaceChildren(...shortcuts.map(({ keys: names, action }) => {
      const row = el('tr');
      const cell = el('th');
      cell.scope = 'row';
      names.forEach((name, k) => {
        if (k > 0) cell.append(document.createTextNode(` ${t('or')} `));
        cell.append(el('kbd', { text: t(name) }));
      });
      row.append(cell, el('td', { text: t(action) }));
      return row;
    }));
  }

  $('methods-all').addEventListener('change', fillMethods);

  const api = {
    openMethods(opener) { fillMethods(); openDialog(methods, opener); },
    openKeys(opener) { if (keys.open) return; if (methods.open) methods.close(); fillKeys(); openDialog(keys, opener); },
    // The lanes changed while the methods panel is open: it lists the new ones.
    refresh() { if (methods.open) fillMethods(); },
  };
  if (openers.methods) openers.methods.addEventListener('click', () => api.openMethods(openers.methods));
  if (openers.keys) openers.keys.addEventListener('click', () => api.openKeys(openers.keys));
  return api;
}
