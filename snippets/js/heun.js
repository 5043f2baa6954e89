// Heun: an Euler predictor, then the average of the slopes at both ends (trapezoid).
// Second order.
// Force evaluations per step: 2.

// Spring anchored at the origin, rest length 0: a = (−k·p − b·v)/m along each axis.
function springAcceleration(spring, p, v) {
  return (1 / spring.m) * (-spring.k * p - spring.b * v);
}

// body = {x, y, vx, vy} (m, m/s); spring = {k, m, b} (N/m, kg, N·s/m); h = step (s).
export function stepSpring(body, spring, h) {
  const ax1 = springAcceleration(spring, body.x, body.vx);
  const ay1 = springAcceleration(spring, body.y, body.vy);
  const vpx = body.vx + h * ax1, vpy = body.vy + h * ay1;  // predicted end velocity
  const ax2 = springAcceleration(spring, body.x + h * body.vx, vpx);
  const ay2 = springAcceleration(spring, body.y + h * body.vy, vpy);
  body.x += 0.5 * h * (body.vx + vpx);
  body.y += 0.5 * h * (body.vy + vpy);
  body.vx += 0.5 * h * (ax1 + ax2);
  body.vy += 0.5 * h * (ay1 + ay2);
}

// The acceleration accel writes (into its last argument): one buffer, made once, so that a step
// allocates nothing.
const acceleration = new Float64Array(2);

// Any force: accel(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out.
export function step(body, h, accel) {
  accel(body.x, body.y, body.vx, body.vy, acceleration);
  const ax1 = acceleration[0], ay1 = acceleration[1];
  const vpx = body.vx + h * ax1, vpy = body.vy + h * ay1;  // predicted end velocity
  accel(body.x + h * body.vx, body.y + h * body.vy, vpx, vpy, acceleration);
  const ax2 = acceleration[0], ay2 = acceleration[1];
  body.x += 0.5 * h * (body.vx + vpx);
  body.y += 0.5 * h * (body.vy + vpy);
  body.vx += 0.5 * h * (ax1 + ax2);
  body.vy += 0.5 * h * (ay1 + ay2);
}
