// stepwise: the native command line. run / list / check over the one config format.
#include "cloud.hpp"
#include "config.hpp"
#include "exact.hpp"
#include "integrators.hpp"
#include "rows.hpp"
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
    "  stepwise cloud 'QUERY' [--steps N | --until T] [--every K] [--format csv|json]\n"
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
    std::string out;
    append_number(out, x);
    return out;
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
    std::printf("\nScenarios (shared keys: v=1, scenario, preset, integrators (comma list), dt (> 0, at most 10 s), "
                "duration (> 0, at most 100000 s))\n");
    for (const ScenarioInfo& s : scenarios()) {
        std::printf("\n%s: %s\n  %s\n", s.id, s.name, s.description);
        std::printf("  reference:  %s\n  phase plot: %s\n  keys:\n", s.reference, s.phase_plot);
        for (const ParamSpec& p : s.params) {
            std::string def = format_number(p.def[0]);
            if (p.dims == 2) def += "," + format_number(p.def[1]);
            const std::string range = std::string(p.min_exclusive ? "> " : "") + format_number(p.min) + " .. " +
                                      format_number(p.max) + " " + p.unit;
            std::printf("    %-8s %s%s%s — %s\n", p.key, pad(p.dims == 2 ? "vector" : "number", 7).c_str(),
                        pad("default " + def, 20).c_str(), pad("range " + range, 32).c_str(), p.meaning);
        }
        std::printf("  presets:\n");
        for (const PresetInfo& p : s.presets) std::printf("    %-28s %s\n", p.id, p.description);
    }
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

// What run and cloud share: the query, then --steps N | --until T, --every K, --format.
struct RunOptions {
    ParseResult parsed;
    long long steps = -1, every = 1;
    std::string format = "csv";
};

// Parses argv[2..] into o; returns 0, or the exit code after printing what is wrong.
int parse_run_options(int argc, char** argv, const char* command, RunOptions& o) {
    if (argc < 3) return fail_usage(std::string(command) + " needs a QUERY");
    double until = -1.0;
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        if (i + 1 >= argc) return fail_usage("option " + arg + " needs a value");
        const char* value = argv[++i];
        if (arg == "--steps") {
            if (!parse_count(value, o.steps)) return fail_usage("--steps must be a whole number >= 0");
        } else if (arg == "--until") {
            char* end = nullptr;
            until = std::strtod(value, &end);
            if (!end || *end != '\0' || !std::isfinite(until) || until < 0.0)
                return fail_usage("--until must be a finite time >= 0 in seconds");
        } else if (arg == "--every") {
            if (!parse_count(value, o.every) || o.every < 1) return fail_usage("--every must be a whole number >= 1");
        } else if (arg == "--format") {
            o.format = value;
            if (o.format != "csv" && o.format != "json") return fail_usage("--format must be csv or json");
        } else {
            return fail_usage("unknown option " + arg);
        }
    }
    if (o.steps >= 0 && until >= 0.0) return fail_usage("give --steps or --until, not both");
    o.parsed = parse_config(argv[2]);
    if (!o.parsed.ok()) {
        print_errors(o.parsed);
        return 2;
    }
    const Config& c = o.parsed.config;
    if (until >= 0.0) o.steps = static_cast<long long>(std::ceil(until / c.dt - 1e-9));
    if (o.steps < 0) o.steps = static_cast<long long>(std::ceil(c.duration / c.dt - 1e-9));
    if (o.steps > static_cast<long long>(max_steps)) return fail_usage("at most 10000000 steps per run");
    return 0;
}

int cmd_run(int argc, char** argv) {
    RunOptions o;
    if (const int failed = parse_run_options(argc, argv, "run", o)) return failed;
    const Config& c = o.parsed.config;
    const long long steps = o.steps, every = o.every;
    const std::string format = o.format;

    Simulation sim(c);
    const bool csv = format == "csv";
    bool first_row = true;
    std::string text;
    auto emit = [&]() {
        text.clear();
        if (csv) append_csv_rows(text, sim); else append_json_rows(text, sim, first_row);
        std::fputs(text.c_str(), stdout);
    };
    if (csv) {
        std::fputs(csv_header, stdout);
    } else {
        text.clear();
        append_json_head(text, sim, steps);
        std::fputs(text.c_str(), stdout);
    }
    emit();
    for (long long k = 1; k <= steps; ++k) {
        sim.step();
        if (k % every == 0) emit();
    }
    if (csv) {
        std::fprintf(stderr, "reference: %s\n", reference_name(sim.reference_kind()));
        if (sim.reference_stopped())
            std::fprintf(stderr, "the reference stopped at t = %s s (%s)\n", num(sim.reference_stopped_at()).c_str(),
                         stop_reason_name(sim.reference_stop_reason()));
        for (int l = 0; l < sim.lanes(); ++l) {
            const char* id = sim.info(l).id;
            const std::string at = num(sim.diverged_at(l));
            if (sim.stop_reason(l) == StopReason::collision)
                std::fprintf(stderr, "%s fell into the central body at t = %s s and stopped advancing\n", id, at.c_str());
            else if (sim.diverged(l))
                std::fprintf(stderr, "%s diverged at t = %s s and stopped advancing\n", id, at.c_str());
        }
    } else {
        text.clear();
        append_json_tail(text, sim);
        std::fputs(text.c_str(), stdout);
    }
    return 0;
}

