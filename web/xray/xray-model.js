// The stage X-ray's model: one traced step as the core hands it (SimulationHandle.traceNext, laid
// out as wasm_bindings/trace_view.hpp describes it) decoded by name into stages, and what the page
// draws from it: the canvas's box around the stages, the arrows, where the numbers go, the phase
// plot's points, the table's tab-separated text. No DOM, no physics, and no number formatted
// here: every number shown is the core's own text (trace.cells, trace.text).
import { t, marked } from '../common/language.js';

// What each stage's columns are called, in the order of the core's cells.
const columnWords = { x: marked('position'), y: marked('position'), vx: marked('velocity'), vy: marked('velocity'), ax: marked('acceleration'), ay: marked('acceleration') };
const hasColumn = { x: 'has_x', y: 'has_x', vx: 'has_v', vy: 'has_v', ax: 'has_a', ay: 'has_a' };

// {stepped, step, t, h, evaluations, stop: {name, text}, columns, text: {t, h}, total (the step's
// stages, all of them), stages: [{number (from 1, as in the CSV), label, kind, has: {x, v, a},
// phase: {q, p}, bodies: [{x, y, vx, vy, ax, ay, cells: [text per column]}]}]}: the stages of this
// part of the step (SimulationHandle.traceStages). A NaN value is a column the stage has not, or
// not finite.
export function decodeTrace(trace) {
  const L = trace.layout, raw = trace.values;
  const get = (name, stage = 0, body = 0) => L.get(raw, name, stage, body);
  const stop = L.stop(get('stopped'));
  const first = get('first');
  const stages = [];
  for (let s = 0; s < trace.stages; ++s) {
    const bodies = [];
    for (let b = 0; b < trace.bodies; ++b) {
      const body = { cells: trace.cells[s][b] };
      for (const c of trace.columns) body[c] = get(c, s, b);
      bodies.push(body);
    }
    stages.push({
      number: first + s + 1,
      label: trace.labels[s],
      kind: trace.kinds[get('kind', s)],
      has: { x: get('has_x', s) === 1, v: get('has_v', s) === 1, a: get('has_a', s) === 1 },
      phase: { q: get('phase_q', s), p: get('phase_p', s) },
      bodies,
    });
  }
  return {
    stepped: get('stepped') === 1,
    step: get('step'),
    t: get('t'),
    h: get('h'),
    evaluations: get('force_evaluations'),
    stop,
    columns: trace.columns,
    text: trace.text,
    bodies: trace.bodies,
    total: get('stages'),
    stages,
  };
}

// The decoded parts of one step as one (the head's fields, every part's stages in order).
export function joinParts(parts) {
  return { ...parts[0], stages: parts.flatMap((p) => p.stages) };
}

// Why a cell of the table is empty (its title), or '' when it holds a number.
export function emptyReason(stage, column, text) {
  if (text !== '') return '';
  if (stage.kind === 'note') return t('a note: this stage has no numbers');
  if (!stage.has[hasColumn[column].slice(4)]) return t('this stage has no {what}', { what: t(columnWords[column]) });
  return t('not a finite number: the step overflowed');
}

// The table as tab-separated text for a spreadsheet: a header, then one line per stage and body
// shown, the core's shortest exact text in every cell (the CSV download has the CLI's %.17g
// instead, and every stage).
export function tabSeparated(worked) {
  const lines = [['stage', 'label', 'body', ...worked.columns].join('\t')];
  for (const stage of worked.stages) {
    stage.bodies.forEach((body, b) => lines.push([stage.number, stage.label, b, ...body.cells].join('\t')));
  }
  return `${lines.join('\n')}\n`;
}

const finite = (...v) => v.every(Number.isFinite);

// The stages drawn on the canvas: positions (an increment's dx is no position, a velocity alone
// has none), each with the arrows of the velocity it uses, drawn as v·h (its tip is where that
// velocity carries the body in one step: explicit Euler's result is the tip of its one arrow),
// and of the acceleration found there, in one scale for all stages, its longest arrow a
// quarter of the stages' spread. The result is drawn as a ring, without arrows.
// Returns {points: [{stage, body, x, y, result, velocity: {x, y} | null, acceleration: {x, y} |
// null}], box} with box the world box to show (the stages and their arrows with room for the
// numbers), null when the stages do not spread (a body at rest: the view's own box then).
export function canvasStages(worked) {
  const points = [];
  for (const stage of worked.stages) {
    if (stage.kind === 'increment' || !stage.has.x) continue;
    const result = stage.number === worked.total;
    stage.bodies.forEach((b, body) => {
      if (!finite(b.x, b.y)) return;
      const velocity = !result && finite(b.vx, b.vy) && Number.isFinite(worked.h)
        ? { x: b.x + b.vx * worked.h, y: b.y + b.vy * worked.h } : null;
      points.push({ stage: stage.number, body, x: b.x, y: b.y, result, velocity, a: !result && finite(b.ax, b.ay) ? { x: b.ax, y: b.ay } : null });
    });
  }
  const box = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
  const grow = (p) => {
    box.minX = Math.min(box.minX, p.x); box.maxX = Math.max(box.maxX, p.x);
    box.minY = Math.min(box.minY, p.y); box.maxY = Math.max(box.maxY, p.y);
  };
  for (const p of points) { grow(p); if (p.velocity) grow(p.velocity); }
  const spread = Math.max(box.maxX - box.minX, box.maxY - box.minY);
  let largest = 0;
  for (const p of points) if (p.a) largest = Math.max(largest, Math.hypot(p.a.x, p.a.y));
  const scale = largest > 0 && spread > 0 ? (0.25 * spread) / largest : 0;
  const drawn = points.map(({ a, ...p }) => ({
    ...p,
    acceleration: a && scale > 0 && (a.x !== 0 || a.y !== 0) ? { x: p.x + a.x * scale, y: p.y + a.y * scale } : null,
  }));
  for (const p of drawn) if (p.acceleration) grow(p.acceleration);
  const size = Math.max(box.maxX - box.minX, box.maxY - box.minY);
  // A spread at the last bits of the coordinates is no picture: keep the view's box.
  const magnitude = Math.max(Math.abs(box.minX), Math.abs(box.maxX), Math.abs(box.minY), Math.abs(box.maxY));
  if (!(size > 1e-9 * magnitude) || !Number.isFinite(size)) return { points: drawn, box: null };
  const pad = 0.18 * size;
  return {
    points: drawn,
    box: { minX: box.minX - pad, maxX: box.maxX + pad, minY: box.minY - pad, maxY: box.maxY + pad },
  };
}

