// The convergence study: levels dt/2^j, the fitted orders (and where methods lose theirs),
// slicing, the work cap, the fit itself.
#include "convergence.hpp"
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace stepwise;
using namespace testing_helpers;

namespace {

ConvergenceStudy run_study(const std::string& query, int halvings = default_halvings) {
    ConvergenceStudy study(config_of(query), halvings);
    study.advance(HUGE_VAL);
    REQUIRE(study.finished());
    return study;
}

int row_of(const ConvergenceStudy& s, const char* id) {
    for (int r = 0; r < s.integrators(); ++r)
        if (std::string(integrators()[s.integrator_index(r)].id) == id) return r;
    FAIL("no row for " << id);
    return -1;
}

std::string describe(const ConvergenceStudy& s, int row) {
    std::string out;
    for (int l = 0; l < s.levels_done(); ++l) out += "dt=" + std::to_string(s.point(row, l).dt) + " err=" +
                                                     std::to_string(s.point(row, l).max_error) + "  ";
    return out + "order " + std::to_string(s.fit(row).order) + " over " + std::to_string(s.fit(row).points);
}

// The order fitted to one integrator's row, which must be valid.
double study_order(const ConvergenceStudy& s, const char* id) {
    const int r = row_of(s, id);
    INFO(id << ": " << describe(s, r));
    REQUIRE(s.fit(r).valid);
    return s.fit(r).order;
}

// Every number in a point is finite.
void check_finite(const ConvergenceStudy& s) {
    for (int r = 0; r < s.integrators(); ++r)
        for (int l = 0; l < s.levels_done(); ++l) {
            const ConvergencePoint& p = s.point(r, l);
            CHECK(std::isfinite(p.max_error));
            CHECK(std::isfinite(p.final_error));
            CHECK(std::isfinite(p.stopped_at));
            CHECK(p.final_error <= p.max_error);
        }
}

}  // namespace

TEST_CASE("convergence on the undamped spring: every fixed-step method at its table order") {
    // ω = 2 over 4 s from dt = 0.02 to 0.00125: every method in its asymptotic regime (measured
    // within 0.03 of the order; explicit Euler 1.022, implicit Euler 0.978).
    const ConvergenceStudy s = run_study("scenario=spring&k=4&b=0&dt=0.02&duration=4&integrators=" + all_integrators());
    CHECK(s.reference() == ReferenceKind::exact);
    CHECK(s.levels() == 5);
    CHECK(s.levels_requested() == 5);
    CHECK(s.progress() == 1.0);
    CHECK(s.noise_floor() == Approx(1e-11 * build_scene(s.config()).length_scale));
    check_finite(s);
    for (int r = 0; r < s.integrators(); ++r) {
        const IntegratorInfo& info = integrators()[s.integrator_index(r)];
        INFO(info.id << ": " << describe(s, r));
        for (int l = 0; l < s.levels(); ++l) {
            CHECK(s.point(r, l).dt == 0.02 / static_cast<double>(1 << l));
            CHECK(s.point(r, l).stop == StopReason::none);
            // Fixed-cost methods: one step costs the table's evaluations (velocity Verlet: plus its start).
            if (!info.implicit && !info.adaptive)
                CHECK(std::llabs(s.point(r, l).evaluations - info.force_evaluations * std::llround(4.0 / s.point(r, l).dt)) <= 1);
        }
        if (info.adaptive) {
            // Error control, not a fixed order: it meets its tolerance at every level.
            for (int l = 0; l < s.levels(); ++l) CHECK(s.point(r, l).max_error < 1e-7);
        } else if (expected_order(info, s.regime()).kind == Order::exact) {
            // The kinematic integrator follows the spring's exact flow: round-off only, every
            // level at or below the floor, so there is nothing to fit.
            for (int l = 0; l < s.levels(); ++l) CHECK(s.point(r, l).max_error <= s.noise_floor());
            CHECK_FALSE(s.fit(r).valid);
            CHECK(s.fit(r).points == 0);
        } else {
            REQUIRE(s.fit(r).valid);
            CHECK(s.fit(r).order == Approx(expected_order(info, s.regime()).p).margin(0.15));
        }
    }
    // The fourth-order methods reach the floor: rk4's finest level (error ~1e-12) is not fitted.
    CHECK(s.fit(row_of(s, "rk4")).points < 5);
}

