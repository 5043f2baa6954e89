// A plot on one canvas drawn whole each time (the analysis views' log-log plots and stability
// map, web/views/), and the axes, grid and labels every plot draws (drawAxes, shared with the live
// plots' incremental layer, web/plots/plot-layer.js).
import { ClippedPath } from '../motion/coords.js';

export const margin = { left: 62, right: 10, top: 8, bottom: 30 };

// Axes, grid and labels of `plot` (its px, py and area) onto ctx: {xTicks, yTicks: [{value,
// label}], xName, yName}. Tick labels closer than they can be read are left out; an x label at
// the right end moves left to stay whole on the canvas; the y axis's name is fitted to the
// canvas's height (yTitle). Returns the x labels drawn, [{text, left, right}], and sets
// plot.yTitle to how the y name was drawn, {lines, size, room}.
export function drawAxes(ctx, plot, theme, { xTicks, yTicks, xName, yName }) {
  const a = plot.area;
  ctx.strokeStyle = theme.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const t of xTicks) { const x = Math.round(plot.px(t.value)) + 0.5; ctx.moveTo(x, a.y); ctx.lineTo(x, a.y + a.h); }
  for (const t of yTicks) { const y = Math.round(plot.py(t.value)) + 0.5; ctx.moveTo(a.x, y); ctx.lineTo(a.x + a.w, y); }
  ctx.stroke();
  ctx.strokeStyle = theme.muted;
  ctx.strokeRect(a.x + 0.5, a.y + 0.5, a.w - 1, a.h - 1);
  ctx.fillStyle = theme.muted;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  let last = -Infinity;
  const xLabels = [], end = a.x + a.w + margin.right - 1;
  for (const t of xTicks) {
    const half = ctx.measureText(t.label).width / 2, x = Math.min(plot.px(t.value), end - half);
    if (x - last < 36) continue;
    ctx.fillText(t.label, x, a.y + a.h + 3);
    xLabels.push({ text: t.label, left: x - half, right: x + half });
    last = x;
  }
  ctx.fillText(xName, a.x + a.w / 2, a.y + a.h + 16);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  last = Infinity;
  for (const t of [...yTicks].sort((p, q) => p.value - q.value)) {
    const y = plot.py(t.value);
    if (last - y < 14) continue;
    ctx.fillText(t.label, a.x - 4, y);
    last = y;
  }
  const font = ctx.font, title = yTitle(ctx, yName, a.h + margin.top + margin.bottom - 6, font);
  ctx.save();
  ctx.font = title.font;
  const widths = title.lines.map((line) => ctx.measureText(line).width);
  ctx.translate(title.lines.length > 1 ? 7 : 11, a.y + a.h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  title.lines.forEach((line, k) => ctx.fillText(line, 0, k * (title.size + 1)));
  ctx.restore();
  ctx.font = font;
  plot.yTitle = { lines: title.lines, size: title.size, room: title.room, widths };
  return xLabels;
}

// The y axis's name in `room` pixels (it is drawn along the axis): at 11 px, else smaller (to
// 9 px), else on two lines split at the space nearest the middle ("angular momentum chang" and
// "|energy change| (%), lo" were cut off by the canvas's edges). font: the context's 11 px font.
function yTitle(ctx, text, room, font) {
  const at = (size) => font.replace(/\d+(\.\d+)?px/, `${size}px`);
  const fits = (lines, size) => { ctx.font = at(size); return lines.every((l) => ctx.measureText(l).width <= room); };
  for (const size of [11, 10, 9]) if (fits([text], size)) return { lines: [text], size, room, font: at(size) };
  const spaces = [...text.matchAll(/ /g)].map((m) => m.index);
  if (spaces.length) {
    const cut = spaces.reduce((best, i) => (Math.abs(i - text.length / 2) < Math.abs(best - text.length / 2) ? i : best));
    const lines = [text.slice(0, cut), text.slice(cut + 1)];
    for (const size of [10, 9]) if (fits(lines, size)) return { lines, size, room, font: at(size) };
    return { lines, size: 9, room, font: at(9) };
  }
  return { lines: [text], size: 9, room, font: at(9) };
}

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
    this.xr = xr;
    this.yr = yr;
    this.xLabels = drawAxes(this.ctx, this, theme, { xTicks, yTicks, xName, yName });
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
