// Work off the animation path, in slices: each slice is one main-thread task of at most about
// targetMs, so the page never freezes (a task over 50 ms is a "long task"). The work per slice
// adapts to what the last slices cost: it starts small, grows while slices are quick, and
// shrinks at once when one runs long. Between slices the browser draws frames and handles input.
// No DOM; the caller says what a unit of work is.

// Lets the browser run other tasks (input, a frame) before the caller goes on in a new task:
// work that cannot be sliced finely (the page's start-up) is cut at its natural seams with it.
export const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

// Well under the 50 ms of a long task, leaving a frame's worth of time for the animation.
export const sliceTargetMs = 12;
// The longest slice seen on this page (ms), for the tests and docs/performance-web.md.
export const sliceStats = { longestMs: 0, longestUnits: 0, slices: 0 };

// Work counted by task, for the tests (debug.slices()): how many of a kind of work one task did,
// the most of any task so far. A task's count starts at its first such piece and ends when a
// timer queued then fires (the next task at the earliest), so a count never splits a task and
// may only join two.
function countIn(counter) {
  if (counter.now === 0) setTimeout(() => { counter.now = 0; }, 0);
  counter.now += 1;
  counter.total += 1;
  counter.most = Math.max(counter.most, counter.now);
}
// Calls into the core that read a whole config (normalise, parse: each parses, checks and writes a link).
export const coreCallsInTask = { most: 0, now: 0, total: 0 };
export const countCoreCall = () => countIn(coreCallsInTask);
// The page's start-up stages (web/app/main.js: the module, the page's parts, the controls, the
// presets, the first layout, the frame loop and panels, the first simulation, each panel set to
// it, the last layout): each is cut from the next at its seam, so a task holds one.
export const startStagesInTask = { most: 0, now: 0, total: 0 };
export const countStartStage = () => countIn(startStagesInTask);

export class Slices {
  // work(units, deadline): does about `units` of work (and may stop early once performance.now()
  // passes deadline), returns true when the job is finished.
  // onSlice(): after every slice (progress); onDone(): once, when finished.
  constructor(work, { initialUnits = 1, minUnits = 1, maxUnits = 1e9, targetMs = sliceTargetMs, onSlice = () => {}, onDone = () => {} } = {}) {
    this.work = work;
    this.units = initialUnits;
    this.minUnits = minUnits;
    this.maxUnits = maxUnits;
    this.targetMs = targetMs;
    this.onSlice = onSlice;
    this.onDone = onDone;
    this.timer = null;
    this.running = false;
    this.finished = false;
    this.run = this.run.bind(this);
  }

  start() {
    if (this.running || this.finished) return this;
    this.running = true;
    this.timer = setTimeout(this.run, 0);
    return this;
  }

  cancel() {
    this.running = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  run() {
    this.timer = null;
    if (!this.running) return;
    const t0 = performance.now();
    const done = this.work(this.units, t0 + this.targetMs);
    const ms = performance.now() - t0;
    if (ms > sliceStats.longestMs) { sliceStats.longestMs = ms; sliceStats.longestUnits = this.units; }
    sliceStats.slices += 1;
    // Aim at the target: the next slice's units from this one's cost, at most doubling and at
    // least halving (one unusual slice does not swing it far), and halving at once past the target.
    const ratio = ms > 0 ? this.targetMs / ms : 2;
    this.units = Math.round(Math.min(this.maxUnits, Math.max(this.minUnits, this.units * Math.min(2, Math.max(0.5, ratio)))));
    this.onSlice();
    if (done) {
      this.running = false;
      this.finished = true;
      this.onDone();
      return;
    }
    if (this.running) this.timer = setTimeout(this.run, 0);
  }
}
