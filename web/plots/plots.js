// The live plots beside the canvas, drawn from the history the core records and read by name
// through its layout (layout.js): the energy change in % of the energy scale (linear, or the
// size of the change on a log scale), an energy breakdown (kinetic, potential, total) of one
// chosen lane, position error against the exact or reference solution (log scale), phase space
// (the scene's own pair of coordinates, named by the core), angular momentum change where the
// system conserves it, the phase-space clouds' area ratio where there are clouds, and a linked
// system's constraint error and first link's tension, the reference's own beside. Colours,
// dashes and markers match the legend; hidden lanes are left out, faded ones drawn faint (the
// legend's focus, web/motion/lane-focus.js). Each plot is drawn incrementally (web/plots/plot-layer.js) and
// read at a time with the shared cursor (web/plots/plot-readout.js). The plots that only some
// systems or choices have (the breakdown, the links', the clouds' area) are made by
// web/plots/plot-extras.js, loaded the first time one of them is drawn.
import { niceStep, linearTicks, mostMultiples } from '../motion/coords.js';
import { laneStyle, drawMarker } from '../common/palette.js';
import { PlotLayer } from './plot-layer.js';
import { placeLabels, rowsAround } from './plot-labels.js';
import { cursorTime, onCursor } from '../motion/cursor.js';
import { isHidden, isFaded, onLaneFocus } from '../motion/lane-focus.js';
import { valueOf } from '../common/query.js';
// t_: the page's texts (web/common/language.js); t is a time series here.
import { t as t_, marked, coreMessage } from '../common/language.js';
import { plainNumber, formatValue, stopText } from '../common/text.js';
import { el } from '../common/dom.js';

// Below this a drift (relative) is round-off, printed and drawn as 0: the energy of a state
// carries a few ε of rounding, and a run of n steps accumulates about √n of them.
export function roundoffFloor(steps) {
  return 16 * Number.EPSILON * Math.sqrt(Math.max(1, steps));
}
// A position error below this fraction of the motion's size is round-off.
const errorRoundoff = 1e-12;
// A lane running away no longer sets the linear range: it is drawn to the edge and marked "off
// scale". Running away: stopped (diverged), or changed by more than the whole energy scale (100 %)
// and still growing: its largest change so far more than runawayGrowth times its largest in the
// first half of its samples. A bounded lane past 100 % (semi-implicit Euler near its stability
// limit swings to +167 % at ωh = 1.25, 1/(1 − ωh/2) − 1) keeps setting the range: it is always on scale.
const offScalePercent = 100;
const runawayGrowth = 1.5;
const storageKey = 'stepwise.energyScale';
// The length of line (CSS pixels) a plot strokes at most in one frame while playing (Plots.draw):
// a few milliseconds of rasterising on a software canvas.
const plotBudgetPx = 40000;

// The smallest of 1, 1.5, 2, 3, 4, 5, 6, 8 × 10^k at or above v (v > 0): a range that holds
// while the data grows a little, so the plot keeps appending.
const mantissas = [1, 1.5, 2, 3, 4, 5, 6, 8, 10];
export function niceCeil(v) {
  if (!(v > 0) || !Number.isFinite(v)) return 1;
  const power = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of mantissas) if (m * power >= v * (1 - 1e-12)) return m * power;
  return 10 * power;
}

// A range that holds while it still fits: the one held while it contains [lo, hi] and is at most
// 2.5 times as wide as the candidate (computed with room to grow); else the candidate, held from
// now on. holder: an object keeping {kind, range}; kind: what the range is of (a new kind drops it).
export function holdRange(holder, kind, candidate, lo, hi) {
  const held = holder.held;
  if (held && held.kind === kind && held.range[0] <= lo && held.range[1] >= hi &&
      held.range[1] - held.range[0] <= 2.5 * (candidate[1] - candidate[0])) return held.range;
  holder.held = { kind, range: candidate };
  return candidate;
}

function decadeLabel(k) { return Math.abs(k) <= 3 ? plainNumber(Math.pow(10, k)) : `1e${k}`.replaceAll('-', '−'); }

export function logTicks(lo, hi, below) {
  const every = Math.max(1, Math.ceil((hi - lo) / 5));
  const out = [];
  for (let k = lo, n = 0; k <= hi && n < mostMultiples; k += every, ++n) out.push({ value: k, label: k === lo && below ? `≤${decadeLabel(k)}` : decadeLabel(k) });
  return out;
}

// Whether every body starts on one line with the scene's anchors and centres, moving along it
// (a spring released from rest, or pushed along its own axis): then every force acts along the
// line, the motion stays on it and its angular momentum is 0 at every step, for every method.
function onALine(sim) {
  const s = sim.snapshot, scene = sim.scene;
  const points = [...s.reference, ...scene.anchors, ...scene.centres].map((p) => [p.x, p.y]);
  const directions = s.reference.map((b) => [b.vx, b.vy]);
  if (points.length === 0) return false;
  const [x0, y0] = points[0];
  const offsets = points.slice(1).map(([x, y]) => [x - x0, y - y0]);
  const along = [...offsets, ...directions].find(([x, y]) => x !== 0 || y !== 0);
  if (!along) return true;  // everything at one point, at rest
  const n = Math.hypot(along[0], along[1]);
  const across = ([x, y]) => Math.abs(along[0] * y - along[1] * x) / n;
  return [...offsets, ...directions].every((v) => Number.isFinite(v[0]) && Number.isFinite(v[1]) && across(v) <= 1e-12 * Math.max(1, Math.hypot(v[0], v[1])));
}

