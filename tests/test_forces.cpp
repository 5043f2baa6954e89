// The force table (core/forces/): one test over every kind, as Boost.Odeint has one over every
// stepper. Each kind alone in a system with three bodies, checked against what its own
// definition implies: accelerations are its force over the mass; its potential's gradient is its
// conservative force (finite differences); its dissipated power is −F·v of its velocity part;
// its Jacobians match finite differences of its accelerations, and the block form matches the
// dense one's diagonal; what it says about linearity, closed forms and coupling agrees with the
// system-level answers. Then all kinds together: accelerations sum the kinds' (superposition).
#include "exact.hpp"
#include "forces/force_kind.hpp"
#include "orders.hpp"
#include "system.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace stepwise;

namespace {

// Three bodies of different masses, with one kind of force (or all of them) in it.
System with_kind(const std::string& kind) {
    System s;
    s.add_body(1.5);
    s.add_body(0.7);
    s.add_body(2.2);
    const bool all = kind == "all";
    if (all || kind == "uniform_gravity") s.gravity = dvec2(0.3, -9.81);
    if (all || kind == "linear_damper") s.damper = 0.4;
    if (all || kind == "quadratic_drag") s.drag = 0.25;
    if (all || kind == "anchor_spring") {
        s.anchor_springs.push_back({0, dvec2(-1.0, 0.5), 12.0, 0.8, 0.3});
        s.anchor_springs.push_back({2, dvec2(1.0, 1.0), 5.0, 0.0, 0.0});
    }
    if (all || kind == "pair_spring") {
        s.pair_springs.push_back({0, 1, 8.0, 1.1, 0.2});
        s.pair_springs.push_back({1, 2, 3.0, 0.0, 0.0});
    }
    if (all || kind == "central_body") s.central_forces.push_back({dvec2(0.2, -0.3), 2.5, 1e-3});
    if (all || kind == "written_force") {
        // A conservative written force (fx of x alone, fy of y alone), so its potential is checked
        // too: a Duffing spring plus a constant (reading m) along x, a pendulum-like sine along y.
        ExprProblem problem;
        s.written.present = true;
        s.written.fx = *Expression::compile("-c1*x-c2*x^3+0.5*m", problem);
        s.written.fy = *Expression::compile("-c3*sin(y)", problem);
        s.written.c[0] = 4.0;
        s.written.c[1] = 1.5;
        s.written.c[2] = 2.0;
    }
    if (all || kind == "link") {
        // Compliant links (a rigid one has no force law: its forces of constraint are tested in
        // test_linked_systems.cpp), one to an anchor and one between bodies, both damped.
        s.links.push_back({.i = 0, .j = no_body, .anchor = dvec2(0.1, 0.2), .rest = 0.9, .compliance = 0.05,
                           .damping = 0.3});
        s.links.push_back({.i = 2, .j = 1, .anchor = dvec2(0.0), .rest = 1.2, .compliance = 0.2, .damping = 0.1});
    }
    return s;
}

const std::vector<dvec2> x = {dvec2(0.4, 1.3), dvec2(-0.9, 0.2), dvec2(1.7, -0.6)};
const std::vector<dvec2> v = {dvec2(0.5, -0.2), dvec2(-1.1, 0.7), dvec2(0.3, 0.9)};

std::vector<dvec2> acc(const System& s, const std::vector<dvec2>& xs, const std::vector<dvec2>& vs) {
    std::vector<dvec2> a(xs.size());
    accelerations(s, xs.data(), vs.data(), a.data(), 0.0);
    return a;
}

}  // namespace

