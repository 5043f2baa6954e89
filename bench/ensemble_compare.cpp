// The ensemble comparison (targets stepwise_compare and stepwise_compare_native): on the same
// 10,000-body physics (ensemble_compare.hpp), in one run, interleaved rounds of
//   ensemble   stepwise::Ensemble, with the widest instruction set the processor runs, and
//              ensemble/<isa> with each one it has (ensemble_isa.hpp);
//   odeint     Boost.Odeint with its usual state: symplectic_euler and velocity_verlet on a
//              (q, p) pair of std::vector<double> (2N values each, x and y interleaved), and
//              runge_kutta4 on one std::vector<double> of 4N values (x, y, vx, vy per body);
//   limit      a plain hand-written structure-of-arrays loop per method, one fused pass.
// Every other integrator runs as an Ensemble alone (widest, and the build's own "default").
//
// Time is CPU time (CLOCK_PROCESS_CPUTIME_ID) of a run of steps from the start state, sized to
// about 20 ms; each round runs every engine once (the order rotating from round to round), and
// the table gives the median and the minimum over the rounds in ns per body-step, and the
// speed ratios as medians of the rounds' paired ratios.
//
// Afterwards a check: from the start state, 1000 steps of each engine, with b = 0.1 and with
// b = 0, the largest difference of any coordinate from the Ensemble's.
//
// Options: --rounds=N (default 9), --json=FILE (the medians and ratios, for scripts/bench-wasm.sh),
// --profile=METHOD,ENGINE,STEPS (only that row's engine for STEPS steps, nothing printed but its
// time: for perf record or valgrind).
#include "bench_timing.hpp"
#include "ensemble.hpp"
#include "ensemble_compare.hpp"
#include "ensemble_isa.hpp"
#include "integrators.hpp"
#include "system.hpp"

#ifdef STEPWISE_HAVE_ODEINT
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>
#include <boost/numeric/odeint/stepper/symplectic_euler.hpp>
#include <boost/numeric/odeint/stepper/velocity_verlet.hpp>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace stepwise_compare;
using namespace bench_timing;
using stepwise::dvec2;

// Final states, summed: every timed run's results are used.
volatile double g_sink = 0.0;

// The state of every copy, one array per component.
struct State {
    std::vector<double> x, y, vx, vy;
    double sum() const {
        double s = 0.0;
        for (const auto* c : {&x, &y, &vx, &vy})
            for (double d : *c) s += d;
        return s;
    }
};

struct Engine {
    virtual ~Engine() = default;
    // Back to the start state (outside the timing); then whatever must be chosen just before.
    virtual void reset() = 0;
    virtual void step(double h) = 0;
    virtual State state() const = 0;
};

// ---------------------------------------------------------------------------------------
// The Ensemble.

stepwise::System spring_system(double damping) {
    stepwise::System s;
    s.add_body(1.0);
    s.anchor_springs.push_back({0, dvec2(0.0, 0.0), kStiffness, 0.0, damping});
    return s;
}

struct EnsembleEngine : Engine {
    std::unique_ptr<stepwise::Ensemble> ensemble;
    std::string isa;  // "" for the widest

    EnsembleEngine(const Start& s, double damping, int integrator, std::string isa_name) : isa(std::move(isa_name)) {
        const dvec2 x0(s.x[0], s.y[0]), v0(s.vx[0], s.vy[0]);
        ensemble = std::make_unique<stepwise::Ensemble>(spring_system(damping), integrator, kCopies, &x0, &v0);
        for (int k = 0; k < kCopies; ++k) {
            const dvec2 x(s.x[k], s.y[k]), v(s.vx[k], s.vy[k]);
            ensemble->set_start(k, &x, &v);
        }
    }
    void reset() override {
        ensemble->reset();
        const auto names = stepwise::ensemble_isa::available();
        stepwise::ensemble_isa::choose(isa.empty() ? names.back() : isa);
    }
    void step(double h) override { ensemble->step(h); }
    State state() const override {
        const int n = ensemble->copies();
        const auto arr = [n](const double* p) { return std::vector<double>(p, p + n); };
        return {arr(ensemble->x(0)), arr(ensemble->y(0)), arr(ensemble->vx(0)), arr(ensemble->vy(0))};
    }
};

// ---------------------------------------------------------------------------------------
// The limit.

