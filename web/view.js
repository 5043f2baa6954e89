// The canvas: the chosen system drawn through a CoordinateMap, from the core's description of
// it (SimulationHandle.scene: bodies, anchors, springs by the indices of their ends, central
// bodies, gravity, the launch line, whether the reference's path is drawn). Each lane's body (or
// bodies) in its own colour and marker with a fading trail, the exact or reference motion as a
// ghost, springs as coils, axes and a scale bar. Knows no scenario, never computes physics, and
// never hands a non-finite number to the canvas.
import { CoordinateMap, ClippedPath, axisTicks, offsetName, niceStep, tickLabel, formatValue } from './coords.js';
import { laneStyle, drawMarker } from './palette.js';

const trailLength = 90;     // frames
const fullMargin = { left: 50, right: 10, top: 20, bottom: 24 };
// Embedded frames can be 300 × 200: tighter margins leave the motion most of the canvas.
const embedMargin = { left: 38, right: 6, top: 16, bottom: 20 };

const finite = (...v) => v.every(Number.isFinite);

export class View {
  // fill: the canvas's size comes from the page's CSS (an embedded frame fills its box);
  // otherwise the view sets the canvas's height to fit the motion.
  constructor(canvas, { fill = false } = {}) {
    this.canvas = canvas;
    this.fill = fill;
    this.margin = fill ? embedMargin : fullMargin;
    this.ctx = canvas.getContext('2d');
    this.sim = null;
    this.scene = null;
    this.trails = [];
    this.refTrail = [];
    this.box = null;
    this.pixelRatio = 1;
    this.compact = false;  // a shorter canvas: the cloud panel sits under it
    // Drawn over the motion (the stage X-ray, web/xray.js): {box (the world box to show, or
    // null: the view's own), draw(ctx, map, theme)}, or null.
    this.overlay = null;
  }

  // A new simulation: fresh trails, and a view fitted to its expected motion as far as it is
  // known (all of it for a closed form; see refit for the rest).
  setSimulation(sim) {
    this.sim = sim;
    this.scene = sim.scene;
    this.clearTrails();
    this.boundsVersion = sim.boundsVersion;
    this.base = this.baseBox();
    this.following = false;
    this.checkFollowing(sim.snapshot);
    this.box = { ...this.base };
    this.settling = false;
    this.keepShape();
  }

  // Height over width of the canvas's motion area, from the box known before the run starts.
  keepShape() {
    const b = this.base;
    this.aspect = this.following ? 1 : (b.maxY - b.minY) / Math.max(b.maxX - b.minX, 1e-12);
  }

  // Follow the mechanism when its whole path would shrink it to a dot. Decided again as more of
  // the path is known, but only ever turned on: a view that stopped following would jump back.
  checkFollowing(snapshot) {
    if (this.following) return;
    const motion = Math.max(this.base.maxX - this.base.minX, this.base.maxY - this.base.minY);
    this.following = this.scene.size > 0 && motion > 8 * this.scene.size;
    if (this.following) this.base = this.followBox(snapshot);
  }

  // More of the motion is known (the probe of an rk45 reference went further): the base box
  // grows to take it in, with a quarter of its size to spare on each side that grew, so a motion
  // revealed bit by bit moves the view now and then, never every frame; the drawn box eases
  // there over a few frames (follow). It never shrinks during a run.
  refit(snapshot) {
    if (this.sim.boundsVersion === this.boundsVersion) return;
    this.boundsVersion = this.sim.boundsVersion;
    if (this.following) return;
    const wanted = this.baseBox(), b = this.base;
    if (snapshot.steps === 0) {
      // Nothing has moved yet: fit what is known exactly, at once (no room, no easing).
      this.base = wanted;
      this.box = { ...wanted };
      this.checkFollowing(snapshot);
      this.keepShape();
      return;
    }
    if (wanted.minX >= b.minX && wanted.maxX <= b.maxX && wanted.minY >= b.minY && wanted.maxY <= b.maxY) return;
    const room = 0.25 * Math.max(wanted.maxX - wanted.minX, wanted.maxY - wanted.minY);
    this.base = {
      minX: wanted.minX < b.minX ? wanted.minX - room : b.minX, maxX: wanted.maxX > b.maxX ? wanted.maxX + room : b.maxX,
      minY: wanted.minY < b.minY ? wanted.minY - room : b.minY, maxY: wanted.maxY > b.maxY ? wanted.maxY + room : b.maxY,
    };
    this.checkFollowing(snapshot);
  }

