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

// Any force: accel(x, y, vx, vy) returns [ax, ay] (m/s²).
export function step(body, h, accel) {
  const [ax, ay] = accel(body.x, body.y, body.vx, body.vy);
  const vmx = body.vx + 0.5 * h * ax, vmy = body.vy + 0.5 * h * ay;
  const [amx, amy] = accel(body.x + 0.5 * h * body.vx, body.y + 0.5 * h * body.vy, vmx, vmy);
  body.x += h * vmx;
  body.y += h * vmy;
  body.vx += h * amx;
  body.vy += h * amy;
}
