// The stage X-ray (core/trace.hpp): a traced step is the untraced step, bit for bit, for every
// integrator on every kind of system; its stages are what the method computes (the two-point
// exercise worked by hand for explicit Euler, Heun and RK4); its result is the state the run
// reports one step later.
#include "helpers.hpp"
#include "integrators.hpp"
#include "rows.hpp"
#include "simulation.hpp"
#include "trace.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

using namespace stepwise;
using testing_helpers::all_integrators;
using testing_helpers::config_of;

namespace {

bool same(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The bodies' (x, y) of both, bit for bit (a trace's copy of a state against a lane's or its own).
template <class B>
bool same(const std::vector<dvec2>& a, const B& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!same(a[i].x, b[i].x) || !same(a[i].y, b[i].y)) return false;
    return true;
}

// Every coordinate of both arrays (the angular block too), bit for bit.
bool same(const Coordinates& a, const Coordinates& b) {
    if (a.count() != b.count() || a.size() != b.size()) return false;
    for (int i = 0; i < a.count(); ++i)
        if (!same(a.flat()[i], b.flat()[i])) return false;
    return true;
}

// Everything a step leaves behind for the next one, and its statistics.
void check_same_lane(const Lane& traced, const Lane& plain) {
    CHECK(same(traced.x, plain.x));
    CHECK(same(traced.v, plain.v));
    CHECK(same(traced.carry_x, plain.carry_x));
    CHECK(same(traced.carry_v, plain.carry_v));
    CHECK(same(traced.carry_a, plain.carry_a));
    CHECK(traced.started == plain.started);
    CHECK(same(traced.substep, plain.substep));
    CHECK(same(traced.force_maps_h, plain.force_maps_h));
    CHECK(same(traced.dissipated, plain.dissipated));
    CHECK(traced.gave_up == plain.gave_up);
    CHECK(traced.force_evaluations == plain.force_evaluations);
    CHECK(traced.newton_failures == plain.newton_failures);
    CHECK(traced.rejected_substeps == plain.rejected_substeps);
}

// The systems the X-ray is checked on: each kind of force, damped and not, with and without a
// closed form for the kinematic step, at steps large enough for every stage to differ.
const std::vector<std::string> systems = {
    "scenario=spring&dt=0.05",                      // damped anchor spring, rest 0
    "scenario=two_spring&b=0.5&dt=0.05",            // two springs and a damper on one body
    "scenario=spring_pair&dt=0.1",                  // the two-point exercise's defaults (rest 6)
    "scenario=spring_pair&rest=0&b=0.2&dt=0.1",     // a damped pair spring with a closed form
    "scenario=orbit&dt=0.1",                        // a central body
    "scenario=projectile&drag=0.1&dt=0.05",         // quadratic drag under gravity
    "scenario=elastic_pendulum&dt=0.05",            // a spring of rest 1 under gravity
};

int count_kind(const std::vector<TraceStage>& stages, StageKind kind) {
    int n = 0;
    for (const TraceStage& st : stages) n += st.kind == kind;
    return n;
}

// The force evaluations the stages show: one per evaluation stage, and the kinematic step's
// per-force increments together as its one evaluation (each force's closed form over the step).
long long evaluations_shown(const std::vector<TraceStage>& stages) {
    return count_kind(stages, StageKind::evaluation) + (count_kind(stages, StageKind::increment) > 0 ? 1 : 0);
}

// |got - want| within a few units in the last place of numbers of order one (the exercise's values
// go through a square root and a difference of lengths).
void check_near(dvec2 got, double want_x, double want_y) {
    CHECK(got.x == Approx(want_x).margin(1e-14));
    CHECK(got.y == Approx(want_y).margin(1e-14));
}

struct Point {
    double x, y, vx, vy, ax, ay;
};

// Stage `st` holds, for bodies P1 and P2, the hand-computed x, v and a.
void check_stage(const TraceStage& st, const char* label, Point p1, Point p2) {
    INFO(label);
    CHECK(st.label == label);
    REQUIRE(st.x.size() == 2);
    REQUIRE(st.v.size() == 2);
    REQUIRE(st.a.size() == 2);
    check_near(st.x[0], p1.x, p1.y);
    check_near(st.v[0], p1.vx, p1.vy);
    check_near(st.a[0], p1.ax, p1.ay);
    check_near(st.x[1], p2.x, p2.y);
    check_near(st.v[1], p2.vx, p2.vy);
    check_near(st.a[1], p2.ax, p2.ay);
}

LaneTrace trace_of(const std::string& query, const char* integrator, long long step = 0) {
    const Config c = config_of(query);
    const std::vector<LaneTrace> lanes = trace_step(c, step, {find_integrator(integrator)});
    REQUIRE(lanes.size() == 1);
    REQUIRE(lanes[0].stepped);
    return lanes[0];
}

}  // namespace

