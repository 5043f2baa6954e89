// Kinematic (average acceleration): as the kinematic integrator (each force's exact dv over the
// step), but every force's dx is ½·dv·h. Second order for one spring, damped or not; first order
// once damping acts beside another force, or with a force without a closed form.
// Force evaluations per step: 1 (each force's closed form).

// The damped oscillator d'' = −w2·d − 2·gamma·d' over time t, as [dd, dv, vd, vv]:
// d(t) = dd·d0 + dv·v0, v(t) = vd·d0 + vv·v0. Under-, critically and over-damped.
function oscillatorMap(w2, gamma, t) {
  let eC, eS;  // e^(−gamma·t) times (cos wt, sin(wt)/w), (1, t) or (cosh rt, sinh(rt)/r)
  const disc = gamma * gamma - w2;
  if (disc < 0) {
    const w = Math.sqrt(-disc), decay = Math.exp(-gamma * t);
    eC = decay * Math.cos(w * t);
    eS = decay * Math.sin(w * t) / w;
  } else if (disc === 0) {
    const decay = Math.exp(-gamma * t);
    eC = decay;
    eS = decay * t;
  } else {
    const r = Math.sqrt(disc);  // written with decaying exponentials: no overflow, no cancellation
    if (2 * r * t > 700) {
      eC = 0.5 * Math.exp((r - gamma) * t);
      eS = eC / r;
    } else {
      const slow = Math.exp(-(gamma + r) * t), grow = Math.expm1(2 * r * t);
      eS = slow * grow / (2 * r);
      eC = slow * (1 + 0.5 * grow);
    }
  }
  return [eC + gamma * eS, eS, -w2 * eS, eC - gamma * eS];
}

// What a spring (rest length 0) alone does over h to a body at offset (px, py) from its anchor:
// [dvx, dvy, dx, dy] with its exact dv and dx = ½·dv·h.
function springIncrement(spring, px, py, vx, vy, h) {
  const invM = 1 / spring.m;
  const [, , vd, vv] = oscillatorMap(spring.k * invM, 0.5 * spring.b * invM, h);
  const dvx = vd * px + vv * vx - vx, dvy = vd * py + vv * vy - vy;
  return [dvx, dvy, 0.5 * h * dvx, 0.5 * h * dvy];
}

// body = {x, y, vx, vy} (m, m/s); spring = {k, m, b} (N/m, kg, N·s/m) anchored at the origin,
// rest length 0; h = step (s).
export function stepSpring(body, spring, h) {
  const [dvx, dvy, dx, dy] = springIncrement(spring, body.x, body.y, body.vx, body.vy, h);
  body.x += h * body.vx + dx;
  body.y += h * body.vy + dy;
  body.vx += dvx;
  body.vy += dvy;
}

// Any set of forces, each a function (x, y, vx, vy, h) => [dvx, dvy, dx, dy]: build them with
// gravity, springForce and approximate below. Their increments are summed in list order.
export function step(body, h, forces) {
  let dvx = 0, dvy = 0, dx = 0, dy = 0;
  for (const force of forces) {
    const [fvx, fvy, fx, fy] = force(body.x, body.y, body.vx, body.vy, h);
    dvx += fvx;
    dvy += fvy;
    dx += fx;
    dy += fy;
  }
  body.x += h * body.vx + dx;
  body.y += h * body.vy + dy;
  body.vx += dvx;
  body.vy += dvy;
}

// A constant acceleration (m/s²): dx = ½·dv·h is its exact displacement.
export const gravity = (gx, gy) => (x, y, vx, vy, h) => [h * gx, h * gy, 0.5 * h * h * gx, 0.5 * h * h * gy];
// A spring of rest length 0 to the anchor (ax, ay): its exact dv.
export const springForce = (spring, ax = 0, ay = 0) => (x, y, vx, vy, h) =>
  springIncrement(spring, x - ax, y - ay, vx, vy, h);
// The acceleration accel writes (into its last argument): one buffer, made once, so that a step
// allocates nothing.
const acceleration = new Float64Array(2);

// A force without a closed form, accel(x, y, vx, vy, out) writes [ax, ay] into out: dv = a·h, dx = ½·a·h².
export const approximate = (accel) => (x, y, vx, vy, h) => {
  accel(x, y, vx, vy, acceleration);
  const ax = acceleration[0], ay = acceleration[1];
  return [h * ax, h * ay, 0.5 * h * (h * ax), 0.5 * h * (h * ay)];
};
