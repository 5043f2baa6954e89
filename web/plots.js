// The live plots beside the canvas, drawn from the history the core records and read by name
// through its layout (layout.js): relative energy drift against time (symmetric log scale, so a
// slow 1e-6 drift and an exploding 1e3 both read), position error against the exact or reference
// solution (log scale), phase space (the scene's own pair of coordinates, named by the core), and
// angular momentum drift where the system conserves it, and the phase-space clouds' area ratio
// where there are clouds. Colours, dashes and markers match the legend.
import { ClippedPath, niceStep, tickLabel } from './coords.js';
import { laneStyle, drawMarker } from './palette.js';
import { stopText } from './legend.js';

const margin = { left: 62, right: 10, top: 8, bottom: 30 };
const errorFloor = 1e-16;

// Symmetric log: linear within ±linearBelow of zero, logarithmic beyond. linearBelow follows the
// data (three decades below the largest value), so both a 1e-9 and a 1e3 drift fill the plot.
const symlog = (linearBelow) => (d) => Math.sign(d) * Math.log10(1 + Math.abs(d) / linearBelow);

export class Plot {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
  }

  begin(theme) {
    const ratio = window.devicePixelRatio || 1;
    const rect = this.canvas.getBoundingClientRect();
    const w = Math.max(1, Math.round(rect.width * ratio)), h = Math.max(1, Math.round(rect.height * ratio));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    const ctx = this.ctx;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = theme.bg;
    ctx.fillRect(0, 0, rect.width, rect.height);
    ctx.font = `11px ${theme.font}`;
    this.area = {
      x: margin.left, y: margin.top,
      w: Math.max(10, rect.width - margin.left - margin.right),
      h: Math.max(10, rect.height - margin.top - margin.bottom),
    };
    return ctx;
  }

  // Axes, grid and labels for x in [x0, x1] and y in [y0, y1]; yTicks: [{value, label}].
  axes(theme, xr, yr, xTicks, yTicks, xName, yName) {
    const ctx = this.ctx, a = this.area;
    this.xr = xr;
    this.yr = yr;
    ctx.strokeStyle = theme.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const t of xTicks) { const x = Math.round(this.px(t.value)) + 0.5; ctx.moveTo(x, a.y); ctx.lineTo(x, a.y + a.h); }
    for (const t of yTicks) { const y = Math.round(this.py(t.value)) + 0.5; ctx.moveTo(a.x, y); ctx.lineTo(a.x + a.w, y); }
    ctx.stroke();
    ctx.strokeStyle = theme.muted;
    ctx.strokeRect(a.x + 0.5, a.y + 0.5, a.w - 1, a.h - 1);
    ctx.fillStyle = theme.muted;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    let last = -Infinity;
    for (const t of xTicks) {
      const x = this.px(t.value);
      if (x - last < 36) continue;
      ctx.fillText(t.label, x, a.y + a.h + 3);
      last = x;
    }
    ctx.fillText(xName, a.x + a.w / 2, a.y + a.h + 16);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    last = Infinity;
    for (const t of [...yTicks].sort((a, b) => a.value - b.value)) {
      const y = this.py(t.value);
      if (last - y < 14) continue;
      ctx.fillText(t.label, a.x - 4, y);
      last = y;
    }
    ctx.save();
    ctx.translate(11, a.y + a.h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(yName, 0, 0);
    ctx.restore();
  }

  px(x) { return this.area.x + ((x - this.xr[0]) / (this.xr[1] - this.xr[0] || 1)) * this.area.w; }
  py(y) {
    const v = this.area.y + this.area.h - ((y - this.yr[0]) / (this.yr[1] - this.yr[0] || 1)) * this.area.h;
    return Math.min(Math.max(v, this.area.y - 2), this.area.y + this.area.h + 2);
  }

  clip(fn) {
    const ctx = this.ctx, a = this.area;
    ctx.save();
    ctx.beginPath();
    ctx.rect(a.x, a.y, a.w, a.h);
    ctx.clip();
    fn(ctx);
    ctx.restore();
  }

  // One lane's line through (x(i), y(i)) for samples i < count, skipping non-finite points.
  line(count, x, y, style) {
    const ctx = this.ctx;
    ctx.strokeStyle = style.colour;
    ctx.setLineDash(style.dash);
    ctx.lineWidth = 1.75;
    // Cut to the plot area: a diverging lane's far-off points would be dashed at full length.
    const path = new ClippedPath(ctx, this.area);
    // About one point per pixel column is all a line can show: skip the rest (keep the last).
    const stride = Math.max(1, Math.floor(count / this.area.w));
    for (let j = 0; j < count; j += stride) {
      const i = j + stride >= count ? count - 1 : j;
      path.point(this.px(x(i)), this.py(y(i)));
    }
    ctx.stroke();
    ctx.setLineDash([]);
  }
}