struct LimitEngine : Engine {
    const Start& start;
    Limit limit;
    LimitEngine(const Start& s, double damping, LimitMethod m) : start(s), limit(m, kStiffness, damping) {}
    void reset() override { limit.reset(start); }
    void step(double h) override { limit.step(h); }
    State state() const override { return {limit.x, limit.y, limit.vx, limit.vy}; }
};

// ---------------------------------------------------------------------------------------
// Boost.Odeint, as its documentation uses it: a system functor and a stepper's do_step on
// std::vector<double> state.

#ifdef STEPWISE_HAVE_ODEINT
namespace odeint = boost::numeric::odeint;
using Vec = std::vector<double>;

// (q, p) per copy interleaved: q = x0 y0 x1 y1 ..., p likewise.
void to_pairs(const Start& s, Vec& q, Vec& p) {
    const size_t n = s.x.size();
    q.resize(2 * n);
    p.resize(2 * n);
    for (size_t i = 0; i < n; ++i) {
        q[2 * i] = s.x[i];
        q[2 * i + 1] = s.y[i];
        p[2 * i] = s.vx[i];
        p[2 * i + 1] = s.vy[i];
    }
}

State from_pairs(const Vec& q, const Vec& p) {
    const size_t n = q.size() / 2;
    State s{Vec(n), Vec(n), Vec(n), Vec(n)};
    for (size_t i = 0; i < n; ++i) {
        s.x[i] = q[2 * i];
        s.y[i] = q[2 * i + 1];
        s.vx[i] = p[2 * i];
        s.vy[i] = p[2 * i + 1];
    }
    return s;
}

// odeint's symplectic steppers take dp/dt as a function of q alone (a separable Hamiltonian);
// the damper needs the velocity too, so the functor reads p from the state it is stepping.
// symplectic_euler does q += dt p, then p += dt f(q_new) with p still the old momentum: the
// position-first semi-implicit Euler (Stepwise's semi_implicit_euler_x), operation for operation.
struct SpringMomentum {
    const Vec* p;
    double nk, b;
    void operator()(const Vec& q, Vec& dpdt) const {
        const Vec& v = *p;
        for (size_t i = 0; i < q.size(); ++i) dpdt[i] = nk * q[i] - b * v[i];
    }
};

// velocity_verlet's system: a(q, p). odeint evaluates the new acceleration at the new position
// and the old velocity; Stepwise at the predicted velocity v + h a. With b = 0 they are the same
// method; with the damper they differ by O(b h^2) per step (the check reports it).
struct SpringAcceleration {
    double nk, b;
    void operator()(const Vec& q, const Vec& p, Vec& a, double /*t*/) const {
        for (size_t i = 0; i < q.size(); ++i) a[i] = nk * q[i] - b * p[i];
    }
};

// A stepper on the (q, p) pair: symplectic_euler with SpringMomentum, velocity_verlet with
// SpringAcceleration.
template <class Stepper, class System>
struct OdeintPair : Engine {
    const Start& start;
    double damping;
    Vec q, p;
    Stepper stepper;
    double t = 0.0;
    OdeintPair(const Start& s, double b) : start(s), damping(b) {}
    void reset() override {
        to_pairs(start, q, p);
        if constexpr (requires { stepper.reset(); }) stepper.reset();  // velocity_verlet: a fresh start
        t = 0.0;
    }
    void step(double h) override {
        System system;
        if constexpr (std::is_same_v<System, SpringMomentum>)
            system = {&p, -kStiffness, damping};
        else
            system = {-kStiffness, damping};
        stepper.do_step(system, std::make_pair(std::ref(q), std::ref(p)), t, h);
        t += h;
    }
    State state() const override { return from_pairs(q, p); }
};
using OdeintSymplecticEuler = OdeintPair<odeint::symplectic_euler<Vec>, SpringMomentum>;
using OdeintVelocityVerlet = OdeintPair<odeint::velocity_verlet<Vec>, SpringAcceleration>;

// runge_kutta4 on one vector: x y vx vy per copy.
struct SpringSystem {
    double nk, b;
    void operator()(const Vec& s, Vec& dsdt, double /*t*/) const {
        for (size_t i = 0; i < s.size(); i += 4) {
            dsdt[i] = s[i + 2];
            dsdt[i + 1] = s[i + 3];
            dsdt[i + 2] = nk * s[i] - b * s[i + 2];
            dsdt[i + 3] = nk * s[i + 1] - b * s[i + 3];
        }
    }
};

