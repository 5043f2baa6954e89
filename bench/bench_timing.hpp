// What the comparison benchmarks (ensemble_compare.cpp, lanes_compare.cpp) share: CPU time, the
// median over rounds, and their --name=value options.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

namespace bench_timing {

// CPU time of the process: what a busy shared machine's other work does not add to.
inline double cpu_seconds() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? NAN : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

// Reads the options argv[1..]: each "--name=value" whose name is a key of `options` sets that
// string (rounds too: "--rounds=N", at least 1). Returns false at the first other argument.
struct Option {
    const char* name;  // "--json="
    std::string* value;
};
inline bool read_options(int argc, char** argv, int& rounds, std::initializer_list<Option> options) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--rounds=", 0) == 0) {
            rounds = std::max(1, std::atoi(arg.c_str() + 9));
            continue;
        }
        const Option* o = std::find_if(options.begin(), options.end(),
                                       [&](const Option& o) { return arg.rfind(o.name, 0) == 0; });
        if (o == options.end()) return false;
        *o->value = arg.substr(std::string(o->name).size());
    }
    return true;
}

// The --profile= option, "ROW,ENGINE,RUNS": one row's one engine alone, for perf record.
struct ProfileRequest {
    std::string row, engine;
    int runs;
};
inline ProfileRequest read_profile(const std::string& text) {
    const size_t c1 = text.find(','), c2 = text.rfind(',');
    return {text.substr(0, c1), text.substr(c1 + 1, c2 - c1 - 1), std::atoi(text.c_str() + c2 + 1)};
}

}  // namespace bench_timing