// An axis linear over `linear` ([lo, hi] % with lo < 0 < hi, where the lanes that keep their
// energy are) and in decades beyond it, up to awayHi above and down to awayLo below (the lanes
// running away): a value v > hi sits at hi + decade·log10(v/hi), below lo likewise. The decades
// together take at most as much height as the linear part, and each at most half of it.
// {yr, y(v), ticks, linear, key, drawTurns(ctx, plot, theme)}: the axis's range and map in its own
// units, the decade ticks (10 %, 100 %, 1e3 %, …) labelled by the value they stand for.
export function beyondAxis(linear, awayLo, awayHi) {
  const [lo, hi] = linear, width = hi - lo;
  // At most 700 decades either way (a double spans 632): a non-finite or hostile value cannot
  // make the tick loop below run without end.
  const decadesTo = (away, edge) => Math.min(700, Math.ceil(Math.log10(away / edge) - 1e-9)) || 0;
  const up = awayHi > hi ? decadesTo(awayHi, hi) : 0;
  const down = awayLo < lo ? decadesTo(awayLo, lo) : 0;
  const decade = Math.min(width / 2, width / Math.max(1, up + down));
  const y = (v) => {
    if (!Number.isFinite(v)) return NaN;
    if (v > hi) return hi + decade * Math.log10(v / hi);
    if (v < lo) return lo - decade * Math.log10(v / lo);
    return v;
  };
  const ticks = [];
  const every = Math.max(1, Math.ceil(Math.max(up, down) / 3));
  for (const [edge, count, sign] of [[hi, up, 1], [lo, down, -1]]) {
    const first = Math.floor(Math.log10(Math.abs(edge)) + 1e-9) + 1;
    for (let k = first, n = 0; k <= Math.log10(Math.abs(edge)) + count + 1e-9 && n < mostMultiples; k += every, ++n) {
      ticks.push({ value: y(sign * Math.pow(10, k)), label: `${sign < 0 ? '−' : ''}${decadeLabel(k)}` });
    }
  }
  return {
    yr: [lo - decade * down, hi + decade * up], y, ticks, linear: [lo, hi], key: `${lo},${hi},${up},${down}`,
    // A dashed line where it turns, "log scale beyond" along it on the far side from the linear part.
    drawTurns(ctx, plot, theme) {
      const a = plot.area;
      ctx.strokeStyle = theme.muted;
      ctx.fillStyle = theme.muted;
      ctx.lineWidth = 1;
      ctx.textAlign = 'right';
      for (const [edge, count, sign] of [[hi, up, 1], [lo, down, -1]]) {
        if (count === 0) continue;
        const Y = Math.round(plot.py(edge)) + 0.5;
        ctx.setLineDash([6, 4]);
        ctx.beginPath();
        ctx.moveTo(a.x, Y); ctx.lineTo(a.x + a.w, Y);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.textBaseline = sign > 0 ? 'bottom' : 'top';
        ctx.fillText(t_('log scale beyond'), a.x + a.w - 4, Y - sign * 2);
      }
    },
  };
}

// A signed number for a readout: "+1.23", "−0.5", "0".
function signed(v) {
  if (!Number.isFinite(v)) return '—';
  const text = formatValue(v);
  return v > 0 ? `+${text}` : text.replaceAll('-', '−');
}

// The history sample whose time is nearest t (times rise with the index).
export function nearestSample(t, count, time) {
  if (count === 0) return -1;
  let lo = 0, hi = count - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (time(mid) <= t) lo = mid; else hi = mid;
  }
  return Math.abs(time(hi) - t) < Math.abs(time(lo) - t) ? hi : lo;
}

// How many history samples of a lane to draw: up to its stop, if any.
function samplesBefore(t, count, lane) {
  if (!lane.diverged) return count;
  let n = 0;
  while (n < count && t(n) < lane.divergedAt) ++n;
  return n;
}

function readStored() {
  try { return window.localStorage.getItem(storageKey) === 'log'; } catch { return false; }
}

// The plots, in page order: a new plot is one row here (its figure, caption and canvas are made
// from it; nothing else lists the plots). name: the plot's key (report(), the readout) and its
// canvas's id, plot-<name>; title, hint, label: its caption, the caption's hint and the canvas's
// accessible name (English: t() gives the page's language); hidden: hidden until a simulation
// has it; options: the energy plot's log scale and breakdown choice; has(plots, layout): whether
// this run has it (its figure is hidden otherwise); caption(plots, layout): its caption in the
// PNG; sceneHint(sim): the hint from the scene; spec(plots, run, layer): what to draw (null while
// web/plots/plot-extras.js is on its way); whole(plots): drawn whole each time (not appended).
const plotTable = [
  {
    name: 'energy', title: marked('Energy change'), options: true,
    hint: marked("each integrator's energy minus the exact motion's, in % of the energy scale (kinetic + |potential| energy at the start, or the exact motion's now if larger); 0 % = kept."),
    label: marked('Energy change of each integrator in % of the energy scale, against time'),
    has: (p) => p.showLanes,
    caption: () => t_('Energy change (% of the energy scale)'),
    spec: (p, run, layer) => p.driftSpec(run, layer, 'energy_drift', marked('energy change'), p.log),
  },
  {
    name: 'breakdown', title: marked('Energy breakdown'), hidden: true, titled: true,
    hint: marked("thick: total · long dashes: kinetic · short dashes: potential · grey dashed: the exact motion's total"),
    label: marked('Kinetic, potential and total energy of the chosen integrator against time'),
    has: (p) => p.canBreakdown && p.breakdownId !== '',
    caption: (p) => (p.breakdownShown() ? t_('Energy of {name}: kinetic, potential, total (J)', { name: p.breakdownName() }) : ''),
    spec: (p, run, layer) => p.extra((m) => m.breakdownSpec(p, run, layer)),
  },
  {
    name: 'error', title: marked('Position error'), hint: marked('distance from the exact or reference position, log scale'),
    label: marked('Position error of each integrator against time, log scale'),
    has: (p) => p.showLanes,
    caption: (p, layout) => t_('Position error ({unit}, log scale)', { unit: layout.unit('max_error') }),
    spec: (p, run, layer) => p.errorSpec(run, layer),
  },
  {
    name: 'phase', title: marked('Phase space'), hint: marked('a position against its rate of change; dashed: exact or reference'),
    label: marked('Phase space: a position against its rate of change, for each integrator'),
    has: () => true,
    sceneHint: (sim) => t_('{what}; dashed: exact or reference', { what: t_(sim.scene.phase.text) }),
    caption: (p, layout) => t_('Phase space: {q} against {p}', { q: layout.title('phase_q'), p: layout.title('phase_p') }),
    spec: (p, run, layer) => p.phaseSpec(run, layer),
    whole: (p) => Boolean(p.phaseOverlay),
  },
  {
    name: 'area', title: marked('Area ratio'), hidden: true,
    hint: marked('area of each phase-space cloud ÷ its area at t = 0, in the cloud\'s plane (body 0\'s x and vx; a linked system\'s first link\'s angle and its rate); 1 for a symplectic method; log scale once a ratio passes ×10 or ÷10; dashed: the exact flow'),
    label: marked("Area ratio of each integrator's phase-space cloud against time"),
    has: (p, layout) => layout.has('area_ratio'),
    caption: () => t_('Area ratio of each phase-space cloud (area ÷ initial area)'),
    spec: (p, run) => p.extra((m) => m.areaSpec(p, run)),
  },
  {
    name: 'angular', title: marked('Angular momentum change'), hidden: true,
    hint: marked("each integrator's angular momentum minus the exact motion's, in % of its size at the start (Σ m·|r₀|·|v₀|)"),
    label: marked('Angular momentum change of each integrator in % of its starting size, against time'),
    // Not where it is 0 all along: bodies, anchors and centres on one line, moving along it.
    has: (p, layout) => layout.has('angular_momentum_drift') && !p.motionOnALine,
    caption: () => t_('Angular momentum change (% of its scale)'),
    spec: (p, run, layer) => p.driftSpec(run, layer, 'angular_momentum_drift', marked('angular momentum change'), false),
  },
  {
    name: 'links', title: marked('Links'), hidden: true,
    hint: marked("constraint error: the largest |length − L|/L over the links, log scale; a compliant link's stretch is physical, so compare it with the reference's own (dashed)"),
    label: marked("Constraint error of each integrator's links against time, log scale"),
    has: (p, layout) => layout.has('constraint_error'),
    caption: () => t_('Links: constraint error, largest |length − L|/L (log scale)'),
    spec: (p, run, layer) => p.extra((m) => m.linkSpec(p, run, layer, 'constraint_error', 'reference_constraint_error', true)),
  },
  {
    name: 'tension', title: marked('Tension'), hidden: true, hint: marked("the first link's tension in N; dashed: the reference's"),
    label: marked('Tension of the first link for each integrator against time'),
    has: (p, layout) => layout.has('constraint_error'),
    caption: () => t_('Tension of the first link (N)'),
    spec: (p, run, layer) => p.extra((m) => m.linkSpec(p, run, layer, 'tension', 'reference_tension', false)),
  },
];

