// Störmer–Verlet (position Verlet): x_next = 2x − x_prev + a·h², the first step by Taylor,
// v from the central difference. Second order, symplectic.
// Force evaluations per step: 1 (plus 1 at the start).
public static class StormerVerlet
{
    public struct Body { public double X, Y, Vx, Vy; }  // position (m), velocity (m/s)
    public struct Spring { public double K, M, B; }     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0
    public delegate (double ax, double ay) Acceleration(double x, double y, double vx, double vy);

    // What the method carries between steps: the previous position and the last acceleration.
    // Start from new Carry(), and again whenever you move the body by hand or change h.
    public sealed class Carry { public bool Started; public double PrevX, PrevY, Ax, Ay; }

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

    // Any force: accel(x, y, vx, vy) returns (ax, ay) in m/s². A damping force sees a predicted
    // velocity, so the step stays second order with it.
    public static void Step(ref Body b, Carry c, double h, Acceleration accel)
    {
        double nextX, nextY;
        if (!c.Started)
        {
            var (startAx, startAy) = accel(b.X, b.Y, b.Vx, b.Vy);
            c.Ax = startAx;
            c.Ay = startAy;
            nextX = b.X + h * b.Vx + 0.5 * h * h * c.Ax;  // Taylor
            nextY = b.Y + h * b.Vy + 0.5 * h * h * c.Ay;
            c.Started = true;
        }
        else
        {
            nextX = 2.0 * b.X - c.PrevX + h * h * c.Ax;
            nextY = 2.0 * b.Y - c.PrevY + h * h * c.Ay;
        }
        double vpx = (nextX - b.X) / h + 0.5 * h * c.Ax;  // predicted velocity at the new position
        double vpy = (nextY - b.Y) / h + 0.5 * h * c.Ay;
        c.PrevX = b.X;
        c.PrevY = b.Y;
        b.X = nextX;
        b.Y = nextY;
        var (ax, ay) = accel(b.X, b.Y, vpx, vpy);
        c.Ax = ax;
        c.Ay = ay;
        b.Vx = (b.X - c.PrevX) / h + 0.5 * h * c.Ax;
        b.Vy = (b.Y - c.PrevY) / h + 0.5 * h * c.Ay;
    }
}
