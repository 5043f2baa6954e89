// Runs the C++ step snippets (snippets/cpp/, each included here as a user would paste it) on the
// jobs that tests/snippets/snippets.test.mjs writes to stdin, one per line:
//   case integrator version force dt steps x y vx vy params...
// and prints every state reached: `case integrator version step x y vx vy` (%.17g).
// The forces (forces.hpp) follow the core's operation order (core/system.cpp,
// core/integrators.cpp), as in tests/snippets/forces.mjs.
#include "explicit_euler.cpp"
#include "heun.cpp"
#include "implicit_euler.cpp"
#include "kinematic.cpp"
#include "kinematic_avg.cpp"
#include "leapfrog.cpp"
#include "midpoint.cpp"
#include "newton.cpp"
#include "rk4.cpp"
#include "rk45.cpp"
#include "semi_implicit_euler.cpp"
#include "semi_implicit_euler_x.cpp"
#include "stormer_verlet.cpp"
#include "velocity_verlet.cpp"
#include "yoshida4.cpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "forces.hpp"

namespace {

using namespace snippet_forces;

struct Job {
    std::string case_id, integrator, version, force;
    double dt = 0;
    int steps = 0;
    double x = 0, y = 0, vx = 0, vy = 0;
    std::vector<double> p;  // the force's numbers
};

// Steps a body `steps` times with `one` and prints every state, the start included.
template <class Body, class One>
void run(const Job& j, One&& one) {
    Body b{j.x, j.y, j.vx, j.vy};
    for (int s = 0;; ++s) {
        std::printf("%s %s %s %d %.17g %.17g %.17g %.17g\n", j.case_id.c_str(), j.integrator.c_str(),
                    j.version.c_str(), s, b.x, b.y, b.vx, b.vy);
        if (s == j.steps) break;
        one(b);
    }
}

// The kinematic pair: each force's increment, with the snippet's own helpers.
template <class Body, class Spring, class Step, class Gravity, class SpringForce, class Approximate>
void run_kinematic(const Job& j, const Force& f, Step step, Gravity gravity, SpringForce spring_force,
                   Approximate approximate) {
    const std::vector<double>& p = j.p;
    if (j.force == "spring") {
        const auto spring = spring_force(Spring{p[0], p[1], p[2]}, 0.0, 0.0);
        run<Body>(j, [&](Body& b) { step(b, j.dt, spring); });
    } else if (j.force == "two_spring") {
        const auto s1 = spring_force(Spring{p[1], p[0], 0.0}, p[3], p[4]);
        const auto s2 = spring_force(Spring{p[2], p[0], 0.0}, p[5], p[6]);
        run<Body>(j, [&](Body& b) { step(b, j.dt, s1, s2); });
    } else {
        const auto g = gravity(f.gx, f.gy);
        const auto rest = approximate(f.approximated);
        run<Body>(j, [&](Body& b) { step(b, j.dt, g, rest); });
    }
}

#define KINEMATIC(ns)                                                                                       \
    [](const Job& j, const Force& f) {                                                                      \
        if (j.version == "spring") {                                                                        \
            const ns::Spring s{j.p[0], j.p[1], j.p[2]};                                                     \
            return run<ns::Body>(j, [&](ns::Body& b) { ns::step_spring(b, s, j.dt); });                     \
        }                                                                                                   \
        run_kinematic<ns::Body, ns::Spring>(                                                                \
            j, f, [](ns::Body& b, double h, const auto&... forces) { ns::step(b, h, forces...); },          \
            ns::gravity, ns::spring_force, [](const Accel& a) { return ns::approximate(a); });              \
    }

// Methods whose generic step is step(body, h, accel).
#define PLAIN(ns)                                                                                           \
    [](const Job& j, const Force& f) {                                                                      \
        const ns::Spring s{j.p[0], j.p[1], j.p[2]};                                                         \
        if (j.version == "spring") return run<ns::Body>(j, [&](ns::Body& b) { ns::step_spring(b, s, j.dt); }); \
        run<ns::Body>(j, [&](ns::Body& b) { ns::step(b, j.dt, f.accel); });                                 \
    }

// Methods that carry state: step(body, carry, h, accel).
#define CARRIED(ns)                                                                                         \
    [](const Job& j, const Force& f) {                                                                      \
        const ns::Spring s{j.p[0], j.p[1], j.p[2]};                                                         \
        ns::Carry c{};                                                                                      \
        if (j.version == "spring") return run<ns::Body>(j, [&](ns::Body& b) { ns::step_spring(b, c, s, j.dt); }); \
        run<ns::Body>(j, [&](ns::Body& b) { ns::step(b, c, j.dt, f.accel); });                              \
    }

const std::map<std::string, void (*)(const Job&, const Force&)> runners = {
    {"explicit_euler", PLAIN(explicit_euler)},
    {"semi_implicit_euler", PLAIN(semi_implicit_euler)},
    {"semi_implicit_euler_x", PLAIN(semi_implicit_euler_x)},
    {"implicit_euler",
     [](const Job& j, const Force& f) {
         const implicit_euler::Spring s{j.p[0], j.p[1], j.p[2]};
         using implicit_euler::Body;
         if (j.version == "spring") return run<Body>(j, [&](Body& b) { implicit_euler::step_spring(b, s, j.dt); });
         run<Body>(j, [&](Body& b) { implicit_euler::step(b, j.dt, f.accel, f.jacobian); });
     }},
    {"newton", PLAIN(newton)},
    {"heun", PLAIN(heun)},
    {"midpoint", PLAIN(midpoint)},
    {"rk4", PLAIN(rk4)},
    {"leapfrog", CARRIED(leapfrog)},
    {"stormer_verlet", CARRIED(stormer_verlet)},
    {"velocity_verlet", CARRIED(velocity_verlet)},
    {"yoshida4",
     [](const Job& j, const Force& f) {
         const yoshida4::Spring s{j.p[0], j.p[1], j.p[2]};
         using yoshida4::Body;
         if (j.version == "spring") return run<Body>(j, [&](Body& b) { yoshida4::step_spring(b, s, j.dt); });
         if (f.dissipate) return run<Body>(j, [&](Body& b) { yoshida4::step(b, j.dt, f.accel, f.dissipate); });
         run<Body>(j, [&](Body& b) { yoshida4::step(b, j.dt, f.accel); });
     }},
    {"kinematic", KINEMATIC(kinematic)},
    {"kinematic_avg", KINEMATIC(kinematic_avg)},
    {"rk45", CARRIED(rk45)},
};

}  // namespace

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty()) continue;
        std::istringstream in(line);
        Job j;
        in >> j.case_id >> j.integrator >> j.version >> j.force >> j.dt >> j.steps >> j.x >> j.y >> j.vx >> j.vy;
        for (double v; in >> v;) j.p.push_back(v);
        const auto r = runners.find(j.integrator);
        if (r == runners.end()) {
            std::fprintf(stderr, "no C++ snippet for integrator '%s'\n", j.integrator.c_str());
            return 1;
        }
        r->second(j, make_force(j.force, j.p));
    }
    return 0;
}
