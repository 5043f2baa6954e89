// Linear stability on the oscillator x'' = -x - 2ζ x' (ω = 1, so h stands for ωh), measured
// by core/stability from each integrator's own step, against limits derived by hand.
#include "helpers.hpp"
#include "integrators.hpp"
#include "method_cases.hpp"
#include "simulation.hpp"
#include "stability.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace stepwise;

namespace {

int id(const char* name) {
    const int i = find_integrator(name);
    REQUIRE(i >= 0);
    return i;
}

// |a - b| within `rel` of |b|.
bool close(double a, double b, double rel) { return std::fabs(a - b) <= rel * std::fabs(b); }

}  // namespace

TEST_CASE("stability limits on the undamped oscillator match the hand derivations") {
    struct Case {
        const char* integrator;
        double limit;  // ωh; 0 = no stable interval
        bool unconditional;
    };
    const double sqrt8 = 2.0 * std::sqrt(2.0);
    const Case cases[] = {
        // Explicit Euler: M = [[1, h], [-h, 1]], eigenvalues 1 ± ih, ρ² = 1 + h² > 1 for every h > 0.
        {"explicit_euler", 0.0, false},
        // Semi-implicit Euler, velocity first: v1 = v - h x, x1 = x + h v1, so
        // M = [[1 - h², h], [-h, 1]]: det 1, trace 2 - h². A complex pair of modulus √det = 1
        // while |trace| ≤ 2, i.e. h ≤ 2; beyond, a real eigenvalue below -1.
        {"semi_implicit_euler", 2.0, false},
        // Position first: x1 = x + h v, v1 = v - h x1: M = [[1, h], [-h, 1 - h²]], the same det and trace.
        {"semi_implicit_euler_x", 2.0, false},
        // Leapfrog, Störmer–Verlet and velocity Verlet are the same map on the oscillator
        // (x1 = (1 - h²/2) x + h v, conjugate to the semi-implicit one): det 1, trace 2 - h², limit 2.
        {"leapfrog", 2.0, false},
        {"stormer_verlet", 2.0, false},
        {"velocity_verlet", 2.0, false},
        // RK4: R(z) = 1 + z + z²/2 + z³/6 + z⁴/24 at z = ±ih; |R(ih)|² = (1 - h²/2 + h⁴/24)² +
        // (h - h³/6)² = 1 - h⁶/72 + h⁸/576 ≤ 1 iff h² ≤ 8: limit 2√2.
        {"rk4", sqrt8, false},
        // Heun and midpoint: R(z) = 1 + z + z²/2, |R(ih)|² = (1 - h²/2)² + h² = 1 + h⁴/4 > 1.
        {"heun", 0.0, false},
        {"midpoint", 0.0, false},
        // Implicit Euler: M = [[1, h], [-h, 1]]⁻¹, eigenvalues 1/(1 ± ih), ρ = 1/√(1 + h²) < 1.
        {"implicit_euler", 0.0, true},
        // Newton (constant acceleration over the step): x1 = (1 - h²/2) x + h v, v1 = v - h x:
        // det = 1 - h²/2 + h² = 1 + h²/2 > 1, a complex pair of modulus > 1 for small h.
        {"newton", 0.0, false},
        // Kinematic: the spring is the only force, and its step is the spring's exact flow (a
        // rotation, ρ = 1 at every h).
        {"kinematic", 0.0, true},
        // Kinematic, average acceleration: dv is the exact flow's, dx = v h + dv h/2:
        // M = [[1 - (h/2) sin h, (h/2)(1 + cos h)], [-sin h, cos h]], det = cos h + (h/2) sin h,
        // trace = 1 + cos h - (h/2) sin h. For 0 < h < π det ∈ (-1, 1) and ρ ≤ 1; at h = π the
        // eigenvalues are ±1 and det drops below -1 after it: limit π.
        {"kinematic_avg", 3.14159265358979323846, false},
    };
    for (const Case& c : cases) {
        INFO(c.integrator);
        const StabilityLimit l = oscillator_limit(id(c.integrator));
        CHECK(l.unconditional == c.unconditional);
        CHECK_FALSE(l.adaptive);
        if (c.limit == 0.0)
            CHECK(l.limit == 0.0);
        else
            CHECK(close(l.limit, c.limit, 1e-12));  // measured: 7.3e-14 at worst (Störmer, velocity Verlet)
    }
    const StabilityLimit rk45 = oscillator_limit(id("rk45"));
    CHECK(rk45.adaptive);
    CHECK(rk45.unconditional);
}

