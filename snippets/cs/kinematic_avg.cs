// Kinematic (average acceleration): as the kinematic integrator (each force's exact dv over the
// step), but every force's dx is ½·dv·h. Second order for one spring, damped or not; first order
// once damping acts beside another force, or with a force without a closed form.
// Force evaluations per step: 1 (each force's closed form).
using System;

public static class KinematicAvg
{
    public struct Body { public double X, Y, Vx, Vy; }  // position (m), velocity (m/s)
    public struct Spring { public double K, M, B; }     // stiffness (N/m), mass (kg), damping (N·s/m); rest length 0
    public delegate (double ax, double ay) Acceleration(double x, double y, double vx, double vy);
    // A force's increment over h: its dv, and its dx beyond v·h (here ½·dv·h).
    public delegate (double dvx, double dvy, double dx, double dy) Force(double x, double y, double vx, double vy, double h);

    // e^x − 1 without cancellation for small x (Kahan's trick; .NET has no Expm1).
    static double Expm1(double x)
    {
        double u = Math.Exp(x);
        if (u == 1.0) return x;
        if (u - 1.0 == -1.0) return -1.0;
        return (u - 1.0) * x / Math.Log(u);
    }

    // The damped oscillator d'' = −w2·d − 2·gamma·d' over time t: d(t) = dd·d0 + dv·v0,
    // v(t) = vd·d0 + vv·v0. Under-, critically and over-damped.
    static (double dd, double dv, double vd, double vv) OscillatorMap(double w2, double gamma, double t)
    {
        double eC, eS;  // e^(−gamma·t) times (cos wt, sin(wt)/w), (1, t) or (cosh rt, sinh(rt)/r)
        double disc = gamma * gamma - w2;
        if (disc < 0.0)
        {
            double w = Math.Sqrt(-disc), decay = Math.Exp(-gamma * t);
            eC = decay * Math.Cos(w * t);
            eS = decay * Math.Sin(w * t) / w;
        }
        else if (disc == 0.0)
        {
            double decay = Math.Exp(-gamma * t);
            eC = decay;
            eS = decay * t;
        }
        else
        {
            double r = Math.Sqrt(disc);  // written with decaying exponentials: no overflow, no cancellation
            if (2.0 * r * t > 700.0)
            {
                eC = 0.5 * Math.Exp((r - gamma) * t);
                eS = eC / r;
            }
            else
            {
                double slow = Math.Exp(-(gamma + r) * t), grow = Expm1(2.0 * r * t);
                eS = slow * grow / (2.0 * r);
                eC = slow * (1.0 + 0.5 * grow);
            }
        }
        return (eC + gamma * eS, eS, -w2 * eS, eC - gamma * eS);
    }

    // What a spring (rest length 0) alone does over h to a body at offset (px, py) from its anchor:
    // its exact dv, and dx = ½·dv·h.
    static (double, double, double, double) SpringIncrement(Spring s, double px, double py, double vx, double vy, double h)
    {
        double invM = 1.0 / s.M;
        var o = OscillatorMap(s.K * invM, 0.5 * s.B * invM, h);
        double dvx = o.vd * px + o.vv * vx - vx, dvy = o.vd * py + o.vv * vy - vy;
        return (dvx, dvy, 0.5 * h * dvx, 0.5 * h * dvy);
    }

    // A spring anchored at the origin.
    public static void StepSpring(ref Body b, Spring s, double h)
    {
        var (dvx, dvy, dx, dy) = SpringIncrement(s, b.X, b.Y, b.Vx, b.Vy, h);
        b.X += h * b.Vx + dx;
        b.Y += h * b.Vy + dy;
        b.Vx += dvx;
        b.Vy += dvy;
    }

    // Any set of forces: build them once with Gravity, SpringForce and Approximate below. Their
    // increments are summed in array order.
    public static void Step(ref Body b, double h, Force[] forces)
    {
        double dvx = 0, dvy = 0, dx = 0, dy = 0;
        foreach (Force force in forces)
        {
            var (fvx, fvy, fx, fy) = force(b.X, b.Y, b.Vx, b.Vy, h);
            dvx += fvx;
            dvy += fvy;
            dx += fx;
            dy += fy;
        }
        b.X += h * b.Vx + dx;
        b.Y += h * b.Vy + dy;
        b.Vx += dvx;
        b.Vy += dvy;
    }

    // A constant acceleration (m/s²): dx = ½·dv·h is its exact displacement.
    public static Force Gravity(double gx, double gy) =>
        (x, y, vx, vy, h) => (h * gx, h * gy, 0.5 * h * h * gx, 0.5 * h * h * gy);
    // A spring of rest length 0 to the anchor (ax, ay): its exact dv.
    public static Force SpringForce(Spring s, double ax = 0.0, double ay = 0.0) =>
        (x, y, vx, vy, h) => SpringIncrement(s, x - ax, y - ay, vx, vy, h);
    // A force without a closed form, accel(x, y, vx, vy) returns (ax, ay): dv = a·h, dx = ½·a·h².
    public static Force Approximate(Acceleration accel) => (x, y, vx, vy, h) =>
    {
        var (ax, ay) = accel(x, y, vx, vy);
        return (h * ax, h * ay, 0.5 * h * (h * ax), 0.5 * h * (h * ay));
    };
}