function timeTicks(t1) {
  const step = niceStep(t1, 5);
  const ticks = [];
  for (let t = 0; t <= t1 + step * 1e-9; t += step) ticks.push({ value: t, label: tickLabel(t, step) });
  return ticks;
}

// How many history samples of lane l to draw: up to its stop, if any.
function samplesBefore(sim, lane, count) {
  if (!lane.diverged) return count;
  const t = sim.layout.history.series(sim.history, 't');
  let n = 0;
  while (n < count && t(n) < lane.divergedAt) ++n;
  return n;
}

export class Plots {
  // The four plot canvases; each sits in a <figure> whose caption's .hint the scene may fill.
  constructor({ energy, error, phase, angular, area }) {
    this.energy = new Plot(energy);
    this.error = new Plot(error);
    this.phase = new Plot(phase);
    this.angular = angular ? new Plot(angular) : null;
    this.area = area ? new Plot(area) : null;
    this.showAngular = false;
    this.showArea = false;
    // Drawn over the phase plot (the stage X-ray, web/xray.js): {fit(xr, yr) -> [xr, yr] (the
    // ranges widened to its points), draw(ctx, plot, theme)}, or null.
    this.phaseOverlay = null;
  }

  // A new simulation: the phase plot's caption from the scene, and the angular momentum plot
  // shown only where the core records it (systems that conserve angular momentum).
  configure(sim) {
    const phaseHint = this.phase.canvas.closest('figure')?.querySelector('figcaption .hint');
    if (phaseHint) phaseHint.textContent = `${sim.scene.phase.text}; dashed: exact or reference`;
    this.showAngular = Boolean(this.angular) && sim.layout.history.has('angular_momentum_drift');
    const figure = this.angular?.canvas.closest('figure');
    if (figure) figure.hidden = !this.showAngular;
    // The area ratio only where the history records it (the config asks for clouds).
    this.showArea = Boolean(this.area) && sim.layout.history.has('area_ratio');
    const areaFigure = this.area?.canvas.closest('figure');
    if (areaFigure) areaFigure.hidden = !this.showArea;
    const layout = sim.layout.history;
    this.energy.caption = 'Energy drift (relative, symmetric log scale)';
    this.error.caption = `Position error (${layout.unit('max_error')}, log scale)`;
    this.phase.caption = `Phase space: ${layout.title('phase_q')} against ${layout.title('phase_p')}`;
    if (this.angular) this.angular.caption = 'Angular momentum drift (relative, symmetric log scale)';
    if (this.area) this.area.caption = 'Area ratio of each phase-space cloud (area ÷ initial area)';
  }

  // The plots as [{canvas, caption}] in page order, the hidden one left out (for the PNG).
  visible() {
    const list = [this.energy, this.error, this.phase];
    if (this.showArea) list.push(this.area);
    if (this.showAngular) list.push(this.angular);
    return list.map((p) => ({ canvas: p.canvas, caption: p.caption }));
  }

  draw(sim, snapshot, theme) {
    const count = sim.historyCount;
    if (count === 0) return;
    const ends = snapshot.lanes.map((lane) => samplesBefore(sim, lane, count));
    const t1 = Math.max(snapshot.t, sim.dt);
    this.drawDrift(this.energy, 'energy_drift', 'relative drift', sim, snapshot, ends, t1, theme);
    this.drawError(sim, snapshot, ends, t1, theme);
    this.drawPhase(sim, snapshot, ends, theme);
    if (this.showAngular) this.drawDrift(this.angular, 'angular_momentum_drift', 'relative drift', sim, snapshot, ends, t1, theme);
    if (this.showArea) this.drawArea(sim, snapshot, t1, theme);
  }

