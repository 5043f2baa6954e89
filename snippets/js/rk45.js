// Dormand–Prince 5(4): adaptive Runge–Kutta with error control. Each call advances exactly h,
// in as many internal substeps as rtol needs (six force evaluations each; the seventh is reused).
// No order in h: its error follows the tolerance.
// Force evaluations per step: 6 per accepted substep (the 7th is the next one's first; adaptive).

// Butcher tableau (the nodes c are not needed: the forces do not depend on time).
const A = [[], [1 / 5], [3 / 40, 9 / 40], [44 / 45, -56 / 15, 32 / 9],
  [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
  [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656]];
const B = [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84];       // fifth order
const E = [71 / 57600, 0, -71 / 16695, 71 / 1920, -17253 / 339200, 22 / 525, -1 / 40];  // fifth − fourth
export const MAX_SUBSTEPS = 2000;  // bounded work: give up past this many substeps in one step

// Spring anchored at the origin, rest length 0: a = (−k·p − b·v)/m along each axis.
function springAcceleration(spring, p, v) {
  return (1 / spring.m) * (-spring.k * p - spring.b * v);
}

// What the method carries: the last substep size and the slope at the current state (first same
// as last). Start with newCarry(), and again whenever you move the body by hand or change the forces.
export function newCarry(rtol = 1e-9, atol = 1e-9) {
  return { rtol, atol, substep: 0, started: false, ax: 0, ay: 0 };
}

// The spring step's force, written into the step's buffer: no function is made per call, the
// spring stepped is kept here for it.
let stepped = null;
const springForce = (x, y, vx, vy, out) => {
  out[0] = springAcceleration(stepped, x, vx);
  out[1] = springAcceleration(stepped, y, vy);
};

// body = {x, y, vx, vy} (m, m/s); spring = {k, m, b} (N/m, kg, N·s/m); h = step (s).
export function stepSpring(body, carry, spring, h) {
  stepped = spring;
  return step(body, carry, h, springForce);
}

// The acceleration accel writes (into its last argument): one buffer, made once, so that a step
// allocates nothing.
const acceleration = new Float64Array(2);

// Any force: accel(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out. Returns false when it gave up (more than
// MAX_SUBSTEPS substeps, or a substep below 1e-12·h still too inaccurate): the body is then
// left at its last accepted substep, short of h.
export function step(body, carry, h, accel) {
  const c = carry;
  if (c.substep <= 0) c.substep = h;
  if (!c.started) {
    accel(body.x, body.y, body.vx, body.vy, acceleration);
    c.ax = acceleration[0];
    c.ay = acceleration[1];
    c.started = true;
  }
  let done = 0, substeps = 0;
  while (done < h) {
    if (substeps >= MAX_SUBSTEPS) return false;
    const hs = Math.min(c.substep, h - done);
    const last = hs >= h - done;
    kx[0] = body.vx; ky[0] = body.vy; kvx[0] = c.ax; kvy[0] = c.ay;
    let nx = 0, ny = 0;
    for (let j = 1; j <= 6; j++) {
      // Stage j at (x, v) + hs·Σ a_jm·k_m; stage 6 is the fifth-order solution itself.
      const w = j < 6 ? A[j] : B;
      let sx = 0, sy = 0, svx = 0, svy = 0;
      for (let m = 0; m < j; m++) {
        if (w[m] === 0) continue;  // B[1]
        sx += w[m] * kx[m]; sy += w[m] * ky[m]; svx += w[m] * kvx[m]; svy += w[m] * kvy[m];
      }
      nx = body.x + hs * sx;
      ny = body.y + hs * sy;
      kx[j] = body.vx + hs * svx;
      ky[j] = body.vy + hs * svy;
      accel(nx, ny, kx[j], ky[j], acceleration);
      kvx[j] = acceleration[0];
      kvy[j] = acceleration[1];
    }
    // The local error estimate, each component scaled by atol + rtol·max(|old|, |new|).
    let ex = 0, ey = 0, evx = 0, evy = 0;
    for (let m = 0; m < 7; m++) {
      if (E[m] === 0) continue;
      ex += E[m] * kx[m]; ey += E[m] * ky[m]; evx += E[m] * kvx[m]; evy += E[m] * kvy[m];
    }
    let err = Math.max(scaled(c, hs * ex, body.x, nx), scaled(c, hs * ey, body.y, ny),
      scaled(c, hs * evx, body.vx, kx[6]), scaled(c, hs * evy, body.vy, ky[6]));
    if (!Number.isFinite(err)) err = 1e300;
    const factor = err === 0 ? 5 : Math.min(Math.max(0.9 * Math.pow(err, -0.2), 0.2), 5);
    substeps++;
    if (err > 1 && hs <= 1e-12 * h) return false;  // cannot shrink usefully any more
    if (err <= 1) {
      body.x = nx; body.y = ny; body.vx = kx[6]; body.vy = ky[6];
      c.ax = kvx[6]; c.ay = kvy[6];  // first same as last
      done = last ? h : done + hs;
      if (!last || factor < 1) c.substep = hs * factor;  // a clipped last substep keeps the size
    } else {
      c.substep = hs * factor;
    }
    if (!Number.isFinite(c.substep) || c.substep <= 0) c.substep = h;
  }
  return true;
}

// Stage slopes, reused: position slope = the stage's velocity, velocity slope = its acceleration.
const kx = new Float64Array(7), ky = new Float64Array(7), kvx = new Float64Array(7), kvy = new Float64Array(7);

function scaled(c, e, before, after) {
  return Math.abs(e) / (c.atol + c.rtol * Math.max(Math.abs(before), Math.abs(after)));
}
