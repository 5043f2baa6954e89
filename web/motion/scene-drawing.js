// Drawing the scene on the motion canvas (View's part that knows the system, not the lanes): the
// static layer (axes, anchors, central bodies, the launch line, the reference's whole path),
// springs as coils and rods as bars, the exact or reference ghost and trails, gravity's arrow
// and the clock. The View (web/motion/view.js) extends it: the methods read its state (ctx, the
// scene, the maps). Never hands a non-finite number to the canvas.
import { ClippedPath, axisTicks, niceStep, stepMultiples } from './coords.js';
// t_: the page's texts (web/common/language.js); t is a time here.
import { t as t_ } from '../common/language.js';
import { fixed, formatValue, tickLabel, offsetName } from '../common/text.js';

export const finite = (...v) => v.every(Number.isFinite);
export const trailLength = 90;     // frames
// The length of trail (CSS pixels) a frame strokes at most, shared by the trails drawn: the
// canvas rasterises them in the frame's commit, and fifteen lanes of a chaotic pendulum at 10×
// (90 frames of trail are 15 s of its motion there) made commits of 40-55 ms. Each trail keeps
// its newest part, at least trailFloorPx long.
export const trailBudgetPx = 12000;
const trailFloorPx = 150;
// The first point of a trail's newest part at most capPx long on screen: trail i is point(i).
export function trailStart(count, point, map, capPx) {
  let length = 0, i = count - 1;
  const p = point(i);
  let x = map.px(p.x), y = map.py(p.y);
  for (; i > 0; --i) {
    const q = point(i - 1), qx = map.px(q.x), qy = map.py(q.y);
    const d = Math.hypot(qx - x, qy - y);
    if (Number.isFinite(d)) length += d;
    if (length > capPx) break;
    x = qx; y = qy;
  }
  return i;
}
// The length each of n trails may take of the frame's budget.
export const trailCapPx = (n) => Math.max(trailFloorPx, trailBudgetPx / Math.max(1, n));
export const arrowPx = 40;        // a velocity arrow at the fastest speed seen
export const fadedAlpha = 0.25;   // lanes not highlighted, while one is
export const rowHeight = 46;      // a lane's row in the lanes layout (CSS pixels), when the window allows
export const layoutRowKey = (m) => (m.row ? m.row.y : 0);
// A pixel near enough the map's rectangle to draw a marker at (a far one is never handed to
// the canvas: lines there would be dashed along their whole length).
export const nearRect = (map, x, y, pad = 24) => finite(x, y) && x > map.rect.x - pad && x < map.rect.x + map.rect.w + pad
  && y > map.rect.y - pad && y < map.rect.y + map.rect.h + pad;
// Adds a ring of 10 px around each point near the map's box to the current path (the exact or
// reference bodies' marks, one path for all of them).
// only: the one body to ring (-1: every one).
export function addRings(ctx, map, points, radius = 10, only = -1) {
  for (let b = 0; b < points.length; ++b) {
    if (only >= 0 && b !== only) continue;
    const p = points[b];
    const x = map.px(p.x), y = map.py(p.y);
    if (!nearRect(map, x, y)) continue;
    ctx.moveTo(x + radius, y);
    ctx.arc(x, y, radius, 0, Math.PI * 2);
  }
}
// The most springs drawn as coils; more are drawn straight (drawSprings).
const maxCoils = 48;

// An anchor's mark at pixel (x, y): a hatched triangle hanging from its point (also the scene
// editor's, web/editor/editor.js).
export function anchorMark(ctx, x, y, colour, bg) {
  if (!finite(x, y)) return;
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.moveTo(x, y); ctx.lineTo(x - 8, y - 12); ctx.lineTo(x + 8, y - 12); ctx.closePath();
  ctx.fill();
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(x - 12, y - 12); ctx.lineTo(x + 12, y - 12);
  for (let k = -12; k < 12; k += 5) { ctx.moveTo(x + k, y - 12); ctx.lineTo(x + k + 5, y - 18); }
  ctx.stroke();
  ctx.fillStyle = bg;
  ctx.beginPath(); ctx.arc(x, y, 2.5, 0, Math.PI * 2); ctx.fill();
}

