// Kinematic (average acceleration): as the kinematic integrator (each force's exact dv over the
// step), but every force's dx is ½·dv·h. Second order for one spring, damped or not; first order
// once damping acts beside another force, or with a force without a closed form.
// Force evaluations per step: 1 (each force's closed form).

// The damped oscillator d'' = −w2·d − 2·gamma·d' over time t, written into out as [dd, dv, vd, vv]:
// d(t) = dd·d0 + dv·v0, v(t) = vd·d0 + vv·v0. Under-, critically and over-damped.
function oscillatorMap(w2, gamma, t, out) {
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
  out[0] = eC + gamma * eS;
  out[1] = eS;
  out[2] = -w2 * eS;
  out[3] = eC - gamma * eS;
}

// The buffers the step's helpers write into (the oscillator's map, a force's increment): made
// once, so that a step allocates nothing.
const oscillator = new Float64Array(4);
const increment = new Float64Array(4);

// What a spring (rest length 0) alone does over h to a body at offset (px, py) from its anchor,
// written into out: [dvx, dvy, dx, dy] with its exact dv and dx = ½·dv·h.
function springIncrement(spring, px, py, vx, vy, h, out) {
  const invM = 1 / spring.m;
  oscillatorMap(spring.k * invM, 0.5 * spring.b * invM, h, oscillator);
  const vd = oscillator[2], vv = oscillator[3];
  const dvx = vd * px + vv * vx - vx, dvy = vd * py + vv * vy - vy;
  out[0] = dvx;
  out[1] = dvy;
  out[2] = 0.5 * h * dvx;
  out[3] = 0.5 * h * dvy;
}

// body = {x, y, vx, vy} (m, m/s); spring = {k, m, b} (N/m, kg, N·s/m) anchored at the origin,
// rest length 0; h = step (s).
export function stepSpring(body, spring, h) {
  springIncrement(spring, body.x, body.y, body.vx, body.vy, h, increment);
  body.x += h * body.vx + increment[2];
  body.y += h * body.vy + increment[3];
  body.vx += increment[0];
  body.vy += increment[1];
}

// Any set of forces, each a function (x, y, vx, vy, h, out) writing [dvx, dvy, dx, dy] into out:
// build them once with gravity, springForce and approximate below. Their increments are summed in
// list order.
export function step(body, h, forces) {
  let dvx = 0, dvy = 0, dx = 0, dy = 0;
  for (let n = 0; n < forces.length; n++) {
    const force = forces[n];
    force(body.x, body.y, body.vx, body.vy, h, increment);
    dvx += increment[0];
    dvy += increment[1];
    dx += increment[2];
    dy += increment[3];
  }
  body.x += h * body.vx + dx;
  body.y += h * body.vy + dy;
  body.vx += dvx;
  body.vy += dvy;
}

// A constant acceleration (m/s²): dx = ½·dv·h is its exact displacement.
export const gravity = (gx, gy) => (x, y, vx, vy, h, out) => {
  out[0] = h * gx;
  out[1] = h * gy;
  out[2] = 0.5 * h * h * gx;
  out[3] = 0.5 * h * h * gy;
};
// A spring of rest length 0 to the anchor (ax, ay): its exact dv.
export const springForce = (spring, ax = 0, ay = 0) => (x, y, vx, vy, h, out) =>
  springIncrement(spring, x - ax, y - ay, vx, vy, h, out);
// The acceleration accel writes (into its last argument): one buffer, made once, so that a step
// allocates nothing.
const acceleration = new Float64Array(2);

// A force without a closed form, accel(x, y, vx, vy, out) writes [ax, ay] into out: dv = a·h, dx = ½·a·h².
export const approximate = (accel) => (x, y, vx, vy, h, out) => {
  accel(x, y, vx, vy, acceleration);
  const ax = acceleration[0], ay = acceleration[1];
  out[0] = h * ax;
  out[1] = h * ay;
  out[2] = 0.5 * h * (h * ax);
  out[3] = 0.5 * h * (h * ay);
};