TEST_CASE("every force kind is a row that agrees with its own definition", "[forces]") {
    // Every kind of the list (with_kind builds each; a kind it does not know is present nowhere and
    // fails the count below). The order the list sums in is pinned by every output (tests/pinned).
    const std::vector<std::string> ids(force_kind_ids.begin(), force_kind_ids.end());
    for (const std::string& id : ids) {
        INFO(id);
        System s = with_kind(id);
        // A written force's potential is decided from the starts, as the config does (issue 31 F2):
        // this one's is smooth on the way from 0 to every point x.
        if (id == "written_force") {
            WrittenForce::decide_potential(s, x.data());
            REQUIRE(s.written.potential);
        }
        const int n = s.bodies(), dim = 2 * n;
        // Present exactly when it is in the system.
        int present = 0;
        for_each_force_kind([&]<class K>() { present += K::present(s) ? 1 : 0; });
        CHECK(present == 1);

        // The potential's gradient is the conservative part of the force: with v = 0 the
        // velocity terms vanish (dampers and drag are pure velocity terms).
        const std::vector<dvec2> rest(n, dvec2(0.0));
        const std::vector<dvec2> a0 = acc(s, x, rest);
        const double h = 1e-6;
        for (int i = 0; i < n; ++i)
            for (int c = 0; c < 2; ++c) {
                std::vector<dvec2> xp = x, xm = x;
                xp[i][c] += h;
                xm[i][c] -= h;
                const double grad = (potential_energy(s, xp.data()) - potential_energy(s, xm.data())) / (2.0 * h);
                CHECK(-grad == Approx(s.mass[i] * a0[i][c]).margin(1e-6).epsilon(1e-7));
            }
        // Dissipated power is −F·v of the velocity part of the force: F(x, v) − F(x, 0).
        const std::vector<dvec2> a = acc(s, x, v);
        double minus_fv = 0.0;
        for (int i = 0; i < n; ++i) minus_fv -= s.mass[i] * ((a[i].x - a0[i].x) * v[i].x + (a[i].y - a0[i].y) * v[i].y);
        CHECK(dissipated_power(s, x.data(), v.data()) == Approx(minus_fv).margin(1e-12).epsilon(1e-12));
        CHECK(s.dissipative() == (minus_fv > 0.0));

        // The dense Jacobians against central differences of the accelerations.
        std::vector<double> jx(dim * dim), jv(dim * dim);
        acceleration_jacobian_dense(s, x.data(), v.data(), jx.data(), jv.data(), 0.0);
        for (int col = 0; col < dim; ++col) {
            for (int which = 0; which < 2; ++which) {
                std::vector<dvec2> xp = x, xm = x, vp = v, vm = v;
                auto& p = which == 0 ? xp : vp;
                auto& m = which == 0 ? xm : vm;
                p[col / 2][col % 2] += h;
                m[col / 2][col % 2] -= h;
                const std::vector<dvec2> ap = acc(s, xp, vp), am = acc(s, xm, vm);
                for (int row = 0; row < dim; ++row) {
                    const double fd = (ap[row / 2][row % 2] - am[row / 2][row % 2]) / (2.0 * h);
                    const double j = (which == 0 ? jx : jv)[row * dim + col];
                    INFO("d a[" << row << "] / d " << (which == 0 ? "x" : "v") << "[" << col << "]");
                    CHECK(j == Approx(fd).margin(1e-5).epsilon(1e-6));
                }
            }
        }
        // The block form where the kind does not couple bodies: the dense diagonal blocks.
        CHECK(s.couples_bodies() == (id == "pair_spring" || id == "link"));
        if (!s.couples_bodies()) {
            std::vector<double> bx(4 * n), bv(4 * n);
            acceleration_jacobian_blocks(s, x.data(), v.data(), bx.data(), bv.data(), 0.0);
            for (int i = 0; i < n; ++i)
                for (int r = 0; r < 2; ++r)
                    for (int c = 0; c < 2; ++c) {
                        CHECK(bx[4 * i + 2 * r + c] == Approx(jx[(2 * i + r) * dim + 2 * i + c]).epsilon(1e-14));
                        CHECK(bv[4 * i + 2 * r + c] == Approx(jv[(2 * i + r) * dim + 2 * i + c]).epsilon(1e-14));
                    }
        }
        // Linear exactly when the accelerations are affine in (x, v): a(2x, 2v) − a(x, v) =
        // a(x, v) − a(0, 0) for an affine map.
        std::vector<dvec2> x2 = x, v2 = v;
        for (int i = 0; i < n; ++i) {
            x2[i] *= 2.0;
            v2[i] *= 2.0;
        }
        const std::vector<dvec2> zero(n, dvec2(0.0)), a2 = acc(s, x2, v2), az = acc(s, zero, zero);
        bool affine = true;
        for (int i = 0; i < n; ++i)
            for (int c = 0; c < 2; ++c) affine = affine && std::fabs((a2[i][c] - a[i][c]) - (a[i][c] - az[i][c])) < 1e-9;
        // (The system's springs here have a rest length on one of each pair: not linear.)
        CHECK(s.is_linear() == affine);
    }
}

TEST_CASE("the kinds together: accelerations, potential and power are the sums of each kind's", "[forces]") {
    const System all = with_kind("all");
    const int n = all.bodies();
    std::vector<dvec2> sum(n, dvec2(0.0));
    double potential = 0.0, power = 0.0;
    for (const char* id : force_kind_ids) {
        const System one = with_kind(id);
        const std::vector<dvec2> a = acc(one, x, v);
        for (int i = 0; i < n; ++i) sum[i] += a[i];
        potential += potential_energy(one, x.data());
        power += dissipated_power(one, x.data(), v.data());
    }
    const std::vector<dvec2> a = acc(all, x, v);
    for (int i = 0; i < n; ++i) {
        CHECK(a[i].x == Approx(sum[i].x).epsilon(1e-13).margin(1e-13));
        CHECK(a[i].y == Approx(sum[i].y).epsilon(1e-13).margin(1e-13));
    }
    CHECK(potential_energy(all, x.data()) == Approx(potential).epsilon(1e-13));
    CHECK(dissipated_power(all, x.data(), v.data()) == Approx(power).epsilon(1e-13));
}