struct OdeintRk4 : Engine {
    const Start& start;
    double damping;
    Vec s;
    odeint::runge_kutta4<Vec> stepper;
    double t = 0.0;
    OdeintRk4(const Start& st, double b) : start(st), damping(b) {}
    void reset() override {
        const size_t n = start.x.size();
        s.resize(4 * n);
        for (size_t i = 0; i < n; ++i) {
            s[4 * i] = start.x[i];
            s[4 * i + 1] = start.y[i];
            s[4 * i + 2] = start.vx[i];
            s[4 * i + 3] = start.vy[i];
        }
        t = 0.0;
    }
    void step(double h) override {
        stepper.do_step(SpringSystem{-kStiffness, damping}, s, t, h);
        t += h;
    }
    State state() const override {
        const size_t n = s.size() / 4;
        State r{Vec(n), Vec(n), Vec(n), Vec(n)};
        for (size_t i = 0; i < n; ++i) {
            r.x[i] = s[4 * i];
            r.y[i] = s[4 * i + 1];
            r.vx[i] = s[4 * i + 2];
            r.vy[i] = s[4 * i + 3];
        }
        return r;
    }
};
#endif

// The odeint engine for a Stepwise method, or null. symplectic_euler stands for both
// semi-implicit Eulers (it is the position-first one).
std::unique_ptr<Engine> make_odeint(const std::string& id, const Start& s, double damping) {
#ifdef STEPWISE_HAVE_ODEINT
    if (id == "semi_implicit_euler" || id == "semi_implicit_euler_x")
        return std::make_unique<OdeintSymplecticEuler>(s, damping);
    if (id == "velocity_verlet") return std::make_unique<OdeintVelocityVerlet>(s, damping);
    if (id == "rk4") return std::make_unique<OdeintRk4>(s, damping);
#else
    (void)id, (void)s, (void)damping;
#endif
    return nullptr;
}

std::unique_ptr<Engine> make_limit(const std::string& id, const Start& s, double damping) {
    for (int m = 0; m < static_cast<int>(std::size(limit_method_ids)); ++m)
        if (id == limit_method_ids[m]) return std::make_unique<LimitEngine>(s, damping, static_cast<LimitMethod>(m));
    return nullptr;
}

// ---------------------------------------------------------------------------------------
// Timing.

struct Row {
    std::string method, engine;
    std::unique_ptr<Engine> e;
    int steps = 0;
    std::vector<double> ns;  // per body-step, one per round
};

double timed_run(Row& r) {
    r.e->reset();
    const double t0 = cpu_seconds();
    for (int s = 0; s < r.steps; ++s) r.e->step(kDt);
    const double t1 = cpu_seconds();
    g_sink = g_sink + r.e->state().sum();
    return (t1 - t0) * 1e9 / (static_cast<double>(r.steps) * kCopies);
}

// The speed of `fast` relative to `slow` (how many times faster): the median over the rounds of
// slow's time over fast's in the same round.
double paired_ratio(const Row& slow, const Row& fast) {
    std::vector<double> r;
    for (size_t i = 0; i < slow.ns.size() && i < fast.ns.size(); ++i) r.push_back(slow.ns[i] / fast.ns[i]);
    return median(r);
}

double max_difference(const State& a, const State& b) {
    double d = 0.0;
    const std::vector<double>* ca[] = {&a.x, &a.y, &a.vx, &a.vy};
    const std::vector<double>* cb[] = {&b.x, &b.y, &b.vx, &b.vy};
    for (int c = 0; c < 4; ++c)
        for (size_t i = 0; i < ca[c]->size(); ++i) d = std::max(d, std::fabs((*ca[c])[i] - (*cb[c])[i]));
    return d;
}

}  // namespace

