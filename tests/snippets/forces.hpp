// The reference cases' forces as callbacks for the C++ snippet runners (runner.cpp, and the loop
// runner that tests/snippets/snippets.test.mjs builds), in the core's operation order
// (core/system.cpp, core/integrators.cpp), as in tests/snippets/forces.mjs. params are the
// positional numbers of a job line.
#pragma once

#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace snippet_forces {

using Vec2 = std::array<double, 2>;
using Accel = std::function<Vec2(double, double, double, double)>;
using Jacobian = std::function<std::array<double, 8>(double, double, double, double)>;
using Dissipate = std::function<Vec2(double, double, double, bool)>;

// One case's force as callbacks.
struct Force {
    Accel accel;
    Jacobian jacobian;
    Dissipate dissipate;  // empty: no damping
    Accel approximated;   // the kinematic step's force without a closed form (besides gravity)
    double gx = 0, gy = 0;
};

inline Dissipate exponential_decay(double rate) {
    return [rate](double vx, double vy, double t, bool) {
        const double e = std::exp(-rate * t);
        return Vec2{vx * e, vy * e};
    };
}

inline Force make_force(const std::string& kind, const std::vector<double>& p) {
    Force f;
    if (kind == "spring") {
        const double k = p[0], inv_m = 1.0 / p[1], b = p[2];
        f.accel = [=](double x, double y, double vx, double vy) {
            return Vec2{inv_m * (-k * x - b * vx), inv_m * (-k * y - b * vy)};
        };
        f.jacobian = [=](double, double, double, double) {
            return std::array<double, 8>{-k * inv_m, 0, 0, -k * inv_m, -b * inv_m, 0, 0, -b * inv_m};
        };
        if (b > 0) f.dissipate = exponential_decay(b * inv_m);
    } else if (kind == "two_spring") {
        const double inv_m = 1.0 / p[0], k1 = p[1], k2 = p[2], a1x = p[3], a1y = p[4], a2x = p[5], a2y = p[6];
        f.accel = [=](double x, double y, double, double) {
            return Vec2{inv_m * (-k1 * (x - a1x)) + inv_m * (-k2 * (x - a2x)),
                        inv_m * (-k1 * (y - a1y)) + inv_m * (-k2 * (y - a2y))};
        };
        f.jacobian = [=](double, double, double, double) {
            return std::array<double, 8>{(-k1 + -k2) * inv_m, 0, 0, (-k1 + -k2) * inv_m, 0, 0, 0, 0};
        };
    } else if (kind == "elastic_pendulum") {
        const double k = p[0], inv_m = 1.0 / p[1], b = p[2], rest = p[3];
        f.gx = p[4], f.gy = p[5];
        f.approximated = [=](double x, double y, double vx, double vy) {
            const double len = std::sqrt(x * x + y * y);
            const double s = len == 0 ? 0.0 : -k * (len - rest) / len;
            return Vec2{inv_m * (s * x - b * vx), inv_m * (s * y - b * vy)};
        };
        f.accel = [=, spring = f.approximated, gx = f.gx, gy = f.gy](double x, double y, double vx, double vy) {
            const Vec2 a = spring(x, y, vx, vy);
            return Vec2{gx + a[0], gy + a[1]};
        };
        f.jacobian = [=](double x, double y, double, double) {
            const double len = std::sqrt(x * x + y * y);
            if (len == 0) return std::array<double, 8>{0, 0, 0, 0, -b * inv_m, 0, 0, -b * inv_m};
            const double s = rest / len, ux = x / len, uy = y / len;
            const double off = -k * (s * ux * uy) * inv_m;
            return std::array<double, 8>{-k * ((1 - s) + s * ux * ux) * inv_m, off, off,
                                         -k * ((1 - s) + s * uy * uy) * inv_m, -b * inv_m, 0, 0, -b * inv_m};
        };
        if (b > 0) f.dissipate = exponential_decay(b * inv_m);
    } else if (kind == "projectile") {
        const double inv_m = 1.0 / p[0], gx = p[1], gy = p[2], c = p[3];
        f.gx = gx, f.gy = gy;
        f.approximated = [=](double, double, double vx, double vy) {
            const double q = c * std::sqrt(vx * vx + vy * vy) * inv_m;
            return Vec2{-q * vx, -q * vy};
        };
        f.accel = [=](double, double, double vx, double vy) {
            const double q = c * std::sqrt(vx * vx + vy * vy) * inv_m;
            return Vec2{gx - q * vx, gy - q * vy};
        };
        f.jacobian = [=](double, double, double vx, double vy) {
            const double speed = std::sqrt(vx * vx + vy * vy);
            if (speed == 0) return std::array<double, 8>{};
            const double off = -c * (vx * vy / speed) * inv_m;
            return std::array<double, 8>{0, 0, 0, 0, -c * (speed + vx * vx / speed) * inv_m, off, off,
                                         -c * (speed + vy * vy / speed) * inv_m};
        };
        // Drag alone keeps the direction; the speed s goes to s/(1 + c·s·t/m).
        f.dissipate = [=](double vx, double vy, double t, bool) {
            const double grow = 1 + c * std::sqrt(vx * vx + vy * vy) * inv_m * t;
            const double inf = std::numeric_limits<double>::infinity();
            return grow > 0 ? Vec2{vx / grow, vy / grow} : Vec2{inf, inf};
        };
    } else {
        throw std::runtime_error("unknown force " + kind);
    }
    return f;
}

}  // namespace snippet_forces
