// The fixed-timestep loop. Simulated time advances by speed × wall time, in whole steps of the
// configured dt (the remainder carries to the next frame), whatever the display's frame rate.
// At most maxStepsPerFrame steps per frame, and at most maxWallPerFrame seconds of wall time
// count for one frame: a hidden tab or a long pause resumes without a burst.

export const maxWallPerFrame = 0.1;  // s
export const defaultMaxStepsPerFrame = 2000;

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
    this.stats = { frames: 0, simMs: 0, drawMs: 0, steps: 0 };
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
    this.dirty = true;
    this.onStateChange();
  }

  advance(steps) {
    const s = this.sim();
    const t0 = performance.now();
    if (steps > 0) s.advance(steps);
    s.refresh();
    this.stats.simMs += performance.now() - t0;
    this.stats.steps += steps;
    this.dirty = true;
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
      this.capped = steps > this.maxStepsPerFrame;
      if (this.capped) {
        steps = this.maxStepsPerFrame;
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
      this.stats.drawMs += performance.now() - t0;
      this.stats.frames += 1;
    }
  }
}
