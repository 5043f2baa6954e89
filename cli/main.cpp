// stepwise: the native command line. run / trace / list / check / cloud / convergence / stability
// over the one config format.
#include "cloud.hpp"
#include "config.hpp"
#include "convergence.hpp"
#include "exact.hpp"
#include "expression.hpp"
#include "integrators.hpp"
#include "rows.hpp"
#include "simulation.hpp"
#include "stability.hpp"
#include "tables.hpp"
#include "trace.hpp"
#include "work.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

using namespace stepwise;

namespace {

const char* usage =
    "usage:\n"
    "  stepwise run 'QUERY' [--steps N | --until T] [--every K] [--format csv|json] [--budget S]   (with loop=: N frames)\n"
    "  stepwise trace 'QUERY' [--integrator ID] [--step N] [--format csv|json]\n"
    "  stepwise cloud 'QUERY' [--steps N | --until T] [--every K] [--format csv|json] [--budget S]\n"
    "  stepwise convergence 'QUERY' [--halvings N] [--in dt|iterations] [--format csv|json] [--budget S]\n"
    "  stepwise stability ['QUERY'] [--format csv|json]\n"
    "  stepwise list [--format text|json]\n"
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

// "; got 'VALUE'" for a message, the value shortened at a character boundary and made printable.
std::string got(const char* value) { return "; got '" + printable_text(value) + "'"; }

// An option's value is checked with the config format's own number rules (parse_number: a plain
// decimal, no spaces, no hex, no inf or nan) and its range is checked as a double, before any
// arithmetic or cast. A count is further written with digits only: no sign, point or exponent.
struct Count {
    const char* option;
    long long min, max;
    const char* note;  // after the range in the message, or ""

    std::string allowed() const {
        return "a whole number from " + std::to_string(min) + " to " + std::to_string(max) + note + ", digits only";
    }
    // "" with out set, or what is wrong.
    std::string read(const char* value, long long& out) const {
        const std::string_view text(value);
        const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
        const std::optional<double> x = digits ? parse_number(text) : std::nullopt;
        if (!x || *x < static_cast<double>(min) || *x > static_cast<double>(max))
            return std::string(option) + " must be " + allowed() + got(value);
        out = static_cast<long long>(*x);
        return "";
    }
};

const long long max_run_steps = static_cast<long long>(max_steps);
const Count steps_count{"--steps", 0, max_run_steps, " steps of dt"};
const Count every_count{"--every", 1, max_run_steps, ""};
const Count halvings_count{"--halvings", 0, max_halvings, ""};
const Count step_count{"--step", 0, max_run_steps - 1, " (a step of the run: below its duration / dt)"};
const std::string until_allowed = "a time in seconds >= 0 written as a plain decimal number (e.g. 2.5 or 1e3; no hex, "
                                  "inf or nan), at most " + std::to_string(max_run_steps) + " steps of dt";
const std::string format_allowed = "csv or json";
const std::string axis_allowed = "dt (halve dt at every level) or iterations (double a solver lane's iterations at its dt)";

// ---- Work bounds (docs/cli.md, "How much work a command does") ---------------------------
// Work known in advance is counted in force evaluations: a fixed-step lane costs its table's
// evaluations per step; rk45 and implicit Euler cost at least theirs (6 per substep, 2 per step)
// and the rk45 reference at least 6 per step. A command whose known work exceeds this is refused
// before it starts, naming the keys to change: at about 10 ns an evaluation here, 5e8 is a few
// seconds.
constexpr double max_known_evaluations = 5e8;
// What cannot be known in advance (rk45's substeps, the rk45 reference, Newton's iterations) is
// bounded in time instead: a command stops at this budget (wall-clock seconds; --budget S) with a
// message saying how far it got, and exits with status 3.
constexpr double default_budget_seconds = 60.0;
constexpr int exit_budget = 3;
// The copies of a cloud stepped between two looks at the budget (Watch reads the clock by work).
constexpr int cloud_part = 64;
const std::string budget_allowed = "seconds of run time, a plain decimal number from 0.001 to 86400 (default 60)";

// What a config's work is made of, read once: the force evaluations a step of its lanes and of
// its reference costs at least (a closed-form reference counts as one, the rk45 reference as at
// least 6), and the parts whose work is not known in advance, which the budget is there for.
struct Work {
    double lanes_per_step = 0.0;
    double reference_per_step = 0.0;
    bool adaptive = false, implicit = false, rk45_reference = false;