// The phase plot's points: each stage with a state's x and v, numbered; the last one the result.
export function phaseStages(worked) {
  return worked.stages.filter((s) => finite(s.phase.q, s.phase.p))
    .map((s) => ({ stage: s.number, q: s.phase.q, p: s.phase.p, result: s.number === worked.total }));
}

// The phase plot's ranges xr, yr widened to take in the points, with some room.
export function fitRanges(points, xr, yr) {
  if (points.length === 0) return [xr, yr];
  // Room of a tenth of the points' spread (or of the range) beyond them, for the rings and numbers.
  const widen = (r, values) => {
    const lo = Math.min(...values), hi = Math.max(...values);
    const pad = 0.1 * Math.max(hi - lo, 0.2 * (r[1] - r[0]));
    return [Math.min(r[0], lo - pad), Math.max(r[1], hi + pad)];
  };
  return [widen(xr, points.map((p) => p.q)), widen(yr, points.map((p) => p.p))];
}

// The numbers beside the points, in pixels: points that fall together (within `near` px) share
// one label ("1, 5"); each label goes to the first of eight places around its point where it
// covers no other label and no point, inside bounds ({left, top, right, bottom}) when given;
// a group with no such place gets no label.
// width(text): the text's width in px; height: its height.
// Returns [{text, x, y, align: 'left' | 'right' | 'center', baseline: 'bottom' | 'top' | 'middle'}].
export function placeLabels(points, width, height, { near = 4, bounds = null, obstacles = [] } = {}) {
  const groups = [];
  for (const p of points) {
    // A point with its own text (a body's name) is a label of its own.
    if (p.text !== undefined) { groups.push({ x: p.x, y: p.y, numbers: [], text: p.text }); continue; }
    const g = groups.find((q) => q.text === undefined && Math.hypot(q.x - p.x, q.y - p.y) <= near);
    if (g) { if (!g.numbers.includes(p.number)) g.numbers.push(p.number); } else groups.push({ x: p.x, y: p.y, numbers: [p.number] });
  }
  const gap = 7;
  const places = [
    [gap, -gap, 'left', 'bottom'], [-gap, -gap, 'right', 'bottom'], [gap, gap, 'left', 'top'], [-gap, gap, 'right', 'top'],
    [gap + 4, 0, 'left', 'middle'], [-gap - 4, 0, 'right', 'middle'], [0, -gap - 3, 'center', 'bottom'], [0, gap + 3, 'center', 'top'],
    [2 * gap + 4, 0, 'left', 'middle'], [-2 * gap - 4, 0, 'right', 'middle'], [2 * gap, -2 * gap, 'left', 'bottom'], [-2 * gap, -2 * gap, 'right', 'bottom'],
    [2 * gap, 2 * gap, 'left', 'top'], [-2 * gap, 2 * gap, 'right', 'top'],
  ];
  const taken = [];
  const rectOf = (x, y, w, align, baseline) => {
    const left = align === 'left' ? x : align === 'right' ? x - w : x - w / 2;
    const top = baseline === 'bottom' ? y - height : baseline === 'top' ? y : y - height / 2;
    return { left, top, right: left + w, bottom: top + height };
  };
  const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const dots = groups.map((g) => ({ left: g.x - 4, right: g.x + 4, top: g.y - 4, bottom: g.y + 4 }));
  return groups.map((g) => {
    const text = g.text !== undefined ? g.text : numbersText(g.numbers);
    const w = width(text);
    let chosen = null;
    // First a place clear of the obstacles (the arrows) too, else one clear of labels and points.
    for (const avoid of [obstacles, []]) {
      for (const [dx, dy, align, baseline] of places) {
        const r = rectOf(g.x + dx, g.y + dy, w, align, baseline);
        const outside = bounds && (r.left < bounds.left || r.right > bounds.right || r.top < bounds.top || r.bottom > bounds.bottom);
        if (outside || taken.some((t) => overlaps(t, r)) || dots.some((d) => overlaps(d, r)) || avoid.some((d) => overlaps(d, r))) continue;
        chosen = { x: g.x + dx, y: g.y + dy, align, baseline, rect: r };
        break;
      }
      if (chosen) break;
    }
    // No free place (a crowded step, rk45's many substeps): no number rather than numbers piled
    // on each other; the table has every stage.
    if (!chosen) return null;
    taken.push(chosen.rect);
    return { text, x: chosen.x, y: chosen.y, align: chosen.align, baseline: chosen.baseline, rect: chosen.rect };
  }).filter(Boolean);
}

// A group's numbers as its label: all of them up to three ("1, 5"), else the first two and the
// last ("3, 9 … 41"), so a label stays short where many stages fall together.
function numbersText(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted.length <= 3 ? sorted.join(', ') : `${sorted[0]}, ${sorted[1]} … ${sorted.at(-1)}`;
}
