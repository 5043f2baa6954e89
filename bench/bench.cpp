// Steps per second of every integrator in the table, on two systems:
//   spring_1/<id>      one body (m = 1) on a spring to a fixed anchor: k = 15, b = 0.1, rest 0;
//   cloud_10000/<id>   10,000 independent bodies, each on its own anchor spring (k = 15, b = 0.1),
//                      half with rest length 0 (linear), half with rest length 1 (needs a sqrt);
//   ensemble_10000/<id> 10,000 copies of one body (m = 1) on an anchored spring (k = 15, b = 0.1,
//                      rest 0) stepped together as an Ensemble (structure of arrays, vectorised),
//                      starting on a disc in (x, vx): the same work per body as the cloud.
// Both use dt = 0.01, the CLI's default. Every lane is sized once by make_lane before the timed
// loop; step() never allocates, and the loop only calls step() (and Lane::reset, a copy).
//
// Counters: steps/s and body-steps/s (rates), time/body-step (an inverted rate, e.g. "5.2ns"), and
// evals/step (force evaluations per step, from the lane's statistics).
//
// The ensemble uses the widest instruction set the processor runs (ensemble_isa.hpp); --isa=NAME
// chooses another ("default", "avx2", "avx512f"), and the context line names the one used.
//
// Each benchmark runs for at least 0.5 s (--benchmark_min_time, overridable on the command line; a
// per-benchmark MinTime would append "/min_time:..." to the names): 45 benchmarks, about 45 s.
#include "ensemble.hpp"
#include "ensemble_isa.hpp"
#include "integrators.hpp"
#include "system.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using stepwise::dvec2;

constexpr double kDt = 0.01;
constexpr double kStiffness = 15.0;
constexpr double kDamping = 0.1;
constexpr int kCloudBodies = 10000;
constexpr int kEnsembleCopies = 10000;

// The lane restarts from its initial state every kRestartSteps steps (10 simulated seconds), so
// every integrator runs over the same representative motion however many iterations the library
// picks: no amplitude decaying into subnormals, no explicit Euler growing towards overflow.
constexpr long long kRestartSteps = 1000;

struct Setup {
    stepwise::System system;
    std::vector<dvec2> x0, v0;
};

Setup make_spring_1() {
    Setup s;
    s.system.add_body(1.0);
    s.system.anchor_springs.push_back({0, dvec2(0.0, 0.0), kStiffness, 0.0, kDamping});
    s.x0 = {dvec2(1.0, 0.0)};
    s.v0 = {dvec2(0.0, 0.0)};
    return s;
}

// A fixed 64-bit LCG: the same cloud on every machine and run.
struct Lcg {
    std::uint64_t state;
    double next() {  // uniform in [0, 1)
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) * (1.0 / 9007199254740992.0);
    }
};

Setup make_cloud(int bodies) {
    Setup s;
    Lcg rng{0x5eed5eedULL};
    const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(bodies))));
    s.x0.reserve(bodies);
    s.v0.reserve(bodies);
    s.system.anchor_springs.reserve(bodies);
    for (int i = 0; i < bodies; ++i) {
        const int body = s.system.add_body(1.0);
        // Anchors on a grid 4 apart, jittered; the body starts 0.5 to 2 away in a random
        // direction (never on its anchor, so the rest-1 springs have a direction).
        const dvec2 anchor(4.0 * (i % side) + rng.next(), 4.0 * (i / side) + rng.next());
        const double r = 0.5 + 1.5 * rng.next();
        const double phi = 6.283185307179586 * rng.next();
        const double rest = (i % 2 == 0) ? 0.0 : 1.0;
        s.system.anchor_springs.push_back({body, anchor, kStiffness, rest, kDamping});
        s.x0.push_back(anchor + r * dvec2(std::cos(phi), std::sin(phi)));
        s.v0.push_back(dvec2(rng.next() - 0.5, rng.next() - 0.5));
    }
    return s;
}

const Setup& spring_1() {
    static const Setup s = make_spring_1();
    return s;
}

const Setup& cloud() {
    static const Setup s = make_cloud(kCloudBodies);
    return s;
}

