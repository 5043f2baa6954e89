// Runs the C++ step snippets (snippets/cpp/, each included here as a user would paste it) on the
// jobs that tests/snippets/snippets.test.mjs writes to stdin, one per line:
//   case integrator version force dt steps x y vx vy params...
// and prints every state reached: `case integrator version step x y vx vy` (%.17g); and the
// game-physics solvers' jobs, `solver case lane method ...` (run_solver below), printing
// `case lane step body x y vx vy`. After each job, `allocations case name N`: the heap
// allocations its steps made (operator new is replaced to count them), which must be none.
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
#include "pbd.cpp"
#include "rk4.cpp"
#include "rk45.cpp"
#include "semi_implicit_euler.cpp"
#include "semi_implicit_euler_x.cpp"
#include "sequential_impulses.cpp"
#include "soft_step.cpp"
#include "stormer_verlet.cpp"
#include "vbd.cpp"
#include "velocity_verlet.cpp"
#include "xpbd.cpp"
#include "yoshida4.cpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "forces.hpp"

#include <cstdlib>
#include <new>

// Every heap allocation of the program counts here (new[] and the sized forms call these). Not
// inlined: GCC would take malloc and free meeting in std::function's code for a mismatch.
static std::size_t heap_allocations = 0;
[[gnu::noinline]] void* operator new(std::size_t size) {
    ++heap_allocations;
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

// The allocations made while `steps()` runs.
template <class Steps>
std::size_t allocations_of(Steps&& steps) {
    const std::size_t before = heap_allocations;
    steps();
    return heap_allocations - before;
}

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
    std::size_t allocations = 0;
    for (int s = 0;; ++s) {
        std::printf("%s %s %s %d %.17g %.17g %.17g %.17g\n", j.case_id.c_str(), j.integrator.c_str(),
                    j.version.c_str(), s, b.x, b.y, b.vx, b.vy);
        if (s == j.steps) break;
        allocations += allocations_of([&] { one(b); });
    }
    std::printf("allocations %s %s/%s %zu\n", j.case_id.c_str(), j.integrator.c_str(), j.version.c_str(), allocations);
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

// ---- The game-physics solvers: bodies and distance constraints ----
// A job line (every double as its bits in hex, so that nothing is lost in a decimal parser):
//   solver CASE LANE METHOD SUBSTEPS ITERATIONS STIFFNESS DT STEPS GX GY BODY_DAMPING SPRING_DAMPING
//     N (x y vx vy inv_mass)×N  R (i j ax ay rest compliance damping)×R
struct SolverJob {
    std::string case_id, lane, method;
    int substeps = 1, iterations = 1, steps = 0;
    double stiffness = 1, dt = 0, gx = 0, gy = 0, body_damping = 0, spring_damping = 0;
    std::vector<std::array<double, 5>> bodies;    // x y vx vy inv_mass
    std::vector<std::array<double, 7>> links;     // i j ax ay rest compliance damping
};

double read_bits(std::istream& in) {
    std::string hex;
    in >> hex;
    const std::uint64_t u = std::stoull(hex, nullptr, 16);
    double d;
    std::memcpy(&d, &u, sizeof d);
    return d;
}

// Steps the job's bodies with `one(bodies, constraints, h, accel)`, S calls of h = dt/S a step,
// and prints every body's state at every step, the start included.
template <class Body, class Constraint, class One>
void run_solver(const SolverJob& j, One&& one) {
    std::vector<Body> bodies;
    for (const auto& b : j.bodies) bodies.push_back(Body{b[0], b[1], b[2], b[3], b[4]});
    std::vector<Constraint> constraints;
    for (const auto& k : j.links) {
        Constraint c{};
        c.i = static_cast<int>(k[0]);
        c.j = static_cast<int>(k[1]);
        c.ax = k[2];
        c.ay = k[3];
        c.rest = k[4];
        c.compliance = k[5];
        c.damping = k[6];
        constraints.push_back(c);
    }
    // The external acceleration in the core's order (core/system.cpp, solver_external_accelerations).
    const auto accel = [&](const Body& b) {
        double ax = j.gx - (j.body_damping * b.inv_mass) * b.vx;
        double ay = j.gy - (j.body_damping * b.inv_mass) * b.vy;
        ax -= b.inv_mass * (j.spring_damping * b.vx);
        ay -= b.inv_mass * (j.spring_damping * b.vy);
        return std::array<double, 2>{ax, ay};
    };
    const double h = j.dt / j.substeps;
    std::size_t allocations = 0;
    for (int s = 0;; ++s) {
        for (size_t n = 0; n < bodies.size(); ++n) {
            std::printf("%s %s %d %zu %.17g %.17g %.17g %.17g\n", j.case_id.c_str(), j.lane.c_str(), s, n, bodies[n].x,
                        bodies[n].y, bodies[n].vx, bodies[n].vy);
        }
        if (s == j.steps) break;
        allocations += allocations_of([&] {
            for (int k = 0; k < j.substeps; ++k) one(bodies, constraints, h, accel);
        });
    }
    std::printf("allocations %s %s %zu\n", j.case_id.c_str(), j.lane.c_str(), allocations);
}

#define SOLVER(ns)                                                                                       \
    [](const SolverJob& j) {                                                                             \
        run_solver<ns::Body, ns::Constraint>(j, [&](auto& bodies, auto& constraints, double h, const auto& accel) { \
            ns::step(bodies, constraints, h, accel, j.iterations);                                       \
        });                                                                                              \
    }

const std::map<std::string, void (*)(const SolverJob&)> solver_runners = {
    {"pbd",
     [](const SolverJob& j) {
         run_solver<pbd::Body, pbd::Constraint>(j, [&](auto& bodies, auto& constraints, double h, const auto& accel) {
             pbd::step(bodies, constraints, h, accel, j.iterations, j.stiffness);
         });
     }},
    {"xpbd", SOLVER(xpbd)},
    {"soft_step", SOLVER(soft_step)},
    {"sequential_impulses", SOLVER(sequential_impulses)},
    {"vbd", SOLVER(vbd)},
};

int solver_job(std::istringstream& in) {
    SolverJob j;
    in >> j.case_id >> j.lane >> j.method >> j.substeps >> j.iterations;
    j.stiffness = read_bits(in);
    j.dt = read_bits(in);
    in >> j.steps;
    j.gx = read_bits(in);
    j.gy = read_bits(in);
    j.body_damping = read_bits(in);
    j.spring_damping = read_bits(in);
    size_t n = 0, r = 0;
    in >> n;
    j.bodies.resize(n);
    for (auto& b : j.bodies)
        for (double& v : b) v = read_bits(in);
    in >> r;
    j.links.resize(r);
    for (auto& k : j.links) {
        int i = 0, other = 0;
        in >> i >> other;
        k[0] = i;
        k[1] = other;
        for (size_t q = 2; q < k.size(); ++q) k[q] = read_bits(in);
    }
    const auto run = solver_runners.find(j.method);
    if (run == solver_runners.end()) {
        std::fprintf(stderr, "no C++ snippet for solver '%s'\n", j.method.c_str());
        return 1;
    }
    run->second(j);
    return 0;
}

}  // namespace

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty()) continue;
        std::istringstream in(line);
        if (line.rfind("solver ", 0) == 0) {
            std::string word;
            in >> word;
            if (solver_job(in) != 0) return 1;
            continue;
        }
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
