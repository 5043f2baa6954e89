// Dormand–Prince 5(4): adaptive Runge–Kutta with error control. Each call advances exactly h,
// in as many internal substeps as rtol needs (six force evaluations each; the seventh is reused).
// No order in h: its error follows the tolerance.
// Force evaluations per step: 6 per accepted substep (the 7th is the next one's first; adaptive).
using System;

public static class Rk45
{
    public struct Body { public double X, Y, Vx, Vy; }  // position (m), velocity (m/s)
    public struct Spring { public double K, M, B; }     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0
    public delegate (double ax, double ay) Acceleration(double x, double y, double vx, double vy);

    // Butcher tableau (the nodes c are not needed: the forces do not depend on time).
    static readonly double[][] A = {
        new double[0],
        new[] { 1.0 / 5 },
        new[] { 3.0 / 40, 9.0 / 40 },
        new[] { 44.0 / 45, -56.0 / 15, 32.0 / 9 },
        new[] { 19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729 },
        new[] { 9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656 } };
    static readonly double[] B = { 35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84 };  // fifth order
    static readonly double[] E = { 71.0 / 57600, 0, -71.0 / 16695, 71.0 / 1920, -17253.0 / 339200, 22.0 / 525, -1.0 / 40 };  // fifth − fourth
    public const int MaxSubsteps = 2000;  // bounded work: give up past this many substeps in one step

    // What the method carries: the tolerances, the last substep size and the slope at the current
    // state (first same as last). Start from new Carry(), and again whenever you move the body by
    // hand or change the forces.
    public sealed class Carry
    {
        public double Rtol = 1e-9, Atol = 1e-9, Substep;
        public bool Started;
        public double Ax, Ay;
        // Stage slopes, reused: position slope = the stage's velocity, velocity slope = its acceleration.
        internal readonly double[] Kx = new double[7], Ky = new double[7], Kvx = new double[7], Kvy = new double[7];
    }

    // The spring's acceleration along one axis: a = (−k·p − b·v)/m.
    static double SpringAcceleration(Spring s, double p, double v) => (1.0 / s.M) * (-s.K * p - s.B * v);

    // The spring step's force, made once: no delegate is made per call, the spring stepped is kept
    // here for it.
    static Spring stepped;
    static readonly Acceleration SpringForce = (x, y, vx, vy) =>
        (SpringAcceleration(stepped, x, vx), SpringAcceleration(stepped, y, vy));

    public static bool StepSpring(ref Body b, Carry c, Spring s, double h)
    {
        stepped = s;
        return Step(ref b, c, h, SpringForce);
    }

    static double Scaled(Carry c, double e, double before, double after) =>
        Math.Abs(e) / (c.Atol + c.Rtol * Math.Max(Math.Abs(before), Math.Abs(after)));

    // Any force: accel(x, y, vx, vy) returns (ax, ay) in m/s². Returns false when it gave up (more
    // than MaxSubsteps substeps, or a substep below 1e-12·h still too inaccurate): the body is then
    // left at its last accepted substep, short of h.
    public static bool Step(ref Body b, Carry c, double h, Acceleration accel)
    {
        double[] kx = c.Kx, ky = c.Ky, kvx = c.Kvx, kvy = c.Kvy;
        if (c.Substep <= 0) c.Substep = h;
        if (!c.Started)
        {
            var (ax, ay) = accel(b.X, b.Y, b.Vx, b.Vy);
            c.Ax = ax;
            c.Ay = ay;
            c.Started = true;
        }
        double done = 0;
        int substeps = 0;
        while (done < h)
        {
            if (substeps >= MaxSubsteps) return false;
            double hs = Math.Min(c.Substep, h - done);
            bool last = hs >= h - done;
            kx[0] = b.Vx; ky[0] = b.Vy; kvx[0] = c.Ax; kvy[0] = c.Ay;
            double nx = 0, ny = 0;
            for (int j = 1; j <= 6; j++)
            {
                // Stage j at (x, v) + hs·Σ a_jm·k_m; stage 6 is the fifth-order solution itself.
                double[] w = j < 6 ? A[j] : B;
                double sx = 0, sy = 0, svx = 0, svy = 0;
                for (int m = 0; m < j; m++)
                {
                    if (w[m] == 0) continue;  // B[1]
                    sx += w[m] * kx[m]; sy += w[m] * ky[m]; svx += w[m] * kvx[m]; svy += w[m] * kvy[m];
                }
                nx = b.X + hs * sx;
                ny = b.Y + hs * sy;
                kx[j] = b.Vx + hs * svx;
                ky[j] = b.Vy + hs * svy;
                var (ax, ay) = accel(nx, ny, kx[j], ky[j]);
                kvx[j] = ax;
                kvy[j] = ay;
            }
            // The local error estimate, each component scaled by atol + rtol·max(|old|, |new|).
            double ex = 0, ey = 0, evx = 0, evy = 0;
            for (int m = 0; m < 7; m++)
            {
                if (E[m] == 0) continue;
                ex += E[m] * kx[m]; ey += E[m] * ky[m]; evx += E[m] * kvx[m]; evy += E[m] * kvy[m];
            }
            double err = Math.Max(Math.Max(Scaled(c, hs * ex, b.X, nx), Scaled(c, hs * ey, b.Y, ny)),
                                  Math.Max(Scaled(c, hs * evx, b.Vx, kx[6]), Scaled(c, hs * evy, b.Vy, ky[6])));
            if (double.IsNaN(err) || double.IsInfinity(err)) err = 1e300;
            double factor = err == 0 ? 5.0 : Math.Min(Math.Max(0.9 * Math.Pow(err, -0.2), 0.2), 5.0);
            substeps++;
            if (err > 1 && hs <= 1e-12 * h) return false;  // cannot shrink usefully any more
            if (err <= 1)
            {
                b.X = nx; b.Y = ny; b.Vx = kx[6]; b.Vy = ky[6];
                c.Ax = kvx[6]; c.Ay = kvy[6];  // first same as last
                done = last ? h : done + hs;
                if (!last || factor < 1) c.Substep = hs * factor;  // a clipped last substep keeps the size
            }
            else
            {
                c.Substep = hs * factor;
            }
            if (double.IsNaN(c.Substep) || double.IsInfinity(c.Substep) || c.Substep <= 0) c.Substep = h;
        }
        return true;
    }
}
