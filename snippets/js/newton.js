// Newton (constant acceleration): x += v·h + ½a·h², v += a·h.
// Exact for a constant force (a projectile without drag), first order otherwise.
// Force evaluations per step: 1.

// Spring anchored at the origin, rest length 0: a = (−k·p − b·v)/m along each axis.
function springAcceleration(spring, p, v) {
  return (1 / spring.m) * (-spring.k * p - spring.b * v);
}

// body = {x, y, vx, vy} (m, m/s); spring = {k, m, b} (N/m, kg, N·s/m); h = step (s).
export function stepSpring(body, spring, h) {
  const ax = springAcceleration(spring, body.x, body.vx);
  const ay = springAcceleration(spring, body.y, body.vy);
  body.x += h * body.vx + 0.5 * h * h * ax;
  body.y += h * body.vy + 0.5 * h * h * ay;
  body.vx += h * ax;
  body.vy += h * ay;
}

// The acceleration accel writes (into its last argument): one buffer, made once, so that a step
// allocates nothing.
const acceleration = new Float64Array(2);

// Any force: accel(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out.
export function step(body, h, accel) {
  accel(body.x, body.y, body.vx, body.vy, acceleration);
  const ax = acceleration[0], ay = acceleration[1];
  body.x += h * body.vx + 0.5 * h * h * ax;
  body.y += h * body.vy + 0.5 * h * h * ay;
  body.vx += h * ax;
  body.vy += h * ay;
}
