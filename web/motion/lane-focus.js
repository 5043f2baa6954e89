// Which lanes the user has hidden or highlighted (by clicking the legend): page state, not part
// of the link. Everything that draws lanes (canvas, plots, exports) asks here, by integrator id.
const hidden = new Set();
let highlighted = null;
const listeners = new Set();

export function isHidden(id) { return hidden.has(id); }
export function highlightedLane() { return highlighted; }
// True when some lane is highlighted and it is not `id`: draw `id` faded.
export function isFaded(id) { return highlighted !== null && highlighted !== id; }

export function setHidden(id, on) {
  if (on === hidden.has(id)) return;
  if (on) hidden.add(id); else hidden.delete(id);
  if (on && highlighted === id) highlighted = null;
  changed();
}
export function setHighlighted(id) {
  if (id === highlighted) return;
  highlighted = id;
  changed();
}
// A new set of lanes: forget ids that are gone.
export function keepOnly(ids) {
  const keep = new Set(ids);
  let any = false;
  for (const id of [...hidden]) if (!keep.has(id)) { hidden.delete(id); any = true; }
  if (highlighted !== null && !keep.has(highlighted)) { highlighted = null; any = true; }
  if (any) changed();
}
export function onLaneFocus(fn) { listeners.add(fn); return () => listeners.delete(fn); }
function changed() { for (const fn of listeners) fn(); }
