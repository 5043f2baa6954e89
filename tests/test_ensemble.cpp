// The ensemble against the single path: every copy of every integrator on every scenario and
// preset gets exactly the bits a Lane gets from the same start (compared double by double, at
// every step, across a reset and a change of step size), with the kernels of every instruction
// set this build has and this processor runs.
#include "ensemble.hpp"
#include "ensemble_isa.hpp"
#include "helpers.hpp"
#include "scenarios.hpp"
#include "simulation.hpp"
#include "solvers.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace stepwise;
using testing_helpers::config_of;

namespace {

struct Case {
    std::string name;
    Scene scene;
    double dt;
};

// Every scenario with its defaults, then every preset.
std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (int i = 0; i < static_cast<int>(scenarios().size()); ++i) {
        const Config c = default_config(i);
        cases.push_back({std::string("scenario ") + scenarios()[i].id, build_scene(i, c.values, c.duration), c.dt});
    }
    for (const PresetInfo& p : presets()) {
        const Config c = config_of(std::string("preset=") + p.id);
        cases.push_back({std::string("preset ") + p.id, build_scene(c), c.dt});
    }
    return cases;
}

// Systems no scenario builds, without gravity or dampers (so no body-force pass: each body's
// acceleration starts with its first force): a chain of pair springs with and without rest
// lengths off one anchor, and a body no force acts on; two central bodies and a spring.
std::vector<Case> extra_cases() {
    std::vector<Case> cases;
    Scene chain;
    System& s = chain.system;
    for (double m : {1.0, 2.0, 3.0, 0.5}) s.add_body(m);
    s.pair_springs.push_back({1, 2, 8.0, 0.0, 0.0});
    s.anchor_springs.push_back({0, dvec2(0.5, -1.0), 20.0, 0.0, 0.3});
    s.pair_springs.push_back({0, 1, 10.0, 0.5, 0.2});
    s.anchor_springs.push_back({2, dvec2(-1.0, 2.0), 5.0, 1.5, 0.0});
    chain.x0 = {dvec2(1.0, 0.0), dvec2(1.5, 0.5), dvec2(2.0, 0.2), dvec2(-3.0, 4.0)};
    chain.v0 = {dvec2(0.0, 1.0), dvec2(-0.5, 0.0), dvec2(0.2, 0.1), dvec2(1.0, -1.0)};
    cases.push_back({"chain of springs", chain, 0.01});
    Scene centres;  // body 0 under the central bodies alone, bodies 1 and 2 on springs too
    System& t = centres.system;
    t.add_body(1.0);
    t.add_body(2.0);
    t.add_body(0.7);
    t.central_forces.push_back({dvec2(0.0), 1.0, 1e-3});
    t.central_forces.push_back({dvec2(3.0, 0.0), 0.5, 1e-3});
    t.anchor_springs.push_back({1, dvec2(1.5, 1.0), 4.0, 0.3, 0.1});
    t.pair_springs.push_back({2, 1, 2.0, 0.0, 0.0});
    centres.x0 = {dvec2(1.0, 0.0), dvec2(1.5, 0.2), dvec2(-0.5, 1.0)};
    centres.v0 = {dvec2(0.0, 1.0), dvec2(0.1, 0.0), dvec2(-0.2, 0.3)};
    cases.push_back({"two central bodies and springs", centres, 0.01});
    // Shapes the fused kernels take (ensemble.cpp's fused_plan), each body on its own: no body
    // forces with two anchor springs (rest 0, then a rest length) and a central body, a body only
    // the central body acts on; and the linear damper, the drag form with two rest-length springs.
    Scene fused;
    System& u = fused.system;
    u.add_body(1.0);
    u.add_body(0.5);
    u.anchor_springs.push_back({0, dvec2(0.5, -1.0), 12.0, 0.0, 0.1});
    u.anchor_springs.push_back({0, dvec2(-1.0, 0.5), 3.0, 0.8, 0.0});
    u.central_forces.push_back({dvec2(0.2, 0.1), 0.7, 1e-3});
    fused.x0 = {dvec2(1.0, 0.0), dvec2(0.0, 2.0)};
    fused.v0 = {dvec2(0.0, 1.0), dvec2(-0.5, 0.0)};
    cases.push_back({"fused: two anchor springs and a central body", fused, 0.01});
    Scene damped = fused;
    damped.system.central_forces.clear();
    damped.system.damper = 0.3;
    cases.push_back({"fused: a damper and two anchor springs", damped, 0.01});
    Scene drag = damped;
    drag.system.drag = 0.05;
    drag.system.gravity = dvec2(0.0, -9.81);
    drag.system.anchor_springs[0].rest = 0.4;
    drag.system.anchor_springs.push_back({1, dvec2(1.0, 1.0), 6.0, 0.5, 0.2});
    cases.push_back({"fused: drag, gravity and rest-length springs", drag, 0.01});
    // Mass 1 and anchors at the origin (the fused kernels leave out the exact 1 * f and x - 0):
    // a spring with a rest length, a rest-0 one with a damper on it, and a central body there.
    Scene plain;
    System& w = plain.system;
    w.add_body(1.0);
    w.add_body(1.0);
    w.anchor_springs.push_back({0, dvec2(0.0), 15.0, 0.0, 0.1});
    w.anchor_springs.push_back({0, dvec2(0.0), 2.0, 0.7, 0.0});
    w.central_forces.push_back({dvec2(0.0), 0.4, 1e-3});
    plain.x0 = {dvec2(1.0, 0.0), dvec2(-0.3, 1.2)};
    plain.v0 = {dvec2(0.0, 0.5), dvec2(0.4, 0.0)};
    cases.push_back({"fused: mass 1, anchors and centre at the origin", plain, 0.01});
    // Three anchor springs on one body: no fused shape, the passes.
    Scene three = drag;
    three.system.anchor_springs.push_back({0, dvec2(0.0, -2.0), 2.0, 0.0, 0.0});
    cases.push_back({"passes: three anchor springs on a body", three, 0.01});
    return cases;
}

