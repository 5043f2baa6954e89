// The canvas: the chosen system drawn through a CoordinateMap, from the core's description of
// it (SimulationHandle.scene: bodies, anchors, springs by the indices of their ends, central
// bodies, gravity, the launch line, whether the reference's path is drawn). Each lane's body (or
// bodies) in its own colour and marker with a fading trail, the exact or reference motion as a
// ghost, springs as coils, axes and a scale bar. Knows no scenario, never computes physics, and
// never hands a non-finite number to the canvas.
import { CoordinateMap, ClippedPath, axisTicks, offsetName, niceStep, tickLabel, formatValue, fixed } from './coords.js';
// t_: the page's texts (web/language.js); t is a time here.
import { t as t_ } from './language.js';
import { laneStyle, drawMarker } from './palette.js';
import { motionLine, coincidentLanes, outside, distanceText } from './lanes.js';
import { MotionHistory } from './motion-history.js';
import { cursorTime, cursorSource } from './cursor.js';
import { isHidden, isFaded, highlightedLane } from './lane-focus.js';

const trailLength = 90;     // frames
const fullMargin = { left: 50, right: 10, top: 20, bottom: 24 };
// Embedded frames can be 300 × 200: tighter margins leave the motion most of the canvas.
const embedMargin = { left: 38, right: 6, top: 16, bottom: 20 };

const finite = (...v) => v.every(Number.isFinite);
const arrowPx = 40;        // a velocity arrow at the fastest speed seen
const fadedAlpha = 0.25;   // lanes not highlighted, while one is
const rowHeight = 46;      // a lane's row in the lanes layout (CSS pixels), when the window allows
const layoutRowKey = (m) => (m.row ? m.row.y : 0);
// A pixel near enough the map's rectangle to draw a marker at (a far one is never handed to
// the canvas: lines there would be dashed along their whole length).
const nearRect = (map, x, y, pad = 24) => finite(x, y) && x > map.rect.x - pad && x < map.rect.x + map.rect.w + pad
  && y > map.rect.y - pad && y < map.rect.y + map.rect.h + pad;

// Adds a ring of 10 px around each point near the map's box to the current path (the exact or
// reference bodies' marks, one path for all of them).
// only: the one body to ring (-1: every one).
function addRings(ctx, map, points, radius = 10, only = -1) {
  for (let b = 0; b < points.length; ++b) {
    if (only >= 0 && b !== only) continue;
    const p = points[b];
    const x = map.px(p.x), y = map.py(p.y);
    if (!nearRect(map, x, y)) continue;
    ctx.moveTo(x + radius, y);
    ctx.arc(x, y, radius, 0, Math.PI * 2);
  }
}

// The one body whose trail a chain of links draws (-1: every body's): on three bodies or more
// joined by links, the trails of all of them (32 on a rope) hide the rope itself, so only the
// body farthest from the anchors along the links leaves one: a chain's end, a bridge's middle.
function trailBody(scene) {
  const links = scene.springs.filter((s) => s.kind === 'link');
  if (links.length === 0 || scene.bodies.length < 3) return -1;
  const hops = new Array(scene.bodies.length).fill(Infinity);
  let front = [];
  for (const s of links) {
    for (const [a, b] of [[s.from, s.to], [s.to, s.from]]) {
      if (a.anchor !== undefined && b.body !== undefined && hops[b.body] > 1) { hops[b.body] = 1; front.push(b.body); }
    }
  }
  while (front.length) {
    const next = [];
    for (const s of links) {
      for (const [a, b] of [[s.from, s.to], [s.to, s.from]]) {
        if (a.body === undefined || b.body === undefined || !front.includes(a.body) || hops[b.body] <= hops[a.body] + 1) continue;
        hops[b.body] = hops[a.body] + 1;
        next.push(b.body);
      }
    }
    front = next;
  }
  let best = scene.bodies.length - 1;
  hops.forEach((h, b) => { if (Number.isFinite(h) && h > (Number.isFinite(hops[best]) ? hops[best] : -1)) best = b; });
  return best;
}

