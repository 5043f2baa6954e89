// Implicit Euler (backward Euler): v1 = v0 + h·a(x0 + h·v1, v1), x1 = x0 + h·v1.
// First order; stable for any h on a spring, and it loses energy.
// Force evaluations per step: 1 + Newton iterations (2 on linear systems).

// body = {x, y, vx, vy} (m, m/s); spring = {k, m, b} (N/m, kg, N·s/m) anchored at the origin,
// rest length 0; h = step (s). The equation is linear in v1 here: solved directly.
export function stepSpring(body, spring, h) {
  const { k, m, b } = spring;
  const d = 1 + (h / m) * (b + h * k);
  body.vx = (body.vx - (h * k / m) * body.x) / d;
  body.vy = (body.vy - (h * k / m) * body.y) / d;
  body.x += h * body.vx;
  body.y += h * body.vy;
}

export const MAX_ITERATIONS = 50;
export const TOLERANCE = 1e-12;  // on the Newton update, relative to 1 + |v1|

// The acceleration accel writes (into its last argument): one buffer, made once, so that a step
// allocates nothing.
const acceleration = new Float64Array(2);
// The derivatives jacobian writes (into its last argument): one buffer, made once too.
const derivatives = new Float64Array(8);

// Any force: accel(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out; jacobian(x, y, vx, vy, out) writes
// its derivatives [∂ax/∂x, ∂ax/∂y, ∂ay/∂x, ∂ay/∂y, ∂ax/∂vx, ∂ax/∂vy, ∂ay/∂vx, ∂ay/∂vy] into out.
// Newton's method from v1 = v0: each iteration costs one accel and one jacobian call; a force
// linear in (x, v) converges in two. Returns false when it stopped without converging.
export function step(body, h, accel, jacobian) {
  let vx = body.vx, vy = body.vy;
  let converged = false;
  for (let it = 0; it < MAX_ITERATIONS && !converged; it++) {
    const x = body.x + h * vx, y = body.y + h * vy;
    accel(x, y, vx, vy, acceleration);
    const ax = acceleration[0], ay = acceleration[1];
    jacobian(x, y, vx, vy, derivatives);
    const jxx = derivatives[0], jxy = derivatives[1], jyx = derivatives[2], jyy = derivatives[3];
    const jvxx = derivatives[4], jvxy = derivatives[5], jvyx = derivatives[6], jvyy = derivatives[7];
    // G(v1) = v1 − v0 − h·a(x0 + h·v1, v1) = 0; dG/dv1 = I − h·(h·∂a/∂x + ∂a/∂v).
    const m00 = 1 - h * (h * jxx + jvxx), m01 = -h * (h * jxy + jvxy);
    const m10 = -h * (h * jyx + jvyx), m11 = 1 - h * (h * jyy + jvyy);
    const rx = -(vx - body.vx - h * ax), ry = -(vy - body.vy - h * ay);
    const det = m00 * m11 - m01 * m10;
    if (det === 0) break;
    const dvx = (m11 * rx - m01 * ry) / det, dvy = (m00 * ry - m10 * rx) / det;
    vx += dvx;
    vy += dvy;
    converged = Math.max(Math.abs(dvx), Math.abs(dvy)) <= TOLERANCE * (1 + Math.max(Math.abs(vx), Math.abs(vy)));
  }
  body.x += h * vx;
  body.y += h * vy;
  body.vx = vx;
  body.vy = vy;
  return converged;
}
