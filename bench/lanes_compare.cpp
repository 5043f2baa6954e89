// The lanes alone (target stepwise_lanes; docs/benchmarks.md, "The single path"): a Simulation
// stepping its lanes with their checks (Simulation::step, nothing reading the reference or the
// output, so neither is computed) against a hand-written loop of the same physics and method, in
// one run.
//
// The dissipated energy is output too (Simulation::measure_dissipated): off, unless --dissipated=1.
//
// Each row is a config (a preset, or a scenario with its keys; or a scene built here, for a system
// no scenario builds yet, with a config for the step) and one of semi-implicit Euler, velocity
// Verlet and RK4; the Simulation runs that config with that one integrator, the hand loop
// runs the same system (read from the row's scene) with the force law written out for
// its kind of system and the state as structure of arrays, as one would write it for that system
// alone. A row's physics is one of the Hand* structs below, so a new system is one more struct and
// one more row.
//
// Time is CPU time (CLOCK_PROCESS_CPUTIME_ID) of `repeats` runs of the config's steps from its start
// (a reset, then its duration / dt steps, so the motion is the config's own however long the run);
// a round runs every row's two engines once, in an order rotating from round to round; medians
// over the rounds. The ratio is the median over the rounds of hand time / Simulation time in the
// same round: the Simulation's speed as a fraction of the hand loop's.
//
// Afterwards a check: the largest difference of any coordinate between the two after one run,
// relative to the state's size (both integrate the same equations; the hand loop's sums may be
// ordered differently, so it need not be 0).
//
// Options: --rounds=N (default 11), --filter=TEXT (rows whose name contains it), --dissipated=1,
// --profile=ROW,ENGINE,RUNS (sim or hand: only that for RUNS runs, for perf record).
#include "bench_timing.hpp"
#include "config.hpp"
#include "integrators.hpp"
#include "simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

using stepwise::dvec2;
using namespace bench_timing;

volatile double g_sink = 0.0;

// ---------------------------------------------------------------------------------------
// The hand loops' physics: accelerations of n bodies from structure-of-arrays state, the force
// law of one kind of system written out in one pass.

struct Soa {
    std::vector<double> x, y, vx, vy;
    explicit Soa(size_t n = 0) : x(n), y(n), vx(n), vy(n) {}
};

// Every body on its own spring to an anchor (k, rest, b on the body's velocity), under uniform
// gravity g and a linear damper c: the spring and elastic-pendulum scenarios.
struct HandAnchored {
    std::vector<double> inv_m, k, rest, b, px, py;  // per body
    double gx = 0.0, gy = 0.0, damper = 0.0;
    explicit HandAnchored(const stepwise::System& s) {
        for (const stepwise::AnchorSpring& sp : s.anchor_springs) {
            inv_m.push_back(s.inv_mass[sp.body]);
            k.push_back(sp.k);
            rest.push_back(sp.rest);
            b.push_back(sp.b);
            px.push_back(sp.anchor.x);
            py.push_back(sp.anchor.y);
        }
        gx = s.gravity.x;
        gy = s.gravity.y;
        damper = s.damper;
    }
    void operator()(const double* __restrict x, const double* __restrict y, const double* __restrict vx,
                    const double* __restrict vy, double* __restrict ax, double* __restrict ay) const {
        const size_t n = inv_m.size();
        for (size_t i = 0; i < n; ++i) {
            const double dx = x[i] - px[i], dy = y[i] - py[i];
            double s = -k[i];  // rest 0: −k d, no square root
            if (rest[i] != 0.0) {
                const double len = std::sqrt(dx * dx + dy * dy);
                s = len > 0.0 ? -k[i] * (len - rest[i]) / len : 0.0;
            }
            ax[i] = gx + inv_m[i] * (s * dx - (b[i] + damper) * vx[i]);
            ay[i] = gy + inv_m[i] * (s * dy - (b[i] + damper) * vy[i]);
        }
    }
};

