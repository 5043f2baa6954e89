// The coordinate map from simulation units (metres, y up) to canvas pixels (y down), with the
// same scale on both axes, plus "nice" tick steps for axes and scale bars.

export class CoordinateMap {
  // box: {minX, maxX, minY, maxY} in metres; rect: {x, y, w, h} in pixels.
  constructor(box, rect) {
    const w = Math.max(box.maxX - box.minX, 1e-12);
    const h = Math.max(box.maxY - box.minY, 1e-12);
    this.scale = Math.min(rect.w / w, rect.h / h);  // pixels per metre
    const cx = (box.minX + box.maxX) / 2, cy = (box.minY + box.maxY) / 2;
    this.ox = rect.x + rect.w / 2 - cx * this.scale;
    this.oy = rect.y + rect.h / 2 + cy * this.scale;
    this.rect = rect;
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

// A step of 1, 2 or 5 × 10^k giving about `count` intervals over `span`.
export function niceStep(span, count) {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(count, 1);
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const m = raw / power;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * power;
}

// Tick label text for a value on an axis with this step (no 0.30000000000000004).
export function tickLabel(value, step) {
  if (Math.abs(value) < step * 1e-9) return '0';
  const abs = Math.abs(value);
  if (abs >= 1e5 || abs < 1e-3) return value.toExponential(Math.max(0, Math.min(3, -Math.floor(Math.log10(step)) + Math.floor(Math.log10(abs))))).replace('e+', 'e');
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  return value.toFixed(Math.min(decimals, 6));
}

// Numbers for people: 3 significant digits, exponent when tiny or huge.
export function formatValue(x, digits = 3) {
  if (!Number.isFinite(x)) return '—';
  if (x === 0) return '0';
  const abs = Math.abs(x);
  if (abs >= 1e5 || abs < 1e-3) return x.toExponential(digits - 1).replace('e+', 'e');
  return Number(x.toPrecision(digits)).toString();
}
