// Störmer–Verlet (position Verlet): x_next = 2x − x_prev + a·h², the first step by Taylor,
// v from the central difference. Second order, symplectic.
// Force evaluations per step: 1 (plus 1 at the start).

// Spring anchored at the origin, rest length 0: a = (−k·p − b·v)/m along each axis.
function springAcceleration(spring, p, v) {
  return (1 / spring.m) * (-spring.k * p - spring.b * v);
}

// What the method carries between steps: the previous position and the last acceleration.
// Start with newCarry(), and again whenever you move the body by hand or change h.
export function newCarry() {
  return { started: false, prevX: 0, prevY: 0, ax: 0, ay: 0 };
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

// Any force: accel(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out. A damping force sees a predicted
// velocity, so the step stays second order with it.
export function step(body, carry, h, accel) {
  const c = carry;
  let nextX, nextY;
  if (!c.started) {
    accel(body.x, body.y, body.vx, body.vy, acceleration);
    c.ax = acceleration[0];
    c.ay = acceleration[1];
    nextX = body.x + h * body.vx + 0.5 * h * h * c.ax;  // Taylor
    nextY = body.y + h * body.vy + 0.5 * h * h * c.ay;
    c.started = true;
  } else {
    nextX = 2 * body.x - c.prevX + h * h * c.ax;
    nextY = 2 * body.y - c.prevY + h * h * c.ay;
  }
  const vpx = (nextX - body.x) / h + 0.5 * h * c.ax;  // predicted velocity at the new position
  const vpy = (nextY - body.y) / h + 0.5 * h * c.ay;
  c.prevX = body.x;
  c.prevY = body.y;
  body.x = nextX;
  body.y = nextY;
  accel(body.x, body.y, vpx, vpy, acceleration);
  c.ax = acceleration[0];
  c.ay = acceleration[1];
  body.vx = (body.x - c.prevX) / h + 0.5 * h * c.ax;
  body.vy = (body.y - c.prevY) / h + 0.5 * h * c.ay;
}