TEST_CASE("convergence with damping: the Verlet family keeps order 2, Yoshida order 4") {
    // Yoshida's triple jump is built on a symmetric step that splits off the damper's exact flow
    // (v e^{-b t/m}) around a conservative kick: fourth order with damping (measured 4.000 here).
    // Evaluating the damper inside the kicks instead made it first order (0.994).
    const ConvergenceStudy s =
        run_study("scenario=spring&k=4&b=0.4&dt=0.02&duration=4&integrators=" + all_integrators());
    check_finite(s);
    auto order = [&](const char* id) { return study_order(s, id); };
    CHECK(order("yoshida4") == Approx(4.0).margin(0.15));
    for (const char* id : {"leapfrog", "stormer_verlet", "velocity_verlet", "heun", "midpoint", "kinematic_avg"})
        CHECK(order(id) == Approx(2.0).margin(0.15));
    CHECK(order("rk4") == Approx(4.0).margin(0.15));
    for (const char* id : {"explicit_euler", "semi_implicit_euler", "semi_implicit_euler_x", "implicit_euler", "newton"})
        CHECK(order(id) == Approx(1.0).margin(0.15));
    // The kinematic integrator's spring force carries its own damper in its closed form: still exact.
    CHECK_FALSE(s.fit(row_of(s, "kinematic")).valid);
}

TEST_CASE("convergence with quadratic drag: which methods lose their order") {
    // Against the rk45 reference (floor 1e-9 of the length scale). Quadratic drag has no closed
    // form, so both kinematic variants fall back to the semi-implicit terms for it and are first
    // order (measured 1.013 and 1.014). Yoshida, with drag's exact flow (direction kept, speed
    // s/(1 + c s t/m)) split off its kicks, is fourth order (3.999). The Verlet family (predicted
    // velocities) keeps 2 (1.982), Heun and midpoint 2 (2.067, 2.052), RK4 4 (4.147 over the 3
    // levels above the floor).
    const ConvergenceStudy s = run_study("preset=projectile_drag&integrators=" + all_integrators());
    CHECK(s.reference() == ReferenceKind::rk45);
    CHECK(s.noise_floor() == Approx(1e-9 * build_scene(s.config()).length_scale));
    check_finite(s);
    auto order = [&](const char* id) { return study_order(s, id); };
    for (const char* id : {"kinematic", "kinematic_avg"}) {
        INFO(id);
        CHECK(order(id) < 1.2);
    }
    CHECK(order("yoshida4") == Approx(4.0).margin(0.15));
    for (const char* id : {"leapfrog", "stormer_verlet", "velocity_verlet", "heun", "midpoint"})
        CHECK(order(id) == Approx(2.0).margin(0.15));
    CHECK(order("rk4") == Approx(4.0).margin(0.2));
    // rk45 against an rk45 reference at a 1000 times tighter tolerance: below the floor.
    CHECK_FALSE(s.fit(row_of(s, "rk45")).valid);
}

TEST_CASE("advancing in slices gives the same points, bit for bit, as one call") {
    const std::string q = "preset=two_point_exercise&integrators=explicit_euler,rk4,implicit_euler,rk45,kinematic&duration=3&dt=0.01";
    ConvergenceStudy whole(config_of(q), 3), sliced(config_of(q), 3);
    whole.advance(HUGE_VAL);
    double last_progress = 0.0;
    int calls = 0;
    while (!sliced.advance(1000)) {
        ++calls;
        CHECK(sliced.progress() >= last_progress);
        CHECK(sliced.progress() < 1.0);
        last_progress = sliced.progress();
    }
    CHECK(calls > 10);  // it really was sliced, across levels and within them
    CHECK(sliced.progress() == 1.0);
    REQUIRE(sliced.levels_done() == whole.levels_done());
    for (int r = 0; r < whole.integrators(); ++r)
        for (int l = 0; l < whole.levels_done(); ++l) {
            const ConvergencePoint &a = whole.point(r, l), &b = sliced.point(r, l);
            CHECK(a.dt == b.dt);
            CHECK(a.evaluations == b.evaluations);
            CHECK(a.max_error == b.max_error);
            CHECK(a.final_error == b.final_error);
            CHECK(a.stop == b.stop);
            CHECK(a.stopped_at == b.stopped_at);
        }
    // Tiny slices still progress (at least one step of every lane per call).
    ConvergenceStudy tiny(config_of("preset=two_point_exercise&duration=3"), 1);
    int tiny_calls = 0;
    while (!tiny.advance(1e-3)) ++tiny_calls;
    CHECK(tiny_calls > 0);
}

