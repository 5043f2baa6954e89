// Leapfrog (kick-drift-kick): the velocity lives at half steps, started with a half kick;
// Body's V is the synchronised velocity. Second order, symplectic.
// Force evaluations per step: 1 (plus 1 at the start).
public static class Leapfrog
{
    public struct Body { public double X, Y, Vx, Vy; }  // position (m), velocity (m/s)
    public struct Spring { public double K, M, B; }     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0
    public delegate (double ax, double ay) Acceleration(double x, double y, double vx, double vy);

    // What leapfrog carries between steps. Start from new Carry(), and again whenever you move the
    // body by hand or change h (the half-step velocity belongs to one h).
    public sealed class Carry { public bool Started; public double Vhx, Vhy, Ax, Ay; }

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
    // end velocity, so the step stays second order with it.
    public static void Step(ref Body b, Carry c, double h, Acceleration accel)
    {
        if (!c.Started)
        {
            var (startAx, startAy) = accel(b.X, b.Y, b.Vx, b.Vy);
            c.Ax = startAx;
            c.Ay = startAy;
            c.Vhx = b.Vx + 0.5 * h * c.Ax;  // the starting half kick
            c.Vhy = b.Vy + 0.5 * h * c.Ay;
            c.Started = true;
        }
        b.X += h * c.Vhx;  // drift
        b.Y += h * c.Vhy;
        var (ax, ay) = accel(b.X, b.Y, c.Vhx + 0.5 * h * c.Ax, c.Vhy + 0.5 * h * c.Ay);
        c.Ax = ax;
        c.Ay = ay;
        b.Vx = c.Vhx + 0.5 * h * c.Ax;  // synchronised velocity
        b.Vy = c.Vhy + 0.5 * h * c.Ay;
        c.Vhx += h * c.Ax;  // kick to the next half step
        c.Vhy += h * c.Ay;
    }
}