// A plot's figure from its row: the caption (title and hint), the options, the canvas.
function plotFigure(row) {
  const caption = row.titled
    ? el('figcaption', {}, [el('span', { class: 'plot-title', text: t_(row.title) }), ' ', el('span', { class: 'hint', text: t_(row.hint) })])
    : el('figcaption', {}, [`${t_(row.title)} `, el('span', { class: 'hint', text: t_(row.hint) })]);
  // Read at a time by its readout (web/plots/plot-readout.js, attached after the first frame).
  const canvas = el('canvas', {
    id: `plot-${row.name}`, role: 'img', 'aria-label': `${t_(row.label)}. ${t_('Focus it and press ← or → to read the values at a time.')}`, tabindex: '0',
  });
  const figure = el('figure', {}, [caption]);
  figure.hidden = Boolean(row.hidden);
  let controls = {};
  if (row.options) {
    controls = { log: el('input', { type: 'checkbox', id: 'energy-log' }), breakdown: el('select', { id: 'energy-breakdown' }, [el('option', { value: '', text: t_('none') })]) };
    figure.append(el('div', { class: 'plot-options' }, [
      el('label', { title: t_('The size of the change on a log scale') }, [controls.log, ` ${t_('log scale')}`]), ' ',
      el('label', {}, [`${t_('Breakdown')} `, controls.breakdown]),
    ]));
    // Why the energy leaves out a written force's work, when the core says it has no potential.
    controls.note = el('p', { class: 'hint plot-note', id: 'energy-note' });
    controls.note.hidden = true;
    figure.append(controls.note);
  }
  figure.append(canvas);
  return { figure, canvas, controls };
}

// The plots change slowly: redrawing them 10 times a second while playing is plenty, and
// leaves the frame budget to the animation.
const plotIntervalMs = 100;

export class Plots {
  // section: the plots' section of the page (its figures are made here, from plotTable);
  // requestDraw(): a frame is to be drawn; notify(message): the page's message banner; hidden:
  // the plots are not shown (an embedded frame without ui=full), so they are never drawn into
  // their hidden canvases; page: the PageState (web/app/state.js).
  constructor(section, { page, requestDraw = () => {}, notify = () => {}, hidden = false }) {
    this.page = page;
    this.rows = [];
    let controls = {};
    for (const row of plotTable) {
      const made = plotFigure(row);
      section.append(made.figure);
      if (row.options) controls = made.controls;
      this.rows.push({ row, figure: made.figure, layer: new PlotLayer(made.canvas) });
    }
    this.showLanes = true;
    this.breakdownId = '';
    this.names = [];
    this.requestDraw = requestDraw;
    this.notify = notify;
    this.hidden = hidden;
    this.lastDrawn = -Infinity;  // when the last round of drawing began (performance.now())
    this.firstFrame = true;      // the page's first frame is yet to come
    this.drawn = false;          // a whole round of the plots was drawn (or left hidden): the page is ready
    this.inRound = false;        // a round of the plots under way, a plot a frame (while playing)
    this.timeAxis = {};
    // Drawn over the phase plot (the stage X-ray, web/xray/xray.js, through setPhaseOverlay):
    // {fit(xr, yr) -> [xr, yr] (the ranges widened to its points), draw(ctx, plot, theme)}, or null.
    this.phaseOverlay = null;
    this.log = readStored();
    this.controls = controls;
    if (controls.log) {
      controls.log.checked = this.log;
      controls.log.addEventListener('change', () => {
        this.log = controls.log.checked;
        try { window.localStorage.setItem(storageKey, this.log ? 'log' : 'linear'); } catch { /* a sandboxed frame */ }
        this.requestDraw();
      });
    }
    if (controls.breakdown) {
      controls.breakdown.addEventListener('change', () => {
        this.breakdownId = controls.breakdown.value;
        this.showBreakdown();
        this.requestDraw();
      });
    }
    this.readouts = new Map();  // plot layer -> its readout, once attachReadouts() made them
    for (const [, plot] of this.all()) plot.cursor = (ctx, p) => this.drawCursor(ctx, p);
    onCursor(() => this.cursorMoved());
    onLaneFocus(() => this.requestDraw());
  }