// A rigid link (compliance 0): drawn as a bar, not a coil.
export const isRod = (connector) => connector.kind === 'link' && connector.compliance === 0;

export class SceneDrawing {
  // The x axis's tick labels under the rectangle r, clear of the axis name at its left and of
  // each other (the overlay's axes and the lanes layout's).
  drawXLabels(map, r, xAxis, xName) {
    const ctx = this.ctx;
    let lastLabel = r.x + Math.max(30, ctx.measureText(xName).width + 24);
    for (const t of xAxis.ticks) {
      const px = map.px(t.value);
      if (px - lastLabel < 40 || px > r.x + r.w - 14) continue;
      ctx.fillText(t.label, px, r.y + r.h + 5);
      lastLabel = px;
    }
  }

  // The grid, axes, rows, anchors, launch line and central bodies: drawn into a canvas of their
  // own when the map changed, and copied onto the view every frame.
  drawStatic(map, maps, shownLanes, layout, theme) {
    const key = [this.canvas.width, this.canvas.height, map.ox, map.oy, map.scale, theme.scheme, layout,
      shownLanes.map((l) => l.id).join(), this.overlay ? 1 : 0].join('|');
    const layer = this.staticLayer;
    if (key !== this.staticKey) {
      this.staticKey = key;
      if (layer.width !== this.canvas.width || layer.height !== this.canvas.height) {
        layer.width = this.canvas.width;
        layer.height = this.canvas.height;
      }
      const main = this.ctx;
      const ctx = layer.getContext('2d');
      this.ctx = ctx;
      ctx.setTransform(this.pixelRatio, 0, 0, this.pixelRatio, 0, 0);
      ctx.fillStyle = theme.bg;
      ctx.fillRect(0, 0, this.cssWidth, this.cssHeight);
      ctx.font = `11px ${theme.font}`;
      if (layout === 'lanes') this.drawRows(map, maps, shownLanes, theme);
      else this.drawAxes(map, theme);
      ctx.save();
      ctx.beginPath();
      ctx.rect(map.rect.x, map.rect.y, map.rect.w, map.rect.h);
      ctx.clip();
      if (layout === 'overlay') {
        this.drawLaunchLine(map, theme);
        this.drawCentres(map, theme);
        this.drawAnchors(map, theme);
      } else {
        for (const lane of shownLanes) this.drawAnchors(maps[lane.index], theme);
      }
      ctx.restore();
      this.ctx = main;
      this.staticDraws += 1;
    }
    // A plain copy (no blending: the layer is opaque), the cheapest way to clear and fill the canvas.
    this.ctx.setTransform(1, 0, 0, 1, 0, 0);
    this.ctx.globalCompositeOperation = 'copy';
    this.ctx.drawImage(layer, 0, 0);
    this.ctx.globalCompositeOperation = 'source-over';
  }

