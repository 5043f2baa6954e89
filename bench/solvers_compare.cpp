// The game-physics solvers alone (target stepwise_solvers; docs/benchmarks.md, "The solvers"): a
// Simulation stepping one solver lane on a chain (Simulation::step, as the CLI and the page step it:
// the lane's substeps, its checks; nothing reads the reference or the history, so neither is
// computed; the dissipated energy is not summed) against a hand-written XPBD loop of the same
// physics, in one run.
//
// The hand loop is XPBD as one would write it for a chain alone and for speed: the state as
// structure of arrays, the rows' constants (both ends' inverse masses, α/h², α·c/h and the
// denominator's constant part) computed once, the anchor's row taken apart (the one branch a row
// keeps is xpbd_step's test for a link of length 0, whose direction is unknown),
// and no work the physics does not need (no counters, no observer, no checks). It does every
// floating-point operation of xpbd_step (core/solvers.cpp) in the same order, so the two give the
// same numbers: the check column says "bit for bit" when every position and velocity after one
// run is the same double in both, else gives the largest coordinate difference relative to the
// state's size.
//
// Rows: the chain config with one lane, METHOD@20x1 (20 substeps of 1 iteration each: the way
// Small Steps runs XPBD); xpbd is the goal's row (at least 0.7 of the hand loop), pbd, soft_step,
// sequential_impulses and vbd at the same settings are timed against the same hand XPBD loop for
// context (their check column compares them with it too: a different method, so not 0, except pbd
// on rigid links, where PBD and XPBD with α = 0 do the same operations).
//
// Time is CPU time (CLOCK_PROCESS_CPUTIME_ID) of `repeats` runs of the config's steps from its start
// (about 10 ms); a round runs every row's two engines back to back (which first alternating by
// round), rows in an order rotating from round to round; medians over the rounds. The ratio is the
// median over the rounds of hand time / Simulation time in the same round.
//
// Options: --rounds=N (default 11), --filter=TEXT (rows whose name contains it),
// --profile=ROW,ENGINE,RUNS (sim or hand: only that for RUNS runs, for perf record).
#include "bench_timing.hpp"
#include "config.hpp"
#include "simulation.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

using stepwise::dvec2;
using namespace bench_timing;

volatile double g_sink = 0.0;

// XPBD on a chain (scenario=chain: link 0 joins body 0 to its anchor, link k body k to body k − 1),
// under gravity g and a damper b on every body, `substeps` substeps of one pass over the links a
// step of dt.
struct HandXpbd {
    int n;
    double dt;
    int substeps;
    double gx, gy, b;
    double anchor_x, anchor_y;
    std::vector<double> inv_m, rest;  // per body: the link above it
    std::vector<double> alpha, gamma, denominator_w;  // per link: α/h², α·c/h, (1 + γ)·(w_i + w_j)
    std::vector<double> x, y, vx, vy, x0, y0, lambda, start;

    HandXpbd(const stepwise::Scene& sc, double step, int parts) : n(sc.system.bodies()), dt(step), substeps(parts) {
        const stepwise::System& s = sc.system;
        gx = s.gravity.x;
        gy = s.gravity.y;
        b = s.damper;
        anchor_x = s.links[0].anchor.x;
        anchor_y = s.links[0].anchor.y;
        inv_m = s.inv_mass;
        const double h = dt / static_cast<double>(substeps), h2 = h * h;
        for (int k = 0; k < n; ++k) {
            const stepwise::Link& link = s.links[static_cast<size_t>(k)];
            rest.push_back(link.rest);
            alpha.push_back(link.compliance / h2);
            const double g = link.compliance * link.damping / h;
            gamma.push_back(g);
            // w_i + w_j as the core sums it: the anchor's end adds 0.0.
            const double w = inv_m[k] + (k == 0 ? 0.0 : inv_m[k - 1]);
            denominator_w.push_back((1.0 + g) * w);
        }
        for (auto* v : {&x, &y, &vx, &vy, &x0, &y0, &lambda}) v->assign(static_cast<size_t>(n), 0.0);
        for (int k = 0; k < n; ++k) {
            start.push_back(sc.x0[k].x);
            start.push_back(sc.x0[k].y);
            start.push_back(sc.v0[k].x);
            start.push_back(sc.v0[k].y);
        }
        reset();
    }
    void reset() {
        for (int k = 0; k < n; ++k) {
            x[k] = start[4 * k];
            y[k] = start[4 * k + 1];
            vx[k] = start[4 * k + 2];
            vy[k] = start[4 * k + 3];
        }
    }