// The start of copy k of `copies`: copy 0 is the scene's own; the last sits every body where
// a force is singular (on the first anchor, or the first central body, or all bodies on one
// point: a spring with a rest length then has no direction); the others are nudged by a
// deterministic amount of their own size.
void start_of(const Scene& sc, int k, int copies, std::vector<dvec2>& x, std::vector<dvec2>& v) {
    x = sc.x0;
    v = sc.v0;
    const System& s = sc.system;
    if (k == copies - 1 && k > 0) {
        dvec2 p = sc.x0[0];
        if (!s.anchor_springs.empty())
            p = s.anchor_springs[0].anchor;
        else if (!s.central_forces.empty())
            p = s.central_forces[0].centre;
        for (size_t b = 0; b < x.size(); ++b) {
            x[b] = p;
            v[b] = sc.v0[0];
        }
        return;
    }
    for (size_t b = 0; b < x.size(); ++b) {
        const double phase = 0.7 * k + 1.3 * static_cast<double>(b);
        const double e = 1e-3 * k;
        x[b] += e * (1.0 + std::fabs(x[b].x) + std::fabs(x[b].y)) * dvec2(std::cos(phase), std::sin(phase));
        v[b] += e * (1.0 + std::fabs(v[b].x) + std::fabs(v[b].y)) * dvec2(std::sin(2.0 * phase), std::cos(phase));
    }
}

// The same double: the same bits, or both NaN.
bool same(double a, double b) {
    std::uint64_t ua, ub;
    std::memcpy(&ua, &a, sizeof a);
    std::memcpy(&ub, &b, sizeof b);
    return ua == ub || (std::isnan(a) && std::isnan(b));
}

// An ensemble of `copies` copies and one Lane per copy, stepped side by side.
class Twin {
public:
    Twin(const Scene& sc, int integrator, int copies)
        : sc_(sc), integrator_(integrator), ensemble_(sc.system, integrator, copies, sc.x0.data(), sc.v0.data()) {
        std::vector<dvec2> x, v;
        for (int k = 0; k < copies; ++k) {
            start_of(sc, k, copies, x, v);
            ensemble_.set_start(k, x.data(), v.data());
            lanes_.push_back(make_lane(sc.system, integrator, x.data(), v.data()));
            starts_x_.push_back(x);
            starts_v_.push_back(v);
        }
        ensemble_.reset();
    }

    void reset() {
        ensemble_.reset();
        for (size_t k = 0; k < lanes_.size(); ++k) lanes_[k].reset(starts_x_[k].data(), starts_v_[k].data());
    }