TEST_CASE("Yoshida's limit is where the trace of its composed map reaches 2") {
    // Forest–Ruth on the oscillator is the product of drifts D(c) = [[1, c], [0, 1]] and kicks
    // K(d) = [[1, 0], [-d, 1]] with c = (w1/2, (w0+w1)/2, (w0+w1)/2, w1/2) h and d = (w1, w0, w1) h:
    // det 1 (symplectic), so stable while |trace| ≤ 2. The trace is built here by hand and its
    // first crossing of 2 found by bisection (the eigenvalues meet at +1 there,
    // not at -1 as for a single Verlet step), independently of core/stability.
    const double cbrt2 = std::cbrt(2.0), w1 = 1.0 / (2.0 - cbrt2), w0 = -cbrt2 / (2.0 - cbrt2);
    auto trace = [&](double h) {
        const double c[4] = {0.5 * w1 * h, 0.5 * (w0 + w1) * h, 0.5 * (w0 + w1) * h, 0.5 * w1 * h};
        const double d[3] = {w1 * h, w0 * h, w1 * h};
        double m[2][2] = {{1.0, 0.0}, {0.0, 1.0}};  // state (x, v); M = last ∘ … ∘ first
        for (int k = 0; k < 4; ++k) {
            for (int j = 0; j < 2; ++j) m[0][j] += c[k] * m[1][j];  // drift: x += c v
            if (k == 3) break;
            for (int j = 0; j < 2; ++j) m[1][j] -= d[k] * m[0][j];  // kick: v -= d x
        }
        return m[0][0] + m[1][1];
    };
    double lo = 1.0, hi = 2.0;
    for (double h = 0.01; h <= 1.0; h += 0.01) REQUIRE(std::fabs(trace(h)) < 2.0);
    REQUIRE(std::fabs(trace(lo)) < 2.0);
    REQUIRE(trace(hi) > 2.0);
    for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) (trace(0.5 * (lo + hi)) < 2.0 ? lo : hi) = 0.5 * (lo + hi);
    const StabilityLimit l = oscillator_limit(id("yoshida4"));
    CHECK_FALSE(l.unconditional);
    CHECK(close(l.limit, lo, 1e-12));
    CHECK(close(l.limit, 1.5734019474344683, 1e-12));  // what `stepwise stability` prints
}

TEST_CASE("the probe's radius equals the closed forms at sample steps") {
    for (double h : {0.05, 0.5, 1.5, 2.5, 4.0}) {
        INFO("h = " << h);
        OscillatorProbe euler(id("explicit_euler")), implicit(id("implicit_euler")), rk4(id("rk4")),
            heun(id("heun")), semi(id("semi_implicit_euler")), newton(id("newton"));
        CHECK(close(euler.radius(h, 0.0), std::sqrt(1.0 + h * h), 1e-14));
        CHECK(close(implicit.radius(h, 0.0), 1.0 / std::sqrt(1.0 + h * h), 1e-12));
        const double h2 = h * h;
        // |R(ih)| for RK4 on the oscillator; RK4's map is normal (a polynomial in a rotation generator).
        CHECK(close(rk4.radius(h, 0.0), std::sqrt(1.0 - h2 * h2 * h2 / 72.0 + h2 * h2 * h2 * h2 / 576.0), 1e-13));
        CHECK(close(heun.radius(h, 0.0), std::sqrt(1.0 + h2 * h2 / 4.0), 1e-13));
        // Semi-implicit: ρ = 1 while h ≤ 2, else the larger |root| of λ² - (2 - h²) λ + 1.
        const double t = 2.0 - h2;
        CHECK(close(semi.radius(h, 0.0), h <= 2.0 ? 1.0 : 0.5 * (std::fabs(t) + std::sqrt(t * t - 4.0)), 1e-13));
        // Newton: a complex pair of modulus √det = √(1 + h²/2) while the discriminant
        // (2 - h²/2)² - 4 (1 + h²/2) = h⁴/4 - 4 h² < 0, i.e. h < 4.
        if (h < 4.0) CHECK(close(newton.radius(h, 0.0), std::sqrt(1.0 + h2 / 2.0), 1e-13));
    }
}

