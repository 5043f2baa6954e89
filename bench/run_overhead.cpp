// What `stepwise run` costs on top of the steps it takes (docs/benchmarks.md, "The CLI's own
// work"): for each config, the CPU time of Simulation::frame() over N steps in this process
// against the CPU time of `CLI run QUERY --steps N --every N` (two rows printed, so nearly all
// of its time is the loop: its steps, its budget's clock and its progress), for each CLI given.
// Rounds interleave the two (a loaded machine slows both alike); medians are printed.
//   stepwise_run_overhead [--rounds=N] CLI [CLI ...]
#include "bench_timing.hpp"
#include "config.hpp"
#include "simulation.hpp"

#include <cstdio>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace stepwise;

namespace {

struct Case {
    const char* name;
    const char* query;
    long long steps;
};

// The lanes whose work the CLI does not know in advance (it read the clock and built its progress
// text every step for them), and a fixed-step lane beside an rk45 reference.
const Case cases[] = {
    {"implicit_euler, spring", "scenario=spring&integrators=implicit_euler&duration=100000", 2000000},
    {"rk45, spring", "scenario=spring&integrators=rk45&duration=100000", 2000000},
    {"rk4, rk45 reference (Duffing)", "scenario=spring&integrators=rk4&fx=-c1*x%5E3&c1=1&duration=100000", 300000},
    {"semi_implicit_euler, spring", "scenario=spring&integrators=semi_implicit_euler&duration=100000", 5000000},
};

double frames_seconds(const Config& c, long long steps) {
    Simulation sim(c);
    sim.measure_dissipated(false);  // as the CLI's CSV
    const double start = bench_timing::cpu_seconds();
    for (long long k = 0; k < steps; ++k) sim.frame();
    volatile double sink = sim.error(0, 0);  // brings the reference up, as the CLI's last row does
    (void)sink;
    return bench_timing::cpu_seconds() - start;
}

// The child's user + system CPU time.
double cli_seconds(const char* cli, const Case& c) {
    const std::string steps = std::to_string(c.steps);
    std::fflush(stdout);  // else the child prints what this process has buffered
    const pid_t pid = fork();
    if (pid == 0) {
        std::freopen("/dev/null", "w", stdout);
        std::freopen("/dev/null", "w", stderr);
        execl(cli, cli, "run", c.query, "--steps", steps.c_str(), "--every", steps.c_str(), "--budget", "86400",
              static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return NAN;
    const auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
    return s(usage.ru_utime) + s(usage.ru_stime);
}

}  // namespace

int main(int argc, char** argv) {
    int rounds = 5;
    std::vector<const char*> clis;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--rounds=", 0) == 0) rounds = std::max(1, std::atoi(arg.c_str() + 9));
        else clis.push_back(argv[i]);
    }
    if (clis.empty()) {
        std::fprintf(stderr, "usage: stepwise_run_overhead [--rounds=N] CLI [CLI ...]\n");
        return 64;
    }
    std::printf("config | steps | frame() s | ");
    for (const char* cli : clis) std::printf("%s s, ratio | ", cli);
    std::printf("\n");
    for (const Case& c : cases) {
        const ParseResult parsed = parse_config(c.query);
        if (!parsed.ok()) {
            std::fprintf(stderr, "%s: %s\n", c.query, parsed.errors[0].message.c_str());
            return 1;
        }
        std::vector<double> frames;
        std::vector<std::vector<double>> runs(clis.size());
        for (int r = 0; r < rounds; ++r) {
            frames.push_back(frames_seconds(parsed.config, c.steps));
            for (size_t k = 0; k < clis.size(); ++k) runs[k].push_back(cli_seconds(clis[k], c));
        }
        const double f = bench_timing::median(frames);
        std::printf("%s | %lld | %.3f | ", c.name, c.steps, f);
        for (const auto& run : runs) {
            const double t = bench_timing::median(run);
            std::printf("%.3f, %.2f | ", t, t / f);
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}
