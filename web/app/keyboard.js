// Keyboard shortcuts: space toggles play, → steps one dt, r resets, ? opens the keyboard help.
// Ignored while typing in a field, and space is left to buttons, checkboxes and selects that have
// the focus (their own activation key).
//
// `shortcuts` is the one list of the page's keys: the keyboard help panel (web/panels/help.js) shows
// it as it is, so a key bound here is listed there by adding its row.
// Names and actions in English, translated where the panel shows them (marked: web/common/language.js).
import { marked } from '../common/language.js';

export const shortcuts = [
  { keys: [marked('Space')], action: marked('Play or pause') },
  { keys: ['→'], action: marked('Advance exactly one step (dt), and pause') },
  { keys: ['R'], action: marked('Back to t = 0') },
  { keys: ['?'], action: marked('This list of keys') },
  { keys: ['Esc'], action: marked('Close a panel or dialog; leave full screen') },
  { keys: ['Tab', marked('Shift + Tab')], action: marked('Move between the controls') },
];

export function bindKeyboard({ toggle, step, reset, help = () => {} }) {
  window.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const tag = target && target.tagName;
    const typing = tag === 'INPUT' && !['checkbox', 'radio', 'button'].includes(target.type) ||
      tag === 'TEXTAREA' || tag === 'SELECT' || (target && target.isContentEditable);
    if (typing) return;
    // A modal panel or dialog has the keys to itself (Escape closes it).
    if (document.querySelector('dialog[open]')) return;
    if (event.key === ' ' || event.code === 'Space') {
      if (tag === 'BUTTON' || (tag === 'INPUT' && target.type !== 'range')) return;
      event.preventDefault();
      toggle();
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      step();
    } else if (event.key === 'r' || event.key === 'R') {
      event.preventDefault();
      reset();
    } else if (event.key === '?') {
      event.preventDefault();
      help();
    }
  });
}