// Two bodies joined by one spring (k, rest, b on the relative velocity) under gravity.
struct HandPair {
    double inv_m1, inv_m2, k, rest, b, gx, gy;
    explicit HandPair(const stepwise::System& s)
        : inv_m1(s.inv_mass[0]), inv_m2(s.inv_mass[1]), k(s.pair_springs[0].k), rest(s.pair_springs[0].rest),
          b(s.pair_springs[0].b), gx(s.gravity.x), gy(s.gravity.y) {}
    void operator()(const double* __restrict x, const double* __restrict y, const double* __restrict vx,
                    const double* __restrict vy, double* __restrict ax, double* __restrict ay) const {
        const double dx = x[0] - x[1], dy = y[0] - y[1];
        const double len = std::sqrt(dx * dx + dy * dy);
        const double s = len > 0.0 ? -k * (len - rest) / len : 0.0;
        const double fx = s * dx - b * (vx[0] - vx[1]), fy = s * dy - b * (vy[0] - vy[1]);
        ax[0] = gx + inv_m1 * fx;
        ay[0] = gy + inv_m1 * fy;
        ax[1] = gx - inv_m2 * fx;
        ay[1] = gy - inv_m2 * fy;
    }
};

// A chain's forces, from the top: force(i, d, w, f) gives the force f of the connector above
// body i (d and w its ends' separation and relative velocity), which pulls body i with f and
// body i − 1 (for i = 0 the anchor at (ax0, ay0)) with −f.
template <class Force>
inline void add_chain_forces(size_t n, const double* inv_m, double ax0, double ay0, const double* __restrict x,
                             const double* __restrict y, const double* __restrict vx, const double* __restrict vy,
                             double* __restrict ax, double* __restrict ay, const Force& force) {
    double fx, fy;
    force(0, x[0] - ax0, y[0] - ay0, vx[0], vy[0], fx, fy);
    ax[0] += inv_m[0] * fx;
    ay[0] += inv_m[0] * fy;
    for (size_t i = 1; i < n; ++i) {
        force(i, x[i] - x[i - 1], y[i] - y[i - 1], vx[i] - vx[i - 1], vy[i] - vy[i - 1], fx, fy);
        ax[i] += inv_m[i] * fx;
        ay[i] += inv_m[i] * fy;
        ax[i - 1] -= inv_m[i - 1] * fx;
        ay[i - 1] -= inv_m[i - 1] * fy;
    }
}

// A chain: body k joined to body k − 1 by a spring (body 0 to its anchor), each of stiffness k,
// rest length L and a damper b on the relative velocity, under gravity g. The springs are
// summed as the core sums its kinds: the anchor's first, then the chain's from the top.
struct HandChain {
    std::vector<double> inv_m, k, rest, b;  // per body: the spring above it
    double ax0, ay0, gx, gy;
    explicit HandChain(const stepwise::System& s)
        : ax0(s.anchor_springs[0].anchor.x), ay0(s.anchor_springs[0].anchor.y), gx(s.gravity.x), gy(s.gravity.y) {
        inv_m = s.inv_mass;
        k.push_back(s.anchor_springs[0].k);
        rest.push_back(s.anchor_springs[0].rest);
        b.push_back(s.anchor_springs[0].b);
        for (const stepwise::PairSpring& sp : s.pair_springs) {
            k.push_back(sp.k);
            rest.push_back(sp.rest);
            b.push_back(sp.b);
        }
    }
    void operator()(const double* __restrict x, const double* __restrict y, const double* __restrict vx,
                    const double* __restrict vy, double* __restrict ax, double* __restrict ay) const {
        const size_t n = inv_m.size();
        for (size_t i = 0; i < n; ++i) {
            ax[i] = gx;
            ay[i] = gy;
        }
        // The spring above body i pulls it with f and body i − 1 (or the anchor) with −f.
        auto spring = [&](size_t i, double dx, double dy, double wx, double wy, double& fx, double& fy) {
            const double len = std::sqrt(dx * dx + dy * dy);
            const double s = len > 0.0 ? -k[i] * (len - rest[i]) / len : 0.0;
            fx = s * dx - b[i] * wx;
            fy = s * dy - b[i] * wy;
        };
        add_chain_forces(n, inv_m.data(), ax0, ay0, x, y, vx, vy, ax, ay, spring);
    }
};

