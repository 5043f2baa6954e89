// The live plots beside the canvas, drawn from the history the core records: relative energy
// drift against time (symmetric log scale, so a slow 1e-6 drift and an exploding 1e3 both read),
// position error against the exact or reference solution (log scale), and phase space
// (position against velocity of the first body). Colours, dashes and markers match the legend.
import { niceStep, tickLabel, formatValue } from './coords.js';
import { laneStyle, drawMarker } from './palette.js';

const margin = { left: 62, right: 10, top: 8, bottom: 30 };
// Symmetric log: linear within ±linearBelow of zero, logarithmic beyond. linearBelow follows the
// data (three decades below the largest drift), so both a 1e-9 and a 1e3 drift fill the plot.
let linearBelow = 1e-6;
const symlog = (d) => Math.sign(d) * Math.log10(1 + Math.abs(d) / linearBelow);
const errorFloor = 1e-16;

class Plot {
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
    ctx.beginPath();
    let pen = false;
    // About one point per pixel column is all a line can show: skip the rest (keep the last).
    const stride = Math.max(1, Math.floor(count / this.area.w));
    for (let j = 0; j < count; j += stride) {
      const i = j + stride >= count ? count - 1 : j;
      const X = this.px(x(i)), Y = this.py(y(i));
      if (!Number.isFinite(X) || !Number.isFinite(Y)) { pen = false; continue; }
      if (pen) ctx.lineTo(X, Y); else ctx.moveTo(X, Y);
      pen = true;
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

// How many history samples of lane l to draw: up to its divergence, if any.
function samplesBefore(sim, lane, count) {
  if (!lane.diverged) return count;
  const h = sim.history, w = sim.width;
  let n = 0;
  while (n < count && h[n * w] < lane.divergedAt) ++n;
  return n;
}

export class Plots {
  constructor({ energy, error, phase }) {
    this.energy = new Plot(energy);
    this.error = new Plot(error);
    this.phase = new Plot(phase);
  }

  draw(sim, snapshot, theme) {
    const count = sim.historyCount;
    if (count === 0) return;
    const lanes = snapshot.lanes;
    const ends = lanes.map((lane) => samplesBefore(sim, lane, count));
    const t1 = Math.max(snapshot.t, sim.dt);
    this.drawEnergy(sim, snapshot, ends, t1, theme);
    this.drawError(sim, snapshot, ends, t1, theme);
    this.drawPhase(sim, snapshot, ends, theme);
  }

  // Marks a diverged lane at the end of its line: a cross and "diverged at t = … s".
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
    ctx.textAlign = X > plot.area.x + plot.area.w * 0.6 ? 'right' : 'left';
    ctx.textBaseline = 'middle';
    const ty = Math.min(Math.max(Y + 12 * (row % 3 - 1) + 10, plot.area.y + 8), plot.area.y + plot.area.h - 8);
    ctx.fillText(`diverged at t = ${formatValue(lane.divergedAt)} s`, X + (ctx.textAlign === 'left' ? 8 : -8), ty);
  }

  drawEnergy(sim, snapshot, ends, t1, theme) {
    const p = this.energy, h = sim.history, w = sim.width;
    const ctx = p.begin(theme);
    // The scale follows the lanes still running: a diverged lane's 1e13 would flatten the rest.
    // Its line leaves the plot at the edge, where its "diverged at" mark sits.
    let largest = 0;
    const running = snapshot.lanes.some((lane) => !lane.diverged);
    snapshot.lanes.forEach((lane, l) => {
      if (running && lane.diverged) return;
      for (let i = 0; i < ends[l]; ++i) {
        const v = Math.abs(h[i * w + 1 + l * 6]);
        if (Number.isFinite(v)) largest = Math.max(largest, v);
      }
    });
    const decade = Math.ceil(Math.log10(Math.max(largest, 1e-15)));
    linearBelow = Math.pow(10, decade - 3);
    const top = symlog(Math.pow(10, decade)) * 1.02;
    const yTicks = [{ value: 0, label: '0' }];
    for (let k = decade - 2; k <= decade; ++k) {
      const s = symlog(Math.pow(10, k));
      yTicks.push({ value: s, label: `+1e${k}` }, { value: -s, label: `−1e${k}` });
    }
    p.axes(theme, [0, t1], [-top, top], timeTicks(t1), yTicks, 't (s)', 'relative drift');
    p.clip(() => {
      snapshot.lanes.forEach((lane, l) => {
        const style = laneStyle(l, theme.scheme);
        p.line(ends[l], (i) => h[i * w], (i) => symlog(h[i * w + 1 + l * 6]), style);
      });
    });
    snapshot.lanes.forEach((lane, l) => {
      if (!lane.diverged || ends[l] === 0) return;
      const i = ends[l] - 1;
      this.divergence(p, lane, laneStyle(l, theme.scheme), h[i * w], symlog(h[i * w + 1 + l * 6]), l);
    });
    ctx.globalAlpha = 1;
  }

  drawError(sim, snapshot, ends, t1, theme) {
    const p = this.error, h = sim.history, w = sim.width;
    p.begin(theme);
    let lo = Infinity, hi = -Infinity;
    snapshot.lanes.forEach((lane, l) => {
      for (let i = 0; i < ends[l]; ++i) {
        const e = h[i * w + 2 + l * 6];
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
      for (let i = 1; i < ends[l] && !exactZero; ++i) exactZero = h[i * w + 2 + l * 6] === 0;
    });
    if (!Number.isFinite(lo)) { lo = -16; hi = -14; }
    lo = Math.floor(exactZero ? Math.log10(errorFloor) : lo);
    hi = Math.max(Math.ceil(hi), lo + 2);
    const yTicks = [];
    const every = Math.max(1, Math.ceil((hi - lo) / 6));
    // The bottom line also carries every smaller error (and every error at t = 0): "≤".
    for (let k = lo; k <= hi; k += every) yTicks.push({ value: k, label: k === lo ? `≤1e${k}` : `1e${k}` });
    p.axes(theme, [0, t1], [lo, hi], timeTicks(t1), yTicks, 't (s)', 'position error (m), log');
    const value = (i, l) => Math.log10(Math.max(h[i * w + 2 + l * 6], Math.pow(10, lo)));
    p.clip(() => {
      snapshot.lanes.forEach((lane, l) => {
        p.line(ends[l], (i) => h[i * w], (i) => value(i, l), laneStyle(l, theme.scheme));
      });
    });
    snapshot.lanes.forEach((lane, l) => {
      if (!lane.diverged || ends[l] === 0) return;
      const i = ends[l] - 1;
      this.divergence(p, lane, laneStyle(l, theme.scheme), h[i * w], value(i, l), l);
    });
  }

  drawPhase(sim, snapshot, ends, theme) {
    const p = this.phase, h = sim.history, w = sim.width, count = sim.historyCount;
    const ref = 1 + snapshot.lanes.length * 6;
    p.begin(theme);
    // Plot the component along which the reference moves most (x for a horizontal spring,
    // y for a projectile).
    let spanX = [Infinity, -Infinity], spanY = [Infinity, -Infinity];
    for (let i = 0; i < count; ++i) {
      const x = h[i * w + ref], y = h[i * w + ref + 1];
      spanX = [Math.min(spanX[0], x), Math.max(spanX[1], x)];
      spanY = [Math.min(spanY[0], y), Math.max(spanY[1], y)];
    }
    const axis = spanY[1] - spanY[0] > spanX[1] - spanX[0] ? 1 : 0;
    const name = axis ? 'y' : 'x';
    const pos = (i, base) => h[i * w + base + axis];
    const vel = (i, base) => h[i * w + base + 2 + axis];
    // The range of the reference, widened by the lanes up to twice its size on each side.
    const range = (get) => {
      let lo = Infinity, hi = -Infinity;
      for (let i = 0; i < count; ++i) { const v = get(i, ref); lo = Math.min(lo, v); hi = Math.max(hi, v); }
      const size = Math.max(hi - lo, Math.abs(hi), Math.abs(lo), 1e-9);
      const limit = [lo - 2 * size, hi + 2 * size];
      snapshot.lanes.forEach((lane, l) => {
        for (let i = 0; i < ends[l]; ++i) {
          const v = get(i, 1 + l * 6 + 2);
          if (Number.isFinite(v)) { lo = Math.min(lo, Math.max(v, limit[0])); hi = Math.max(hi, Math.min(v, limit[1])); }
        }
      });
      // At least a thousandth of the magnitude: at t = 0 the curve is a point (x0 = 1000 would
      // otherwise get a 2e-9 wide axis whose ticks all read 1000.000000).
      const pad = Math.max((hi - lo) * 0.06, 1e-3 * Math.max(Math.abs(lo), Math.abs(hi)), 1e-9);
      return [lo - pad, hi + pad];
    };
    const xr = range(pos), yr = range(vel);
    const ticks = (r) => {
      const step = niceStep(r[1] - r[0], 4);
      const out = [];
      for (let v = Math.ceil(r[0] / step) * step; v <= r[1]; v += step) out.push({ value: v, label: tickLabel(v, step) });
      return out;
    };
    p.axes(theme, xr, yr, ticks(xr), ticks(yr), `${name} (m)`, `v${name} (m/s)`);
    p.clip((ctx) => {
      p.line(count, (i) => pos(i, ref), (i) => vel(i, ref), { colour: theme.ghost, dash: [4, 4] });
      snapshot.lanes.forEach((lane, l) => {
        const style = laneStyle(l, theme.scheme);
        const base = 1 + l * 6 + 2;
        p.line(ends[l], (i) => pos(i, base), (i) => vel(i, base), style);
        if (ends[l] > 0 && !lane.diverged) {
          const i = ends[l] - 1;
          ctx.fillStyle = style.colour;
          drawMarker(ctx, style.marker, p.px(pos(i, base)), p.py(vel(i, base)), 4);
          ctx.fill();
        }
      });
    });
  }
}
