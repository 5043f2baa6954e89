// The motion canvas's camera: the box of the world it shows. Fitted to the exact or reference
// motion as far as it is known (refit: growing with room to spare, never shrinking during a run,
// easing there over a few frames), or following a mechanism that would shrink to a dot; the
// user's zoom and pan (a manual box), and the body followed. Knows nothing of the canvas: the
// View (web/motion/view.js) maps the box it shows to pixels.
import { motionLine } from './lanes.js';
import { finite } from './scene-drawing.js';

export class Camera {
  constructor() {
    this.sim = null;
    this.scene = null;
    this.base = null;      // the fitted box (before easing)
    this.box = null;       // the fitted box as drawn (easing to base)
    this.manual = null;    // a box zoomed or panned to (null: fitted)
    this.followBody = null;  // a body followed ({id, body}), or null
    this.following = false;  // the view follows the mechanism
    this.settling = false;   // the box has not arrived yet
    this.aspect = 1;
    this.line = null;      // the line a one-dimensional motion runs along (null: two-dimensional)
    this.boundsVersion = 0;
  }

  // A new simulation: fitted to its expected motion as far as it is known (all of it for a
  // closed form; see refit for the rest); the zoom and pan dropped, the followed body kept when
  // it still runs.
  setSimulation(sim) {
    this.sim = sim;
    this.scene = sim.scene;
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

  // The box shown: the overlay's (the X-ray's), the user's (zoom, pan) or the fitted one,
  // centred on the followed body.
  shownBox(lanes, overlay = null) {
    if (overlay && overlay.box) return overlay.box;
    const box = this.manual || this.box;
    if (!this.followBody) return box;
    const lane = lanes.find((l) => l.id === this.followBody.id);
    const p = lane && lane.bodies[this.followBody.body];
    if (!p || !finite(p.x, p.y)) return box;
    const hw = (box.maxX - box.minX) / 2, hh = (box.maxY - box.minY) / 2;
    return { minX: p.x - hw, maxX: p.x + hw, minY: p.y - hh, maxY: p.y + hh };
  }

  // Zooms by `factor` (> 1: in) about the world point w; the view stops fitting itself.
  zoomAt(factor, w, lanes) {
    const box = this.manual || this.shownBox(lanes);
    const f = 1 / factor;
    const next = { minX: w.x + (box.minX - w.x) * f, maxX: w.x + (box.maxX - w.x) * f, minY: w.y + (box.minY - w.y) * f, maxY: w.y + (box.maxY - w.y) * f };
    // Neither a point nor the whole universe: within a million times the motion's size.
    const span = next.maxX - next.minX, size = Math.max(this.base.maxX - this.base.minX, this.base.maxY - this.base.minY, 1e-9);
    if (!(span > size * 1e-6 && span < size * 1e6)) return;
    this.manual = next;
  }

  // Moves the view by (dx, dy) CSS pixels at `scale` pixels a metre (the picture follows the pointer).
  panBy(dx, dy, scale, lanes) {
    const box = this.manual || this.shownBox(lanes), s = scale;
    this.manual = { minX: box.minX - dx / s, maxX: box.maxX - dx / s, minY: box.minY + dy / s, maxY: box.maxY + dy / s };
  }

  // Back to the fitted view (following nothing).
  reset() {
    this.manual = null;
    this.followBody = null;
  }

  // The body to follow ({id, body}), or null.
  setFollowBody(body) { this.followBody = body; }
}
