// Vertex block descent (VBD) with the augmented Lagrangian for rigid constraints: predict with the
// external forces, then n sweeps over the bodies, each taking one 2×2 Newton step on implicit
// Euler's energy as a function of that body alone (inertia, the constraints' springs, their
// dampers); after each sweep a rigid constraint's multiplier and penalty grow. v from the positions.
// First order: its iterations approach implicit Euler's step; the external forces explicit.
// Force evaluations per step: 1 external-force evaluation + 1 sweep over the bodies (every row twice) per iteration (default 10).
//
// One call is one substep of h: Stepwise's lane vbd@SxI is S calls of h = dt/S, I sweeps each.
// A Body's InvMass is 1/m (1/kg); 0: a fixed body, never moved. A Constraint is a distance between
// bodies I and J, or with J = -1 between body I and the fixed point (Ax, Ay); Compliance α =
// 1/stiffness (m/N, 0: rigid); Damping c (N·s/m) along it. The step writes Lambda and
// Penalty, a rigid constraint's multiplier (N) and stiffness (N/m) of the augmented Lagrangian.
// accel(body) returns the external acceleration (ax, ay) (m/s²): gravity, dampers, drag.
using System;

public static class Vbd
{
    // X0, Y0 keep where the body was at the substep's start: the step allocates nothing.
    public struct Body
    {
        public double X, Y, Vx, Vy, InvMass;  // position (m), velocity (m/s), 1/mass (1/kg)
        public double X0, Y0;  // written by the step: the position at the substep's start
        public double Tx, Ty;  // written by the step: the predicted position x̃
    }
    public struct Constraint
    {
        public int I, J;            // bodies; J = -1: the fixed point (Ax, Ay)
        public double Ax, Ay;       // m
        public double Rest;         // rest length (m)
        public double Compliance;   // α (m/N); 0: rigid
        public double Damping;      // c (N·s/m) along the constraint
        public double Lambda;       // written by the step
        public double Penalty;      // written by the step
    }
    public delegate (double ax, double ay) Acceleration(Body body);

    // A rigid constraint's penalty starts at its effective mass over h² and grows by β·|C| after each
    // sweep: β of Chris Giles's AVBD solver for Solver2D (2025).
    const double PenaltyGrowth = 2e5;  // N/m²

    // Constraint c at the current positions: C = |d| − rest, its direction g = d/|d| and |d|, d = x_i − x_j
    // (g = 0 where the ends meet: no direction to push along).
    struct Geometry { public double C, Gx, Gy, Length; }
    static Geometry Measure(Constraint c, Body[] bodies)
    {
        Body a = bodies[c.I];
        double dx = a.X - (c.J < 0 ? c.Ax : bodies[c.J].X);
        double dy = a.Y - (c.J < 0 ? c.Ay : bodies[c.J].Y);
        double length = Math.Sqrt(dx * dx + dy * dy);
        if (length == 0) return new Geometry { C = -c.Rest, Length = length };
        return new Geometry { C = length - c.Rest, Gx = dx / length, Gy = dy / length, Length = length };
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
        for (int n = 0; n < bodies.Length; n++)
        {
            bodies[n].Tx = bodies[n].X;  // the predicted positions x̃
            bodies[n].Ty = bodies[n].Y;
        }
        double h2 = h * h;
        for (int q = 0; q < constraints.Length; q++)
        {
            constraints[q].Lambda = 0;
            constraints[q].Penalty = constraints[q].Compliance > 0 ? 1 / constraints[q].Compliance
                                                                   : 1 / (InverseMass(constraints[q], bodies) * h2);
        }
        for (int it = 0; it < iterations; it++)
        {
            for (int n = 0; n < bodies.Length; n++)
            {
                if (bodies[n].InvMass == 0) continue;
                // Newton on G(x_n) = m/(2h²)·|x_n − x̃_n|² + Σ (½k·C² + λ·C + the damper): force f = −∇G,
                // Hessian [[h00, h01], [h01, h11]].
                double inertia = 1 / bodies[n].InvMass / h2;
                double fx = -inertia * (bodies[n].X - bodies[n].Tx);
                double fy = -inertia * (bodies[n].Y - bodies[n].Ty);
                double h00 = inertia, h01 = 0, h11 = inertia;
                // Every constraint is looked at for brevity; with many bodies keep each body's list instead.
                foreach (Constraint c in constraints)
                {
                    if (c.I != n && c.J != n) continue;
                    Geometry g = Measure(c, bodies);
                    if (g.Gx == 0 && g.Gy == 0) continue;
                    double k = c.Penalty, damper = c.Damping / h;
                    double force = k * g.C + c.Lambda;
                    // How far the ends moved apart along g in this substep.
                    double mx = bodies[c.I].X - bodies[c.I].X0, my = bodies[c.I].Y - bodies[c.I].Y0;
                    if (c.J >= 0)
                    {
                        mx -= bodies[c.J].X - bodies[c.J].X0;
                        my -= bodies[c.J].Y - bodies[c.J].Y0;
                    }
                    double moved = g.Gx * mx + g.Gy * my;
                    // The row pulls body i along −g, body j along +g.
                    double pull = force + damper * moved;
                    if (c.J == n) pull = -pull;
                    fx -= pull * g.Gx;
                    fy -= pull * g.Gy;
                    double kk = k + damper;
                    h00 += kk * g.Gx * g.Gx;
                    h01 += kk * g.Gx * g.Gy;
                    h11 += kk * g.Gy * g.Gy;
                    // The distance's curvature, kept where it is positive (a stretched constraint).
                    if (g.Length > 0 && force > 0)
                    {
                        double geo = force / g.Length;
                        h00 += geo * (1 - g.Gx * g.Gx);
                        h01 -= geo * g.Gx * g.Gy;
                        h11 += geo * (1 - g.Gy * g.Gy);
                    }
                }
                double det = h00 * h11 - h01 * h01;
                if (!(det > 0)) continue;
                bodies[n].X += (h11 * fx - h01 * fy) / det;
                bodies[n].Y += (h00 * fy - h01 * fx) / det;
            }
            for (int q = 0; q < constraints.Length; q++)
            {
                if (constraints[q].Compliance > 0) continue;
                double C = Measure(constraints[q], bodies).C;
                constraints[q].Lambda += constraints[q].Penalty * C;
                constraints[q].Penalty += PenaltyGrowth * Math.Abs(C);
            }
        }
        for (int n = 0; n < bodies.Length; n++)
        {
            bodies[n].Vx = (bodies[n].X - bodies[n].X0) / h;
            bodies[n].Vy = (bodies[n].Y - bodies[n].Y0) / h;
        }
    }
}
