// A part of the page that arrives after its first frame (web/app/later-parts.js), and the
// controls the first frame shows that it works: the Methods and Keyboard buttons, the X-ray,
// Copy link, Embed, Step code, the exports. A press of one before the part is there is held, not
// lost: the control says it is busy (aria-busy, and a progress cursor: public/style.css), the
// part is loaded, and the press is given again once its handler is there. Several presses of one
// control while it waits are one press (a second press of the X-ray button would close it again).

// after: a promise of what the part needs (its load starts once it resolves, never sooner);
// load(value): the part's import and install, given what `after` resolved with. Returns
// {get(): a promise of the part (loaded once; a failed load is tried again by the next get),
// hold(elements): presses on these controls wait for the part}.
export function laterPart({ after, load }) {
  let loading = null;
  const get = () => {
    if (!loading) {
      loading = after.then(load);
      loading.catch(() => { loading = null; });
    }
    return loading;
  };
  return { get, hold: (elements) => holdUntilArrived(elements, get) };
}

// elements: the controls; load(): a promise of the part (its handlers installed when it resolves).
function holdUntilArrived(elements, load) {
  let arrived = false;
  const waiting = new Set();
  const held = (event) => {
    if (arrived) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const control = event.currentTarget;
    if (waiting.has(control)) return;
    waiting.add(control);
    control.setAttribute('aria-busy', 'true');
    const done = () => { waiting.delete(control); control.removeAttribute('aria-busy'); };
    // A failed load is reported by the part's loader (the page's banner): the press is then
    // dropped, and the next one tries again.
    load().then(() => { arrive(); done(); control.click(); }, done);
  };
  const arrive = () => {
    if (arrived) return;
    arrived = true;
    for (const control of elements) control.removeEventListener('click', held, { capture: true });
  };
  for (const control of elements) control.addEventListener('click', held, { capture: true });
  // Once the part is there, presses go straight to it (first in line: before any held press is given again).
  load().then(arrive, () => {});
}
