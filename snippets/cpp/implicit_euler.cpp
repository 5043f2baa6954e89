// Implicit Euler (backward Euler): v1 = v0 + h·a(x0 + h·v1, v1), x1 = x0 + h·v1.
// First order; stable for any h on a spring, and it loses energy.
// Force evaluations per step: 1 + Newton iterations (2 on linear systems).
#include <algorithm>
#include <cmath>

namespace implicit_euler {

struct Body { double x, y, vx, vy; };  // position (m), velocity (m/s)
struct Spring { double k, m, b; };     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0

// The equation is linear in v1 for a spring: solved directly.
inline void step_spring(Body& b, const Spring& s, double h) {
    const double d = 1.0 + (h / s.m) * (s.b + h * s.k);
    b.vx = (b.vx - (h * s.k / s.m) * b.x) / d;
    b.vy = (b.vy - (h * s.k / s.m) * b.y) / d;
    b.x += h * b.vx;
    b.y += h * b.vy;
}

constexpr int max_iterations = 50;
constexpr double tolerance = 1e-12;  // on the Newton update, relative to 1 + |v1|

// Any force: accel(x, y, vx, vy) returns {ax, ay} (m/s²); jacobian(x, y, vx, vy) returns its
// derivatives {∂ax/∂x, ∂ax/∂y, ∂ay/∂x, ∂ay/∂y, ∂ax/∂vx, ∂ax/∂vy, ∂ay/∂vx, ∂ay/∂vy} (a struct or
// std::array<double, 8>). Newton's method from v1 = v0: each iteration costs one accel and one
// jacobian call; a force linear in (x, v) converges in two. Returns false when it stopped
// without converging.
template <class Accel, class Jacobian>
bool step(Body& b, double h, Accel&& accel, Jacobian&& jacobian) {
    double vx = b.vx, vy = b.vy;
    bool converged = false;
    for (int it = 0; it < max_iterations && !converged; ++it) {
        const double x = b.x + h * vx, y = b.y + h * vy;
        const auto [ax, ay] = accel(x, y, vx, vy);
        const auto [jxx, jxy, jyx, jyy, jvxx, jvxy, jvyx, jvyy] = jacobian(x, y, vx, vy);
        // G(v1) = v1 − v0 − h·a(x0 + h·v1, v1) = 0; dG/dv1 = I − h·(h·∂a/∂x + ∂a/∂v).
        const double m00 = 1.0 - h * (h * jxx + jvxx), m01 = -h * (h * jxy + jvxy);
        const double m10 = -h * (h * jyx + jvyx), m11 = 1.0 - h * (h * jyy + jvyy);
        const double rx = -(vx - b.vx - h * ax), ry = -(vy - b.vy - h * ay);
        const double det = m00 * m11 - m01 * m10;
        if (det == 0.0) break;
        const double dvx = (m11 * rx - m01 * ry) / det, dvy = (m00 * ry - m10 * rx) / det;
        vx += dvx;
        vy += dvy;
        converged = std::max(std::fabs(dvx), std::fabs(dvy)) <=
                    tolerance * (1.0 + std::max(std::fabs(vx), std::fabs(vy)));
    }
    b.x += h * vx;
    b.y += h * vy;
    b.vx = vx;
    b.vy = vy;
    return converged;
}

}  // namespace implicit_euler
