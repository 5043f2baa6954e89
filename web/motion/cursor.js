// The shared time cursor: a time in the run that the plots, the canvas and the timeline all
// mark. Set by hovering or touching a plot, or by the timeline (scrubbing back through the
// recorded history); null when nothing points at a time. `source` says who set it, so a
// component does not react to its own change.
let time = null;
let source = null;
const listeners = new Set();

export function cursorTime() { return time; }
export function cursorSource() { return source; }
export function setCursor(t, from) {
  const next = Number.isFinite(t) ? t : null;
  if (next === time && from === source) return;
  time = next;
  source = next === null ? null : from;
  for (const fn of listeners) fn(time, source);
}
export function onCursor(fn) { listeners.add(fn); return () => listeners.delete(fn); }