TEST_CASE("a step in parts of bounded core work gives the same points, bit for bit (issue 31 §4)") {
    // The page's legend study on the stiff written law over the cloth: one step of its rk45 lane
    // at the substep cap was one call of about 100 ms. In parts of 20,000 units (a fifth of the
    // page's budget) a step takes several calls, and the points are the whole study's.
    const std::string q = "preset=scene_cloth&integrators=rk45,xpbd@10x1&fx=-c1*x-c2*x^3&c1=1000000&c2=1000000&duration=0.05";
    ConvergenceStudy whole(config_of(q), 1), parts(config_of(q), 1);
    whole.advance(HUGE_VAL);
    int calls = 0;
    while (!parts.advance(HUGE_VAL, 20000)) ++calls;
    REQUIRE(parts.levels_done() == whole.levels_done());
    long long evaluations = 0;
    for (int r = 0; r < whole.integrators(); ++r)
        for (int l = 0; l < whole.levels_done(); ++l) {
            const ConvergencePoint &a = whole.point(r, l), &b = parts.point(r, l);
            evaluations += a.evaluations;
            CHECK(a.evaluations == b.evaluations);
            CHECK(a.max_error == b.max_error);
            CHECK(a.final_error == b.final_error);
            CHECK(a.stop == b.stop);
            CHECK(a.stopped_at == b.stopped_at);
        }
    // Each level is round(0.05 / dt) steps (3 and 6 at dt = 1/60 and 1/120), and a call ends
    // inside a step: more calls than steps.
    CHECK(calls > 9);
    INFO(evaluations);
    CHECK(evaluations > 0);
}

TEST_CASE("the work cap drops the finest levels") {
    // 2 integrators + the reference = 3 lanes; level j takes 1000·2^j steps: 3000, 6000, 12000, …
    const Config c = config_of("scenario=spring&dt=0.01&duration=10&integrators=rk4,explicit_euler");
    const ConvergenceStudy capped(c, 4, 3000.0 + 6000.0 + 12000.0);
    CHECK(capped.levels_requested() == 5);
    CHECK(capped.levels() == 3);
    CHECK(ConvergenceStudy(c, 4, 3000.0 + 6000.0 + 12000.0 - 1.0).levels() == 2);
    CHECK(ConvergenceStudy(c, 4, 1e12).levels() == 5);
    ConvergenceStudy none(c, 4, 2999.0);  // not even level 0
    CHECK(none.levels() == 0);
    CHECK(none.finished());
    CHECK(none.progress() == 1.0);
    CHECK(none.advance(1e6));
    CHECK(none.levels_done() == 0);
    CHECK_FALSE(none.fit(0).valid);
    ConvergenceStudy run(c, 4, 21000.0);
    while (!run.advance(2500.0)) {
    }
    CHECK(run.levels_done() == 3);
    CHECK(run.point(0, 2).dt == 0.0025);
    CHECK(run.point(0, 2).evaluations == 4 * 4000);
    // halvings out of range are clamped to 0 … max_halvings
    CHECK(ConvergenceStudy(c, -3, 1e12).levels_requested() == 1);
    CHECK(ConvergenceStudy(c, 99, 0.0).levels_requested() == 1 + max_halvings);
}

TEST_CASE("a lane that diverges is stopped, reported and left out of the fit") {
    // ω dt = 1.58 on the stiff spring: explicit Euler runs away at every level up to dt/4.
    const ConvergenceStudy s = run_study("preset=stiff_spring&integrators=explicit_euler,rk4", 2);
    check_finite(s);
    for (int l = 0; l < s.levels(); ++l) {
        const ConvergencePoint& p = s.point(0, l);
        CHECK(p.stop == StopReason::diverged);
        CHECK(p.stopped_at > 0.0);
        CHECK(p.stopped_at < 10.0);
    }
    CHECK_FALSE(s.fit(0).valid);
    CHECK(s.fit(0).points == 0);
    CHECK(s.point(1, 0).stop == StopReason::none);
}

TEST_CASE("fit_order: least squares of log error against log dt, above the floor only") {
    ConvergencePoint p[6];
    for (int i = 0; i < 6; ++i) {
        p[i].dt = 0.1 / static_cast<double>(1 << i);
        p[i].max_error = 3.0 * p[i].dt * p[i].dt;  // exactly second order
    }
    OrderFit f = fit_order(p, 6, 0.0);
    CHECK(f.valid);
    CHECK(f.points == 6);
    CHECK(f.order == Approx(2.0).epsilon(1e-12));
    // Points at or below the floor, non-finite, or from a stopped lane are not fitted.
    p[4].max_error = 1e-12;
    p[5].max_error = 1e-12;
    f = fit_order(p, 6, 1e-12);
    CHECK(f.points == 4);
    CHECK(f.order == Approx(2.0).epsilon(1e-12));
    p[3].max_error = HUGE_VAL;
    p[2].stop = StopReason::diverged;
    f = fit_order(p, 6, 1e-12);
    CHECK(f.points == 2);
    CHECK(f.valid);
    CHECK(f.order == Approx(2.0).epsilon(1e-12));
    p[1].max_error = std::nan("");
    f = fit_order(p, 6, 1e-12);
    CHECK(f.points == 1);
    CHECK_FALSE(f.valid);
    CHECK(f.order == 0.0);
    // Two points at the same dt give no slope.
    ConvergencePoint same[2];
    same[0].dt = same[1].dt = 0.1;
    same[0].max_error = 1.0;
    same[1].max_error = 2.0;
    CHECK_FALSE(fit_order(same, 2, 0.0).valid);
    CHECK_FALSE(fit_order(p, 0, 0.0).valid);
}