// The chain scenario: link k joins body k to body k − 1 (link 0 body 0 to the anchor), a spring
// of stiffness 1/α along it with a damper c along it, F = −((|d| − L)/α + c (n·w)) n on body k and
// −F on body k − 1 (d = x_k − x_{k−1}, n = d/|d|, w = v_k − v_{k−1}), under gravity g and a
// damper b on every body. Written as one would for speed: 1/α and 1/|d| taken once.
struct HandLinkChain {
    std::vector<double> inv_m, rest, stiffness, damping;  // per body: the link above it
    double ax0, ay0, gx, gy, b;
    explicit HandLinkChain(const stepwise::System& s)
        : inv_m(s.inv_mass), ax0(s.links[0].anchor.x), ay0(s.links[0].anchor.y), gx(s.gravity.x),
          gy(s.gravity.y), b(s.damper) {
        for (const stepwise::Link& k : s.links) {
            rest.push_back(k.rest);
            stiffness.push_back(1.0 / k.compliance);
            damping.push_back(k.damping);
        }
    }
    void operator()(const double* __restrict x, const double* __restrict y, const double* __restrict vx,
                    const double* __restrict vy, double* __restrict ax, double* __restrict ay) const {
        const size_t n = inv_m.size();
        for (size_t i = 0; i < n; ++i) {
            ax[i] = gx - (b * inv_m[i]) * vx[i];
            ay[i] = gy - (b * inv_m[i]) * vy[i];
        }
        // The tension along link i, and its direction.
        auto link = [&](size_t i, double dx, double dy, double wx, double wy, double& fx, double& fy) {
            const double len = std::sqrt(dx * dx + dy * dy), inv_len = 1.0 / len;
            const double ux = dx * inv_len, uy = dy * inv_len;
            const double t = -(len - rest[i]) * stiffness[i] - damping[i] * (ux * wx + uy * wy);
            fx = t * ux;
            fy = t * uy;
        };
        add_chain_forces(n, inv_m.data(), ax0, ay0, x, y, vx, vy, ax, ay, link);
    }
};

// One body around a fixed centre at the origin.
struct HandOrbit {
    double gm;
    explicit HandOrbit(const stepwise::System& s) : gm(s.central_forces[0].gm) {}
    void operator()(const double* x, const double* y, const double*, const double*, double* ax, double* ay) const {
        const double r2 = x[0] * x[0] + y[0] * y[0];
        const double c = -gm / (r2 * std::sqrt(r2));
        ax[0] = c * x[0];
        ay[0] = c * y[0];
    }
};

// ---------------------------------------------------------------------------------------
// The hand loops' methods, over any of the physics above.

enum class Method { semi_implicit_euler, velocity_verlet, rk4 };

