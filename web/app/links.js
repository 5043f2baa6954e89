// The address hash holds the page's whole configuration: the core's config string. Reading it at
// start-up and writing the normalised string back; editing a query and refusing one too long for
// the core are web/common/query.js (no page state: the panels, the lanes and the tests use them too).

// Without its '#' (a slice: no copy of a link that may be megabytes long before it is refused).
export function readHash() {
  const hash = location.hash;
  return hash.startsWith('#') ? hash.slice(1) : hash;
}

// Replaces (not pushes) the history entry: a dragged slider must not fill the back button.
// At most one write per 200 ms (the last one always lands): browsers throttle, and warn about,
// pages that call replaceState hundreds of times in a few seconds.
const writeInterval = 200;  // ms
let lastWrite = -Infinity;
let pending = null;
let timer = null;

export function writeHash(config) {
  pending = config;
  if (timer !== null) return;
  const wait = lastWrite + writeInterval - performance.now();
  const flush = () => {
    timer = null;
    lastWrite = performance.now();
    if (pending !== null && readHash() !== pending) history.replaceState(null, '', `#${pending}`);
    pending = null;
  };
  // Never inside the caller's task: replaceState can take 15–25 ms (the start-up's apply).
  timer = setTimeout(flush, Math.max(0, wait));
}

// The full page's address for a config (what "Copy link" copies, and the embedded frame's Open link).
export function linkFor(config) {
  return new URL(`index.html#${config}`, location.href).href;
}

export function onHashEdited(callback) {
  window.addEventListener('hashchange', () => callback(readHash()));
}