    // Steps both n times with h; an empty string, or where and how they first differ. With
    // parts, the ensemble steps in pieces of those sizes in turn (step_part, end_step).
    std::string run(int n, double h, const std::vector<int>& parts = {}) {
        const StepFn step = integrators()[integrator_].step;
        for (int s = 0; s < n; ++s) {
            if (parts.empty()) {
                ensemble_.step(h);
            } else {
                for (int first = 0, p = 0; first < ensemble_.copies(); ++p) {
                    const int count = parts[static_cast<size_t>(p) % parts.size()];
                    ensemble_.step_part(h, first, count);
                    first += count;
                }
                ensemble_.end_step();
            }
            for (Lane& lane : lanes_) {
                lane.gave_up = lane.unsolved = false;
                step(sc_.system, lane, h);
                // rk45 at its substep limit, or implicit Euler with no step found: the ensemble's
                // copy has no state (NaN, a stopped copy).
                if (lane.gave_up || lane.unsolved) {
                    std::fill(lane.x.begin(), lane.x.end(), dvec2(std::nan("")));
                    std::fill(lane.v.begin(), lane.v.end(), dvec2(std::nan("")));
                }
            }
            const std::string d = difference();
            if (!d.empty()) return "step " + std::to_string(s) + ": " + d;
        }
        return "";
    }

    std::string difference() const {
        const int n = ensemble_.bodies();
        for (int k = 0; k < ensemble_.copies(); ++k)
            for (int b = 0; b < n; ++b) {
                const Lane& L = lanes_[static_cast<size_t>(k)];
                const double e[4] = {ensemble_.x(b)[k], ensemble_.y(b)[k], ensemble_.vx(b)[k], ensemble_.vy(b)[k]};
                const double l[4] = {L.x[b].x, L.x[b].y, L.v[b].x, L.v[b].y};
                const dvec2 p = ensemble_.position(k, b), w = ensemble_.velocity(k, b);
                const double f[4] = {p.x, p.y, w.x, w.y};
                for (int c = 0; c < 4; ++c)
                    if (!same(e[c], l[c]) || !same(f[c], l[c])) {
                        std::ostringstream o;
                        o.precision(17);
                        o << "copy " << k << " body " << b << " component " << c << ": ensemble " << e[c]
                          << ", lane " << l[c];
                        return o.str();
                    }
            }
        long long sum = 0;
        for (const Lane& L : lanes_) sum += L.force_evaluations;
        if (ensemble_.force_evaluations() != static_cast<double>(sum) / ensemble_.copies())
            return "force evaluations " + std::to_string(ensemble_.force_evaluations()) + " against " +
                   std::to_string(static_cast<double>(sum) / ensemble_.copies());
        return "";
    }

private:
    const Scene& sc_;
    int integrator_;
    Ensemble ensemble_;
    std::vector<Lane> lanes_;
    std::vector<std::vector<dvec2>> starts_x_, starts_v_;
};

// 100 steps, a reset, 200 steps, then 20 at half the step (the kinematic maps follow h).
void check_twin(const Case& c, int integrator, int copies) {
    INFO(c.name << ", " << integrators()[integrator].id << ", " << copies << " copies");
    Twin twin(c.scene, integrator, copies);
    REQUIRE(twin.difference().empty());
    CHECK(twin.run(100, c.dt) == "");
    twin.reset();
    CHECK(twin.difference() == "");
    CHECK(twin.run(200, c.dt) == "");
    CHECK(twin.run(20, 0.5 * c.dt) == "");
}

// f() under each instruction set in turn, then back to the one in use.
template <class F>
void for_each_isa(F f) {
    const std::string in_use = ensemble_isa::current();
    for (const std::string& isa : ensemble_isa::available()) {
        INFO("instruction set " << isa);
        REQUIRE(ensemble_isa::choose(isa));
        f();
    }
    ensemble_isa::choose(in_use);
}

}  // namespace

TEST_CASE("Ensemble: every integrator on every scenario and preset equals the single path bit for bit") {
    std::vector<Case> cases = all_cases();
    REQUIRE(cases.size() == scenarios().size() + presets().size());
    for (Case& c : extra_cases()) cases.push_back(std::move(c));
    for_each_isa([&] {
        for (const Case& c : cases)
            for (int i = 0; i < static_cast<int>(integrators().size()); ++i) check_twin(c, i, 37);
    });
}

