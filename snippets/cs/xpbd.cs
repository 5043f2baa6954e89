// Extended PBD (XPBD): predict with the external forces, then n Gauss–Seidel passes over the
// constraints, each moving a constraint's ends by the update of its multiplier λ (compliance α
// makes a constraint a spring of stiffness 1/α); the velocity is what the positions moved.
// First order: implicit Euler on each compliant constraint, the external forces explicit.
// Force evaluations per step: 1 external-force evaluation + 1 pass over the rows per iteration (default 10).
//
// One call is one substep of h: Stepwise's lane xpbd@SxI is S calls of h = dt/S, I iterations each.
// A Body's InvMass is 1/m (1/kg); 0: a fixed body, never moved. A Constraint is a distance between
// bodies I and J, or with J = -1 between body I and the fixed point (Ax, Ay); Compliance α =
// 1/stiffness (m/N, 0: rigid); Damping c (N·s/m) along it. The step writes Lambda: the
// constraint's tension is −Lambda/h² (N), e.g. to break it.
// accel(body) returns the external acceleration (ax, ay) (m/s²): gravity, dampers, drag.
using System;

public static class Xpbd
{
    // X0, Y0 keep where the body was at the substep's start: the step allocates nothing.
    public struct Body
    {
        public double X, Y, Vx, Vy, InvMass;  // position (m), velocity (m/s), 1/mass (1/kg)
        public double X0, Y0;  // written by the step: the position at the substep's start
    }
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

    // The predicted positions: v += h·a_ext(x, v), x += h·v, each body's start kept in (X0, Y0).
    static void Predict(Body[] bodies, double h, Acceleration accel)
    {
        for (int n = 0; n < bodies.Length; n++)
        {
            bodies[n].X0 = bodies[n].X;
            bodies[n].Y0 = bodies[n].Y;
            if (bodies[n].InvMass == 0) continue;
            var (ax, ay) = accel(bodies[n]);
            bodies[n].Vx += h * ax;
            bodies[n].Vy += h * ay;
            bodies[n].X += h * bodies[n].Vx;
            bodies[n].Y += h * bodies[n].Vy;
        }
    }

    public static void Step(Body[] bodies, Constraint[] constraints, double h, Acceleration accel, int iterations = 10)
    {
        Predict(bodies, h, accel);
        double h2 = h * h;
        for (int q = 0; q < constraints.Length; q++) constraints[q].Lambda = 0;
        for (int it = 0; it < iterations; it++)
        {
            for (int q = 0; q < constraints.Length; q++)
            {
                Constraint c = constraints[q];
                Geometry g = Measure(c, bodies);
                double w = InverseMass(c, bodies);
                if (!(w > 0) || (g.Gx == 0 && g.Gy == 0)) continue;
                // How far the ends moved apart along g in this substep: the damper's Ċ·h.
                double mx = bodies[c.I].X - bodies[c.I].X0, my = bodies[c.I].Y - bodies[c.I].Y0;
                if (c.J >= 0)
                {
                    mx -= bodies[c.J].X - bodies[c.J].X0;
                    my -= bodies[c.J].Y - bodies[c.J].Y0;
                }
                double moved = g.Gx * mx + g.Gy * my;
                double alpha = c.Compliance / h2;
                double gamma = c.Compliance * c.Damping / h;
                double dl = (-g.C - alpha * c.Lambda - gamma * moved) / ((1 + gamma) * w + alpha);
                constraints[q].Lambda += dl;
                bodies[c.I].X += (bodies[c.I].InvMass * dl) * g.Gx;
                bodies[c.I].Y += (bodies[c.I].InvMass * dl) * g.Gy;
                if (c.J >= 0)
                {
                    bodies[c.J].X -= (bodies[c.J].InvMass * dl) * g.Gx;
                    bodies[c.J].Y -= (bodies[c.J].InvMass * dl) * g.Gy;
                }
            }
        }
        for (int n = 0; n < bodies.Length; n++)
        {
            bodies[n].Vx = (bodies[n].X - bodies[n].X0) / h;
            bodies[n].Vy = (bodies[n].Y - bodies[n].Y0) / h;
        }
    }
}
