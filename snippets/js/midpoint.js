// Midpoint (RK2): half an Euler step, then a full step with the slopes at that midpoint.
// Second order.
// Force evaluations per step: 2.

// Spring anchored at the origin, rest length 0: a = (−k·p − b·v)/m along each axis.
function springAcceleration(spring, p, v) {
  return (1 / spring.m) * (-spring.k * p - spring.b * v);
}

// body = {x, y, vx, vy} (m, m/s); spring = {k, m, b} (N/m, kg, N·s/m); h = step (s).
export function stepSpring(body, spring, h) {
  const vmx = body.vx + 0.5 * h * springAcceleration(spring, body.x, body.vx);
  const vmy = body.vy + 0.5 * h * springAcceleration(spring, body.y, body.vy);
  const amx = springAcceleration(spring, body.x + 0.5 * h * body.vx, vmx);
  const amy = springAcceleration(spring, body.y + 0.5 * h * body.vy, vmy);
  body.x += h * vmx;
  body.y += h * vmy;
  body.vx += h * amx;
  body.vy += h * amy;
}

// The acceleration accel writes (into its last argument): one buffer, made once, so that a step
// allocates nothing.
const acceleration = new Float64Array(2);

// Any force: accel(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out.
export function step(body, h, accel) {
  accel(body.x, body.y, body.vx, body.vy, acceleration);
  const ax = acceleration[0], ay = acceleration[1];
  const vmx = body.vx + 0.5 * h * ax, vmy = body.vy + 0.5 * h * ay;
  accel(body.x + 0.5 * h * body.vx, body.y + 0.5 * h * body.vy, vmx, vmy, acceleration);
  const amx = acceleration[0], amy = acceleration[1];
  body.x += h * vmx;
  body.y += h * vmy;
  body.vx += h * amx;
  body.vy += h * amy;
}
