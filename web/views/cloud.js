// The phase-space clouds: every start state of each integrator's cloud as one pixel (x against vx
// of body 0, from SimulationHandle.cloudPoints, laid out as the core's layout().cloud says), in the
// lane's legend colour, the exact flow's followed points as a grey ghost. One window per
// integrator (and one for the exact flow), all at the same scale and each centred on its own
// cloud: the clouds drift apart along the orbit at different phases, and only a common scale lets
// their areas be compared by eye. The points are written straight into an ImageData (hundreds of
// thousands per frame); only the frames, ticks and labels go through the 2D context.
// Robust to diverging lanes: the windows' size follows the clouds that stay near the others'
// size, a non-finite point is dropped, and a finite one outside its window is pinned to the edge.
// Never hands a non-finite number to the canvas.
import { niceStep, stepMultiples } from '../motion/coords.js';
import { laneStyle } from '../common/palette.js';
import { valueOf } from '../common/query.js';
import { t } from '../common/language.js';
import { formatValue, groupDigits, tickText, fixedRatio } from '../common/text.js';
import { ownTaskPoints, noCloudsDrawn } from './cloud-panel.js';

const cellWidthTarget = 165;   // css px: cells per row = the width over this
const margin = { left: 50, right: 8, top: 18, bottom: 18 };  // inside each cell (left: the least)
const widestMargin = 80;        // the vx labels may widen the left margin up to this
const frame = { left: 16, bottom: 18 };                      // the panel's axis titles
const sampleSize = 512;         // points per cloud looked at to fit its window
const quantile = 0.01;          // the fit ignores this fraction at each end
const outlierFactor = 5;        // a cloud this much larger than the median is an outlier
const windowPad = 1.3;          // window size over the largest (non-outlier) cloud's
// A redraw that took longer than this (ms) is not repeated sooner than minRedrawInterval (ms)
// while playing: the clouds then move at about 30 frames a second, the motion canvas at 60.
const costlyRedrawMs = 3;
// Points plotted per task, counted (a window at a time, and at least one: 100,000 points and
// their ghost plot in 1–2 ms); the windows left wait for the next task. Clouds of more points than
// ownTaskPoints (web/views/cloud-panel.js) in all are drawn outside the frame's task altogether.
export const drawSlicePoints = 250000;
const minRedrawInterval = 30;

// A CSS colour '#rrggbb' (or '#rgb') as one pixel of a Uint32Array view of ImageData bytes.
const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
function pixel(colour) {
  let hex = String(colour).trim().replace(/^#/, '');
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  const n = /^[0-9a-f]{6}$/i.test(hex) ? parseInt(hex, 16) : 0x808080;
  const r = (n >> 16) & 255, g = (n >> 8) & 255, b = n & 255;
  return (littleEndian ? ((255 << 24) | (b << 16) | (g << 8) | r) : ((r << 24) | (g << 16) | (b << 8) | 255)) >>> 0;
}

// The robust box of `count` (x, vx) pairs from `offset` (in floats) of `points`: the quantiles of
// an evenly spread sample of the finite points. null when fewer than 3 are finite.
const scratchX = new Float64Array(sampleSize), scratchV = new Float64Array(sampleSize);
function robustBox(points, offset, count) {
  if (count <= 0) return null;
  const stride = Math.max(1, Math.floor(count / sampleSize));
  let n = 0;
  for (let k = 0; k < count && n < sampleSize; k += stride) {
    const x = points[offset + 2 * k], v = points[offset + 2 * k + 1];
    if (x - x === 0 && v - v === 0) { scratchX[n] = x; scratchV[n] = v; ++n; }
  }
  if (n < 3) return null;
  const xs = scratchX.subarray(0, n).sort(), vs = scratchV.subarray(0, n).sort();
  const lo = Math.floor(quantile * (n - 1)), hi = Math.ceil((1 - quantile) * (n - 1));
  const box = { x0: xs[lo], x1: xs[hi], v0: vs[lo], v1: vs[hi] };
  box.cx = (box.x0 + box.x1) / 2;
  box.cv = (box.v0 + box.v1) / 2;
  box.w = box.x1 - box.x0;
  box.h = box.v1 - box.v0;
  return Number.isFinite(box.w) && Number.isFinite(box.h) && Number.isFinite(box.cx) && Number.isFinite(box.cv) ? box : null;
}

// The ticks of one axis over [lo, hi]: about `count` of them, [{value, text}].
function axisTicks(lo, hi, count) {
  const step = niceStep(hi - lo, Math.max(1, count));
  return stepMultiples(lo, hi, step, 0, 9).map((k) => ({ value: k * step, text: tickText(k * step, step) }));
}

const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
};

