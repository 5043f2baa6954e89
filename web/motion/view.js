// The canvas: the chosen system drawn through a CoordinateMap, from the core's description of
// it (SimulationHandle.scene: bodies, anchors, springs by the indices of their ends, central
// bodies, gravity, the launch line, whether the reference's path is drawn). Each lane's body (or
// bodies) in its own colour and marker with a fading trail, the exact or reference motion as a
// ghost, springs as coils, axes and a scale bar. Knows no scenario, never computes physics, and
// never hands a non-finite number to the canvas.
import { CoordinateMap } from './coords.js';
import { MeasuredBox } from '../common/dom.js';
import { coincidentLanes } from './lanes.js';
import { MotionHistory } from '../engine/motion-history.js';
import { cursorTime, cursorSource } from './cursor.js';
import { isHidden, isFaded, highlightedLane } from './lane-focus.js';
import { Camera } from './camera.js';
import { LaneDrawing } from './lane-drawing.js';
import { finite, fadedAlpha, rowHeight, trailLength, trailCapPx } from './scene-drawing.js';

// The shortest row of the lanes layout (CSS px): its name (11 px) above its line and bodies.
const minLaneRow = 28;

// How far below the frame buttons the overlay's fitted motion starts (CSS px): a body's marker (7 px) and 1.
const overlayClearance = 8;

const fullMargin = { left: 50, right: 10, top: 20, bottom: 24 };
// Embedded frames can be 300 × 200: tighter margins leave the motion most of the canvas.
const embedMargin = { left: 38, right: 6, top: 16, bottom: 20 };

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

export class View extends LaneDrawing {
  // fill: the canvas's size comes from the page's CSS (an embedded frame fills its box);
  // otherwise the view sets the canvas's height to fit the motion.
  constructor(canvas, { fill = false } = {}) {
    super();
    this.canvas = canvas;
    this.box = new MeasuredBox(canvas);
    // The buttons over the canvas's top right (full screen, Methods, Edit scene): what the view
    // draws for a reader to see or tap keeps clear of them (buttonsArea).
    this.buttons = canvas.parentElement ? canvas.parentElement.querySelector('.frame-buttons') : null;
    this.buttonsBox = this.buttons ? new MeasuredBox(this.buttons) : null;
    this.buttonsAt = null;
    this.fill = fill;
    this.margin = fill ? embedMargin : fullMargin;
    this.ctx = canvas.getContext('2d');
    this.sim = null;
    this.scene = null;
    this.trails = [];
    this.refTrail = [];
    this.camera = new Camera();
    this.pixelRatio = 1;
    this.compact = false;  // a shorter canvas: the cloud panel sits under it
    // Drawn over the motion (the stage X-ray, web/xray/xray.js): {box (the world box to show, or
    // null: the view's own), draw(ctx, map, theme)}, or null.
    this.overlay = null;
    // The user's choices: 'auto' (lanes for a one-dimensional motion), 'overlay' or 'lanes';
    // velocity arrows (the zoom, pan and the body followed are the camera's).
    this.layoutChoice = 'auto';
    this.arrows = false;
    this.dragPreview = null;  // {lane, body, x, y, vx, vy} while a body is dragged
    this.heldHeight = null;   // CSS pixels, while the height is held (holdHeight)
    this.staticLayer = document.createElement('canvas');
    this.staticKey = '';
    this.staticDraws = 0;
    this.sameAs = [];
    this.scratch = { x: 0, y: 0, vx: 0, vy: 0 };
    this.drawn = null;  // the last frame's pieces, for the report
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
    this.camera.setSimulation(sim);
  }

  // What the camera holds, for the drawing, the tools and the report (set through the methods below).
  get line() { return this.camera.line; }
  get base() { return this.camera.base; }
  get following() { return this.camera.following; }
  get settling() { return this.camera.settling; }
  get manual() { return this.camera.manual; }
  get followBody() { return this.camera.followBody; }

  // --- What the page and the view's tools set (web/motion/motion-panel.js, web/app/main.js, web/motion/view-tools.js, web/xray/xray.js). ---

  // A shorter canvas: the cloud panel sits under it.
  setCompact(on) { this.compact = on; }
  // The canvas's size from the page's CSS (an embedded frame, full screen), not fitted to the motion.
  setFill(on) { this.fill = on; }
  // The layout: 'auto', 'overlay' or 'lanes'.
  setLayoutChoice(choice) { this.layoutChoice = choice; }
  // The body to follow ({id, body}), or null.
  setFollowBody(body) { this.camera.setFollowBody(body); }
  setArrows(on) { this.arrows = on; }
  // A dragged body's start ({lane, body, x, y, vx, vy}), or null.
  setDragPreview(preview) { this.dragPreview = preview; }
  // The canvas keeps the height it has (the scene editor: each edit is a new simulation, whose
  // fitted shape would otherwise move the picture under the pointer); false fits it again.
  holdHeight(on) { this.heldHeight = on ? this.box.size().height : null; }
  // Drawn over the motion (the stage X-ray): {box, draw(ctx, map, theme)}; clearOverlay(o) takes
  // it off when it is still o.
  setOverlay(overlay) { this.overlay = overlay; }
  clearOverlay(overlay) { if (this.overlay === overlay) this.overlay = null; }

