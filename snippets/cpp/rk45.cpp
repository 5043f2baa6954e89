// Dormand–Prince 5(4): adaptive Runge–Kutta with error control. Each call advances exactly h,
// in as many internal substeps as rtol needs (six force evaluations each; the seventh is reused).
// No order in h: its error follows the tolerance.
// Force evaluations per step: 6 per accepted substep (the 7th is the next one's first; adaptive).
#include <algorithm>
#include <array>
#include <cmath>

namespace rk45 {

struct Body { double x, y, vx, vy; };  // position (m), velocity (m/s)
struct Spring { double k, m, b; };     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0

// The spring's acceleration along one axis: a = (−k·p − b·v)/m.
inline double spring_acceleration(const Spring& s, double p, double v) { return (1.0 / s.m) * (-s.k * p - s.b * v); }

// Butcher tableau (the nodes c are not needed: the forces do not depend on time).
constexpr double A[6][5] = {{},
                            {1.0 / 5},
                            {3.0 / 40, 9.0 / 40},
                            {44.0 / 45, -56.0 / 15, 32.0 / 9},
                            {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
                            {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656}};
constexpr double B[6] = {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84};  // fifth order
constexpr double E[7] = {71.0 / 57600,     0, -71.0 / 16695, 71.0 / 1920, -17253.0 / 339200,
                         22.0 / 525, -1.0 / 40};  // fifth − fourth order
constexpr int max_substeps = 2000;  // bounded work: give up past this many substeps in one step

// What the method carries: the tolerances, the last substep size and the slope at the current
// state (first same as last). Start from Carry{}, and again whenever you move the body by hand or
// change the forces.
struct Carry {
    double rtol = 1e-9, atol = 1e-9;
    double substep = 0;
    bool started = false;
    double ax = 0, ay = 0;
};

// Any force: accel(x, y, vx, vy) returns {ax, ay} (m/s²): a struct, std::pair or std::array<double, 2>.
// Returns false when it gave up (more than max_substeps substeps, or a substep below 1e-12·h still
// too inaccurate): the body is then left at its last accepted substep, short of h.
template <class Accel>
bool step(Body& b, Carry& c, double h, Accel&& accel) {
    // Stage slopes: position slope = the stage's velocity, velocity slope = its acceleration.
    double kx[7], ky[7], kvx[7], kvy[7];
    auto scaled = [&c](double e, double before, double after) {
        return std::fabs(e) / (c.atol + c.rtol * std::max(std::fabs(before), std::fabs(after)));
    };
    if (c.substep <= 0) c.substep = h;
    if (!c.started) {
        const auto [ax, ay] = accel(b.x, b.y, b.vx, b.vy);
        c.ax = ax;
        c.ay = ay;
        c.started = true;
    }
    double done = 0;
    int substeps = 0;
    while (done < h) {
        if (substeps >= max_substeps) return false;
        const double hs = std::min(c.substep, h - done);
        const bool last = hs >= h - done;
        kx[0] = b.vx, ky[0] = b.vy, kvx[0] = c.ax, kvy[0] = c.ay;
        double nx = 0, ny = 0;
        for (int j = 1; j <= 6; ++j) {
            // Stage j at (x, v) + hs·Σ a_jm·k_m; stage 6 is the fifth-order solution itself.
            const double* w = j < 6 ? A[j] : B;
            double sx = 0, sy = 0, svx = 0, svy = 0;
            for (int m = 0; m < j; ++m) {
                if (w[m] == 0) continue;  // B[1]
                sx += w[m] * kx[m], sy += w[m] * ky[m], svx += w[m] * kvx[m], svy += w[m] * kvy[m];
            }
            nx = b.x + hs * sx;
            ny = b.y + hs * sy;
            kx[j] = b.vx + hs * svx;
            ky[j] = b.vy + hs * svy;
            const auto [ax, ay] = accel(nx, ny, kx[j], ky[j]);
            kvx[j] = ax;
            kvy[j] = ay;
        }
        // The local error estimate, each component scaled by atol + rtol·max(|old|, |new|).
        double ex = 0, ey = 0, evx = 0, evy = 0;
        for (int m = 0; m < 7; ++m) {
            if (E[m] == 0) continue;
            ex += E[m] * kx[m], ey += E[m] * ky[m], evx += E[m] * kvx[m], evy += E[m] * kvy[m];
        }
        double err = std::max({scaled(hs * ex, b.x, nx), scaled(hs * ey, b.y, ny), scaled(hs * evx, b.vx, kx[6]),
                               scaled(hs * evy, b.vy, ky[6])});
        if (!std::isfinite(err)) err = 1e300;
        const double factor = err == 0 ? 5.0 : std::clamp(0.9 * std::pow(err, -0.2), 0.2, 5.0);
        ++substeps;
        if (err > 1 && hs <= 1e-12 * h) return false;  // cannot shrink usefully any more
        if (err <= 1) {
            b.x = nx, b.y = ny, b.vx = kx[6], b.vy = ky[6];
            c.ax = kvx[6], c.ay = kvy[6];  // first same as last
            done = last ? h : done + hs;
            if (!last || factor < 1) c.substep = hs * factor;  // a clipped last substep keeps the size
        } else {
            c.substep = hs * factor;
        }
        if (!std::isfinite(c.substep) || c.substep <= 0) c.substep = h;
    }
    return true;
}

inline bool step_spring(Body& b, Carry& c, const Spring& s, double h) {
    return step(b, c, h, [&](double x, double y, double vx, double vy) {
        return std::array<double, 2>{spring_acceleration(s, x, vx), spring_acceleration(s, y, vy)};
    });
}

}  // namespace rk45