TEST_CASE("what the kinds say about a system: closed forms, order regimes, angular momentum", "[forces]") {
    // Rest-0 springs so the linear kinds are linear.
    auto linear_springs = [](System s) {
        for (AnchorSpring& sp : s.anchor_springs) sp.rest = 0.0;
        for (PairSpring& sp : s.pair_springs) sp.rest = 0.0;
        return s;
    };
    const dvec2 one_body_x[] = {dvec2(1.0, 0.0)}, one_body_v[] = {dvec2(0.0, 0.8)};
    struct Case {
        const char* kind;
        bool closed_form;      // with rest-0 springs, on the system with_kind builds
        OrderRegime regime;
    };
    for (const Case& c : {Case{"uniform_gravity", true, OrderRegime::constant_force},
                          Case{"linear_damper", true, OrderRegime::single_forces},
                          Case{"quadratic_drag", false, OrderRegime::without_closed_form},
                          Case{"anchor_spring", true, OrderRegime::single_forces},
                          Case{"pair_spring", false, OrderRegime::dissipative},  // body 1: two springs, one damped
                          Case{"central_body", false, OrderRegime::single_forces}}) {  // three bodies: no Kepler
        INFO(c.kind);
        const System s = linear_springs(with_kind(c.kind));
        CHECK(has_closed_form(s, x.data(), v.data()) == c.closed_form);
        CHECK(regime_of(s) == c.regime);
    }
    // Kepler's family needs one body and one centre.
    System orbit;
    orbit.add_body(1.0);
    orbit.central_forces.push_back({dvec2(0.0), 1.0, 1e-3});
    CHECK(has_closed_form(orbit, one_body_x, one_body_v));
    dvec2 centre(5.0);
    CHECK(orbit.conserves_angular_momentum(centre));
    CHECK(centre == dvec2(0.0));
    orbit.gravity = dvec2(0.0, -1.0);  // gravity is not in Kepler's family
    CHECK_FALSE(has_closed_form(orbit, one_body_x, one_body_v));
    CHECK_FALSE(orbit.conserves_angular_momentum(centre));
    // The pair family: two bodies, one rest-0 spring, gravity allowed, a ground damper not.
    System pair;
    pair.add_body(2.0);
    pair.add_body(3.0);
    pair.gravity = dvec2(0.0, -10.0);
    pair.pair_springs.push_back({0, 1, 4.0, 0.0, 0.5});
    const dvec2 px[] = {dvec2(-2.0, 2.0), dvec2(3.0, 2.0)}, pv[] = {dvec2(0.0), dvec2(0.0)};
    CHECK(has_closed_form(pair, px, pv));
    CHECK(regime_of(pair) == OrderRegime::single_forces);  // gravity commutes with the internal spring
    pair.damper = 0.1;
    CHECK_FALSE(has_closed_form(pair, px, pv));
    CHECK(regime_of(pair) == OrderRegime::dissipative);
}

TEST_CASE("energy_bound bounds the energy and the power over its whole box", "[forces]") {
    // The corners of the box (every coordinate ±x_max, every velocity component ±v_max) and
    // points inside it: the energy and the power are finite and within the bound, kind by kind
    // and all together (Simulation proves lanes finite with it instead of computing them).
    const double x_max = 1e7, v_max = 1e50;
    for (const std::string kind : {"uniform_gravity", "linear_damper", "quadratic_drag", "anchor_spring",
                                   "pair_spring", "central_body", "link", "all"}) {
        System s = with_kind(kind);
        s.written = WrittenLaw{};  // a written force gives no bound (checked below)
        if (kind == "link") {
            // And a stiff compliant chain of three (α = 1e-9 m/N, damped along its links).
            s.links.push_back({0, no_body, dvec2(-1.0, 2.0), 0.5, 1e-9, 3.0});
            s.links.push_back({1, 0, dvec2(0.0), 0.7, 1e-9, 3.0});
            s.links.push_back({2, 1, dvec2(0.0), 0.7, 1e-6, 0.0});
        }
        const double bound = energy_bound(s, x_max, v_max);
        INFO(kind << ": bound " << bound);
        REQUIRE(bound <= 1e300);
        for (int corner = 0; corner < 256; ++corner) {
            std::vector<dvec2> xs(3), vs(3);
            for (int b = 0; b < 3; ++b) {
                const double scale = corner < 128 ? 1.0 : 0.37 * (b + 1);
                xs[b] = scale * dvec2((corner >> b & 1) ? x_max : -x_max, (corner >> (b + 3) & 1) ? x_max : -x_max);
                vs[b] = scale * dvec2((corner >> (b + 1) & 1) ? v_max : -v_max, (corner >> (b + 4) & 1) ? -v_max : v_max);
            }
            const double e = energy(s, xs.data(), vs.data()), p = dissipated_power(s, xs.data(), vs.data());
            REQUIRE(std::isfinite(e));
            REQUIRE(std::isfinite(p));
            CHECK(std::fabs(e) <= bound);
            CHECK(std::fabs(p) <= bound);
        }
    }
    // Speeds whose cube overflows are past any bound; a central body without a collision radius
    // gives none.
    CHECK(!(energy_bound(with_kind("quadratic_drag"), x_max, 1e110) <= 1e300));
    CHECK(!(energy_bound(with_kind("written_force"), x_max, v_max) <= 1e300));  // its energy is computed instead
    System centre = with_kind("central_body");
    centre.central_forces[0].collision_radius = 0.0;
    CHECK(!(energy_bound(centre, x_max, v_max) <= 1e300));
}