  // A window a few mechanism sizes wide, centred on the exact (or reference) bodies.
  followBox(snapshot) {
    const ref = snapshot.reference.filter((p) => finite(p.x, p.y));
    const cx = ref.reduce((s, p) => s + p.x, 0) / Math.max(ref.length, 1);
    const cy = ref.reduce((s, p) => s + p.y, 0) / Math.max(ref.length, 1);
    let spread = this.scene.size;
    for (const p of ref) spread = Math.max(spread, 2 * Math.hypot(p.x - cx, p.y - cy));
    const half = 0.9 * spread;
    return { minX: cx - half, maxX: cx + half, minY: cy - half, maxY: cy + half };
  }

  clearTrails() {
    this.trails = this.sim ? this.sim.laneIds.map(() => Array.from({ length: this.sim.bodies }, () => [])) : [];
    this.refTrail = this.sim ? Array.from({ length: this.sim.bodies }, () => []) : [];
  }

  baseBox() {
    const { minX, maxX, minY, maxY } = this.sim.bounds;
    const box = { minX, maxX, minY, maxY };
    const grow = (p) => {
      if (!finite(p.x, p.y)) return;
      box.minX = Math.min(box.minX, p.x); box.maxX = Math.max(box.maxX, p.x);
      box.minY = Math.min(box.minY, p.y); box.maxY = Math.max(box.maxY, p.y);
    };
    if (!finite(minX, maxX, minY, maxY)) Object.assign(box, { minX: -1, maxX: 1, minY: -1, maxY: 1 });
    this.scene.anchors.forEach(grow);
    this.scene.centres.forEach(grow);
    this.scene.bodies.forEach((b) => grow(b.start));
    if (this.scene.launchLine) grow({ x: box.minX, y: 0 });
    // Some room around the motion, and never a box of zero size.
    const size = Math.max(box.maxX - box.minX, box.maxY - box.minY, 1e-9);
    const pad = size * 0.08;
    box.minX -= pad; box.maxX += pad; box.minY -= pad; box.maxY += pad;
    return box;
  }

  // Grows the view (smoothly, never shrinking during a run) to the base box when that grew, and
  // to follow a lane that leaves the expected motion, up to half the expected size on every side
  // (further out a body is pinned to the edge): the expected motion keeps at least half of the
  // view. The reference's own bodies are always taken in, should the probe lag behind them.
  // settling: the box has not arrived yet (a paused page draws again until it has).
  follow(snapshot) {
    const before = { ...this.box };
    if (this.following) {
      this.base = this.followBox(snapshot);
      this.box = { ...this.base };
    }
    const b = this.base;
    const w = b.maxX - b.minX, h = b.maxY - b.minY, size = Math.max(w, h);
    const grow = 0.5 * size;
    const limit = { minX: b.minX - grow, maxX: b.maxX + grow, minY: b.minY - grow, maxY: b.maxY + grow };
    const target = {
      minX: Math.min(this.box.minX, b.minX), maxX: Math.max(this.box.maxX, b.maxX),
      minY: Math.min(this.box.minY, b.minY), maxY: Math.max(this.box.maxY, b.maxY),
    };
    const pad = 0.05 * size;
    const takeIn = (p, bound) => {
      if (!finite(p.x, p.y)) return;
      target.minX = Math.max(bound.minX, Math.min(target.minX, p.x - pad));
      target.maxX = Math.min(bound.maxX, Math.max(target.maxX, p.x + pad));
      target.minY = Math.max(bound.minY, Math.min(target.minY, p.y - pad));
      target.maxY = Math.min(bound.maxY, Math.max(target.maxY, p.y + pad));
    };
    for (const lane of snapshot.lanes) {
      if (lane.diverged) continue;
      for (const p of lane.bodies) takeIn(p, limit);
    }
    const anywhere = { minX: -Infinity, maxX: Infinity, minY: -Infinity, maxY: Infinity };
    if (!this.following) for (const p of snapshot.reference) takeIn(p, anywhere);
    const rate = this.following ? 1 : 0.15;  // a moving window cannot lag behind
    let moving = 0;
    for (const k of ['minX', 'maxX', 'minY', 'maxY']) {
      this.box[k] += (target[k] - this.box[k]) * rate;
      // Against the last drawn box: a moving window starts each frame from its base box.
      moving = Math.max(moving, Math.abs(this.box[k] - before[k]));
    }
    this.settling = moving > 1e-4 * size;
  }

