// Body layouts (core/layout.hpp, issue 34 §1): a system's state is flat arrays, the bodies' (x, y)
// and then the angles of the bodies that turn, and the methods written once over a runner
// (fixed_steps.inc) step every coordinate. Checked here against hand-computed steps and the
// torsion oscillator's closed form; that the linear block of a system with turning bodies is the
// same, bit for bit, as the system without them; and that every other method says it cannot run
// such a system.
#include "config.hpp"
#include "integrators.hpp"
#include "layout.hpp"
#include "method_cases.hpp"
#include "orders.hpp"
#include "system.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace stepwise;

namespace {

bool same(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// One rigid body in the plane (m = 2 kg, I = 0.5 kg·m²) on a torsion spring κ = 8 N·m/rad to the
// ground, at rest angle 0.3 rad, damping c: Ω = √(κ/I) = 4 rad/s. Its (x, y) moves under gravity
// alone (none here: it drifts at its start velocity).
struct Turning {
    System s;
    std::vector<double> q0, u0;  // laid out for s: (x, y), then φ
};

Turning torsion_oscillator(double damping) {
    Turning t;
    t.s.add_rigid_body(2.0, 0.5);
    t.s.rotations[0].torsion = {.kappa = 8.0, .rest = 0.3, .damping = damping};
    t.q0 = {0.25, -0.5, 1.3};  // φ0 − rest = 1 rad
    t.u0 = {0.75, 0.125, -2.0};
    return t;
}

// The damped oscillator's closed form: d = φ − rest, d'' = −Ω² d − 2ζΩ d', underdamped.
double torsion_angle(double phi0, double omega0, double t, double kappa, double inertia, double c, double rest) {
    const double w0 = std::sqrt(kappa / inertia), gamma = 0.5 * c / inertia;
    const double wd = std::sqrt(w0 * w0 - gamma * gamma);
    const double d0 = phi0 - rest;
    return rest + std::exp(-gamma * t) * (d0 * std::cos(wd * t) + (omega0 + gamma * d0) / wd * std::sin(wd * t));
}

Lane lane_of(const Turning& t, int index) {
    return make_lane(t.s, index, reinterpret_cast<const dvec2*>(t.q0.data()), reinterpret_cast<const dvec2*>(t.u0.data()));
}

// The largest error of the angle over `steps` steps of h against the closed form (the order's
// measure: the largest position error, orders.hpp).
double largest_angle_error(const Turning& t, int index, double h, int steps, double c) {
    Lane L = lane_of(t, index);
    double largest = 0.0;
    for (int k = 1; k <= steps; ++k) {
        integrators()[static_cast<size_t>(index)].step(t.s, L, h);
        const double exact = torsion_angle(t.q0[2], t.u0[2], k * h, 8.0, 0.5, c, 0.3);
        largest = std::max(largest, std::abs(L.x.angular()[0] - exact));
    }
    return largest;
}

}  // namespace

TEST_CASE("Coordinates: the bodies' (x, y) as one dvec2 each, then the angular block") {
    Coordinates c(3, 2);
    CHECK(c.size() == 3);
    CHECK(c.count() == 8);
    CHECK(c.angular_count() == 2);
    for (int i = 0; i < c.count(); ++i) CHECK(c.flat()[i] == 0.0);
    c[1] = dvec2(4.0, 5.0);
    c.angular()[1] = 7.0;
    CHECK(c.flat()[2] == 4.0);
    CHECK(c.flat()[3] == 5.0);
    CHECK(c.flat()[7] == 7.0);
    CHECK(c.end() - c.begin() == 3);
    // A system's offsets say the same.
    System s;
    s.add_body(1.0);
    s.add_rigid_body(2.0, 3.0);
    s.add_body(1.0);
    s.add_rigid_body(1.0, 0.25);
    CHECK(s.bodies() == 4);
    CHECK(s.rotating() == 2);
    CHECK(s.coordinates() == 10);
    CHECK(s.angular_offset(1) == 9);
    CHECK(s.layout(0) == BodyLayout::point);
    CHECK(s.layout(1) == BodyLayout::planar);
    CHECK(s.layout(3) == BodyLayout::planar);
    CHECK(std::string(layout_info(BodyLayout::planar).id) == "planar");
    CHECK(layout_info(BodyLayout::planar).positions == 3);
    CHECK(layout_info(BodyLayout::point).velocities == 2);
    std::vector<double> w(10);
    s.inverse_generalised_mass(w.data());
    CHECK(w == std::vector<double>{1.0, 1.0, 0.5, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0 / 3.0, 4.0});
}

TEST_CASE("layouts: the torsion spring's torque, energy and power, by hand") {
    const Turning t = torsion_oscillator(0.5);
    std::vector<double> a(3, -1.0);
    accelerations(t.s, reinterpret_cast<const dvec2*>(t.q0.data()), reinterpret_cast<const dvec2*>(t.u0.data()),
                  reinterpret_cast<dvec2*>(a.data()), 0.0);
    // Linear block: no force. Angular: τ = −8·(1.3 − 0.3) − 0.5·(−2) = −7, ω' = τ/I = −14.
    CHECK(a[0] == 0.0);
    CHECK(a[1] == 0.0);
    CHECK(a[2] == -14.0);
    const dvec2* q = reinterpret_cast<const dvec2*>(t.q0.data());
    const dvec2* u = reinterpret_cast<const dvec2*>(t.u0.data());
    // ½·2·(0.75² + 0.125²) + ½·0.5·(−2)² = 0.578125 + 1; ½·8·1² = 4; c ω² = 0.5·4 = 2.
    CHECK(kinetic_energy(t.s, u) == 1.578125);
    CHECK(potential_energy(t.s, q) == 4.0);
    CHECK(dissipated_power(t.s, q, u) == 2.0);
    CHECK(t.s.dissipative());
    CHECK_FALSE(torsion_oscillator(0.0).s.dissipative());
    CHECK(regime_of(t.s) == OrderRegime::single_forces);
}

TEST_CASE("layouts: one explicit Euler and one semi-implicit Euler step of a turning body, by hand") {
    const Turning t = torsion_oscillator(0.5);
    const double h = 0.125;
    {
        Lane L = lane_of(t, find_integrator("explicit_euler"));
        integrators()[L.integrator].step(t.s, L, h);
        // x1 = x0 + h v0 in every coordinate; v1 = v0 + h a0, a0 = (0, 0, −14).
        CHECK(L.x.flat()[0] == 0.25 + 0.125 * 0.75);
        CHECK(L.x.flat()[1] == -0.5 + 0.125 * 0.125);
        CHECK(L.x.angular()[0] == 1.3 + 0.125 * -2.0);
        CHECK(L.v.angular()[0] == -2.0 + 0.125 * -14.0);
        CHECK(L.v.flat()[0] == 0.75);
    }
    {
        Lane L = lane_of(t, find_integrator("semi_implicit_euler"));
        integrators()[L.integrator].step(t.s, L, h);
        const double omega1 = -2.0 + 0.125 * -14.0;
        CHECK(L.v.angular()[0] == omega1);
        CHECK(L.x.angular()[0] == 1.3 + 0.125 * omega1);
    }
}

TEST_CASE("layouts: a turning body spins freely under every method that steps every layout") {
    System s;
    s.add_rigid_body(1.5, 0.2);
    s.gravity = dvec2(0.0, -9.81);
    const std::vector<double> q0 = {0.0, 1.0, 0.5}, u0 = {1.0, 2.0, 3.0};
    for (size_t m = 0; m < integrators().size(); ++m) {
        const IntegratorInfo& info = integrators()[m];
        // Which methods turn is each one's row of tests/method_cases.hpp (the fixed-step rows
        // written once over a runner, and rk45).
        const test::MethodCase* c = test::method_case(info.id);
        REQUIRE(c != nullptr);
        CHECK(steps_every_layout(info) == c->steps_angles);
        if (!steps_every_layout(info)) continue;
        Lane L = make_lane(s, static_cast<int>(m), reinterpret_cast<const dvec2*>(q0.data()),
                           reinterpret_cast<const dvec2*>(u0.data()));
        const double h = 0.01;
        for (int k = 0; k < 100; ++k) info.step(s, L, h);
        INFO(info.id);
        // No torque: ω stays 3 rad/s (Störmer–Verlet's from a central difference: to round-off),
        // φ = 0.5 + 3 t to round-off.
        CHECK(std::abs(L.v.angular()[0] - 3.0) < 1e-12);
        CHECK(std::abs(L.x.angular()[0] - 3.5) < 1e-12);
    }
}

TEST_CASE("layouts: every method that turns keeps its order on the torsion oscillator's angle") {
    for (const double c : {0.0, 0.5}) {
        const Turning t = torsion_oscillator(c);
        const OrderRegime regime = regime_of(t.s);
        CHECK(regime == OrderRegime::single_forces);
        for (size_t m = 0; m < integrators().size(); ++m) {
            const IntegratorInfo& info = integrators()[m];
            if (!steps_every_layout(info)) continue;
            const Order claim = expected_order(info, regime);
            if (info.adaptive) {
                // rk45 (the reference): no order in dt; its error follows its tolerance (1e-9 as a
                // lane), at any step.
                CHECK(claim.kind == Order::none);
                INFO(info.id << " damping " << c);
                CHECK(largest_angle_error(t, static_cast<int>(m), 0.05, 40, c) < 1e-8);
                continue;
            }
            REQUIRE(claim.kind == Order::power);
            // Steps small enough to be in the asymptotic range of the fourth-order methods,
            // large enough that their error is far above round-off.
            const double h1 = 0.02, h2 = 0.01;
            const double e1 = largest_angle_error(t, static_cast<int>(m), h1, 100, c);
            const double e2 = largest_angle_error(t, static_cast<int>(m), h2, 200, c);
            const double p = std::log2(e1 / e2);
            INFO(info.id << " damping " << c << ": errors " << e1 << ", " << e2 << ", order " << p);
            CHECK(std::abs(p - claim.p) < 0.2);
        }
    }
}

TEST_CASE("layouts: a turning body leaves the bodies' (x, y) as they are, bit for bit") {
    // Two bodies on a pair spring with gravity and drag; body 1 turns on a torsion spring in one
    // system and is a point in the other. Angles enter no force yet, so every method's linear
    // block is the same in both.
    auto build = [](bool turning) {
        System s;
        s.add_body(1.0);
        if (turning) {
            s.add_rigid_body(2.0, 0.3);
            s.rotations[0].torsion = {.kappa = 3.0, .rest = 0.0, .damping = 0.2};
        } else {
            s.add_body(2.0);
        }
        s.gravity = dvec2(0.0, -9.81);
        s.drag = 0.05;
        s.pair_springs.push_back({.i = 0, .j = 1, .k = 40.0, .rest = 1.0, .b = 0.3});
        s.anchor_springs.push_back({.body = 0, .anchor = dvec2(0.0, 2.0), .k = 25.0, .rest = 0.5, .b = 0.0});
        return s;
    };
    const System points = build(false), turning = build(true);
    const std::vector<double> q_points = {0.0, 1.0, 0.8, 0.4}, u_points = {0.5, 0.0, -0.25, 1.0};
    const std::vector<double> q_turning = {0.0, 1.0, 0.8, 0.4, 0.7}, u_turning = {0.5, 0.0, -0.25, 1.0, -1.5};
    for (size_t m = 0; m < integrators().size(); ++m) {
        const IntegratorInfo& info = integrators()[m];
        if (!steps_every_layout(info)) continue;
        Lane a = make_lane(points, static_cast<int>(m), reinterpret_cast<const dvec2*>(q_points.data()),
                           reinterpret_cast<const dvec2*>(u_points.data()));
        Lane b = make_lane(turning, static_cast<int>(m), reinterpret_cast<const dvec2*>(q_turning.data()),
                           reinterpret_cast<const dvec2*>(u_turning.data()));
        for (int k = 0; k < 50; ++k) {
            info.step(points, a, 0.01);
            info.step(turning, b, 0.01);
        }
        INFO(info.id);
        bool equal = true;
        for (int i = 0; i < 4; ++i)
            equal = equal && same(a.x.flat()[i], b.x.flat()[i]) && same(a.v.flat()[i], b.v.flat()[i]);
        CHECK(equal);
        CHECK(a.force_evaluations == b.force_evaluations);
        CHECK(b.x.angular()[0] != 0.7);  // the angle moved
    }
}

TEST_CASE("layouts: a method that steps points only does not run a system with a turning body") {
    const Turning t = torsion_oscillator(0.0);
    System points;
    points.add_body(1.0);
    int refused = 0;
    for (size_t m = 0; m < integrators().size(); ++m) {
        const IntegratorInfo& info = integrators()[m];
        INFO(info.id);
        CHECK(method_steps(static_cast<int>(m), t.s) == steps_every_layout(info));
        CHECK(method_steps(static_cast<int>(m), points));
        refused += !steps_every_layout(info);
    }
    // implicit Euler, the two kinematic steps and the five game-physics solvers.
    CHECK(refused == 8);
    // The default lanes on such a system are all methods that turn.
    for (const LaneSpec& lane : default_lanes(t.s)) CHECK(steps_every_layout(integrators()[static_cast<size_t>(lane.integrator)]));
}