TEST_CASE("a traced step is the untraced step bit for bit, for every integrator on every system") {
    for (const std::string& system : systems) {
        const Config c = config_of(system + "&integrators=" + all_integrators());
        const Scene scene = build_scene(c);
        for (const LaneSpec& lane : c.integrators) {
            const int id = lane.integrator;
            INFO(system << ", " << integrators()[id].id);
            const StepFn step = integrators()[id].step;
            Lane plain = make_lane(scene.system, id, scene.x0.data(), scene.v0.data());
            Lane traced = plain;
            // Traced on every step: stateful methods show their first step and their later ones.
            for (int k = 0; k < 12; ++k) {
                TraceRecorder recorder(scene.system.bodies());
                traced.observer = &recorder;
                const long long before = traced.force_evaluations;
                step(scene.system, plain, c.dt);
                step(scene.system, traced, c.dt);
                check_same_lane(traced, plain);
                // Every force evaluation is a stage of its own, and only those are evaluations.
                CHECK(evaluations_shown(recorder.stages()) == traced.force_evaluations - before);
                CHECK(!recorder.stages().empty());
            }
        }
    }
}

TEST_CASE("trace: the result is the state the run reports one step later, bit for bit") {
    for (const std::string& system : systems) {
        const Config c = config_of(system + "&integrators=" + all_integrators());
        for (long long step : {0LL, 1LL, 6LL}) {
            Simulation run(c);
            run.advance(step + 1);
            const std::vector<LaneTrace> lanes = trace_step(c, step, c.integrators);
            REQUIRE(lanes.size() == c.integrators.size());
            for (size_t l = 0; l < lanes.size(); ++l) {
                const LaneTrace& tr = lanes[l];
                INFO(system << ", " << integrators()[tr.integrator].id << ", step " << step);
                CHECK(tr.integrator == c.integrators[l]);
                REQUIRE(tr.stepped);
                CHECK(tr.step == step);
                CHECK(tr.t == static_cast<double>(step) * c.dt);
                CHECK(tr.h == c.dt);
                CHECK(tr.stop == StopReason::none);
                REQUIRE(!tr.stages.empty());
                const TraceStage& result = tr.stages.back();
                CHECK(result.label == "result");
                CHECK(result.kind == StageKind::state);
                CHECK(same(result.x, run.lane(static_cast<int>(l)).x));
                CHECK(same(result.v, run.lane(static_cast<int>(l)).v));
                // Its acceleration is a(x, v) there, computed for the table and not counted.
                std::vector<dvec2> a(result.x.size());
                accelerations(run.scene().system, result.x.data(), result.v.data(), a.data(), run.lane(static_cast<int>(l)).t);
                CHECK(same(result.a, a));
                CHECK(tr.force_evaluations == evaluations_shown(tr.stages));
            }
        }
    }
}

