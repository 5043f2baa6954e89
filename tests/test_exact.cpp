// Closed forms: the damped oscillator in all regimes, checked against hand values, against
// the ODE itself (via a tight rk45) and against its own group property.
#include "helpers.hpp"

#include <catch2/catch.hpp>

using namespace stepwise;
using namespace testing_helpers;

TEST_CASE("undamped oscillator: cos/sin by hand") {
    dvec2 d(2.0, -1.0), v(0.0, 3.0);
    propagate_linear(d, v, 4.0, 0.0, dvec2(0.0), 0.7);  // omega = 2
    CHECK(d.x == Approx(2.0 * std::cos(1.4)).margin(1e-15));
    CHECK(d.y == Approx(-std::cos(1.4) + 1.5 * std::sin(1.4)).margin(1e-15));
    CHECK(v.x == Approx(-4.0 * std::sin(1.4)).margin(1e-15));
    CHECK(v.y == Approx(2.0 * std::sin(1.4) + 3.0 * std::cos(1.4)).margin(1e-15));
}

TEST_CASE("critically damped oscillator by hand") {
    // w2 = 1, gamma = 1: d = e^{-t} (d0 + (v0 + d0) t).
    dvec2 d(1.0, 0.0), v(0.5, 0.0);
    propagate_linear(d, v, 1.0, 1.0, dvec2(0.0), 2.0);
    CHECK(d.x == Approx(std::exp(-2.0) * (1.0 + 1.5 * 2.0)).epsilon(1e-14));
    // v = e^{-t} (v0 - (v0 + d0) t)
    CHECK(v.x == Approx(std::exp(-2.0) * (0.5 - 1.5 * 2.0)).epsilon(1e-14));
}

TEST_CASE("overdamped oscillator by hand, and no overflow at large t") {
    // w2 = 3, gamma = 2: roots -1 and -3. d = A e^{-t} + B e^{-3t}, d0 = A + B, v0 = -A - 3B.
    dvec2 d(1.0, 0.0), v(0.0, 0.0);  // A = 1.5, B = -0.5
    propagate_linear(d, v, 3.0, 2.0, dvec2(0.0), 0.8);
    CHECK(d.x == Approx(1.5 * std::exp(-0.8) - 0.5 * std::exp(-2.4)).epsilon(1e-14));
    CHECK(v.x == Approx(-1.5 * std::exp(-0.8) + 1.5 * std::exp(-2.4)).epsilon(1e-14));
    dvec2 far_d(1.0, 1.0), far_v(1.0, 0.0);
    propagate_linear(far_d, far_v, 1.0, 500.0, dvec2(0.0), 5.0);
    CHECK(std::isfinite(far_d.x));
    CHECK(std::isfinite(far_v.x));
    CHECK(far_d.x > 0.0);
}

TEST_CASE("constant force with linear damping approaches terminal velocity") {
    // d'' = -2 gamma d' + f: v -> f / (2 gamma).
    dvec2 d(0.0), v(0.0);
    propagate_linear(d, v, 0.0, 0.5, dvec2(0.0, -9.81), 40.0);
    CHECK(v.y == Approx(-9.81).epsilon(1e-12));
    // x(t) = v_t t + (v0 - v_t)(1 - e^{-2 gamma t}) / (2 gamma)
    CHECK(d.y == Approx(-9.81 * 40.0 + 9.81 * (1.0 - std::exp(-40.0))).epsilon(1e-14));
}

TEST_CASE("closed forms satisfy the equations of motion (tight rk45) in every regime") {
    for (double b : {0.0, 0.5, 2.0 * std::sqrt(4.0), 9.0}) {
        DYNAMIC_SECTION("b = " << b) {
            const Setup s = oscillator(4.0, b);
            Lane lane = make_lane(s.system, find_integrator("rk45"), s.x0.data(), s.v0.data());
            lane.rtol = lane.atol = 1e-13;
            for (int k = 0; k < 30; ++k) integrators()[lane.integrator].step(s.system, lane, 0.1);
            CHECK(error_vs_exact(s, lane, 3.0) < 1e-10);
        }
    }
    SECTION("spring pair: centre of mass and separation decouple") {
        const Setup s = two_point_exercise(0.0, 0.3);
        REQUIRE(has_closed_form(s.system, s.x0.data(), s.v0.data()));
        Lane lane = make_lane(s.system, find_integrator("rk45"), s.x0.data(), s.v0.data());
        lane.rtol = lane.atol = 1e-13;
        for (int k = 0; k < 30; ++k) integrators()[lane.integrator].step(s.system, lane, 0.1);
        CHECK(error_vs_exact(s, lane, 3.0) < 1e-9);
    }
    SECTION("two rest-0 springs act as one centred spring") {
        const Setup s = two_springs(0.4);
        Lane lane = make_lane(s.system, find_integrator("rk45"), s.x0.data(), s.v0.data());
        lane.rtol = lane.atol = 1e-13;
        for (int k = 0; k < 30; ++k) integrators()[lane.integrator].step(s.system, lane, 0.1);
        CHECK(error_vs_exact(s, lane, 3.0) < 1e-10);
    }
}

TEST_CASE("propagating t1 then t2 equals propagating t1 + t2") {
    for (double gamma : {0.0, 0.3, 1.0, 4.0}) {
        dvec2 d1(1.0, -2.0), v1(0.5, 0.25), d2 = d1, v2 = v1;
        propagate_linear(d1, v1, 1.0, gamma, dvec2(0.0, -1.0), 0.37);
        propagate_linear(d1, v1, 1.0, gamma, dvec2(0.0, -1.0), 1.21);
        propagate_linear(d2, v2, 1.0, gamma, dvec2(0.0, -1.0), 1.58);
        CHECK(d1.x == Approx(d2.x).margin(1e-14));
        CHECK(d1.y == Approx(d2.y).margin(1e-14));
        CHECK(v1.x == Approx(v2.x).margin(1e-14));
        CHECK(v1.y == Approx(v2.y).margin(1e-14));
    }
}

TEST_CASE("which systems have a closed form") {
    CHECK(has_closed_form(oscillator().system, oscillator().x0.data(), oscillator().v0.data()));
    Setup s = oscillator();
    s.system.anchor_springs[0].rest = 1.0;
    CHECK_FALSE(has_closed_form(s.system, s.x0.data(), s.v0.data()));
    Setup p;
    p.system.add_body(1.0);
    p.system.gravity = dvec2(0.0, -9.81);
    CHECK(has_closed_form(p.system, p.x0.data(), p.v0.data()));
    p.system.drag = 0.1;
    CHECK_FALSE(has_closed_form(p.system, p.x0.data(), p.v0.data()));
}