template <class Physics>
struct HandLoop {
    Physics acc;
    Soa start, s, a, a0, vp, k2, k3, k4, xs, v2, v3, v4;
    bool started = false;
    HandLoop(const Physics& p, const Soa& st)
        : acc(p), start(st), s(st), a(st.x.size()), a0(st.x.size()), vp(st.x.size()), k2(st.x.size()),
          k3(st.x.size()), k4(st.x.size()), xs(st.x.size()), v2(st.x.size()), v3(st.x.size()), v4(st.x.size()) {}
    void reset() {
        s = start;
        started = false;
    }
    template <Method M>
    void step(double h) {
        const size_t n = s.x.size();
        double *__restrict x = s.x.data(), *__restrict y = s.y.data(), *__restrict vx = s.vx.data(),
               *__restrict vy = s.vy.data();
        double *__restrict ax = a.x.data(), *__restrict ay = a.y.data();
        if constexpr (M == Method::semi_implicit_euler) {
            acc(x, y, vx, vy, ax, ay);
            for (size_t i = 0; i < n; ++i) {
                vx[i] += h * ax[i];
                vy[i] += h * ay[i];
                x[i] += h * vx[i];
                y[i] += h * vy[i];
            }
        } else if constexpr (M == Method::velocity_verlet) {
            double *px = vp.x.data(), *py = vp.y.data(), *bx = a0.x.data(), *by = a0.y.data();
            if (!started) {
                acc(x, y, vx, vy, ax, ay);
                started = true;
            }
            const double half_h2 = 0.5 * h * h;
            for (size_t i = 0; i < n; ++i) {
                x[i] += h * vx[i] + half_h2 * ax[i];
                y[i] += h * vy[i] + half_h2 * ay[i];
                px[i] = vx[i] + h * ax[i];
                py[i] = vy[i] + h * ay[i];
                bx[i] = ax[i];
                by[i] = ay[i];
            }
            acc(x, y, px, py, ax, ay);
            for (size_t i = 0; i < n; ++i) {
                vx[i] += (0.5 * h) * (bx[i] + ax[i]);
                vy[i] += (0.5 * h) * (by[i] + ay[i]);
            }
        } else {
            double *sx = xs.x.data(), *sy = xs.y.data();
            // xs = x + c·u (u: the previous stage's velocity), out = v + c·(its acceleration)
            auto stage = [&](const double* ux, const double* uy, double c, const Soa& from, Soa& out) {
                for (size_t i = 0; i < n; ++i) {
                    sx[i] = x[i] + c * ux[i];
                    sy[i] = y[i] + c * uy[i];
                    out.x[i] = vx[i] + c * from.x[i];
                    out.y[i] = vy[i] + c * from.y[i];
                }
            };
            acc(x, y, vx, vy, ax, ay);
            stage(vx, vy, 0.5 * h, a, v2);
            acc(sx, sy, v2.x.data(), v2.y.data(), k2.x.data(), k2.y.data());
            stage(v2.x.data(), v2.y.data(), 0.5 * h, k2, v3);
            acc(sx, sy, v3.x.data(), v3.y.data(), k3.x.data(), k3.y.data());
            stage(v3.x.data(), v3.y.data(), h, k3, v4);
            acc(sx, sy, v4.x.data(), v4.y.data(), k4.x.data(), k4.y.data());
            const double w = h / 6.0;
            for (size_t i = 0; i < n; ++i) {
                x[i] += w * (vx[i] + 2.0 * (v2.x[i] + v3.x[i]) + v4.x[i]);
                y[i] += w * (vy[i] + 2.0 * (v2.y[i] + v3.y[i]) + v4.y[i]);
                vx[i] += w * (ax[i] + 2.0 * (k2.x[i] + k3.x[i]) + k4.x[i]);
                vy[i] += w * (ay[i] + 2.0 * (k2.y[i] + k3.y[i]) + k4.y[i]);
            }
        }
    }
};

// ---------------------------------------------------------------------------------------
// The rows.

struct Engine {
    virtual ~Engine() = default;
    virtual void reset() = 0;
    virtual void run(long long steps) = 0;  // steps of dt from wherever it is
    virtual std::vector<dvec2> x() const = 0;
};

struct SimEngine : Engine {
    stepwise::Simulation sim;
    SimEngine(const stepwise::Config& c, stepwise::Scene scene, bool dissipated) : sim(c, std::move(scene)) {
        sim.measure_dissipated(dissipated);
    }
    void reset() override { sim.reset(); }
    void run(long long steps) override {
        for (long long k = 0; k < steps; ++k) sim.step();
    }
    std::vector<dvec2> x() const override {
        const stepwise::Lane& L = sim.lane(0);
        return std::vector<dvec2>(L.x.begin(), L.x.end());
    }
};

template <class Physics, Method M>
struct HandEngine : Engine {
    HandLoop<Physics> loop;
    double dt;
    HandEngine(const Physics& p, const Soa& start, double h) : loop(p, start), dt(h) {}
    void reset() override { loop.reset(); }
    void run(long long steps) override {
        for (long long k = 0; k < steps; ++k) loop.template step<M>(dt);
    }
    std::vector<dvec2> x() const override {
        std::vector<dvec2> out;
        for (size_t i = 0; i < loop.s.x.size(); ++i) out.emplace_back(loop.s.x[i], loop.s.y[i]);
        return out;
    }
};

struct Row {
    std::string name;
    std::unique_ptr<Engine> sim, hand;
    long long steps;  // one run: the config's duration / dt
    int repeats;      // runs per timing, for about 10 ms
    std::vector<double> t_sim, t_hand, ratio;
};

