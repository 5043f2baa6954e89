// Heun: an Euler predictor, then the average of the slopes at both ends (trapezoid).
// Second order.
// Force evaluations per step: 2.
public static class Heun
{
    public struct Body { public double X, Y, Vx, Vy; }  // position (m), velocity (m/s)
    public struct Spring { public double K, M, B; }     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0
    public delegate (double ax, double ay) Acceleration(double x, double y, double vx, double vy);

    // The spring's acceleration along one axis: a = (−k·p − b·v)/m.
    static double SpringAcceleration(Spring s, double p, double v) => (1.0 / s.M) * (-s.K * p - s.B * v);

    public static void StepSpring(ref Body b, Spring s, double h)
    {
        double ax1 = SpringAcceleration(s, b.X, b.Vx), ay1 = SpringAcceleration(s, b.Y, b.Vy);
        double vpx = b.Vx + h * ax1, vpy = b.Vy + h * ay1;  // predicted end velocity
        double ax2 = SpringAcceleration(s, b.X + h * b.Vx, vpx);
        double ay2 = SpringAcceleration(s, b.Y + h * b.Vy, vpy);
        b.X += 0.5 * h * (b.Vx + vpx);
        b.Y += 0.5 * h * (b.Vy + vpy);
        b.Vx += 0.5 * h * (ax1 + ax2);
        b.Vy += 0.5 * h * (ay1 + ay2);
    }

    // Any force: accel(x, y, vx, vy) returns (ax, ay) in m/s².
    public static void Step(ref Body b, double h, Acceleration accel)
    {
        var (ax1, ay1) = accel(b.X, b.Y, b.Vx, b.Vy);
        double vpx = b.Vx + h * ax1, vpy = b.Vy + h * ay1;  // predicted end velocity
        var (ax2, ay2) = accel(b.X + h * b.Vx, b.Y + h * b.Vy, vpx, vpy);
        b.X += 0.5 * h * (b.Vx + vpx);
        b.Y += 0.5 * h * (b.Vy + vpy);
        b.Vx += 0.5 * h * (ax1 + ax2);
        b.Vy += 0.5 * h * (ay1 + ay2);
    }
}