    // Link k's projection (its ends i and, unless an anchor, j): Δλ from C, its gradient and the
    // ends' motion over the substep, then both ends moved along it.
    template <bool anchored>
    static inline void project(int k, double* __restrict x, double* __restrict y, const double* __restrict x0,
                               const double* __restrict y0, const double* __restrict inv_m,
                               const double* __restrict rest, const double* __restrict alpha,
                               const double* __restrict gamma, const double* __restrict denominator_w,
                               double* __restrict lambda, double ax, double ay) {
        const int j = k - 1;
        const double dx = x[k] - (anchored ? ax : x[j]), dy = y[k] - (anchored ? ay : y[j]);
        const double len = std::sqrt(dx * dx + dy * dy);
        if (len == 0.0) return;  // no direction: no solver moves it
        const double c = len - rest[k];
        const double gx = dx / len, gy = dy / len;
        double mx = x[k] - x0[k], my = y[k] - y0[k];
        if (!anchored) {
            mx -= x[j] - x0[j];
            my -= y[j] - y0[j];
        }
        const double moved = gx * mx + gy * my;
        const double dl = (-c - alpha[k] * lambda[k] - gamma[k] * moved) / (denominator_w[k] + alpha[k]);
        lambda[k] += dl;
        const double si = inv_m[k] * dl;
        x[k] += si * gx;
        y[k] += si * gy;
        if (!anchored) {
            const double sj = inv_m[j] * dl;
            x[j] -= sj * gx;
            y[j] -= sj * gy;
        }
    }

    void step() {
        const double h = dt / static_cast<double>(substeps);
        double *__restrict px = x.data(), *__restrict py = y.data(), *__restrict pvx = vx.data(),
               *__restrict pvy = vy.data(), *__restrict px0 = x0.data(), *__restrict py0 = y0.data(),
               *__restrict pl = lambda.data();
        const double* __restrict im = inv_m.data();
        for (int part = 0; part < substeps; ++part) {
            // The prediction: v += h·a_ext, x += h·v (a_ext = g − (b/m)·v).
            for (int k = 0; k < n; ++k) {
                px0[k] = px[k];
                py0[k] = py[k];
                const double ax = gx - (b * im[k]) * pvx[k], ay = gy - (b * im[k]) * pvy[k];
                pvx[k] += h * ax;
                pvy[k] += h * ay;
                px[k] += h * pvx[k];
                py[k] += h * pvy[k];
                pl[k] = 0.0;
            }
            project<true>(0, px, py, px0, py0, im, rest.data(), alpha.data(), gamma.data(), denominator_w.data(), pl,
                          anchor_x, anchor_y);
            for (int k = 1; k < n; ++k)
                project<false>(k, px, py, px0, py0, im, rest.data(), alpha.data(), gamma.data(),
                               denominator_w.data(), pl, anchor_x, anchor_y);
            for (int k = 0; k < n; ++k) {
                pvx[k] = (px[k] - px0[k]) / h;
                pvy[k] = (py[k] - py0[k]) / h;
            }
        }
    }
};

struct Row {
    std::string name;
    std::unique_ptr<stepwise::Simulation> sim;
    std::unique_ptr<HandXpbd> hand;
    long long steps = 0;  // one run: the config's duration / dt (a whole number here)
    int repeats = 1;      // runs per timing, for about 10 ms
    std::vector<double> t_sim, t_hand, ratio;
};

// The chains: 64 links of 0.1 m and 0.1 kg released horizontally (the rope preset's links, twice as
// many), stepped at 60 steps a second for 5 s; compliant (α = 1e-6 m/N, a little damping along
// each link, a damper on each body: every term of XPBD's update) and rigid.
const struct {
    const char* name;
    const char* query;
} chains[] = {
    {"chain64_compliant",
     "scenario=chain&links=64&m=0.1&length=0.1&compliance=0.000001&link_damping=0.5&b=0.01&theta0=90&"
     "dt=0.016666666666666666&duration=5"},
    {"chain64_rigid", "scenario=chain&links=64&m=0.1&length=0.1&compliance=0&theta0=90&dt=0.016666666666666666&"
                      "duration=5"},
};

// The solver lanes, each at 20 substeps of one iteration.
const char* const lanes[] = {"xpbd@20x1", "pbd@20x1", "soft_step@20x1", "sequential_impulses@20x1", "vbd@20x1"};

double first_x(const stepwise::Simulation& sim) { return sim.lane(0).x[0].x; }
double first_x(const HandXpbd& hand) { return hand.x[0]; }

// `repeats` runs of `steps` steps from the start (the Simulation or the hand loop: both have
// reset() and step()), and their CPU time.
template <class Engine>
double run_seconds(Engine& e, long long steps, int repeats) {
    const double t0 = cpu_seconds();
    for (int r = 0; r < repeats; ++r) {
        e.reset();
        for (long long k = 0; k < steps; ++k) e.step();
    }
    const double t = cpu_seconds() - t0;
    g_sink = g_sink + first_x(e);
    return t;
}
double time_sim(Row& row, int repeats) { return run_seconds(*row.sim, row.steps, repeats); }
double time_hand(Row& row, int repeats) { return run_seconds(*row.hand, row.steps, repeats); }

}  // namespace