Soa soa_of(const stepwise::Scene& sc) {
    Soa s(sc.x0.size());
    for (size_t i = 0; i < sc.x0.size(); ++i) {
        s.x[i] = sc.x0[i].x;
        s.y[i] = sc.x0[i].y;
        s.vx[i] = sc.v0[i].x;
        s.vy[i] = sc.v0[i].y;
    }
    return s;
}

template <class Physics>
std::unique_ptr<Engine> hand_engine(Method m, const stepwise::Scene& sc, double dt) {
    const Physics p(sc.system);
    const Soa start = soa_of(sc);
    switch (m) {
        case Method::semi_implicit_euler:
            return std::make_unique<HandEngine<Physics, Method::semi_implicit_euler>>(p, start, dt);
        case Method::velocity_verlet:
            return std::make_unique<HandEngine<Physics, Method::velocity_verlet>>(p, start, dt);
        case Method::rk4: return std::make_unique<HandEngine<Physics, Method::rk4>>(p, start, dt);
    }
    return nullptr;
}

// A chain no scenario builds yet: n bodies of 1 kg joined by springs of 10⁴ N/m and rest length
// 0.1 m (compliance 1e-4 m/N), the first to an anchor at the origin, released horizontally
// under gravity (a rope let go); its length scale as build_scene would give it.
stepwise::Scene spring_chain(int n, double duration) {
    stepwise::Scene sc;
    stepwise::System& s = sc.system;
    for (int i = 0; i < n; ++i) {
        s.add_body(1.0);
        sc.x0.push_back(dvec2(0.1 * (i + 1), 0.0));
        sc.v0.push_back(dvec2(0.0, 0.0));
        if (i > 0) s.pair_springs.push_back({i, i - 1, 1e4, 0.1, 0.0});
    }
    s.anchor_springs.push_back({0, dvec2(0.0, 0.0), 1e4, 0.1, 0.0});
    s.gravity = dvec2(0.0, -9.81);
    sc.length_scale = 1.0 + 0.1 * n + 0.5 * 9.81 * duration * duration;
    return sc;
}

// A row's system: the name printed, the config (without integrators), the scene when no
// scenario builds it (else the config's), and its physics.
struct SystemRow {
    const char* name;
    const char* query;
    stepwise::Scene (*scene)(double duration);
    std::unique_ptr<Engine> (*hand)(Method, const stepwise::Scene&, double);
};

const SystemRow systems[] = {
    {"damped_spring", "preset=damped_spring", nullptr, hand_engine<HandAnchored>},
    {"elastic_pendulum", "preset=elastic_pendulum_resonance", nullptr, hand_engine<HandAnchored>},
    {"spring_pair", "scenario=spring_pair&dt=0.01&duration=10", nullptr, hand_engine<HandPair>},
    {"circular_orbit", "scenario=orbit&dt=0.01&duration=10", nullptr, hand_engine<HandOrbit>},
    {"spring_chain_32", "dt=0.001&duration=1", [](double d) { return spring_chain(32, d); }, hand_engine<HandChain>},
    // The row: the rope preset, 32 compliant links (α = 1e-6 m/N), 15,000 steps of 0.2 ms.
    {"rope_32_links", "preset=rope", nullptr, hand_engine<HandLinkChain>},
};

const struct {
    Method method;
    const char* id;
} methods[] = {{Method::semi_implicit_euler, "semi_implicit_euler"},
               {Method::velocity_verlet, "velocity_verlet"},
               {Method::rk4, "rk4"}};

double run_seconds(Engine& e, long long steps, int repeats) {
    const double t0 = cpu_seconds();
    for (int r = 0; r < repeats; ++r) {
        e.reset();
        e.run(steps);
    }
    const double t = cpu_seconds() - t0;
    g_sink = g_sink + e.x()[0].x;
    return t;
}

}  // namespace

