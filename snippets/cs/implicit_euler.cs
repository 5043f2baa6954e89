// Implicit Euler (backward Euler): v1 = v0 + h·a(x0 + h·v1, v1), x1 = x0 + h·v1.
// First order; stable for any h on a spring, and it loses energy.
// Force evaluations per step: 1 + Newton iterations (2 on linear systems).
using System;

public static class ImplicitEuler
{
    public struct Body { public double X, Y, Vx, Vy; }  // position (m), velocity (m/s)
    public struct Spring { public double K, M, B; }     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0
    public delegate (double ax, double ay) Acceleration(double x, double y, double vx, double vy);
    // The acceleration's derivatives: AxX = ∂ax/∂x, AxVy = ∂ax/∂vy, …
    public struct Derivatives { public double AxX, AxY, AyX, AyY, AxVx, AxVy, AyVx, AyVy; }
    public delegate Derivatives Jacobian(double x, double y, double vx, double vy);

    public const int MaxIterations = 50;
    public const double Tolerance = 1e-12;  // on the Newton update, relative to 1 + |v1|

    // The equation is linear in v1 for a spring: solved directly.
    public static void StepSpring(ref Body b, Spring s, double h)
    {
        double d = 1.0 + (h / s.M) * (s.B + h * s.K);
        b.Vx = (b.Vx - (h * s.K / s.M) * b.X) / d;
        b.Vy = (b.Vy - (h * s.K / s.M) * b.Y) / d;
        b.X += h * b.Vx;
        b.Y += h * b.Vy;
    }

    // Any force: accel(x, y, vx, vy) returns (ax, ay) in m/s², jacobian its derivatives there.
    // Newton's method from v1 = v0: each iteration costs one accel and one jacobian call; a force
    // linear in (x, v) converges in two. Returns false when it stopped without converging.
    public static bool Step(ref Body b, double h, Acceleration accel, Jacobian jacobian)
    {
        double vx = b.Vx, vy = b.Vy;
        bool converged = false;
        for (int it = 0; it < MaxIterations && !converged; it++)
        {
            double x = b.X + h * vx, y = b.Y + h * vy;
            var (ax, ay) = accel(x, y, vx, vy);
            Derivatives j = jacobian(x, y, vx, vy);
            // G(v1) = v1 − v0 − h·a(x0 + h·v1, v1) = 0; dG/dv1 = I − h·(h·∂a/∂x + ∂a/∂v).
            double m00 = 1.0 - h * (h * j.AxX + j.AxVx), m01 = -h * (h * j.AxY + j.AxVy);
            double m10 = -h * (h * j.AyX + j.AyVx), m11 = 1.0 - h * (h * j.AyY + j.AyVy);
            double rx = -(vx - b.Vx - h * ax), ry = -(vy - b.Vy - h * ay);
            double det = m00 * m11 - m01 * m10;
            if (det == 0.0) break;
            double dvx = (m11 * rx - m01 * ry) / det, dvy = (m00 * ry - m10 * rx) / det;
            vx += dvx;
            vy += dvy;
            converged = Math.Max(Math.Abs(dvx), Math.Abs(dvy)) <=
                        Tolerance * (1.0 + Math.Max(Math.Abs(vx), Math.Abs(vy)));
        }
        b.X += h * vx;
        b.Y += h * vy;
        b.Vx = vx;
        b.Vy = vy;
        return converged;
    }
}
