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

// body = {x, y, vx, vy} (m, m/s); spring = {k, m, b} (N/m, kg, N·s/m); h = step (s).
export function stepSpring(body, carry, spring, h) {
  step(body, carry, h, (x, y, vx, vy) =>
    [springAcceleration(spring, x, vx), springAcceleration(spring, y, vy)]);
}

// Any force: accel(x, y, vx, vy) returns [ax, ay] (m/s²). A damping force sees a predicted
// velocity, so the step stays second order with it.
export function step(body, carry, h, accel) {
  const c = carry;
  let nextX, nextY;
  if (!c.started) {
    [c.ax, c.ay] = accel(body.x, body.y, body.vx, body.vy);
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
  [c.ax, c.ay] = accel(body.x, body.y, vpx, vpy);
  body.vx = (body.x - c.prevX) / h + 0.5 * h * c.ax;
  body.vy = (body.y - c.prevY) / h + 0.5 * h * c.ay;
}