// The benchmark's system (bench/ensemble_compare.hpp): one body on an anchored spring.
Scene benchmark_scene() {
    Scene sc;
    sc.system.add_body(1.0);
    sc.system.anchor_springs.push_back({0, dvec2(0.0), 15.0, 0.0, 0.1});
    sc.x0 = {dvec2(1.0, 0.0)};
    sc.v0 = {dvec2(0.0)};
    return sc;
}

TEST_CASE("Ensemble: which path a system takes, and the bit-for-bit cases cover the fused and the passes") {
    const Scene bench = benchmark_scene();
    for (int i = 0; i < static_cast<int>(integrators().size()); ++i) {
        const std::string id = integrators()[i].id;
        INFO(id);
        const Ensemble e(bench.system, i, 10, bench.x0.data(), bench.v0.data());
        // The game-physics solvers have no SoA kernels: the single path per copy (the same step).
        if (integrators()[i].adaptive || integrators()[i].implicit || integrators()[i].solves_constraints)
            CHECK(std::string(e.path()) == "per copy");
        else if (id == "kinematic" || id == "kinematic_avg")
            CHECK(std::string(e.path()) == "passes");
        else if (id == "yoshida4")  // its fused form is the undamped sequence; the spring here is damped
            CHECK(std::string(e.path()) == "passes");
        else
            CHECK(std::string(e.path()) == "fused");
    }
    std::vector<Case> cases = all_cases();
    for (Case& c : extra_cases()) cases.push_back(std::move(c));
    const int rk4 = find_integrator("rk4");
    int fused = 0, passes = 0;
    std::string paths;
    for (const Case& c : cases) {
        const Ensemble e(c.scene.system, rk4, 2, c.scene.x0.data(), c.scene.v0.data());
        const std::string path = e.path();
        const bool expect_fused = c.name.rfind("fused", 0) == 0, expect_passes = c.name.rfind("passes", 0) == 0;
        INFO(c.name << ": " << path);
        if (expect_fused) CHECK(path == "fused");
        if (expect_passes) CHECK(path == "passes");
        fused += path == "fused" ? 1 : 0;
        passes += path == "passes" ? 1 : 0;
        paths += c.name + ": " + path + "; ";
    }
    INFO(paths);
    CHECK(fused >= 5);
    CHECK(passes >= 3);
}

TEST_CASE("Ensemble: the instruction sets") {
    const std::vector<std::string> isas = ensemble_isa::available();
    REQUIRE_FALSE(isas.empty());
    CHECK(isas.front() == "default");
    CHECK(isas.back() == ensemble_isa::current());  // the widest is used
    CHECK_FALSE(ensemble_isa::choose("no such set"));
    CHECK(ensemble_isa::current() == isas.back());
}

TEST_CASE("Ensemble: bit for bit across blocks of copies (several blocks and a partial one)") {
    for_each_isa([] { for (const char* preset : {"two_point_exercise", "elastic_pendulum_chaos", "eccentric_orbit"}) {
        const Config cfg = config_of(std::string("preset=") + preset);
        const Case c{preset, build_scene(cfg), cfg.dt};
        for (int i = 0; i < static_cast<int>(integrators().size()); ++i) {
            if (integrators()[i].adaptive || integrators()[i].implicit) continue;  // per copy anyway
            INFO(preset << ", " << integrators()[i].id);
            Twin twin(c.scene, i, 1237);
            CHECK(twin.run(30, c.dt) == "");
        }
    } });
}

TEST_CASE("Ensemble: a step taken in parts is the same bits as a whole step, on every path") {
    // Uneven parts, one of a single copy, across the Verlet family's first step and a reset; the
    // page spreads a large cloud's step over several calls this way (wasm_bindings/playground.cpp).
    std::vector<Case> cases = all_cases();
    for (Case& c : extra_cases()) cases.push_back(std::move(c));
    for (const Case& c : cases)
        for (int i = 0; i < static_cast<int>(integrators().size()); ++i) {
            INFO(c.name << ", " << integrators()[i].id);
            Twin twin(c.scene, i, 37);
            CHECK(twin.run(40, c.dt, {5, 1, 13, 18}) == "");
            twin.reset();
            CHECK(twin.run(20, c.dt, {36, 1}) == "");
        }
    // Several blocks of the passes, cut inside a block.
    const Config cfg = config_of("preset=elastic_pendulum_chaos");
    const Case pendulum{"elastic_pendulum_chaos", build_scene(cfg), cfg.dt};
    for (int i = 0; i < static_cast<int>(integrators().size()); ++i) {
        INFO("elastic_pendulum_chaos, " << integrators()[i].id);
        Twin twin(pendulum.scene, i, 1237);
        CHECK(twin.run(10, pendulum.dt, {300, 637, 299, 1}) == "");
    }
}

