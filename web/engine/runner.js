// The fixed-timestep loop. Simulated time advances by speed × wall time, in whole steps of the
// configured dt (the remainder carries to the next frame), whatever the display's frame rate.
// At most maxStepsPerFrame steps per frame, and at most maxWallPerFrame seconds of wall time
// count for one frame: a hidden tab or a long pause resumes without a burst. A time budget per
// frame caps the stepping too, in the core (advance stops after the step that passes it), so a
// costly system (a stiff one, clouds of many points) runs slower than asked, and says so,
// instead of freezing the page: a frame's stepping lasts its budget plus one step at most.
//
// A run advances only while it can be seen: not while the tab is hidden (visibilitychange), nor,
// in an embedded frame, while the frame is scrolled out of the host page's view (watch(): an
// IntersectionObserver). It stays "playing" meanwhile (held), and its clock counts none of that
// time: back in view it goes on from where it was, without a jump or a catch-up burst.

export const maxWallPerFrame = 0.1;  // s
export const defaultMaxStepsPerFrame = 2000;
// Milliseconds of stepping per frame: most of a 60 Hz frame, leaving the rest to drawing.
export const defaultBudgetMs = 10;
const slowedHoldMs = 500;
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
    this.pendingSteps = 0; // a step() not finished within its frame
    this.behind = false;   // the last frame's budget ran out before its steps
    // The last frame finished no step: a step costs more than a frame's budget (its lanes,
    // substeps and reference go on over the next frames), and the picture is the last whole step.
    this.midStep = false;
    this.slowedUntil = -Infinity;
    this.lastWall = null;
    this.dirty = true;
    this.capped = false;   // the last frame hit the step cap (the run is slower than asked)
    // Milliseconds of stepping allowed per frame (at least one step is always taken), and the
    // measured cost of one step (a moving average).
    this.budgetMs = defaultBudgetMs;
    this.stepMs = 0;
    this.stats = { frames: 0, simMs: 0, drawMs: 0, steps: 0 };
    // The last frames' simulation and drawing times, for the measurements (debug.timings()).
    this.recent = { sim: new Float64Array(recentFrames), draw: new Float64Array(recentFrames), count: 0 };
    this.frameSimMs = 0;
    this.frame = this.frame.bind(this);
    this.rafId = requestAnimationFrame(this.frame);
    this.pageHidden = document.visibilityState === 'hidden';
    this.offscreen = false;  // set by watch()
    document.addEventListener('visibilitychange', () => this.setSeen({ pageHidden: document.visibilityState === 'hidden' }));
  }

  // Playing, but not advancing: nobody can see the run.
  get held() { return this.playing && (this.pageHidden || this.offscreen); }

  setSeen({ pageHidden = this.pageHidden, offscreen = this.offscreen }) {
    const was = this.held;
    this.pageHidden = pageHidden;
    this.offscreen = offscreen;
    this.lastWall = null;  // forget the time spent unseen
    if (was !== this.held) this.onStateChange();
  }

  // Holds the run while less than minSeen of `element` is in the top-level page's view (inside an
  // iframe the observer's implicit root is the host page's viewport), unless at least minSeenPx
  // of its height shows (a frame taller than the screen).
  watch(element, minSeen = 0.3, minSeenPx = 240) {
    if (typeof IntersectionObserver !== 'function') return;
    const observer = new IntersectionObserver((entries) => {
      const entry = entries[entries.length - 1];
      const seen = entry.isIntersecting &&
        (entry.intersectionRatio >= minSeen - 1e-6 || entry.intersectionRect.height >= minSeenPx);
      this.setSeen({ offscreen: !seen });
    }, { threshold: [0, 0.05, 0.1, 0.2, minSeen] });
    observer.observe(element);
  }

  // The run reached its duration (false once the page let its simulation go, at pagehide).
  atEnd() {
    const s = this.sim();
    return Boolean(s) && s.snapshot.steps >= this.endSteps();
  }

  // The step count at which the configured duration is reached.
  endSteps() {
    const s = this.sim();
    const duration = Number(new URLSearchParams(s.config).get('duration'));
    return Math.ceil(duration / s.dt - 1e-9);
  }

  play() {
    if (this.atEnd()) this.reset();
    this.playing = true;
    this.lastWall = null;
    this.onStateChange();
  }

  pause() {
    this.playing = false;
    this.behind = false;
    this.midStep = false;
    this.accumulated = 0;
    this.onStateChange();
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  // Exactly one dt, and pause: stepping is for looking closely. A step longer than the frame's
  // budget (a large cloud) is finished over the next frames.
  step() {
    if (this.playing) this.pause();
    // Each call owes one step more (calls in one task each count: 179 calls are 179 steps,
    // however many of them a call's work lets finish now).
    this.pendingSteps += 1;
    this.pendingSteps -= this.advance(this.pendingSteps);
    this.onStateChange();  // its numbers at once
  }

  reset() {
    this.pendingSteps = 0;
    this.behind = false;
    this.midStep = false;
    this.accumulated = 0;
    this.sim().reset();
    this.dirty = true;
    this.onStateChange();
  }

  // Draws at the next frame though nothing advanced: something on the page changed.
  redraw() { this.dirty = true; }

  // Simulated seconds per wall second.
  setSpeed(speed) { this.speed = speed; }
  // Milliseconds of stepping per frame (see budgetMs).
  setBudget(ms) { this.budgetMs = ms; }

  // A new simulation replaced the old one.
  replaced() {
    this.pendingSteps = 0;
    this.behind = false;
    this.midStep = false;
    this.slowedUntil = -Infinity;
    this.accumulated = 0;
    this.stepMs = 0;
    this.dirty = true;
    this.onStateChange();
  }

  // Nothing changes without a step: the state is read again only after one. Returns the steps
  // taken: fewer than asked once the frame's budget is spent.
  advance(steps) {
    const s = this.sim();
    const t0 = performance.now();
    let taken = 0;
    if (steps > 0) {
      taken = s.advance(steps, this.budgetMs);
      // No whole step: a large cloud's step goes on at the next call; it costs at least this.
      const perStep = (performance.now() - t0) / Math.max(taken, 1);
      this.stepMs = this.stepMs > 0 ? 0.7 * this.stepMs + 0.3 * perStep : perStep;
      if (taken > 0) s.refresh();
    }
    const ms = performance.now() - t0;
    this.stats.simMs += ms;
    this.frameSimMs += ms;
    this.stats.steps += taken;
    this.dirty = true;
    return taken;
  }

  // The most steps this frame asks for: the fixed cap, and the time budget at the measured cost.
  stepCap() {
    if (!(this.stepMs > 0)) return this.maxStepsPerFrame;
    return Math.max(1, Math.min(this.maxStepsPerFrame, Math.floor(this.budgetMs / this.stepMs)));
  }

  frame(wallMs) {
    this.rafId = requestAnimationFrame(this.frame);
    const now = this.now();
    const unseen = this.pageHidden || this.offscreen;
    const wall = this.lastWall === null || unseen ? 0 : Math.min((now - this.lastWall) / 1000, maxWallPerFrame);
    this.lastWall = unseen ? null : now;
    if (this.playing && !unseen) {
      const s = this.sim();
      this.accumulated += wall * this.speed;
      let steps = Math.floor(this.accumulated / s.dt + 1e-9);
      this.accumulated = Math.max(0, this.accumulated - steps * s.dt);
      // Behind the clock (the budget ran out last frame): on at once, whatever the clock says,
      // so that a step spread over frames (a large cloud) goes on every frame.
      if (this.behind) steps = Math.max(steps, 1);
      const cap = this.stepCap();
      let capped = steps > cap;
      if (capped) {
        steps = cap;
        this.accumulated = 0;  // drop the backlog rather than catch up later
      }
      const left = this.endSteps() - s.snapshot.steps;
      let end = false;
      if (steps >= left) {
        steps = Math.max(0, left);
        end = true;
      }
      this.pendingSteps = 0;
      const taken = this.advance(steps);
      this.behind = taken < steps;
      this.midStep = steps > 0 && taken === 0;
      if (this.behind) {
        // The budget ran out first: drop the backlog but one step (the next one starts at once
        // when this one is done) and keep going.
        capped = true;
        this.accumulated = Math.min(this.accumulated, s.dt);
      }
      // "slowed" stays up for a moment: a run a step behind every few frames does not blink it.
      if (capped) this.slowedUntil = now + slowedHoldMs;
      this.capped = capped || now < this.slowedUntil;
      if (!this.behind && end) {
        this.playing = false;
        this.accumulated = 0;
        this.onStateChange();
      }
    } else if (this.pendingSteps > 0) {
      this.pendingSteps -= this.advance(this.pendingSteps);
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
