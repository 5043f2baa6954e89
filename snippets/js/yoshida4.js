// Yoshida 4 (Forest–Ruth), a symplectic composition: three Verlet steps of weights w1, w0, w1
// (w0 < 0), i.e. four drifts and three kicks. Fourth order.
// Damping is not kicked: its exact flow is applied on either side of each kick, so it stays fourth order.
// Force evaluations per step: 3.

const CBRT2 = 1.2599210498948732;  // 2^(1/3)
const W1 = 1 / (2 - CBRT2), W0 = -CBRT2 / (2 - CBRT2);
const DRIFT = [0.5 * W1, 0.5 * (W0 + W1), 0.5 * (W0 + W1), 0.5 * W1];
const KICK = [W1, W0, W1];

// body = {x, y, vx, vy} (m, m/s); spring = {k, m, b} (N/m, kg, N·s/m) anchored at the origin,
// rest length 0; h = step (s). The kick is the spring −k·x/m; the damper's flow is v·e^(−b·t/m).
export function stepSpring(body, spring, h) {
  const invM = 1 / spring.m;
  for (let i = 0; i < 4; i++) {
    body.x += DRIFT[i] * h * body.vx;
    body.y += DRIFT[i] * h * body.vy;
    if (i === 3) break;
    const damp = Math.exp(-spring.b * invM * (0.5 * KICK[i] * h));  // the damper alone, half the kick's time
    body.vx *= damp;
    body.vy *= damp;
    body.vx += KICK[i] * h * (invM * (-spring.k * body.x));
    body.vy += KICK[i] * h * (invM * (-spring.k * body.y));
    body.vx *= damp;
    body.vy *= damp;
  }
}

// The acceleration accel writes (into its last argument): one buffer, made once, so that a step
// allocates nothing.
const acceleration = new Float64Array(2);
// The velocity dissipate writes (into its last argument): one buffer, made once too.
const velocity = new Float64Array(2);

// Any force: accel(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out. Without damping, pass dissipate = null.
// With damping or drag, accel must give the other forces (it is called with v = 0) and
// dissipate(vx, vy, t, reverse, out) must write [vx, vy] into out after the damping forces alone act for t
// (t may be negative; with several such forces apply them in reverse order when reverse is true).
export function step(body, h, accel, dissipate = null) {
  for (let i = 0; i < 4; i++) {
    body.x += DRIFT[i] * h * body.vx;
    body.y += DRIFT[i] * h * body.vy;
    if (i === 3) break;
    const t = 0.5 * KICK[i] * h;
    if (dissipate) {
      dissipate(body.vx, body.vy, t, false, velocity);
      body.vx = velocity[0];
      body.vy = velocity[1];
    }
    if (dissipate) accel(body.x, body.y, 0, 0, acceleration);
    else accel(body.x, body.y, body.vx, body.vy, acceleration);
    const ax = acceleration[0], ay = acceleration[1];
    body.vx += KICK[i] * h * ax;
    body.vy += KICK[i] * h * ay;
    if (dissipate) {
      dissipate(body.vx, body.vy, t, true, velocity);
      body.vx = velocity[0];
      body.vy = velocity[1];
    }
  }
}