  all() { return this.rows.map((r) => [r.row.name, r.layer]); }

  // Each plot's readout (web/plots/plot-readout.js PlotReadout), after the page's first frame.
  attachReadouts(PlotReadout) {
    const host = {
      sample: () => ({ count: this.count || 0, time: this.t || (() => 0) }),
      pick: (plot, x, y) => this.pick(plot, x, y),
      entries: (plot, i) => (plot.spec && plot.spec.readout ? plot.spec.readout(i) : []),
    };
    for (const [name, plot] of this.all()) this.readouts.set(plot, new PlotReadout(plot, host, name));
    this.cursorMoved(false);
  }

  // The plot layer of the row named `name`.
  layer(name) { return this.rows.find((r) => r.row.name === name).layer; }

  // What the stage X-ray draws over the phase plot (see the constructor), or null.
  setPhaseOverlay(overlay) { this.phaseOverlay = overlay; }

  // make(module) with the plots some runs only have (web/plots/plot-extras.js), or null while that
  // module loads (its first use starts it; once it is there the plots are drawn again).
  extra(make) {
    if (this.extras) return make(this.extras);
    this.extrasLoad ||= import('./plot-extras.js').then((m) => { this.extras = m; this.requestDraw(); }, (error) => {
      this.extrasLoad = null;
      this.notify(t_('The plots could not load: {error}', { error: error.message }));
    });
    return null;
  }

  // A new simulation: the captions from the scene, each plot shown only where this run has it
  // (the angular momentum's where the core records it, the clouds' with clouds, a linked
  // system's links and tension), and the breakdown's choice of lane.
  setSimulation(sim) {
    const names = this.page.laneNames();
    this.names = names;
    this.laneIds = sim.laneIds;
    this.layout = sim.layout.history;
    for (const { row, figure } of this.rows) {
      const hint = row.sceneHint && figure.querySelector('figcaption .hint');
      if (hint) hint.textContent = row.sceneHint(sim);
    }
    const layout = sim.layout.history;
    // A run of the reference alone (integrators=reference) has no lane to show an energy change or an
    // error of: those two plots give way (force-based lanes on rigid links never start:
    // needs_compliance, at t = 0 already).
    this.showLanes = sim.snapshot.lanes.some((lane) => lane.stopReason !== 'needs_compliance');
    this.motionOnALine = onALine(sim);
    // A written force with no potential where the motion starts (a pole between the origin and
    // the start): the core's reason, in the page's language, as text.
    const { note } = this.controls;
    if (note) {
      note.textContent = sim.scene.noPotential ? coreMessage(sim.scene.noPotential) : '';
      note.hidden = !sim.scene.noPotential;
    }
    const select = this.controls.breakdown;
    this.canBreakdown = layout.has('kinetic_energy');
    if (select) {
      const none = el('option', { value: '', text: t_('none') });
      const options = sim.laneIds.map((id, l) => el('option', { value: id, text: names[l] }));
      select.replaceChildren(none, ...options);
      if (!sim.laneIds.includes(this.breakdownId)) this.breakdownId = '';
      select.value = this.breakdownId;
      select.disabled = !this.canBreakdown;
    }
    this.showBreakdown();
    // Every plot drawn again for this run; a plot this run hides keeps no spec (its readout's
    // closures would hold the replaced simulation's data).
    for (const [, plot] of this.all()) { plot.key = null; plot.held = null; plot.spec = null; }
    this.timeAxis = {};
    this.phaseAxes = [{}, {}];
  }

  // Each figure shown or hidden as this run has it, and the captions.
  showBreakdown() {
    if (!this.layout) return;
    for (const { row, figure, layer } of this.rows) {
      figure.hidden = !row.has(this, this.layout);
      layer.caption = row.caption(this, this.layout);
    }
    const title = this.breakdownShown() && this.rows.find((r) => r.row.name === 'breakdown').figure.querySelector('figcaption .plot-title');
    if (title) title.textContent = t_('Energy breakdown: {name}', { name: this.breakdownName() });
  }

  breakdownShown() { return this.canBreakdown && this.breakdownId !== ''; }
  breakdownName() { return this.names[this.laneIds ? this.laneIds.indexOf(this.breakdownId) : -1]; }

  // The plots shown, in page order.
  shown() { return this.rows.filter((r) => !r.figure.hidden); }

  // The plots as [{canvas, caption}] in page order, the hidden ones left out (for the PNG).
  visible() {
    return this.shown().map(({ layer }) => ({ canvas: layer.picture(), caption: layer.caption }));
  }

  // Every frame drawn, throttled (see plotIntervalMs): while playing a plot a frame until each
  // is drawn (see draw); paused, all of them at once.
  frame(snapshot) {
    const now = performance.now(), playing = this.page.runner.playing;
    if (this.firstFrame) {
      // The page's first frame draws the motion alone and the plots one frame later: together
      // they were one task of 40–50 ms on a busy machine.
      this.firstFrame = false;
      this.requestDraw();
    } else if (!playing || this.inRound || now - this.lastDrawn >= plotIntervalMs) {
      if (!this.inRound) this.lastDrawn = now;
      // The page's first round of the plots a plot a frame, paused too: the three drawn whole in
      // one task were 55-58 ms CPU on heavy_chain_60hz's nine lanes (load 5). The page is ready
      // once the round is whole.
      if (!this.hidden) this.inRound = !this.draw(this.page.sim, snapshot, this.page.theme, playing || !this.drawn ? 1 : Infinity);
      if (this.inRound && !playing) this.requestDraw();
      if (!this.inRound) this.drawn = true;
    }
  }

