// The plots a run has only for some systems or choices, in a module of their own that the plots
// (web/plots/plots.js) load the first time one of them is drawn, after the page's first frame: the
// energy breakdown of a chosen lane, a linked system's constraint error and first link's tension,
// and the phase-space clouds' area ratio. The default link draws none of them. Each is a spec as
// the Plots' own (plots.js driftSpec), made from the run and the Plots it belongs to (its lane
// names, lines and marks).
import { niceStep, linearTicks } from '../motion/coords.js';
import { laneStyle } from '../common/palette.js';
import { isFaded } from '../motion/lane-focus.js';
// t_: the page's texts (web/common/language.js); t is a time series here.
import { t as t_ } from '../common/language.js';
import { formatValue } from '../common/text.js';
import { holdRange, logTicks } from './plots.js';

// Kinetic, potential and total energy of the chosen lane, and the exact motion's total dashed.
export function breakdownSpec(plots, run, plot) {
  const { layout, h, theme, t, count } = run;
  const l = run.snapshot.lanes.findIndex((lane) => lane.id === plots.breakdownId);
  const lane = run.snapshot.lanes[l];
  const end = run.ends[l];
  const ke = layout.series(h, 'kinetic_energy', l), pe = layout.series(h, 'potential_energy', l);
  const total = (i) => ke(i) + pe(i);
  const exact = layout.series(h, 'reference_energy');
  let lo = Infinity, hi = -Infinity;
  const take = (f, n) => {
    for (let i = 0; i < n; ++i) { const v = f(i); if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); } }
  };
  take(ke, end); take(pe, end); take(total, end); take(exact, count);
  if (!Number.isFinite(lo)) { lo = 0; hi = 1; }
  const span = Math.max(hi - lo, 1e-9 * Math.max(Math.abs(lo), Math.abs(hi)), 1e-12);
  const step = niceStep(span * 1.1, 4);
  const yr = holdRange(plot, lane.id,
    [Math.floor((lo - 0.1 * span) / step) * step, Math.ceil((hi + 0.1 * span) / step) * step], lo, hi);
  const colour = laneStyle(lane.id, theme.scheme).colour;
  const parts = [
    { key: 'kinetic', name: t_('kinetic'), f: ke, dash: [7, 4], width: 1.75 },
    { key: 'potential', name: t_('potential'), f: pe, dash: [2, 3], width: 1.75 },
    { key: 'total', name: t_('total'), f: total, dash: [], width: 2.5 },
  ];
  const lines = parts.map((p) => ({ key: p.key, count: end, x: t, y: p.f, style: { colour, dash: p.dash, width: p.width } }));
  lines.push({ key: 'exact', count, x: t, y: exact, style: { colour: theme.ghost, dash: [4, 4], width: 1.5 } });
  return {
    theme, xr: run.xr, yr, xTicks: run.xTicks, yTicks: linearTicks(yr, 4), xName: t_('t (s)'), yName: t_('energy (J)'), lines,
    report: { lane: lane.id },
    // Each curve's name at its end.
    marks: (ctx) => {
      if (end === 0) return;
      ctx.fillStyle = colour;
      ctx.textAlign = 'right';
      ctx.textBaseline = 'bottom';
      for (const p of parts) {
        const X = Math.min(plot.px(t(end - 1)), plot.area.x + plot.area.w - 2), Y = plot.pyEdge(p.f(end - 1));
        if (Number.isFinite(X) && Number.isFinite(Y)) ctx.fillText(p.name, Math.max(X, plot.area.x + 60), Math.max(Y - 2, plot.area.y + 12));
      }
    },
    readout: (i) => [
      ...parts.map((p) => ({ colour, name: p.name, text: i < end ? `${formatValue(p.f(i), 4)} J` : t_('stopped') })),
      { colour: theme.ghost, name: t_('exact total'), text: `${formatValue(exact(i), 4)} J` },
    ],
    cursorPoints: (i) => (i < end ? parts.map((p) => ({ x: t(i), y: p.f(i), colour })) : []),
  };
}

