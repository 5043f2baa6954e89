// Runge–Kutta 4 (the classic RK4): four slopes per step, weighted 1, 2, 2, 1.
// Fourth order; on an undamped spring it slowly loses energy.
// Force evaluations per step: 4.

// Spring anchored at the origin, rest length 0: a = (−k·p − b·v)/m along each axis.
function springAcceleration(spring, p, v) {
  return (1 / spring.m) * (-spring.k * p - spring.b * v);
}

// One axis of the spring (it acts on each axis alone): [p, v] after the four stages, written into out.
function rk4Axis(spring, h, p, v, out) {
  const a1 = springAcceleration(spring, p, v);
  const v2 = v + 0.5 * h * a1;
  const a2 = springAcceleration(spring, p + 0.5 * h * v, v2);
  const v3 = v + 0.5 * h * a2;
  const a3 = springAcceleration(spring, p + 0.5 * h * v2, v3);
  const v4 = v + h * a3;
  const a4 = springAcceleration(spring, p + h * v3, v4);
  out[0] = p + (h / 6) * (v + 2 * (v2 + v3) + v4);
  out[1] = v + (h / 6) * (a1 + 2 * (a2 + a3) + a4);
}

// An axis's [p, v]: one buffer, made once.
const axisState = new Float64Array(2);

// body = {x, y, vx, vy} (m, m/s); spring = {k, m, b} (N/m, kg, N·s/m); h = step (s).
export function stepSpring(body, spring, h) {
  rk4Axis(spring, h, body.x, body.vx, axisState);
  body.x = axisState[0];
  body.vx = axisState[1];
  rk4Axis(spring, h, body.y, body.vy, axisState);
  body.y = axisState[0];
  body.vy = axisState[1];
}

// The acceleration accel writes (into its last argument): one buffer, made once, so that a step
// allocates nothing.
const acceleration = new Float64Array(2);

// Any force: accel(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out.
export function step(body, h, accel) {
  const { x, y, vx, vy } = body;
  accel(x, y, vx, vy, acceleration);
  const ax1 = acceleration[0], ay1 = acceleration[1];
  const vx2 = vx + 0.5 * h * ax1, vy2 = vy + 0.5 * h * ay1;
  accel(x + 0.5 * h * vx, y + 0.5 * h * vy, vx2, vy2, acceleration);
  const ax2 = acceleration[0], ay2 = acceleration[1];
  const vx3 = vx + 0.5 * h * ax2, vy3 = vy + 0.5 * h * ay2;
  accel(x + 0.5 * h * vx2, y + 0.5 * h * vy2, vx3, vy3, acceleration);
  const ax3 = acceleration[0], ay3 = acceleration[1];
  const vx4 = vx + h * ax3, vy4 = vy + h * ay3;
  accel(x + h * vx3, y + h * vy3, vx4, vy4, acceleration);
  const ax4 = acceleration[0], ay4 = acceleration[1];
  body.x = x + (h / 6) * (vx + 2 * (vx2 + vx3) + vx4);
  body.y = y + (h / 6) * (vy + 2 * (vy2 + vy3) + vy4);
  body.vx = vx + (h / 6) * (ax1 + 2 * (ax2 + ax3) + ax4);
  body.vy = vy + (h / 6) * (ay1 + 2 * (ay2 + ay3) + ay4);
}