    // with_reference: the command runs the reference (run and convergence do, cloud does not).
    bool unknown(bool with_reference) const { return adaptive || implicit || (with_reference && rk45_reference); }
    // "rk45's adaptive substeps and the rk45 reference", or "nothing".
    std::string unknown_parts(bool with_reference) const {
        std::vector<std::string> parts;
        if (adaptive) parts.push_back("rk45's adaptive substeps");
        if (implicit) parts.push_back("implicit Euler's Newton iterations");
        if (with_reference && rk45_reference) parts.push_back("the rk45 reference");
        std::string out;
        for (size_t i = 0; i < parts.size(); ++i) out += (i ? (i + 1 == parts.size() ? " and " : ", ") : "") + parts[i];
        return out.empty() ? "nothing" : out;
    }
};

Work work_of(const Config& c) {
    Work w;
    for (const LaneSpec& lane : c.integrators) {
        const IntegratorInfo& info = integrators()[static_cast<size_t>(lane.integrator)];
        w.lanes_per_step += lane_evaluations(lane);
        w.adaptive = w.adaptive || info.adaptive;
        w.implicit = w.implicit || info.implicit;
    }
    const Scene scene = build_scene(c);
    w.rk45_reference = !has_closed_form(scene.system, scene.x0.data(), scene.v0.data());
    w.reference_per_step = w.rk45_reference ? 6.0 : 1.0;
    return w;
}

// The run-time budget and, when stderr is a terminal, a progress line once a command has run a
// second (rewritten in place at most five times a second, cleared at the end). run and cloud read
// the clock by work (over(work, …): once per work_between_clock_reads units, core/work.hpp), so a
// cheap step does not pay for the clock and a costly one does not pass the budget by more than
// that much work; the progress text is built only when it is printed.
class Watch {
public:
    Watch(const char* command, double budget)
        : command_(command), tty_(isatty(STDERR_FILENO) != 0), meter_(budget, [this] { return elapsed(); }) {}
    ~Watch() { clear(); }
    double elapsed() const { return std::chrono::duration<double>(clock::now() - start_).count(); }
    // Reads the clock now (convergence: between its slices of bounded work).
    bool over() const { return elapsed() > meter_.budget(); }
    // work: the command's work so far; fraction and where(): as for progress, where() called only
    // to print.
    template <class Where>
    bool over(long long work, double fraction, Where&& where) {
        const long long reads = meter_.reads();
        if (meter_.over(work)) return true;
        if (meter_.reads() != reads) progress(fraction, where, meter_.elapsed());
        return false;
    }
    double budget() const { return meter_.budget(); }
    // fraction: 0 … 1 of the planned work; where(): what it is doing ("level 3 of 5").
    template <class Where>
    void progress(double fraction, Where&& where, double t = -1.0) {
        if (!tty_) return;
        if (t < 0.0) t = elapsed();
        if (t < 1.0 || t - printed_at_ < 0.2) return;
        printed_at_ = t;
        std::fprintf(stderr, "\r\033[K%s: %.0f %%, %s, %.0f s (budget %s s)", command_,
                     100.0 * std::clamp(fraction, 0.0, 1.0), std::string(where()).c_str(), t,
                     format_number(meter_.budget()).c_str());
        std::fflush(stderr);
        shown_ = true;
    }
    void clear() {
        if (!shown_) return;
        std::fputs("\r\033[K", stderr);
        std::fflush(stderr);
        shown_ = false;
    }

private:
    using clock = std::chrono::steady_clock;
    const char* command_;
    bool tty_;
    clock::time_point start_ = clock::now();
    WorkMeter meter_;
    double printed_at_ = 0.0;
    bool shown_ = false;
};

// "step 12 of 200", for a progress line.
auto step_of(const long long& k, long long steps) {
    return [&k, steps] { return "step " + std::to_string(k) + " of " + std::to_string(steps); };
}

// --budget's value into budget; "" or what is wrong.
std::string take_budget(const char* value, double& budget) {
    const std::optional<double> x = parse_number(value);
    if (!x || !(*x >= 0.001) || !(*x <= 86400.0)) return "--budget must be " + budget_allowed + got(value);
    budget = *x;
    return "";
}

// The message of a command stopped at its budget: how far it got, what was not known in
// advance, and the keys that shorten it (keys, then dropping the lanes whose work is unknown).
void report_budget(const Watch& w, const char* command, const Work& work, bool with_reference,
                   const std::string& how_far, const std::string& keys) {
    std::fprintf(stderr,
                 "stepwise %s: stopped at its run-time budget of %s s (--budget) after %s; the work of %s is not known "
                 "in advance. To finish sooner: %s%s, or give a larger --budget\n",
                 command, format_number(w.budget()).c_str(), how_far.c_str(),
                 work.unknown_parts(with_reference).c_str(), keys.c_str(),
                 work.unknown(false) ? ", drop rk45 and implicit_euler from integrators" : "");
}

// An option of a command: its name and what its value may be.
struct Option {
    const char* name;
    std::string allowed;
};

// Reads the `--option value` pairs from argv[first] on. take(option, value) returns "" when it
// accepts the value, else what is wrong. An argument that is not one of the command's options is
// reported as such (even as the last one), an option given twice or without a value too. Returns
// 0, or the usage exit code after the message.
template <class Take>
int read_options(int argc, char** argv, int first, const char* command, std::initializer_list<Option> options,
                 Take take) {
    std::string names;
    for (const Option& o : options) names += (names.empty() ? "" : ", ") + std::string(o.name);
    std::vector<std::string> seen;
    for (int i = first; i < argc; ++i) {
        const std::string arg = argv[i];
        const Option* option = nullptr;
        for (const Option& o : options)
            if (arg == o.name) option = &o;
        if (!option)
            return fail_usage("unknown option '" + printable_text(arg) + "' for " + command + "; its options: " + names);
        if (std::find(seen.begin(), seen.end(), arg) != seen.end())
            return fail_usage("option " + arg + " is given twice; give each option once");
        seen.push_back(arg);
        if (i + 1 >= argc) return fail_usage("option " + arg + " needs a value: " + option->allowed);
        const std::string why = take(arg, argv[++i]);
        if (!why.empty()) return fail_usage(why);
    }
    return 0;
}

// --format's value into format; "" or what is wrong.
std::string take_format(const char* value, std::string& format) {
    format = value;
    return format == "csv" || format == "json" ? "" : "--format must be " + format_allowed + got(value);
}

// A query as argv[index], when there is one that is not an option.
bool has_query(int argc, char** argv, int index) { return argc > index && std::strncmp(argv[index], "--", 2) != 0; }

// The config of a query, or the exit code after printing every error.
int parse_query(const char* query, Config& out) {
    const ParseResult r = parse_config(query);
    if (!r.ok()) {
        print_errors(r);
        return 2;
    }
    out = r.config;
    return 0;
}

// Pads to a width in characters, not bytes (names hold "ö", "–" and "½").
std::string pad(const std::string& s, size_t width) {
    size_t chars = 0;
    for (unsigned char c : s) chars += (c & 0xC0) != 0x80;
    return chars >= width ? s + " " : s + std::string(width - chars, ' ');
}

int cmd_list(int argc, char** argv) {
    std::string format = "text";
    const int failed = read_options(argc, argv, 2, "list", {{"--format", "text or json"}},
                                    [&](const std::string&, const char* value) -> std::string {
                                        format = value;
                                        return format == "text" || format == "json"
                                                   ? ""
                                                   : "list's --format must be text or json" + got(value);
                                    });
    if (failed) return failed;
    if (format == "json") {
        std::fputs(tables_json().c_str(), stdout);
        return 0;
    }
    std::printf("Integrators (order: the global order of the position error, by kind of system)\n");
    std::printf("%-22s %-34s %-14s %5s %-10s %-9s %s\n", "id", "name", "family", "evals", "symplectic", "implicit",
                "description");
    for (const IntegratorInfo& i : integrators()) {
        std::printf("%s%s%s%5d %-10s %-9s %s\n", pad(i.id, 23).c_str(), pad(i.name, 35).c_str(),
                    pad(i.family, 15).c_str(), i.force_evaluations, i.symplectic ? "yes" : "no",
                    i.implicit ? "yes" : "no", i.description);
        std::printf("    %s\n", orders_summary(i.orders).c_str());
        if (*i.order_note) std::printf("    %s\n", i.order_note);
    }
    std::printf("\nKinds of system (stepwise run --format json names the one a config is in):\n");
    for (int r = 0; r < order_regimes; ++r)
        std::printf("  %-20s %s\n", regime_id(static_cast<OrderRegime>(r)), regime_text(static_cast<OrderRegime>(r)));
    // The keys every scenario shares, from their table (the loop's and the written force's below,
    // with their own tables).
    std::printf("\nShared keys (every scenario and scene):\n");
    for (const SharedKey& k : shared_keys()) {
        if (std::strcmp(k.group, "loop") == 0 && std::strcmp(k.key, "loop") != 0) continue;
        if (std::strcmp(k.group, "force") == 0) continue;
        std::string allowed = allowed_text(k.allowed);
        if (std::strcmp(k.key, "integrators") == 0)
            allowed = "at most " + std::to_string(max_lanes()) + " lanes, substeps 1 .. " + std::to_string(max_lane_substeps) +
                      ", a solver's iterations 1 .. " + std::to_string(max_lane_iterations) + ", at most " +
                      std::to_string(max_lane_passes) + " passes a step";
        else if (k.allowed.empty())
            allowed = std::string("a ") + k.key + "'s id (below)";
        std::printf("  %-14s %-7s %s — %s\n", k.key, k.group, allowed.c_str(), k.meaning);
    }
    std::printf("\nScenarios:\n");
    std::string kinds;
    for (const LoopKindInfo& k : loop_kinds()) kinds += (kinds.empty() ? "" : " | ") + std::string(k.id);
    std::printf("\nGame loop (shared keys; absent: no loop, steps of dt as before):\n  loop      %s\n", kinds.c_str());
    for (const LoopKindInfo& k : loop_kinds()) std::printf("    %-12s %s\n", k.id, k.description);
    for (const LoopKeySpec& k : loop_keys())
        std::printf("  %-9s %s%s — %s (read by loop=%s%s)\n", k.key, pad("default " + format_number(k.def), 14).c_str(),
                    pad(loop_key_allowed(k).substr(0, loop_key_allowed(k).find(" (")), 34).c_str(), k.meaning,
                    loop_key_loops(k).c_str(), k.needs_jitter ? ", with jitter > 0" : "");
    std::printf("  rules: %s\n", loop_rules);
    {
        // The written force (issue 22 §3; core/expression.hpp, core/forces/written_force.hpp).
        std::string vars, funcs;
        for (std::string_view v : expr_variable_names()) vars += (vars.empty() ? "" : " ") + std::string(v);
        for (std::string_view f : expr_function_names()) funcs += (funcs.empty() ? "" : " ") + std::string(f);
        std::printf("\nA force law you write (shared keys, every scenario and scene; absent: no such force):\n"
                    "  fx, fy    expressions of the force (N) on every body, added to the scenario's own forces; "
                    "either may be left out (0); a = F/m\n"
                    "  c1 .. c4  numbers from %s to %s, given exactly when fx or fy reads them\n"
                    "  variables: %s (each body's own x, y, vx, vy and mass m; t the time)\n"
                    "  operators: + - * / ^ and unary minus, parentheses; ^ is right-associative and binds tighter "
                    "than unary minus (-x^2 is -(x^2)); x^n with a whole |n| <= %d is repeated multiplication\n"
                    "  functions: %s (min max pow atan2 take two arguments)\n"
                    "  numbers as in the config (0.5, 2e-3); at most %d characters and %d levels of nesting\n"
                    "  reference rk45 (no closed form); kinematic: the semi-implicit terms; energy: the potential "
                    "−∫fx dx − ∫fy dy when fx reads x alone and fy y alone (and neither t, vx, vy), else its "
                    "work is not in E nor in dissipated\n"
                    "  example: fx=-c1*x-c2*x^3&c1=4&c2=0.5 (Duffing), fx=-c1*x+c2*cos(c3*t)&c1=4&c2=1&c3=3 (driven)\n",
                    format_number(-written_constant_max).c_str(), format_number(written_constant_max).c_str(),
                    vars.c_str(), expr_max_int_power, funcs.c_str(), expr_max_length, expr_max_depth);
    }
    for (const ScenarioInfo& s : scenarios()) {
        std::printf("\n%s: %s\n  %s\n", s.id, s.name, s.description);
        std::printf("  reference:  %s\n  phase plot: %s\n", s.reference, s.phase_plot);
        if (!s.rules.empty()) std::printf("  rules:      %s\n", s.rules.c_str());
        std::printf("  keys:\n");
        for (const ParamSpec& p : s.params) {
            std::string def = format_number(p.def[0]);
            if (p.dims == 2) def += "," + format_number(p.def[1]);
            const std::string range = std::string(p.min_exclusive ? "> " : "") + format_number(p.min) + " .. " +
                                      format_number(p.max) + " " + p.unit;
            std::printf("    %-8s %s%s%s — %s\n", p.key, pad(p.dims == 2 ? "vector" : "number", 7).c_str(),
                        pad("default " + def, 20).c_str(), pad("range " + range, 32).c_str(), p.meaning);
        }
        if (s.default_scene) {
            std::printf("    %-8s %s%s — the bodies, anchors, springs and links: items KIND:ARGUMENTS,FIELD:VALUE,… "
                        "separated by ';', at most %zu characters, %d bodies, %d anchors, %d springs and links; ends "
                        "are bN (body N) or aN (anchor N), counted from 0 in the order made:\n",
                        "scene", pad("text", 7).c_str(), pad(std::string("default ") + s.default_scene, 20).c_str(),
                        max_scene_length, max_scene_bodies, max_scene_anchors, max_scene_joins);
            for (const SceneKindInfo& k : scene_kinds()) {
                std::string fields;
                for (const SceneFieldSpec& f : k.fields) {
                    std::string def = std::isnan(f.def) ? "derived" : f.words.empty() ? format_number(f.def)
                                                                                     : f.words[static_cast<size_t>(f.def)];
                    fields += (fields.empty() ? "" : "; ") + std::string(f.name) + " (" + def + ") " + f.meaning;
                }
                std::printf("      %-6s %s%s%s\n", k.id, k.meaning, fields.empty() ? "" : ": ", fields.c_str());
            }
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
    double budget = default_budget_seconds;
};

// Parses argv[2..] into o; returns 0, or the exit code after printing what is wrong.
int parse_run_options(int argc, char** argv, const char* command, RunOptions& o) {
    if (!has_query(argc, argv, 2)) return fail_usage(std::string(command) + " needs a QUERY");
    std::optional<double> until;
    const char* until_text = "";
    const int failed = read_options(argc, argv, 3, command,
                                    {{"--steps", steps_count.allowed()},
                                     {"--until", until_allowed},
                                     {"--every", every_count.allowed()},
                                     {"--format", format_allowed},
                                     {"--budget", budget_allowed}},
                                    [&](const std::string& arg, const char* value) -> std::string {
        if (arg == "--steps") return steps_count.read(value, o.steps);
        if (arg == "--every") return every_count.read(value, o.every);
        if (arg == "--format") return take_format(value, o.format);
        if (arg == "--budget") return take_budget(value, o.budget);
        until_text = value;
        until = parse_number(value);
        return until && *until >= 0.0 ? "" : "--until must be " + until_allowed + got(value);
    });
    if (failed) return failed;
    if (o.steps >= 0 && until) return fail_usage("give --steps or --until, not both");
    o.parsed = parse_config(argv[2]);
    if (!o.parsed.ok()) {
        print_errors(o.parsed);
        return 2;
    }
    const Config& c = o.parsed.config;
    const double dt = c.dt;
    // With a game loop the run counts frames of 1/hz (its rows are frames), else steps of dt.
    const bool looped = c.loop.kind != LoopKind::none;
    auto count_of = [&](double seconds) { return looped ? seconds * c.loop.hz : seconds / dt; };
    if (until) {
        // In double, before the cast: a time of 1e300 is 1e302 steps, beyond any integer type.
        const double steps = std::ceil(count_of(*until) - 1e-9);
        if (!(steps <= max_steps))
            return fail_usage("--until must be at most " + format_number(looped ? max_steps / c.loop.hz : max_steps * dt) +
                              " s at " + (looped ? "hz = " + format_number(c.loop.hz) : "dt = " + format_number(dt)) +
                              " (at most " + std::to_string(max_run_steps) + (looped ? " frames" : " steps") +
                              " per run)" + got(until_text));
        o.steps = static_cast<long long>(std::max(0.0, steps));
    }
    // The config keeps duration / dt within max_steps (and a loop's dt is at most a frame).
    if (o.steps < 0) o.steps = static_cast<long long>(std::ceil(count_of(c.duration) - 1e-9));
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
    if (csv) sim.measure_dissipated(false);  // no CSV column holds it
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
    // A frame of the game loop, or (without one) a step; the clock is read by work (Watch).
    Watch watch("run", o.budget);
    const Work work = work_of(c);
    const SimulationWork work_so_far(sim);
    long long done = steps;
    for (long long k = 1; k <= steps; ++k) {
        sim.frame();
        if (k % every == 0) emit();
        if (watch.over(work_so_far(), static_cast<double>(k) / static_cast<double>(steps), step_of(k, steps))) {
            done = k;
            break;
        }
    }
    watch.clear();
    if (csv) {
        std::fprintf(stderr, "reference: %s\n", reference_name(sim.reference_kind()));
        if (const WrittenLaw& w = sim.scene().system.written; !w.no_potential.empty())
            std::fprintf(stderr, "energy: %s\n", message_text(w.no_potential, w.no_potential_args).c_str());
        if (const FrameLoop* loop = sim.frame_loop()) {
            std::fprintf(stderr, "game loop: %s; %lld frames, %lld physics steps%s\n",
                         describe_loop(loop->settings()).c_str(), sim.frames(), loop->steps_taken(),
                         c.loop.kind == LoopKind::accumulator ? " (rows: the render state lerp(previous, current, alpha))" : "");
            if (loop->dropped_steps() > 0) std::fprintf(stderr, "%s\n", dropped_text(*loop).c_str());
        }
        if (sim.reference_stopped())
            std::fprintf(stderr,
                         "the reference %s at t = %s s and stopped: the error column is empty from then on "
                         "(there is nothing to measure against)\n",
                         stop_reason_text(sim.reference_stop_reason()), exact_text(sim.reference_stopped_at()).c_str());
        if (sim.has_tolerance_study() && sim.reference_trusted_until() >= 0.0)
            std::fprintf(stderr,
                         "the reference is exact to %s m only until t = %s s: there it parts from itself at a tenth of "
                         "its tolerance (rk45 at rtol %s against %s; the motion is chaotic); errors after that "
                         "measure the reference too\n",
                         format_significant(trusted_error * std::max(1.0, sim.scene().mechanism_size), 3).c_str(),
                         format_number(sim.reference_trusted_until()).c_str(), format_number(reference_rtol).c_str(),
                         format_number(shadow_rtol).c_str());
        if (sim.has_closed_form_horizon() && sim.reference_trusted_until() >= 0.0)
            std::fprintf(stderr,
                         "the closed form is exact to %s m only until t = %s s: there it parts from itself started "
                         "one rounding away (near the separatrix every error grows as e^(omega t)); errors after "
                         "that measure the reference too\n",
                         format_significant(trusted_error * std::max(1.0, sim.scene().mechanism_size), 3).c_str(),
                         format_number(sim.reference_trusted_until()).c_str());
        for (int l = 0; l < sim.lanes(); ++l) {
            if (!sim.diverged(l)) continue;
            std::fprintf(stderr, "%s %s at t = %s s and stopped advancing\n", sim.id(l).c_str(),
                         stop_reason_text(sim.stop_reason(l)), exact_text(sim.diverged_at(l)).c_str());
        }
    } else {
        text.clear();
        append_json_tail(text, sim);
        std::fputs(text.c_str(), stdout);
    }
    if (done < steps) {
        report_budget(watch, "run", work, true,
                      std::to_string(done) + " of " + std::to_string(steps) + (c.loop.kind != LoopKind::none ? " frames" : " steps") +
                          " (t = " + format_number(sim.time()) + " s)",
                      "raise dt, shorten duration (or --steps)");
        return exit_budget;
    }
    return 0;
}

// The phase-space cloud of every integrator in the query (and of the exact flow where the
// scene has a closed form, or of the constrained reference on rigid links): the area ratio of the
// disc's rim in the scene's cloud plane and how many points are finite.
int cmd_cloud(int argc, char** argv) {
    RunOptions o;
    if (const int failed = parse_run_options(argc, argv, "cloud", o)) return failed;
    const Config& c = o.parsed.config;
    if (c.cloud < 1) {
        std::fprintf(stderr, "error: cloud must be a whole number from 1 to %d for stepwise cloud (points per "
                             "integrator); got '%d'\n", max_cloud_points, c.cloud);
        return 2;
    }
    // Known work: every point of every cloud steps o.steps times.
    const Work work = work_of(c);
    const double known = static_cast<double>(o.steps) * c.cloud * work.lanes_per_step;
    if (known > max_known_evaluations) {
        std::fprintf(stderr, "error: stepwise cloud would take at least %s force evaluations (%lld steps x %d points x "
                             "the integrators' evaluations per step); at most %s per command: lower cloud, raise dt or "
                             "shorten duration (or --steps), or give fewer integrators\n",
                     format_number(known).c_str(), o.steps, c.cloud, format_number(max_known_evaluations).c_str());
        return 2;
    }
    const Scene scene = build_scene(c);
    std::vector<PhaseCloud> clouds;
    clouds.reserve(c.integrators.size());
    for (const LaneSpec& lane : c.integrators)
        clouds.emplace_back(scene, lane, c.cloud, c.cloud_radius, cloud_boundary_points, c.pbd_stiffness);
    std::vector<std::string> lane_ids;
    for (const LaneSpec& lane : c.integrators) lane_ids.push_back(lane_id(lane));
    std::optional<ExactCloud> exact;
    if (ExactCloud::available(scene)) exact.emplace(scene, c.cloud, c.cloud_radius, 0, c.dt);
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
            row(l, lane_ids[l].c_str(), t, clouds[l].area_ratio(), clouds[l].points_finite());
        if (exact) {
            exact->at(t);
            row(clouds.size(), "exact", t, exact->area_ratio(), c.cloud);
        }
    };
    if (csv) std::fputs("t,integrator,area_ratio,points_finite\n", stdout);
    emit(0);
    Watch watch("cloud", o.budget);
    // The clouds' work so far: each cloud's copies, every lane's evaluations weighed as in work.hpp.
    const auto work_so_far = [&] {
        long long total = 0;
        for (size_t l = 0; l < clouds.size(); ++l) total += work_done(clouds[l], scene.system, c.integrators[l]);
        return total;
    };
    long long done = o.steps;
    for (long long k = 1; k <= o.steps && done == o.steps; ++k) {
        // A step of each cloud, cloud_part copies at a time with the budget read between them (a
        // step of 1,000 points of a stiff cloth took 52 s). A step stopped inside is not printed:
        // the rows end at the last whole step.
        const double fraction = static_cast<double>(k - 1) / static_cast<double>(o.steps);
        const auto over = [&] { return watch.over(work_so_far(), fraction, step_of(k, o.steps)); };
        for (PhaseCloud& cloud : clouds)
            if (!cloud.step(c.dt, cloud_part, over)) {
                done = k - 1;
                break;
            }
        if (done < o.steps) break;
        if (k % o.every == 0) emit(k);
        if (over()) done = k;
    }
    watch.clear();
    const bool stopped = done < o.steps;
    if (stopped)
        report_budget(watch, "cloud", work, exact && exact->stepped(),
                      std::to_string(done) + " of " + std::to_string(o.steps) + " steps (t = " +
                          format_number(static_cast<double>(done) * c.dt) + " s)",
                      "lower cloud, raise dt, shorten duration (or --steps)");
    if (csv) {
        for (size_t l = 0; l < clouds.size(); ++l)
            if (clouds[l].needs_compliance())
                std::fprintf(stderr, "%s %s: its cloud stays at the start (no area, no finite points)\n",
                             lane_ids[l].c_str(), stop_reason_text(StopReason::needs_compliance));
        return stopped ? exit_budget : 0;
    }
    std::string out = "{\n  \"config\": " + json_string(normalise(c)) + ",\n  \"points\": " + std::to_string(c.cloud) +
                      ",\n  \"radius\": ";
    append_number(out, c.cloud_radius);
    // The plane is named where it is not body 0's (x, vx), which the documents before it meant.
    if (scene.cloud.plane != CloudPlane::body_x)
        out += std::string(",\n  \"plane\": ") + json_string(cloud_plane_text(scene.cloud.plane));
    out += ",\n  \"integrators\": [";
    for (size_t l = 0; l <= clouds.size(); ++l) {
        if (l == clouds.size() && !exact) break;
        const std::string id = l < clouds.size() ? lane_ids[l] : "exact";
        const bool rigid = l < clouds.size() && clouds[l].needs_compliance();
        out += std::string(l ? "," : "") + "\n    {\"id\": \"" + id + "\"" +
               (rigid ? ", \"stopped\": \"" + std::string(stop_reason_name(StopReason::needs_compliance)) + "\"" : "") +
               ", \"rows\": [" + json_rows[l] + "\n    ]}";
    }
    out += "\n  ]\n}\n";
    std::fputs(out.c_str(), stdout);
    return stopped ? exit_budget : 0;
}

// A number for JSON, or null when there is none (JSON has no NaN or Infinity).
std::string json_number(bool present, double x) { return present && std::isfinite(x) ? exact_text(x) : "null"; }
// A number for a CSV field, or an empty field.
std::string csv_number(bool present, double x) { return present && std::isfinite(x) ? exact_text(x) : ""; }

// A row of an iterations study in words: where its error went as the iterations doubled.
std::string iterations_verdict(const ConvergenceStudy& study, int row) {
    const IterationsTrend t = study.iterations_trend(row);
    if (!t.valid)
        return "no trend (" + std::to_string(study.levels_done()) + " finished level" +
               (study.levels_done() == 1 ? "" : "s") + " with the lane running to the end; two are needed)";
    const auto count = [](int n) { return std::to_string(n) + (n == 1 ? " iteration" : " iterations"); };
    std::string text = "max error " + format_significant(t.first_error, 3) + " m at " + count(t.first_iterations) +
                       ", " + format_significant(t.last_error, 3) + " m at " + count(t.last_iterations) +
                       "; the last doubling changed it by " + format_significant(100.0 * t.last_change, 2) + " %";
    if (t.at_floor) return text + ": at the noise floor, the exact motion as far as the reference can tell";
    if (t.settled)
        return text + ": settled on the step's own error at dt = " + format_number(study.config().dt) +
               ", not the exact motion (more substeps or a smaller dt reduce it; more iterations do not)";
    return text + ": still changing";
}

// The same system at dt, dt/2, …, dt/2^N: each integrator's error and cost per level, and the
// order fitted to them (stderr in CSV, "order" in JSON).
int cmd_convergence(int argc, char** argv) {
    if (!has_query(argc, argv, 2)) return fail_usage("convergence needs a QUERY");
    long long halvings = default_halvings;
    std::string format = "csv";
    double budget = default_budget_seconds;
    StudyAxis axis = StudyAxis::dt;
    const int failed = read_options(argc, argv, 3, "convergence",
                                    {{"--halvings", halvings_count.allowed()}, {"--in", axis_allowed},
                                     {"--format", format_allowed}, {"--budget", budget_allowed}},
                                    [&](const std::string& arg, const char* value) -> std::string {
        if (arg == "--halvings") return halvings_count.read(value, halvings);
        if (arg == "--budget") return take_budget(value, budget);
        if (arg == "--in") {
            const std::string_view v = value;
            if (v != "dt" && v != "iterations") return "--in must be " + axis_allowed + got(value);
            axis = v == "dt" ? StudyAxis::dt : StudyAxis::iterations;
            return "";
        }
        return take_format(value, format);
    });
    if (failed) return failed;
    Config c;
    if (const int bad = parse_query(argv[2], c)) return bad;
    if (c.loop.kind != LoopKind::none) {
        std::fprintf(stderr, "error: loop=%s cannot be used by stepwise convergence: it halves dt itself; drop loop "
                             "(and its keys) and give dt\n", loop_kind_id(c.loop.kind));
        return 2;
    }
    const bool by_iterations = axis == StudyAxis::iterations;
    if (by_iterations && std::none_of(c.integrators.begin(), c.integrators.end(), has_iterations)) {
        std::string lanes;
        for (const LaneSpec& lane : c.integrators) lanes += (lanes.empty() ? "" : ", ") + lane_id(lane);
        std::fprintf(stderr, "error: stepwise convergence --in iterations needs a lane with iterations (a game-physics "
                             "solver: pbd, xpbd, soft_step, sequential_impulses or vbd); the integrators given: %s\n",
                     lanes.empty() ? "none" : lanes.c_str());
        return 2;
    }
    // Known work: level j runs duration / dt_j steps of every lane (at its iterations) and the
    // reference. The finest levels that would take the command past max_known_evaluations are
    // dropped (as the study drops those past its cap in lane-steps); a level 0 that alone exceeds
    // it is refused.
    const ConvergenceStudy plan(c, static_cast<int>(halvings), default_convergence_work, axis);
    const Work work = work_of(plan.config());
    int fitting = 0;
    for (double total = 0.0; fitting <= halvings; ++fitting) {
        const Config level = plan.level_config(fitting);
        const Work at = work_of(level);
        total += std::round(level.duration / level.dt) * (at.lanes_per_step + at.reference_per_step);
        if (total > max_known_evaluations) break;
    }
    if (fitting == 0) {
        std::fprintf(stderr, "error: stepwise convergence would take at least %s force evaluations at dt = %s alone "
                             "(duration / dt steps x the integrators' and the reference's evaluations per step); at "
                             "most %s per command: raise dt or shorten duration, or give fewer integrators\n",
                     format_number(std::round(c.duration / c.dt) * (work.lanes_per_step + work.reference_per_step)).c_str(),
                     format_number(c.dt).c_str(), format_number(max_known_evaluations).c_str());
        return 2;
    }
    ConvergenceStudy study(c, std::min(static_cast<int>(halvings), fitting - 1), default_convergence_work, axis);
    if (by_iterations)
        for (const LaneSpec& lane : c.integrators)
            if (!has_iterations(lane))
                std::fprintf(stderr, "%s: left out (its method has no iterations; --in dt studies it)\n",
                             lane_id(lane).c_str());
    Watch watch("convergence", budget);
    const bool unknown = work.unknown(true);  // the reference included: the study runs it
    // Slices of 1000 lane-steps (rk45 at its substep limit: about 0.1 s each) between looks at
    // the clock; the points do not depend on where the slices fall.
    while (!study.advance(unknown ? 1000.0 : 1e6)) {
        if (watch.over()) break;
        watch.progress(study.progress(), [&] {
            return "level " + std::to_string(study.levels_done() + 1) + " of " + std::to_string(study.levels());
        });
    }
    watch.clear();
    const bool stopped = !study.finished();
    if (stopped)
        report_budget(watch, "convergence", work, true,
                      std::to_string(study.levels_done()) + " of " + std::to_string(study.levels()) +
                          " levels (" + format_fixed(100.0 * study.progress(), 0) + " % of the work); the rows hold the "
                          "finished levels",
                      "raise dt, shorten duration, ask for fewer --halvings");
    if (study.levels() < static_cast<int>(halvings) + 1)
        std::fprintf(stderr, "kept %d of %d levels: the finer ones would take more than %s lane-steps or %s force "
                             "evaluations%s\n",
                     study.levels(), static_cast<int>(halvings) + 1, exact_text(default_convergence_work).c_str(),
                     format_number(max_known_evaluations).c_str(),
                     by_iterations ? (", or more than " + std::to_string(max_lane_iterations) + " iterations or " +
                                      std::to_string(max_lane_passes) + " passes a step")
                                         .c_str()
                                   : "");
    const bool csv = format == "csv";
    // Along the iterations axis a level is the lane's iterations (dt is fixed); along dt, its dt.
    const char* level_key = study_axis_id(axis);
    const auto level_value = [&](const ConvergencePoint& p) {
        return by_iterations ? std::to_string(p.iterations) : exact_text(p.dt);
    };
    std::string out = csv ? "integrator," + std::string(level_key) + ",evaluations,max_error,final_error\n"
                          : "{\n  \"config\": " + json_string(normalise(study.config())) + ",\n  \"reference\": \"" +
                                reference_name(study.reference()) + "\",\n  \"order_regime\": \"" +
                                regime_id(study.regime()) + "\",\n  " +
                                (by_iterations ? "\"axis\": \"iterations\",\n  \"doublings\": "
                                               : "\"halvings\": ") +
                                std::to_string(halvings) + ",\n  \"levels\": " + std::to_string(study.levels()) +
                                ",\n  \"noise_floor\": " + exact_text(study.noise_floor()) + ",\n  \"integrators\": [";
    for (int row = 0; row < study.integrators(); ++row) {
        const IntegratorInfo& info = integrators()[study.integrator_index(row)];
        const std::string lane = lane_id(study.config().integrators[static_cast<size_t>(row)]);
        const char* id = lane.c_str();
        const OrderFit fit = study.fit(row);
        const Order claim = expected_order(info, study.regime());
        if (csv) {
            for (int level = 0; level < study.levels_done(); ++level) {
                const ConvergencePoint& p = study.point(row, level);
                out += lane + ',' + level_value(p) + ',' + std::to_string(p.evaluations) + ',' +
                       exact_text(p.max_error) + ',' + exact_text(p.final_error) + '\n';
            }
            if (by_iterations)
                std::fprintf(stderr, "%s: %s\n", id, iterations_verdict(study, row).c_str());
            else if (fit.valid)
                std::fprintf(stderr, "%s: order %s over %d levels (table: %s)\n", id,
                             format_fixed(fit.order, 3).c_str(), fit.points, order_text(claim));
            else
                std::fprintf(stderr, "%s: no order (%d level%s above the noise floor; table: %s)\n", id,
                             fit.points, fit.points == 1 ? "" : "s", order_text(claim));
            continue;
        }
        out += std::string(row ? "," : "") + "\n    {\"id\": " + json_string(lane) + ", \"name\": " + json_string(info.name) +
               (by_iterations ? ", \"verdict\": " + json_string(iterations_verdict(study, row))
                              : ", \"table_order\": " + order_json(claim) + ", \"order\": " +
                                    json_number(fit.valid, fit.order) + ", \"fitted_points\": " +
                                    std::to_string(fit.points)) +
               ", \"rows\": [";
        for (int level = 0; level < study.levels_done(); ++level) {
            const ConvergencePoint& p = study.point(row, level);
            const bool stopped = p.stop != StopReason::none;
            out += std::string(level ? "," : "") + "\n      {\"" + level_key + "\": " + level_value(p) +
                   ", \"evaluations\": " + std::to_string(p.evaluations) + ", \"max_error\": " +
                   json_number(true, p.max_error) + ", \"final_error\": " + json_number(true, p.final_error) +
                   ", \"stopped\": " + (stopped ? "\"" + std::string(stop_reason_name(p.stop)) + "\"" : "null") +
                   ", \"stopped_at\": " + json_number(stopped, p.stopped_at) + "}";
        }
        out += study.levels_done() ? "\n    ]}" : "]}";
    }
    if (csv) {
        std::fprintf(stderr, "reference: %s; noise floor %s; kind of system: %s (%s)\n",
                     reference_name(study.reference()), exact_text(study.noise_floor()).c_str(), regime_id(study.regime()),
                     regime_text(study.regime()));
    } else {
        out += study.integrators() ? "\n  ]\n}\n" : "]\n}\n";
    }
    std::fputs(out.c_str(), stdout);
    return stopped ? exit_budget : 0;
}

// The stages of one step (core/trace.hpp): step N (default 0, the first) of each integrator of the
// query, or of the one --integrator names, as the worked step of an exercise sheet.
int cmd_trace(int argc, char** argv) {
    if (!has_query(argc, argv, 2)) return fail_usage("trace needs a QUERY");
    long long step = 0;
    const char* step_text = nullptr;
    const char* integrator = nullptr;
    std::string format = "csv";
    const int failed = read_options(argc, argv, 3, "trace",
                                    {{"--integrator", "an integrator id of the query's integrators"},
                                     {"--step", step_count.allowed()},
                                     {"--format", format_allowed}},
                                    [&](const std::string& arg, const char* value) -> std::string {
        if (arg == "--step") {
            step_text = value;
            return step_count.read(value, step);
        }
        if (arg == "--integrator") {
            integrator = value;
            return "";
        }
        return take_format(value, format);
    });
    if (failed) return failed;
    Config c;
    if (const int bad = parse_query(argv[2], c)) return bad;
    const long long steps = run_steps(c);
    if (step_text && step >= steps)
        return fail_usage("--step must be a step of the run: a whole number from 0 to " + std::to_string(steps - 1) +
                          " (the query's duration / dt is " + std::to_string(steps) + " steps)" + got(step_text));
    std::vector<LaneSpec> ids = c.integrators;
    if (integrator) {
        // A lane by its id as the query writes it (xpbd@20x1, normalised as the query's lanes
        // are: xpbd@1000x10 is xpbd@1000), or by its method alone when one lane of the query has
        // that method.
        std::string names;
        std::vector<LaneSpec> found;
        const std::optional<LaneSpec> written = parse_lane_id(integrator);
        for (const LaneSpec& lane : c.integrators) {
            names += (names.empty() ? "" : ", ") + lane_id(lane);
            if (written && lane == *written) found = {lane};
        }
        if (found.empty())
            for (const LaneSpec& lane : c.integrators)
                if (written && written->substeps == 1 && written->iterations == 0 &&
                    lane.integrator == written->integrator)
                    found.push_back(lane);
        if (found.size() != 1)
            return fail_usage("--integrator must be one of the query's integrators (" + names + ")" + got(integrator) +
                              (found.size() > 1 ? " (several lanes use that method: name one with its settings)"
                               : find_integrator(std::string(integrator).substr(0, std::string(integrator).find('@'))) < 0
                                   ? " (no integrator has that id: stepwise list names them)"
                                   : " (add it to the query's integrators to trace it)"));
        ids = found;
    }
    const std::vector<LaneTrace> lanes = trace_step(c, step, ids, max_trace_rows);
    std::fputs(trace_text(c, step, lanes, format == "json").c_str(), stdout);
    for (const LaneTrace& lane : lanes)
        if (lane.stages_left_out > 0)
            std::fprintf(stderr,
                         "%s: the trace shows %zu of the step's %lld stages: the first %zu and the result (stepwise "
                         "trace prints at most %lld rows, stages x bodies, per integrator); trace fewer substeps or "
                         "iterations, or a system of fewer bodies, to see them all\n",
                         lane.id.c_str(), lane.stages.size(), static_cast<long long>(lane.stages.size()) + lane.stages_left_out,
                         lane.stages.size() - 1, max_trace_rows);
    if (format == "json") return 0;
    for (const LaneTrace& lane : lanes) {
        const char* id = lane.id.c_str();
        if (!lane.stepped) {
            if (lane.stop != StopReason::none)
                std::fprintf(stderr, "%s %s at t = %s s and stopped advancing: it has no step %lld to trace\n", id,
                             stop_reason_text(lane.stop), exact_text(lane.stopped_at).c_str(), step);
            else
                std::fprintf(stderr, "%s takes no step within %lld ticks of step %lld\n", id, max_trace_ticks, step);
            continue;
        }
        std::fprintf(stderr, "%s: step %lld, from t = %s s over h = %s s, %lld force evaluations\n", id, lane.step,
                     exact_text(lane.t).c_str(), exact_text(lane.h).c_str(), lane.force_evaluations);
        if (lane.stop != StopReason::none)
            std::fprintf(stderr, "%s %s on this step: the run keeps the state before it and stops the lane\n", id,
                         stop_reason_text(lane.stop));
    }
    return 0;
}

// Where each integrator is stable on the oscillator x'' = -ω² x - 2ζω x' (in ωh), and with a
// QUERY where the query's stiffest mode sits: its ωh, ζ and the largest stable dt.
int cmd_stability(int argc, char** argv) {
    const bool query = has_query(argc, argv, 2);
    std::string format = "csv";
    const int failed = read_options(argc, argv, query ? 3 : 2, "stability", {{"--format", format_allowed}},
                                    [&](const std::string&, const char* value) { return take_format(value, format); });
    if (failed) return failed;
    std::vector<LaneSpec> ids;
    StiffestMode mode;
    Config c;
    bool linked = false;  // a linked system's report names its stiffest mode's kind
    if (query) {
        if (const int bad = parse_query(argv[2], c)) return bad;
        if (c.loop.kind == LoopKind::variable) {
            std::fprintf(stderr, "error: loop=variable cannot be used by stepwise stability: its step changes every "
                                 "frame; use loop=fixed or accumulator (their step is 1/(hz·substeps))\n");
            return 2;
        }
        ids = c.integrators;
        const Scene scene = build_scene(c);
        mode = stiffest_mode(scene.system, scene.x0.data(), scene.v0.data());
        linked = !scene.system.links.empty();
    } else {
        for (size_t i = 0; i < integrators().size(); ++i) ids.push_back(static_cast<int>(i));
    }
    const bool csv = format == "csv";
    std::string out;
    if (csv) {
        out = "integrator,oscillator_limit,unconditional";
        if (query) out += ",omega_h,zeta,limit_at_zeta,largest_stable_dt,stable_now";
        out += '\n';
    } else {
        out = "{\n";
        if (query)
            out += "  \"config\": " + json_string(normalise(c)) + ",\n  \"oscillates\": " +
                   (mode.oscillates ? "true" : "false") + ",\n  \"omega\": " + json_number(mode.oscillates, mode.omega) +
                   ",\n  \"zeta\": " + json_number(mode.oscillates, mode.zeta) + ",\n" +
                   (linked ? "  \"mode\": \"" + std::string(mode_kind_id(mode.kind)) + "\",\n  \"modes\": " +
                                 std::to_string(mode.modes) + ",\n"
                           : "");
        out += "  \"integrators\": [";
    }
    for (size_t r = 0; r < ids.size(); ++r) {
        const int method = ids[r].integrator;
        const IntegratorInfo& info = integrators()[static_cast<size_t>(method)];
        const std::string id = lane_id(ids[r]);
        const StabilityLimit limit = oscillator_limit(method, 0.0);
        const bool bounded = !limit.unconditional;
        // At the query's damping; the largest stable dt only where the system oscillates.
        const LaneStability here = lane_stability(method, ids[r].substeps, mode, c.dt);
        const StabilityLimit& at_zeta = here.at_zeta;
        const bool bounded_here = !at_zeta.unconditional;
        const bool stable_now = here.stable_now;
        const double largest_dt = here.largest_dt;
        if (csv) {
            out += id + ',' + csv_number(bounded, limit.limit) + ',' + (bounded ? "0" : "1");
            if (query)
                out += ',' + exact_text(here.omega_dt) + ',' + exact_text(mode.zeta) + ',' + csv_number(bounded_here, at_zeta.limit) + ',' +
                       csv_number(here.has_largest, largest_dt) + ',' + (stable_now ? "1" : "0");
            out += '\n';
            continue;
        }
        out += std::string(r ? "," : "") + "\n    {\"id\": \"" + id + "\", \"name\": " + json_string(info.name) +
               ", \"adaptive\": " + (limit.adaptive ? "true" : "false") +
               ", \"unconditional\": " + (bounded ? "false" : "true") +
               ", \"oscillator_limit\": " + json_number(bounded, limit.limit);
        if (query)
            out += ", \"omega_h\": " + exact_text(here.omega_dt) + ", \"limit_at_zeta\": " + json_number(bounded_here, at_zeta.limit) +
                   ", \"largest_stable_dt\": " + json_number(here.has_largest, largest_dt) +
                   ", \"stable_now\": " + (stable_now ? "true" : "false");
        out += "}";
    }
    if (!csv) out += ids.empty() ? "]\n}\n" : "\n  ]\n}\n";
    std::fputs(out.c_str(), stdout);
    if (csv && linked && mode.oscillates)
        std::fprintf(stderr, "stiffest mode: %s, omega = %s rad/s, the stiffest of %d modes at the start%s\n",
                     mode_kind_text(mode.kind), exact_text(mode.omega).c_str(), mode.modes,
                     mode.kind == ModeKind::swing ? " (the rigid links' reduced coordinates)" : "");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return fail_usage("no command given");
    const std::string cmd = argv[1];
    if (cmd == "list") return cmd_list(argc, argv);
    if (cmd == "check") return argc == 3 ? cmd_check(argv[2]) : fail_usage("check takes one QUERY");
    if (cmd == "run") return cmd_run(argc, argv);
    if (cmd == "trace") return cmd_trace(argc, argv);
    if (cmd == "cloud") return cmd_cloud(argc, argv);
    if (cmd == "convergence") return cmd_convergence(argc, argv);
    if (cmd == "stability") return cmd_stability(argc, argv);
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        std::printf("%s", usage);
        return 0;
    }
    return fail_usage("unknown command '" + cmd + "'");
}
