// What the analysis views share: log axes (decades as ticks: "0.01", "1", "1e-9"), elements made
// from text only, and a headed table.

import { el } from '../common/dom.js';
import { plainNumber } from '../common/text.js';
import { mostMultiples } from '../motion/coords.js';

// Ticks at whole decades over [lo, hi] (log10 values), at most about `most` of them.
export function decadeTicks(lo, hi, most = 7) {
  const a = Math.ceil(lo - 1e-9), b = Math.floor(hi + 1e-9);
  const every = Math.max(1, Math.ceil((b - a) / most));
  const ticks = [];
  for (let k = a, n = 0; k <= b && n < mostMultiples; k += every, ++n) ticks.push({ value: k, label: decadeLabel(k) });
  return ticks;
}

export const decadeLabel = (k) => (Math.abs(k) <= 2 ? plainNumber(Number(Math.pow(10, k).toPrecision(1))) : `1e${k}`);

// The log10 range of positive finite values, padded, at least `span` decades wide; null if none.
export function logRange(values, span = 1, pad = 0.15) {
  let lo = Infinity, hi = -Infinity;
  for (const v of values) {
    if (!(v > 0) || !Number.isFinite(v)) continue;
    const l = Math.log10(v);
    lo = Math.min(lo, l);
    hi = Math.max(hi, l);
  }
  if (!Number.isFinite(lo)) return null;
  if (hi - lo < span) { const mid = (hi + lo) / 2; lo = mid - span / 2; hi = mid + span / 2; }
  return [lo - pad, hi + pad];
}

// An element with a class and text (never markup): the page's one helper, re-exported for the views.
export { el };

// A table in a scrolling wrapper: headers [{text, className}]; returns {wrap, headCells, tbody}.
export function headedTable(className, headers) {
  const table = el('table', { class: className });
  const head = el('tr');
  const headCells = headers.map(({ text, className: cls }) => {
    const th = el('th', { class: cls || '', text });
    th.scope = 'col';
    return th;
  });
  head.append(...headCells);
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  table.append(thead, tbody);
  const wrap = el('div', { class: 'table-wrap' });
  wrap.append(table);
  return { wrap, headCells, tbody };
}

// Each cell of a row carries its column's header (data-label): a narrow screen shows the rows as
// stacked blocks, each value under its name (public/style.css).
export function labelCells(tr, headCells) {
  [...tr.children].forEach((td, k) => { td.dataset.label = headCells[k]?.textContent || ''; });
}