  clearTrails() {
    this.trails = this.sim ? this.sim.laneIds.map(() => Array.from({ length: this.sim.bodies }, () => [])) : [];
    this.refTrail = this.sim ? Array.from({ length: this.sim.bodies }, () => []) : [];
  }

  // The canvas is as tall as the motion needs at this width (a spring moving along x gets a
  // short, wide view), between a minimum and most of the window's height.
  // The shape is the one fitted before the run started (setSimulation, refit at t = 0): a box
  // that grows during the run is fitted into the same canvas (the map keeps equal scales), so
  // the page's layout never shifts under the reader, nor under a pointer about to click.
  // The height of the band at the plot's top that the frame buttons cover (public/style.css's
  // .frame-buttons: 30 px buttons 4 px below the top, 26 px in a frame).
  buttonBand() { return this.fill ? 30 : 36; }

  // The band at the top of the motion's rectangle (from `top`, CSS px) that the overlay's fit leaves
  // to the frame buttons: down to their measured bottom and a body's marker more, so no body or
  // anchor is fitted under Full screen, Methods or Edit scene (issue 31: the cloth's right pinned
  // corner, the editor's default anchor on a phone). Before they are measured, the CSS's band;
  // none when no button shows.
  overlayBand(top) {
    if (!this.buttons) return 0;
    if (!this.buttonsAt) return this.buttonBand();
    const area = this.buttonsAt.area;
    return area ? Math.max(0, area.y1 + overlayClearance - top) : 0;
  }

  // Where the overlay's box is fitted within `rect` so that nothing of it (a body's marker more)
  // lies under the frame buttons (issue 31: Full screen, Methods and Edit scene covered the cloth's
  // right pinned corner and, on a phone, the editor's default anchor): rect itself when the box
  // fitted there keeps clear of them, else the larger fit of the part below them and the part
  // left of them.
  overlayFit(box, rect) {
    const area = this.buttonsArea;
    if (!area) return rect;
    const c = overlayClearance;
    const clear = (fit) => {
      const m = new CoordinateMap(box, rect, fit);
      return m.px(box.maxX) + c <= area.x0 || m.px(box.minX) - c >= area.x1 || m.py(box.minY) + c <= area.y0 || m.py(box.maxY) - c >= area.y1;
    };
    if (clear(rect)) return rect;
    const below = { x: rect.x, y: Math.max(rect.y, area.y1 + c), w: rect.w, h: rect.y + rect.h - Math.max(rect.y, area.y1 + c) };
    const left = { x: rect.x, y: rect.y, w: Math.min(rect.w, area.x0 - c - rect.x), h: rect.h };
    const scale = (fit) => (fit.w > 10 && fit.h > 10 ? new CoordinateMap(box, rect, fit).scale : 0);
    const best = scale(left) > scale(below) ? left : below;
    return scale(best) > 0 ? best : rect;
  }

  fitHeight(width) {
    const aspect = this.camera.aspect;
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
      : (width - m.left - m.right) * aspect + this.overlayBand(m.top) + m.top + m.bottom;
    // Never shorter than this: on a wide screen a flat view would leave the column half empty.
    const shortest = this.compact ? 200
      : window.innerWidth >= 820 ? Math.min(Math.max(260, window.innerHeight * 0.5), 440) : 260;
    // The lanes layout never squeezes a row below minLaneRow, where its name no longer fits above
    // its line (all twenty methods were 9 px rows without names): the page scrolls instead.
    const floor = this.layoutShown() === 'lanes' ? rows * minLaneRow + this.buttonBand() + m.top + m.bottom : 0;
    return Math.round(Math.max(Math.min(Math.max(wanted, shortest), tallest), floor));
  }

  resize() {
    const ratio = window.devicePixelRatio || 1;
    // The canvas's box, measured only when it may have changed (MeasuredBox): measured every
    // frame it forced a layout each frame (13 % of the main thread with eight lanes of a chain).
    let rect = this.box.size();
    const height = this.fill ? rect.height : this.heldHeight ?? this.fitHeight(rect.width);
    if (Math.abs(height - rect.height) > 1) {
      this.canvas.style.height = `${height}px`;
      this.box.invalidate();
      rect = this.box.size();
    }
    const w = Math.max(1, Math.round(rect.width * ratio)), h = Math.max(1, Math.round(rect.height * ratio));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    this.pixelRatio = ratio;
    this.cssWidth = rect.width;
    this.cssHeight = rect.height;
    this.measureButtons();
  }