TEST_CASE("trace: the two-point exercise's RK4 step worked by hand") {
    // P1: m 2 at (-2, 2) with v (-1, -1.5); P2: m 3 at (3, 2) with v (1, -1.5); a spring of
    // rest 6 and k = 4 between them, gravity (0, -10), h = 1/2. Both bodies start at the same
    // height with the same vy, so the spring stays horizontal: with d = x1 - x2 (a length along x),
    // the spring pulls P1 by F = -k (|d| - 6) d/|d| and P2 by -F; a = g + F/m.
    //   k1 at the start: d = -5, F = -4 (5 - 6)(-5)/5 = -4:  a1 = (-2, -10), a2 = (4/3, -10).
    //   k2 at x0 + v0 h/2, v0 + a(k1) h/2:  P1 (-9/4, 13/8), v (-3/2, -4); P2 (13/4, 13/8),
    //      v (4/3, -4); d = -11/2, F = -4 (11/2 - 6)(-1) = -2: a1 = (-1, -10), a2 = (2/3, -10).
    //   k3 at x0 + v(k2) h/2, v0 + a(k2) h/2:  P1 (-19/8, 1), v (-5/4, -4); P2 (10/3, 1),
    //      v (7/6, -4); d = -137/24, F = -4 (137/24 - 144/24)(-1) = -7/6: a1 = (-7/12, -10),
    //      a2 = (7/18, -10).
    //   k4 at x0 + v(k3) h, v0 + a(k3) h:  P1 (-21/8, 0), v (-31/24, -13/2); P2 (43/12, 0),
    //      v (43/36, -13/2); d = -149/24, F = -4 (149/24 - 144/24)(-1) = 5/6: a1 = (5/12, -10),
    //      a2 = (-5/18, -10).
    //   result: x1 = x0 + h/6 (v(k1) + 2 v(k2) + 2 v(k3) + v(k4)):
    //      P1 x = -2 + (1/12)(-1 - 3 - 5/2 - 31/24) = -2 - 187/288 = -763/288,
    //         y = 2 + (1/12)(-3/2 - 8 - 8 - 13/2) = 0;
    //      v1 = v0 + h/6 (a(k1) + 2 a(k2) + 2 a(k3) + a(k4)):
    //      P1 vx = -1 + (1/12)(-2 - 2 - 7/6 + 5/12) = -67/48, vy = -3/2 - 5 = -13/2;
    //      P2 x = 3 + (1/12)(1 + 8/3 + 7/3 + 43/36) = 1555/432, vx = 1 + (1/12)(4/3 + 4/3 + 7/9 - 5/18) = 91/72.
    //      There d = -763/288 - 1555/432 = -5399/864, F = -4 (5399/864 - 5184/864)(-1) = 215/216:
    //      a1 = (215/432, -10), a2 = (-215/648, -10).
    const LaneTrace tr = trace_of("preset=two_point_exercise", "rk4");
    CHECK(tr.h == 0.5);
    CHECK(tr.force_evaluations == 4);
    REQUIRE(tr.stages.size() == 5);
    // The first stage at P1 is the start state itself.
    CHECK(tr.stages[0].x[0] == dvec2(-2.0, 2.0));
    CHECK(tr.stages[0].v[0] == dvec2(-1.0, -1.5));
    check_stage(tr.stages[0], "k1", {-2, 2, -1, -1.5, -2, -10}, {3, 2, 1, -1.5, 4.0 / 3, -10});
    check_stage(tr.stages[1], "k2", {-9.0 / 4, 13.0 / 8, -1.5, -4, -1, -10}, {13.0 / 4, 13.0 / 8, 4.0 / 3, -4, 2.0 / 3, -10});
    check_stage(tr.stages[2], "k3", {-19.0 / 8, 1, -5.0 / 4, -4, -7.0 / 12, -10},
                {10.0 / 3, 1, 7.0 / 6, -4, 7.0 / 18, -10});
    check_stage(tr.stages[3], "k4", {-21.0 / 8, 0, -31.0 / 24, -6.5, 5.0 / 12, -10},
                {43.0 / 12, 0, 43.0 / 36, -6.5, -5.0 / 18, -10});
    check_stage(tr.stages[4], "result", {-763.0 / 288, 0, -67.0 / 48, -6.5, 215.0 / 432, -10},
                {1555.0 / 432, 0, 91.0 / 72, -6.5, -215.0 / 648, -10});
    for (int k = 0; k < 4; ++k) CHECK(tr.stages[k].kind == StageKind::evaluation);
}

TEST_CASE("trace: the two-point exercise's explicit Euler and Heun steps worked by hand") {
    // Explicit Euler: the slopes at the start (k1 above), x1 = x0 + v0 h, v1 = v0 + a0 h:
    //   P1 x = (-2 - 1/2, 2 - 3/4) = (-5/2, 5/4), v = (-1 - 1, -3/2 - 5) = (-2, -13/2);
    //   P2 x = (3 + 1/2, 5/4), v = (1 + 2/3, -13/2) = (5/3, -13/2).
    //   There d = -6, the spring's rest length: a = g for both.
    const Point start1 = {-2, 2, -1, -1.5, -2, -10}, start2 = {3, 2, 1, -1.5, 4.0 / 3, -10};
    const Point euler1 = {-2.5, 1.25, -2, -6.5, 0, -10}, euler2 = {3.5, 1.25, 5.0 / 3, -6.5, 0, -10};
    const LaneTrace euler = trace_of("preset=two_point_exercise", "explicit_euler");
    REQUIRE(euler.stages.size() == 2);
    check_stage(euler.stages[0], "start", start1, start2);
    check_stage(euler.stages[1], "result", euler1, euler2);
    // Heun: the predictor is the Euler step, evaluated there (a = g); then the trapezoid:
    //   P1 x = -2 + (1/4)(-1 - 2) = -11/4, y = 2 + (1/4)(-3/2 - 13/2) = 0,
    //      vx = -1 + (1/4)(-2 + 0) = -3/2, vy = -3/2 + (1/4)(-20) = -13/2;
    //   P2 x = 3 + (1/4)(1 + 5/3) = 11/3, vx = 1 + (1/4)(4/3) = 4/3.
    //   There d = -11/4 - 11/3 = -77/12, F = -4 (77/12 - 72/12)(-1) = 5/3: a1 = (5/6, -10), a2 = (-5/9, -10).
    const LaneTrace heun = trace_of("preset=two_point_exercise", "heun");
    REQUIRE(heun.stages.size() == 3);
    check_stage(heun.stages[0], "start", start1, start2);
    check_stage(heun.stages[1], "predictor", euler1, euler2);
    check_stage(heun.stages[2], "result", {-11.0 / 4, 0, -1.5, -6.5, 5.0 / 6, -10}, {11.0 / 3, 0, 4.0 / 3, -6.5, -5.0 / 9, -10});
}

