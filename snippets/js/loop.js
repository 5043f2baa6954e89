// The loop around the step: a fixed step with an accumulator, substeps and a cap (Glenn Fiedler's
// "Fix your timestep!"), as Stepwise runs it with loop=accumulator&hz=…&substeps=…&max_steps=….
// Each frame's time fills an accumulator; whole physics steps of h = 1/(hz·substeps) are taken
// out of it, at most maxSteps in one frame (the rest is dropped and counted: after a long frame
// the game slows down instead of spiralling into ever longer frames); the state drawn is the last
// two states interpolated by alpha, the time left over as a fraction of a step.
// It calls the step you give it, so it works with any integrator's step function.

export class FixedStepLoop {
  // body = {x, y, vx, vy}: the physics state, stepped in place. hz: the frame rate the game is
  // made for; substeps: physics steps in each such frame; maxSteps: the most steps in one frame.
  constructor(body, hz = 60, substeps = 1, maxSteps = 8) {
    this.current = body;
    this.previous = { ...body };  // the state before the last step (the start, before the first)
    this.h = 1 / (hz * substeps);  // the physics step (s)
    this.maxSteps = maxSteps;
    this.accumulator = 0;  // time not stepped yet, in steps of h
    this.alpha = 0;
    this.steps = 0;  // physics steps taken
    this.dropped = 0;  // steps the cap dropped (game time lost: dropped·h)
    this.cappedFrames = 0;
  }

  // One frame that lasted frameSeconds: step(body, h) as many times as the accumulator holds
  // whole steps, at most maxSteps. Returns the state to draw, {x, y, vx, vy}.
  frame(frameSeconds, step) {
    this.accumulator += frameSeconds / this.h;
    // A frame of exactly 1/hz holds exactly `substeps` steps, but in floating point 1/60 over
    // 1/240 can come out as 3.9999…: within a billionth of a whole step, it is that whole step.
    const whole = Math.round(this.accumulator);
    if (Math.abs(this.accumulator - whole) < 1e-9) this.accumulator = whole;
    let due = Math.floor(this.accumulator);
    this.accumulator -= due;
    if (due > this.maxSteps) {  // the cap: drop the rest, and count it
      this.dropped += due - this.maxSteps;
      this.cappedFrames++;
      due = this.maxSteps;
    }
    for (let i = 0; i < due; i++) {
      Object.assign(this.previous, this.current);
      step(this.current, this.h);
      this.steps++;
    }
    this.alpha = this.accumulator;
    const keep = 1 - this.alpha, p = this.previous, c = this.current;
    return {
      x: keep * p.x + this.alpha * c.x,
      y: keep * p.y + this.alpha * c.y,
      vx: keep * p.vx + this.alpha * c.vx,
      vy: keep * p.vy + this.alpha * c.vy,
    };
  }

  // The game time of the state drawn: one step behind the physics, (steps − 1 + alpha)·h.
  shownTime() {
    return this.steps === 0 ? 0 : (this.steps - 1 + this.alpha) * this.h;
  }
}
