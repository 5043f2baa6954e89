// Semi-implicit Euler (symplectic, velocity first): v += a·h, then x += v_new·h.
// First order; keeps a spring's energy bounded (no drift), its phase lags.
// Force evaluations per step: 1.
public static class SemiImplicitEuler
{
    public struct Body { public double X, Y, Vx, Vy; }  // position (m), velocity (m/s)
    public struct Spring { public double K, M, B; }     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0
    public delegate (double ax, double ay) Acceleration(double x, double y, double vx, double vy);

    // The spring's acceleration along one axis: a = (−k·p − b·v)/m.
    static double SpringAcceleration(Spring s, double p, double v) => (1.0 / s.M) * (-s.K * p - s.B * v);

    public static void StepSpring(ref Body b, Spring s, double h)
    {
        double ax = SpringAcceleration(s, b.X, b.Vx), ay = SpringAcceleration(s, b.Y, b.Vy);
        b.Vx += h * ax;
        b.Vy += h * ay;
        b.X += h * b.Vx;
        b.Y += h * b.Vy;
    }

    // Any force: accel(x, y, vx, vy) returns (ax, ay) in m/s².
    public static void Step(ref Body b, double h, Acceleration accel)
    {
        var (ax, ay) = accel(b.X, b.Y, b.Vx, b.Vy);
        b.Vx += h * ax;
        b.Vy += h * ay;
        b.X += h * b.Vx;
        b.Y += h * b.Vy;
    }
}
