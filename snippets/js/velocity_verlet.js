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

// body = {x, y, vx, vy} (m, m/s); spring = {k, m, b} (N/m, kg, N·s/m); h = step (s).
export function stepSpring(body, carry, spring, h) {
  step(body, carry, h, (x, y, vx, vy) =>
    [springAcceleration(spring, x, vx), springAcceleration(spring, y, vy)]);
}

// Any force: accel(x, y, vx, vy) returns [ax, ay] (m/s²). A damping force sees the predicted
// velocity v + a·h, so the step stays second order with it.
export function step(body, carry, h, accel) {
  const c = carry;
  if (!c.started) {
    [c.ax, c.ay] = accel(body.x, body.y, body.vx, body.vy);
    c.started = true;
  }
  const ax0 = c.ax, ay0 = c.ay;
  body.x += h * body.vx + 0.5 * h * h * ax0;
  body.y += h * body.vy + 0.5 * h * h * ay0;
  [c.ax, c.ay] = accel(body.x, body.y, body.vx + h * ax0, body.vy + h * ay0);
  body.vx += 0.5 * h * (ax0 + c.ax);
  body.vy += 0.5 * h * (ay0 + c.ay);
}
