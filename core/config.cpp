#include "config.hpp"

#include "expression.hpp"
#include "forces/force_kind.hpp"
#include "integrators.hpp"
#include "parts.hpp"
#include "table_lookup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace stepwise {

int max_lanes() { return static_cast<int>(integrators().size()); }

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
    // The text between escapes is copied whole: a value of 393,000 characters (the longest query
    // the page hands the core) was a character-by-character append, 10 ms of the page's start-up.
    while (!in.empty()) {
        const size_t percent = in.find('%');
        out.append(in.substr(0, percent));
        if (percent == std::string_view::npos) break;
        if (percent + 2 >= in.size()) return std::nullopt;  // '%' needs two hex digits after it
        const int hi = hex(in[percent + 1]), lo = hex(in[percent + 2]);
        if (hi < 0 || lo < 0) return std::nullopt;
        out += static_cast<char>(hi * 16 + lo);
        in.remove_prefix(percent + 3);
    }
    return out;
}

// The constants c1..c4 that an expression reads (its text, "" when left out): bit k for c(k + 1).
unsigned constants_of(const std::string& text) {
    if (text.empty()) return 0;
    ExprProblem unused;
    const Expression e = *Expression::compile(text, unused);
    unsigned mask = 0;
    for (int k = 0; k < written_constants; ++k)
        if (e.uses(static_cast<ExprVar>(static_cast<int>(ExprVar::c1) + k))) mask |= 1u << k;
    return mask;
}
unsigned constants_read(const std::string& fx, const std::string& fy) { return constants_of(fx) | constants_of(fy); }

// What a scenario's parameter allows, as the arguments of a not_allowed message.
MessageArgs range_args(const ParamSpec& p) {
    const char* form = p.dims == 2 ? (p.min_exclusive ? "pair_above" : "pair") : (p.min_exclusive ? "number_above" : "number");
    return {{"allowed", form}, {"min", format_number(p.min)}, {"max", format_number(p.max)}};
}

