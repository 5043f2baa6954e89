// Extended PBD (XPBD): predict with the external forces, then n Gauss–Seidel passes over the
// constraints, each moving a constraint's ends by the update of its multiplier λ (compliance α
// makes a constraint a spring of stiffness 1/α); the velocity is what the positions moved.
// First order: implicit Euler on each compliant constraint, the external forces explicit.
// Force evaluations per step: 1 external-force evaluation + 1 pass over the rows per iteration (default 10).
//
// One call is one substep of h: Stepwise's lane xpbd@SxI is S calls of h = dt/S, I iterations each.
// bodies: [{x, y, vx, vy, invMass}] (m, m/s, 1/kg); invMass 0: a fixed body, never moved.
// constraints: [{i, j, ax, ay, rest, compliance, damping, lambda}]: a distance between bodies i and
//   j, or with j = -1 between body i and the fixed point (ax, ay); rest length (m); compliance
//   α = 1/stiffness (m/N, 0: rigid); damping c (N·s/m) along it. The step writes lambda: the
//   constraint's tension is −lambda/h² (N), e.g. to break it.
// accel(body, out) writes the external acceleration [ax, ay] (m/s²) into out: gravity, dampers, drag.

// Constraint c at the current positions: C = |d| − rest and its direction g = d/|d|, d = x_i − x_j
// (g = 0 where the ends meet: no direction to push along).
// One geometry, filled again by every call (read it before the next): the step allocates nothing.
const scratch = { c: 0, gx: 0, gy: 0 };
function geometry(c, bodies) {
  const a = bodies[c.i];
  const dx = a.x - (c.j < 0 ? c.ax : bodies[c.j].x);
  const dy = a.y - (c.j < 0 ? c.ay : bodies[c.j].y);
  const length = Math.sqrt(dx * dx + dy * dy);
  if (length === 0) {
    scratch.c = -c.rest;
    scratch.gx = 0;
    scratch.gy = 0;
    return scratch;
  }
  scratch.c = length - c.rest;
  scratch.gx = dx / length;
  scratch.gy = dy / length;
  return scratch;
}

// The sum of the ends' inverse masses (a fixed point's is 0).
function inverseMass(c, bodies) {
  return bodies[c.i].invMass + (c.j < 0 ? 0 : bodies[c.j].invMass);
}

// The acceleration accel writes (into its last argument): one buffer, made once, so that a step
// allocates nothing.
const acceleration = new Float64Array(2);

// The predicted positions: v += h·a_ext(x, v), x += h·v, each body's start kept in (x0, y0).
function predict(bodies, h, accel) {
  for (const b of bodies) {
    b.x0 = b.x;
    b.y0 = b.y;
    if (b.invMass === 0) continue;
    accel(b, acceleration);
    const ax = acceleration[0], ay = acceleration[1];
    b.vx += h * ax;
    b.vy += h * ay;
    b.x += h * b.vx;
    b.y += h * b.vy;
  }
}

export function step(bodies, constraints, h, accel, iterations = 10) {
  predict(bodies, h, accel);
  const h2 = h * h;
  for (const c of constraints) c.lambda = 0;
  for (let it = 0; it < iterations; it++) {
    for (const c of constraints) {
      const g = geometry(c, bodies);
      const w = inverseMass(c, bodies);
      if (!(w > 0) || (g.gx === 0 && g.gy === 0)) continue;
      const a = bodies[c.i], b = c.j < 0 ? null : bodies[c.j];
      // How far the ends moved apart along g in this substep: the damper's Ċ·h.
      let mx = a.x - bodies[c.i].x0, my = a.y - bodies[c.i].y0;
      if (b) {
        mx -= b.x - bodies[c.j].x0;
        my -= b.y - bodies[c.j].y0;
      }
      const moved = g.gx * mx + g.gy * my;
      const alpha = c.compliance / h2;
      const gamma = c.compliance * c.damping / h;
      const dl = (-g.c - alpha * c.lambda - gamma * moved) / ((1 + gamma) * w + alpha);
      c.lambda += dl;
      a.x += (a.invMass * dl) * g.gx;
      a.y += (a.invMass * dl) * g.gy;
      if (b) {
        b.x -= (b.invMass * dl) * g.gx;
        b.y -= (b.invMass * dl) * g.gy;
      }
    }
  }
  for (const b of bodies) {
    b.vx = (b.x - b.x0) / h;
    b.vy = (b.y - b.y0) / h;
  }
}
