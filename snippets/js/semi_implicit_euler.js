// Semi-implicit Euler (symplectic, velocity first): v += a·h, then x += v_new·h.
// First order; keeps a spring's energy bounded (no drift), its phase lags.
// Force evaluations per step: 1.

// Spring anchored at the origin, rest length 0: a = (−k·p − b·v)/m along each axis.
function springAcceleration(spring, p, v) {
  return (1 / spring.m) * (-spring.k * p - spring.b * v);
}

// body = {x, y, vx, vy} (m, m/s); spring = {k, m, b} (N/m, kg, N·s/m); h = step (s).
export function stepSpring(body, spring, h) {
  const ax = springAcceleration(spring, body.x, body.vx);
  const ay = springAcceleration(spring, body.y, body.vy);
  body.vx += h * ax;
  body.vy += h * ay;
  body.x += h * body.vx;
  body.y += h * body.vy;
}

// The acceleration accel writes (into its last argument): one buffer, made once, so that a step
// allocates nothing.
const acceleration = new Float64Array(2);

// Any force: accel(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out.
export function step(body, h, accel) {
  accel(body.x, body.y, body.vx, body.vy, acceleration);
  const ax = acceleration[0], ay = acceleration[1];
  body.vx += h * ax;
  body.vy += h * ay;
  body.x += h * body.vx;
  body.y += h * body.vy;
}