TEST_CASE("trace: the points that are not evaluations (carried, half-step, previous, reused)") {
    const std::string exercise = "preset=two_point_exercise&integrators=" + all_integrators();
    SECTION("leapfrog's first half kick: v(1/2) = v0 + a0 h/2, a velocity alone") {
        const LaneTrace tr = trace_of(exercise, "leapfrog");
        REQUIRE(tr.stages.size() == 4);  // start, half kick, end, result
        const TraceStage& kick = tr.stages[1];
        CHECK(kick.kind == StageKind::state);
        CHECK(kick.x.empty());
        CHECK(kick.a.empty());
        // P1: (-1, -3/2) + (1/4)(-2, -10); P2: (1, -3/2) + (1/4)(4/3, -10).
        check_near(kick.v[0], -1.5, -4.0);
        check_near(kick.v[1], 4.0 / 3, -4.0);
    }
    SECTION("Störmer–Verlet's later step shows the previous position and the carried acceleration") {
        const LaneTrace first = trace_of(exercise, "stormer_verlet", 0);
        const LaneTrace second = trace_of(exercise, "stormer_verlet", 1);
        REQUIRE(second.stages.size() == 4);  // previous position, start, end, result
        CHECK(second.stages[0].label == "previous position");
        CHECK(second.stages[0].v.empty());
        CHECK(second.stages[0].a.empty());
        CHECK(second.stages[0].x == std::vector<dvec2>{dvec2(-2.0, 2.0), dvec2(3.0, 2.0)});
        // The start of step 1 is the result of step 0, with the acceleration evaluated at its end.
        CHECK(second.stages[1].kind == StageKind::state);
        CHECK(same(second.stages[1].x, first.stages.back().x));
        CHECK(same(second.stages[1].a, first.stages[first.stages.size() - 2].a));
        CHECK(second.force_evaluations == 1);
    }
    SECTION("rk45: seven stages per substep attempt, a note for each rejected one") {
        // The first substep tries the whole step h = 0.5, which the tolerance rejects.
        const Config c = config_of(exercise);
        Simulation run(c);
        const int rk45 = find_integrator("rk45");
        int lane = 0;
        while (run.lane(lane).integrator != rk45) ++lane;
        run.step();
        const LaneTrace tr = trace_of(exercise, "rk45");
        const long long rejected = run.lane(lane).rejected_substeps;
        CHECK(rejected >= 1);
        const int notes = count_kind(tr.stages, StageKind::note);
        CHECK(notes == rejected);
        const size_t attempts = (tr.stages.size() - 1 - static_cast<size_t>(notes)) / 7;
        CHECK(tr.stages.size() == 7 * attempts + static_cast<size_t>(notes) + 1);
        for (size_t k = 0, seen = 0; k + 1 < tr.stages.size(); ++k) {
            if (tr.stages[k].kind == StageKind::note) {
                CHECK(tr.stages[k].label.find("rejected") != std::string::npos);
                continue;
            }
            const std::string prefix = "substep " + std::to_string(seen / 7 + 1) + " (h = ";
            CHECK(tr.stages[k].label.rfind(prefix, 0) == 0);
            const std::string k_name = "k" + std::to_string(seen % 7 + 1);
            CHECK(tr.stages[k].label.find("): " + k_name) != std::string::npos);
            ++seen;
        }
        CHECK(tr.stages[0].label == "substep 1 (h = 0.5): k1");
    }
    SECTION("implicit Euler: one stage per Newton iterate, two on a linear system") {
        const Config c = config_of("scenario=spring&integrators=implicit_euler");
        const Scene scene = build_scene(c);
        const LaneTrace tr = trace_of("scenario=spring&integrators=implicit_euler", "implicit_euler");
        REQUIRE(tr.stages.size() == 3);
        CHECK(tr.stages[0].label == "newton 1");
        CHECK(tr.stages[1].label == "newton 2");
        // The first iterate is the guess v1 = v0, evaluated at x0 + h v1; a linear force needs one
        // Newton update, so the second iterate is the solution (the last update is round-off).
        CHECK(tr.stages[0].v[0] == scene.v0[0]);
        CHECK(tr.stages[0].x[0] == scene.x0[0] + c.dt * scene.v0[0]);
        check_near(tr.stages[1].v[0], tr.stages[2].v[0].x, tr.stages[2].v[0].y);
        CHECK(tr.stages[1].x[0] == scene.x0[0] + c.dt * tr.stages[1].v[0]);
    }
}