// The phase-space cloud of every integrator in the query (and of the exact flow where the
// scene has a closed form): the area ratio of the disc's rim and how many points are finite.
int cmd_cloud(int argc, char** argv) {
    RunOptions o;
    if (const int failed = parse_run_options(argc, argv, "cloud", o)) return failed;
    const Config& c = o.parsed.config;
    if (c.cloud < 1) {
        std::fprintf(stderr, "error: cloud must be a whole number from 1 to %d for stepwise cloud (points per "
                             "integrator); got '%d'\n", max_cloud_points, c.cloud);
        return 2;
    }
    const Scene scene = build_scene(c);
    std::vector<PhaseCloud> clouds;
    clouds.reserve(c.integrators.size());
    for (int id : c.integrators) clouds.emplace_back(scene, id, c.cloud, c.cloud_radius);
    std::optional<ExactCloud> exact;
    if (has_closed_form(scene.system, scene.x0.data(), scene.v0.data())) exact.emplace(scene, c.cloud, c.cloud_radius, 0);
    const bool csv = o.format == "csv";
    // Rows per integrator (JSON groups them), printed at the end for JSON.
    std::vector<std::string> json_rows(clouds.size() + 1);
    std::string line;
    auto row = [&](size_t slot, const char* id, double t, std::optional<double> ratio, int finite) {
        line.clear();
        if (csv) {
            append_number(line, t);
            line += ',';
            line += id;
            line += ',';
            if (ratio) append_number(line, *ratio);  // empty once the rim is no longer finite
            line += ',' + std::to_string(finite) + '\n';
            std::fputs(line.c_str(), stdout);
            return;
        }
        std::string& out = json_rows[slot];
        out += out.empty() ? "\n        {\"t\": " : ",\n        {\"t\": ";
        append_number(out, t);
        out += ", \"area_ratio\": ";
        if (ratio) append_number(out, *ratio); else out += "null";
        out += ", \"points_finite\": " + std::to_string(finite) + "}";
    };
    auto emit = [&](long long step) {
        const double t = static_cast<double>(step) * c.dt;
        for (size_t l = 0; l < clouds.size(); ++l)
            row(l, integrators()[c.integrators[l]].id, t, clouds[l].area_ratio(), clouds[l].points_finite());
        if (exact) {
            exact->at(t);
            row(clouds.size(), "exact", t, exact->area_ratio(), c.cloud);
        }
    };
    if (csv) std::fputs("t,integrator,area_ratio,points_finite\n", stdout);
    emit(0);
    for (long long k = 1; k <= o.steps; ++k) {
        for (PhaseCloud& cloud : clouds) cloud.step(c.dt);
        if (k % o.every == 0) emit(k);
    }
    if (csv) return 0;
    std::string out = "{\n  \"config\": " + json_string(normalise(c)) + ",\n  \"points\": " + std::to_string(c.cloud) +
                      ",\n  \"radius\": ";
    append_number(out, c.cloud_radius);
    out += ",\n  \"integrators\": [";
    for (size_t l = 0; l <= clouds.size(); ++l) {
        if (l == clouds.size() && !exact) break;
        const char* id = l < clouds.size() ? integrators()[c.integrators[l]].id : "exact";
        out += std::string(l ? "," : "") + "\n    {\"id\": \"" + id + "\", \"rows\": [" + json_rows[l] + "\n    ]}";
    }
    out += "\n  ]\n}\n";
    std::fputs(out.c_str(), stdout);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return fail_usage("no command given");
    const std::string cmd = argv[1];
    if (cmd == "list") return argc == 2 ? cmd_list() : fail_usage("list takes no arguments");
    if (cmd == "check") return argc == 3 ? cmd_check(argv[2]) : fail_usage("check takes one QUERY");
    if (cmd == "run") return cmd_run(argc, argv);
    if (cmd == "cloud") return cmd_cloud(argc, argv);
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        std::printf("%s", usage);
        return 0;
    }
    return fail_usage("unknown command '" + cmd + "'");
}
