// Yoshida 4 (Forest–Ruth), a symplectic composition: three Verlet steps of weights w1, w0, w1
// (w0 < 0), i.e. four drifts and three kicks. Fourth order.
// Damping is not kicked: its exact flow is applied on either side of each kick, so it stays fourth order.
// Force evaluations per step: 3.
using System;

public static class Yoshida4
{
    public struct Body { public double X, Y, Vx, Vy; }  // position (m), velocity (m/s)
    public struct Spring { public double K, M, B; }     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0
    public delegate (double ax, double ay) Acceleration(double x, double y, double vx, double vy);
    public delegate (double vx, double vy) Dissipation(double vx, double vy, double t, bool reverse);

    const double Cbrt2 = 1.2599210498948732;  // 2^(1/3)
    const double W1 = 1.0 / (2.0 - Cbrt2), W0 = -Cbrt2 / (2.0 - Cbrt2);
    static readonly double[] Drift = { 0.5 * W1, 0.5 * (W0 + W1), 0.5 * (W0 + W1), 0.5 * W1 };
    static readonly double[] Kick = { W1, W0, W1 };

    // The kick is the spring −k·x/m; the damper's flow is v·e^(−b·t/m).
    public static void StepSpring(ref Body b, Spring s, double h)
    {
        double invM = 1.0 / s.M;
        for (int i = 0; i < 4; i++)
        {
            b.X += Drift[i] * h * b.Vx;
            b.Y += Drift[i] * h * b.Vy;
            if (i == 3) break;
            double damp = Math.Exp(-s.B * invM * (0.5 * Kick[i] * h));  // the damper alone, half the kick's time
            b.Vx *= damp;
            b.Vy *= damp;
            b.Vx += Kick[i] * h * (invM * (-s.K * b.X));
            b.Vy += Kick[i] * h * (invM * (-s.K * b.Y));
            b.Vx *= damp;
            b.Vy *= damp;
        }
    }

    // Any force: accel(x, y, vx, vy) returns (ax, ay) in m/s². Without damping, leave dissipate null.
    // With damping or drag, accel must give the other forces (it is called with v = 0) and
    // dissipate(vx, vy, t, reverse) must return (vx, vy) after the damping forces alone act for t
    // (t may be negative; with several such forces apply them in reverse order when reverse is true).
    public static void Step(ref Body b, double h, Acceleration accel, Dissipation dissipate = null)
    {
        for (int i = 0; i < 4; i++)
        {
            b.X += Drift[i] * h * b.Vx;
            b.Y += Drift[i] * h * b.Vy;
            if (i == 3) break;
            double t = 0.5 * Kick[i] * h;
            if (dissipate != null)
            {
                var (ux, uy) = dissipate(b.Vx, b.Vy, t, false);
                b.Vx = ux;
                b.Vy = uy;
            }
            var (ax, ay) = dissipate != null ? accel(b.X, b.Y, 0.0, 0.0) : accel(b.X, b.Y, b.Vx, b.Vy);
            b.Vx += Kick[i] * h * ax;
            b.Vy += Kick[i] * h * ay;
            if (dissipate != null)
            {
                var (ux, uy) = dissipate(b.Vx, b.Vy, t, true);
                b.Vx = ux;
                b.Vy = uy;
            }
        }
    }
}
