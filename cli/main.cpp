// stepwise: the native command line. run / list / check over the one config format.
#include "config.hpp"
#include "integrators.hpp"
#include "simulation.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace stepwise;

namespace {

const char* usage =
    "usage:\n"
    "  stepwise run 'QUERY' [--steps N | --until T] [--every K] [--format csv|json]\n"
    "  stepwise list\n"
    "  stepwise check 'QUERY'\n"
    "QUERY is the config format, e.g. 'preset=damped_spring' or\n"
    "  'scenario=spring&integrators=explicit_euler,rk4&dt=0.01&k=15&b=0.1&x0=1000,0'\n";

int fail_usage(const std::string& why) {
    std::fprintf(stderr, "stepwise: %s\n%s", why.c_str(), usage);
    return 64;
}

void print_errors(const ParseResult& r) {
    for (const ConfigError& e : r.errors) std::fprintf(stderr, "error: %s\n", e.message.c_str());
}

// %.17g: every double printed reads back exactly.
std::string num(double x) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) {
        const unsigned char u = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += ch;
        } else if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

bool parse_count(const char* text, long long& out) {
    char* end = nullptr;
    const long long v = std::strtoll(text, &end, 10);
    if (!end || *end != '\0' || v < 0) return false;
    out = v;
    return true;
}

// Pads to a width in characters, not bytes (names hold "ö", "–" and "½").
std::string pad(const std::string& s, size_t width) {
    size_t chars = 0;
    for (unsigned char c : s) chars += (c & 0xC0) != 0x80;
    return chars >= width ? s + " " : s + std::string(width - chars, ' ');
}

int cmd_list() {
    std::printf("Integrators\n");
    std::printf("%-22s %-34s %-14s %5s %5s %-10s %-9s %s\n", "id", "name", "family", "order", "evals", "symplectic",
                "implicit", "description");
    for (const IntegratorInfo& i : integrators()) {
        std::printf("%s%s%s%5d %5d %-10s %-9s %s\n", pad(i.id, 23).c_str(), pad(i.name, 35).c_str(),
                    pad(i.family, 15).c_str(), i.order, i.force_evaluations, i.symplectic ? "yes" : "no",
                    i.implicit ? "yes" : "no", i.description);
    }
    std::printf("\nScenarios\n");
    for (const ScenarioInfo& s : scenarios()) {
        std::printf("%-12s %s\n", s.id, s.description);
        for (const ParamSpec& p : s.params) {
            std::string def = format_number(p.def[0]);
            if (p.dims == 2) def += "," + format_number(p.def[1]);
            std::printf("    %-8s %-18s default %-10s range %s%s .. %s %s\n", p.key, p.label, def.c_str(),
                        p.min_exclusive ? "> " : "", format_number(p.min).c_str(), format_number(p.max).c_str(),
                        p.unit);
        }
    }
    std::printf("\nShared keys: v=1, scenario, preset, integrators (comma list), dt (> 0, at most 10 s), "
                "duration (> 0, at most 100000 s)\n");
    std::printf("\nPresets\n");
    for (const PresetInfo& p : presets()) std::printf("%-20s %s\n", p.id, p.description);
    return 0;
}

int cmd_check(const std::string& query) {
    const ParseResult r = parse_config(query);
    if (!r.ok()) {
        print_errors(r);
        return 2;
    }
    std::printf("%s\n", normalise(r.config).c_str());
    return 0;
}

