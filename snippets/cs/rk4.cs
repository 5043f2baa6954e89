// Runge–Kutta 4 (the classic RK4): four slopes per step, weighted 1, 2, 2, 1.
// Fourth order; on an undamped spring it slowly loses energy.
// Force evaluations per step: 4.
public static class Rk4
{
    public struct Body { public double X, Y, Vx, Vy; }  // position (m), velocity (m/s)
    public struct Spring { public double K, M, B; }     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0
    public delegate (double ax, double ay) Acceleration(double x, double y, double vx, double vy);

    // The spring's acceleration along one axis: a = (−k·p − b·v)/m.
    static double SpringAcceleration(Spring s, double p, double v) => (1.0 / s.M) * (-s.K * p - s.B * v);

    // The spring acts on each axis alone, so each axis takes the same four stages.
    static void Axis(Spring s, double h, ref double p, ref double v)
    {
        double a1 = SpringAcceleration(s, p, v);
        double v2 = v + 0.5 * h * a1;
        double a2 = SpringAcceleration(s, p + 0.5 * h * v, v2);
        double v3 = v + 0.5 * h * a2;
        double a3 = SpringAcceleration(s, p + 0.5 * h * v2, v3);
        double v4 = v + h * a3;
        double a4 = SpringAcceleration(s, p + h * v3, v4);
        p += (h / 6.0) * (v + 2.0 * (v2 + v3) + v4);
        v += (h / 6.0) * (a1 + 2.0 * (a2 + a3) + a4);
    }

    public static void StepSpring(ref Body b, Spring s, double h)
    {
        Axis(s, h, ref b.X, ref b.Vx);
        Axis(s, h, ref b.Y, ref b.Vy);
    }

    // Any force: accel(x, y, vx, vy) returns (ax, ay) in m/s².
    public static void Step(ref Body b, double h, Acceleration accel)
    {
        double x = b.X, y = b.Y, vx = b.Vx, vy = b.Vy;
        var (ax1, ay1) = accel(x, y, vx, vy);
        double vx2 = vx + 0.5 * h * ax1, vy2 = vy + 0.5 * h * ay1;
        var (ax2, ay2) = accel(x + 0.5 * h * vx, y + 0.5 * h * vy, vx2, vy2);
        double vx3 = vx + 0.5 * h * ax2, vy3 = vy + 0.5 * h * ay2;
        var (ax3, ay3) = accel(x + 0.5 * h * vx2, y + 0.5 * h * vy2, vx3, vy3);
        double vx4 = vx + h * ax3, vy4 = vy + h * ay3;
        var (ax4, ay4) = accel(x + h * vx3, y + h * vy3, vx4, vy4);
        b.X = x + (h / 6.0) * (vx + 2.0 * (vx2 + vx3) + vx4);
        b.Y = y + (h / 6.0) * (vy + 2.0 * (vy2 + vy3) + vy4);
        b.Vx = vx + (h / 6.0) * (ax1 + 2.0 * (ax2 + ax3) + ax4);
        b.Vy = vy + (h / 6.0) * (ay1 + 2.0 * (ay2 + ay3) + ay4);
    }
}