// "Semi-implicit Euler (x fi…": text cut to a width.
function fit(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let cut = text;
  while (cut.length > 1 && ctx.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

// The inner loops, one pixel per point (the common case, 10^5 points and more) or a square of
// dot × dot pixels. The test for a point inside the cell comes first: NaN fails it, and the rare
// point outside (or not finite) takes the slow path. Clamped before the conversion to an
// integer: far values would wrap around.
function plotPixels(pixels, points, start, end, base, W, right, bottom, x0, v1, kx, kv, colour, pin) {
  for (let i = start; i < end; i += 2) {
    const fx = (points[i] - x0) * kx, fy = (v1 - points[i + 1]) * kv;
    if (fx >= 0 && fx <= right && fy >= 0 && fy <= bottom) { pixels[base + (fy | 0) * W + (fx | 0)] = colour; continue; }
    if (!pin || fx - fx !== 0 || fy - fy !== 0) continue;
    const X = fx < 0 ? 0 : fx > right ? right : fx | 0;
    const Y = fy < 0 ? 0 : fy > bottom ? bottom : fy | 0;
    pixels[base + Y * W + X] = colour;
  }
}

function plotDots(pixels, points, start, end, base, W, right, bottom, x0, v1, kx, kv, colour, pin, dot) {
  for (let i = start; i < end; i += 2) {
    const fx = (points[i] - x0) * kx, fy = (v1 - points[i + 1]) * kv;
    if (fx - fx !== 0 || fy - fy !== 0) continue;
    const inside = fx >= 0 && fx <= right && fy >= 0 && fy <= bottom;
    if (!inside && !pin) continue;
    const X = fx < 0 ? 0 : fx > right ? right : fx | 0;
    const Y = fy < 0 ? 0 : fy > bottom ? bottom : fy | 0;
    let p = base + Y * W + X;
    for (let dy = 0; dy < dot; ++dy, p += W) for (let dx = 0; dx < dot; ++dx) pixels[p + dx] = colour;
  }
}

export class CloudView {
  // page: the PageState (web/app/state.js).
  constructor(canvas, figure, page) {
    this.page = page;
    this.canvas = canvas;
    this.figure = figure;
    this.hint = figure.querySelector('.cloud-hint');
    this.ctx = canvas.getContext('2d');
    this.sim = null;
    this.names = [];
    this.drawnKey = '';
    this.image = null;
    this.stats = { ...noCloudsDrawn };
    // A new colour scheme: the clouds are drawn again in it.
    page.onThemeChange(() => this.invalidate());
  }

  // A new simulation: shown only when it has clouds; a fresh scale.
  setSimulation(sim) {
    this.sim = sim;
    this.job = null;  // a redraw of the old one in progress stops
    clearTimeout(this.deferred);
    this.deferred = null;
    this.names = this.page.laneNames();
    this.scale = null;
    this.lastMs = 0;
    this.lastDrawAt = -Infinity;
    this.outlierKey = '';
    this.lastSteps = -1;
    this.drawnKey = '';
    this.cells = [];
    const on = sim.cloud.points > 0;
    this.figure.hidden = !on;
    if (on && this.hint) {
      const n = groupDigits(sim.cloud.points);
      const ghost = sim.cloud.exact > 0 ? t('; grey: the exact flow') : '';
      this.hint.textContent = `${t('{n} start states per integrator, disc radius {r}', { n, r: formatValue(sim.cloud.radius) })}${ghost}; ` +
        t('each window is centred on its cloud, all at one scale.') +
        // The clouds are an area measurement of each one-step map, so every method steps dt there.
        (valueOf(sim.config, 'equal_cost') === '1' ? ` ${t('Equal cost applies to the lanes: the clouds step every method at dt.')}` : '');
    }
  }

  // Every frame drawn: the clouds, once they are all built.
  frame(snapshot) {
    if (this.sim.cloudReady) this.draw(this.sim, snapshot, this.page.theme, this.page.runner.playing);
  }

  // What window.stepwise.debug.cloud() reads: the windows and the drawing times.
  report() {
    return {
      shown: this.active, cells: (this.cells || []).map((c) => ({ ...c })), scale: this.scale ? { ...this.scale } : null,
      ...this.stats,
    };
  }

  // Shown, and on screen (an embedded frame may hide it): drawing into a hidden canvas is waste.
  get active() {
    return Boolean(this.sim) && this.sim.cloud.points > 0 && !this.figure.hidden && this.canvas.getClientRects().length > 0;
  }

  invalidate() { this.drawnKey = ''; this.job = null; }

  // The plane the clouds lie in (the core's scene.cloudPlane): body 0's x and vx, or a linked
  // system's first link's angle and its rate.
  plane() {
    return this.sim?.scene?.cloudPlane || { q: 'x', qUnit: 'm', p: 'vx', pUnit: 'm/s', of: 'body 0' };
  }

  // The canvas for the PNG export, when shown.
  visible() {
    const plane = this.plane();
    return this.active ? [{ canvas: this.canvas, caption: t('Phase-space cloud: {q} ({qUnit}) against {p} ({pUnit}), {of}',
      { ...plane, of: t(plane.of) }) }] : [];
  }

  // The grid of windows for n of them in a width: as many columns as fit, balanced over rows.
  grid(n, width, left = margin.left) {
    let cols = Math.max(1, Math.min(n, Math.floor(width / cellWidthTarget)));
    const rows = Math.ceil(n / cols);
    cols = Math.ceil(n / rows);
    const cellW = (width - frame.left) / cols;
    const plotW = Math.max(20, cellW - left - margin.right);
    const plotH = Math.round(Math.min(Math.max((cellW - margin.left - margin.right) * 0.62, 70), 170));
    const cellH = plotH + margin.top + margin.bottom;
    return { cols, rows, cellW, cellH, plotW, plotH, left, height: rows * cellH + frame.bottom };
  }

  resize(layout) {
    const ratio = window.devicePixelRatio || 1;
    if (Math.abs(this.canvas.getBoundingClientRect().height - layout.height) > 0.5) {
      this.canvas.style.height = `${layout.height}px`;
    }
    const rect = this.canvas.getBoundingClientRect();
    const w = Math.max(1, Math.round(rect.width * ratio)), h = Math.max(1, Math.round(rect.height * ratio));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    if (!this.image || this.image.width !== w || this.image.height !== h) {
      this.image = this.ctx.createImageData(w, h);
      this.pixels = new Uint32Array(this.image.data.buffer);
    }
    this.ratio = ratio;
  }

  // Each cloud's robust box, and the common window size: the largest cloud that is not an
  // outlier (its size, the geometric mean of its box's sides, more than outlierFactor times the
  // median size: a diverging lane), only ever growing during a run, so that a rotating patch does
  // not make the windows pulse; fitted afresh when a cloud becomes (or stops being) an outlier.
  fitWindows(points, cloud) {
    const boxes = [];
    for (let l = 0; l < cloud.lanes; ++l) boxes.push(robustBox(points, 2 * l * cloud.points, cloud.points));
    const ghost = cloud.exact > 0 ? robustBox(points, 2 * cloud.lanes * cloud.points, cloud.exact) : null;
    const all = [...boxes, ghost];
    const size = (b) => Math.sqrt(Math.max(b.w, 0) * Math.max(b.h, 0));
    const typical = median(all.filter(Boolean).map(size));
    const outlier = all.map((b) => Boolean(b) && size(b) > outlierFactor * typical);
    const key = outlier.join();
    if (key !== this.outlierKey) this.scale = null;
    this.outlierKey = key;
    let w = 0, h = 0;
    all.forEach((b, k) => {
      if (!b || outlier[k]) return;
      w = Math.max(w, b.w);
      h = Math.max(h, b.h);
    });
    // Never narrower than a small share of the start disc.
    const floor = Math.max(1e-5 * this.sim.cloud.radius, 1e-12);
    w = Math.max(w * windowPad, floor);
    h = Math.max(h * windowPad, floor);
    if (!Number.isFinite(w) || !Number.isFinite(h)) { w = h = 2 * windowPad * this.sim.cloud.radius; }
    if (this.scale) { w = Math.max(w, this.scale.w); h = Math.max(h, this.scale.h); }
    this.scale = { w, h };
    return { boxes, ghost, outlier };
  }

  // Draws the clouds at the simulation's current step. playing: while the run plays, a costly
  // redraw (many points) happens at most every other display frame; paused, always at once.
  // The windows are plotted a few at a time, at most drawSlicePoints points a task, the rest in tasks of their own
  // (15 clouds of 100,000 points are tens of milliseconds of plotting): the picture on screen
  // changes once all are plotted, and no new draw starts before then.
  draw(sim, snapshot, theme, playing = false) {
    if (!this.active || !sim.cloudPoints || this.job) return;
    // Many points: the whole redraw (reading them, fitting the windows, plotting) runs in tasks
    // of its own, apart from the frame's stepping and drawing, at the state of that moment.
    if (sim.cloud.lanes * sim.cloud.points > ownTaskPoints) {
      if (this.deferred) return;
      this.deferred = setTimeout(() => {
        this.deferred = null;
        if (this.sim === sim && sim.sim) this.render(sim, sim.snapshot, theme, playing);
      }, 0);
      return;
    }
    this.render(sim, snapshot, theme, playing);
  }

  render(sim, snapshot, theme, playing) {
    if (!this.active || this.job) return;
    const now = performance.now();
    if (playing && this.lastMs > costlyRedrawMs && now - this.lastDrawAt < minRedrawInterval) return;
    sim.syncCloud();
    const cloud = sim.cloud, points = sim.cloudPoints;
    const cssWidth = this.canvas.getBoundingClientRect().width;
    const cells = cloud.lanes + (cloud.exact > 0 ? 1 : 0);
    // Nothing to do when the points, the size and the colours are those already drawn.
    const key = `${sim.cloudVersion}|${cssWidth}|${theme.scheme}|${theme.bg}|${window.devicePixelRatio}`;
    if (key === this.drawnKey) return;
    this.drawnKey = key;
    if (snapshot.steps < this.lastSteps) this.scale = null;  // a reset: fit afresh
    this.lastSteps = snapshot.steps;
    const t0 = performance.now();
    const { boxes, ghost, outlier } = this.fitWindows(points, cloud);
    // Each window at the common size, centred on its cloud; a cloud that ran far away (10^20 m)
    // gets a window wide enough for its coordinates' precision (floats: 1e-6 of them).
    const windowOf = (box) => {
      if (!box) return null;
      const w = Math.max(this.scale.w, 4e-6 * Math.abs(box.cx)), h = Math.max(this.scale.h, 4e-6 * Math.abs(box.cv));
      return { x0: box.cx - w / 2, x1: box.cx + w / 2, v0: box.cv - h / 2, v1: box.cv + h / 2 };
    };
    const wins = [];
    for (let c = 0; c < cells; ++c) wins.push(windowOf(c < cloud.lanes ? boxes[c] : ghost));
    // The left margin fits the widest vx label (far from zero they are long).
    let layout = this.grid(cells, cssWidth);
    this.ctx.font = `10px ${theme.font}`;
    let widest = 0;
    for (const win of wins) {
      if (!win) continue;
      for (const t of axisTicks(win.v0, win.v1, Math.max(2, Math.floor(layout.plotH / 34)))) widest = Math.max(widest, this.ctx.measureText(t.text).width);
    }
    const left = Math.min(widestMargin, Math.max(margin.left, Math.ceil(widest) + 10));
    if (left !== margin.left) layout = this.grid(cells, cssWidth, left);
    this.resize(layout);
    const t1 = performance.now();
    const r = this.ratio;
    const pixels = this.pixels, W = this.image.width, H = this.image.height;
    pixels.fill(pixel(theme.bg));
    const ghostColour = pixel(theme.ghost);
    const dot = Math.max(1, Math.round(r)) * (cloud.points <= 5000 ? 2 : 1);
    const ghostDot = Math.max(1, Math.round(r)) * (cloud.exact <= 5000 ? 2 : 1);
    const exactOffset = 2 * cloud.lanes * cloud.points;
    const windows = [];
    for (let c = 0; c < cells; ++c) {
      const lane = c < cloud.lanes ? c : -1;
      const col = c % layout.cols, row = Math.floor(c / layout.cols);
      const css = {
        x: frame.left + col * layout.cellW + layout.left, y: row * layout.cellH + margin.top,
        w: layout.plotW, h: layout.plotH,
      };
      windows.push({ lane, css, win: wins[c], box: lane >= 0 ? boxes[lane] : ghost, outlier: outlier[lane >= 0 ? lane : cloud.lanes] });
    }
    // Plots window c into the pixels.
    const plotWindow = (c) => {
      const { lane, css, win } = windows[c];
      if (!win) return;
      // The cell in device pixels.
      const px0 = Math.round(css.x * r), py0 = Math.round(css.y * r);
      const pw = Math.min(W - px0, Math.round(css.w * r)), ph = Math.min(H - py0, Math.round(css.h * r));
      if (pw < 2 || ph < 2) return;
      const target = { px0, py0, pw, ph, W, win };
      // The ghost behind each lane's cloud (where it is in view), and alone in its own window.
      // (Pinned only in its own window: elsewhere a ghost out of view is no news.)
      if (cloud.exact > 0) this.plot(pixels, points, exactOffset, cloud.exact, target, ghostColour, ghostDot, lane < 0);
      if (lane >= 0) {
        this.plot(pixels, points, 2 * lane * cloud.points, cloud.points, target,
          pixel(laneStyle(this.sim.laneIds[lane], theme.scheme).colour), dot, true);
      }
    };
    const job = { next: 0, ms: t1 - t0, sim };
    this.job = job;
    const finish = () => {
      this.job = null;
      this.finish({ sim, snapshot, theme, layout, windows, ms: job.ms, fitMs: t1 - t0, now, cloud });
    };
    const windowPoints = (c) => (c < cloud.lanes ? cloud.points : 0) + cloud.exact;
    const work = () => {
      if (this.job !== job) return;  // a new simulation meanwhile
      const start = performance.now();
      let plotted = 0;
      while (job.next < cells && (plotted === 0 || plotted + windowPoints(job.next) <= drawSlicePoints)) {
        plotted += windowPoints(job.next);
        plotWindow(job.next++);
      }
      this.stats.mostSlicePoints = Math.max(this.stats.mostSlicePoints, plotted);
      const spent = performance.now() - start;
      job.ms += spent;
      this.stats.pointsMs += spent;
      if (job.next < cells) setTimeout(work, 0);
      else finish();
    };
    // Many points: reading and fitting them was this task's work; the plotting starts in the next.
    if (cloud.lanes * cloud.points > ownTaskPoints) setTimeout(work, 0);
    else work();
  }

  // Shows the plotted pixels and draws the frames, ticks and names over them.
  finish({ sim, snapshot, theme, layout, windows, ms, fitMs, now, cloud }) {
    const ctx = this.ctx, r = this.ratio;
    const t2 = performance.now();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.putImageData(this.image, 0, 0);
    const t3 = performance.now();
    ctx.setTransform(r, 0, 0, r, 0, 0);
    this.decorate(ctx, windows, snapshot, theme, layout);
    // Where each window is (css pixels of the canvas) and what it shows, for the tests.
    this.cells = windows.map(({ lane, css, win }) => ({
      lane: lane >= 0 ? sim.laneIds[lane] : 'exact', x: css.x, y: css.y, w: css.w, h: css.h,
      window: win ? { ...win } : null,
    }));
    const t4 = performance.now();
    this.stats.fitMs += fitMs;
    this.stats.putMs += t3 - t2;
    this.stats.ms += ms + (t4 - t2);
    this.stats.draws += 1;
    this.lastMs = ms + (t4 - t2);
    this.lastDrawAt = now;
    this.stats.points = cloud.lanes * cloud.points + cloud.exact;
  }

  // Writes `count` points from `offset` into the cell: non-finite ones dropped, the rest outside
  // pinned to the cell's edges (pin) or dropped.
  plot(pixels, points, offset, count, target, colour, dot, pin) {
    const { px0, py0, pw, ph, W, win } = target;
    const kx = pw / (win.x1 - win.x0), kv = ph / (win.v1 - win.v0);
    if (dot === 1) plotPixels(pixels, points, offset, offset + 2 * count, py0 * W + px0, W, pw - 1, ph - 1, win.x0, win.v1, kx, kv, colour, pin);
    else plotDots(pixels, points, offset, offset + 2 * count, py0 * W + px0, W, pw - dot, ph - dot, win.x0, win.v1, kx, kv, colour, pin, dot);
  }

  // Frames, ticks, each window's name and area ratio, and the axis titles.
  decorate(ctx, windows, snapshot, theme, layout) {
    ctx.font = `10px ${theme.font}`;
    ctx.lineWidth = 1;
    for (const { lane, css, win, box, outlier } of windows) {
      ctx.strokeStyle = theme.grid;
      ctx.strokeRect(css.x - 0.5, css.y - 0.5, css.w + 1, css.h + 1);
      const colour = lane >= 0 ? laneStyle(this.sim.laneIds[lane], theme.scheme).colour : theme.ghost;
      // Title: the integrator's name in its colour, its area ratio on the right.
      const ratio = lane >= 0 ? snapshot.lanes[lane].areaRatio : snapshot.exactAreaRatio;
      const ratioText = !Number.isFinite(ratio) ? t('rim not finite') : ratio < 0 ? t('rim folded') : `× ${fixedRatio(ratio)}`;
      ctx.font = `600 11px ${theme.font}`;
      ctx.textBaseline = 'alphabetic';
      ctx.textAlign = 'right';
      ctx.fillStyle = theme.muted;
      const titleY = css.y - 5, left = css.x - layout.left + 6, right = css.x + css.w;
      ctx.fillText(ratioText, right, titleY);
      const room = right - left - ctx.measureText(ratioText).width - 8;
      ctx.textAlign = 'left';
      ctx.fillStyle = colour;
      ctx.fillText(fit(ctx, lane >= 0 ? this.names[lane] || '' : t('Exact flow'), room), left, titleY);
      ctx.font = `10px ${theme.font}`;
      if (!win) {
        ctx.fillStyle = theme.muted;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(t('no finite points'), css.x + css.w / 2, css.y + css.h / 2);
        continue;
      }
      this.ticks(ctx, css, win, theme, layout.left);
      // A diverging cloud at the others' scale: mostly beyond its window (pinned to the edges).
      if (outlier) {
        ctx.fillStyle = theme.muted;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.font = `10px ${theme.font}`;
        ctx.strokeStyle = theme.bg;  // a halo: readable over the points
        ctx.lineWidth = 3;
        for (const [text, dy] of [[t('spread far beyond'), -7], [t('this window'), 7]]) {
          const line = fit(ctx, text, css.w - 8);
          ctx.strokeText(line, css.x + css.w / 2, css.y + css.h / 2 + dy);
          ctx.fillText(line, css.x + css.w / 2, css.y + css.h / 2 + dy);
        }
        ctx.lineWidth = 1;
      }
      // A cloud shrunk to a few pixels (implicit Euler's) gets a ring, so it can be found.
      if (box && box.w / (win.x1 - win.x0) * css.w < 4 && box.h / (win.v1 - win.v0) * css.h < 4) {
        const cx = css.x + ((box.cx - win.x0) / (win.x1 - win.x0)) * css.w;
        const cy = css.y + css.h - ((box.cv - win.v0) / (win.v1 - win.v0)) * css.h;
        if (Number.isFinite(cx) && Number.isFinite(cy)) {
          ctx.strokeStyle = colour;
          ctx.lineWidth = 1.5;
          ctx.beginPath();
          ctx.arc(cx, cy, 7, 0, 2 * Math.PI);
          ctx.stroke();
          ctx.lineWidth = 1;
        }
      }
    }
    // The axes' names, once for all windows.
    ctx.fillStyle = theme.muted;
    ctx.font = `11px ${theme.font}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    const width = this.canvas.getBoundingClientRect().width;
    const plane = this.plane();
    ctx.fillText(`${plane.q} (${plane.qUnit})`, frame.left + (width - frame.left) / 2, layout.height - 2);
    ctx.save();
    ctx.translate(9, (layout.height - frame.bottom) / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'middle';
    ctx.fillText(`${plane.p} (${plane.pUnit})`, 0, 0);
    ctx.restore();
  }

  // A few ticks along the bottom (x) and the left (vx) of one window, labelled.
  ticks(ctx, css, win, theme, left) {
    ctx.strokeStyle = theme.muted;
    ctx.fillStyle = theme.muted;
    const px = (x) => css.x + ((x - win.x0) / (win.x1 - win.x0)) * css.w;
    const py = (v) => css.y + css.h - ((v - win.v0) / (win.v1 - win.v0)) * css.h;
    const xs = axisTicks(win.x0, win.x1, Math.max(2, Math.floor(css.w / 60))).map((t) => ({ ...t, at: px(t.value) }))
      .filter((t) => Number.isFinite(t.at));
    const vs = axisTicks(win.v0, win.v1, Math.max(2, Math.floor(css.h / 34))).map((t) => ({ ...t, at: py(t.value) }))
      .filter((t) => Number.isFinite(t.at));
    ctx.beginPath();
    for (const t of xs) { ctx.moveTo(t.at, css.y + css.h); ctx.lineTo(t.at, css.y + css.h + 3); }
    for (const t of vs) { ctx.moveTo(css.x - 3, t.at); ctx.lineTo(css.x, t.at); }
    ctx.stroke();
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    let last = -Infinity;
    for (const t of xs) {
      const half = ctx.measureText(t.text).width / 2;
      // Within the cell: never into the neighbour's labels.
      if (t.at - half < last + 6 || t.at + half > css.x + css.w + margin.right - 1) continue;
      ctx.fillText(t.text, t.at, css.y + css.h + 3);
      last = t.at + half;
    }
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    // Not at the very corners, where the x labels and the title are.
    for (const t of vs) {
      if (t.at > css.y + css.h - 6 || t.at < css.y + 4) continue;
      ctx.fillText(fit(ctx, t.text, left - 8), css.x - 4, t.at);
    }
  }
}
