// Velocity Verlet: x += v·h + ½a·h², then v += ½(a + a_new)·h; a_new is kept for the next step.
// Second order, symplectic.
// Force evaluations per step: 1 (acceleration reused; plus 1 at the start).
public static class VelocityVerlet
{
    public struct Body { public double X, Y, Vx, Vy; }  // position (m), velocity (m/s)
    public struct Spring { public double K, M, B; }     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0
    public delegate (double ax, double ay) Acceleration(double x, double y, double vx, double vy);

    // The cached acceleration. Start from new Carry(), and again whenever you move the body by hand
    // or change the forces.
    public sealed class Carry { public bool Started; public double Ax, Ay; }

    // The spring's acceleration along one axis: a = (−k·p − b·v)/m.
    static double SpringAcceleration(Spring s, double p, double v) => (1.0 / s.M) * (-s.K * p - s.B * v);

    // The spring step's force, made once: no delegate is made per call, the spring stepped is kept
    // here for it.
    static Spring stepped;
    static readonly Acceleration SpringForce = (x, y, vx, vy) =>
        (SpringAcceleration(stepped, x, vx), SpringAcceleration(stepped, y, vy));

    public static void StepSpring(ref Body b, Carry c, Spring s, double h)
    {
        stepped = s;
        Step(ref b, c, h, SpringForce);
    }

    // Any force: accel(x, y, vx, vy) returns (ax, ay) in m/s². A damping force sees the predicted
    // velocity v + a·h, so the step stays second order with it.
    public static void Step(ref Body b, Carry c, double h, Acceleration accel)
    {
        if (!c.Started)
        {
            var (startAx, startAy) = accel(b.X, b.Y, b.Vx, b.Vy);
            c.Ax = startAx;
            c.Ay = startAy;
            c.Started = true;
        }
        double ax0 = c.Ax, ay0 = c.Ay;
        b.X += h * b.Vx + 0.5 * h * h * ax0;
        b.Y += h * b.Vy + 0.5 * h * h * ay0;
        var (ax, ay) = accel(b.X, b.Y, b.Vx + h * ax0, b.Vy + h * ay0);
        c.Ax = ax;
        c.Ay = ay;
        b.Vx += 0.5 * h * (ax0 + c.Ax);
        b.Vy += 0.5 * h * (ay0 + c.Ay);
    }
}
