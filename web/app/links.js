// The address hash holds the page's whole configuration: the core's config string.
// Reading it at start-up, writing the normalised string back, editing one key of a query, and
// refusing a query too long for the core to read.
import { groupDigits } from '../common/text.js';

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

export function onHashEdited(callback) {
  window.addEventListener('hashchange', () => callback(readHash()));
}

// The query with `key` set to `value` (added at the end when absent). Commas stay readable.
export function withKey(query, key, value) {
  const encoded = encodeURIComponent(String(value)).replace(/%2C/gi, ',');
  const pairs = query.replace(/^[#?]/, '').split('&').filter((p) => p.length > 0);
  let found = false;
  const out = pairs.map((p) => {
    let k = p.split('=')[0];
    try { k = decodeURIComponent(k); } catch { /* the core reports broken encodings */ }
    if (k !== key) return p;
    found = true;
    return `${key}=${encoded}`;
  });
  if (!found) out.push(`${key}=${encoded}`);
  return out.join('&');
}

// The query without `keys` (to recognise a preset with a cloud or a view added, to ask the core
// for a system's own default methods).
export function withoutKeys(query, keys) {
  return query.split('&').filter((p) => !keys.includes(p.split('=')[0])).join('&');
}

// The value of `key` in a (normalised) query, or null.
export function valueOf(query, key) {
  for (const p of query.replace(/^[#?]/, '').split('&')) {
    const eq = p.indexOf('=');
    if (eq > 0 && p.slice(0, eq) === key) {
      try { return decodeURIComponent(p.slice(eq + 1)); } catch { return p.slice(eq + 1); }
    }
  }
  return null;
}

// Why a query is refused before it reaches the core, or null when it is not: longer than the
// core could ever read in full (limits.max_query_length, derived from its max_pairs and
// max_value_length), it would only be copied into the module's fixed heap to be rejected there
// (a 4 MB value aborted the module). One check for set(), the address and postMessage alike
// (an address that long at load is taken off by web/app/mode.js, which gives its length).
export function oversize(query, limits) {
  if (typeof query !== 'string') return null;
  return oversizeLength(query.length, limits);
}

export function oversizeLength(length, limits) {
  if (!(length > limits.max_query_length)) return null;
  const n = groupDigits;
  return `The config is ${n(length)} characters long; Stepwise reads at most ` +
    `${n(limits.max_query_length)} (${limits.max_pairs} key=value pairs, each key and value at most ` +
    `${n(limits.max_value_length)} characters, a scene ${n(limits.max_scene_length)}, 3 per %XX escape), so none of it was used.`;
}