// A rigid link (compliance 0): drawn as a bar, not a coil.
const isRod = (connector) => connector.kind === 'link' && connector.compliance === 0;

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
    // The user's choices: 'auto' (lanes for a one-dimensional motion), 'overlay' or 'lanes'; a
    // box zoomed or panned to (null: fitted); a body followed ({id, body}); velocity arrows.
    this.layoutChoice = 'auto';
    this.manual = null;
    this.followBody = null;
    this.arrows = false;
    this.dragPreview = null;  // {lane, body, x, y, vx, vy} while a body is dragged
    this.staticLayer = document.createElement('canvas');
    this.staticKey = '';
    this.staticDraws = 0;
    this.sameAs = [];
    this.scratch = { x: 0, y: 0, vx: 0, vy: 0 };
    this.drawn = null;  // the last frame's pieces, for the report
    this.line = null;
    this.markerSize = 7;  // a body's marker (smaller in the short rows of a small frame or many lanes)
    this.names = [];
  }

  // A new simulation: fresh trails, and a view fitted to its expected motion as far as it is
  // known (all of it for a closed form; see refit for the rest).
  setSimulation(sim, names = sim.laneIds) {
    this.sim = sim;
    this.scene = sim.scene;
    this.names = names;
    // The shortest link's rest length (m), which sizes the bodies' marks; Infinity without links.
    this.shortestLink = Math.min(...sim.scene.springs.filter((s) => s.kind === 'link').map((s) => s.rest));
    this.trailBody = trailBody(sim.scene);
    this.clearTrails();
    this.history = new MotionHistory(sim.laneIds.length, sim.bodies);
    this.scrubLanes = sim.laneIds.map((id, l) => ({
      id, index: l, diverged: false, bodies: Array.from({ length: sim.bodies }, () => ({ x: 0, y: 0, vx: 0, vy: 0 })),
    }));
    this.speedMax = 0;
    this.manual = null;
    if (this.followBody && !sim.laneIds.includes(this.followBody.id)) this.followBody = null;
    this.line = motionLine(sim.scene, sim.bounds);
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
      this.line = motionLine(this.scene, this.sim.bounds);
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
    // Lanes are not taken in: one that leaves the expected motion gets an edge marker (its
    // distance), and the view keeps hugging the motion that matters.
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
  // The height of the band at the plot's top that the frame buttons cover (public/style.css's
  // .frame-buttons: 30 px buttons 4 px below the top, 26 px in a frame).
  buttonBand() { return this.fill ? 30 : 36; }

  fitHeight(width) {
    const aspect = this.aspect;
    // With the cloud panel under it (compact), the motion leaves it room.
    // On a wide screen the canvas's tools, the timeline and the export buttons under it (about
    // 400 px with the header and transport) stay in view too.
    const room = window.innerWidth >= 1280 ? window.innerHeight - 400 : Infinity;
    const tallest = this.compact ? Math.max(220, Math.min(window.innerHeight * 0.42, 480))
      : Math.max(280, Math.min(window.innerHeight * 0.62, room, 680));
    const m = this.margin;
    // The lanes layout: a row per lane shown.
    const rows = this.sim ? this.sim.laneIds.filter((id) => !isHidden(id)).length : 1;
    const wanted = this.layoutShown() === 'lanes' ? rows * rowHeight + this.buttonBand() + m.top + m.bottom
      : (width - m.left - m.right) * aspect + m.top + m.bottom;
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

  // The layout drawn: lanes (a row per integrator) for a one-dimensional motion unless the
  // user chose the overlay; the overlay always while the X-ray draws over the view.
  layoutShown() {
    if (this.overlay || this.line === null) return 'overlay';
    return this.layoutChoice === 'overlay' ? 'overlay' : 'lanes';
  }

  // The box shown: the user's (zoom, pan) or the fitted one, centred on the followed body.
  shownBox(lanes) {
    if (this.overlay && this.overlay.box) return this.overlay.box;
    const box = this.manual || this.box;
    if (!this.followBody) return box;
    const lane = lanes.find((l) => l.id === this.followBody.id);
    const p = lane && lane.bodies[this.followBody.body];
    if (!p || !finite(p.x, p.y)) return box;
    const hw = (box.maxX - box.minX) / 2, hh = (box.maxY - box.minY) / 2;
    return { minX: p.x - hw, maxX: p.x + hw, minY: p.y - hh, maxY: p.y + hh };
  }

  // The lanes as drawn: the state, or (scrubbing the timeline) each lane at the cursor's time
  // from the recorded history, into buffers made once per simulation.
  lanesAt(snapshot, time) {
    if (time === null || !this.history || this.history.count === 0) return snapshot.lanes;
    const i = this.history.indexAt(time);
    if (i < 0) return snapshot.lanes;
    this.scrubIndex = i;
    this.scrubLanes.forEach((lane, l) => {
      lane.diverged = snapshot.lanes[l].diverged && snapshot.lanes[l].divergedAt <= this.history.time(i);
      lane.bodies.forEach((p, b) => this.history.body(i, l, b, p));
    });
    return this.scrubLanes;
  }

  draw(snapshot, theme) {
    if (!this.sim) return;
    this.history.record(snapshot);
    this.recordTrails(snapshot);
    this.refit(snapshot);
    this.follow(snapshot);
    // After the refit: a box known better at t = 0 changes the canvas's shape in this frame.
    this.resize();
    this.trackSpeed(snapshot);
    const cursor = cursorTime();
    let scrubbing = cursor !== null && cursorSource() === 'timeline' && cursor < snapshot.t;
    this.scrubIndex = -1;
    const lanes = this.lanesAt(snapshot, scrubbing ? cursor : null);
    if (this.scrubIndex < 0) scrubbing = false;
    const layout = this.layoutShown();
    const margin = layout === 'lanes' ? { ...this.margin, left: 8 } : this.margin;
    const rect = {
      x: margin.left, y: margin.top,
      w: Math.max(10, this.cssWidth - margin.left - margin.right),
      h: Math.max(10, this.cssHeight - margin.top - margin.bottom),
    };
    const box = this.shownBox(lanes);
    const shownLanes = lanes.filter((lane) => !isHidden(lane.id));
    // The overlay's map, or one per row; the axes follow the first (all share x).
    const maps = new Array(lanes.length).fill(null);
    let map;
    if (layout === 'lanes') {
      // The rows start under the band the frame buttons (full screen, Methods) take at the top right.
      const top = rect.y + this.buttonBand(), rows = Math.max(1, shownLanes.length), rowH = (rect.y + rect.h - top) / rows;
      this.markerSize = rowH < rowHeight ? 5 : 7;
      const line = this.line;
      shownLanes.forEach((lane, r) => {
        // The line at the row's lower part: its name sits above it.
        // A short row (a small frame, many lanes) keeps up to 14 px for its name while the line's
        // 7 px below fit, with smaller bodies.
        const band = rowH < rowHeight ? Math.min(14, Math.max(rowH * 0.35, rowH - 14)) : Math.min(14, rowH * 0.35);
        const row = { x: rect.x, y: top + r * rowH + band, w: rect.w, h: rowH - band };
        maps[lane.index] = new CoordinateMap({ minX: box.minX, maxX: box.maxX, minY: line - 1e-9, maxY: line + 1e-9 }, row);
        maps[lane.index].row = { y: top + r * rowH, h: rowH };
      });
      map = new CoordinateMap({ minX: box.minX, maxX: box.maxX, minY: line - 1e-9, maxY: line + 1e-9 }, rect);
    } else {
      this.markerSize = 7;
      map = new CoordinateMap(box, rect);
      lanes.forEach((lane) => { maps[lane.index] = map; });
    }
    this.map = map;
    this.maps = maps;
    this.layoutNow = layout;
    const ctx = this.ctx;
    this.drawStatic(map, maps, shownLanes, layout, theme);
    ctx.setTransform(this.pixelRatio, 0, 0, this.pixelRatio, 0, 0);
    ctx.font = `11px ${theme.font}`;
    ctx.save();
    ctx.beginPath();
    ctx.rect(rect.x, rect.y, rect.w, rect.h);
    ctx.clip();
    // Coincident lanes (within a pixel over the drawn trail), so identical results are named.
    // "Same as" means the same result (velocity Verlet and leapfrog, say), not merely close on
    // screen: within a fiftieth of a pixel along the whole trail.
    coincidentLanes(lanes, this.trails, 0.02 / map.scale, this.sameAs);
    const highlighted = highlightedLane();
    const order = shownLanes.filter((lane) => lane.id !== highlighted);
    const top = shownLanes.find((lane) => lane.id === highlighted);
    if (top) order.push(top);
    if (layout === 'overlay') {
      this.drawReferencePath(map, theme);
      // Alone (the reference of rigid links, with no lane that runs) it is the motion: drawn solid.
      const alone = lanes.every((lane) => lane.stopReason === 'needs_compliance');
      this.drawReference(map, snapshot.reference, theme, scrubbing ? null : this.refTrail, alone);
    } else if (!scrubbing) {
      this.drawReferenceRings(maps, shownLanes, snapshot.reference, theme);
    }
    for (const lane of order) {
      const m = maps[lane.index];
      ctx.globalAlpha = 1;
      this.faded = isFaded(lane.id);
      // A lane that never started (a force-based method on rigid links) draws nothing: the
      // legend says why, and a cross on every body of a chain would hide the reference.
      if (lane.stopReason === 'needs_compliance') continue;
      if (lane.diverged) this.drawStopped(m, lane, theme, scrubbing);
      else this.drawLane(m, lane, theme, scrubbing);
    }
    this.faded = false;
    if (cursor !== null && !scrubbing) this.drawCursorMarkers(maps, shownLanes, cursor, theme);
    if (this.dragPreview) this.drawDragPreview(maps, theme);
    if (this.overlay) this.overlay.draw(ctx, map, theme);
    ctx.restore();
    const markers = this.drawEdgeMarkers(maps, order, rect, theme);
    if (layout === 'lanes') this.drawRowNotes(maps, shownLanes, theme);
    else this.drawSameNotes(rect, shownLanes, theme);
    this.drawGravity(rect, theme);
    this.drawTime(rect, scrubbing ? this.history.time(this.scrubIndex) : snapshot.t, theme, scrubbing);
    // What was drawn, kept for the report (built only when asked: nothing per frame).
    this.drawn = { snapshot, map, rect, layout, shownLanes, order, markers, scrubTime: scrubbing ? cursor : null, cursorMarkers: this.cursorMarkers };
    this.cursorMarkers = false;
  }

  // The lanes layout: the exact or reference bodies as a dashed ring in every row, one path.
  drawReferenceRings(maps, shownLanes, reference, theme) {
    const ctx = this.ctx;
    ctx.strokeStyle = theme.ghost;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([4, 4]);
    ctx.globalAlpha = 0.6;
    ctx.beginPath();
    for (const lane of shownLanes) {
      const m = maps[lane.index], size = this.markSize(m, this.markerSize * 1.4);
      addRings(ctx, m, reference, Math.max(size, 5), this.markedBody(size));
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);
  }

  // The fastest speed seen in this run (exact or reference, and lanes still running): the
  // velocity arrows' scale, fixed between frames so their lengths compare.
  trackSpeed(snapshot) {
    const take = (p) => {
      const v = Math.hypot(p.vx, p.vy);
      if (Number.isFinite(v) && v > this.speedMax) this.speedMax = v;
    };
    snapshot.reference.forEach(take);
    if (this.speedMax === 0) for (const lane of snapshot.lanes) if (!lane.diverged) lane.bodies.forEach(take);
  }

  // Pixels per m/s of a velocity arrow: the fastest speed seen is arrowPx long.
  arrowScale(map) {
    return this.speedMax > 0 ? arrowPx / this.speedMax : map.scale * 0.5;
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

  // The lanes layout's frame: vertical grid lines and x ticks shared by every row, a rule
  // between rows, and each row's integrator name in its colour.
  drawRows(map, maps, shownLanes, theme) {
    const ctx = this.ctx, r = map.rect, v = map.visible();
    const step = niceStep(v.maxX - v.minX, Math.max(3, Math.round(r.w / 90)));
    ctx.lineWidth = 1;
    ctx.strokeStyle = theme.grid;
    ctx.beginPath();
    for (let x = Math.ceil(v.minX / step) * step; x <= v.maxX; x += step) {
      const px = Math.round(map.px(x)) + 0.5;
      ctx.moveTo(px, r.y); ctx.lineTo(px, r.y + r.h);
    }
    for (const lane of shownLanes.slice(1)) {
      const y = Math.round(maps[lane.index].row.y) + 0.5;
      ctx.moveTo(r.x, y); ctx.lineTo(r.x + r.w, y);
    }
    ctx.stroke();
    const xAxis = axisTicks(v.minX, v.maxX, step);
    const xName = offsetName('x', 'm', xAxis.offset, step);
    ctx.fillStyle = theme.muted;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    let lastLabel = r.x + Math.max(30, ctx.measureText(xName).width + 24);
    for (const t of xAxis.ticks) {
      const px = map.px(t.value);
      if (px - lastLabel < 40 || px > r.x + r.w - 14) continue;
      ctx.fillText(t.label, px, r.y + r.h + 5);
      lastLabel = px;
    }
    ctx.strokeStyle = theme.muted;
    ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
    ctx.fillStyle = theme.fg;
    ctx.textAlign = 'left';
    ctx.fillText(xName, r.x + 2, r.y + r.h + 5);
    ctx.textBaseline = 'bottom';
    const label = this.scene.reference.kind === 'exact' ? t_('exact') : t_('reference');
    ctx.fillText(r.w < 420 ? t_('one row per integrator') : `${t_('one row per integrator')} · ${t_('dashed ring: {label}', { label })}`, r.x, r.y - 3);
  }

  // Each row's name in its colour, and "same as …" when it coincides with an earlier row. The
  // name keeps clear of the row's motion (the line the bodies, trails and coils move on): in a
  // narrow row a shorter form, in a row too short for it none (the legend names the rows).
  drawRowNotes(maps, shownLanes, theme) {
    const ctx = this.ctx, short = shownLanes.length && maps[shownLanes[0].index].row.h < rowHeight;
    ctx.font = `600 ${short ? 10 : 11}px ${theme.font}`;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    this.rowNames = [];
    for (const lane of shownLanes) {
      const m = maps[lane.index], style = laneStyle(lane.id, theme.scheme);
      const same = this.sameAs[lane.index], name = this.names[lane.index];
      const forms = same >= 0 ? [`${name} · ${t_('same as {name}', { name: this.names[same] })}`, `${name} = ${this.names[same]}`, name] : [name];
      const line = m.py(this.line), x = m.rect.x + 4, y = m.row.y + (short ? 1 : 2), h = short ? 11 : 13;
      // Above the bodies, coils and trails (the rings around the exact bodies may touch it, and
      // the anchor's hatch lies under its halo), and inside the row.
      const clear = (w) => y + h <= line - this.markerSize - 1 && x + w <= m.rect.x + m.rect.w - 4;
      const text = forms.find((f) => clear(ctx.measureText(f).width));
      this.rowNames.push({ id: lane.id, text: text ?? null, box: text ? { x, y, w: ctx.measureText(text).width, h } : null, line });
      if (!text) continue;
      ctx.globalAlpha = isFaded(lane.id) ? fadedAlpha : 1;
      this.haloText(text, x, y, style.colour, theme);
    }
    ctx.globalAlpha = 1;
    ctx.font = `11px ${theme.font}`;
  }

  // The overlay's notes on coincident lanes (drawn on top of each other, so one would hide the
  // other): "RK4 same as Velocity Verlet", at the top left.
  drawSameNotes(rect, shownLanes, theme) {
    const ctx = this.ctx;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    let y = rect.y + 6, shown = 0, more = 0;
    for (const lane of shownLanes) {
      const same = this.sameAs[lane.index];
      if (same < 0) continue;
      if (shown === 4 || y + 14 > rect.y + rect.h) { more += 1; continue; }
      this.haloText(`${this.names[lane.index]} ${t_('same as {name}', { name: this.names[same] })}`, rect.x + 6, y, laneStyle(lane.id, theme.scheme).colour, theme);
      y += 14;
      shown += 1;
    }
    if (more) this.haloText(t_('and {n} more the same', { n: more }), rect.x + 6, y, theme.muted, theme);
  }

  // A lane's body that is out of view: a marker at the view's edge pointing at it, in the
  // lane's colour, with its distance from the view ("12 m →"). Markers on one edge stack.
  drawEdgeMarkers(maps, order, rect, theme) {
    const ctx = this.ctx, markers = [], stacked = new Map();
    ctx.font = `600 11px ${theme.font}`;
    for (const lane of order) {
      const m = maps[lane.index];
      const v = m.visible(), style = laneStyle(lane.id, theme.scheme);
      lane.bodies.forEach((p, b) => {
        const trail = this.trails[lane.index][b];
        const at = finite(p.x, p.y) ? p : trail[trail.length - 1];
        const out = at ? outside(at, v) : null;
        if (!out) return;
        const text = distanceText(out.distance, out.arrow);
        markers.push({ id: lane.id, body: b, text, distance: out.distance });
        const r = m.rect;
        const side = `${Math.sign(out.dx)},${Math.sign(out.dy)},${layoutRowKey(m)}`;
        const n = stacked.get(side) || 0;
        stacked.set(side, n + 1);
        let x = Math.min(Math.max(m.px(at.x), r.x + 8), r.x + r.w - 8);
        let y = Math.min(Math.max(m.py(at.y), r.y + 8), r.y + r.h - 8);
        if (out.dx !== 0) y = Math.min(Math.max(y + n * 15 * (y > r.y + r.h / 2 ? -1 : 1), r.y + 8), r.y + r.h - 8);
        else x = Math.min(Math.max(x + n * 70 * (x > r.x + r.w / 2 ? -1 : 1), r.x + 8), r.x + r.w - 8);
        const len = Math.hypot(out.dx, out.dy), ux = out.dx / len, uy = -out.dy / len;
        ctx.globalAlpha = isFaded(lane.id) ? fadedAlpha : 1;
        ctx.fillStyle = style.colour;
        ctx.strokeStyle = theme.bg;
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.moveTo(x + ux * 7, y + uy * 7);
        ctx.lineTo(x - ux * 5 - uy * 6, y - uy * 5 + ux * 6);
        ctx.lineTo(x - ux * 5 + uy * 6, y - uy * 5 - ux * 6);
        ctx.closePath();
        ctx.fill();
        ctx.stroke();
        const width = ctx.measureText(text).width;
        ctx.textBaseline = 'middle';
        ctx.textAlign = 'left';
        // The text on the inner side of the arrow.
        const tx = ux > 0.3 ? x - 10 - width : ux < -0.3 ? x + 10 : Math.min(Math.max(x - width / 2, r.x + 2), r.x + r.w - width - 2);
        const ty = Math.abs(ux) > 0.3 ? y : uy > 0 ? y - 14 : y + 14;
        this.haloText(text, tx, ty, style.colour, theme);
      });
    }
    ctx.globalAlpha = 1;
    ctx.font = `11px ${theme.font}`;
    return markers;
  }

  // The plots' time cursor (a hover): every lane's bodies at that time, faint.
  drawCursorMarkers(maps, shownLanes, time, theme) {
    const i = this.history.indexAt(time);
    if (i < 0) return;
    const ctx = this.ctx, p = this.scratch;
    ctx.globalAlpha = 0.45;
    for (const lane of shownLanes) {
      const style = laneStyle(lane.id, theme.scheme), m = maps[lane.index];
      for (let b = 0; b < this.sim.bodies; ++b) {
        this.history.body(i, lane.index, b, p);
        const x = m.px(p.x), y = m.py(p.y);
        if (!nearRect(m, x, y)) continue;
        ctx.strokeStyle = style.colour;
        ctx.lineWidth = 2;
        drawMarker(ctx, style.marker, x, y, this.markSize(m, this.markerSize));
        ctx.stroke();
      }
    }
    ctx.globalAlpha = 1;
    this.cursorMarkers = true;
  }

  // A body being dragged to a new start: a ring where it would start and its start velocity.
  drawDragPreview(maps, theme) {
    const d = this.dragPreview, m = maps[d.lane];
    if (!m) return;
    const ctx = this.ctx, x = m.px(d.x), y = m.py(d.y);
    if (!nearRect(m, x, y)) return;
    ctx.strokeStyle = theme.fg;
    ctx.lineWidth = 2;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.arc(x, y, 10, 0, Math.PI * 2);
    ctx.stroke();
    ctx.setLineDash([]);
    const s = this.arrowScale(m);
    this.drawArrow(x, y, d.vx * s, -d.vy * s, theme.fg);
  }

  // An arrow of (dx, dy) pixels from (x, y), its length capped at 3 × arrowPx.
  drawArrow(x, y, dx, dy, colour) {
    const len = Math.hypot(dx, dy);
    if (!(len > 2) || !Number.isFinite(len)) return;
    const k = Math.min(1, 3 * arrowPx / len), ux = dx / len, uy = dy / len;
    const ex = x + dx * k, ey = y + dy * k;
    const ctx = this.ctx;
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x, y); ctx.lineTo(ex - ux * 5, ey - uy * 5);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(ex, ey);
    ctx.lineTo(ex - ux * 8 - uy * 4, ey - uy * 8 + ux * 4);
    ctx.lineTo(ex - ux * 8 + uy * 4, ey - uy * 8 - ux * 4);
    ctx.closePath();
    ctx.fill();
  }

  // What the tests and window.stepwise.debug.view() read of the picture just drawn.
  get report() {
    if (!this.drawn || !this.sim) return null;
    const { snapshot, map, rect, layout, shownLanes, order, markers, scrubTime, cursorMarkers } = this.drawn;
    const v = map.visible(), b = { ...this.sim.bounds };
    // How much of the canvas the exact or reference motion, with the anchors and central bodies
    // that must stay in view, spans in each direction.
    for (const p of [...this.scene.anchors, ...this.scene.centres]) {
      b.minX = Math.min(b.minX, p.x); b.maxX = Math.max(b.maxX, p.x);
      b.minY = Math.min(b.minY, p.y); b.maxY = Math.max(b.maxY, p.y);
    }
    const spanX = finite(b.minX, b.maxX) ? (b.maxX - b.minX) / (v.maxX - v.minX) : 0;
    const spanY = layout === 'lanes' || !finite(b.minY, b.maxY) ? 0 : (b.maxY - b.minY) / (v.maxY - v.minY);
    return {
      layout, line: this.line, layoutChoice: this.layoutChoice, settling: this.settling,
      canvas: { w: this.cssWidth, h: this.cssHeight }, rect: { ...rect }, visible: v, scale: map.scale,
      motionFraction: { x: spanX * rect.w / this.cssWidth, y: spanY * rect.h / this.cssHeight },
      rows: layout === 'lanes' ? shownLanes.map((l, r) => ({ id: l.id, name: this.names[l.index], sameAs: this.sameAs[l.index] >= 0 ? this.names[this.sameAs[l.index]] : null, drawn: this.rowNames?.[r] ?? null })) : [],
      sameAs: shownLanes.filter((l) => this.sameAs[l.index] >= 0).map((l) => ({ id: l.id, sameAs: snapshot.lanes[this.sameAs[l.index]].id })),
      edgeMarkers: markers, captions: this.captions ? { ...this.captions } : null,
      scrubTime, cursorMarkers: Boolean(cursorMarkers), manual: this.manual !== null,
      followBody: this.followBody ? { ...this.followBody } : null, arrows: this.arrows,
      staticDraws: this.staticDraws, historySamples: this.history.count,
      // The lanes in the order drawn (a highlighted one last, on top) and those drawn faded.
      drawOrder: order.map((l) => l.id), faded: order.filter((l) => isFaded(l.id)).map((l) => l.id),
      bodiesDrawn: shownLanes.map((l) => ({ id: l.id, bodies: l.bodies.map((p) => ({ x: p.x, y: p.y })) })),
    };
  }

  // --- What the pointer and the view's tools do (web/view-tools.js calls these). ---

  // The world point under a canvas pixel (CSS pixels), by the map of lane index l (its row).
  worldAt(px, py, l = -1) {
    const m = (l >= 0 && this.maps && this.maps[l]) || this.map;
    return { x: (px - m.ox) / m.scale, y: (m.oy - py) / m.scale };
  }

  // The body (or, with velocity arrows on, the tip of its arrow) under a pixel:
  // {lane (index), body, tip}, or null.
  hitBody(px, py, lanes) {
    if (!this.maps) return null;
    let best = null, bestD = 14;
    for (const lane of lanes) {
      if (isHidden(lane.id)) continue;
      const m = this.maps[lane.index];
      if (!m) continue;
      const scale = this.arrowScale(m);
      lane.bodies.forEach((p, b) => {
        const x = m.px(p.x), y = m.py(p.y);
        if (!finite(x, y)) return;
        const d = Math.hypot(px - x, py - y);
        if (d < bestD) { bestD = d; best = { lane: lane.index, body: b, tip: false }; }
        if (!this.arrows) return;
        const tip = Math.hypot(px - (x + p.vx * scale), py - (y - p.vy * scale));
        if (tip < bestD && Math.hypot(p.vx, p.vy) * scale > 8) { bestD = tip; best = { lane: lane.index, body: b, tip: true }; }
      });
    }
    return best;
  }

  // Zooms by `factor` (> 1: in) about a canvas pixel; the view stops fitting itself.
  zoomAt(factor, px, py) {
    if (!this.map || !(factor > 0)) return;
    const box = this.manual || this.shownBox(this.sim.snapshot.lanes);
    const w = this.worldAt(px, py);
    const f = 1 / factor;
    const next = { minX: w.x + (box.minX - w.x) * f, maxX: w.x + (box.maxX - w.x) * f, minY: w.y + (box.minY - w.y) * f, maxY: w.y + (box.maxY - w.y) * f };
    // Neither a point nor the whole universe: within a million times the motion's size.
    const span = next.maxX - next.minX, size = Math.max(this.base.maxX - this.base.minX, this.base.maxY - this.base.minY, 1e-9);
    if (!(span > size * 1e-6 && span < size * 1e6)) return;
    this.manual = next;
  }

  // Moves the view by (dx, dy) CSS pixels (the picture follows the pointer).
  panBy(dx, dy) {
    if (!this.map) return;
    const box = this.manual || this.shownBox(this.sim.snapshot.lanes), s = this.map.scale;
    this.manual = { minX: box.minX - dx / s, maxX: box.maxX - dx / s, minY: box.minY + dy / s, maxY: box.maxY + dy / s };
  }

  // Back to the fitted view (following nothing).
  resetView() {
    this.manual = null;
    this.followBody = null;
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
    ctx.fillText(t_('y = 0 (launch height; no ground collision)'), r.x + 6, y + 3);
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
  drawSprings(map, bodies) {
    const point = (end) => (end.anchor !== undefined ? this.scene.anchors[end.anchor] : bodies[end.body]);
    const ctx = this.ctx;
    let path = new ClippedPath(ctx, map.rect), rods = false;
    for (const s of this.scene.springs) {
      if (isRod(s)) { rods = true; continue; }
      const a = point(s.from), b = point(s.to);
      if (a && b) this.drawCoil(path, map.px(a.x), map.py(a.y), map.px(b.x), map.py(b.y));
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

  // The one body marked when the links are too short on screen for a mark on each (marks under
  // 4 px would hide the coils between them): the body that leaves the trail (-1: every body).
  markedBody(size) { return size < 4 ? this.trailBody : -1; }

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
  drawTrails(map, all, colour, alpha) {
    const ctx = this.ctx, bands = 4;
    const trails = this.trailBody >= 0 ? [all[this.trailBody]] : all;
    ctx.strokeStyle = colour;
    for (let band = 0; band < bands; ++band) {
      ctx.globalAlpha = alpha * this.alpha() * ((band + 1) / bands);
      const path = new ClippedPath(ctx, map.rect);
      let any = false;
      for (const trail of trails) {
        if (trail.length < 2) continue;
        const per = Math.ceil((trail.length - 1) / bands);
        const from = band * per, to = Math.min(trail.length - 1, from + per);
        if (from >= to) continue;
        path.lift();
        for (let i = from; i <= to; ++i) path.point(map.px(trail[i].x), map.py(trail[i].y));
        any = true;
      }
      if (any) ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }

  // A lane's trail: the recorded one, or (scrubbing) the history's samples up to the time shown.
  drawLaneTrails(map, lane, colour, alpha, scrubbing) {
    if (!scrubbing) {
      this.drawTrails(map, this.trails[lane.index], colour, alpha);
      return;
    }
    const ctx = this.ctx, p = this.scratch, end = this.scrubIndex;
    ctx.strokeStyle = colour;
    ctx.globalAlpha = alpha * this.alpha();
    for (let b = 0; b < this.sim.bodies; ++b) {
      if (this.trailBody >= 0 && b !== this.trailBody) continue;
      const path = new ClippedPath(ctx, map.rect);
      for (let i = Math.max(0, end - trailLength); i <= end; ++i) {
        this.history.body(i, lane.index, b, p);
        path.point(map.px(p.x), map.py(p.y));
      }
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }

  // 1, or faded while another lane is highlighted.
  alpha() { return this.faded ? fadedAlpha : 1; }

  drawLane(map, lane, theme, scrubbing) {
    const ctx = this.ctx;
    const style = laneStyle(lane.id, theme.scheme);
    ctx.lineWidth = 2;
    ctx.setLineDash(style.dash);
    this.drawLaneTrails(map, lane, style.colour, 0.8, scrubbing);
    ctx.lineWidth = 1.25;
    ctx.globalAlpha = 0.7 * this.alpha();
    ctx.strokeStyle = style.colour;
    this.drawSprings(map, lane.bodies);
    ctx.globalAlpha = this.alpha();
    ctx.setLineDash([]);
    const scale = this.arrowScale(map), size = this.markSize(map, this.markerSize), only = this.markedBody(size);
    for (let b = 0; b < lane.bodies.length; ++b) {
      if (only >= 0 && b !== only) continue;
      const p = lane.bodies[b];
      const x = map.px(p.x), y = map.py(p.y);
      // A body outside the view is not drawn: an edge marker points at it (drawEdgeMarkers).
      if (!nearRect(map, x, y)) continue;
      if (this.arrows) this.drawArrow(x, y, p.vx * scale, -p.vy * scale, style.colour);
      ctx.fillStyle = style.colour;
      ctx.strokeStyle = theme.bg;
      ctx.lineWidth = 2;
      drawMarker(ctx, style.marker, x, y, only >= 0 ? 5 : size);
      ctx.fill();
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }

  // A stopped lane (diverged, or fallen into a central body): its trail up to the stop and a
  // small cross at its last finite position, when that is in view.
  drawStopped(map, lane, theme, scrubbing) {
    const ctx = this.ctx, r = map.rect;
    const style = laneStyle(lane.id, theme.scheme);
    ctx.lineWidth = 2;
    ctx.setLineDash(style.dash);
    this.drawLaneTrails(map, lane, style.colour, 0.5, scrubbing);
    ctx.setLineDash([]);
    ctx.strokeStyle = style.colour;
    ctx.lineWidth = 2.5;
    ctx.globalAlpha = this.alpha();
    ctx.beginPath();
    for (const p of lane.bodies) {
      const x = map.px(p.x), y = map.py(p.y);
      if (!finite(x, y) || x < r.x || x > r.x + r.w || y < r.y || y > r.y + r.h) continue;
      ctx.moveTo(x - 5, y - 5); ctx.lineTo(x + 5, y + 5);
      ctx.moveTo(x + 5, y - 5); ctx.lineTo(x - 5, y + 5);
    }
    ctx.stroke();
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