  // Each cloud's area over its area at t = 0 against time, the exact flow's dashed: linear while
  // every ratio stays within ×10 and ÷10 of 1, else a log scale. A ratio that is not finite (the
  // rim ran away) breaks the line. The clouds are stepped on their own, so a lane's line goes on
  // while its ratio is finite, even after the lane's own body stopped.
  drawArea(sim, snapshot, t1, theme) {
    const p = this.area, layout = sim.layout.history, h = sim.history, count = sim.historyCount;
    const t = layout.series(h, 't');
    const ratio = snapshot.lanes.map((lane, l) => layout.series(h, 'area_ratio', l));
    const exact = layout.has('exact_area_ratio') ? layout.series(h, 'exact_area_ratio') : null;
    const all = exact ? [...ratio, exact] : ratio;
    p.begin(theme);
    // A signed ratio below zero (a rim folded over itself) rules the log scale out.
    let lo = Infinity, hi = -Infinity, negative = false;
    for (const r of all) {
      for (let i = 0; i < count; ++i) {
        const v = r(i);
        if (!Number.isFinite(v)) continue;
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
        negative = negative || v <= 0;
      }
    }
    if (!Number.isFinite(lo)) { lo = 1; hi = 1; }
    const log = !negative && (hi > 10 || lo < 0.1);
    let yr, yTicks, value;
    if (log) {
      const a = Math.floor(Math.log10(lo)), b = Math.max(Math.ceil(Math.log10(hi)), a + 1);
      yr = [a - (b - a) * 0.03, b + (b - a) * 0.03];
      const every = Math.max(1, Math.ceil((b - a) / 6));
      yTicks = [];
      for (let k = a; k <= b; k += every) yTicks.push({ value: k, label: Math.abs(k) <= 3 ? `${Math.pow(10, k)}` : `1e${k}` });
      value = (r) => (i) => { const v = r(i); return v > 0 ? Math.log10(v) : NaN; };
    } else {
      lo = Math.min(lo, 1);
      hi = Math.max(hi, 1);
      const pad = Math.max((hi - lo) * 0.08, 0.01);
      yr = [lo - pad, hi + pad];
      const step = niceStep(yr[1] - yr[0], 4);
      yTicks = [];
      for (let y = Math.ceil(yr[0] / step) * step; y <= yr[1]; y += step) yTicks.push({ value: y, label: tickLabel(y, step) });
      value = (r) => r;
    }
    p.axes(theme, [0, t1], yr, timeTicks(t1), yTicks, 't (s)', log ? 'area ratio, log' : 'area ratio');
    p.clip(() => {
      snapshot.lanes.forEach((lane, l) => p.line(count, t, value(ratio[l]), laneStyle(lane.id, theme.scheme)));
      // On top, dashed: a lane on the exact ratio shows through the gaps.
      if (exact) p.line(count, t, value(exact), { colour: theme.ghost, dash: [4, 4] });
    });
    this.logArea = log;
  }

  // Marks a stopped lane at the end of its line: a cross and "diverged at t = … s" (or "fell
  // into the central mass at t = … s").
  divergence(plot, lane, style, x, y, row) {
    const ctx = plot.ctx;
    const X = plot.px(x), Y = plot.py(y);
    if (!Number.isFinite(X) || !Number.isFinite(Y)) return;
    ctx.strokeStyle = style.colour;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(X - 5, Y - 5); ctx.lineTo(X + 5, Y + 5);
    ctx.moveTo(X + 5, Y - 5); ctx.lineTo(X - 5, Y + 5);
    ctx.stroke();
    ctx.fillStyle = style.colour;
    ctx.textBaseline = 'middle';
    const a = plot.area, text = stopText(lane), width = ctx.measureText(text).width;
    // After the cross if it fits, else before it, else as far left as the plot goes.
    const after = X + 8 + width <= a.x + a.w - 2;
    const before = X - 8 - width >= a.x + 2;
    ctx.textAlign = after || !before ? 'left' : 'right';
    const tx = after ? X + 8 : before ? X - 8 : Math.max(a.x + 2, Math.min(X + 8, a.x + a.w - 2 - width));
    const ty = Math.min(Math.max(Y + 12 * (row % 3 - 1) + 10, a.y + 8), a.y + a.h - 8);
    ctx.fillText(text, tx, ty);
  }

