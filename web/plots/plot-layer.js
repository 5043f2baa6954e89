// One plot's canvases: the plot itself (axes and lines), drawn incrementally, and a transparent
// layer over it for what moves every redraw (the phase plot's current points, the stop and
// "off scale" marks) and the shared time cursor. The axes and grid are drawn once into an
// offscreen canvas per range; while the ranges, the lanes shown and the history's generation
// hold, a redraw only appends each line's new samples (the dash pattern carried on through
// lineDashOffset). Anything else draws the plot whole again.
import { ClippedPath } from '../motion/coords.js';
import { drawAxes, margin } from './plot-canvas.js';
import { MeasuredBox } from '../common/dom.js';
// A line point closer than this to the last point drawn (in CSS pixels, on both axes) adds nothing.
const minStepPx = 0.75;

export class PlotLayer {
  constructor(canvas) {
    this.canvas = canvas;
    this.box = new MeasuredBox(canvas);
    this.ctx = canvas.getContext('2d');
    // The frame holds the plot, the layer over it and the readout (web/plots/plot-readout.js).
    this.frame = document.createElement('div');
    this.frame.className = 'plot-frame';
    canvas.replaceWith(this.frame);
    this.overlay = document.createElement('canvas');
    this.overlay.className = 'plot-overlay';
    this.overlay.setAttribute('aria-hidden', 'true');
    this.frame.append(canvas, this.overlay);
    this.axesLayer = document.createElement('canvas');
    this.key = null;
    this.axesKey = null;
    this.drawn = [];
    this.spec = null;
    this.stats = { full: 0, appended: 0 };
    this.area = { x: margin.left, y: margin.top, w: 10, h: 10 };
    this.xr = [0, 1];
    this.yr = [0, 1];
  }

  // The canvases at the plot's size on the page (device pixels); the area inside the axes.
  size() {
    const ratio = window.devicePixelRatio || 1;
    const rect = this.box.size();  // measured only when it may have changed (MeasuredBox)
    const w = Math.max(1, Math.round(rect.width * ratio)), h = Math.max(1, Math.round(rect.height * ratio));
    for (const c of [this.canvas, this.overlay, this.axesLayer]) {
      if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
    }
    this.ratio = ratio;
    this.cssWidth = rect.width;
    this.cssHeight = rect.height;
    this.area = {
      x: margin.left, y: margin.top,
      w: Math.max(10, rect.width - margin.left - margin.right),
      h: Math.max(10, rect.height - margin.top - margin.bottom),
    };
    return `${w}x${h}@${ratio}`;
  }

  px(x) { return this.area.x + ((x - this.xr[0]) / (this.xr[1] - this.xr[0] || 1)) * this.area.w; }
  py(y) { return this.area.y + this.area.h - ((y - this.yr[0]) / (this.yr[1] - this.yr[0] || 1)) * this.area.h; }
  // py held to the plot area's edges (for marks of points beyond it).
  pyEdge(y) { return Math.min(Math.max(this.py(y), this.area.y), this.area.y + this.area.h); }
  // The data x at a CSS pixel column.
  xAt(px) { return this.xr[0] + ((px - this.area.x) / this.area.w) * (this.xr[1] - this.xr[0]); }

