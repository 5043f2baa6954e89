// Vertex block descent (VBD) with the augmented Lagrangian for rigid constraints: predict with the
// external forces, then n sweeps over the bodies, each taking one 2×2 Newton step on implicit
// Euler's energy as a function of that body alone (inertia, the constraints' springs, their
// dampers); after each sweep a rigid constraint's multiplier and penalty grow. v from the positions.
// First order: its iterations approach implicit Euler's step; the external forces explicit.
// Force evaluations per step: 1 external-force evaluation + 1 sweep over the bodies (every row twice) per iteration (default 10).
//
// One call is one substep of h: Stepwise's lane vbd@SxI is S calls of h = dt/S, I sweeps each.
// bodies: [{x, y, vx, vy, invMass}] (m, m/s, 1/kg); invMass 0: a fixed body, never moved.
// constraints: [{i, j, ax, ay, rest, compliance, damping, lambda}]: a distance between bodies i and
//   j, or with j = -1 between body i and the fixed point (ax, ay); rest length (m); compliance
//   α = 1/stiffness (m/N, 0: rigid); damping c (N·s/m) along it. The step writes lambda and
//   penalty, a rigid constraint's multiplier (N) and stiffness (N/m) of the augmented Lagrangian.
// accel(body, out) writes the external acceleration [ax, ay] (m/s²) into out: gravity, dampers, drag.


// A rigid constraint's penalty starts at its effective mass over h² and grows by β·|C| after each
// sweep: β of Chris Giles's AVBD solver for Solver2D (2025).
const PENALTY_GROWTH = 2e5;  // N/m²

// Constraint c at the current positions: C = |d| − rest, its direction g = d/|d| and |d|, d = x_i − x_j
// (g = 0 where the ends meet: no direction to push along).
// One geometry, filled again by every call (read it before the next): the step allocates nothing.
const scratch = { c: 0, gx: 0, gy: 0, length: 0 };
function geometry(c, bodies) {
  const a = bodies[c.i];
  const dx = a.x - (c.j < 0 ? c.ax : bodies[c.j].x);
  const dy = a.y - (c.j < 0 ? c.ay : bodies[c.j].y);
  const length = Math.sqrt(dx * dx + dy * dy);
  scratch.length = length;
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
  for (const b of bodies) {  // the predicted positions x̃
    b.tx = b.x;
    b.ty = b.y;
  }
  const h2 = h * h;
  for (const c of constraints) {
    c.lambda = 0;
    c.penalty = c.compliance > 0 ? 1 / c.compliance : 1 / (inverseMass(c, bodies) * h2);
  }
  for (let it = 0; it < iterations; it++) {
    for (let n = 0; n < bodies.length; n++) {
      const body = bodies[n];
      if (body.invMass === 0) continue;
      // Newton on G(x_n) = m/(2h²)·|x_n − x̃_n|² + Σ (½k·C² + λ·C + the damper): force f = −∇G,
      // Hessian [[h00, h01], [h01, h11]].
      const inertia = 1 / body.invMass / h2;
      let fx = -inertia * (body.x - body.tx);
      let fy = -inertia * (body.y - body.ty);
      let h00 = inertia, h01 = 0, h11 = inertia;
      // Every constraint is looked at for brevity; with many bodies keep each body's list instead.
      for (const c of constraints) {
        if (c.i !== n && c.j !== n) continue;
        const g = geometry(c, bodies);
        if (g.gx === 0 && g.gy === 0) continue;
        const k = c.penalty, damper = c.damping / h;
        const force = k * g.c + c.lambda;
        // How far the ends moved apart along g in this substep.
        let mx = bodies[c.i].x - bodies[c.i].x0, my = bodies[c.i].y - bodies[c.i].y0;
        if (c.j >= 0) {
          mx -= bodies[c.j].x - bodies[c.j].x0;
          my -= bodies[c.j].y - bodies[c.j].y0;
        }
        const moved = g.gx * mx + g.gy * my;
        // The row pulls body i along −g, body j along +g.
        let pull = force + damper * moved;
        if (c.j === n) pull = -pull;
        fx -= pull * g.gx;
        fy -= pull * g.gy;
        const kk = k + damper;
        h00 += kk * g.gx * g.gx;
        h01 += kk * g.gx * g.gy;
        h11 += kk * g.gy * g.gy;
        // The distance's curvature, kept where it is positive (a stretched constraint).
        if (g.length > 0 && force > 0) {
          const geo = force / g.length;
          h00 += geo * (1 - g.gx * g.gx);
          h01 -= geo * g.gx * g.gy;
          h11 += geo * (1 - g.gy * g.gy);
        }
      }
      const det = h00 * h11 - h01 * h01;
      if (!(det > 0)) continue;
      body.x += (h11 * fx - h01 * fy) / det;
      body.y += (h00 * fy - h01 * fx) / det;
    }
    for (const c of constraints) {
      if (c.compliance > 0) continue;
      const C = geometry(c, bodies).c;
      c.lambda += c.penalty * C;
      c.penalty += PENALTY_GROWTH * Math.abs(C);
    }
  }
  for (const b of bodies) {
    b.vx = (b.x - b.x0) / h;
    b.vy = (b.y - b.y0) / h;
  }
}