  // The canvas is as tall as the motion needs at this width (a spring moving along x gets a
  // short, wide view), between a minimum and most of the window's height.
  // The shape is the one fitted before the run started (setSimulation, refit at t = 0): a box
  // that grows during the run is fitted into the same canvas (the map keeps equal scales), so
  // the page's layout never shifts under the reader, nor under a pointer about to click.
  fitHeight(width) {
    const aspect = this.aspect;
    // With the cloud panel under it (compact), the motion leaves it room.
    const tallest = this.compact ? Math.max(220, Math.min(window.innerHeight * 0.42, 480))
      : Math.max(280, Math.min(window.innerHeight * 0.62, 680));
    const m = this.margin;
    const wanted = (width - m.left - m.right) * aspect + m.top + m.bottom;
    // Never shorter than this: on a wide screen a flat view would leave the column half empty.
    const shortest = this.compact ? 200
      : window.innerWidth >= 820 ? Math.min(Math.max(260, window.innerHeight * 0.5), 440) : 260;
    return Math.round(Math.min(Math.max(wanted, shortest), tallest));
  }

  resize() {
    const ratio = window.devicePixelRatio || 1;
    let rect = this.canvas.getBoundingClientRect();
    const height = this.fill ? rect.height : this.fitHeight(rect.width);
    if (Math.abs(height - rect.height) > 1) {
      this.canvas.style.height = `${height}px`;
      rect = this.canvas.getBoundingClientRect();
    }
    const w = Math.max(1, Math.round(rect.width * ratio)), h = Math.max(1, Math.round(rect.height * ratio));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    this.pixelRatio = ratio;
    this.cssWidth = rect.width;
    this.cssHeight = rect.height;
  }

  recordTrails(snapshot) {
    snapshot.lanes.forEach((lane, l) => {
      if (lane.diverged) return;  // stopped: its last state stays, the trail ends there
      lane.bodies.forEach((p, b) => push(this.trails[l][b], p));
    });
    snapshot.reference.forEach((p, b) => push(this.refTrail[b], p));
    function push(trail, p) {
      const last = trail[trail.length - 1];
      if (last && last.x === p.x && last.y === p.y) return;
      if (!finite(p.x, p.y)) return;
      trail.push({ x: p.x, y: p.y });
      if (trail.length > trailLength) trail.shift();
    }
  }

  draw(snapshot, theme, hidden) {
    if (!this.sim) return;
    this.resize();
    this.recordTrails(snapshot);
    this.refit(snapshot);
    this.follow(snapshot);
    const ctx = this.ctx;
    ctx.setTransform(this.pixelRatio, 0, 0, this.pixelRatio, 0, 0);
    ctx.fillStyle = theme.bg;
    ctx.fillRect(0, 0, this.cssWidth, this.cssHeight);
    const margin = this.margin;
    const rect = {
      x: margin.left, y: margin.top,
      w: Math.max(10, this.cssWidth - margin.left - margin.right),
      h: Math.max(10, this.cssHeight - margin.top - margin.bottom),
    };
    const map = new CoordinateMap((this.overlay && this.overlay.box) || this.box, rect);
    this.map = map;
    ctx.font = `11px ${theme.font}`;
    this.drawAxes(map, theme);
    ctx.save();
    ctx.beginPath();
    ctx.rect(rect.x, rect.y, rect.w, rect.h);
    ctx.clip();
    this.drawLaunchLine(map, theme);
    this.drawReferencePath(map, theme);
    this.drawReference(map, snapshot, theme);
    this.drawCentres(map, theme);
    snapshot.lanes.forEach((lane, l) => {
      if (hidden.has(lane.id)) return;
      if (lane.diverged) this.drawStopped(map, lane, l, theme);
      else this.drawLane(map, lane, l, theme);
    });
    this.drawAnchors(map, theme);
    if (this.overlay) this.overlay.draw(ctx, map, theme);
    ctx.restore();
    this.drawGravity(rect, theme);
    this.drawTime(rect, snapshot, theme);
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
    for (let x = Math.ceil(v.minX / step) * step; x <= v.maxX; x += step) {
      const px = Math.round(map.px(x)) + 0.5;
      ctx.moveTo(px, r.y); ctx.lineTo(px, r.y + r.h);
    }
    for (let y = Math.ceil(v.minY / step) * step; y <= v.maxY; y += step) {
      const py = Math.round(map.py(y)) + 0.5;
      ctx.moveTo(r.x, py); ctx.lineTo(r.x + r.w, py);
    }
    ctx.stroke();
    // Tick labels, leaving the bottom-left and top-left corners to the axis names. Far from
    // the origin they are relative to an offset the axis name states (coords.js axisTicks).
    const xAxis = axisTicks(v.minX, v.maxX, step);
    const yAxis = axisTicks(v.minY, v.maxY, step, (label) => ctx.measureText(label).width <= this.margin.left - 7);
    const xName = offsetName('x', 'm', xAxis.offset, step), yName = offsetName('y', 'm', yAxis.offset, step);
    let lastLabel = r.x + Math.max(30, ctx.measureText(xName).width + 24);
    for (const t of xAxis.ticks) {
      const px = map.px(t.value);
      if (px - lastLabel < 40 || px > r.x + r.w - 14) continue;
      ctx.fillText(t.label, px, r.y + r.h + 5);
      lastLabel = px;
    }
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
    ctx.fillStyle = theme.ground;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText('y = 0 (launch height; no ground collision)', r.x + 6, y + 3);
  }