TEST_CASE("damped explicit Euler is stable up to ωh = 2ζ") {
    // λ = -ζ ± i√(1 - ζ²) (ζ < 1): |1 + hλ|² = (1 - ζh)² + h²(1 - ζ²) = 1 - 2ζh + h², at most 1
    // for h ≤ 2ζ. Near the limit d|1 + hλ|/dh ≈ ζ, so the probe's tolerance 1e-12 on ρ moves the
    // limit by 1e-12/ζ: relative 2e-11 at ζ = 0.25 and 1e-11 at ζ = 0.5 (well within 1e-9).
    for (double zeta : {0.25, 0.5}) {
        INFO("zeta = " << zeta);
        const StabilityLimit l = oscillator_limit(id("explicit_euler"), zeta);
        CHECK_FALSE(l.unconditional);
        CHECK(close(l.limit, 2.0 * zeta, 1e-10));
        OscillatorProbe probe(id("explicit_euler"));
        CHECK(close(probe.radius(0.3, zeta), std::sqrt(1.0 - 2.0 * zeta * 0.3 + 0.09), 1e-14));
    }
}

TEST_CASE("spectral_radius and map_radius on matrices with known eigenvalues") {
    double scratch[50];
    for (double r : {0.5, 1.0, 1.7})
        for (double theta : {0.3, 1.0, 2.9}) {
            INFO("r = " << r << ", theta = " << theta);
            // r times a rotation: eigenvalues r e^{±iθ}, a complex pair of equal modulus.
            const double m[4] = {r * std::cos(theta), -r * std::sin(theta), r * std::sin(theta), r * std::cos(theta)};
            CHECK(close(spectral_radius(2, m, scratch), r, 1e-13));
            CHECK(close(map_radius(2, m, scratch), r, 1e-15));
            // The same rotation inside a 3 x 3 map whose third component is written by nothing
            // and read as zero (rank 2, like the Verlet family's carried values).
            const double m3[9] = {m[0], m[1], 0.0, m[2], m[3], 0.0, 0.5 * m[0], 0.5 * m[1], 0.0};
            CHECK(close(map_radius(3, m3, scratch), r, 1e-14));
            CHECK(close(spectral_radius(3, m3, scratch), r, 1e-13));
        }
    // A Jordan block: a double eigenvalue λ with one eigenvector, ||M^k|| ~ k λ^k.
    for (double lambda : {0.9, 1.0, -1.1}) {
        INFO("lambda = " << lambda);
        const double j[4] = {lambda, 1.0, 0.0, lambda};
        CHECK(close(map_radius(2, j, scratch), std::fabs(lambda), 1e-15));
        CHECK(close(spectral_radius(2, j, scratch), std::fabs(lambda), 1e-12));
    }
    // Diagonal: the largest |entry|.
    const double d[9] = {0.3, 0.0, 0.0, 0.0, -0.9, 0.0, 0.0, 0.0, 0.5};
    CHECK(close(spectral_radius(3, d, scratch), 0.9, 1e-14));
    CHECK(close(map_radius(3, d, scratch), 0.9, 1e-14));
    const double zero[4] = {0.0, 0.0, 0.0, 0.0};
    CHECK(spectral_radius(2, zero, scratch) == 0.0);
    CHECK(map_radius(2, zero, scratch) == 0.0);
    // Nilpotent: every eigenvalue 0.
    const double nil[4] = {0.0, 1.0, 0.0, 0.0};
    CHECK(spectral_radius(2, nil, scratch) == 0.0);
    CHECK(map_radius(2, nil, scratch) == 0.0);
}

TEST_CASE("stiffest_mode: ω and ζ of a spring, of a free pair, none for free flight") {
    using testing_helpers::config_of;
    SECTION("one spring: ω = √(k/m), ζ = b/(2√(km))") {
        const Scene s = build_scene(config_of("scenario=spring&m=2&k=8&b=0.4&x0=1,0.5&v0=0.3,0"));
        const StiffestMode mode = stiffest_mode(s.system, s.x0.data(), s.v0.data());
        CHECK(mode.oscillates);
        CHECK(close(mode.omega, 2.0, 1e-14));
        CHECK(close(mode.zeta, 0.4 / (2.0 * std::sqrt(16.0)), 1e-14));
    }
    SECTION("two equal masses joined by a spring, no anchors: ω = √(2k/m)") {
        const Scene s = build_scene(config_of("scenario=spring_pair&m1=3&m2=3&k=6&b=0&rest=0&g=0,0"));
        const StiffestMode mode = stiffest_mode(s.system, s.x0.data(), s.v0.data());
        CHECK(mode.oscillates);
        CHECK(close(mode.omega, std::sqrt(2.0 * 6.0 / 3.0), 1e-14));
        CHECK(mode.zeta == 0.0);
    }
    SECTION("a free projectile has no restoring force") {
        const Scene s = build_scene(config_of("scenario=projectile&drag=0"));
        const StiffestMode mode = stiffest_mode(s.system, s.x0.data(), s.v0.data());
        CHECK_FALSE(mode.oscillates);
        CHECK(mode.omega == 0.0);
    }
}