  drawAxes(map, theme) {
    const ctx = this.ctx, r = map.rect, v = map.visible();
    const step = niceStep(Math.max(v.maxX - v.minX, v.maxY - v.minY), Math.max(3, Math.round(Math.max(r.w, r.h) / 90)));
    ctx.lineWidth = 1;
    ctx.strokeStyle = theme.grid;
    ctx.fillStyle = theme.muted;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.beginPath();
    for (const k of stepMultiples(v.minX, v.maxX, step)) {
      const px = Math.round(map.px(k * step)) + 0.5;
      ctx.moveTo(px, r.y); ctx.lineTo(px, r.y + r.h);
    }
    for (const k of stepMultiples(v.minY, v.maxY, step)) {
      const py = Math.round(map.py(k * step)) + 0.5;
      ctx.moveTo(r.x, py); ctx.lineTo(r.x + r.w, py);
    }
    ctx.stroke();
    // Tick labels, leaving the bottom-left and top-left corners to the axis names. Far from
    // the origin they are relative to an offset the axis name states (coords.js axisTicks).
    const xAxis = axisTicks(v.minX, v.maxX, step);
    const yAxis = axisTicks(v.minY, v.maxY, step, (label) => ctx.measureText(label).width <= this.margin.left - 7);
    const xName = offsetName('x', 'm', xAxis.offset, step), yName = offsetName('y', 'm', yAxis.offset, step);
    this.drawXLabels(map, r, xAxis, xName);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const t of yAxis.ticks) {
      const py = map.py(t.value);
      if (py < r.y + 8) continue;
      ctx.fillText(t.label, r.x - 5, py);
    }
    ctx.strokeStyle = theme.muted;
    ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
    ctx.fillStyle = theme.fg;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText(xName, r.x + 2, r.y + r.h + 5);
    ctx.textBaseline = 'bottom';
    // Over the margin when it is wider than the margin (an offset), else right-aligned to it.
    const yWidth = ctx.measureText(yName).width;
    ctx.fillText(yName, Math.max(2, r.x - 5 - yWidth), r.y - 3);
    const bar = step * map.scale;
    const bx = r.x + r.w - bar - 10, by = r.y + r.h - 12;
    // Where it lies along the bottom edge (with its label): edge markers there keep clear of it.
    this.scaleBar = { lo: Math.min(bx, bx + bar / 2 - 20), hi: Math.max(bx + bar, bx + bar / 2 + 20) };
    ctx.strokeStyle = theme.fg;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(bx, by - 4); ctx.lineTo(bx, by); ctx.lineTo(bx + bar, by); ctx.lineTo(bx + bar, by - 4);
    ctx.stroke();
    ctx.fillStyle = theme.fg;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    ctx.fillText(`${tickLabel(step, step)} m`, bx + bar / 2, by - 3);
  }

  // y = 0, where a projectile is launched from.
  drawLaunchLine(map, theme) {
    if (!this.scene.launchLine) return;
    const ctx = this.ctx, r = map.rect;
    const y = map.py(0);
    if (!finite(y) || y > r.y + r.h || y < r.y) return;
    // The model has no collision: the bodies fly on below y = 0. So no solid earth is drawn,
    // only a dashed reference line, labelled, lest a student read the fall-through as a bug.
    ctx.strokeStyle = theme.ground;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([6, 4]);
    ctx.beginPath();
    ctx.moveTo(r.x, y); ctx.lineTo(r.x + r.w, y);
    ctx.stroke();
    ctx.setLineDash([]);
  }

  // The launch line's label, drawn each frame after the notes on coincident lanes (`avoid`, their
  // box, or null): under the line at the left, beside the notes where they cover that place, and
  // above the line where the canvas has no room below. Returns its box ({x, y, w, h}), or null.
  drawLaunchLabel(map, theme, avoid) {
    if (!this.scene.launchLine) return null;
    const ctx = this.ctx, r = map.rect;
    const line = map.py(0);
    if (!finite(line) || line > r.y + r.h || line < r.y) return null;
    const text = t_('y = 0 (launch height; no ground collision)');
    ctx.font = '11px system-ui, sans-serif';
    const w = ctx.measureText(text).width, h = 14;
    const meets = (b) => avoid && b.x < avoid.x + avoid.w && avoid.x < b.x + b.w && b.y < avoid.y + avoid.h && avoid.y < b.y + b.h;
    let box = { x: r.x + 6, y: line + 3 <= r.y + r.h - h ? line + 3 : line - 3 - h, w, h };
    if (meets(box)) box = { ...box, x: avoid.x + avoid.w + 12 };
    if (meets(box) || box.x + w > r.x + r.w) box = { ...box, x: r.x + 6, y: avoid ? avoid.y + avoid.h + 2 : box.y };
    ctx.fillStyle = theme.ground;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText(text, box.x, box.y);
    ctx.font = `11px ${theme.font}`;
    return box;
  }

  drawAnchors(map, theme) {
    for (const a of this.scene.anchors) anchorMark(this.ctx, map.px(a.x), map.py(a.y), theme.fg, theme.bg);
  }

  // A coil of fixed pixel size between two points: the spring reads as a spring at any zoom. A
  // short one (a link of a 32-link rope is 10-20 px) keeps its zigzag, with fewer, smaller turns.
  drawCoil(path, x1, y1, x2, y2) {
    if (!finite(x1, y1, x2, y2)) return;
    const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy);
    path.lift();
    path.point(x1, y1);
    if (len >= 5) {
      const ux = dx / len, uy = dy / len, nx = -uy, ny = ux;
      const lead = Math.min(8, len * 0.1), amp = Math.min(5, Math.max(3, len * 0.25));
      const body = len - 2 * lead;
      const turns = Math.max(1, Math.min(10, Math.round(body / 6)));
      path.point(x1 + ux * lead, y1 + uy * lead);
      for (let i = 1; i <= turns * 2; ++i) {
        const s = lead + (body * (i - 0.5)) / (turns * 2);
        const side = i % 2 ? amp : -amp;
        path.point(x1 + ux * s + nx * side, y1 + uy * s + ny * side);
      }
      path.point(x2 - ux * lead, y2 - uy * lead);
    }
    path.point(x2, y2);
  }

  // Each connector between its two ends (an anchor or one of `bodies`, by index): springs and
  // compliant links as coils in one path, rigid links (compliance 0) as bars in another, twice
  // the stroke's width. Two strokes at most.
  // A mesh of many connectors (a built cloth: 112 links) draws its springs as straight lines:
  // coils in every lane were half the frame's time in the canvas's raster (Commit 923 ms of 2 s
  // on the 8 × 8 cloth with three lanes), and a mesh of coils reads as noise, not as springs.
  drawSprings(map, bodies) {
    const point = (end) => (end.anchor !== undefined ? this.scene.anchors[end.anchor] : bodies[end.body]);
    const ctx = this.ctx;
    const straight = this.scene.springs.length > maxCoils;
    // Past maxCoils the springs and rods are drawn solid, the lane's dash kept for its trail: a
    // dashed path of hundreds of segments is what the canvas's raster spent its time on (the
    // 256-rod grid with eight lanes: 88 ms of CPU a frame, 5–22 ms without the dashes), and
    // colour and marker still tell the lanes apart.
    if (straight) ctx.setLineDash([]);
    let path = new ClippedPath(ctx, map.rect), rods = false;
    for (const s of this.scene.springs) {
      if (isRod(s)) { rods = true; continue; }
      const a = point(s.from), b = point(s.to);
      if (!a || !b) continue;
      if (straight) {
        path.lift();
        path.point(map.px(a.x), map.py(a.y));
        path.point(map.px(b.x), map.py(b.y));
      } else {
        this.drawCoil(path, map.px(a.x), map.py(a.y), map.px(b.x), map.py(b.y));
      }
    }
    ctx.stroke();
    if (!rods) return;
    const width = ctx.lineWidth;
    ctx.lineWidth = width * 2;
    ctx.lineCap = 'round';
    path = new ClippedPath(ctx, map.rect);
    for (const s of this.scene.springs) {
      if (!isRod(s)) continue;
      const a = point(s.from), b = point(s.to);
      if (!a || !b) continue;
      path.lift();
      path.point(map.px(a.x), map.py(a.y));
      path.point(map.px(b.x), map.py(b.y));
    }
    ctx.stroke();
    ctx.lineWidth = width;
    ctx.lineCap = 'butt';
  }

  // The bodies' marks on a linked system of many short links (a 32-link rope) shrink so that
  // neighbours stay apart: at most 0.4 of the shortest link on screen (7 px and 10 px rings else).
  markSize(map, size) {
    const link = this.shortestLink;
    return Number.isFinite(link) ? Math.max(2.5, Math.min(size, 0.4 * link * map.scale)) : size;
  }

  // Fixed attracting bodies: a dot of fixed pixel size (their collision radius when that is
  // larger on screen) with a faint halo, named when the canvas has room.
  drawCentres(map, theme) {
    const ctx = this.ctx, r = map.rect;
    for (const c of this.scene.centres) {
      const x = map.px(c.x), y = map.py(c.y);
      if (!finite(x, y)) continue;
      const radius = Math.min(Math.max(7, c.radius * map.scale), Math.max(r.w, r.h));
      ctx.fillStyle = theme.fg;
      ctx.globalAlpha = 0.12;
      ctx.beginPath(); ctx.arc(x, y, radius + 7, 0, Math.PI * 2); ctx.fill();
      ctx.globalAlpha = 1;
      ctx.beginPath(); ctx.arc(x, y, radius, 0, Math.PI * 2); ctx.fill();
      if (r.w < 260) continue;
      // The name on the side away from where the bodies start (their motion is mostly there),
      // unless it would leave the canvas on that side.
      ctx.font = `11px ${theme.font}`;
      ctx.textBaseline = 'top';
      const label = t_('central mass'), width = ctx.measureText(label).width;
      const startX = this.scene.bodies.reduce((sum, b) => sum + b.start.x, 0) / Math.max(1, this.scene.bodies.length);
      const fitsLeft = x - radius - 6 - width > r.x + 4, fitsRight = x + radius + 6 + width < r.x + r.w - 4;
      const left = fitsLeft && (startX >= c.x || !fitsRight);
      ctx.textAlign = left ? 'right' : 'left';
      this.haloText(label, left ? x - radius - 6 : x + radius + 6, y + radius * 0.5 + 2, theme.muted, theme);
    }
  }

  // The reference's whole recorded path (from the plot history), for motions that close on
  // themselves: the orbit's ellipse.
  drawReferencePath(map, theme) {
    const sim = this.sim, layout = sim.layout.history;
    if (!this.scene.referencePath || sim.historyCount < 2 || !layout.has('reference_x')) return;
    const ctx = this.ctx;
    ctx.strokeStyle = theme.ghost;
    ctx.lineWidth = 1.25;
    ctx.setLineDash([5, 4]);
    ctx.globalAlpha = 0.6;
    for (let b = 0; b < sim.bodies; ++b) {
      const x = layout.series(sim.history, 'reference_x', 0, b), y = layout.series(sim.history, 'reference_y', 0, b);
      const path = new ClippedPath(ctx, map.rect);
      for (let i = 0; i < sim.historyCount; ++i) path.point(map.px(x(i)), map.py(y(i)));
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);
  }

  // The exact or reference bodies as dashed rings with their springs, and their trails when given.
  drawReference(map, reference, theme, trails, alone = false) {
    const ctx = this.ctx;
    ctx.strokeStyle = theme.ghost;
    ctx.lineWidth = alone ? 2 : 1.5;
    ctx.setLineDash(alone ? [] : [4, 4]);
    ctx.globalAlpha = alone ? 0.9 : 0.55;
    this.drawSprings(map, reference);
    ctx.setLineDash([4, 4]);
    ctx.lineWidth = 1.5;
    if (trails && !this.scene.referencePath) this.drawTrails(map, trails, theme.ghost, 0.5);
    ctx.globalAlpha = 1;
    ctx.beginPath();
    const size = this.markSize(map, 10);
    addRings(ctx, map, reference, Math.max(size, 5), this.markedBody(size));
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);
  }

  // Trails (one lane's bodies, or the reference's), older segments fainter: a few bands, each
  // one path over every trail and one stroke, rather than a stroke per segment or per body.
  // Each trail is its newest part within this.trailCapPx (set by the View for the frame).
  drawTrails(map, all, colour, alpha) {
    const ctx = this.ctx, bands = 4;
    const trails = this.trailBody >= 0 ? [all[this.trailBody]] : all;
    const starts = trails.map((trail) => (trail.length < 2 ? 0 : trailStart(trail.length, (i) => trail[i], map, this.trailCapPx ?? Infinity)));
    ctx.strokeStyle = colour;
    for (let band = 0; band < bands; ++band) {
      ctx.globalAlpha = alpha * this.alpha() * ((band + 1) / bands);
      const path = new ClippedPath(ctx, map.rect);
      let any = false;
      trails.forEach((trail, k) => {
        const start = starts[k];
        if (trail.length - start < 2) return;
        const per = Math.ceil((trail.length - 1 - start) / bands);
        const from = start + band * per, to = Math.min(trail.length - 1, from + per);
        if (from >= to) return;
        path.lift();
        for (let i = from; i <= to; ++i) path.point(map.px(trail[i].x), map.py(trail[i].y));
        any = true;
      });
      if (any) ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }

  drawGravity(rect, theme) {
    const g = this.scene.gravity;
    if (!g) return;
    const ctx = this.ctx;
    const size = Math.hypot(g.x, g.y);
    const x = rect.x + 26, y = rect.y + rect.h - 34;
    ctx.strokeStyle = theme.fg;
    ctx.fillStyle = theme.fg;
    ctx.lineWidth = 2;
    if (size > 0) {
      const ux = g.x / size, uy = -g.y / size;  // screen y points down
      const ex = x + ux * 18, ey = y + uy * 18;
      ctx.beginPath();
      ctx.moveTo(x - ux * 18, y - uy * 18); ctx.lineTo(ex, ey);
      ctx.stroke();
      ctx.beginPath();
      ctx.moveTo(ex + ux * 6, ey + uy * 6);
      ctx.lineTo(ex - uy * 5, ey + ux * 5);
      ctx.lineTo(ex + uy * 5, ey - ux * 5);
      ctx.closePath();
      ctx.fill();
    }
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(`g = ${formatValue(size)} m/s²`, x + 22, y);
  }

  // Text with a halo in the background colour: readable where a path runs under it.
  haloText(text, x, y, colour, theme) {
    const ctx = this.ctx;
    ctx.strokeStyle = theme.bg;
    ctx.lineWidth = 3;
    ctx.lineJoin = 'round';
    ctx.strokeText(text, x, y);
    ctx.fillStyle = colour;
    ctx.fillText(text, x, y);
  }

  // The time shown (scrubbing: the timeline's, marked as such).
  drawTime(rect, t, theme, scrubbing) {
    const ctx = this.ctx;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'top';
    ctx.font = `600 13px ${theme.font}`;
    const time = Number.isFinite(t) ? fixed(t, 2) : '—';
    const text = scrubbing ? t_('timeline: t = {t} s', { t: time }) : `t = ${time} s`;
    // Above the plot, at its right end: inside, it would cover the first row's edge marker, and
    // the frame buttons (full screen, Methods) hang over the plot's top right corner.
    ctx.textBaseline = 'bottom';
    const right = rect.x + rect.w, timeWidth = ctx.measureText(text).width;
    this.haloText(text, right, rect.y - 2, theme.fg, theme);
    ctx.font = `11px ${theme.font}`;
    this.captions = { time: { x: right - timeWidth, y: rect.y - 15, w: timeWidth, h: 13 }, caption: null };
    if (this.layoutNow === 'lanes') return;
    // The overlay: what the dashed ring is, left of the time, when the line has room for it
    // (else the legend's row for the exact or reference motion says it).
    const label = this.scene.reference.kind === 'exact' ? t_('exact') : t_('reference');
    const what = this.scene.referencePath ? t_('dashed ring and path: {label}', { label }) : t_('dashed ring: {label}', { label });
    const follows = this.followBody ? ` · ${t_('following {name}', { name: this.names[this.sim.laneIds.indexOf(this.followBody.id)] })}`
      : this.following ? ` · ${t_('view follows')}` : '';
    const end = right - timeWidth - 12;
    const caption = [`${what}${follows}`, what].find((c) => end - ctx.measureText(c).width >= rect.x + 2);
    if (!caption) return;
    this.haloText(caption, end, rect.y - 3, theme.muted, theme);
    const w = ctx.measureText(caption).width;
    this.captions.caption = { text: caption, x: end - w, y: rect.y - 14, w, h: 12 };
  }
}
