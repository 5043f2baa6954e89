// Soft step (Box2D v3): v += h·a_ext; warm start (each constraint's impulse from the last call
// applied again along its current direction); n solve passes of soft impulses (a rigid constraint soft at
// the joint frequency, a compliant one as its spring and damper); x += h·v; one relax pass without
// the rigid constraints' bias, which takes back the velocity the bias added.
// First order: each spring is implicit Euler on the velocity level, the external forces explicit.
// Force evaluations per step: 1 external-force evaluation + 1 solve pass per iteration (default 1) + 1 relax pass.
//
// One call is one substep of h: Stepwise's lane soft_step@SxI is S calls of h = dt/S, I solve
// passes each (Box2D: 4 substeps of one).
// bodies: [{x, y, vx, vy, invMass}] (m, m/s, 1/kg); invMass 0: a fixed body, never moved.
// constraints: [{i, j, ax, ay, rest, compliance, damping, lambda}]: a distance between bodies i and
//   j, or with j = -1 between body i and the fixed point (ax, ay); rest length (m); compliance
//   α = 1/stiffness (m/N, 0: rigid); damping c (N·s/m) along it. lambda carries the impulse (N·s)
//   from call to call (Box2D's warm start: start it at 0, and zero it again when bodies are moved
//   by hand); after a call it is the impulse that call applied: the constraint's tension is
//   −lambda/h (N), e.g. to break it.
// accel(body, out) writes the external acceleration [ax, ay] (m/s²) into out: gravity, dampers, drag.


// Box2D v3.0's joint softness for rigid constraints (b2DefaultWorldDef): 60 Hz, damping ratio 2,
// the frequency capped at 1/8 of the substep rate.
const JOINT_HERTZ = 60;
const JOINT_DAMPING_RATIO = 2;
const JOINT_HERTZ_CAP = 0.125;  // × 1/h

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

// A spring of angular frequency omega and damping ratio zeta on C, as implicit Euler over h takes
// it: the bias rate on C, and the scales of the impulse's mass and of the impulse already applied.
// omega = 0: rigid, no bias. Written into `soft`: one, filled again for every constraint.
const soft = { biasRate: 0, massScale: 1, impulseScale: 0 };
function makeSoft(out, omega, zeta, h) {
  if (omega === 0) {
    out.biasRate = 0;
    out.massScale = 1;
    out.impulseScale = 0;
    return;
  }
  const a1 = 2 * zeta + h * omega;
  const a2 = h * omega * a1;
  const a3 = 1 / (1 + a2);
  out.biasRate = omega / a1;
  out.massScale = a2 * a3;
  out.impulseScale = a3;
}

// One pass over the constraints. A compliant constraint is its spring (stiffness 1/α, damper c) in
// every pass, given to makeSoft as ω = √(w/α), ζ = c·w/(2ω); a rigid one is soft at the joint's
// angular frequency jointOmega in a solve pass (useBias) and rigid without bias in the relax pass.
function softPass(bodies, constraints, h, useBias, jointOmega) {
  for (const c of constraints) {
    const g = geometry(c, bodies);
    const w = inverseMass(c, bodies);
    if (!(w > 0) || (g.gx === 0 && g.gy === 0)) continue;
    if (c.compliance > 0) {
      const omega = Math.sqrt(w / c.compliance);
      makeSoft(soft, omega, c.damping * w / (2 * omega), h);
    } else if (useBias) {
      makeSoft(soft, jointOmega, JOINT_DAMPING_RATIO, h);
    } else {
      makeSoft(soft, 0, 0, h);
    }
    const impulse = -soft.massScale / w * (along(c, bodies, g) + soft.biasRate * g.c) - soft.impulseScale * c.lambda;
    c.lambda += impulse;
    push(c, bodies, impulse, g);
  }
}

// Warm start: each constraint's impulse from the last call applied again, along its direction at
// the current positions (Box2D's b2WarmStartDistanceJoint). The passes then add onto lambda; a
// constraint that cannot move keeps it.
function warmStart(bodies, constraints) {
  for (const c of constraints) {
    const g = geometry(c, bodies);
    const w = inverseMass(c, bodies);
    if (!(w > 0) || (g.gx === 0 && g.gy === 0)) continue;
    push(c, bodies, c.lambda, g);
  }
}

export function step(bodies, constraints, h, accel, iterations = 1) {
  integrateVelocities(bodies, h, accel);
  warmStart(bodies, constraints);
  const hertz = Math.min(JOINT_HERTZ, JOINT_HERTZ_CAP / h);
  const jointOmega = 2 * Math.PI * hertz;
  for (let it = 0; it < iterations; it++) softPass(bodies, constraints, h, true, jointOmega);
  integratePositions(bodies, h);
  softPass(bodies, constraints, h, false, jointOmega);
}