  // Draws spec: {xr, yr, xTicks, yTicks, xName, yName, lines: [{key, count, x(i), y(i), style,
  // faded}], marks(ctx) (the layer's marks), …}. generation: the history's (a rewrite draws whole).
  // budgetPx: the length of line (CSS pixels) this call strokes at most; the rest at the next
  // calls (this.complete says when every line is drawn). The canvas rasterises what is stroked in
  // the frame's commit: fifteen lanes of a chaotic motion drawn whole again were 30–50 ms of it.
  render(theme, spec, generation, forceFull = false, budgetPx = Infinity) {
    const sizeKey = this.size();
    this.font = theme.font;
    const ticks = (list) => list.map((t) => `${t.value}:${t.label}`).join(',');
    const axesKey = [sizeKey, theme.scheme, spec.xr, spec.yr, ticks(spec.xTicks), ticks(spec.yTicks), spec.xName, spec.yName].join('|');
    const key = [axesKey, generation, spec.lines.map((l) => `${l.key}${l.faded ? '~' : ''}`).join(',')].join('|');
    this.xr = spec.xr;
    this.yr = spec.yr;
    this.spec = spec;
    const ctx = this.ctx;
    const full = forceFull || key !== this.key || spec.lines.some((l, k) => l.count < this.drawn[k].count);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (full) {
      if (axesKey !== this.axesKey) {
        this.axesKey = axesKey;
        this.drawAxes(theme, spec);
      }
      ctx.drawImage(this.axesLayer, 0, 0);
      this.key = key;
      this.drawn = spec.lines.map(() => ({ count: 0, x: NaN, y: NaN, length: 0 }));
      this.stats.full += 1;
    } else {
      this.stats.appended += 1;
    }
    ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    ctx.save();
    ctx.beginPath();
    ctx.rect(this.area.x, this.area.y, this.area.w, this.area.h);
    ctx.clip();
    // Faded lanes under the others: a highlighted lane stays on top.
    ctx.lineWidth = 1.75;
    this.budgetPx = budgetPx;
    for (const faded of [true, false]) {
      ctx.globalAlpha = faded ? 0.22 : 1;
      spec.lines.forEach((line, k) => { if (Boolean(line.faded) === faded) this.append(line, this.drawn[k]); });
    }
    ctx.globalAlpha = 1;
    if (spec.after) spec.after(ctx);
    ctx.restore();
    this.complete = spec.lines.every((line, k) => this.drawn[k].count >= line.count);
    this.drawOverlay();
    return full;
  }

  // Strokes samples drawn.count … line.count − 1 of one line, from the last point drawn, as far
  // as this.budgetPx allows (it stops before the sample that passes it, and goes on from there).
  append(line, drawn) {
    if (line.count <= drawn.count || !(this.budgetPx > 0)) return;
    const ctx = this.ctx;
    ctx.strokeStyle = line.style.colour;
    ctx.setLineDash(line.style.dash || []);
    ctx.lineDashOffset = drawn.length;
    if (line.style.width) ctx.lineWidth = line.style.width;
    // Cut to the plot area: a diverging lane's far-off points would be dashed at full length.
    const path = new ClippedPath(ctx, this.area);
    let lx = drawn.x, ly = drawn.y, length = drawn.length;
    if (Number.isFinite(lx)) path.point(lx, ly);
    const last = line.count - 1;
    // What a segment costs to stroke: its length inside the plot at most.
    const most = this.area.w + this.area.h;
    let next = line.count;
    for (let i = drawn.count; i <= last; ++i) {
      const X = this.px(line.x(i)), Y = this.py(line.y(i));
      if (!Number.isFinite(X) || !Number.isFinite(Y)) { path.lift(); lx = NaN; ly = NaN; continue; }
      if (i < last && Math.abs(X - lx) < minStepPx && Math.abs(Y - ly) < minStepPx) continue;
      if (Number.isFinite(lx)) {
        const d = Math.hypot(X - lx, Y - ly);
        if (this.budgetPx <= 0) { next = i; break; }
        this.budgetPx -= Math.min(d, most);
        // Far-off points (a diverging lane) add a bounded length: the dash phase only needs to be steady.
        length += Math.min(d, 1e4);
      }
      path.point(X, Y);
      lx = X; ly = Y;
    }
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.lineDashOffset = 0;
    ctx.lineWidth = 1.75;
    drawn.count = next; drawn.x = lx; drawn.y = ly; drawn.length = length;
  }

  drawAxes(theme, spec) {
    const ctx = this.axesLayer.getContext('2d');
    ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    ctx.fillStyle = theme.bg;
    ctx.fillRect(0, 0, this.cssWidth, this.cssHeight);
    ctx.font = `11px ${theme.font}`;
    this.xLabels = drawAxes(ctx, this, theme, spec);
  }

  // The layer over the plot: the spec's marks, then the cursor (cursor(ctx, plot), set by Plots).
  drawOverlay() {
    const ctx = this.overlay.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.overlay.width, this.overlay.height);
    if (!this.spec) return;
    ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    ctx.font = `11px ${this.font || 'sans-serif'}`;
    if (this.spec.marks) this.spec.marks(ctx);
    if (this.cursor) this.cursor(ctx, this);
  }

  // The plot with its marks (no cursor) in one canvas, for the PNG export.
  picture() {
    const out = document.createElement('canvas');
    out.width = this.canvas.width;
    out.height = this.canvas.height;
    const ctx = out.getContext('2d');
    ctx.drawImage(this.canvas, 0, 0);
    if (this.spec && this.spec.marks) {
      ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
      ctx.font = `11px ${this.font || 'sans-serif'}`;
      this.spec.marks(ctx);
    }
    return out;
  }
}
