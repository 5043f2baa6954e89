// Sequential impulses (Box2D v2.4): v += h·a_ext; n Gauss–Seidel passes of impulses at the start
// positions (a rigid constraint drives Ċ to −β·C/h, Baumgarte's bias; a compliant one is Box2D v2's
// soft distance joint, implicit Euler of its spring and damper); then x += h·v.
// First order: velocities first, each spring implicit Euler on the velocity level, then positions.
// Force evaluations per step: 1 external-force evaluation + 1 impulse pass over the rows per iteration (default 8).
//
// One call is one substep of h: Stepwise's lane sequential_impulses@SxI is S calls of h = dt/S, I
// passes each; baumgarte is β (Box2D v2.4's b2_baumgarte).
// A Body's InvMass is 1/m (1/kg); 0: a fixed body, never moved. A Constraint is a distance between
// bodies I and J, or with J = -1 between body I and the fixed point (Ax, Ay); Compliance α =
// 1/stiffness (m/N, 0: rigid); Damping c (N·s/m) along it. The step writes Lambda, the
// impulse it applied (N·s): the constraint's tension is −Lambda/h (N), e.g. to break it.
// accel(body) returns the external acceleration (ax, ay) (m/s²): gravity, dampers, drag.
using System;

public static class SequentialImpulses
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

    public static void Step(Body[] bodies, Constraint[] constraints, double h, Acceleration accel, int iterations = 8,
                            double baumgarte = 0.2)
    {
        IntegrateVelocities(bodies, h, accel);
        for (int q = 0; q < constraints.Length; q++) constraints[q].Lambda = 0;
        for (int it = 0; it < iterations; it++)
        {
            for (int q = 0; q < constraints.Length; q++)
            {
                Constraint c = constraints[q];
                Geometry g = Measure(c, bodies);
                double w = InverseMass(c, bodies);
                if (!(w > 0) || (g.Gx == 0 && g.Gy == 0)) continue;
                double cdot = Along(c, bodies, g);
                double impulse;
                if (c.Compliance == 0)
                {
                    impulse = -(cdot + (baumgarte / h) * g.C) / w;
                }
                else
                {
                    double k = 1 / c.Compliance;
                    double gamma = 1 / (h * (c.Damping + h * k));
                    impulse = -(cdot + g.C * h * k * gamma + gamma * c.Lambda) / (w + gamma);
                }
                constraints[q].Lambda += impulse;
                Push(constraints[q], bodies, impulse, g);
            }
        }
        IntegratePositions(bodies, h);
    }
}
