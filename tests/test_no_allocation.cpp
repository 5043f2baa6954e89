// The step loop allocates nothing: global operator new is counted while every preset runs
// every integrator. A separate executable, since it replaces operator new for the whole program.
#include "ensemble.hpp"
#include "expression.hpp"
#include "helpers.hpp"
#include "kepler.hpp"
#include "scenarios.hpp"
#include "simulation.hpp"
#include "solvers.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long long> allocations{0};
std::atomic<long long> allocated_bytes{0};
}

void* operator new(std::size_t n) {
    ++allocations;
    allocated_bytes += static_cast<long long>(n);
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

using namespace stepwise;
using testing_helpers::all_integrators;

namespace {

// Steps a built Simulation and counts allocations in step() and reset().
void check_no_allocation(const std::string& query) {
    const ParseResult r = parse_config(query);
    INFO(query);
    REQUIRE(r.ok());
    Simulation sim(r.config);
    // A frame is a step without a game loop, and a frame of the loop with one (the loop presets).
    sim.frame();  // nothing is allocated lazily either, but measure from the second step on
    const long long before = allocations.load();
    for (int k = 0; k < 200; ++k) sim.frame();
    const long long during = allocations.load() - before;
    CHECK(during == 0);
    const long long before_reset = allocations.load();
    sim.reset();
    CHECK(allocations.load() - before_reset == 0);
}

}  // namespace

TEST_CASE("Simulation::step allocates nothing, for every preset and integrator") {
    // presets() includes the orbit's (the kinematic lane calls kepler_propagate every step) and
    // the elastic pendulum's (an rk45 reference); make sure the loop really covers them.
    for (const char* id : {"circular_orbit", "eccentric_orbit", "hyperbolic_flyby", "elastic_pendulum_resonance",
                           "elastic_pendulum_chaos", "explodes_at_30fps", "variable_dt_drifts", "substeps_rescue"})
        CHECK(find_preset(id) >= 0);
    for (const PresetInfo& p : presets()) check_no_allocation(std::string("preset=") + p.id + "&integrators=" + all_integrators());
    // Each loop with an rk45 reference (the variable loop steps it by each frame's length, the
    // accumulator keeps its state one step back for the render state).
    for (const char* loop : {"loop=variable&hz=60&jitter=0.5", "loop=accumulator&hz=30&substeps=3&jitter=0.9&max_steps=2"})
        check_no_allocation(std::string("preset=elastic_pendulum_chaos&") + loop + "&integrators=" + all_integrators());
    // A radial fall: every lane and the rk45 reference stop with a collision within 200 steps.
    check_no_allocation("scenario=orbit&x0=1,0&v0=0,0&integrators=" + all_integrators());
    // The counter works: a vector allocates.
    const long long before = allocations.load();
    std::vector<double> probe(10);
    CHECK(allocations.load() - before == 1);
}

TEST_CASE("a written force law's eval and eval_grad allocate nothing") {
    for (const char* text : {"-c1*x-c2*x^3", "-c1*x+c2*cos(c3*t)", "atan2(y,x)*pow(abs(vx)+1,vy)-min(m,x^-2)"}) {
        INFO(text);
        ExprProblem problem;
        const std::optional<Expression> e = Expression::compile(text, problem);
        REQUIRE(e.has_value());
        double vars[expr_var_count] = {0.3, -0.2, 1.5, 0.5, 0.25, 2, 1.5, 0.25, 3, -2};
        double grad[expr_grad_count];
        double sum = 0;
        const long long before = allocations.load();
        for (int k = 0; k < 100; ++k) {
            vars[0] += 0.01;
            sum += e->eval(vars) + e->eval_grad(vars, grad);
        }
        CHECK(allocations.load() - before == 0);
        CHECK(std::isfinite(sum));
    }
}

TEST_CASE("kepler_propagate allocates nothing, on every kind of conic") {
    const long long before = allocations.load();
    const dvec2 starts[][2] = {{{1.0, 0.0}, {0.0, 1.0}},                    // circle
                               {{1.0, 0.0}, {0.0, 0.31622776601683794}},    // e = 0.9
                               {{-10.0, 1.0}, {1.5, 0.0}},                  // hyperbola
                               {{1.0, 0.0}, {0.0, 1.4142135623730951}},     // parabola
                               {{1.0, 0.0}, {0.0, 0.0}}};                   // radial fall
    int moved = 0;
    for (const auto& s : starts) {
        dvec2 r = s[0], v = s[1];
        for (int k = 0; k < 100; ++k) moved += kepler_propagate(1.0, r, v, 0.05) ? 1 : 0;
    }
    CHECK(allocations.load() - before == 0);
    CHECK(moved > 400);
}

TEST_CASE("Ensemble::step and reset allocate nothing, for every preset and integrator") {
    for (const PresetInfo& p : presets()) {
        const ParseResult r = parse_config(std::string("preset=") + p.id);
        REQUIRE(r.ok());
        const Scene sc = build_scene(r.config);
        for (int i = 0; i < static_cast<int>(integrators().size()); ++i) {
            INFO(p.id << ", " << integrators()[i].id);
            // Over a block of copies, so that the step loops over several blocks.
            Ensemble e(sc.system, i, 1100, sc.x0.data(), sc.v0.data());
            const long long before = allocations.load();
            for (int k = 0; k < 50; ++k) e.step(r.config.dt);
            e.reset();
            e.step(r.config.dt);
            e.step(0.5 * r.config.dt);  // a new step size: the kinematic maps are recomputed in place
            CHECK(e.finite_copies() >= 0);
            CHECK(allocations.load() - before == 0);
        }
    }
}

TEST_CASE("Ensemble::bytes_needed is what the constructor allocates") {
    for (const char* preset : {"damped_spring", "two_point_exercise", "eccentric_orbit"}) {
        const ParseResult r = parse_config(std::string("preset=") + preset);
        REQUIRE(r.ok());
        const Scene sc = build_scene(r.config);
        for (int i = 0; i < static_cast<int>(integrators().size()); ++i) {
            INFO(preset << ", " << integrators()[i].id);
            const int copies = 20000;
            const long long before = allocated_bytes.load();
            const Ensemble e(sc.system, i, copies, sc.x0.data(), sc.v0.data());
            const double allocated = static_cast<double>(allocated_bytes.load() - before) + sizeof(Ensemble);
            const double needed = Ensemble::bytes_needed(i, sc.system.bodies(), copies, false,
                                                         build_solver_rows(sc.system).size());
            CHECK(needed >= 0.98 * allocated);
            CHECK(needed <= 1.02 * allocated);
        }
    }
}
