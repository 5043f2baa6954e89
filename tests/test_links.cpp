// Today's links, pinned: every link below must keep opening the same scenario in future
// versions of the format. A change here is a breaking change for links already shared.
#include "config.hpp"
#include "simulation.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

using namespace stepwise;

TEST_CASE("links shared today keep their meaning in format version 1") {
    const std::vector<std::pair<std::string, std::string>> pinned = {
        // A link without v is read as v=1.
        {"scenario=spring&integrators=rk4&dt=0.01",
         "v=1&scenario=spring&integrators=rk4&dt=0.01&duration=10&m=1&k=15&b=0.1&rest=0&anchor=0,0&x0=1,0&v0=0,0"},
        {"v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,rk4&dt=0.01&m=1&k=15&b=0.1&anchor=0,0&"
         "rest=0&x0=1000,0&v0=0,0",
         "v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,rk4&dt=0.01&duration=10&m=1&k=15&b=0.1&"
         "rest=0&anchor=0,0&x0=1000,0&v0=0,0"},
        {"preset=damped_spring",
         "v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,rk4,kinematic&dt=0.01&duration=10&m=1&"
         "k=15&b=0.1&rest=0&anchor=0,0&x0=1000,0&v0=0,0"},
        {"preset=constant_force",
         "v=1&scenario=projectile&integrators=explicit_euler,semi_implicit_euler,newton,velocity_verlet,rk4&dt=1&"
         "duration=10&m=1&g=10&drag=0&x0=0,0&v0=0,0"},
        {"preset=undamped_dt025&integrators=semi_implicit_euler,rk4",
         "v=1&scenario=spring&integrators=semi_implicit_euler,rk4&dt=0.25&duration=90&m=1&k=15&b=0&rest=0&"
         "anchor=0,0&x0=1000,0&v0=0,0"},
        {"preset=two_point_exercise",
         "v=1&scenario=spring_pair&integrators=explicit_euler,heun,midpoint,semi_implicit_euler,leapfrog,rk4&dt=0.5&"
         "duration=10&m1=2&m2=3&k=4&b=0&rest=6&g=0,-10&x1=-2,2&x2=3,2&v1=-1,-1.5&v2=1,-1.5"},
        {"preset=two_springs",
         "v=1&scenario=two_spring&integrators=semi_implicit_euler,kinematic,kinematic_avg,rk4&dt=0.05&duration=60&"
         "m=1&k1=10&k2=20&b=0&rest1=0&rest2=0&anchor1=-2,0&anchor2=2,0&x0=1,1&v0=0,0"},
        {"preset=stiff_spring",
         "v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.05&duration=10&"
         "m=1&k=1000&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0"},
        {"preset=projectile_drag",
         "v=1&scenario=projectile&integrators=explicit_euler,semi_implicit_euler,newton,rk4,kinematic&dt=0.1&"
         "duration=4&m=1&g=9.81&drag=0.05&x0=0,0&v0=20,20"},
        {"#scenario=projectile&drag=0.05&integrators=rk4,explicit_euler&dt=0.05",
         "v=1&scenario=projectile&integrators=rk4,explicit_euler&dt=0.05&duration=10&m=1&g=9.81&drag=0.05&x0=0,0&"
         "v0=10,10"},
        {"scenario=spring_pair&integrators=yoshida4,rk45,kinematic_avg&rest=0&b=0.5&g=0,-9.81",
         "v=1&scenario=spring_pair&integrators=yoshida4,rk45,kinematic_avg&dt=0.01&duration=10&m1=2&m2=3&k=4&b=0.5&"
         "rest=0&g=0,-9.81&x1=-2,2&x2=3,2&v1=-1,-1.5&v2=1,-1.5"},
        {"scenario=two_spring&rest1=1.5&anchor2=3,1%2E5&integrators=leapfrog,stormer_verlet,implicit_euler",
         "v=1&scenario=two_spring&integrators=leapfrog,stormer_verlet,implicit_euler&dt=0.01&duration=10&m=1&k1=10&"
         "k2=20&b=0&rest1=1.5&rest2=0&anchor1=-2,0&anchor2=3,1.5&x0=1,1&v0=0,0"},
        // The orbit and the elastic pendulum (added with the scenario table).
        {"preset=circular_orbit",
         "v=1&scenario=orbit&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.1&duration=62.83&"
         "m=1&gm=1&x0=1,0&v0=0,1"},
        {"preset=eccentric_orbit",
         "v=1&scenario=orbit&integrators=explicit_euler,semi_implicit_euler,rk4,kinematic&dt=0.005&duration=12&m=1&"
         "gm=1&x0=1,0&v0=0,0.31622776601683794"},
        {"preset=hyperbolic_flyby",
         "v=1&scenario=orbit&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.05&duration=16&"
         "m=1&gm=1&x0=-10,1&v0=1.5,0"},
        {"scenario=orbit&gm=2&x0=0,3&v0=-0.5,0&integrators=kinematic,rk4",
         "v=1&scenario=orbit&integrators=kinematic,rk4&dt=0.01&duration=10&m=1&gm=2&x0=0,3&v0=-0.5,0"},
        {"preset=elastic_pendulum_resonance",
         "v=1&scenario=elastic_pendulum&integrators=semi_implicit_euler,velocity_verlet,rk4,yoshida4&dt=0.01&"
         "duration=30&m=1&k=29.43&b=0&rest=1&g=0,-9.81&anchor=0,0&x0=0.3,-1.4&v0=0,0"},
        {"preset=elastic_pendulum_chaos",
         "v=1&scenario=elastic_pendulum&integrators=semi_implicit_euler,velocity_verlet,rk4,yoshida4&dt=0.005&"
         "duration=60&m=1&k=30&b=0&rest=1&g=0,-9.81&anchor=0,0&x0=1.5,-0.2&v0=0,0"},
        {"scenario=elastic_pendulum&integrators=rk45&b=0.2&g=1,-9.81",
         "v=1&scenario=elastic_pendulum&integrators=rk45&dt=0.01&duration=10&m=1&k=30&b=0.2&rest=1&g=1,-9.81&"
         "anchor=0,0&x0=0.8,-1&v0=0,0"},
    };
    for (const auto& [link, normalised] : pinned) {
        DYNAMIC_SECTION(link) {
            const ParseResult r = parse_config(link);
            REQUIRE(r.ok());
            CHECK(normalise(r.config) == normalised);
        }
    }
}

TEST_CASE("a pinned link reproduces pinned numbers") {
    // The two-point exercise after one step of 0.5 under explicit Euler (by hand: P1 (-2.5, 1.25)).
    Simulation sim(parse_config("preset=two_point_exercise&integrators=explicit_euler").config);
    sim.step();
    CHECK(sim.lane(0).x[0] == dvec2(-2.5, 1.25));
    CHECK(sim.lane(0).v[1] == dvec2(1.0 + 0.5 * 4.0 / 3.0, -6.5));

    // The circular orbit under the kinematic integrator follows the Kepler flow: after one step
    // of 0.1 the body is at (cos 0.1, sin 0.1) with velocity (-sin 0.1, cos 0.1).
    Simulation orbit(parse_config("preset=circular_orbit&integrators=kinematic").config);
    orbit.step();
    CHECK(std::fabs(orbit.lane(0).x[0].x - std::cos(0.1)) < 1e-15);
    CHECK(std::fabs(orbit.lane(0).x[0].y - std::sin(0.1)) < 1e-15);
    CHECK(std::fabs(orbit.lane(0).v[0].x + std::sin(0.1)) < 1e-15);
    CHECK(std::fabs(orbit.lane(0).v[0].y - std::cos(0.1)) < 1e-15);
}