int cmd_run(int argc, char** argv) {
    if (argc < 3) return fail_usage("run needs a QUERY");
    const std::string query = argv[2];
    long long steps = -1, every = 1;
    double until = -1.0;
    std::string format = "csv";
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        if (i + 1 >= argc) return fail_usage("option " + arg + " needs a value");
        const char* value = argv[++i];
        if (arg == "--steps") {
            if (!parse_count(value, steps)) return fail_usage("--steps must be a whole number >= 0");
        } else if (arg == "--until") {
            char* end = nullptr;
            until = std::strtod(value, &end);
            if (!end || *end != '\0' || !std::isfinite(until) || until < 0.0)
                return fail_usage("--until must be a finite time >= 0 in seconds");
        } else if (arg == "--every") {
            if (!parse_count(value, every) || every < 1) return fail_usage("--every must be a whole number >= 1");
        } else if (arg == "--format") {
            format = value;
            if (format != "csv" && format != "json") return fail_usage("--format must be csv or json");
        } else {
            return fail_usage("unknown option " + arg);
        }
    }
    if (steps >= 0 && until >= 0.0) return fail_usage("give --steps or --until, not both");
    const ParseResult r = parse_config(query);
    if (!r.ok()) {
        print_errors(r);
        return 2;
    }
    const Config& c = r.config;
    if (until >= 0.0) steps = static_cast<long long>(std::ceil(until / c.dt - 1e-9));
    if (steps < 0) steps = static_cast<long long>(std::ceil(c.duration / c.dt - 1e-9));
    if (steps > static_cast<long long>(max_steps)) return fail_usage("at most 10000000 steps per run");

    Simulation sim(c);
    const bool csv = format == "csv";
    bool first_row = true;
    auto emit = [&]() {
        const double t = sim.time();
        for (int l = 0; l < sim.lanes(); ++l) {
            const double e = sim.energy(l);
            for (int b = 0; b < sim.bodies(); ++b) {
                const dvec2 x = sim.lane(l).x[b], v = sim.lane(l).v[b];
                const double err = sim.error(l, b);
                if (csv) {
                    std::printf("%s,%s,%d,%s,%s,%s,%s,%s,%s\n", num(t).c_str(), sim.info(l).id, b, num(x.x).c_str(),
                                num(x.y).c_str(), num(v.x).c_str(), num(v.y).c_str(), num(e).c_str(),
                                num(err).c_str());
                } else {
                    std::printf("%s\n    {\"t\": %s, \"integrator\": \"%s\", \"body\": %d, \"x\": %s, \"y\": %s, "
                                "\"vx\": %s, \"vy\": %s, \"energy\": %s, \"error\": %s}",
                                first_row ? "" : ",", num(t).c_str(), sim.info(l).id, b, num(x.x).c_str(),
                                num(x.y).c_str(), num(v.x).c_str(), num(v.y).c_str(), num(e).c_str(),
                                num(err).c_str());
                    first_row = false;
                }
            }
        }
    };
    if (csv) {
        std::printf("t,integrator,body,x,y,vx,vy,energy,error\n");
    } else {
        std::printf("{\n  \"config\": %s,\n  \"reference\": \"%s\",\n  \"dt\": %s,\n  \"steps\": %lld,\n  \"rows\": [",
                    json_string(normalise(c)).c_str(), reference_name(sim.reference_kind()), num(c.dt).c_str(), steps);
    }
    emit();
    for (long long k = 1; k <= steps; ++k) {
        sim.step();
        if (k % every == 0) emit();
    }
    if (csv) {
        std::fprintf(stderr, "reference: %s\n", reference_name(sim.reference_kind()));
    } else {
        std::printf("\n  ],\n  \"integrators\": [");
    }
    for (int l = 0; l < sim.lanes(); ++l) {
        const IntegratorInfo& info = sim.info(l);
        if (csv) {
            if (sim.diverged(l))
                std::fprintf(stderr, "%s diverged at t = %s s and stopped advancing\n", info.id,
                             num(sim.diverged_at(l)).c_str());
        } else {
            std::printf("%s\n    {\"id\": \"%s\", \"name\": %s, \"order\": %d, \"symplectic\": %s, \"diverged\": %s, "
                        "\"diverged_at\": %s, \"energy\": %s, \"energy_drift\": %s, \"dissipated\": %s, "
                        "\"force_evaluations\": %lld}",
                        l ? "," : "", info.id, json_string(info.name).c_str(), info.order,
                        info.symplectic ? "true" : "false", sim.diverged(l) ? "true" : "false",
                        sim.diverged(l) ? num(sim.diverged_at(l)).c_str() : "null", num(sim.energy(l)).c_str(),
                        num(sim.energy_drift(l)).c_str(), num(sim.dissipated(l)).c_str(),
                        sim.lane(l).force_evaluations);
        }
    }
    if (!csv) std::printf("\n  ]\n}\n");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return fail_usage("no command given");
    const std::string cmd = argv[1];
    if (cmd == "list") return argc == 2 ? cmd_list() : fail_usage("list takes no arguments");
    if (cmd == "check") return argc == 3 ? cmd_check(argv[2]) : fail_usage("check takes one QUERY");
    if (cmd == "run") return cmd_run(argc, argv);
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        std::printf("%s", usage);
        return 0;
    }
    return fail_usage("unknown command '" + cmd + "'");
}