TEST_CASE("trace: the kinematic step's increments add up to its step, as the labels say") {
    for (const std::string& system : systems) {
        for (const char* id : {"kinematic", "kinematic_avg"}) {
            INFO(system << ", " << id);
            const Config c = config_of(system + "&integrators=" + id);
            const LaneTrace tr = trace_of(system + "&integrators=" + id, id, 3);
            REQUIRE(tr.stages.size() >= 3);
            const TraceStage& start = tr.stages.front();
            const TraceStage& result = tr.stages.back();
            CHECK(start.label == "start");
            CHECK(start.a.empty());
            // x1 = x0 + v0 h + Σ dx, v1 = v0 + Σ dv (summed here in another order: to rounding).
            for (size_t b = 0; b < start.x.size(); ++b) {
                dvec2 dx(0.0), dv(0.0);
                for (const TraceStage& st : tr.stages) {
                    if (st.kind != StageKind::increment) continue;
                    CHECK(st.label.find(increment_columns) != std::string::npos);
                    CHECK(st.a.empty());
                    dx += st.x[b];
                    dv += st.v[b];
                }
                const dvec2 x1 = start.x[b] + c.dt * start.v[b] + dx, v1 = start.v[b] + dv;
                const double scale = 1.0 + std::abs(x1.x) + std::abs(x1.y) + std::abs(v1.x) + std::abs(v1.y);
                CHECK(std::abs(x1.x - result.x[b].x) <= 1e-14 * scale);
                CHECK(std::abs(x1.y - result.x[b].y) <= 1e-14 * scale);
                CHECK(std::abs(v1.x - result.v[b].x) <= 1e-14 * scale);
                CHECK(std::abs(v1.y - result.v[b].y) <= 1e-14 * scale);
            }
        }
    }
    // The exercise: gravity's increment is exact (dv = g h, dx = g h²/2) and the same for both.
    const LaneTrace tr = trace_of("preset=two_point_exercise&integrators=kinematic", "kinematic");
    REQUIRE(tr.stages.size() == 4);  // start, gravity, the spring, result
    CHECK(tr.stages[1].label == std::string("gravity") + increment_columns);
    CHECK(tr.stages[1].v == std::vector<dvec2>{dvec2(0.0, -5.0), dvec2(0.0, -5.0)});
    CHECK(tr.stages[1].x == std::vector<dvec2>{dvec2(0.0, -1.25), dvec2(0.0, -1.25)});
    // The spring has no closed form at rest 6: dv = a h with F = -4 (5 - 6)(-5)/5 = -4 on P1:
    // dv1 = (-4/2)(1/2) = -1, dv2 = (4/3)(1/2) = 2/3, dx = dv h.
    const TraceStage& spring = tr.stages[2];
    CHECK(spring.label.rfind("pair spring 1 (no closed form", 0) == 0);
    check_near(spring.v[0], -1.0, 0.0);
    check_near(spring.v[1], 2.0 / 3, 0.0);
    check_near(spring.x[0], -0.5, 0.0);
    check_near(spring.x[1], 1.0 / 3, 0.0);
}