TEST_CASE("at critical damping (ζ = 1 exactly) every limit is right to 1e-12", "[stability]") {
    // Each method's limit is its row of tests/method_cases.hpp, derived there by hand from its step.
    CHECK(test::rk4_critical_limit() == Approx(2.785293563405282).epsilon(1e-15));
    // Yoshida 4's bisection brackets a single crossing: stable up to 0.5, unstable at 3.
    REQUIRE(test::yoshida4_critical_excess(0.5L) < 0.0L);
    REQUIRE(test::yoshida4_critical_excess(3.0L) > 0.0L);
    for (long double h = 0.01L; h < 0.5L; h += 0.01L) REQUIRE(test::yoshida4_critical_excess(h) < 0.0L);
    for (const IntegratorInfo& info : integrators()) {
        const test::MethodCase* c = test::method_case(info.id);
        REQUIRE(c != nullptr);  // every method has its row
        INFO(info.id);
        const StabilityLimit l = oscillator_limit(id(info.id), 1.0);
        CHECK(l.unconditional == (c->critical_limit == 0.0));
        if (c->critical_limit > 0.0) CHECK(std::fabs(l.limit - c->critical_limit) <= 1e-12);
    }
    // The case as `stepwise stability` measures it: rk4's stable ωh at ζ = 1.
    CHECK(std::fabs(oscillator_limit(id("rk4"), 1.0).limit - 2.785293563405282) <= 1e-12);
}

TEST_CASE("lane_stability: the largest stable dt is substeps · limit / ω, and the verdict is the probe's at ω·dt / substeps") {
    // Semi-implicit Euler's limit on the undamped oscillator is ωh = 2 (above); on ω = 10 a lane
    // of one step reaches it at dt = 0.2, one of 4 substeps at dt = 0.8.
    StiffestMode mode;
    mode.oscillates = true;
    mode.omega = 10.0;
    const int euler = id("semi_implicit_euler");
    const LaneStability one = lane_stability(euler, 1, mode, 0.19);
    CHECK(one.has_largest);
    CHECK(one.largest_dt == Approx(0.2).epsilon(1e-12));
    CHECK(one.omega_dt == Approx(1.9).epsilon(1e-15));
    CHECK(one.omega_h == Approx(1.9).epsilon(1e-15));
    CHECK(one.stable_now);
    CHECK_FALSE(lane_stability(euler, 1, mode, 0.21).stable_now);
    const LaneStability four = lane_stability(euler, 4, mode, 0.79);
    CHECK(four.largest_dt == Approx(0.8).epsilon(1e-12));
    CHECK(four.omega_h == Approx(1.975).epsilon(1e-15));
    CHECK(four.stable_now);
    CHECK_FALSE(lane_stability(euler, 4, mode, 0.81).stable_now);
    // Damped (ζ = 0.5): the limit at the mode's ζ, as oscillator_limit gives it.
    mode.zeta = 0.5;
    const LaneStability damped = lane_stability(euler, 1, mode, 0.1);
    CHECK(damped.at_zeta.limit == oscillator_limit(euler, 0.5).limit);
    CHECK(damped.largest_dt == Approx(oscillator_limit(euler, 0.5).limit / 10.0).epsilon(1e-15));
    // Implicit Euler is stable at every ωh: no largest dt. Free flight: nothing oscillates.
    const LaneStability implicit = lane_stability(id("implicit_euler"), 1, mode, 10.0);
    CHECK(implicit.at_zeta.unconditional);
    CHECK_FALSE(implicit.has_largest);
    CHECK(implicit.stable_now);
    const LaneStability flight = lane_stability(euler, 1, StiffestMode{}, 0.1);
    CHECK_FALSE(flight.has_largest);
    CHECK(flight.stable_now);
    CHECK(flight.omega_dt == 0.0);
}
