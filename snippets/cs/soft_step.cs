// Soft step (Box2D v3): v += h·a_ext; warm start (each constraint's impulse from the last call
// applied again along its current direction); n solve passes of soft impulses (a rigid constraint soft at
// the joint frequency, a compliant one as its spring and damper); x += h·v; one relax pass without
// the rigid constraints' bias, which takes back the velocity the bias added.
// First order: each spring is implicit Euler on the velocity level, the external forces explicit.
// Force evaluations per step: 1 external-force evaluation + 1 solve pass per iteration (default 1) + 1 relax pass.
//
// One call is one substep of h: Stepwise's lane soft_step@SxI is S calls of h = dt/S, I solve
// passes each (Box2D: 4 substeps of one).
// A Body's InvMass is 1/m (1/kg); 0: a fixed body, never moved. A Constraint is a distance between
// bodies I and J, or with J = -1 between body I and the fixed point (Ax, Ay); Compliance α =
// 1/stiffness (m/N, 0: rigid); Damping c (N·s/m) along it. Lambda carries the impulse (N·s) from
// call to call (Box2D's warm start: start it at 0, and zero it again when bodies are moved by
// hand); after a call it is the impulse that call applied: the constraint's tension is
// −Lambda/h (N), e.g. to break it.
// accel(body) returns the external acceleration (ax, ay) (m/s²): gravity, dampers, drag.
using System;

public static class SoftStep
{
    public struct Body { public double X, Y, Vx, Vy, InvMass; }  // position (m), velocity (m/s), 1/mass (1/kg)
    public struct Constraint
    {
        public int I, J;            // bodies; J = -1: the fixed point (Ax, Ay)
        public double Ax, Ay;       // m
        public double Rest;         // rest length (m)
        public double Compliance;   // α (m/N); 0: rigid
        public double Damping;      // c (N·s/m) along the constraint
        public double Lambda;       // written by the step
    }
    public delegate (double ax, double ay) Acceleration(Body body);

    // Box2D v3.0's joint softness for rigid constraints (b2DefaultWorldDef): 60 Hz, damping ratio 2,
    // the frequency capped at 1/8 of the substep rate.
    const double JointHertz = 60;
    const double JointDampingRatio = 2;
    const double JointHertzCap = 0.125;  // × 1/h

    // Constraint c at the current positions: C = |d| − rest and its direction g = d/|d|, d = x_i − x_j
    // (g = 0 where the ends meet: no direction to push along).
    struct Geometry { public double C, Gx, Gy; }
    static Geometry Measure(Constraint c, Body[] bodies)
    {
        Body a = bodies[c.I];
        double dx = a.X - (c.J < 0 ? c.Ax : bodies[c.J].X);
        double dy = a.Y - (c.J < 0 ? c.Ay : bodies[c.J].Y);
        double length = Math.Sqrt(dx * dx + dy * dy);
        if (length == 0) return new Geometry { C = -c.Rest };
        return new Geometry { C = length - c.Rest, Gx = dx / length, Gy = dy / length };
    }

    // The sum of the ends' inverse masses (a fixed point's is 0).
    static double InverseMass(Constraint c, Body[] bodies) => bodies[c.I].InvMass + (c.J < 0 ? 0.0 : bodies[c.J].InvMass);

    // v_i += w_i·P·g and v_j −= w_j·P·g: impulse P along g on constraint c's ends.
    static void Push(Constraint c, Body[] bodies, double impulse, Geometry g)
    {
        bodies[c.I].Vx += (bodies[c.I].InvMass * impulse) * g.Gx;
        bodies[c.I].Vy += (bodies[c.I].InvMass * impulse) * g.Gy;
        if (c.J >= 0)
        {
            bodies[c.J].Vx -= (bodies[c.J].InvMass * impulse) * g.Gx;
            bodies[c.J].Vy -= (bodies[c.J].InvMass * impulse) * g.Gy;
        }
    }

    // Ċ: how fast the ends move apart along g.
    static double Along(Constraint c, Body[] bodies, Geometry g)
    {
        Body a = bodies[c.I];
        double dvx = c.J < 0 ? a.Vx : a.Vx - bodies[c.J].Vx;
        double dvy = c.J < 0 ? a.Vy : a.Vy - bodies[c.J].Vy;
        return g.Gx * dvx + g.Gy * dvy;
    }