  // The frame buttons' box in the canvas's CSS pixels, {x0, y0, x1, y1}, or null when none show:
  // read again only when the canvas or the buttons changed size (a button shown or hidden).
  measureButtons() {
    if (!this.buttonsBox) return;
    const stale = this.buttonsBox.stale || this.buttonsAt === null || this.buttonsAt.width !== this.cssWidth;
    this.buttonsBox.size();
    if (!stale) return;
    const b = this.buttons.getBoundingClientRect(), c = this.canvas.getBoundingClientRect();
    const area = b.width > 0 && b.height > 0 ? { x0: b.left - c.left, y0: b.top - c.top, x1: b.right - c.left, y1: b.bottom - c.top } : null;
    this.buttonsAt = { width: this.cssWidth, area };
  }

  // The frame buttons' box (see measureButtons), or null.
  get buttonsArea() { return this.buttonsAt ? this.buttonsAt.area : null; }

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
    this.camera.refit(snapshot);
    this.camera.follow(snapshot);
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
    const box = this.camera.shownBox(lanes, this.overlay);
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
      // A box of the overlay's own (the editor holds the picture as it was, the X-ray its stages)
      // fills the rectangle; the view's own keeps clear of the buttons over the canvas.
      map = new CoordinateMap(box, rect, this.overlay && this.overlay.box ? rect : this.overlayFit(box, rect));
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
    // The trails drawn (every lane's and the reference's) share the frame's length of trail.
    this.trailCapPx = trailCapPx((order.length + 1) * (this.trailBody >= 0 ? 1 : this.sim.bodies));
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
    if (layout === 'lanes') {
      this.drawRowNotes(maps, shownLanes, theme);
      this.sameNotesBox = this.launchLabelBox = null;
    } else {
      this.sameNotesBox = this.drawSameNotes(rect, shownLanes, theme);
      this.launchLabelBox = this.drawLaunchLabel(map, theme, this.sameNotesBox);
    }
    this.drawGravity(rect, theme);
    this.drawTime(rect, scrubbing ? this.history.time(this.scrubIndex) : snapshot.t, theme, scrubbing);
    // What was drawn, kept for the report (built only when asked: nothing per frame).
    this.drawn = { snapshot, map, rect, layout, shownLanes, order, markers, scrubTime: scrubbing ? cursor : null, cursorMarkers: this.cursorMarkers };
    this.cursorMarkers = false;
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
      canvas: { w: this.cssWidth, h: this.cssHeight }, rect: { ...rect }, fit: { ...map.fit }, visible: v, scale: map.scale,
      motionFraction: { x: spanX * rect.w / this.cssWidth, y: spanY * rect.h / this.cssHeight },
      rows: layout === 'lanes' ? shownLanes.map((l, r) => ({ id: l.id, name: this.names[l.index], sameAs: this.sameAs[l.index] >= 0 ? this.names[this.sameAs[l.index]] : null, drawn: this.rowNames?.[r] ?? null })) : [],
      sameAs: shownLanes.filter((l) => this.sameAs[l.index] >= 0).map((l) => ({ id: l.id, sameAs: snapshot.lanes[this.sameAs[l.index]].id })),
      edgeMarkers: markers, captions: this.captions ? { ...this.captions } : null,
      // The boxes of the notes on coincident lanes and of the launch line's label (CSS pixels), or null.
      sameNotesBox: this.sameNotesBox ?? null, launchLabelBox: this.launchLabelBox ?? null,
      scrubTime, cursorMarkers: Boolean(cursorMarkers), manual: this.manual !== null,
      followBody: this.followBody ? { ...this.followBody } : null, arrows: this.arrows,
      staticDraws: this.staticDraws, historySamples: this.history.count,
      // The lanes in the order drawn (a highlighted one last, on top) and those drawn faded.
      drawOrder: order.map((l) => l.id), faded: order.filter((l) => isFaded(l.id)).map((l) => l.id),
      bodiesDrawn: shownLanes.map((l) => ({ id: l.id, bodies: l.bodies.map((p) => ({ x: p.x, y: p.y })) })),
      // The scene's anchors and the reference's bodies (world coordinates), drawn by the same map.
      anchors: this.scene.anchors.map((a) => ({ x: a.x, y: a.y })),
      reference: snapshot.reference.map((p) => ({ x: p.x, y: p.y })),
    };
  }

  // --- What the pointer and the view's tools do (web/motion/view-tools.js calls these). ---

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
    this.camera.zoomAt(factor, this.worldAt(px, py), this.sim.snapshot.lanes);
  }

  // Moves the view by (dx, dy) CSS pixels (the picture follows the pointer).
  panBy(dx, dy) {
    if (!this.map) return;
    this.camera.panBy(dx, dy, this.map.scale, this.sim.snapshot.lanes);
  }

  // Back to the fitted view (following nothing).
  resetView() { this.camera.reset(); }


  // The one body marked when the links are too short on screen for a mark on each (marks under
  // 4 px would hide the coils between them): the body that leaves the trail (-1: every body).
  markedBody(size) { return size < 4 ? this.trailBody : -1; }

  // 1, or faded while another lane is highlighted.
  alpha() { return this.faded ? fadedAlpha : 1; }

}