TEST_CASE("Ensemble: the layout, the start of each copy, copies and bodies") {
    const Config cfg = config_of("preset=two_point_exercise");
    const Scene sc = build_scene(cfg);
    const int rk4 = find_integrator("rk4");
    Ensemble e(sc.system, rk4, 3, sc.x0.data(), sc.v0.data());
    CHECK(e.copies() == 3);
    CHECK(e.bodies() == 2);
    CHECK(e.integrator() == rk4);
    const std::vector<dvec2> x = {dvec2(1.0, 2.0), dvec2(3.0, 4.0)}, v = {dvec2(5.0, 6.0), dvec2(7.0, 8.0)};
    e.set_start(1, x.data(), v.data());
    CHECK(e.x(1)[1] == sc.x0[1].x);  // not before reset()
    e.reset();
    for (int b = 0; b < 2; ++b) {
        CHECK(e.x(b)[1] == x[b].x);
        CHECK(e.y(b)[1] == x[b].y);
        CHECK(e.vx(b)[1] == v[b].x);
        CHECK(e.vy(b)[1] == v[b].y);
        CHECK(e.position(0, b) == sc.x0[b]);
        CHECK(e.velocity(2, b) == sc.v0[b]);
    }
    // One array of copies() values per body and component.
    CHECK(e.x(1) == e.x(0) + 3);
    CHECK_THROWS(e.set_start(3, x.data(), v.data()));
    CHECK_THROWS(Ensemble(sc.system, -1, 3, sc.x0.data(), sc.v0.data()));
    CHECK_THROWS(Ensemble(sc.system, static_cast<int>(integrators().size()), 3, sc.x0.data(), sc.v0.data()));
}

TEST_CASE("Ensemble: finite_copies counts the copies that have not blown up") {
    // A stiff spring under explicit Euler at dt = 0.05: |1 + i w h| = 1.87 per step, so every
    // copy that moves overflows within about 1200 steps; the copy at rest on the anchor never moves.
    System s;
    s.add_body(1.0);
    s.anchor_springs.push_back({0, dvec2(0.0), 1000.0, 0.0, 0.0});
    const dvec2 zero(0.0);
    const int copies = 600;
    Ensemble e(s, find_integrator("explicit_euler"), copies, &zero, &zero);
    for (int k = 1; k < copies; ++k) {
        const dvec2 x(std::cos(0.1 * k), std::sin(0.1 * k)), v(0.5 * k, 0.0);
        e.set_start(k, &x, &v);
    }
    e.reset();
    CHECK(e.finite_copies() == copies);
    for (int n = 0; n < 100; ++n) e.step(0.05);
    CHECK(e.finite_copies() == copies);
    for (int n = 0; n < 2000; ++n) e.step(0.05);
    CHECK(e.finite_copies() == 1);
    CHECK(e.position(0, 0) == zero);
    CHECK_FALSE(std::isfinite(e.x(0)[1]));
    e.reset();
    CHECK(e.finite_copies() == copies);
}

TEST_CASE("Ensemble: force evaluations per copy of fixed-step methods") {
    const Config cfg = config_of("preset=damped_spring");
    const Scene sc = build_scene(cfg);
    auto evaluations = [&](const char* id, int steps) {
        Ensemble e(sc.system, find_integrator(id), 1000, sc.x0.data(), sc.v0.data());
        for (int n = 0; n < steps; ++n) e.step(cfg.dt);
        return e.force_evaluations();
    };
    CHECK(evaluations("explicit_euler", 10) == 10.0);
    CHECK(evaluations("rk4", 10) == 40.0);
    CHECK(evaluations("yoshida4", 10) == 30.0);
    CHECK(evaluations("velocity_verlet", 10) == 11.0);  // one more to start
    CHECK(evaluations("kinematic", 10) == 10.0);
    Ensemble e(sc.system, find_integrator("leapfrog"), 5, sc.x0.data(), sc.v0.data());
    e.step(cfg.dt);
    CHECK(e.force_evaluations() == 2.0);
    e.reset();
    CHECK(e.force_evaluations() == 0.0);
    e.step(cfg.dt);
    CHECK(e.force_evaluations() == 2.0);  // restarted
}