  // What the plots drew, for the tests: per plot its ranges, ticks, lanes, marks and draws.
  report() {
    const out = { cursor: cursorTime(), log: this.log, breakdown: this.breakdownId, drawnAt: this.snapshot ? this.snapshot.t : null };
    for (const [name, plot] of this.all()) {
      const live = this.readouts.get(plot)?.live;
      out[name] = plot.spec ? {
        ...plot.spec.report, xRange: plot.xr, yRange: plot.yr, yTicks: plot.spec.yTicks.map((t) => t.label),
        xTicks: plot.spec.xTicks.map((t) => t.label), yName: plot.spec.yName, yTitle: plot.yTitle ? { ...plot.yTitle } : null, xLabels: plot.xLabels, width: plot.cssWidth,
        lanes: plot.spec.lines.filter((l) => l.lane).map((l) => ({ id: l.lane, faded: Boolean(l.faded) })),
        full: plot.stats.full, appended: plot.stats.appended, cursorX: plot.cursorX ?? null, cursorMarks: plot.cursorMarks || 0,
        readout: !live || plot.frame.querySelector('.plot-readout').hidden ? null : live.textContent,
      } : null;
    }
    return out;
  }

  // Draws the plots from the history. most: how many plots this call draws at most, each with
  // at most plotBudgetPx of line stroked; a plot not finished within it goes on at the next call,
  // and then the round goes on to the next plot (while playing the page calls it a frame at a time:
  // the lines stroked are rasterised in the frame's commit, and the plots drawn whole again all
  // at once, as after the history's compaction or a new range, made frames of 50–70 ms with fifteen
  // lanes of a chaotic pendulum at 10×). Paused: all of them whole. Returns true when the round is
  // complete.
  draw(sim, snapshot, theme, most = Infinity) {
    const count = sim.historyCount;
    if (count === 0) return true;
    const layout = sim.layout.history, h = sim.history;
    const t = layout.series(h, 't');
    this.t = t;
    this.count = count;
    this.snapshot = snapshot;
    const ends = snapshot.lanes.map((lane) => samplesBefore(t, count, lane));
    // The time axis runs to a round time ahead of now (or the duration): it holds while the run
    // goes on, so the plots append.
    const duration = Number(valueOf(sim.config, 'duration')) || Infinity;
    const now = Math.max(t(count - 1), snapshot.t, 10 * sim.dt);
    const end = niceCeil(now * 1.25);
    // A run's last step may end past the duration (the projectile's flight of 2.0387 s in steps of
    // 0.01 s ends at 2.04 s): the axis then ends with that step, not at the next round time.
    const last = duration >= now - sim.dt && duration <= end;
    const xr = holdRange(this.timeAxis, 'time', [0, last ? Math.max(duration, now) : end], 0, now);
    const xTicks = linearTicks(xr, 5);
    const run = { sim, snapshot, theme, layout, h, t, count, ends, xr, xTicks, generation: sim.historyGeneration };
    const shown = snapshot.lanes.filter((lane) => !isHidden(lane.id));
    run.shown = shown;
    const budget = most === Infinity ? Infinity : plotBudgetPx;
    const plots = this.shown();
    if (most === Infinity || !(this.round < plots.length)) this.round = 0;
    for (let drawn = 0; this.round < plots.length && drawn < most; ++drawn) {
      const { row, layer } = plots[this.round];
      const spec = row.spec(this, run, layer);
      if (!spec) break;  // its module is on its way: the round goes on from this plot when it is there
      layer.render(theme, spec, run.generation, Boolean(row.whole && row.whole(this)), budget);
      if (layer.complete) this.round += 1;
    }
    // Each plot drew its layer with itself; the readouts once the round is whole.
    const done = this.round >= plots.length;
    if (done) this.cursorMoved(false);
    return done;
  }

  // The cursor moved (or the plots were drawn: layers false, they drew their own): every plot's
  // layer again, and the active readout.
  cursorMoved(layers = true) {
    if (!this.t) return;
    const t = cursorTime();
    const i = t === null ? -1 : nearestSample(t, this.count, this.t);
    const timeText = i < 0 ? '' : `t = ${formatValue(this.t(i), 4)} s`;
    for (const [, plot] of this.all()) {
      if (!plot.spec) continue;
      if (layers) plot.drawOverlay();
      this.readouts.get(plot)?.update(i, timeText);
    }
  }

  // The sample under the pointer (CSS pixels in the plot): on a time axis the nearest time; on
  // the phase plot the nearest point of a lane shown.
  pick(plot, x, y) {
    if (!this.t || !plot.spec) return -1;
    if (plot.spec.points) {
      let best = -1, distance = Infinity;
      for (const pts of plot.spec.points) {
        for (let i = 0; i < pts.count; ++i) {
          const d = Math.hypot(plot.px(pts.x(i)) - x, plot.py(pts.y(i)) - y);
          if (d < distance) { distance = d; best = i; }
        }
      }
      return best;
    }
    const t = Math.min(Math.max(plot.xAt(x), 0), this.t(this.count - 1));
    return nearestSample(t, this.count, this.t);
  }