  // Each stopped lane's mark at the last sample it drew.
  stopMarks(plot, sim, snapshot, ends, value, theme) {
    const t = sim.layout.history.series(sim.history, 't');
    snapshot.lanes.forEach((lane, l) => {
      if (!lane.diverged || ends[l] === 0) return;
      const i = ends[l] - 1;
      this.divergence(plot, lane, laneStyle(lane.id, theme.scheme), t(i), value(l)(i), l);
    });
  }

  // A drift series (energy, angular momentum) of every lane against time, on a symmetric log scale.
  drawDrift(p, name, yName, sim, snapshot, ends, t1, theme) {
    const layout = sim.layout.history, h = sim.history;
    const t = layout.series(h, 't');
    const drift = snapshot.lanes.map((lane, l) => layout.series(h, name, l));
    p.begin(theme);
    // The scale follows the lanes still running: a diverged lane's 1e13 would flatten the rest.
    // Its line leaves the plot at the edge, where its "diverged at" mark sits.
    let largest = 0;
    const running = snapshot.lanes.some((lane) => !lane.diverged);
    snapshot.lanes.forEach((lane, l) => {
      if (running && lane.diverged) return;
      for (let i = 0; i < ends[l]; ++i) {
        const v = Math.abs(drift[l](i));
        if (Number.isFinite(v)) largest = Math.max(largest, v);
      }
    });
    const decade = Math.ceil(Math.log10(Math.max(largest, 1e-15)));
    const scale = symlog(Math.pow(10, decade - 3));
    const top = scale(Math.pow(10, decade)) * 1.02;
    const yTicks = [{ value: 0, label: '0' }];
    for (let k = decade - 2; k <= decade; ++k) {
      const s = scale(Math.pow(10, k));
      yTicks.push({ value: s, label: `+1e${k}` }, { value: -s, label: `−1e${k}` });
    }
    p.axes(theme, [0, t1], [-top, top], timeTicks(t1), yTicks, 't (s)', yName);
    const value = (l) => (i) => scale(drift[l](i));
    p.clip(() => {
      snapshot.lanes.forEach((lane, l) => p.line(ends[l], t, value(l), laneStyle(lane.id, theme.scheme)));
    });
    this.stopMarks(p, sim, snapshot, ends, value, theme);
  }