int main(int argc, char** argv) {
    int rounds = 11;
    std::string filter, profile, dissipated;
    if (!read_options(argc, argv, rounds,
                      {{"--filter=", &filter}, {"--profile=", &profile}, {"--dissipated=", &dissipated}})) {
        std::fprintf(stderr, "usage: %s [--rounds=N] [--filter=TEXT] [--dissipated=1] [--profile=ROW,sim|hand,RUNS]\n",
                     argv[0]);
        return 2;
    }
    std::vector<Row> rows;
    for (const SystemRow& sys : systems)
        for (const auto& m : methods) {
            const std::string name = std::string(sys.name) + "/" + m.id;
            if (!filter.empty() && name.find(filter) == std::string::npos) continue;
            const stepwise::ParseResult r = stepwise::parse_config(std::string(sys.query) + "&integrators=" + m.id);
            if (!r.ok()) {
                std::fprintf(stderr, "%s: the config does not parse\n", name.c_str());
                return 1;
            }
            const stepwise::Config& c = r.config;
            auto sim = std::make_unique<SimEngine>(c, sys.scene ? sys.scene(c.duration) : stepwise::build_scene(c),
                                                   dissipated == "1");
            auto hand = sys.hand(m.method, sim->sim.scene(), c.dt);
            const long long steps = static_cast<long long>(std::ceil(c.duration / c.dt - 1e-9));
            rows.push_back({name, std::move(sim), std::move(hand), steps, 1, {}, {}, {}});
        }
    if (!profile.empty()) {
        const ProfileRequest p = read_profile(profile);
        for (Row& row : rows)
            if (row.name == p.row) {
                const double t = run_seconds(p.engine == "hand" ? *row.hand : *row.sim, row.steps, p.runs);
                std::printf("%s %s: %.3f s\n", p.row.c_str(), p.engine.c_str(), t);
                return 0;
            }
        std::fprintf(stderr, "no row %s\n", p.row.c_str());
        return 1;
    }
    // Size each row's timing to about 10 ms of the Simulation.
    for (Row& row : rows) {
        const double t = run_seconds(*row.sim, row.steps, 1);
        row.repeats = std::max(1, static_cast<int>(0.01 / std::max(t, 1e-6)));
    }
    const size_t n = rows.size();
    for (int round = 0; round < rounds; ++round) {
        for (size_t k = 0; k < n; ++k) {
            Row& row = rows[(k + static_cast<size_t>(round)) % n];
            // The two engines of a row back to back, which first alternating by round.
            const bool sim_first = round % 2 == 0;
            const double a = run_seconds(sim_first ? *row.sim : *row.hand, row.steps, row.repeats);
            const double b = run_seconds(sim_first ? *row.hand : *row.sim, row.steps, row.repeats);
            const double ts = sim_first ? a : b, th = sim_first ? b : a;
            const double per = static_cast<double>(row.steps) * row.repeats;
            row.t_sim.push_back(1e9 * ts / per);
            row.t_hand.push_back(1e9 * th / per);
            row.ratio.push_back(th / ts);
        }
    }
    std::printf("Lanes alone (Simulation::step, one lane) against a hand-written loop; CPU time, medians of %d rounds\n",
                rounds);
    std::printf("%-40s %8s %12s %12s %10s %12s\n", "row", "bodies", "sim ns/step", "hand ns/step", "sim/hand",
                "check");
    for (Row& row : rows) {
        // The check: one run of each from the start, largest coordinate difference over the size.
        row.sim->reset();
        row.sim->run(row.steps);
        row.hand->reset();
        row.hand->run(row.steps);
        const std::vector<dvec2> xs = row.sim->x(), xh = row.hand->x();
        double diff = 0.0, size = 0.0;
        for (size_t i = 0; i < xs.size(); ++i) {
            diff = std::max({diff, std::fabs(xs[i].x - xh[i].x), std::fabs(xs[i].y - xh[i].y)});
            size = std::max({size, std::fabs(xs[i].x), std::fabs(xs[i].y)});
        }
        std::printf("%-40s %8zu %12.2f %12.2f %10.3f %12.2g\n", row.name.c_str(), xs.size(), median(row.t_sim),
                    median(row.t_hand), median(row.ratio), size > 0.0 ? diff / size : diff);
    }
    return 0;
}