  // The cursor line at the cursor's time, and each lane's point there (on the phase plot, the
  // lane's point at that time: the plot has no time axis).
  drawCursor(ctx, plot) {
    const t = cursorTime();
    plot.cursorX = null;
    plot.cursorMarks = 0;
    if (t === null || !this.t || !plot.spec) return;
    const i = nearestSample(t, this.count, this.t);
    const a = plot.area;
    const theme = plot.spec.theme;
    if (!plot.spec.points) {
      const x = plot.px(this.t(i));
      plot.cursorX = null;
      if (x < a.x - 1 || x > a.x + a.w + 1) return;
      plot.cursorX = x;
      ctx.strokeStyle = theme.fg;
      ctx.lineWidth = 1;
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      ctx.moveTo(Math.round(x) + 0.5, a.y);
      ctx.lineTo(Math.round(x) + 0.5, a.y + a.h);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    const marks = plot.spec.cursorPoints ? plot.spec.cursorPoints(i) : [];
    plot.cursorMarks = 0;
    for (const m of marks) {
      const X = plot.px(m.x), Y = plot.py(m.y);
      if (!Number.isFinite(X) || !Number.isFinite(Y) || Y < a.y - 1 || Y > a.y + a.h + 1 || X < a.x - 1 || X > a.x + a.w + 1) continue;
      ctx.fillStyle = theme.bg;
      ctx.strokeStyle = m.colour;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(X, Y, 4, 0, Math.PI * 2);
      ctx.fill();
      ctx.stroke();
      plot.cursorMarks += 1;
    }
  }

  // The lines of a series per lane shown: hidden lanes left out, faded ones marked.
  laneLines(run, value) {
    return run.shown.map((lane) => ({
      key: lane.id, lane: lane.id, count: run.ends[lane.index], x: run.t, y: value(lane.index),
      style: laneStyle(lane.id, run.theme.scheme), faded: isFaded(lane.id),
    }));
  }

  // Marks of stopped lanes (a cross and "diverged at t = … s") and of lanes beyond the range (a
  // triangle on the edge where the line leaves it, "off scale"), drawn on the layer. Lanes marked
  // at the same place with the same words share one label (in the text colour when they are
  // several); labels never overlap each other or the marks (web/plots/plot-labels.js), the stops'
  // placed first.
  laneMarks(plot, run, value, offScale) {
    const marks = [];
    for (const lane of run.shown) {
      const l = lane.index, style = laneStyle(lane.id, run.theme.scheme), end = run.ends[l];
      const off = offScale.get(lane.id);
      if (off) marks.push({ kind: 'off', x: run.t(off.i), up: off.up, style, text: t_('off scale'), faded: isFaded(lane.id) });
      if (lane.diverged && end > 0) marks.push({ kind: 'stop', x: run.t(end - 1), y: value(l)(end - 1), style, text: stopText(lane), faded: isFaded(lane.id) });
    }
    return (ctx) => {
      const a = plot.area;
      const glyphs = [], labels = [];
      for (const m of marks) {
        const X = plot.px(m.x);
        if (!Number.isFinite(X)) continue;
        ctx.globalAlpha = m.faded ? 0.35 : 1;
        ctx.fillStyle = m.style.colour;
        ctx.strokeStyle = m.style.colour;
        let Y, rows;
        if (m.kind === 'off') {
          Y = m.up ? a.y + 1 : a.y + a.h - 1;
          ctx.beginPath();
          const d = m.up ? 1 : -1;  // a triangle pointing out of the plot
          ctx.moveTo(X, Y); ctx.lineTo(X - 5, Y + 8 * d); ctx.lineTo(X + 5, Y + 8 * d); ctx.closePath();
          ctx.fill();
          glyphs.push([X - 5, Math.min(Y, Y + 8 * d), X + 5, Math.max(Y, Y + 8 * d)]);
          Y += 15 * d;
          rows = rowsAround(d);  // away from the edge
        } else {
          Y = plot.pyEdge(m.y);
          if (!Number.isFinite(Y)) continue;
          ctx.lineWidth = 2;
          ctx.beginPath();
          ctx.moveTo(X - 5, Y - 5); ctx.lineTo(X + 5, Y + 5);
          ctx.moveTo(X + 5, Y - 5); ctx.lineTo(X - 5, Y + 5);
          ctx.stroke();
          glyphs.push([X - 6, Y - 6, X + 6, Y + 6]);
          rows = rowsAround(0);
        }
        const same = labels.find((b) => b.kind === m.kind && b.text === m.text && Math.abs(b.x - X) <= 3 && (m.kind === 'off' ? b.up === m.up : Math.abs(b.y - Y) <= 3));
        if (same) { same.colours.add(m.style.colour); same.faded = same.faded && m.faded; continue; }
        labels.push({ kind: m.kind, up: m.up, text: m.text, x: X, y: Y, rows, width: ctx.measureText(m.text).width,
          colours: new Set([m.style.colour]), faded: m.faded });
      }
      labels.sort((p, q) => (p.kind === q.kind ? 0 : p.kind === 'stop' ? -1 : 1));
      const placed = placeLabels(labels, a, glyphs);
      ctx.textBaseline = 'middle';
      for (const label of placed) {
        ctx.globalAlpha = label.faded ? 0.35 : 1;
        ctx.fillStyle = label.colours.size === 1 ? [...label.colours][0] : run.theme.fg;
        ctx.textAlign = label.align;
        ctx.fillText(label.text, label.x, label.y);
      }
      ctx.globalAlpha = 1;
    };
  }

  // A drift series (energy, angular momentum) of every lane shown against time, in % of its
  // scale: linear, its range set by the lanes not running away (a lane that is, is drawn to the
  // edge and marked "off scale"); or the size of the change on a log scale.
  // Values below the round-off floor are 0.
  driftSpec(run, plot, name, what, log) {
    const { layout, h, snapshot, ends, theme, t } = run;
    const floor = 100 * roundoffFloor(snapshot.physicsSteps);
    const pct = snapshot.lanes.map((lane, l) => {
      const s = layout.series(h, name, l);
      return (i) => { const v = 100 * s(i); return Math.abs(v) < floor ? 0 : v; };
    });
    // Each lane's extent; which lanes set the range (and how far the others run away).
    let lo = 0, hi = 0, smallest = Infinity, largest = 0, awayLo = 0, awayHi = 0;
    for (const lane of run.shown) {
      const l = lane.index;
      let laneLo = 0, laneHi = 0, laneSmall = Infinity, early = 0;
      const half = Math.floor(ends[l] / 2);
      for (let i = 0; i < ends[l]; ++i) {
        const v = pct[l](i);
        if (!Number.isFinite(v)) continue;
        if (v < laneLo) laneLo = v;
        if (v > laneHi) laneHi = v;
        if (v !== 0 && Math.abs(v) < laneSmall) laneSmall = Math.abs(v);
        if (i < half) early = Math.max(early, Math.abs(v));
      }
      const size = Math.max(-laneLo, laneHi);
      if (!log && (lane.diverged || (size > offScalePercent && size > runawayGrowth * early))) {
        awayLo = Math.min(awayLo, laneLo); awayHi = Math.max(awayHi, laneHi);
        continue;
      }
      lo = Math.min(lo, laneLo); hi = Math.max(hi, laneHi);
      smallest = Math.min(smallest, laneSmall); largest = Math.max(largest, size);
    }
    let yr, yTicks, value, yName, beyond = null;
    if (!log) {
      const m = Math.max(-lo, hi);
      if (!(m > 0)) {
        yr = [-1, 1];  // no change beyond round-off yet
      } else {
        const top = niceCeil(m * 1.2);
        yr = [-lo > 0.05 * m ? -niceCeil(-lo * 1.2) : -0.1 * top, hi > 0.05 * m ? niceCeil(hi * 1.2) : 0.1 * top];
      }
      yr = holdRange(plot, `${name} linear`, yr, lo, hi);
      yTicks = linearTicks(yr, 4);
      value = (l) => pct[l];
      yName = `${t_(what)} (%)`;
      // A lane running away beyond that range: the axis goes on past it in decades (a symmetric
      // log axis, linear where the others are), so the method that explodes stays in view beside
      // the ones that keep their energy, with no box to tick.
      if (awayHi > yr[1] || awayLo < yr[0]) {
        const axis = beyondAxis(yr, awayLo, awayHi);
        yr = holdRange(plot, `${name} beyond ${axis.key}`, axis.yr, axis.yr[0], axis.yr[1]);
        yTicks = [...yTicks, ...axis.ticks];
        value = (l) => { const f = pct[l]; return (i) => axis.y(f(i)); };
        yName = `${t_(what)} (%)`;
        beyond = axis;
      }
    } else {
      const a = largest > 0 ? Math.max(Math.floor(Math.log10(smallest)), Math.floor(Math.log10(floor))) : -4;
      const b = largest > 0 ? Math.max(Math.ceil(Math.log10(largest)), a + 1) : 0;
      yr = [a, b];
      yTicks = logTicks(a, b, true);
      value = (l) => (i) => { const v = Math.abs(pct[l](i)); return Number.isFinite(v) ? Math.log10(Math.max(v, Math.pow(10, a))) : NaN; };
      yName = t_('|{what}| (%), log', { what: t_(what) });
    }
    // Lanes beyond the range: where they first leave it, and on which side.
    const offScale = new Map();
    for (const lane of run.shown) {
      const l = lane.index, y = value(l);
      for (let i = 0; i < ends[l]; ++i) {
        const v = y(i);
        if (v > yr[1] || v < yr[0]) { offScale.set(lane.id, { i, up: v > yr[1] }); break; }
      }
    }
    const spec = {
      theme, xr: run.xr, yr, xTicks: run.xTicks, yTicks, xName: t_('t (s)'), yName,
      lines: this.laneLines(run, value),
      report: { offScale: [...offScale.keys()], scale: log ? 'log' : beyond ? 'linear, then decades' : 'linear', floorPercent: floor,
        linearTo: beyond ? beyond.linear : null },

      readout: (i) => run.shown.map((lane) => ({
        colour: laneStyle(lane.id, theme.scheme).colour, name: this.names[lane.index],
        text: i < ends[lane.index] ? `${signed(pct[lane.index](i))} %` : t_('stopped'),
      })),
      cursorPoints: (i) => run.shown.filter((lane) => i < ends[lane.index])
        .map((lane) => ({ x: t(i), y: value(lane.index)(i), colour: laneStyle(lane.id, theme.scheme).colour })),
    };
    const marks = this.laneMarks(plot, run, value, offScale);
    // Where the axis turns from linear to decades: a dashed line across the plot, under the marks.
    spec.marks = beyond ? (ctx) => { beyond.drawTurns(ctx, plot, theme); marks(ctx); } : marks;
    return spec;
  }

  // Position error on a log scale. Errors below the round-off floor (a 1e-12 fraction of the
  // motion's size) sit on the bottom line, labelled "≤".
  errorSpec(run, plot) {
    const { layout, h, theme, ends, count, sim } = run;
    const error = run.snapshot.lanes.map((lane, l) => layout.series(h, 'max_error', l));
    const unit = layout.unit('max_error');
    let size = 0;
    for (let b = 0; b < sim.bodies; ++b) {
      for (const i of [0, count - 1]) {
        size = Math.max(size, Math.abs(layout.get(h, 'reference_x', 0, b, i)), Math.abs(layout.get(h, 'reference_y', 0, b, i)));
      }
    }
    const floor = errorRoundoff * (Number.isFinite(size) && size > 0 ? size : 1);
    let lo = Infinity, hi = -Infinity;
    for (const lane of run.shown) {
      for (let i = 0; i < ends[lane.index]; ++i) {
        const e = error[lane.index](i);
        if (e > floor && Number.isFinite(e)) { const v = Math.log10(e); lo = Math.min(lo, v); hi = Math.max(hi, v); }
      }
    }
    const floorDecade = Math.floor(Math.log10(floor));
    // No error above round-off yet: six decades below the motion's size (no ticks at round-off).
    const sizeDecade = Math.ceil(Math.log10(floor / errorRoundoff));
    if (!Number.isFinite(lo)) { lo = sizeDecade - 6; hi = sizeDecade; }
    lo = Math.max(Math.floor(lo), floorDecade);
    hi = Math.max(Math.ceil(hi), lo + 2);
    const value = (l) => (i) => Math.log10(Math.max(error[l](i), Math.pow(10, lo)));
    const offScale = new Map();
    const spec = {
      theme, xr: run.xr, yr: [lo, hi], xTicks: run.xTicks, yTicks: logTicks(lo, hi, lo === floorDecade), xName: t_('t (s)'),
      yName: t_('position error ({unit}), log', { unit }), lines: this.laneLines(run, value), report: { floor },
      readout: (i) => run.shown.map((lane) => {
        const e = error[lane.index](i);
        return {
          colour: laneStyle(lane.id, theme.scheme).colour, name: this.names[lane.index],
          text: i < ends[lane.index] ? `${e < floor ? '0' : formatValue(e)} ${unit}` : t_('stopped'),
        };
      }),
      cursorPoints: (i) => run.shown.filter((lane) => i < ends[lane.index])
        .map((lane) => ({ x: run.t(i), y: value(lane.index)(i), colour: laneStyle(lane.id, theme.scheme).colour })),
    };
    spec.marks = this.laneMarks(plot, run, value, offScale);
    return spec;
  }

  // The scene's phase pair (phase_q against phase_p: "distance r" against "dr/dt", "y" against
  // "vy", ...), the reference dashed; axis titles are the core's labels and units.
  phaseSpec(run, plot) {
    const { layout, h, theme, ends, count, snapshot } = run;
    const refQ = layout.series(h, 'reference_phase_q'), refP = layout.series(h, 'reference_phase_p');
    const q = snapshot.lanes.map((lane, l) => layout.series(h, 'phase_q', l));
    const v = snapshot.lanes.map((lane, l) => layout.series(h, 'phase_p', l));
    // The range of the reference, widened by the lanes up to twice its size on each side. A
    // reference that stays (nearly) still on this axis (dr/dt on a circle) has no size of its
    // own: then the running lanes' largest value sets it. Rounded out to whole ticks, so it holds.
    const range = (ref, lanes, axis) => {
      let lo = Infinity, hi = -Infinity;
      for (let i = 0; i < count; ++i) {
        const x = ref(i);
        if (Number.isFinite(x)) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
      }
      if (!Number.isFinite(lo)) { lo = 0; hi = 0; }
      let size = Math.max(hi - lo, Math.abs(hi), Math.abs(lo));
      let running = 0;
      for (const lane of run.shown) {
        if (lane.diverged) continue;
        for (let i = 0; i < ends[lane.index]; ++i) { const x = Math.abs(lanes[lane.index](i)); if (Number.isFinite(x)) running = Math.max(running, x); }
      }
      if (size < 1e-6 * running) size = running;
      size = Math.max(size, 1e-9);
      const limit = [lo - 2 * size, hi + 2 * size];
      for (const lane of run.shown) {
        for (let i = 0; i < ends[lane.index]; ++i) {
          const x = lanes[lane.index](i);
          if (Number.isFinite(x)) { lo = Math.min(lo, Math.max(x, limit[0])); hi = Math.max(hi, Math.min(x, limit[1])); }
        }
      }
      // At least a thousandth of the magnitude: at t = 0 the curve is a point (x0 = 1000 would
      // otherwise get a 2e-9 wide axis whose ticks all read 1000.000000).
      // A point with no spread yet (t = 0) gets ±10 % of its size, or ±1 at zero: no ticks 1e-9 apart.
      const magnitude = Math.max(Math.abs(lo), Math.abs(hi));
      const spread = hi - lo > 1e-9 * magnitude ? hi - lo : 0;
      const pad = spread > 0 ? Math.max(spread * 0.06, 1e-3 * magnitude) : magnitude > 0 ? 0.1 * magnitude : 1;
      const step = niceStep(hi - lo + 2 * pad, 4);
      const room = spread > 0 ? 1.5 * pad : pad;  // room to grow once it moves
      return holdRange(axis, 'phase', [Math.floor((lo - room) / step) * step, Math.ceil((hi + room) / step) * step], lo, hi);
    };
    this.phaseAxes = this.phaseAxes || [{}, {}];
    let xr = range(refQ, q, this.phaseAxes[0]), yr = range(refP, v, this.phaseAxes[1]);
    if (this.phaseOverlay) [xr, yr] = this.phaseOverlay.fit(xr, yr);
    const lines = [{ key: 'reference', count, x: refQ, y: refP, style: { colour: theme.ghost, dash: [4, 4] } }];
    for (const lane of run.shown) {
      lines.push({
        key: lane.id, lane: lane.id, count: ends[lane.index], x: q[lane.index], y: v[lane.index],
        style: laneStyle(lane.id, theme.scheme), faded: isFaded(lane.id),
      });
    }
    const units = [layout.unit('phase_q'), layout.unit('phase_p')].map((u) => (u ? ` ${u}` : ''));
    return {
      theme, xr, yr, xTicks: linearTicks(xr, 4), yTicks: linearTicks(yr, 4),
      xName: layout.title('phase_q'), yName: layout.title('phase_p'), lines,
      points: run.shown.map((lane) => ({ count: ends[lane.index], x: q[lane.index], y: v[lane.index] })),
      report: {},
      after: this.phaseOverlay ? (ctx) => this.phaseOverlay.draw(ctx, plot, theme) : null,
      // Each running lane's current point, as its marker.
      marks: (ctx) => {
        for (const lane of run.shown) {
          const l = lane.index, n = ends[l];
          if (lane.diverged || n === 0) continue;
          const X = plot.px(q[l](n - 1)), Y = plot.py(v[l](n - 1));
          if (!Number.isFinite(X) || !Number.isFinite(Y)) continue;
          const style = laneStyle(lane.id, theme.scheme);
          ctx.globalAlpha = isFaded(lane.id) ? 0.3 : 1;
          ctx.fillStyle = style.colour;
          drawMarker(ctx, style.marker, X, Y, 4);
          ctx.fill();
        }
        ctx.globalAlpha = 1;
      },
      readout: (i) => run.shown.map((lane) => ({
        colour: laneStyle(lane.id, theme.scheme).colour, name: this.names[lane.index],
        text: i < ends[lane.index]
          ? `${signed(q[lane.index](i))}${units[0]}, ${signed(v[lane.index](i))}${units[1]}` : t_('stopped'),
      })),
      cursorPoints: (i) => run.shown.filter((lane) => i < ends[lane.index])
        .map((lane) => ({ x: q[lane.index](i), y: v[lane.index](i), colour: laneStyle(lane.id, theme.scheme).colour })),
    };
  }
}
