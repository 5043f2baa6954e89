// Midpoint (RK2): half an Euler step, then a full step with the slopes at that midpoint.
// Second order.
// Force evaluations per step: 2.
public static class Midpoint
{
    public struct Body { public double X, Y, Vx, Vy; }  // position (m), velocity (m/s)
    public struct Spring { public double K, M, B; }     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0
    public delegate (double ax, double ay) Acceleration(double x, double y, double vx, double vy);

    // The spring's acceleration along one axis: a = (−k·p − b·v)/m.
    static double SpringAcceleration(Spring s, double p, double v) => (1.0 / s.M) * (-s.K * p - s.B * v);

    public static void StepSpring(ref Body b, Spring s, double h)
    {
        double vmx = b.Vx + 0.5 * h * SpringAcceleration(s, b.X, b.Vx);
        double vmy = b.Vy + 0.5 * h * SpringAcceleration(s, b.Y, b.Vy);
        double amx = SpringAcceleration(s, b.X + 0.5 * h * b.Vx, vmx);
        double amy = SpringAcceleration(s, b.Y + 0.5 * h * b.Vy, vmy);
        b.X += h * vmx;
        b.Y += h * vmy;
        b.Vx += h * amx;
        b.Vy += h * amy;
    }

    // Any force: accel(x, y, vx, vy) returns (ax, ay) in m/s².
    public static void Step(ref Body b, double h, Acceleration accel)
    {
        var (ax, ay) = accel(b.X, b.Y, b.Vx, b.Vy);
        double vmx = b.Vx + 0.5 * h * ax, vmy = b.Vy + 0.5 * h * ay;
        var (amx, amy) = accel(b.X + 0.5 * h * b.Vx, b.Y + 0.5 * h * b.Vy, vmx, vmy);
        b.X += h * vmx;
        b.Y += h * vmy;
        b.Vx += h * amx;
        b.Vy += h * amy;
    }
}
