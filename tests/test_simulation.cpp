// The Simulation: time from step counts, references, divergence, dissipated energy.
#include "simulation.hpp"

#include <catch2/catch.hpp>

using namespace stepwise;

namespace {
Config config_of(const std::string& query) {
    const ParseResult r = parse_config(query);
    REQUIRE(r.ok());
    return r.config;
}
}  // namespace

TEST_CASE("time is steps x dt, never an accumulated sum") {
    Simulation sim(config_of("dt=0.1&integrators=rk4"));
    sim.advance(1000);
    CHECK(sim.steps() == 1000);
    CHECK(sim.time() == 100.0);  // 1000 additions of 0.1 would give 99.9999999999986
    sim.reset();
    CHECK(sim.steps() == 0);
    CHECK(sim.lane(0).x[0] == sim.scene().x0[0]);
}

TEST_CASE("a diverging explicit Euler is flagged with its time and the others keep running") {
    Simulation sim(config_of("preset=stiff_spring"));
    sim.advance(200);  // 10 s
    const int euler = 0;
    REQUIRE(std::string(sim.info(euler).id) == "explicit_euler");
    CHECK(sim.diverged(euler));
    // Explicit Euler multiplies the amplitude by sqrt(1 + (omega dt)^2) = 1.87 per step:
    // past 1e6 length scales (here 2e6) after about 23 steps.
    CHECK(sim.diverged_at(euler) == Approx(1.25).margin(0.1));
    for (int l = 1; l < sim.lanes(); ++l) {
        INFO(sim.info(l).id);
        CHECK_FALSE(sim.diverged(l));
        CHECK(std::isfinite(sim.energy(l)));
    }
    // The diverged lane keeps its last finite state.
    const dvec2 x = sim.lane(euler).x[0];
    CHECK(std::isfinite(x.x));
    CHECK(std::isfinite(sim.energy(euler)));
    sim.advance(10);
    CHECK(sim.lane(euler).x[0] == x);
    // Reset clears the flag.
    sim.reset();
    CHECK_FALSE(sim.diverged(euler));
}

TEST_CASE("the reference is the closed form where one exists, rk45 otherwise") {
    CHECK(Simulation(config_of("preset=damped_spring")).reference_kind() == ReferenceKind::exact);
    CHECK(Simulation(config_of("preset=two_springs")).reference_kind() == ReferenceKind::exact);
    CHECK(Simulation(config_of("preset=constant_force")).reference_kind() == ReferenceKind::exact);
    CHECK(Simulation(config_of("scenario=spring_pair&rest=0")).reference_kind() == ReferenceKind::exact);
    CHECK(Simulation(config_of("preset=two_point_exercise")).reference_kind() == ReferenceKind::rk45);
    CHECK(Simulation(config_of("preset=projectile_drag")).reference_kind() == ReferenceKind::rk45);
    CHECK(Simulation(config_of("scenario=spring&rest=0.5")).reference_kind() == ReferenceKind::rk45);
}

TEST_CASE("the rk45 reference agrees with the closed form where both exist") {
    // Force the comparison: run rk45 as a lane on a linear system and compare with exact.
    Simulation sim(config_of("preset=damped_spring&integrators=rk45"));
    sim.advance(1000);
    CHECK(sim.error(0, 0) < 1e-6 * 1000.0);
}

TEST_CASE("mechanical energy plus dissipated energy stays at the initial energy") {
    Simulation sim(config_of("preset=damped_spring&integrators=rk4"));
    const double e0 = sim.energy(0);
    sim.advance(1000);  // 10 s: e^{-1} of the energy has gone into the damper
    CHECK(sim.energy(0) < 0.5 * e0);
    // The dissipated energy is a trapezoid sum over the steps: O(dt^2), about 2e-6 here.
    CHECK(sim.energy(0) + sim.dissipated(0) == Approx(e0).epsilon(1e-5));
    // The exact solution's energy matches rk4's; the drift is tiny.
    CHECK(std::fabs(sim.energy_drift(0)) < 1e-6);
}

TEST_CASE("energy drift: explicit Euler gains, semi-implicit keeps, on the undamped spring") {
    Simulation sim(config_of("preset=undamped_dt01&integrators=explicit_euler,semi_implicit_euler"));
    sim.advance(900);
    CHECK(sim.energy_drift(0) > 1.0);
    CHECK(std::fabs(sim.energy_drift(1)) < 0.25);
}

TEST_CASE("every scenario and integrator runs a preset without NaN") {
    std::string all;
    for (const IntegratorInfo& info : integrators()) all += std::string(all.empty() ? "" : ",") + info.id;
    for (const PresetInfo& p : presets()) {
        DYNAMIC_SECTION(p.id) {
            Simulation sim(config_of(std::string("preset=") + p.id + "&integrators=" + all));
            sim.advance(std::min<long long>(2000, std::llround(sim.config().duration / sim.config().dt)));
            for (int l = 0; l < sim.lanes(); ++l)
                for (int b = 0; b < sim.bodies(); ++b) {
                    CHECK(std::isfinite(sim.lane(l).x[b].x));
                    CHECK(std::isfinite(sim.error(l, b)));
                    CHECK(std::isfinite(sim.energy_drift(l)));
                }
        }
    }
}
