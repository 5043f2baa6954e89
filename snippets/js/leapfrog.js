// Leapfrog (kick-drift-kick): the velocity lives at half steps, started with a half kick;
// body.v is the synchronised velocity. Second order, symplectic.
// Force evaluations per step: 1 (plus 1 at the start).

// Spring anchored at the origin, rest length 0: a = (−k·p − b·v)/m along each axis.
function springAcceleration(spring, p, v) {
  return (1 / spring.m) * (-spring.k * p - spring.b * v);
}

// What leapfrog carries between steps. Start with newCarry(), and again whenever you move
// the body by hand or change h (the half-step velocity belongs to one h).
export function newCarry() {
  return { started: false, vhx: 0, vhy: 0, ax: 0, ay: 0 };
}

// The spring step's force, written into the step's buffer: no function is made per call, the
// spring stepped is kept here for it.
let stepped = null;
const springForce = (x, y, vx, vy, out) => {
  out[0] = springAcceleration(stepped, x, vx);
  out[1] = springAcceleration(stepped, y, vy);
};

// body = {x, y, vx, vy} (m, m/s); spring = {k, m, b} (N/m, kg, N·s/m); h = step (s).
export function stepSpring(body, carry, spring, h) {
  stepped = spring;
  step(body, carry, h, springForce);
}

// The acceleration accel writes (into its last argument): one buffer, made once, so that a step
// allocates nothing.
const acceleration = new Float64Array(2);

// Any force: accel(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out. A damping force sees the predicted
// end velocity, so the step stays second order with it.
export function step(body, carry, h, accel) {
  const c = carry;
  if (!c.started) {
    accel(body.x, body.y, body.vx, body.vy, acceleration);
    c.ax = acceleration[0];
    c.ay = acceleration[1];
    c.vhx = body.vx + 0.5 * h * c.ax;  // the starting half kick
    c.vhy = body.vy + 0.5 * h * c.ay;
    c.started = true;
  }
  body.x += h * c.vhx;  // drift
  body.y += h * c.vhy;
  accel(body.x, body.y, c.vhx + 0.5 * h * c.ax, c.vhy + 0.5 * h * c.ay, acceleration);
  c.ax = acceleration[0];
  c.ay = acceleration[1];
  body.vx = c.vhx + 0.5 * h * c.ax;  // synchronised velocity
  body.vy = c.vhy + 0.5 * h * c.ay;
  c.vhx += h * c.ax;  // kick to the next half step
  c.vhy += h * c.ay;
}