int main(int argc, char** argv) {
    int rounds = 11;
    std::string filter, profile;
    if (!read_options(argc, argv, rounds, {{"--filter=", &filter}, {"--profile=", &profile}})) {
        std::fprintf(stderr, "usage: %s [--rounds=N] [--filter=TEXT] [--profile=ROW,sim|hand,RUNS]\n", argv[0]);
        return 2;
    }
    std::vector<Row> rows;
    for (const auto& chain : chains)
        for (const char* lane : lanes) {
            const std::string name = std::string(chain.name) + "/" + lane;
            if (!filter.empty() && name.find(filter) == std::string::npos) continue;
            const stepwise::ParseResult parsed = stepwise::parse_config(std::string(chain.query) + "&integrators=" + lane);
            if (!parsed.ok()) return std::fprintf(stderr, "%s: no config\n", name.c_str()), 1;
            Row& row = rows.emplace_back();
            row.name = name;
            row.sim = std::make_unique<stepwise::Simulation>(parsed.config);
            row.sim->measure_dissipated(false);
            row.hand = std::make_unique<HandXpbd>(row.sim->scene(), parsed.config.dt, 20);
            row.steps = std::llround(parsed.config.duration / parsed.config.dt);
        }
    if (!profile.empty()) {
        const ProfileRequest p = read_profile(profile);
        for (Row& row : rows)
            if (row.name == p.row) {
                const double t = p.engine == "hand" ? time_hand(row, p.runs) : time_sim(row, p.runs);
                std::printf("%s %s: %.3f s\n", p.row.c_str(), p.engine.c_str(), t);
                return 0;
            }
        std::fprintf(stderr, "no row %s\n", p.row.c_str());
        return 1;
    }
    // Size each row's timing to about 10 ms of the Simulation.
    for (Row& row : rows) row.repeats = std::max(1, static_cast<int>(0.01 / std::max(time_sim(row, 1), 1e-6)));
    const size_t n = rows.size();
    for (int round = 0; round < rounds; ++round) {
        for (size_t k = 0; k < n; ++k) {
            Row& row = rows[(k + static_cast<size_t>(round)) % n];
            const bool sim_first = round % 2 == 0;
            const double a = sim_first ? time_sim(row, row.repeats) : time_hand(row, row.repeats);
            const double b = sim_first ? time_hand(row, row.repeats) : time_sim(row, row.repeats);
            const double ts = sim_first ? a : b, th = sim_first ? b : a;
            const double per = static_cast<double>(row.steps) * row.repeats;
            row.t_sim.push_back(1e9 * ts / per);
            row.t_hand.push_back(1e9 * th / per);
            row.ratio.push_back(th / ts);
        }
    }
    std::printf("Solver lanes alone (Simulation::step, one lane, 20 substeps of 1 iteration) against a hand-written "
                "XPBD loop; CPU time, medians of %d rounds\n",
                rounds);
    std::printf("%-44s %8s %12s %12s %10s %12s\n", "row", "bodies", "sim ns/step", "hand ns/step", "hand/sim",
                "check");
    for (Row& row : rows) {
        // The check: one run of each from the start, largest coordinate difference over the size.
        time_sim(row, 1);
        time_hand(row, 1);
        const stepwise::Lane& L = row.sim->lane(0);
        const HandXpbd& hand = *row.hand;
        double diff = 0.0, size = 0.0;
        bool bits = true;  // every position and velocity the same double, bit for bit
        auto same = [](double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); };
        for (int i = 0; i < hand.n; ++i) {
            diff = std::max({diff, std::fabs(L.x[i].x - hand.x[i]), std::fabs(L.x[i].y - hand.y[i])});
            size = std::max({size, std::fabs(L.x[i].x), std::fabs(L.x[i].y)});
            bits = bits && same(L.x[i].x, hand.x[i]) && same(L.x[i].y, hand.y[i]) && same(L.v[i].x, hand.vx[i]) &&
                   same(L.v[i].y, hand.vy[i]);
        }
        char check[32];
        std::snprintf(check, sizeof check, "%.2g", size > 0.0 ? diff / size : diff);
        std::printf("%-44s %8d %12.0f %12.0f %10.3f %12s\n", row.name.c_str(), hand.n, median(row.t_sim),
                    median(row.t_hand), median(row.ratio), bits ? "bit for bit" : check);
    }
    return 0;
}
