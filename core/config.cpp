#include "config.hpp"

#include "integrators.hpp"
#include "table_lookup.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace stepwise {

const char* const default_integrators = "explicit_euler,semi_implicit_euler,velocity_verlet,rk4";
const char* const default_scenario = "spring";

namespace {

std::optional<std::string> percent_decode(std::string_view in) {
    std::string out;
    out.reserve(in.size());
    auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    for (size_t i = 0; i < in.size(); ++i) {
        if (in[i] != '%') {
            out += in[i];
            continue;
        }
        if (i + 2 >= in.size()) return std::nullopt;  // '%' needs two hex digits after it
        const int hi = hex(in[i + 1]), lo = hex(in[i + 2]);
        if (hi < 0 || lo < 0) return std::nullopt;
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

std::string range_text(const ParamSpec& p) {
    std::string lo = format_number(p.min), hi = format_number(p.max);
    std::string what = p.dims == 2 ? "two numbers 'x,y', each " : "a number ";
    if (p.min_exclusive) return what + "> " + lo + " and at most " + hi;
    return what + "from " + lo + " to " + hi;
}

std::string join_ids(const std::vector<std::string>& ids) {
    std::string out;
    for (size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + ids[i];
    return out;
}

std::string known_integrators() {
    std::vector<std::string> ids;
    for (const auto& info : integrators()) ids.push_back(info.id);
    ids.push_back(reference_id);
    return join_ids(ids);
}

struct Pair {
    std::string key, value;
};

class Parser {
public:
    ParseResult result;
    bool integrators_given = false;  // by the link or its preset

    void error(const std::string& key, std::string_view value, const std::string& message) {
        if (result.errors.size() < max_errors) {
            result.errors.push_back({printable_text(key), printable_text(value), message});
        } else if (result.errors.size() == max_errors) {
            result.errors.push_back({"", "", "more errors were found; fix the ones above first"});
        }
    }

    // A key whose value is one row's id of a table (view, lang): its index, or an error naming
    // the known ids and leaving `out` alone.
    template <class Row>
    void parse_row_id(const char* key, const std::string& value, const std::vector<Row>& table, int& out) {
        const int index = index_of_id(table, value);
        if (index >= 0) {
            out = index;
            return;
        }
        std::vector<std::string> ids;
        for (const Row& row : table) ids.push_back(row.id);
        error(key, value, "unknown " + std::string(key) + " '" + printable_text(value) + "'; known: " + join_ids(ids));
    }

    std::vector<Pair> split(std::string_view query) {
        std::vector<Pair> pairs;
        if (!query.empty() && (query[0] == '?' || query[0] == '#')) query.remove_prefix(1);
        size_t count = 0;
        while (!query.empty()) {
            const size_t amp = query.find('&');
            std::string_view seg = query.substr(0, amp);
            query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
            if (seg.empty()) continue;
            if (++count > max_pairs) {
                error("", "", "too many key=value pairs; at most " + std::to_string(max_pairs) + " are read");
                break;
            }
            const size_t eq = seg.find('=');
            if (eq == std::string_view::npos) {
                error(std::string(seg), seg, "'" + printable_text(seg) + "' is not a key=value pair");
                continue;
            }
            if (eq == 0) {
                // "=1": nothing names what the value is for.
                error("", seg, "the pair '" + printable_text(seg) + "' has no key; write key=value, e.g. k=15");
                continue;
            }
            auto key = percent_decode(seg.substr(0, eq));
            if (!key) {
                error(std::string(seg.substr(0, eq)), seg.substr(0, eq),
                      "broken percent-encoding in key '" + printable_text(seg.substr(0, eq)) + "' (use %XX with two hex digits)");
                continue;
            }
            auto value = percent_decode(seg.substr(eq + 1));
            if (!value) {
                error(*key, seg.substr(eq + 1),
                      "broken percent-encoding in the value of " + printable_text(*key) + ": '" + printable_text(seg.substr(eq + 1)) +
                          "' (use %XX with two hex digits)");
                continue;
            }
            bool repeated = false;
            for (const Pair& p : pairs) repeated = repeated || p.key == *key;
            if (repeated) {
                error(*key, *value, "key '" + printable_text(*key) + "' is given more than once (again as '" + printable_text(*value) +
                                         "'); give each key once");
                continue;
            }
            pairs.push_back({std::move(*key), std::move(*value)});
        }
        return pairs;
    }

    void parse_integrators(const std::string& value, Config& c) {
        std::vector<int> list;
        bool reference = false;
        integrators_given = true;
        if (value.size() > max_value_length) {
            error("integrators", value, "integrators: the list '" + printable_text(value) + "' is too long; name each of the " +
                                            std::to_string(integrators().size()) + " integrators at most once");
            return;
        }
        size_t start = 0;
        while (start <= value.size()) {
            const size_t comma = value.find(',', start);
            const std::string id = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            start = comma == std::string::npos ? value.size() + 1 : comma + 1;
            const int index = find_integrator(id);
            if (id == reference_id) {
                if (reference)
                    error("integrators", id, "integrators: 'reference' is listed twice; list each integrator once");
                reference = true;
            } else if (id.empty()) {
                error("integrators", value, "integrators: empty name in the list '" + printable_text(value) +
                                                "'; separate integrator ids with single commas");
            } else if (index < 0) {
                error("integrators", id, "integrators: unknown integrator '" + printable_text(id) + "'; known: " + known_integrators());
            } else if (std::find(list.begin(), list.end(), index) != list.end()) {
                error("integrators", id, "integrators: '" + printable_text(id) + "' is listed twice; list each integrator once");
            } else {
                list.push_back(index);
            }
        }
        if (!list.empty() || reference) {  // keep the valid ones; the errors say what was dropped
            c.integrators = list;
            c.reference = reference;
        }
    }

    bool parse_scalar(const std::string& key, const std::string& value, double lo, double hi, bool lo_exclusive,
                      const std::string& allowed, double& out) {
        const auto x = parse_number(value);
        if (!x || (lo_exclusive ? !(*x > lo) : !(*x >= lo)) || !(*x <= hi)) {
            error(key, value, key + " must be " + allowed + "; got '" + printable_text(value) + "'");
            return false;
        }
        out = *x;
        return true;
    }

    void parse_param(const ParamSpec& p, size_t offset, const std::string& value, Config& c) {
        const std::string allowed = range_text(p);
        if (p.dims == 1) {
            double x;
            if (parse_scalar(p.key, value, p.min, p.max, p.min_exclusive, allowed, x)) c.values[offset] = x;
            return;
        }
        const size_t comma = value.find(',');
        double xy[2];
        const bool ok = comma != std::string::npos &&
                        parse_number(value.substr(0, comma)).has_value() &&
                        parse_number(value.substr(comma + 1)).has_value();
        if (!ok) {
            error(p.key, value, std::string(p.key) + " must be " + allowed + "; got '" + printable_text(value) + "'");
            return;
        }
        xy[0] = *parse_number(value.substr(0, comma));
        xy[1] = *parse_number(value.substr(comma + 1));
        for (double v : xy) {
            if (!(v >= p.min && v <= p.max) || (p.min_exclusive && v == p.min)) {
                error(p.key, value, std::string(p.key) + " must be " + allowed + "; got '" + printable_text(value) + "'");
                return;
            }
        }
        c.values[offset] = xy[0];
        c.values[offset + 1] = xy[1];
    }

    // A system with links: the force-based defaults cannot step a rod, and the phase cloud needs
    // a way to leave the start that keeps the links (Scene::cloud).
    void check_linked(Config& c) {
        const Scene scene = build_scene(c.scenario, c.values, c.duration);
        const System& s = scene.system;
        if (s.links.empty()) return;
        if (!integrators_given && s.has_rigid_links()) {
            // Rigid links and no methods asked for: every force-based default would stop with
            // needs_compliance; show the exact motion instead.
            c.integrators.clear();
            c.reference = true;
        }
        // The scene says how its cloud leaves the start (Scene::cloud): a pendulum and a chain turn
        // rigidly about their anchor; a system that has no such way refuses the cloud with its reason.
        if (scene.cloud.plane != CloudPlane::none) return;
        const std::string allowed = std::string(scenarios()[static_cast<size_t>(c.scenario)].id) +
                                    " has no phase cloud (" + scene.cloud.why +
                                    "); the pendulum and the chain have one, in the first link's angle and its rate";
        if (c.cloud > 0) {
            error("cloud", std::to_string(c.cloud),
                  "cloud=" + std::to_string(c.cloud) + " cannot be used here: " + allowed + "; drop cloud (0 is allowed)");
            c.cloud = 0;
        }
        if (std::string_view(views()[static_cast<size_t>(c.view)].id) == "cloud") {
            error("view", "cloud", "view=cloud cannot be used here: " + allowed + "; use another view");
            c.view = 0;
        }
    }

    // depth 0: a user's query; depth 1: a preset's own query (which holds no preset).
    void parse(std::string_view query, int depth) {
        std::vector<Pair> pairs = split(query);
        auto find = [&](const char* key) -> const Pair* {
            for (const Pair& p : pairs)
                if (p.key == key) return &p;
            return nullptr;
        };
        Config& c = result.config;
        if (const Pair* v = find("v"); v && v->value != std::to_string(config_version)) {
            error("v", v->value, "v must be 1 (the link format's version); got '" + printable_text(v->value) + "'");
        }
        const Pair* preset = depth == 0 ? find("preset") : nullptr;
        const Pair* scenario = find("scenario");
        int preset_index = -1;
        if (preset) {
            preset_index = find_preset(preset->value);
            if (preset_index < 0) {
                std::vector<std::string> ids;
                for (const auto& p : presets()) ids.push_back(p.id);
                error("preset", preset->value, "unknown preset '" + printable_text(preset->value) + "'; known: " + join_ids(ids));
            }
        }
        int scenario_index = find_scenario(default_scenario);
        if (scenario) {
            const int s = find_scenario(scenario->value);
            if (s < 0) {
                std::vector<std::string> ids;
                for (const auto& sc : scenarios()) ids.push_back(sc.id);
                error("scenario", scenario->value,
                      "unknown scenario '" + printable_text(scenario->value) + "'; known: " + join_ids(ids));
            } else {
                scenario_index = s;
            }
        }
        if (preset_index >= 0) {
            Parser inner;
            inner.parse(presets()[preset_index].query, 1);
            c = inner.result.config;
            integrators_given = inner.integrators_given;
            if (scenario && find_scenario(scenario->value) >= 0 && scenario_index != c.scenario) {
                error("scenario", scenario->value,
                      "scenario '" + printable_text(scenario->value) + "' does not match preset '" + preset->value +
                          "', which is a " + scenarios()[c.scenario].id + " scenario; drop one of them");
            }
            scenario_index = c.scenario;
        } else {
            c = default_config(scenario_index);
        }
        const Config base = c;  // before the link's own keys
        const ScenarioInfo& info = scenarios()[scenario_index];
        for (const Pair& p : pairs) {
            const std::string& k = p.key;
            if (k == "v" || k == "scenario" || (k == "preset" && depth == 0)) continue;
            if (p.value.size() > max_value_length && k != "integrators") {
                error(k, p.value, "the value of " + printable_text(k) + ", '" + printable_text(p.value) + "', is too long (" +
                                      std::to_string(p.value.size()) + " characters; at most " +
                                      std::to_string(max_value_length) + ")");
                continue;
            }
            if (k == "integrators") {
                parse_integrators(p.value, c);
            } else if (k == "dt") {
                parse_scalar("dt", p.value, 0.0, dt_max, true, "a number > 0 and at most 10", c.dt);
            } else if (k == "duration") {
                parse_scalar("duration", p.value, 0.0, duration_max, true, "a number > 0 and at most 100000",
                             c.duration);
            } else if (k == "cloud") {
                const std::string allowed = "a whole number from 0 (off) to " + std::to_string(max_cloud_points);
                double n = 0.0;
                if (parse_scalar("cloud", p.value, 0.0, max_cloud_points, false, allowed, n)) {
                    if (n != std::floor(n)) error("cloud", p.value, "cloud must be " + allowed + "; got '" + printable_text(p.value) + "'");
                    else c.cloud = static_cast<int>(n);
                }
            } else if (k == "cloud_radius") {
                parse_scalar("cloud_radius", p.value, min_cloud_radius, max_cloud_radius, false,
                             "a number from " + format_number(min_cloud_radius) + " to " +
                                 format_number(max_cloud_radius) + " (metres along x, m/s along vx)",
                             c.cloud_radius);
            } else if (k == "view") {
                parse_row_id("view", p.value, views(), c.view);
            } else if (k == "lang") {
                parse_row_id("lang", p.value, languages(), c.lang);
            } else if (k == "equal_cost") {
                if (p.value == "0" || p.value == "1") c.equal_cost = p.value == "1";
                else error("equal_cost", p.value, "equal_cost must be 0 (off) or 1 (on); got '" + printable_text(p.value) + "'");
            } else if (k == "loop") {
                if (const LoopKindInfo* kind = find_loop_kind(p.value)) c.loop.kind = kind->kind;
                else error("loop", p.value, "loop must be fixed, variable or accumulator; got '" + printable_text(p.value) + "'");
            } else if (const LoopKeySpec* loop_key = find_loop_key(k)) {
                const LoopKeySpec& ls = *loop_key;
                const auto x = parse_number(p.value);
                const bool ok = x && *x >= ls.min && (ls.max_exclusive ? *x < ls.max : *x <= ls.max) &&
                                (!ls.whole || *x == std::floor(*x));
                if (ok) c.loop.*(ls.field) = *x;
                else error(k, p.value, k + " must be " + loop_key_allowed(ls) + "; got '" + printable_text(p.value) + "'");
            } else {
                size_t offset = 0;
                const ParamSpec* spec = nullptr;
                for (const ParamSpec& ps : info.params) {
                    if (k == ps.key) {
                        spec = &ps;
                        break;
                    }
                    offset += ps.dims;
                }
                if (!spec) {
                    std::string keys;
                    for (const char* shared : shared_keys()) keys += (keys.empty() ? "" : ", ") + std::string(shared);
                    for (const ParamSpec& ps : info.params) keys += std::string(", ") + ps.key;
                    error(k, p.value, "unknown key '" + printable_text(k) + "' for scenario " + info.id + "; known keys: " + keys);
                    continue;
                }
                parse_param(*spec, offset, p.value, c);
            }
        }
        if (info.check) {
            // Rules across keys: the offending key goes back to its base (preset or default) value.
            if (auto problem = info.check(Params(info, c.values))) {
                error(problem->key, problem->value, problem->message);
                size_t offset = 0;
                for (const ParamSpec& ps : info.params) {
                    if (problem->key == ps.key)
                        for (int d = 0; d < ps.dims; ++d) c.values[offset + d] = base.values[offset + d];
                    offset += static_cast<size_t>(ps.dims);
                }
                // The base value may break the rule with the link's other keys (a bridge's default
                // span against links=2): then every parameter goes back to its base, which holds.
                if (info.check(Params(info, c.values))) c.values = base.values;
            }
        }
        check_loop(pairs, c);
        check_linked(c);
        if (c.duration / c.dt > max_steps) {
            // Neither value alone is wrong, but together they are: keep the base (preset or
            // default) duration, and the base dt too if the link's dt is still too fine for it.
            const std::string got = format_number(c.duration) + " / " + format_number(c.dt);
            error("duration", got, "duration / dt must be at most 10000000 steps; got '" + got + "'");
            c.duration = base.duration;
            if (c.duration / c.dt > max_steps) {
                c.loop = base.loop;
                c.dt = c.loop.kind == LoopKind::none ? base.dt : loop_step(c.loop);
            }
        }
    }

    // The game loop's rules across keys. A key of this link that its loop does not read is an
    // error (never silently ignored), and so are dt, equal_cost, a cloud and the analysis views
    // beside a loop; a loop key a preset gave that the link's loop does not read goes back to its
    // default, as a preset's dt gives way to the loop's step. Then dt is the loop's step.
    void check_loop(const std::vector<Pair>& pairs, Config& c) {
        const LoopKind kind = c.loop.kind;
        const std::string loop_text = kind == LoopKind::none ? "" : std::string("loop=") + loop_kind_id(kind);
        auto given = [&](const char* key) -> const Pair* {
            for (const Pair& p : pairs)
                if (p.key == key) return &p;
            return nullptr;
        };
        // A key whose value was refused, or any key beside a refused loop=, has its message already.
        auto refused = [&](const char* key) {
            for (const ConfigError& e : result.errors)
                if (e.key == key) return true;
            return false;
        };
        for (const LoopKeySpec& spec : loop_keys()) {
            if (loop_reads(spec, c.loop)) continue;
            if (const Pair* p = given(spec.key); p && !refused(spec.key) && !(given("loop") && refused("loop"))) {
                std::string why;
                if (kind == LoopKind::none)
                    why = std::string(spec.key) + " is a setting of the game loop: add loop=" +
                          (spec.fixed ? "fixed" : "variable") + " (it is read by loop=" + loop_key_loops(spec) + ") or drop " +
                          spec.key;
                else if (spec.needs_jitter && loop_reads(spec, LoopSettings{.kind = kind, .jitter = 0.5}))
                    why = std::string(spec.key) + " only matters with jitter > 0 (it seeds the frame lengths); set jitter or drop " +
                          spec.key;
                else
                    why = std::string(spec.key) + " has no effect with " + loop_text + " (it is read by loop=" +
                          loop_key_loops(spec) + "); drop " + spec.key + " or choose such a loop";
                error(spec.key, p->value, why + "; got '" + printable_text(p->value) + "'");
            }
            c.loop.*(spec.field) = spec.def;
        }
        if (kind == LoopKind::none) return;
        auto conflict = [&](const char* key, const std::string& value, const std::string& why) {
            error(key, value, std::string(key) + "=" + printable_text(value) + " cannot be combined with " + loop_text +
                                  ": " + why + "; got '" + printable_text(value) + "'");
        };
        if (const Pair* dt = given("dt")) {
            conflict("dt", dt->value, "the loop sets the physics step, 1/(hz·substeps) (1/hz a frame for loop=variable); "
                                      "drop dt and set hz and substeps, or drop loop");
        }
        if (c.equal_cost) {
            conflict("equal_cost", "1", "equal cost steps each method at its own multiple of dt, a game loop steps "
                                        "every method at the frame's step; drop one of them");
            c.equal_cost = false;
        }
        if (c.cloud > 0) {
            conflict("cloud", std::to_string(c.cloud), "the phase-space cloud is stepped at a fixed dt, not by frames; "
                                                       "drop one of them");
            c.cloud = 0;
        }
        const std::string view = views()[static_cast<size_t>(c.view)].id;
        if (view == "convergence" || view == "cloud" || (view == "stability" && kind == LoopKind::variable)) {
            conflict("view", view, view == "stability" ? "a variable loop has no one step to place on the stability map; "
                                                         "use loop=fixed or accumulator"
                                                       : "that view halves or fixes dt itself; use view=motion (or "
                                                         "view=stability with loop=fixed or accumulator)");
            c.view = 0;
        }
        c.dt = loop_step(c.loop);
    }
};

}  // namespace

namespace {

// The length of the well-formed UTF-8 sequence at the start of t (Unicode's table 3-7: no overlong
// forms, no surrogates, nothing above U+10FFFF), or 0 when t does not start with one.
std::size_t utf8_sequence_length(std::string_view t) {
    const auto byte = [&](std::size_t i) { return i < t.size() ? static_cast<unsigned char>(t[i]) : 0u; };
    const unsigned lead = byte(0);
    if (lead < 0x80) return 1;
    std::size_t n = 0;
    unsigned lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) n = 2;
    else if (lead >= 0xE0 && lead <= 0xEF) n = 3, lo = lead == 0xE0 ? 0xA0 : 0x80, hi = lead == 0xED ? 0x9F : 0xBF;
    else if (lead >= 0xF0 && lead <= 0xF4) n = 4, lo = lead == 0xF0 ? 0x90 : 0x80, hi = lead == 0xF4 ? 0x8F : 0xBF;
    else return 0;
    if (byte(1) < lo || byte(1) > hi) return 0;
    for (std::size_t i = 2; i < n; ++i)
        if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
    return n;
}

}  // namespace

std::string printable_text(std::string_view text, std::size_t max_chars) {
    std::string out;
    std::size_t chars = 0;
    while (!text.empty() && chars < max_chars) {
        const std::size_t n = utf8_sequence_length(text);
        const unsigned char lead = static_cast<unsigned char>(text[0]);
        if (n == 0) out += "\xEF\xBF\xBD";  // U+FFFD for a byte that is not UTF-8
        else if (lead < 0x20 || lead == 0x7f || (lead == 0xC2 && static_cast<unsigned char>(text[1]) < 0xA0)) out += '?';
        else out.append(text.data(), n);  // a whole character, never part of one
        text.remove_prefix(n == 0 ? 1 : n);
        ++chars;
    }
    if (!text.empty()) out += "…";
    return out;
}

const std::vector<const char*>& shared_keys() {
    static const std::vector<const char*> keys = {"v",        "scenario", "preset",       "integrators", "dt",
                                                  "duration", "cloud",    "cloud_radius", "equal_cost",  "view",
                                                  "loop",     "hz",       "substeps",     "jitter",      "seed",
                                                  "max_steps", "lang"};
    return keys;
}

const std::vector<ViewInfo>& views() {
    static const std::vector<ViewInfo> table = {
        {.id = "motion", .name = "Motion", .description = "the bodies moving side by side, with energy, error and phase plots"},
        {.id = "convergence", .name = "Convergence",
         .description = "error against dt and against force evaluations (work–precision), with each method's measured order"},
        {.id = "stability", .name = "Stability",
         .description = "where each method is stable on the oscillator (ωh, ζ), with this system's point and its largest stable dt"},
        {.id = "cloud", .name = "Phase cloud", .description = "a cloud of start states carried by each method: area kept or not"},
    };
    return table;
}

int find_view(std::string_view id) { return index_of_id(views(), id); }

const std::vector<LanguageInfo>& languages() {
    static const std::vector<LanguageInfo> table = {
        {.id = "en", .name = "English"},
        {.id = "de", .name = "Deutsch"},
    };
    return table;
}

int find_language(std::string_view id) { return index_of_id(languages(), id); }

double Config::get(std::string_view key) const {
    return Params(scenarios().at(static_cast<size_t>(scenario)), values).num(key);
}

glm::dvec2 Config::get_vec(std::string_view key) const {
    return Params(scenarios().at(static_cast<size_t>(scenario)), values).vec(key);
}

Config default_config(int scenario) {
    Config c;
    c.scenario = scenario;
    for (const ParamSpec& p : scenarios()[scenario].params)
        for (int d = 0; d < p.dims; ++d) c.values.push_back(p.def[d]);
    std::string_view list = default_integrators;
    while (!list.empty()) {
        const size_t comma = list.find(',');
        c.integrators.push_back(find_integrator(list.substr(0, comma)));
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
    return c;
}

ParseResult parse_config(std::string_view query) {
    Parser p;
    p.parse(query, 0);
    return std::move(p.result);
}

std::string normalise(const Config& c) {
    const ScenarioInfo& info = scenarios()[c.scenario];
    std::string q = "v=" + std::to_string(config_version) + "&scenario=" + info.id + "&integrators=";
    for (size_t i = 0; i < c.integrators.size(); ++i) q += (i ? "," : "") + std::string(integrators()[c.integrators[i]].id);
    if (c.reference) q += std::string(c.integrators.empty() ? "" : ",") + reference_id;
    if (c.loop.kind == LoopKind::none) q += "&dt=" + format_number(c.dt);  // a loop sets dt
    q += "&duration=" + format_number(c.duration);
    size_t offset = 0;
    for (const ParamSpec& p : info.params) {
        q += std::string("&") + p.key + "=" + format_number(c.values[offset]);
        if (p.dims == 2) q += "," + format_number(c.values[offset + 1]);
        offset += p.dims;
    }
    if (c.cloud != 0 || c.cloud_radius != default_cloud_radius)
        q += "&cloud=" + std::to_string(c.cloud) + "&cloud_radius=" + format_number(c.cloud_radius);
    if (c.equal_cost) q += "&equal_cost=1";
    if (c.view != 0) q += std::string("&view=") + views()[static_cast<size_t>(c.view)].id;
    if (c.loop.kind != LoopKind::none) {
        q += std::string("&loop=") + loop_kind_id(c.loop.kind);
        for (const LoopKeySpec& spec : loop_keys())
            if (loop_reads(spec, c.loop)) q += std::string("&") + spec.key + "=" + format_number(c.loop.*(spec.field));
    }
    if (c.lang >= 0) q += std::string("&lang=") + languages()[static_cast<size_t>(c.lang)].id;
    return q;
}

}  // namespace stepwise