TEST_CASE("Ensemble: bytes_needed grows with the copies and covers the state") {
    for (int i = 0; i < static_cast<int>(integrators().size()); ++i) {
        INFO(integrators()[i].id);
        const double small = Ensemble::bytes_needed(i, 2, 1000), big = Ensemble::bytes_needed(i, 2, 100000);
        CHECK(small >= 8.0 * 8 * 2 * 1000);  // state and start
        CHECK(big >= 8.0 * 8 * 2 * 100000);
        CHECK(big < 100.0 * small);
    }
    // Carried data counts: velocity Verlet carries an acceleration, leapfrog a velocity too.
    CHECK(Ensemble::bytes_needed(find_integrator("leapfrog"), 1, 100000) >
          Ensemble::bytes_needed(find_integrator("velocity_verlet"), 1, 100000));
    CHECK(Ensemble::bytes_needed(find_integrator("velocity_verlet"), 1, 100000) >
          Ensemble::bytes_needed(find_integrator("rk4"), 1, 100000));
}

TEST_CASE("Ensemble: soft_step's per-copy path keeps each copy's row impulses across steps") {
    // A four-link chain, three copies released from different angles: each copy's warm start
    // needs its own impulses from its last step (rows × copies doubles), loaded into the one Lane
    // before its step and saved after. Every copy equals its own single lane, bit for bit.
    const int id = find_integrator("soft_step");
    const double dt = 0.01;
    std::vector<Scene> scenes;
    for (const char* theta : {"20", "45", "80"})
        scenes.push_back(build_scene(config_of(std::string("scenario=chain&links=4&theta0=") + theta)));
    const System& system = scenes[0].system;
    Ensemble ensemble(system, id, 3, scenes[0].x0.data(), scenes[0].v0.data());
    REQUIRE(std::string(ensemble.path()) == "per copy");
    std::vector<Lane> lanes;
    for (int k = 0; k < 3; ++k) {
        ensemble.set_start(k, scenes[k].x0.data(), scenes[k].v0.data());
        lanes.push_back(make_lane(system, id, scenes[k].x0.data(), scenes[k].v0.data()));
    }
    ensemble.reset();
    auto same_as_lanes = [&] {
        for (int k = 0; k < 3; ++k)
            for (int b = 0; b < system.bodies(); ++b) {
                const dvec2 x = ensemble.position(k, b), v = ensemble.velocity(k, b);
                if (std::memcmp(&x, &lanes[k].x[b], sizeof x) != 0 || std::memcmp(&v, &lanes[k].v[b], sizeof v) != 0)
                    return false;
            }
        return true;
    };
    for (int s = 0; s < 30; ++s) {
        ensemble.substep_part(dt, 4, 0, 3);  // soft_step@4: the impulses carry over the substeps too
        ensemble.end_step();
        for (Lane& lane : lanes)
            for (int j = 0; j < 4; ++j) integrators()[id].step(system, lane, dt / 4);
        CHECK(same_as_lanes());
    }
    // reset: every copy's impulses zeroed, as a fresh lane's.
    ensemble.reset();
    for (int k = 0; k < 3; ++k) lanes[k] = make_lane(system, id, scenes[k].x0.data(), scenes[k].v0.data());
    for (int s = 0; s < 10; ++s) {
        ensemble.step(dt);
        for (Lane& lane : lanes) integrators()[id].step(system, lane, dt);
    }
    CHECK(same_as_lanes());
    // bytes_needed counts the impulses: 8 bytes a row and copy.
    const int rows = build_solver_rows(system).size();
    REQUIRE(rows == 4);
    CHECK(Ensemble::bytes_needed(id, system.bodies(), 1000, true, rows) -
              Ensemble::bytes_needed(id, system.bodies(), 1000, true, 0) ==
          8.0 * rows * 1000);
}
