// Keyboard shortcuts: space toggles play, → steps one dt, r resets. Ignored while typing in a
// field, and space is left to buttons, checkboxes and selects that have the focus (their own
// activation key).
export function bindKeyboard({ toggle, step, reset }) {
  window.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const tag = target && target.tagName;
    const typing = tag === 'INPUT' && !['checkbox', 'radio', 'button'].includes(target.type) ||
      tag === 'TEXTAREA' || tag === 'SELECT' || (target && target.isContentEditable);
    if (typing) return;
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
    }
  });
}
