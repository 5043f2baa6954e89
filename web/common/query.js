// A config string (a query: key=value pairs joined by '&') as text: one key set, keys taken off, a
// key's value read, and a query too long for the core to read refused. No page state: every layer
// that reads a link uses these (the address itself is web/app/links.js).
import { groupDigits } from './text.js';

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
