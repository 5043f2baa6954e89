// Newton (constant acceleration): x += v·h + ½a·h², v += a·h.
// Exact for a constant force (a projectile without drag), first order otherwise.
// Force evaluations per step: 1.
public static class Newton
{
    public struct Body { public double X, Y, Vx, Vy; }  // position (m), velocity (m/s)
    public struct Spring { public double K, M, B; }     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0
    public delegate (double ax, double ay) Acceleration(double x, double y, double vx, double vy);

    // The spring's acceleration along one axis: a = (−k·p − b·v)/m.
    static double SpringAcceleration(Spring s, double p, double v) => (1.0 / s.M) * (-s.K * p - s.B * v);

    public static void StepSpring(ref Body b, Spring s, double h)
    {
        double ax = SpringAcceleration(s, b.X, b.Vx), ay = SpringAcceleration(s, b.Y, b.Vy);
        b.X += h * b.Vx + 0.5 * h * h * ax;
        b.Y += h * b.Vy + 0.5 * h * h * ay;
        b.Vx += h * ax;
        b.Vy += h * ay;
    }

    // Any force: accel(x, y, vx, vy) returns (ax, ay) in m/s².
    public static void Step(ref Body b, double h, Acceleration accel)
    {
        var (ax, ay) = accel(b.X, b.Y, b.Vx, b.Vy);
        b.X += h * b.Vx + 0.5 * h * h * ax;
        b.Y += h * b.Vy + 0.5 * h * h * ay;
        b.Vx += h * ax;
        b.Vy += h * ay;
    }
}
