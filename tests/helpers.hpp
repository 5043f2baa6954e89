// Shared helpers for the core tests: build small systems and run one lane.
#pragma once
#include "config.hpp"
#include "exact.hpp"
#include "integrators.hpp"
#include "system.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace testing_helpers {

using stepwise::dvec2;

constexpr double pi = 3.14159265358979323846;

struct Setup {
    stepwise::System system;
    std::vector<dvec2> x0, v0;
};

// One unit mass on a rest-0 spring to `anchor`, starting at (x0, v0).
inline Setup anchored_spring(double k, double b, dvec2 anchor, dvec2 x0, dvec2 v0) {
    Setup s;
    s.system.add_body(1.0);
    s.system.anchor_springs.push_back({0, anchor, k, 0.0, b});
    s.x0 = {x0};
    s.v0 = {v0};
    return s;
}

// One unit mass on a spring to (0.5, -0.25): undamped oscillator with omega = sqrt(k/m).
inline Setup oscillator(double k = 1.0, double b = 0.0) {
    return anchored_spring(k, b, dvec2(0.5, -0.25), dvec2(1.5, 0.25), dvec2(0.3, 0.8));
}

// One mass between two rest-0 springs of different stiffness (two forces at once).
inline Setup two_springs(double b = 0.0) {
    Setup s;
    s.system.add_body(1.0);
    s.system.damper = b;
    s.system.anchor_springs.push_back({0, dvec2(-2.0, 0.0), 10.0, 0.0, 0.0});
    s.system.anchor_springs.push_back({0, dvec2(2.0, 0.0), 20.0, 0.0, 0.0});
    s.x0 = {dvec2(1.0, 1.0)};
    s.v0 = {dvec2(0.0, 0.0)};
    return s;
}

// The two-point spring exercise: P1 (-2, 2), v (-1, -1.5), m 2; P2 (3, 2), v (1, -1.5), m 3;
// stiffness 4 under gravity (0, -10), with the given rest length and damping.
inline Setup two_point_exercise(double rest = 6.0, double b = 0.0) {
    Setup s;
    s.system.add_body(2.0);
    s.system.add_body(3.0);
    s.system.gravity = dvec2(0.0, -10.0);
    s.system.pair_springs.push_back({0, 1, 4.0, rest, b});
    s.x0 = {dvec2(-2.0, 2.0), dvec2(3.0, 2.0)};
    s.v0 = {dvec2(-1.0, -1.5), dvec2(1.0, -1.5)};
    return s;
}

// One unit mass around a central mass gm at the origin, as the orbit scenario builds it
// (collision radius 1e-3 of the start distance).
inline Setup orbit(double gm, dvec2 x0, dvec2 v0) {
    Setup s;
    s.system.add_body(1.0);
    s.system.central_forces.push_back({dvec2(0.0), gm, 1e-3 * std::hypot(x0.x, x0.y)});
    s.x0 = {x0};
    s.v0 = {v0};
    return s;
}

// The orbit of eccentricity e (gm = 1) starting at its periapsis (1, 0), moving along +y:
// speed sqrt(gm (1 + e) / r_p), semi-major axis 1 / (1 - e).
inline Setup orbit_from_periapsis(double e) { return orbit(1.0, dvec2(1.0, 0.0), dvec2(0.0, std::sqrt(1.0 + e))); }

// Deterministic random numbers for the tests' generated inputs (xorshift64): next() each call.
class Xorshift {
public:
    explicit Xorshift(std::uint64_t seed) : state_(seed) {}
    std::uint64_t operator()() {
        state_ ^= state_ << 13;
        state_ ^= state_ >> 7;
        state_ ^= state_ << 17;
        return state_;
    }

private:
    std::uint64_t state_;
};

// A query that must parse cleanly (its messages shown when it does not).
inline stepwise::Config config_of(const std::string& query) {
    const stepwise::ParseResult r = stepwise::parse_config(query);
    INFO(query);
    for (const stepwise::ConfigError& e : r.errors) INFO(e.message);
    REQUIRE(r.ok());
    return r.config;
}

// Every integrator id in table order, comma-separated (for an integrators= key).
inline std::string all_integrators() {
    std::string all;
    for (const stepwise::IntegratorInfo& info : stepwise::integrators()) all += (all.empty() ? "" : ",") + std::string(info.id);
    return all;
}

inline stepwise::Lane run(const Setup& s, int integrator, double h, long long steps) {
    stepwise::Lane lane = stepwise::make_lane(s.system, integrator, s.x0.data(), s.v0.data());
    const auto step = stepwise::integrators()[integrator].step;
    for (long long k = 0; k < steps; ++k) step(s.system, lane, h);
    return lane;
}

// Largest distance of any body (position and velocity) from the exact state at t.
inline double error_vs_exact(const Setup& s, const stepwise::Lane& lane, double t) {
    std::vector<dvec2> x(s.x0.size()), v(s.v0.size());
    stepwise::exact_state(s.system, s.x0.data(), s.v0.data(), t, x.data(), v.data());
    double e = 0.0;
    for (size_t i = 0; i < x.size(); ++i) {
        e = std::max(e, std::hypot(lane.x[i].x - x[i].x, lane.x[i].y - x[i].y));
        e = std::max(e, std::hypot(lane.v[i].x - v[i].x, lane.v[i].y - v[i].y));
    }
    return e;
}

// Least-squares slope of log(err) against log(h).
inline double fitted_order(const std::vector<double>& h, const std::vector<double>& err) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double n = static_cast<double>(h.size());
    for (size_t i = 0; i < h.size(); ++i) {
        const double x = std::log(h[i]), y = std::log(err[i]);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace testing_helpers