// Along the iterations axis: dt fixed, a solver lane's iterations doubled at every level.
TEST_CASE("an iterations study doubles each solver lane's iterations at its dt and leaves out the methods without") {
    const std::string q = "scenario=chain&links=4&m=1&compliance=0.0001&duration=1&dt=0.01&"
                          "integrators=rk4,xpbd@2x3,vbd,sequential_impulses";
    ConvergenceStudy study(config_of(q), 3, default_convergence_work, StudyAxis::iterations);
    study.advance(HUGE_VAL);
    REQUIRE(study.finished());
    CHECK(study.axis() == StudyAxis::iterations);
    REQUIRE(study.integrators() == 3);  // rk4 has no iterations
    CHECK(lane_id(study.config().integrators[0]) == "xpbd@2x3");
    CHECK(std::string(integrators()[study.integrator_index(1)].id) == "vbd");
    REQUIRE(study.levels_done() == 4);
    const int base[3] = {3, integrators()[study.integrator_index(1)].default_iterations,
                         integrators()[study.integrator_index(2)].default_iterations};
    for (int r = 0; r < 3; ++r)
        for (int l = 0; l < 4; ++l) {
            const ConvergencePoint& p = study.point(r, l);
            CHECK(p.dt == 0.01);
            CHECK(p.iterations == base[r] << l);
            CHECK(!study.fit(r).valid);  // no order in dt along this axis
        }
    // xpbd@2x3: 100 steps of 2 substeps, each one force evaluation and 3·2^l passes.
    CHECK(study.point(0, 0).evaluations == 100 * 2 * (1 + 3));
    CHECK(study.point(0, 3).evaluations == 100 * 2 * (1 + 24));
    // Each level is the run of the lane written with those iterations.
    Config level = config_of("scenario=chain&links=4&m=1&compliance=0.0001&duration=1&dt=0.01&integrators=xpbd@2x12");
    ConvergenceStudy alone(level, 0);
    alone.advance(HUGE_VAL);
    CHECK(alone.point(0, 0).max_error == study.point(0, 2).max_error);
    // A config with no lane that has iterations gives no rows.
    ConvergenceStudy none(config_of("preset=damped_spring"), 2, default_convergence_work, StudyAxis::iterations);
    CHECK(none.integrators() == 0);
}

TEST_CASE("an iterations study stops before a lane passes the lane settings' bounds") {
    // xpbd@20x100: 100, 200, 400 iterations (8,000 passes a step); 800 would be 16,000 > 10,000.
    ConvergenceStudy study(config_of("scenario=chain&links=2&compliance=0.001&duration=0.1&integrators=xpbd@20x100"), 6,
                           default_convergence_work, StudyAxis::iterations);
    CHECK(study.levels_requested() == 7);
    CHECK(study.levels() == 3);
    // pbd@1x300: 300, 600 iterations; 1,200 > 1,000.
    ConvergenceStudy pbd(config_of("scenario=chain&links=2&duration=0.1&integrators=pbd@1x300"), 4,
                         default_convergence_work, StudyAxis::iterations);
    CHECK(pbd.levels() == 2);
}

// One XPBD iteration on a lone body on a zero-rest spring is implicit Euler's step (the
// constraint is linear): more iterations change nothing, and the error they settle on is
// implicit Euler's at that dt, not the exact motion's 0.
TEST_CASE("XPBD's iterations on a zero-rest spring settle at once on implicit Euler's error") {
    const std::string q = "scenario=spring&k=4&m=1&b=0&x0=1,0&v0=0,0&dt=0.05&duration=3";
    ConvergenceStudy study(config_of(q + "&integrators=xpbd@1x1"), 4, default_convergence_work, StudyAxis::iterations);
    study.advance(HUGE_VAL);
    REQUIRE(study.levels_done() == 5);
    ConvergenceStudy implicit(config_of(q + "&integrators=implicit_euler"), 0);
    implicit.advance(HUGE_VAL);
    const double e = implicit.point(0, 0).max_error;
    CHECK(e > 0.1);  // implicit Euler's damping of the swing: far from the exact motion
    for (int l = 0; l < 5; ++l) CHECK(study.point(0, l).max_error == Approx(e).epsilon(1e-12));
    const IterationsTrend t = study.iterations_trend(0);
    REQUIRE(t.valid);
    CHECK(t.first_iterations == 1);
    CHECK(t.last_iterations == 16);
    CHECK(t.last_change < 1e-12);
    CHECK(t.settled);
    CHECK(!t.at_floor);
}