// The counters of a run of `steps` steps of `bodies` bodies in all; `probe` is a coordinate of the
// final state.
void report(benchmark::State& state, long long steps, int bodies, double evaluations, double probe) {
    const double body_steps = static_cast<double>(steps) * bodies;
    state.counters["steps/s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
    state.counters["body-steps/s"] = benchmark::Counter(body_steps, benchmark::Counter::kIsRate);
    // An inverted rate: seconds per body-step, printed with an SI prefix ("5.2ns").
    state.counters["time/body-step"] =
        benchmark::Counter(body_steps, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["evals/step"] = benchmark::Counter(steps > 0 ? evaluations / steps : 0.0);
    if (!std::isfinite(probe)) state.SkipWithError("state is no longer finite");
}

void run(benchmark::State& state, const Setup& setup, int index) {
    const stepwise::System& sys = setup.system;
    const stepwise::StepFn step = stepwise::integrators()[index].step;
    stepwise::Lane lane = stepwise::make_lane(sys, index, setup.x0.data(), setup.v0.data());
    const bool small = sys.bodies() < 1000;
    long long steps = 0, evaluations = 0, since_reset = 0;
    for (auto _ : state) {
        if (since_reset == kRestartSteps) {
            // A copy of the initial state; for the cloud (320 KB) keep it out of the timing.
            if (!small) state.PauseTiming();
            evaluations += lane.force_evaluations;
            lane.reset(setup.x0.data(), setup.v0.data());
            since_reset = 0;
            if (!small) state.ResumeTiming();
        }
        step(sys, lane, kDt);
        benchmark::DoNotOptimize(lane.x.data());
        benchmark::ClobberMemory();
        ++since_reset;
        ++steps;
    }
    evaluations += lane.force_evaluations;
    report(state, steps, sys.bodies(), static_cast<double>(evaluations), lane.x[0].x);
}

// The ensemble: one body on the benchmark's spring, kEnsembleCopies copies starting on a disc of
// radius 0.5 around (x, vx) = (1, 0) (a sunflower pattern: deterministic and even).
struct EnsembleSetup {
    stepwise::System system;
    std::vector<dvec2> x0, v0;  // per copy
};

const EnsembleSetup& ensemble_setup() {
    static const EnsembleSetup s = [] {
        EnsembleSetup e;
        e.system = spring_1().system;
        for (int k = 0; k < kEnsembleCopies; ++k) {
            const double rho = 0.5 * std::sqrt((k + 0.5) / kEnsembleCopies), phi = 2.399963229728653 * k;
            e.x0.push_back(dvec2(1.0 + rho * std::cos(phi), 0.0));
            e.v0.push_back(dvec2(rho * std::sin(phi), 0.0));
        }
        return e;
    }();
    return s;
}

void run_ensemble(benchmark::State& state, int index) {
    const EnsembleSetup& setup = ensemble_setup();
    stepwise::Ensemble ensemble(setup.system, index, kEnsembleCopies, &setup.x0[0], &setup.v0[0]);
    for (int k = 0; k < kEnsembleCopies; ++k) ensemble.set_start(k, &setup.x0[k], &setup.v0[k]);
    ensemble.reset();
    long long steps = 0, since_reset = 0;
    double evaluations = 0.0;
    for (auto _ : state) {
        if (since_reset == kRestartSteps) {
            state.PauseTiming();
            evaluations += ensemble.force_evaluations();
            ensemble.reset();
            since_reset = 0;
            state.ResumeTiming();
        }
        ensemble.step(kDt);
        benchmark::DoNotOptimize(ensemble.x(0));
        benchmark::ClobberMemory();
        ++since_reset;
        ++steps;
    }
    evaluations += ensemble.force_evaluations();
    report(state, steps, ensemble.copies() * ensemble.bodies(), evaluations, ensemble.x(0)[0]);
}

}  // namespace

int main(int argc, char** argv) {
    const auto& table = stepwise::integrators();
    for (int i = 0; i < static_cast<int>(table.size()); ++i)
        benchmark::RegisterBenchmark((std::string("spring_1/") + table[i].id).c_str(),
                                     [i](benchmark::State& st) { run(st, spring_1(), i); });
    for (int i = 0; i < static_cast<int>(table.size()); ++i)
        benchmark::RegisterBenchmark(("cloud_" + std::to_string(kCloudBodies) + "/" + table[i].id).c_str(),
                                     [i](benchmark::State& st) { run(st, cloud(), i); })
            ->Unit(benchmark::kMicrosecond);
    for (int i = 0; i < static_cast<int>(table.size()); ++i)
        benchmark::RegisterBenchmark(("ensemble_" + std::to_string(kEnsembleCopies) + "/" + table[i].id).c_str(),
                                     [i](benchmark::State& st) { run_ensemble(st, i); })
            ->Unit(benchmark::kMicrosecond);

    // Default minimum time per benchmark, unless the command line sets one; --isa=NAME is ours.
    std::vector<char*> args{argv[0]};
    bool has_min_time = false;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        if (arg.rfind("--isa=", 0) == 0) {
            if (!stepwise::ensemble_isa::choose(arg.substr(6))) {
                std::fprintf(stderr, "unknown or unsupported instruction set in %s\n", argv[a]);
                return 1;
            }
            continue;
        }
        if (arg.rfind("--benchmark_min_time", 0) == 0) has_min_time = true;
        args.push_back(argv[a]);
    }
    benchmark::AddCustomContext("ensemble_isa", stepwise::ensemble_isa::current());
    static char default_min_time[] = "--benchmark_min_time=0.5";
    if (!has_min_time) args.insert(args.begin() + 1, default_min_time);
    int args_count = static_cast<int>(args.size());
    args.push_back(nullptr);
    benchmark::Initialize(&args_count, args.data());
    if (benchmark::ReportUnrecognizedArguments(args_count, args.data())) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