int main(int argc, char** argv) {
    int rounds = 9;
    std::string json_path, profile;
    if (!read_options(argc, argv, rounds, {{"--json=", &json_path}, {"--profile=", &profile}})) {
        std::fprintf(stderr, "usage: %s [--rounds=N] [--json=FILE] [--profile=METHOD,ENGINE,STEPS]\n", argv[0]);
        return 2;
    }
#ifdef STEPWISE_BUILD_NATIVE
    const char* build = "native";  // -march=native
#else
    const char* build = "portable";
#endif
    const auto isas = stepwise::ensemble_isa::available();
    const Start start = make_start(kCopies);
    const auto& table = stepwise::integrators();
    const char* compared[] = {"semi_implicit_euler", "semi_implicit_euler_x", "velocity_verlet", "rk4"};
    auto is_compared = [&](const std::string& id) {
        return std::any_of(std::begin(compared), std::end(compared), [&](const char* c) { return id == c; });
    };

    std::printf("stepwise_compare (%s build): %d copies of one body on a spring (k = %g, b = %g), dt = %g\n", build,
                kCopies, kStiffness, kDamping, kDt);
    std::printf("ensemble instruction sets here:");
    for (const auto& n : isas) std::printf(" %s", n.c_str());
    std::printf(" (\"ensemble\" = %s)\n", isas.back().c_str());
    {
        // How the Ensemble steps this system under each integrator (Ensemble::path()).
        const stepwise::System sys = spring_system(kDamping);
        const stepwise::dvec2 x0(1.0, 0.0), v0(0.0);
        std::printf("ensemble path:");
        for (int i = 0; i < static_cast<int>(table.size()); ++i)
            std::printf(" %s=%s", table[i].id, stepwise::Ensemble(sys, i, 1, &x0, &v0).path());
        std::printf("\n");
    }
#ifndef STEPWISE_HAVE_ODEINT
    std::printf("Boost.Odeint not found at build time (install libboost-dev): the odeint rows are skipped\n");
#endif

    // The rows: for the compared methods every engine, for the others the Ensemble alone.
    std::vector<Row> rows;
    for (const char* id : compared) {
        const int index = stepwise::find_integrator(id);
        rows.push_back({id, "ensemble", std::make_unique<EnsembleEngine>(start, kDamping, index, ""), 0, {}});
        for (size_t i = 0; i + 1 < isas.size(); ++i)  // the narrower ones ("ensemble" is the widest)
            rows.push_back(
                {id, "ensemble/" + isas[i], std::make_unique<EnsembleEngine>(start, kDamping, index, isas[i]), 0, {}});
        rows.push_back({id, "limit", make_limit(id, start, kDamping), 0, {}});
        // One odeint symplectic_euler row serves both semi-implicit Eulers.
        if (std::strcmp(id, "semi_implicit_euler") != 0)
            if (auto e = make_odeint(id, start, kDamping)) rows.push_back({id, "odeint", std::move(e), 0, {}});
    }
    for (int i = 0; i < static_cast<int>(table.size()); ++i)
        if (!is_compared(table[i].id)) {
            rows.push_back(
                {table[i].id, "ensemble", std::make_unique<EnsembleEngine>(start, kDamping, i, ""), 0, {}});
            // The build's own kernels (SSE2 in the portable build): wasm's 128-bit SIMD's peer.
            if (isas.size() > 1)
                rows.push_back({table[i].id, "ensemble/" + isas[0],
                                std::make_unique<EnsembleEngine>(start, kDamping, i, isas[0]), 0, {}});
        }

    if (!profile.empty()) {
        const size_t c1 = profile.find(','), c2 = profile.rfind(',');
        const std::string method = profile.substr(0, c1), engine = profile.substr(c1 + 1, c2 - c1 - 1);
        for (Row& r : rows)
            if (r.method == method && r.engine == engine) {
                r.steps = std::atoi(profile.c_str() + c2 + 1);
                std::printf("%s %s: %d steps, %.3f ns per body-step\n", method.c_str(), engine.c_str(), r.steps,
                            timed_run(r));
                return 0;
            }
        std::fprintf(stderr, "--profile: no row %s / %s\n", method.c_str(), engine.c_str());
        return 2;
    }

    // Steps per run: about 20 ms each (from a short trial run, which also warms everything up).
    for (Row& r : rows) {
        r.steps = 5;
        const double ns = timed_run(r);
        r.steps = std::clamp(static_cast<int>(20e6 / (ns * kCopies)), 5, 1000);
    }

    for (int round = 0; round < rounds; ++round) {
        const size_t n = rows.size();
        for (size_t j = 0; j < n; ++j) {
            Row& r = rows[(j + static_cast<size_t>(round) * 7) % n];  // a different order every round
            r.ns.push_back(timed_run(r));
        }
    }

    auto find = [&](const std::string& method, const std::string& engine) -> const Row* {
        for (const Row& r : rows)
            if (r.method == method && r.engine == engine) return &r;
        return nullptr;
    };
    const Row* odeint_sie = find("semi_implicit_euler_x", "odeint");

    std::printf("\n%d interleaved rounds, CPU time; ns per body-step (median, min over rounds)\n\n", rounds);
    std::printf("%-22s %-18s %6s %8s %8s %14s %14s\n", "method", "engine", "steps", "median", "min", "x odeint",
                "x limit");
    for (const Row& r : rows) {
        const Row* od = find(r.method, "odeint");
        if (!od && r.method == "semi_implicit_euler") od = odeint_sie;
        const Row* lim = find(r.method, "limit");
        char vs_odeint[32] = "", vs_limit[32] = "";
        if (od && &r != od) std::snprintf(vs_odeint, sizeof vs_odeint, "%.2f", paired_ratio(*od, r));
        if (lim && &r != lim) std::snprintf(vs_limit, sizeof vs_limit, "%.2f", paired_ratio(*lim, r));
        std::printf("%-22s %-18s %6d %8.3f %8.3f %14s %14s\n", r.method.c_str(), r.engine.c_str(), r.steps,
                    median(r.ns), *std::min_element(r.ns.begin(), r.ns.end()), vs_odeint, vs_limit);
    }
    std::printf("\n\"x odeint\", \"x limit\": how many times faster than odeint / the limit loop (median of the\n"
                "rounds' paired ratios; > 1 is faster). odeint's symplectic_euler is position-first: it is the\n"
                "same method as semi_implicit_euler_x and stands in for semi_implicit_euler too.\n");

    // The check: 1000 steps from the start state, every engine against the Ensemble.
    bool ok = true;
    std::printf("\ncheck: largest |difference| of any coordinate from the Ensemble's after 1000 steps\n");
    for (double damping : {kDamping, 0.0}) {
        for (const char* id : compared) {
            EnsembleEngine ens(start, damping, stepwise::find_integrator(id), "");
            std::unique_ptr<Engine> others[] = {make_limit(id, start, damping), make_odeint(id, start, damping)};
            const char* names[] = {"limit", "odeint"};
            ens.reset();
            for (int s = 0; s < 1000; ++s) ens.step(kDt);
            const State ref = ens.state();
            for (int o = 0; o < 2; ++o) {
                if (!others[o]) continue;
                // odeint's symplectic_euler is position-first: only semi_implicit_euler_x is the same
                // method; its velocity Verlet evaluates the force at the old velocity (same method
                // only without damping).
                const bool same_method = !(o == 1 && (std::strcmp(id, "semi_implicit_euler") == 0 ||
                                                      (std::strcmp(id, "velocity_verlet") == 0 && damping != 0.0)));
                others[o]->reset();
                for (int s = 0; s < 1000; ++s) others[o]->step(kDt);
                const double d = max_difference(ref, others[o]->state());
                const bool pass = !same_method || d <= 1e-12;
                ok = ok && pass;
                std::printf("  b = %-4g %-22s %-7s %.3g%s\n", damping, id, names[o], d,
                            same_method ? (pass ? "  ok (<= 1e-12)" : "  FAIL (> 1e-12)") : "  (a different method)");
            }
        }
    }
    std::printf("\n(sum of every final state: %.17g)\n", static_cast<double>(g_sink));

    if (!json_path.empty()) {
        FILE* f = std::fopen(json_path.c_str(), "w");
        if (!f) {
            std::perror(json_path.c_str());
            return 1;
        }
        std::fprintf(f, "{\"build\": \"%s\", \"rounds\": %d, \"widest_isa\": \"%s\", \"rows\": [", build, rounds,
                     isas.back().c_str());
        for (size_t i = 0; i < rows.size(); ++i)
            std::fprintf(f, "%s\n  {\"method\": \"%s\", \"engine\": \"%s\", \"median_ns\": %.6g, \"min_ns\": %.6g}",
                         i ? "," : "", rows[i].method.c_str(), rows[i].engine.c_str(), median(rows[i].ns),
                         *std::min_element(rows[i].ns.begin(), rows[i].ns.end()));
        std::fprintf(f, "\n]}\n");
        std::fclose(f);
    }
    return ok ? 0 : 1;
}