  drawAnchors(map, theme) {
    const ctx = this.ctx;
    for (const a of this.scene.anchors) {
      const x = map.px(a.x), y = map.py(a.y);
      if (!finite(x, y)) continue;
      ctx.fillStyle = theme.fg;
      ctx.beginPath();
      ctx.moveTo(x, y); ctx.lineTo(x - 8, y - 12); ctx.lineTo(x + 8, y - 12); ctx.closePath();
      ctx.fill();
      ctx.strokeStyle = theme.fg;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(x - 12, y - 12); ctx.lineTo(x + 12, y - 12);
      for (let k = -12; k < 12; k += 5) { ctx.moveTo(x + k, y - 12); ctx.lineTo(x + k + 5, y - 18); }
      ctx.stroke();
      ctx.fillStyle = theme.bg;
      ctx.beginPath(); ctx.arc(x, y, 2.5, 0, Math.PI * 2); ctx.fill();
    }
  }

  // A coil of fixed pixel size between two points: the spring reads as a spring at any zoom.
  drawCoil(map, x1, y1, x2, y2) {
    const ctx = this.ctx;
    if (!finite(x1, y1, x2, y2)) return;
    const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy);
    const path = new ClippedPath(ctx, map.rect);
    path.point(x1, y1);
    if (len >= 24) {
      const ux = dx / len, uy = dy / len, nx = -uy, ny = ux;
      const lead = 8, turns = 10, amp = 5;
      const body = len - 2 * lead;
      path.point(x1 + ux * lead, y1 + uy * lead);
      for (let i = 1; i <= turns * 2; ++i) {
        const s = lead + (body * (i - 0.5)) / (turns * 2);
        const side = i % 2 ? amp : -amp;
        path.point(x1 + ux * s + nx * side, y1 + uy * s + ny * side);
      }
      path.point(x2 - ux * lead, y2 - uy * lead);
    }
    path.point(x2, y2);
    ctx.stroke();
  }

  // Each spring between its two ends: an anchor or one of `bodies`, by index.
  drawSprings(map, bodies) {
    const point = (end) => (end.anchor !== undefined ? this.scene.anchors[end.anchor] : bodies[end.body]);
    for (const s of this.scene.springs) {
      const a = point(s.from), b = point(s.to);
      if (a && b) this.drawCoil(map, map.px(a.x), map.py(a.y), map.px(b.x), map.py(b.y));
    }
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
      const label = 'central mass', width = ctx.measureText(label).width;
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

  drawReference(map, snapshot, theme) {
    const ctx = this.ctx;
    ctx.strokeStyle = theme.ghost;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([4, 4]);
    ctx.globalAlpha = 0.55;
    this.drawSprings(map, snapshot.reference);
    if (!this.scene.referencePath) for (const trail of this.refTrail) this.drawTrail(map, trail, theme.ghost, 0.5);
    ctx.globalAlpha = 1;
    for (const p of snapshot.reference) {
      const x = map.px(p.x), y = map.py(p.y);
      if (!finite(x, y)) continue;
      ctx.beginPath();
      ctx.arc(x, y, 10, 0, Math.PI * 2);
      ctx.stroke();
    }
    ctx.setLineDash([]);
  }

  drawTrail(map, trail, colour, alpha) {
    const ctx = this.ctx;
    if (trail.length < 2) return;
    ctx.strokeStyle = colour;
    // Older segments fainter: a few bands rather than one stroke per segment.
    const bands = 6, per = Math.ceil((trail.length - 1) / bands);
    for (let band = 0; band < bands; ++band) {
      const from = band * per, to = Math.min(trail.length - 1, from + per);
      if (from >= to) break;
      ctx.globalAlpha = alpha * ((band + 1) / bands);
      const path = new ClippedPath(ctx, map.rect);
      for (let i = from; i <= to; ++i) path.point(map.px(trail[i].x), map.py(trail[i].y));
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }

  drawLane(map, lane, index, theme) {
    const ctx = this.ctx;
    const style = laneStyle(lane.id, theme.scheme);
    ctx.lineWidth = 2;
    ctx.setLineDash(style.dash);
    for (const trail of this.trails[index]) this.drawTrail(map, trail, style.colour, 0.8);
    ctx.lineWidth = 1.25;
    ctx.globalAlpha = 0.7;
    ctx.strokeStyle = style.colour;
    this.drawSprings(map, lane.bodies);
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);
    const r = map.rect;
    for (const p of lane.bodies) {
      let x = map.px(p.x), y = map.py(p.y);
      if (!finite(x, y)) continue;
      // A body outside the view is pinned to its edge (drawn smaller) so it is never lost.
      const inside = x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
      x = Math.min(Math.max(x, r.x + 6), r.x + r.w - 6);
      y = Math.min(Math.max(y, r.y + 6), r.y + r.h - 6);
      ctx.fillStyle = style.colour;
      ctx.strokeStyle = theme.bg;
      ctx.lineWidth = 2;
      drawMarker(ctx, style.marker, x, y, inside ? 7 : 4);
      ctx.fill();
      ctx.stroke();
    }
  }

  // A stopped lane (diverged, or fallen into a central body): its trail up to the stop and a
  // small cross at its last finite position, when that is in view.
  drawStopped(map, lane, index, theme) {
    const ctx = this.ctx, r = map.rect;
    const style = laneStyle(lane.id, theme.scheme);
    ctx.lineWidth = 2;
    ctx.setLineDash(style.dash);
    for (const trail of this.trails[index]) this.drawTrail(map, trail, style.colour, 0.5);
    ctx.setLineDash([]);
    ctx.strokeStyle = style.colour;
    ctx.lineWidth = 2.5;
    for (const p of lane.bodies) {
      const x = map.px(p.x), y = map.py(p.y);
      if (!finite(x, y) || x < r.x || x > r.x + r.w || y < r.y || y > r.y + r.h) continue;
      ctx.beginPath();
      ctx.moveTo(x - 5, y - 5); ctx.lineTo(x + 5, y + 5);
      ctx.moveTo(x + 5, y - 5); ctx.lineTo(x - 5, y + 5);
      ctx.stroke();
    }
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

  drawTime(rect, snapshot, theme) {
    const ctx = this.ctx;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'top';
    ctx.font = `600 13px ${theme.font}`;
    this.haloText(`t = ${snapshot.t.toFixed(2)} s`, rect.x + rect.w - 8, rect.y + 6, theme.fg, theme);
    ctx.font = `11px ${theme.font}`;
    if (rect.w < 320) return;  // a small frame or a phone: the time only (the legend names the ghost)
    const label = this.scene.reference.kind === 'exact' ? 'exact' : 'reference';
    const what = this.scene.referencePath ? `dashed ring and path: ${label}` : `dashed ring: ${label}`;
    this.haloText(`${what}${this.following ? ' · view follows' : ''}`, rect.x + rect.w - 8, rect.y + 24, theme.muted, theme);
  }
}