    // v += h·a_ext(x, v) for every body that moves.
    static void IntegrateVelocities(Body[] bodies, double h, Acceleration accel)
    {
        for (int n = 0; n < bodies.Length; n++)
        {
            if (bodies[n].InvMass == 0) continue;
            var (ax, ay) = accel(bodies[n]);
            bodies[n].Vx += h * ax;
            bodies[n].Vy += h * ay;
        }
    }

    // x += h·v.
    static void IntegratePositions(Body[] bodies, double h)
    {
        for (int n = 0; n < bodies.Length; n++)
        {
            bodies[n].X += h * bodies[n].Vx;
            bodies[n].Y += h * bodies[n].Vy;
        }
    }

    // A spring of angular frequency omega and damping ratio zeta on C, as implicit Euler over h takes
    // it: the bias rate on C, and the scales of the impulse's mass and of the impulse already applied.
    // omega = 0: rigid, no bias.
    struct Softness { public double BiasRate, MassScale, ImpulseScale; }
    static Softness MakeSoft(double omega, double zeta, double h)
    {
        if (omega == 0) return new Softness { BiasRate = 0, MassScale = 1, ImpulseScale = 0 };
        double a1 = 2 * zeta + h * omega;
        double a2 = h * omega * a1;
        double a3 = 1 / (1 + a2);
        return new Softness { BiasRate = omega / a1, MassScale = a2 * a3, ImpulseScale = a3 };
    }

    // One pass over the constraints. A compliant constraint is its spring (stiffness 1/α, damper c) in
    // every pass, given to MakeSoft as ω = √(w/α), ζ = c·w/(2ω); a rigid one is soft at `joint` in a
    // solve pass (useBias) and rigid without bias in the relax pass.
    static void SoftPass(Body[] bodies, Constraint[] constraints, double h, bool useBias, Softness joint)
    {
        for (int q = 0; q < constraints.Length; q++)
        {
            Constraint c = constraints[q];
            Geometry g = Measure(c, bodies);
            double w = InverseMass(c, bodies);
            if (!(w > 0) || (g.Gx == 0 && g.Gy == 0)) continue;
            var soft = new Softness { BiasRate = 0, MassScale = 1, ImpulseScale = 0 };
            if (c.Compliance > 0)
            {
                double omega = Math.Sqrt(w / c.Compliance);
                soft = MakeSoft(omega, c.Damping * w / (2 * omega), h);
            }
            else if (useBias)
            {
                soft = joint;
            }
            double impulse = -soft.MassScale / w * (Along(c, bodies, g) + soft.BiasRate * g.C) - soft.ImpulseScale * c.Lambda;
            constraints[q].Lambda += impulse;
            Push(c, bodies, impulse, g);
        }
    }

    // Warm start: each constraint's impulse from the last call applied again, along its direction
    // at the current positions (Box2D's b2WarmStartDistanceJoint). The passes then add onto
    // Lambda; a constraint that cannot move keeps it.
    static void WarmStart(Body[] bodies, Constraint[] constraints)
    {
        foreach (Constraint c in constraints)
        {
            Geometry g = Measure(c, bodies);
            double w = InverseMass(c, bodies);
            if (!(w > 0) || (g.Gx == 0 && g.Gy == 0)) continue;
            Push(c, bodies, c.Lambda, g);
        }
    }

    public static void Step(Body[] bodies, Constraint[] constraints, double h, Acceleration accel, int iterations = 1)
    {
        IntegrateVelocities(bodies, h, accel);
        WarmStart(bodies, constraints);
        double hertz = Math.Min(JointHertz, JointHertzCap / h);
        Softness joint = MakeSoft(2 * Math.PI * hertz, JointDampingRatio, h);
        for (int it = 0; it < iterations; it++) SoftPass(bodies, constraints, h, true, joint);
        IntegratePositions(bodies, h);
        SoftPass(bodies, constraints, h, false, joint);
    }
}
