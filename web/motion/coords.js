// The coordinate map from simulation units (metres, y up) to canvas pixels (y down), with the
// same scale on both axes, plus "nice" tick steps for axes and scale bars.
import { tickLabel } from '../common/text.js';

export class CoordinateMap {
  // box: {minX, maxX, minY, maxY} in metres; rect: {x, y, w, h} in pixels, the area drawn (its
  // grid and axes, visible()); fit: the part of rect the box is fitted and centred in (rect itself,
  // or less where something covers rect: the buttons over the canvas).
  constructor(box, rect, fit = rect) {
    const w = Math.max(box.maxX - box.minX, 1e-12);
    const h = Math.max(box.maxY - box.minY, 1e-12);
    this.scale = Math.min(fit.w / w, fit.h / h);  // pixels per metre
    const cx = (box.minX + box.maxX) / 2, cy = (box.minY + box.maxY) / 2;
    this.ox = fit.x + fit.w / 2 - cx * this.scale;
    this.oy = fit.y + fit.h / 2 + cy * this.scale;
    this.rect = rect;
    this.fit = fit;
  }
  px(x) { return this.ox + x * this.scale; }
  py(y) { return this.oy - y * this.scale; }
  // The world coordinates at the rectangle's edges.
  visible() {
    const r = this.rect;
    return {
      minX: (r.x - this.ox) / this.scale, maxX: (r.x + r.w - this.ox) / this.scale,
      minY: (this.oy - r.y - r.h) / this.scale, maxY: (this.oy - r.y) / this.scale,
    };
  }
}

// A step of 1, 2 or 5 × 10^k giving about `count` intervals over `span`: always positive and
// finite. A span too small for a tenth of it to be a number (5e-324 s: a run of one subnormal step,
// where 10^k underflowed to 0 and the time axis's loop never ended) or a step that would overflow
// gives the span itself (or 1 for a span that is not a positive finite number).
export function niceStep(span, count) {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(count, 1);
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const m = raw / power;
  const step = (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * power;
  return step > 0 && Number.isFinite(step) && span / step < 20 * Math.max(count, 1) ? step : span;
}

// The most lines or ticks an axis or a grid draws: every loop over multiples of a step stops here,
// whatever the step and the span (a step that does not advance a huge coordinate, a span of 1e308).
export const mostMultiples = 1000;

// The multiples k·step inside [lo, hi] (each end widened by slack·step), in order, as the ks: at
// most `most` of them, none when the step or an end is not finite or the step is not positive.
export function stepMultiples(lo, hi, step, slack = 0, most = mostMultiples) {
  if (!(step > 0) || !Number.isFinite(step) || !Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  const first = Math.ceil(lo / step - slack), last = Math.floor(hi / step + slack);
  const ks = [];
  if (!Number.isFinite(first) || !Number.isFinite(last)) return ks;
  // Counting n, not k: past 2^53 k + 1 is k again.
  for (let n = 0; n < most && first + n <= last; ++n) ks.push(first + n);
  return ks;
}

// An axis's ticks from lo to hi every `step`: [{value, label}], and the offset its labels are
// relative to. Plain labels where they read apart and fit(label) says they fit; otherwise (a view
// following a body 100 km down labelled 1.127e5 at every tick, the minus sign cut off by the
// margin) each label is value − offset for a round offset near the middle (−2, 0, 2 …), which
// the axis name states (offsetName).
export function axisTicks(lo, hi, step, fits = (label) => label.length <= 6) {
  const ks = stepMultiples(lo, hi, step);
  const plain = ks.map((k) => ({ value: k * step, label: tickLabel(k * step, step) }));
  if (new Set(plain.map((t) => t.label)).size === plain.length && plain.every((t) => fits(t.label))) {
    return { offset: 0, ticks: plain };
  }
  const offsetK = Math.round((lo + hi) / 2 / step / 10) * 10;  // a multiple of 10 steps
  return {
    offset: offsetK * step,
    ticks: ks.map((k) => ({ value: k * step, label: tickLabel((k - offsetK) * step, step) })),
  };
}

// A linear axis's ticks over the range r = [lo, hi], about `count` intervals of a nice step:
// [{value, label}], labels with a real minus sign and `unit` after them.
export function linearTicks(r, count, unit = '') {
  const step = niceStep(r[1] - r[0], count);
  return stepMultiples(r[0], r[1], step, 1e-9).map((k) => ({
    value: k * step, label: `${tickLabel(k * step, step).replaceAll('-', '−')}${unit}`,
  }));
}

// A polyline stroked through a rectangle (pixels, grown by `pad`), each segment cut to its part
// inside: the canvas dashes a dashed line along its whole length, visible or not, so one segment
// running far off the canvas (a body that fell 100 km between two frames: 4 million pixels) made
// every frame take 400 ms. What lies inside is drawn exactly as before; non-finite points break
// the line. Usage: begin(), point(x, y)…, then the caller strokes.
export class ClippedPath {
  constructor(ctx, rect, pad = 16) {
    this.ctx = ctx;
    this.x0 = rect.x - pad; this.x1 = rect.x + rect.w + pad;
    this.y0 = rect.y - pad; this.y1 = rect.y + rect.h + pad;
    this.begin();
  }

  begin() {
    this.ctx.beginPath();
    this.lastX = NaN; this.lastY = NaN;
    this.penAtLast = false;  // the path's current point is (lastX, lastY)
  }

  // Breaks the line: the next point starts a new piece.
  lift() { this.lastX = NaN; this.lastY = NaN; this.penAtLast = false; }

  point(x, y) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) { this.lift(); return; }
    const ax = this.lastX, ay = this.lastY;
    this.lastX = x; this.lastY = y;
    if (Number.isNaN(ax)) { this.penAtLast = false; return; }
    // Liang–Barsky: the segment a + s·(b − a), s in [enter, leave], inside the rectangle.
    const dx = x - ax, dy = y - ay;
    let enter = 0, leave = 1;
    const edges = [[-dx, ax - this.x0], [dx, this.x1 - ax], [-dy, ay - this.y0], [dy, this.y1 - ay]];
    for (const [p, q] of edges) {
      if (p === 0) {
        if (q < 0) { this.penAtLast = false; return; }  // parallel to this edge and outside it
        continue;
      }
      const s = q / p;
      if (p < 0) { if (s > enter) enter = s; } else if (s < leave) leave = s;
    }
    if (enter > leave) { this.penAtLast = false; return; }
    if (enter > 0 || !this.penAtLast) this.ctx.moveTo(ax + enter * dx, ay + enter * dy);
    this.ctx.lineTo(ax + leave * dx, ay + leave * dy);
    this.penAtLast = leave === 1;
  }
}