  drawError(sim, snapshot, ends, t1, theme) {
    const p = this.error, layout = sim.layout.history, h = sim.history;
    const t = layout.series(h, 't');
    const error = snapshot.lanes.map((lane, l) => layout.series(h, 'max_error', l));
    p.begin(theme);
    let lo = Infinity, hi = -Infinity;
    snapshot.lanes.forEach((lane, l) => {
      for (let i = 0; i < ends[l]; ++i) {
        const e = error[l](i);
        if (e > 0 && Number.isFinite(e)) {
          const v = Math.log10(Math.max(e, errorFloor));
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
    });
    // An error of exactly 0 after the start (a method exact for this system) has no logarithm:
    // it is drawn on the bottom line, which then sits at round-off level and reads "≤1e-16".
    let exactZero = false;
    snapshot.lanes.forEach((lane, l) => {
      for (let i = 1; i < ends[l] && !exactZero; ++i) exactZero = error[l](i) === 0;
    });
    if (!Number.isFinite(lo)) { lo = -16; hi = -14; }
    lo = Math.floor(exactZero ? Math.log10(errorFloor) : lo);
    hi = Math.max(Math.ceil(hi), lo + 2);
    const yTicks = [];
    const every = Math.max(1, Math.ceil((hi - lo) / 6));
    // The bottom line also carries every smaller error (and every error at t = 0): "≤".
    for (let k = lo; k <= hi; k += every) yTicks.push({ value: k, label: k === lo ? `≤1e${k}` : `1e${k}` });
    p.axes(theme, [0, t1], [lo, hi], timeTicks(t1), yTicks, 't (s)', `position error (${layout.unit('max_error')}), log`);
    const value = (l) => (i) => Math.log10(Math.max(error[l](i), Math.pow(10, lo)));
    p.clip(() => {
      snapshot.lanes.forEach((lane, l) => p.line(ends[l], t, value(l), laneStyle(lane.id, theme.scheme)));
    });
    this.stopMarks(p, sim, snapshot, ends, value, theme);
  }

  // The scene's phase pair (phase_q against phase_p: "distance r" against "dr/dt", "y" against
  // "vy", ...), the reference dashed; axis titles are the core's labels and units.
  drawPhase(sim, snapshot, ends, theme) {
    const p = this.phase, layout = sim.layout.history, h = sim.history, count = sim.historyCount;
    p.begin(theme);
    const refQ = layout.series(h, 'reference_phase_q'), refP = layout.series(h, 'reference_phase_p');
    const q = snapshot.lanes.map((lane, l) => layout.series(h, 'phase_q', l));
    const v = snapshot.lanes.map((lane, l) => layout.series(h, 'phase_p', l));
    // The range of the reference, widened by the lanes up to twice its size on each side. A
    // reference that stays (nearly) still on this axis (dr/dt on a circle) has no size of its
    // own: then the running lanes' largest value sets it.
    const range = (ref, lanes) => {
      let lo = Infinity, hi = -Infinity;
      for (let i = 0; i < count; ++i) {
        const x = ref(i);
        if (Number.isFinite(x)) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
      }
      if (!Number.isFinite(lo)) { lo = 0; hi = 0; }
      let size = Math.max(hi - lo, Math.abs(hi), Math.abs(lo));
      let running = 0;
      snapshot.lanes.forEach((lane, l) => {
        if (lane.diverged) return;
        for (let i = 0; i < ends[l]; ++i) { const x = Math.abs(lanes[l](i)); if (Number.isFinite(x)) running = Math.max(running, x); }
      });
      if (size < 1e-6 * running) size = running;
      size = Math.max(size, 1e-9);
      const limit = [lo - 2 * size, hi + 2 * size];
      snapshot.lanes.forEach((lane, l) => {
        for (let i = 0; i < ends[l]; ++i) {
          const x = lanes[l](i);
          if (Number.isFinite(x)) { lo = Math.min(lo, Math.max(x, limit[0])); hi = Math.max(hi, Math.min(x, limit[1])); }
        }
      });
      // At least a thousandth of the magnitude: at t = 0 the curve is a point (x0 = 1000 would
      // otherwise get a 2e-9 wide axis whose ticks all read 1000.000000).
      const pad = Math.max((hi - lo) * 0.06, 1e-3 * Math.max(Math.abs(lo), Math.abs(hi)), 1e-9);
      return [lo - pad, hi + pad];
    };
    let xr = range(refQ, q), yr = range(refP, v);
    if (this.phaseOverlay) [xr, yr] = this.phaseOverlay.fit(xr, yr);
    const ticks = (r) => {
      const step = niceStep(r[1] - r[0], 4);
      const out = [];
      for (let x = Math.ceil(r[0] / step) * step; x <= r[1]; x += step) out.push({ value: x, label: tickLabel(x, step) });
      return out;
    };
    p.axes(theme, xr, yr, ticks(xr), ticks(yr), layout.title('phase_q'), layout.title('phase_p'));
    p.clip((ctx) => {
      p.line(count, refQ, refP, { colour: theme.ghost, dash: [4, 4] });
      snapshot.lanes.forEach((lane, l) => {
        const style = laneStyle(lane.id, theme.scheme);
        p.line(ends[l], q[l], v[l], style);
        const X = ends[l] > 0 ? p.px(q[l](ends[l] - 1)) : NaN, Y = ends[l] > 0 ? p.py(v[l](ends[l] - 1)) : NaN;
        if (!lane.diverged && Number.isFinite(X) && Number.isFinite(Y)) {
          ctx.fillStyle = style.colour;
          drawMarker(ctx, style.marker, X, Y, 4);
          ctx.fill();
        }
      });
      if (this.phaseOverlay) this.phaseOverlay.draw(ctx, p, theme);
    });
  }
}