TEST_CASE("trace: lanes that stop, equal cost and bad requests") {
    SECTION("a lane that stopped before the step has none; one that stops on it shows it") {
        // Explicit Euler on the stiff spring diverges; find the step where it stops.
        const Config c = config_of("preset=stiff_spring&integrators=explicit_euler");
        Simulation run(c);
        long long stop_step = 0;
        while (!run.diverged(0) && stop_step < run_steps(c)) {
            run.step();
            ++stop_step;
        }
        REQUIRE(run.diverged(0));
        const LaneTrace on = trace_step(c, stop_step - 1, c.integrators)[0];
        CHECK(on.stepped);
        CHECK(on.stop == StopReason::diverged);
        CHECK(on.stopped_at == run.diverged_at(0));
        CHECK(on.stages.back().label == "result");
        const LaneTrace after = trace_step(c, stop_step, c.integrators)[0];
        CHECK(!after.stepped);
        CHECK(after.stages.empty());
        CHECK(after.stop == StopReason::diverged);
        CHECK(after.stopped_at == run.diverged_at(0));
    }
    SECTION("equal cost: the lane's next step, of its own size, as the run takes it") {
        const Config c = config_of("preset=two_point_exercise&integrators=rk4,heun,explicit_euler&equal_cost=1");
        // Clock step 5: RK4 steps every 4 ticks (h = 4 dt) and next steps at tick 8, from t = 4 dt.
        const std::vector<LaneTrace> lanes = trace_step(c, 5, c.integrators);
        Simulation run(c);
        run.advance(8);
        CHECK(lanes[0].step == 4);
        CHECK(lanes[0].h == 4 * c.dt);
        CHECK(same(lanes[0].stages.back().x, run.lane(0).x));
        CHECK(lanes[1].step == 4);  // heun: every 2 ticks, next at tick 6 from tick 4
        CHECK(lanes[1].h == 2 * c.dt);
        CHECK(lanes[2].step == 5);
        CHECK(lanes[2].h == c.dt);
    }
    SECTION("a step beyond the run or an integrator not in the config is refused") {
        const Config c = config_of("preset=two_point_exercise");  // duration 10, dt 0.5: 20 steps
        CHECK(run_steps(c) == 20);
        CHECK_NOTHROW(trace_step(c, 19, c.integrators));
        CHECK_THROWS_AS(trace_step(c, 20, c.integrators), std::invalid_argument);
        CHECK_THROWS_AS(trace_step(c, -1, c.integrators), std::invalid_argument);
        CHECK_THROWS_AS(trace_step(c, 0, {find_integrator("rk45")}), std::invalid_argument);
    }
}

TEST_CASE("trace: a bounded trace keeps its first stages and the result, numbers them as computed, and counts the rest") {
    // xpbd@20 on the pendulum: 20 substeps of a dozen stages each, then the result.
    const Config c = config_of("scenario=pendulum&integrators=xpbd@20");
    const LaneTrace all = trace_step(c, 2, c.integrators)[0];
    REQUIRE(all.stages.size() > 200);
    CHECK(all.stages_left_out == 0);
    for (long long max_rows : {50LL, 2LL, 1LL}) {
        INFO(max_rows);
        const LaneTrace cut = trace_step(c, 2, c.integrators, max_rows)[0];
        const size_t kept = static_cast<size_t>(std::max(2LL, max_rows));  // one body: a row a stage, two at least
        REQUIRE(cut.stages.size() == kept);
        CHECK(cut.stages_left_out == static_cast<long long>(all.stages.size() - kept));
        for (size_t k = 0; k + 1 < kept; ++k) {  // the first ones, as the whole trace has them
            CHECK(cut.stages[k].label == all.stages[k].label);
            CHECK(same(cut.stages[k].x, all.stages[k].x));
            CHECK(stage_number(cut, k) == static_cast<long long>(k) + 1);
        }
        // The last is the result, bit for bit, numbered as the step's last stage.
        CHECK(cut.stages.back().label == "result");
        CHECK(same(cut.stages.back().x, all.stages.back().x));
        CHECK(same(cut.stages.back().v, all.stages.back().v));
        CHECK(stage_number(cut, kept - 1) == static_cast<long long>(all.stages.size()));
        CHECK(cut.force_evaluations == all.force_evaluations);
        const std::string json = trace_text(c, 2, {cut}, true);
        CHECK(json.find("\"stages_left_out\": " + std::to_string(cut.stages_left_out)) != std::string::npos);
        CHECK(json.find("{\"stage\": " + std::to_string(all.stages.size()) + ", \"label\": \"result\"") != std::string::npos);
    }
    // A trace within its bound says nothing of it.
    CHECK(trace_text(c, 2, {all}, true).find("stages_left_out") == std::string::npos);
}