std::string join_ids(const std::vector<std::string>& ids) {
    std::string out;
    for (size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + ids[i];
    return out;
}

// "motion, convergence, …": the ids of a table's rows (views(), languages()), as errors list them.
template <class Row>
std::string row_ids(const std::vector<Row>& table) {
    std::vector<std::string> ids;
    for (const Row& row : table) ids.push_back(row.id);
    return join_ids(ids);
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

    // A message of message_table(): its arguments key and got are the key and the value, made
    // printable; args adds the row's others.
    void error(const char* code, const std::string& key, std::string_view value, MessageArgs args = {}) {
        if (result.errors.size() > max_errors) return;
        if (result.errors.size() == max_errors) code = "more_errors";
        ConfigError e{.key = printable_text(key), .value = printable_text(value), .message = {}, .code = code, .args = {}};
        if (e.code == "more_errors") e.key = e.value = "";
        e.args = {{"key", e.key}, {"got", e.value}};
        e.args.insert(e.args.end(), args.begin(), args.end());
        e.message = message_text(e.code, e.args);
        result.errors.push_back(std::move(e));
    }
    void not_allowed(const std::string& key, std::string_view value, MessageArgs range) {
        error("not_allowed", key, value, std::move(range));
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
        error("unknown_id", key, value, {{"known", row_ids(table)}});
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
                error("too_many_pairs", "", "", {{"max", std::to_string(max_pairs)}});
                break;
            }
            const size_t eq = seg.find('=');
            if (eq == std::string_view::npos) {
                error("not_a_pair", std::string(seg), seg);
                continue;
            }
            if (eq == 0) {
                // "=1": nothing names what the value is for.
                error("no_key", "", seg);
                continue;
            }
            auto key = percent_decode(seg.substr(0, eq));
            if (!key) {
                error("bad_percent_key", std::string(seg.substr(0, eq)), seg.substr(0, eq));
                continue;
            }
            auto value = percent_decode(seg.substr(eq + 1));
            if (!value) {
                error("bad_percent_value", *key, seg.substr(eq + 1));
                continue;
            }
            bool repeated = false;
            for (const Pair& p : pairs) repeated = repeated || p.key == *key;
            if (repeated) {
                error("repeated_key", *key, *value);
                continue;
            }
            pairs.push_back({std::move(*key), std::move(*value)});
        }
        return pairs;
    }

    // A whole number of 1 to 4 digits (a lane's substeps or iterations), or nothing.
    static std::optional<int> lane_number(std::string_view text) {
        if (text.empty() || text.size() > 4) return std::nullopt;
        int n = 0;
        for (const char ch : text) {
            if (ch < '0' || ch > '9') return std::nullopt;
            n = 10 * n + (ch - '0');
        }
        return n;
    }

    // One lane of the list: METHOD, METHOD@S or METHOD@SxI. Its settings are kept in the form
    // lane_id writes (iterations equal to the method's default become 0), so that equal lanes
    // compare equal. Reports what is wrong with it and returns nothing.
    std::optional<LaneSpec> parse_lane(const std::string& text) {
        const size_t at = text.find('@');
        const std::string id = text.substr(0, at);
        const int index = find_integrator(id);
        if (id.empty()) {
            error("integrator_empty", "integrators", text);
            return std::nullopt;
        }
        if (id == reference_id) {
            if (at != std::string::npos) error("reference_settings", "integrators", text);
            return std::nullopt;  // the caller handles the reference
        }
        if (index < 0) {
            error("integrator_unknown", "integrators", id, {{"known", known_integrators()}});
            return std::nullopt;
        }
        LaneSpec lane(index);
        if (at == std::string::npos) return lane;
        const IntegratorInfo& info = integrators()[static_cast<size_t>(index)];
        const std::string_view settings = std::string_view(text).substr(at + 1);
        const size_t x = settings.find('x');
        const auto substeps = lane_number(settings.substr(0, x));
        const auto iterations = x == std::string_view::npos ? std::optional<int>(0) : lane_number(settings.substr(x + 1));
        if (!substeps || !iterations) {
            error("lane_settings_form", "integrators", text);
            return std::nullopt;
        }
        if (info.adaptive) {
            error("lane_adaptive", "integrators", text, {{"method", info.id}});
            return std::nullopt;
        }
        if (*substeps < 1 || *substeps > max_lane_substeps) {
            error("lane_substeps_range", "integrators", text, {{"max", std::to_string(max_lane_substeps)}});
            return std::nullopt;
        }
        if (x != std::string_view::npos && info.default_iterations == 0) {
            error("lane_no_iterations", "integrators", text, {{"method", info.id}, {"substeps", std::to_string(*substeps)}});
            return std::nullopt;
        }
        if (x != std::string_view::npos && (*iterations < 1 || *iterations > max_lane_iterations)) {
            error("lane_iterations_range", "integrators", text, {{"max", std::to_string(max_lane_iterations)}});
            return std::nullopt;
        }
        lane.substeps = *substeps;
        lane.iterations = *iterations == info.default_iterations ? 0 : *iterations;
        if (lane_passes(lane) > max_lane_passes) {
            error("lane_passes", "integrators", text,
                  {{"substeps", std::to_string(lane.substeps)},
                   {"iterations", std::to_string(lane_iterations(lane))},
                   {"passes", std::to_string(lane_passes(lane))},
                   {"max", std::to_string(max_lane_passes)}});
            return std::nullopt;
        }
        return lane;
    }

    void parse_integrators(const std::string& value, Config& c) {
        std::vector<LaneSpec> list;
        bool reference = false;
        if (value.size() > max_value_length) {
            error("integrators_too_long", "integrators", value,
                  {{"length", std::to_string(value.size())}, {"max", std::to_string(max_value_length)}});
            return;
        }
        const size_t count = static_cast<size_t>(std::count(value.begin(), value.end(), ',')) + 1;
        if (count > static_cast<size_t>(max_lanes()) + 1) {  // the lanes and the reference
            error("too_many_lanes", "integrators", value,
                  {{"count", std::to_string(count)}, {"max", std::to_string(max_lanes())}});
            return;
        }
        size_t start = 0;
        while (start <= value.size()) {
            const size_t comma = value.find(',', start);
            const std::string text = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            start = comma == std::string::npos ? value.size() + 1 : comma + 1;
            if (text == reference_id) {
                if (reference) error("integrator_twice", "integrators", text);
                reference = true;
                continue;
            }
            const std::optional<LaneSpec> lane = parse_lane(text);
            if (!lane) continue;
            if (std::find(list.begin(), list.end(), *lane) != list.end())
                error("integrator_twice", "integrators", lane_id(*lane));
            else if (list.size() == static_cast<size_t>(max_lanes()))
                error("too_many_lanes", "integrators", value,
                      {{"count", std::to_string(count)}, {"max", std::to_string(max_lanes())}});
            else
                list.push_back(*lane);
        }
        if (!list.empty() || reference) {  // keep the valid ones; the errors say what was dropped
            c.integrators = list;
            c.reference = reference;
            integrators_given = true;  // else the system's own default lanes (check_linked)
        }
    }

    // allowed: the not_allowed message's arguments saying the range in words.
    bool parse_scalar(const std::string& key, const std::string& value, double lo, double hi, bool lo_exclusive,
                      const MessageArgs& allowed, double& out) {
        const auto x = parse_number(value);
        if (!x || (lo_exclusive ? !(*x > lo) : !(*x >= lo)) || !(*x <= hi)) {
            not_allowed(key, value, allowed);
            return false;
        }
        out = *x;
        return true;
    }

    void parse_param(const ParamSpec& p, size_t offset, const std::string& value, Config& c) {
        const MessageArgs allowed = range_args(p);
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
            not_allowed(p.key, value, allowed);
            return;
        }
        xy[0] = *parse_number(value.substr(0, comma));
        xy[1] = *parse_number(value.substr(comma + 1));
        for (double v : xy) {
            if (!(v >= p.min && v <= p.max) || (p.min_exclusive && v == p.min)) {
                not_allowed(p.key, value, allowed);
                return;
            }
        }
        c.values[offset] = xy[0];
        c.values[offset + 1] = xy[1];
    }

    // A built scene's items (core/scene_spec.hpp), which may be longer than any other value. A
    // scene with a problem leaves the base (preset or default) scene in place.
    void parse_scene_key(const std::string& value, Config& c) {
        SceneProblem problem;
        const auto scene = parse_scene(value, problem);
        if (scene) {
            c.scene = *scene;
            return;
        }
        MessageArgs args;
        for (const MessageArg& a : problem.args)
            if (a.name != "got") args.push_back(a);
        error(problem.code.c_str(), "scene", message_arg(problem.args, "got"), args);
    }

    // The written force's keys (core/forces/written_force.hpp). fx, fy: an expression
    // (core/expression.hpp), kept in its canonical text; its problem names the key and the place.
    void parse_written(const std::string& key, const std::string& value, Config& c) {
        ExprProblem problem;
        const auto e = Expression::compile(value, problem);
        if (!e) {
            MessageArgs args;
            for (const MessageArg& a : problem.args)
                if (a.name != "got") args.push_back(a);
            error(problem.code.c_str(), key, message_arg(problem.args, "got"), args);
            return;
        }
        (key == "fx" ? c.fx : c.fy) = e->text();
        (key == "fx" ? fx_given : fy_given) = value;
    }
    // c1..c4: a number within ±written_constant_max.
    void parse_constant(int index, const std::string& key, const std::string& value, Config& c) {
        const MessageArgs allowed = {{"allowed", "number"},
                                     {"min", format_number(-written_constant_max)},
                                     {"max", format_number(written_constant_max)}};
        if (parse_scalar(key, value, -written_constant_max, written_constant_max, false, allowed, c.c[index]))
            constant_given[index] = value;
    }
    // The rules across the written force's keys: every constant fx or fy reads is given (else that
    // expression is dropped, with a message pointing at the constant's first place in it), and every
    // constant given is read (else it is dropped too: a constant nothing reads is a slip a teacher
    // wants to hear about — c2 typed for a law that says c3 — never silently ignored).
    void check_written(Config& c) {
        std::string* texts[2] = {&c.fx, &c.fy};
        const std::string* given[2] = {&fx_given, &fy_given};
        const char* keys[2] = {"fx", "fy"};
        // What the expressions as written read (one dropped below still reads its constants: no
        // second message for a constant it gave).
        const unsigned read = constants_read(c.fx, c.fy);
        for (int f = 0; f < 2; ++f) {
            if (texts[f]->empty()) continue;
            // The text as written (its columns are the ones to point at; it compiled already).
            ExprProblem unused;
            const Expression written = *Expression::compile(*given[f], unused);
            for (int k = 0; k < written_constants; ++k) {
                const ExprVar constant = static_cast<ExprVar>(static_cast<int>(ExprVar::c1) + k);
                if (!written.uses(constant) || constant_given[k] || preset_constant[k]) continue;
                const std::string name = "c" + std::to_string(k + 1);
                error("expr_constant_missing", keys[f], *given[f],
                      {{"name", name},
                       {"column", std::to_string(written.first_column(constant))},
                       {"min", format_number(-written_constant_max)},
                       {"max", format_number(written_constant_max)}});
                texts[f]->clear();
                break;
            }
        }
        for (int k = 0; k < written_constants; ++k) {
            if (!constant_given[k] || (read >> k & 1u)) continue;
            error("written_constant_unused", "c" + std::to_string(k + 1), *constant_given[k]);
            c.c[k] = 0.0;
        }
        // A constant of an expression dropped above (its message said why) goes with it: the
        // config holds only what normalise writes.
        const unsigned kept = constants_read(c.fx, c.fy);
        for (int k = 0; k < written_constants; ++k)
            if (!(kept >> k & 1u)) c.c[k] = 0.0;
        if (c.written()) check_written_start(c);
    }
    // Every range keeps a scenario's start finite; a written force may not be (exp(exp(x)) at
    // x = 10): its force and its potential must be finite numbers at every body's start, or
    // nothing it would print is a number. Else it is dropped, with the body and the place.
    void check_written_start(Config& c) {
        Scene scene = build_scene(c.scenario, c.values, c.scene, c.duration);
        add_written_force(c, scene);
        const System& s = scene.system;
        for (int i = 0; i < s.bodies(); ++i) {
            const dvec2 x = scene.x0[static_cast<size_t>(i)], v = scene.v0[static_cast<size_t>(i)];
            const dvec2 f = WrittenForce::force(s, i, x, v, 0.0);
            const bool force_ok = std::isfinite(f.x) && std::isfinite(f.y);
            // Its potential (in the start's whole energy, which the other forces' ranges keep far
            // inside the double range on their own).
            const double u = s.written.potential ? WrittenForce::potential_of(s, i, x) : 0.0;
            const bool energy_ok = i + 1 < s.bodies() || std::isfinite(energy(s, scene.x0.data(), scene.v0.data()));
            if (force_ok && std::isfinite(u) && energy_ok) continue;
            bool fx_bad = !c.fx.empty();  // the whole energy's overflow: the first expression given
            if (!force_ok) fx_bad = !std::isfinite(f.x);
            else if (!std::isfinite(u)) fx_bad = !std::isfinite(WrittenForce::part(s, i, s.written.fx, 0, x.x));
            const char* key = fx_bad && !c.fx.empty() ? "fx" : "fy";
            error(force_ok ? "written_potential_not_finite" : "written_not_finite", key, key[1] == 'x' ? c.fx : c.fy,
                  {{"body", std::to_string(i)}, {"x", format_number(x.x)}, {"y", format_number(x.y)},
                   {"vx", format_number(v.x)}, {"vy", format_number(v.y)}});
            c.fx.clear();
            c.fy.clear();
            for (double& k : c.c) k = 0.0;
            return;
        }
    }
    std::string fx_given, fy_given;                          // as the link wrote them
    std::optional<std::string> constant_given[written_constants];  // c1..c4 as written, when valid
    bool preset_constant[written_constants] = {};                   // c1..c4 given by the preset

    // A system with links: the force-based defaults cannot step a rod, and the phase cloud needs
    // a way to leave the start that keeps the links (Scene::cloud).
    void check_linked(Config& c) {
        const Scene scene = build_scene(c.scenario, c.values, c.scene, c.duration);
        const System& s = scene.system;
        if (s.links.empty()) return;
        // Rigid links and no methods asked for: the methods that step them (default_lanes).
        if (!integrators_given) c.integrators = default_lanes(s);
        result.no_lane_steps = !c.integrators.empty() && std::none_of(c.integrators.begin(), c.integrators.end(),
                                                                      [&](const LaneSpec& l) { return method_steps(l.integrator, s); });
        // The scene says how its cloud leaves the start (Scene::cloud): a pendulum and a chain turn
        // rigidly about their anchor; a system that has no such way refuses the cloud with its reason.
        if (scene.cloud.plane != CloudPlane::none) return;
        const MessageArgs why = {{"scenario", scenarios()[static_cast<size_t>(c.scenario)].id}, {"why", scene.cloud.why}};
        if (c.cloud > 0) {
            error("linked_no_cloud", "cloud", std::to_string(c.cloud), why);
            c.cloud = 0;
        }
        if (std::string_view(views()[static_cast<size_t>(c.view)].id) == "cloud") {
            error("linked_no_cloud_view", "view", "cloud", why);
            c.view = 0;
        }
    }

    // The parts of `needed` this build lacks, kept as the result's. Reading a scene or a written
    // law runs its part's code: without one of those the parse stops, and the result then holds
    // nothing else (no errors, the default scenario's config). Without the links alone it reads
    // on (a link's keys and checks need none of their code; only its simulation does).
    bool stops(unsigned needed) {
        result.missing_parts = needed & ~carried_parts();
        if (!result.unread()) return false;
        result.errors.clear();
        result.config = default_config(find_scenario(default_scenario));
        return true;
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
            not_allowed("v", v->value, shared_key("v").allowed);
        }
        const Pair* preset = depth == 0 ? find("preset") : nullptr;
        const Pair* scenario = find("scenario");
        int preset_index = -1;
        if (preset) {
            preset_index = find_preset(preset->value);
            if (preset_index < 0) {
                std::vector<std::string> ids;
                for (const auto& p : presets()) ids.push_back(p.id);
                error("unknown_id", "preset", preset->value, {{"known", join_ids(ids)}});
            }
        }
        int scenario_index = find_scenario(default_scenario);
        if (scenario) {
            const int s = find_scenario(scenario->value);
            if (s < 0) {
                std::vector<std::string> ids;
                for (const auto& sc : scenarios()) ids.push_back(sc.id);
                error("unknown_id", "scenario", scenario->value, {{"known", join_ids(ids)}});
            } else {
                scenario_index = s;
            }
        }
        // The parts of the core the link needs (core/parts.hpp), read before anything that runs
        // their code (a preset's own query says what it needs in its own parse, as do the lanes below).
        unsigned needed = scenarios()[scenario_index].parts;
        for (const Pair& p : pairs)
            if (p.key == "fx" || p.key == "fy") needed |= part_written;
        if (stops(needed)) return;
        if (preset_index >= 0) {
            Parser inner;
            inner.parse(presets()[preset_index].query, 1);
            needed |= inner.result.missing_parts;
            if (stops(needed)) return;
            c = inner.result.config;
            integrators_given = inner.integrators_given;
            // A preset's written force: its laws as it wrote them, its constants as given by it (a
            // link's own law may drop one of them; only the link's own unread constants are refused).
            fx_given = inner.fx_given;
            fy_given = inner.fy_given;
            for (int k = 0; k < written_constants; ++k) preset_constant[k] = inner.constant_given[k].has_value();
            if (scenario && find_scenario(scenario->value) >= 0 && scenario_index != c.scenario) {
                error("scenario_mismatch", "scenario", scenario->value,
                      {{"preset", preset->value}, {"scenario", scenarios()[c.scenario].id}});
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
            if (k == "scene" && info.default_scene) {
                parse_scene_key(p.value, c);
                continue;
            }
            if (p.value.size() > max_value_length && k != "integrators") {
                error("too_long", k, p.value,
                      {{"length", std::to_string(p.value.size())}, {"max", std::to_string(max_value_length)}});
                continue;
            }
            if (k == "integrators") {
                parse_integrators(p.value, c);
            } else if (k == "dt") {
                parse_scalar("dt", p.value, dt_min, dt_max, false, shared_key("dt").allowed, c.dt);
            } else if (k == "duration") {
                parse_scalar("duration", p.value, duration_min, duration_max, false, shared_key("duration").allowed,
                             c.duration);
            } else if (k == "cloud") {
                const MessageArgs& allowed = shared_key("cloud").allowed;
                double n = 0.0;
                if (parse_scalar("cloud", p.value, 0.0, max_cloud_points, false, allowed, n)) {
                    if (n != std::floor(n)) not_allowed("cloud", p.value, allowed);
                    else c.cloud = static_cast<int>(n);
                }
            } else if (k == "cloud_radius") {
                parse_scalar("cloud_radius", p.value, min_cloud_radius, max_cloud_radius, false,
                             shared_key("cloud_radius").allowed, c.cloud_radius);
            } else if (k == "view") {
                parse_row_id("view", p.value, views(), c.view);
            } else if (k == "lang") {
                parse_row_id("lang", p.value, languages(), c.lang);
            } else if (k == "pbd_stiffness") {
                parse_scalar("pbd_stiffness", p.value, 0.0, 1.0, false, shared_key("pbd_stiffness").allowed,
                             c.pbd_stiffness);
            } else if (k == "equal_cost") {
                if (p.value == "0" || p.value == "1") c.equal_cost = p.value == "1";
                else not_allowed("equal_cost", p.value, shared_key("equal_cost").allowed);
            } else if (k == "loop") {
                if (const LoopKindInfo* kind = find_loop_kind(p.value)) c.loop.kind = kind->kind;
                else not_allowed("loop", p.value, shared_key("loop").allowed);
            } else if (k == "fx" || k == "fy") {
                parse_written(k, p.value, c);
            } else if (k.size() == 2 && k[0] == 'c' && k[1] >= '1' && k[1] < '1' + written_constants) {
                parse_constant(k[1] - '1', k, p.value, c);
            } else if (const LoopKeySpec* loop_key = find_loop_key(k)) {
                const LoopKeySpec& ls = *loop_key;
                const auto x = parse_number(p.value);
                const bool ok = x && *x >= ls.min && (ls.max_exclusive ? *x < ls.max : *x <= ls.max) &&
                                (!ls.whole || *x == std::floor(*x));
                if (ok) c.loop.*(ls.field) = *x;
                else not_allowed(k, p.value, loop_key_range(ls));
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
                    for (const SharedKey& shared : shared_keys()) keys += (keys.empty() ? "" : ", ") + std::string(shared.key);
                    for (const ParamSpec& ps : info.params) keys += std::string(", ") + ps.key;
                    if (info.default_scene) keys += ", scene";
                    error("unknown_key", k, p.value, {{"scenario", info.id}, {"known", keys}});
                    continue;
                }
                parse_param(*spec, offset, p.value, c);
            }
        }
        // The game-physics solvers are the part `links`, on any system: without it the link is
        // still read whole (the parse stopped above for the parts it runs), only not simulated.
        for (const LaneSpec& lane : c.integrators)
            if (integrators()[lane.integrator].solves_constraints) needed |= part_links;
        result.missing_parts = needed & ~carried_parts();
        if (info.check) {
            // Rules across keys: the offending key goes back to its base (preset or default) value.
            if (auto problem = info.check(Params(info, c.values, c.scene))) {
                error(problem->code.c_str(), problem->key, problem->value, problem->args);
                size_t offset = 0;
                for (const ParamSpec& ps : info.params) {
                    if (problem->key == ps.key)
                        for (int d = 0; d < ps.dims; ++d) c.values[offset + d] = base.values[offset + d];
                    offset += static_cast<size_t>(ps.dims);
                }
                // The base value may break the rule with the link's other keys (a bridge's default
                // span against links=2): then every parameter goes back to its base, which holds.
                if (info.check(Params(info, c.values, c.scene))) c.values = base.values;
            }
        }
        check_written(c);
        check_loop(pairs, c);
        check_linked(c);
        check_lane_settings(c);
        if (c.duration / c.dt > max_steps) {
            // Neither value alone is wrong, but together they are: keep the base (preset or
            // default) duration, and the base dt too if the link's dt is still too fine for it.
            const std::string got = format_number(c.duration) + " / " + format_number(c.dt);
            error("too_many_steps", "duration", got, {{"max", format_number(max_steps)}});
            c.duration = base.duration;
            if (c.duration / c.dt > max_steps) {
                c.loop = base.loop;
                c.dt = c.loop.kind == LoopKind::none ? base.dt : loop_step(c.loop);
            }
        }
    }

    // Equal cost chooses each lane's step from its cost; a lane's own substeps would fight it.
    // The loop and lane settings combine: each physics step of the loop is the lane's substeps.
    void check_lane_settings(Config& c) {
        if (!c.equal_cost) return;
        std::string lanes;
        for (const LaneSpec& lane : c.integrators)
            if (lane.substeps != 1 || lane.iterations != 0) lanes += (lanes.empty() ? "" : ", ") + lane_id(lane);
        if (lanes.empty()) return;
        error("equal_cost_and_settings", "equal_cost", "1", {{"lanes", lanes}});
        c.equal_cost = false;
    }

    // The game loop's rules across keys. A key of this link that its loop does not read is an
    // error (never silently ignored), and so are dt, equal_cost, a cloud and the analysis views
    // beside a loop; a loop key a preset gave that the link's loop does not read goes back to its
    // default, as a preset's dt gives way to the loop's step. Then dt is the loop's step.
    void check_loop(const std::vector<Pair>& pairs, Config& c) {
        const LoopKind kind = c.loop.kind;
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
                const MessageArgs loops = {{"loop", kind == LoopKind::none ? (spec.fixed ? "fixed" : "variable")
                                                                               : loop_kind_id(kind)},
                                           {"loops", loop_key_loops(spec)}};
                if (kind == LoopKind::none) error("loop_key_without_loop", spec.key, p->value, loops);
                else if (spec.needs_jitter && loop_reads(spec, LoopSettings{.kind = kind, .jitter = 0.5}))
                    error("loop_key_without_jitter", spec.key, p->value, loops);
                else error("loop_key_unread", spec.key, p->value, loops);
            }
            c.loop.*(spec.field) = spec.def;
        }
        if (kind == LoopKind::none) return;
        const MessageArgs loop = {{"loop", loop_kind_id(kind)}};
        if (const Pair* dt = given("dt")) error("loop_sets_dt", "dt", dt->value, loop);
        if (c.equal_cost) {
            error("loop_and_equal_cost", "equal_cost", "1", loop);
            c.equal_cost = false;
        }
        if (c.cloud > 0) {
            error("loop_and_cloud", "cloud", std::to_string(c.cloud), loop);
            c.cloud = 0;
        }
        const std::string view = views()[static_cast<size_t>(c.view)].id;
        if (view == "convergence" || view == "cloud" || (view == "stability" && kind == LoopKind::variable)) {
            error(view == "stability" ? "variable_loop_and_stability" : "loop_and_stepping_view", "view", view, loop);
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

const std::vector<SharedKey>& shared_keys() {
    static const std::vector<SharedKey> keys = {
        {.key = "v", .group = "link", .meaning = "the link format's version", .allowed = {{"allowed", "version"}}},
        {.key = "scenario", .group = "system", .meaning = "the system (a row of the scenarios below)"},
        {.key = "preset", .group = "system", .meaning = "a preset's config, which the link's other keys change"},
        {.key = "integrators", .group = "run",
         .meaning = "the lanes, a comma list: METHOD, METHOD@SUBSTEPS or METHOD@SUBSTEPSxITERATIONS"},
        {.key = "dt", .group = "run", .meaning = "the step (s)",
         .allowed = {{"allowed", "number"}, {"min", format_number(dt_min)}, {"max", format_number(dt_max)}}},
        {.key = "duration", .group = "run", .meaning = "the run's length (s)",
         .allowed = {{"allowed", "number"}, {"min", format_number(duration_min)}, {"max", format_number(duration_max)}}},
        {.key = "cloud", .group = "study", .meaning = "a phase-space cloud of that many start states per integrator",
         .allowed = {{"allowed", "whole_off"}, {"min", "0"}, {"max", std::to_string(max_cloud_points)}}},
        {.key = "cloud_radius", .group = "study", .meaning = "the cloud's radius about the start state",
         .allowed = {{"allowed", "number_noted"},
                     {"min", format_number(min_cloud_radius)},
                     {"max", format_number(max_cloud_radius)},
                     {"note", "metres along x, m/s along vx"}}},
        {.key = "pbd_stiffness", .group = "run", .meaning = "PBD's stiffness factor s per step (1: rigid)",
         .allowed = {{"allowed", "number"}, {"min", "0"}, {"max", "1"}}},
        {.key = "equal_cost", .group = "study", .meaning = "every lane at the same force evaluations per second of motion",
         .allowed = {{"allowed", "switch"}}},
        {.key = "view", .group = "study", .meaning = "what the page shows",
         .allowed = {{"allowed", "word"}, {"words", row_ids(views())}}},
        {.key = "loop", .group = "loop", .meaning = "a game loop's kind (absent: no loop, steps of dt)",
         .allowed = {{"allowed", "loop_kind"}}},
        {.key = "hz", .group = "loop"},
        {.key = "substeps", .group = "loop"},
        {.key = "jitter", .group = "loop"},
        {.key = "seed", .group = "loop"},
        {.key = "max_steps", .group = "loop"},
        {.key = "fx", .group = "force", .meaning = "a force law you write: its x component (N) on every body"},
        {.key = "fy", .group = "force", .meaning = "a force law you write: its y component (N) on every body"},
        {.key = "c1", .group = "force", .meaning = "a constant the force law reads"},
        {.key = "c2", .group = "force", .meaning = "a constant the force law reads"},
        {.key = "c3", .group = "force", .meaning = "a constant the force law reads"},
        {.key = "c4", .group = "force", .meaning = "a constant the force law reads"},
        {.key = "lang", .group = "page", .meaning = "the page's language; the numbers ignore it",
         .allowed = {{"allowed", "word"}, {"words", row_ids(languages())}}},
    };
    return keys;
}

const SharedKey& shared_key(std::string_view key) {
    for (const SharedKey& k : shared_keys())
        if (key == k.key) return k;
    std::abort();  // a key the code names, never one from a link: every name is one of the table's
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
    return Params(scenarios().at(static_cast<size_t>(scenario)), values, scene).num(key);
}

glm::dvec2 Config::get_vec(std::string_view key) const {
    return Params(scenarios().at(static_cast<size_t>(scenario)), values, scene).vec(key);
}

void add_written_force(const Config& c, Scene& scene) {
    if (!c.written()) return;
    System& s = scene.system;
    // The config holds the canonical text, which always compiles (expression.hpp).
    WrittenLaw& w = s.written;
    ExprProblem problem;
    w.present = true;
    if (!c.fx.empty()) w.fx = *Expression::compile(c.fx, problem);
    if (!c.fy.empty()) w.fy = *Expression::compile(c.fy, problem);
    for (int k = 0; k < written_constants; ++k) w.c[k] = c.c[k];
    WrittenForce::decide_potential(s, scene.x0.data());
}

bool method_steps(int integrator, const System& s) {
    const IntegratorInfo& info = integrators()[static_cast<size_t>(integrator)];
    return (!s.has_rigid_links() || info.solves_constraints) && (s.rotations.empty() || steps_every_layout(info));
}

std::vector<LaneSpec> default_lanes(const System& s) {
    std::vector<LaneSpec> lanes;
    if (s.has_rigid_links()) {
        for (size_t i = 0; i < integrators().size(); ++i)
            if (method_steps(static_cast<int>(i), s)) lanes.emplace_back(static_cast<int>(i));
        return lanes;
    }
    std::string_view list = default_integrators;
    while (!list.empty()) {
        const size_t comma = list.find(',');
        lanes.emplace_back(find_integrator(list.substr(0, comma)));
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
    return lanes;
}

Config default_config(int scenario) {
    Config c;
    c.scenario = scenario;
    for (const ParamSpec& p : scenarios()[scenario].params)
        for (int d = 0; d < p.dims; ++d) c.values.push_back(p.def[d]);
    c.scene = default_scene_of(scenario);
    c.integrators = default_lanes(System{});  // the parser's check_linked gives a linked system its own
    return c;
}

int lane_iterations(const LaneSpec& lane) {
    return lane.iterations != 0 ? lane.iterations : integrators()[static_cast<size_t>(lane.integrator)].default_iterations;
}

int lane_passes(const LaneSpec& lane) { return lane.substeps * std::max(1, lane_iterations(lane)); }

int lane_evaluations(const LaneSpec& lane) {
    // A solver's evaluations grow by one pass for each iteration past its default.
    const IntegratorInfo& info = integrators()[static_cast<size_t>(lane.integrator)];
    return lane.substeps * (info.force_evaluations + lane_iterations(lane) - info.default_iterations);
}

std::string lane_id(const LaneSpec& lane) {
    std::string id = integrators()[static_cast<size_t>(lane.integrator)].id;
    if (lane.substeps != 1 || lane.iterations != 0) id += "@" + std::to_string(lane.substeps);
    if (lane.iterations != 0) id += "x" + std::to_string(lane.iterations);
    return id;
}

std::optional<LaneSpec> parse_lane_id(std::string_view text) {
    Parser p;
    return p.parse_lane(std::string(text));
}

ParseResult parse_config(std::string_view query) {
    Parser p;
    p.parse(query, 0);
    return std::move(p.result);
}

std::string normalise(const Config& c) {
    const ScenarioInfo& info = scenarios()[c.scenario];
    std::string q = "v=" + std::to_string(config_version) + "&scenario=" + info.id + "&integrators=";
    for (size_t i = 0; i < c.integrators.size(); ++i) q += (i ? "," : "") + lane_id(c.integrators[i]);
    if (c.reference) q += std::string(c.integrators.empty() ? "" : ",") + reference_id;
    if (c.loop.kind == LoopKind::none) q += "&dt=" + format_number(c.dt);  // a loop sets dt
    q += "&duration=" + format_number(c.duration);
    size_t offset = 0;
    for (const ParamSpec& p : info.params) {
        q += std::string("&") + p.key + "=" + format_number(c.values[offset]);
        if (p.dims == 2) q += "," + format_number(c.values[offset + 1]);
        offset += p.dims;
    }
    if (info.default_scene) q += "&scene=" + scene_text(c.scene);
    if (c.written()) {
        // Canonical expressions hold no '&', '=', '%' or space: written as they are.
        if (!c.fx.empty()) q += "&fx=" + c.fx;
        if (!c.fy.empty()) q += "&fy=" + c.fy;
        const unsigned read = constants_read(c.fx, c.fy);
        for (int k = 0; k < written_constants; ++k)
            if (read >> k & 1u) q += "&c" + std::to_string(k + 1) + "=" + format_number(c.c[k]);
    }
    if (c.cloud != 0 || c.cloud_radius != default_cloud_radius)
        q += "&cloud=" + std::to_string(c.cloud) + "&cloud_radius=" + format_number(c.cloud_radius);
    if (c.pbd_stiffness != 1.0) q += "&pbd_stiffness=" + format_number(c.pbd_stiffness);
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