// A linked system's series of every lane shown against time, the reference's own dashed: the
// constraint error (the largest |length − L|/L) on a log scale, values below 1e-16 on its
// bottom line; the first link's tension (N) linear.
export function linkSpec(plots, run, plot, name, referenceName, log) {
  const { layout, h, theme, ends, count, t } = run;
  const lane = run.snapshot.lanes.map((l, k) => layout.series(h, name, k));
  const reference = layout.series(h, referenceName);
  const unit = layout.unit(name);
  const floor = 1e-16;
  let lo = Infinity, hi = -Infinity;
  const take = (f, n) => {
    for (let i = 0; i < n; ++i) {
      let v = f(i);
      if (!Number.isFinite(v)) continue;
      if (log) { if (v <= floor) continue; v = Math.log10(v); }
      lo = Math.min(lo, v); hi = Math.max(hi, v);
    }
  };
  for (const l of run.shown) take(lane[l.index], ends[l.index]);
  take(reference, count);
  let yr, yTicks, value;
  if (log) {
    if (!Number.isFinite(lo)) { lo = -16; hi = -12; }
    lo = Math.floor(lo); hi = Math.max(Math.ceil(hi), lo + 2);
    yr = [lo, hi];
    yTicks = logTicks(lo, hi, true);
    value = (f) => (i) => { const v = f(i); return Number.isFinite(v) ? Math.log10(Math.max(v, Math.pow(10, lo))) : NaN; };
  } else {
    if (!Number.isFinite(lo)) { lo = 0; hi = 1; }
    lo = Math.min(lo, 0);
    const span = Math.max(hi - lo, 1e-9 * Math.max(Math.abs(lo), Math.abs(hi)), 1e-12);
    const step = niceStep(span * 1.1, 4);
    yr = holdRange(plot, name, [Math.floor(lo / step) * step, Math.ceil((hi + 0.08 * span) / step) * step], lo, hi);
    yTicks = linearTicks(yr, 4);
    value = (f) => f;
  }
  const lines = plots.laneLines(run, (l) => value(lane[l]));
  // On top, dashed: a lane on the reference shows through the gaps.
  lines.push({ key: 'reference', count, x: t, y: value(reference), style: { colour: theme.ghost, dash: [4, 4] } });
  const text = (v) => (!Number.isFinite(v) ? '—' : log && v <= floor ? '0' : `${formatValue(v)}${unit ? ` ${unit}` : ''}`);
  const spec = {
    theme, xr: run.xr, yr, xTicks: run.xTicks, yTicks, xName: t_('t (s)'),
    yName: log ? t_('constraint error, log') : t_('tension (N)'), lines, report: { log },
    readout: (i) => [
      ...run.shown.map((l) => ({
        colour: laneStyle(l.id, theme.scheme).colour, name: plots.names[l.index],
        text: i < ends[l.index] ? text(lane[l.index](i)) : t_('stopped'),
      })),
      { colour: theme.ghost, name: t_('reference'), text: text(reference(i)) },
    ],
    cursorPoints: (i) => run.shown.filter((l) => i < ends[l.index])
      .map((l) => ({ x: t(i), y: value(lane[l.index])(i), colour: laneStyle(l.id, theme.scheme).colour })),
  };
  spec.marks = plots.laneMarks(plot, run, (l) => value(lane[l]), new Map());
  return spec;
}

// Each cloud's area over its area at t = 0 against time, the exact flow's dashed: linear while
// every ratio stays within ×10 and ÷10 of 1, else a log scale. A ratio that is not finite (the
// rim ran away) breaks the line. The clouds are stepped on their own, so a lane's line goes on
// while its ratio is finite, even after the lane's own body stopped.
export function areaSpec(plots, run) {
  const { layout, h, theme, count, t } = run;
  const ratio = run.snapshot.lanes.map((lane, l) => layout.series(h, 'area_ratio', l));
  const exact = layout.has('exact_area_ratio') ? layout.series(h, 'exact_area_ratio') : null;
  const series = run.shown.map((lane) => ratio[lane.index]);
  if (exact) series.push(exact);
  // A signed ratio below zero (a rim folded over itself) rules the log scale out.
  let lo = Infinity, hi = -Infinity, negative = false;
  for (const r of series) {
    for (let i = 0; i < count; ++i) {
      const v = r(i);
      if (!Number.isFinite(v)) continue;
      lo = Math.min(lo, v); hi = Math.max(hi, v);
      negative = negative || v <= 0;
    }
  }
  if (!Number.isFinite(lo)) { lo = 1; hi = 1; }
  const log = !negative && (hi > 10 || lo < 0.1);
  let yr, yTicks, value;
  if (log) {
    const a = Math.floor(Math.log10(lo)), b = Math.max(Math.ceil(Math.log10(hi)), a + 1);
    yr = [a, b];
    yTicks = logTicks(a, b, false);
    value = (r) => (i) => { const v = r(i); return v > 0 ? Math.log10(v) : NaN; };
  } else {
    lo = Math.min(lo, 1); hi = Math.max(hi, 1);
    const pad = Math.max((hi - lo) * 0.08, 0.01);
    const step = niceStep(hi - lo + 2 * pad, 4);
    yr = [Math.floor((lo - pad) / step) * step, Math.ceil((hi + pad) / step) * step];
    yTicks = linearTicks(yr, 4);
    value = (r) => r;
  }
  const lines = run.shown.map((lane) => ({
    key: lane.id, lane: lane.id, count, x: t, y: value(ratio[lane.index]),
    style: laneStyle(lane.id, theme.scheme), faded: isFaded(lane.id),
  }));
  // On top, dashed: a lane on the exact ratio shows through the gaps.
  if (exact) lines.push({ key: 'exact', count, x: t, y: value(exact), style: { colour: theme.ghost, dash: [4, 4] } });
  return {
    theme, xr: run.xr, yr, xTicks: run.xTicks, yTicks, xName: t_('t (s)'), yName: log ? t_('area ratio, log') : t_('area ratio'),
    lines, report: { log },
    readout: (i) => [
      ...run.shown.map((lane) => ({ colour: laneStyle(lane.id, theme.scheme).colour, name: plots.names[lane.index], text: formatValue(ratio[lane.index](i)) })),
      ...(exact ? [{ colour: theme.ghost, name: t_('exact flow'), text: formatValue(exact(i)) }] : []),
    ],
    cursorPoints: (i) => run.shown.map((lane) => ({ x: t(i), y: value(ratio[lane.index])(i), colour: laneStyle(lane.id, theme.scheme).colour })),
  };
}
