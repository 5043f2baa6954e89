// The fixed-timestep loop. Simulated time advances by speed × wall time, in whole steps of the
// configured dt (the remainder carries to the next frame), whatever the display's frame rate.
// At most maxStepsPerFrame steps per frame, and at most maxWallPerFrame seconds of wall time
// count for one frame: a hidden tab or a long pause resumes without a burst. Where steps are
// costly (phase-space clouds of many points), a time budget per frame caps them too: the
// simulation then runs slower than asked (and says so) instead of dropping frames.

export const maxWallPerFrame = 0.1;  // s
export const defaultMaxStepsPerFrame = 2000;
const recentFrames = 1024;

export class Runner {
  // sim(): the current SimulationHandle; onFrame(info): draw; called after every frame that
  // advanced or was marked dirty.
  constructor({ sim, onFrame, onStateChange = () => {}, now = () => performance.now() }) {
    this.sim = sim;
    this.onFrame = onFrame;
    this.onStateChange = onStateChange;
    this.now = now;
    this.playing = false;
    this.speed = 1;
    this.maxStepsPerFrame = defaultMaxStepsPerFrame;
    this.accumulated = 0;  // simulated seconds not yet stepped
    this.lastWall = null;
    this.dirty = true;
    this.capped = false;   // the last frame hit the step cap (the run is slower than asked)
    // Milliseconds of stepping allowed per frame (at least one step is always taken), and the
    // measured cost of one step (a moving average); Infinity: no budget.
    this.budgetMs = Infinity;
    this.stepMs = 0;
    this.stats = { frames: 0, simMs: 0, drawMs: 0, steps: 0 };
    // The last frames' simulation and drawing times, for the measurements (debug.timings()).
    this.recent = { sim: new Float64Array(recentFrames), draw: new Float64Array(recentFrames), count: 0 };
    this.frameSimMs = 0;
    this.frame = this.frame.bind(this);
    this.rafId = requestAnimationFrame(this.frame);
    document.addEventListener('visibilitychange', () => {
      this.lastWall = null;  // forget the time spent hidden
    });
  }

  // The step count at which the configured duration is reached.
  endSteps() {
    const s = this.sim();
    const duration = Number(new URLSearchParams(s.config).get('duration'));
    return Math.ceil(duration / s.dt - 1e-9);
  }

  play() {
    if (this.sim().snapshot.steps >= this.endSteps()) this.reset();
    this.playing = true;
    this.lastWall = null;
    this.onStateChange();
  }

  pause() {
    this.playing = false;
    this.accumulated = 0;
    this.onStateChange();
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  // Exactly one dt, and pause: stepping is for looking closely.
  step() {
    if (this.playing) this.pause();
    this.advance(1);
  }

  reset() {
    this.accumulated = 0;
    this.sim().reset();
    this.dirty = true;
    this.onStateChange();
  }

  // A new simulation replaced the old one.
  replaced() {
    this.accumulated = 0;
    this.stepMs = 0;
    this.dirty = true;
    this.onStateChange();
  }

  // Nothing changes without a step: the state is read again only after one.
  advance(steps) {
    const s = this.sim();
    const t0 = performance.now();
    if (steps > 0) {
      s.advance(steps);
      const perStep = (performance.now() - t0) / steps;
      this.stepMs = this.stepMs > 0 ? 0.7 * this.stepMs + 0.3 * perStep : perStep;
      s.refresh();
    }
    const ms = performance.now() - t0;
    this.stats.simMs += ms;
    this.frameSimMs += ms;
    this.stats.steps += steps;
    this.dirty = true;
  }

  // The most steps this frame may take: the fixed cap, and the time budget at the measured cost.
  stepCap() {
    if (!(this.budgetMs < Infinity) || !(this.stepMs > 0)) return this.maxStepsPerFrame;
    return Math.max(1, Math.min(this.maxStepsPerFrame, Math.floor(this.budgetMs / this.stepMs)));
  }

  frame(wallMs) {
    this.rafId = requestAnimationFrame(this.frame);
    const now = this.now();
    const wall = this.lastWall === null ? 0 : Math.min((now - this.lastWall) / 1000, maxWallPerFrame);
    this.lastWall = now;
    if (this.playing) {
      const s = this.sim();
      this.accumulated += wall * this.speed;
      let steps = Math.floor(this.accumulated / s.dt + 1e-9);
      this.accumulated = Math.max(0, this.accumulated - steps * s.dt);
      const cap = this.stepCap();
      this.capped = steps > cap;
      if (this.capped) {
        steps = cap;
        this.accumulated = 0;  // drop the backlog rather than catch up later
      }
      const left = this.endSteps() - s.snapshot.steps;
      if (steps >= left) {
        steps = Math.max(0, left);
        this.playing = false;
        this.accumulated = 0;
        this.onStateChange();
      }
      this.advance(steps);
    }
    if (this.dirty) {
      this.dirty = false;
      const t0 = performance.now();
      this.onFrame();
      const drawMs = performance.now() - t0;
      this.stats.drawMs += drawMs;
      this.stats.frames += 1;
      const r = this.recent, i = r.count % recentFrames;
      r.sim[i] = this.frameSimMs;
      r.draw[i] = drawMs;
      r.count += 1;
    }
    this.frameSimMs = 0;
  }
}
