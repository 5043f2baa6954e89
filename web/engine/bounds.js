// The motion's box for a system with no closed form, found ahead of the animation a slice at a
// time between frames (SimulationHandle.growBounds steps a probe of the rk45 reference for a
// few milliseconds per call), never a whole run at once: 100,000 s of a stiff spring at the
// reference's tolerance is minutes of work, and the page must draw its first frame at once.
// The probe runs freely for its first freeMs of work, which takes in a motion that repeats
// (its first periods) and most runs whole. Past that it only keeps ahead of the animation, by
// the simulated time that free work covered, and rests in between: a long run costs what the
// animation itself costs, not more. Its first slice runs at once (before the first frame, as
// a rule); the others when the page is idle (requestIdleCallback), so that an export or a
// study is never slowed by it: should it fall behind, the view takes in the reference's
// positions as they come (view.js). No DOM.

export const boundsSliceMs = 6;
const freeMs = 300;

// Held while the scene editor is open (web/editor/): each edit is a new simulation whose probe
// would work for nothing (the editor shows a box of its own), in slices a stiff 64-body scene
// overran by far. The next wake() after the hold resumes it.
let held = false;
export function holdProbes(on) { held = on; }

export class BoundsProbe {
  // sim: a SimulationHandle; shownTime(): the simulated time on screen; onGrow(): the box changed.
  constructor(sim, { shownTime, onGrow = () => {} }) {
    this.sim = sim;
    this.shownTime = shownTime;
    this.onGrow = onGrow;
    this.spent = 0;       // ms of probing so far
    this.lead = Infinity; // how far ahead of the animation it keeps, once the free work is spent
    this.timer = null;
    this.cancelled = false;
    this.run = this.run.bind(this);
    this.wake(true);
  }

  get done() { return this.sim.bounds.done; }

  // Whether the probe should work now: not done, and free work left or the animation near.
  wanted() {
    if (this.cancelled || held || this.done) return false;
    return this.spent < freeMs || this.sim.bounds.t < this.shownTime() + this.lead;
  }

  // Called every frame: a resting probe starts again when the animation comes near.
  wake(now = false) {
    if (this.timer !== null || !this.wanted()) return;
    this.timer = now || typeof requestIdleCallback !== 'function'
      ? { timeout: setTimeout(() => this.run(null), 0) }
      : { idle: requestIdleCallback(this.run) };
  }

  cancel() {
    this.cancelled = true;
    if (this.timer?.timeout !== undefined) clearTimeout(this.timer.timeout);
    if (this.timer?.idle !== undefined) cancelIdleCallback(this.timer.idle);
    this.timer = null;
  }

  // idle: the browser's IdleDeadline (its time left bounds the slice), or null.
  run(idle) {
    this.timer = null;
    if (!this.wanted()) return;
    const t0 = performance.now();
    const { minX, maxX, minY, maxY } = this.sim.bounds || {};
    const b = this.sim.growBounds(idle ? Math.min(boundsSliceMs, idle.timeRemaining()) : boundsSliceMs);
    this.spent += performance.now() - t0;
    if (this.spent >= freeMs && this.lead === Infinity) this.lead = Math.max(0, b.t - this.shownTime());
    // A redraw only when the box changed: most slices of a long run find nothing new.
    if (b.minX !== minX || b.maxX !== maxX || b.minY !== minY || b.maxY !== maxY) this.onGrow();
    this.wake();
  }
}
