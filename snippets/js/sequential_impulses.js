// Sequential impulses (Box2D v2.4): v += h·a_ext; n Gauss–Seidel passes of impulses at the start
// positions (a rigid constraint drives Ċ to −β·C/h, Baumgarte's bias; a compliant one is Box2D v2's
// soft distance joint, implicit Euler of its spring and damper); then x += h·v.
// First order: velocities first, each spring implicit Euler on the velocity level, then positions.
// Force evaluations per step: 1 external-force evaluation + 1 impulse pass over the rows per iteration (default 8).
//
// One call is one substep of h: Stepwise's lane sequential_impulses@SxI is S calls of h = dt/S, I
// passes each; baumgarte is β (Box2D v2.4's b2_baumgarte).
// bodies: [{x, y, vx, vy, invMass}] (m, m/s, 1/kg); invMass 0: a fixed body, never moved.
// constraints: [{i, j, ax, ay, rest, compliance, damping, lambda}]: a distance between bodies i and
//   j, or with j = -1 between body i and the fixed point (ax, ay); rest length (m); compliance
//   α = 1/stiffness (m/N, 0: rigid); damping c (N·s/m) along it. The step writes lambda, the
//   impulse it applied (N·s): the constraint's tension is −lambda/h (N), e.g. to break it.
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


// v_i += w_i·P·g and v_j −= w_j·P·g: impulse P along g on constraint c's ends.
function push(c, bodies, impulse, g) {
  const a = bodies[c.i];
  a.vx += (a.invMass * impulse) * g.gx;
  a.vy += (a.invMass * impulse) * g.gy;
  if (c.j >= 0) {
    const b = bodies[c.j];
    b.vx -= (b.invMass * impulse) * g.gx;
    b.vy -= (b.invMass * impulse) * g.gy;
  }
}

// Ċ: how fast the ends move apart along g.
function along(c, bodies, g) {
  const a = bodies[c.i];
  const dvx = c.j < 0 ? a.vx : a.vx - bodies[c.j].vx;
  const dvy = c.j < 0 ? a.vy : a.vy - bodies[c.j].vy;
  return g.gx * dvx + g.gy * dvy;
}

// The acceleration accel writes (into its last argument): one buffer, made once, so that a step
// allocates nothing.
const acceleration = new Float64Array(2);

// v += h·a_ext(x, v) for every body that moves.
function integrateVelocities(bodies, h, accel) {
  for (const b of bodies) {
    if (b.invMass === 0) continue;
    accel(b, acceleration);
    const ax = acceleration[0], ay = acceleration[1];
    b.vx += h * ax;
    b.vy += h * ay;
  }
}

// x += h·v.
function integratePositions(bodies, h) {
  for (const b of bodies) {
    b.x += h * b.vx;
    b.y += h * b.vy;
  }
}

export function step(bodies, constraints, h, accel, iterations = 8, baumgarte = 0.2) {
  integrateVelocities(bodies, h, accel);
  for (const c of constraints) c.lambda = 0;
  for (let it = 0; it < iterations; it++) {
    for (const c of constraints) {
      const g = geometry(c, bodies);
      const w = inverseMass(c, bodies);
      if (!(w > 0) || (g.gx === 0 && g.gy === 0)) continue;
      const cdot = along(c, bodies, g);
      let impulse;
      if (c.compliance === 0) {
        impulse = -(cdot + (baumgarte / h) * g.c) / w;
      } else {
        const k = 1 / c.compliance;
        const gamma = 1 / (h * (c.damping + h * k));
        impulse = -(cdot + g.c * h * k * gamma + gamma * c.lambda) / (w + gamma);
      }
      c.lambda += impulse;
      push(c, bodies, impulse, g);
    }
  }
  integratePositions(bodies, h);
}
