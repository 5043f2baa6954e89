// Velocity Verlet: x += v·h + ½a·h², then v += ½(a + a_new)·h; a_new is kept for the next step.
// Second order, symplectic.
// Force evaluations per step: 1 (acceleration reused; plus 1 at the start).

// Spring anchored at the origin, rest length 0: a = (−k·p − b·v)/m along each axis.
function springAcceleration(spring, p, v) {
  return (1 / spring.m) * (-spring.k * p - spring.b * v);
}

// The cached acceleration. Start with newCarry(), and again whenever you move the
// body by hand or change the forces.
export function newCarry() {
  return { started: false, ax: 0, ay: 0 };
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
// velocity v + a·h, so the step stays second order with it.
export function step(body, carry, h, accel) {
  const c = carry;
  if (!c.started) {
    accel(body.x, body.y, body.vx, body.vy, acceleration);
    c.ax = acceleration[0];
    c.ay = acceleration[1];
    c.started = true;
  }
  const ax0 = c.ax, ay0 = c.ay;
  body.x += h * body.vx + 0.5 * h * h * ax0;
  body.y += h * body.vy + 0.5 * h * h * ay0;
  accel(body.x, body.y, body.vx + h * ax0, body.vy + h * ay0, acceleration);
  c.ax = acceleration[0];
  c.ay = acceleration[1];
  body.vx += 0.5 * h * (ax0 + c.ax);
  body.vy += 0.5 * h * (ay0 + c.ay);
}
