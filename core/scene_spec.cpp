#include "scene_spec.hpp"

#include "config.hpp"
#include "number_text.hpp"
#include "parts.hpp"
#include "scene_numbers.hpp"
#include "system.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <utility>

// The part `scenes` (core/parts.hpp): reading, writing and building a scene. Its table is
// scene_kinds.cpp.
namespace stepwise {

using namespace scene_numbers;

bool carries_scenes() { return true; }
namespace {

// An item's field by name (every name used here is a row of its kind: scene tests build each kind).
double field_of(const SceneItem& item, std::string_view name) {
    const int f = scene_field_index(item.kind, name);
    return f < 0 ? nan : item.field[f];
}
bool given(const SceneItem& item, std::string_view name) {
    const int f = scene_field_index(item.kind, name);
    return f >= 0 && (item.given >> f & 1u);
}

std::string end_text(SceneEnd e) { return (e.anchor ? "a" : "b") + std::to_string(e.index); }

std::optional<SceneEnd> parse_end(std::string_view t) {
    if (t.size() < 2 || t.size() > 4 || (t[0] != 'a' && t[0] != 'b')) return std::nullopt;
    int index = 0;
    for (char c : t.substr(1)) {
        if (c < '0' || c > '9') return std::nullopt;
        index = index * 10 + (c - '0');
    }
    return SceneEnd{.anchor = t[0] == 'a', .index = index};
}

MessageArgs range_of(const SceneFieldSpec& f) {
    if (!f.words.empty()) {
        std::string words;
        for (const char* w : f.words) words += (words.empty() ? "" : ", ") + std::string(w);
        return {{"allowed", "word"}, {"words", words}};
    }
    return {{"allowed", f.whole ? "whole" : f.min_exclusive ? "number_above" : "number"},
            {"min", format_number(f.min)},
            {"max", format_number(f.max)}};
}

// Reads the items' text; the second pass (Layout) checks what they join.
class Reader {
public:
    SceneProblem& problem;
    explicit Reader(SceneProblem& p) : problem(p) {}

    bool fail(const char* code, int item, std::string_view text, MessageArgs args = {}) {
        problem.code = code;
        problem.args = {{"item", std::to_string(item)}, {"got", printable_text(text)}};
        problem.args.insert(problem.args.end(), args.begin(), args.end());
        return false;
    }

    bool number(std::string_view t, const char* name, int item, std::string_view text, double& out) {
        const auto x = parse_number(t);
        if (!x || !(*x >= -big && *x <= big))
            return fail("scene_field", item, text,
                        {{"field", name}, {"value", printable_text(t)}, {"allowed", "number"},
                         {"min", format_number(-big)}, {"max", format_number(big)}});
        out = *x;
        return true;
    }

    bool read_item(std::string_view text, int item, SceneItem& out) {
        const size_t colon = text.find(':');
        std::string known;
        for (const SceneKindInfo& k : scene_kinds())
            known += (known.empty() ? "" : ", ") + std::string(k.id) + (k.id == std::string_view(k.name) ? "" : std::string(" (") + k.name + ")");
        if (colon == std::string_view::npos || colon == 0) return fail("scene_item_form", item, text, {{"known", known}});
        const std::string_view id = text.substr(0, colon);
        const SceneKindInfo* info = nullptr;
        for (const SceneKindInfo& k : scene_kinds())
            if (id == k.id) info = &k;
        if (!info) return fail("scene_unknown_kind", item, text, {{"kind", printable_text(id)}, {"known", known}});
        out = SceneItem{};
        out.kind = info->kind;
        for (size_t f = 0; f < info->fields.size(); ++f) out.field[f] = info->fields[f].def;

        std::vector<std::string_view> tokens;
        std::string_view rest = text.substr(colon + 1);
        while (true) {
            const size_t comma = rest.find(',');
            tokens.push_back(rest.substr(0, comma));
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
        // The positional arguments: the tokens before the first field.
        size_t positional = 0;
        while (positional < tokens.size() && tokens[positional].find(':') == std::string_view::npos) ++positional;
        const MessageArgs form = {{"name", info->name}, {"form", form_of(*info)}};
        switch (info->args) {
            case SceneArgs::point:
                if (positional != 2) return fail("scene_args", item, text, form);
                if (!number(tokens[0], "X", item, text, out.point.x) || !number(tokens[1], "Y", item, text, out.point.y))
                    return false;
                break;
            case SceneArgs::two_ends:
            case SceneArgs::rope: {
                const bool rope = info->args == SceneArgs::rope;
                if (positional != 2 && !(rope && positional == 3)) return fail("scene_args", item, text, form);
                const auto first = parse_end(tokens[0]);
                if (!first) return fail("scene_args", item, text, form);
                out.ends[0] = *first;
                if (positional == 3) {
                    out.to_point = true;
                    if (!number(tokens[1], "X", item, text, out.point.x) || !number(tokens[2], "Y", item, text, out.point.y))
                        return false;
                } else {
                    const auto second = parse_end(tokens[1]);
                    if (!second) return fail("scene_args", item, text, form);
                    out.ends[1] = *second;
                }
                break;
            }
        }
        unsigned seen = 0;
        for (size_t t = positional; t < tokens.size(); ++t) {
            const std::string_view tok = tokens[t];
            const size_t c = tok.find(':');
            if (c == std::string_view::npos || c == 0)
                return fail("scene_field_form", item, text, {{"field", printable_text(tok)}});
            const std::string_view name = tok.substr(0, c), value = tok.substr(c + 1);
            const int f = scene_field_index(info->kind, name);
            if (f < 0) {
                std::string fields;
                for (const SceneFieldSpec& s : info->fields) fields += (fields.empty() ? "" : ", ") + std::string(s.name);
                return fail("scene_unknown_field", item, text,
                            {{"name", info->name}, {"field", printable_text(name)}, {"known", fields.empty() ? "none" : fields}});
            }
            if (seen >> f & 1u) return fail("scene_field_twice", item, text, {{"field", info->fields[f].name}});
            seen |= 1u << f;
            const SceneFieldSpec& spec = info->fields[static_cast<size_t>(f)];
            MessageArgs bad = {{"field", spec.name}, {"value", printable_text(value)}};
            const MessageArgs range = range_of(spec);
            bad.insert(bad.end(), range.begin(), range.end());
            double x = nan;
            if (!spec.words.empty()) {
                for (size_t w = 0; w < spec.words.size(); ++w)
                    if (value == spec.words[w]) x = static_cast<double>(w);
                if (std::isnan(x)) return fail("scene_field", item, text, bad);
            } else {
                const auto v = parse_number(value);
                if (!v || (spec.min_exclusive ? !(*v > spec.min) : !(*v >= spec.min)) || !(*v <= spec.max) ||
                    (spec.whole && *v != std::floor(*v)))
                    return fail("scene_field", item, text, bad);
                x = *v;
            }
            // A field written at its default is the same scene as one left out: not given.
            out.field[f] = x;
            if (!(x == spec.def)) out.given |= 1u << f;
        }
        return true;
    }

    static std::string form_of(const SceneKindInfo& info) {
        std::string fields;
        for (const SceneFieldSpec& s : info.fields) fields += std::string(",") + s.name + ":…";
        const std::string id = info.id;
        switch (info.args) {
            case SceneArgs::point: return id + ":X,Y" + fields;
            case SceneArgs::two_ends: return id + ":END,END" + fields + " (an end is bN, body N, or aN, anchor N)";
            case SceneArgs::rope: return id + ":END,X,Y or " + id + ":END,END" + fields;
        }
        return id;
    }
};

// The second pass: what the items make, checked (check mode) or put into a System.
class Layout {
public:
    System& s;
    SceneLayout& out;
    Reader* reader;  // null when building a scene already checked
    int item = 0;
    std::string_view text;
    int joins = 0;
    struct Rod {
        SceneEnd a, b;
        int item;
    };
    std::vector<Rod> links_made;  // for "joined twice"
    // Per spring (anchor springs, pair springs) and link in the order made: its end indices and
    // whether its rest length was left to the distance (explicit_scene writes them back).
    struct Made {
        SceneEnd a, b;
        bool rest_derived;
    };
    std::vector<Made> anchor_springs_made, pair_springs_made, links_list;

    Layout(System& s_, SceneLayout& o, Reader* r) : s(s_), out(o), reader(r) {}

    bool fail(const char* code, MessageArgs args = {}) { return reader ? reader->fail(code, item, text, std::move(args)) : false; }

    bool add_body(double m, glm::dvec2 x, glm::dvec2 v) {
        if (s.bodies() >= max_scene_bodies)
            return fail("scene_too_many", {{"count", std::to_string(s.bodies() + 1)}, {"what", "bodies"},
                                           {"max", std::to_string(max_scene_bodies)}});
        s.add_body(m);
        out.x0.push_back(x);
        out.v0.push_back(v);
        return true;
    }
    bool add_anchor(glm::dvec2 x) {
        if (static_cast<int>(out.anchors.size()) >= max_scene_anchors)
            return fail("scene_too_many", {{"count", std::to_string(out.anchors.size() + 1)}, {"what", "anchors"},
                                           {"max", std::to_string(max_scene_anchors)}});
        out.anchors.push_back(x);
        return true;
    }
    bool count_join() {
        if (++joins > max_scene_joins)
            return fail("scene_too_many", {{"count", std::to_string(joins)}, {"what", "springs and links"},
                                           {"max", std::to_string(max_scene_joins)}});
        return true;
    }
    bool known(SceneEnd e) {
        const int count = e.anchor ? static_cast<int>(out.anchors.size()) : s.bodies();
        if (e.index < count) return true;
        return fail("scene_end_unknown", {{"end", end_text(e)}, {"what", e.anchor ? "anchor" : "body"},
                                          {"count", std::to_string(count)}});
    }
    glm::dvec2 place(SceneEnd e) const { return e.anchor ? out.anchors[static_cast<size_t>(e.index)] : out.x0[static_cast<size_t>(e.index)]; }
    double mass(SceneEnd e) const { return e.anchor ? std::numeric_limits<double>::infinity() : s.mass[static_cast<size_t>(e.index)]; }
    static double distance(glm::dvec2 a, glm::dvec2 b) { return std::hypot(a.x - b.x, a.y - b.y); }

    // Two ends a spring or link may join: known, not the same, not both anchors.
    bool joinable(SceneEnd a, SceneEnd b) {
        if (!known(a) || !known(b)) return false;
        if (a == b) return fail("scene_self_join", {{"end", end_text(a)}});
        if (a.anchor && b.anchor) return fail("scene_two_anchors");
        return true;
    }

    bool spring(SceneEnd a, SceneEnd b, double k, double rest, double d) {
        // k <= 1e6 and m >= 1e-6 keep k/m within 1e12 (the fields' ranges): no rule across them.
        if (!joinable(a, b) || !count_join()) return false;
        const bool derived = std::isnan(rest);
        if (derived) rest = distance(place(a), place(b));
        const Made made{a, b, derived};  // as written: the editor's text keeps the user's order
        if (a.anchor) std::swap(a, b);
        (b.anchor ? anchor_springs_made : pair_springs_made).push_back(made);
        if (b.anchor) s.anchor_springs.push_back({.body = a.index, .anchor = place(b), .k = k, .rest = rest, .b = d});
        else s.pair_springs.push_back({.i = a.index, .j = b.index, .k = k, .rest = rest, .b = d});
        return true;
    }

    // A link from body-or-anchor `a` to `b`: i is a's body (b's when a is an anchor).
    bool link(SceneEnd a, SceneEnd b, double rest, double alpha, double d) {
        if (!joinable(a, b) || !count_join()) return false;
        const bool derived = std::isnan(rest);
        if (derived) {
            rest = distance(place(a), place(b));
            if (!(rest >= small)) return fail("scene_zero_length", {{"min", format_number(small)}});
        }
        const double light = std::min(mass(a), mass(b));
        const double least = 1.0 / (max_stiffness_over_mass * light);
        if (alpha != 0.0 && alpha < least)
            return fail("scene_link_too_stiff", {{"min", format_number(least)}, {"mass", format_number(light)}});
        for (const Rod& r : links_made)
            if ((r.a == a && r.b == b) || (r.a == b && r.b == a))
                return fail("scene_joined_twice", {{"a", end_text(a)}, {"b", end_text(b)}, {"other", std::to_string(r.item)}});
        links_made.push_back({a, b, item});
        links_list.push_back({a, b, derived});  // as written
        if (a.anchor) std::swap(a, b);
        s.links.push_back({.i = a.index, .j = b.anchor ? no_body : b.index, .anchor = b.anchor ? place(b) : glm::dvec2(0.0),
                           .rest = rest, .compliance = alpha, .damping = d});
        return true;
    }

    bool rope(const SceneItem& it) {
        const int n = static_cast<int>(field_of(it, "n"));
        const double m = field_of(it, "m"), alpha = field_of(it, "alpha"), d = field_of(it, "d");
        const SceneEnd from = it.ends[0];
        if (!known(from)) return false;
        if (given(it, "mend") && !it.to_point) return fail("scene_field_unused", {{"field", "mend"}});
        const glm::dvec2 p0 = place(from);
        std::vector<glm::dvec2> points;  // the new bodies' places
        double rest = field_of(it, "len");
        SceneEnd to{};
        if (it.to_point) {
            const double span = distance(p0, it.point);
            if (std::isnan(rest) && !(span / n >= small)) return fail("scene_zero_length", {{"min", format_number(small)}});
            if (std::isnan(rest)) rest = span / n;
            for (int k = 1; k <= n; ++k) points.push_back(p0 + (static_cast<double>(k) / n) * (it.point - p0));
        } else {
            to = it.ends[1];
            // Two anchors are a rope's usual ends (a bridge): only the same end twice is refused.
            if (!known(to)) return false;
            if (from == to) return fail("scene_self_join", {{"end", end_text(from)}});
            const glm::dvec2 p1 = place(to);
            const double span = distance(p0, p1);
            if (std::isnan(rest)) rest = span / n;
            if (!(rest >= small)) return fail("scene_zero_length", {{"min", format_number(small)}});
            if (n * rest > span) {
                // Sagging on a circular arc through both ends, every link a chord of length `rest`
                // (the bridge's construction, core/scenarios.cpp): in the frame of the chord, x along
                // it from its middle and y up, the arc is C + R (sin a, −cos a), a = −nφ/2 … nφ/2.
                const double phi = sag_chord_angle(n, rest, span);
                const double radius = rest / (2.0 * std::sin(0.5 * phi));
                const glm::dvec2 along = (p1 - p0) / span, middle = 0.5 * (p0 + p1);
                // "Up" is the chord's normal with y >= 0 (a vertical chord: towards −x).
                glm::dvec2 up(-along.y, along.x);
                if (up.y < 0.0 || (up.y == 0.0 && up.x > 0.0)) up = -up;
                const double centre_y = radius * std::cos(0.5 * n * phi);
                for (int k = 1; k < n; ++k) {
                    const double a = -0.5 * n * phi + k * phi;
                    const double lx = radius * std::sin(a), ly = centre_y - radius * std::cos(a);
                    points.push_back(middle + lx * along + ly * up);
                }
            } else {
                if (from.anchor && to.anchor && alpha == 0.0)
                    return fail("scene_taut", {{"distance", format_number(span)}, {"min", format_number(span / n)}});
                for (int k = 1; k < n; ++k) points.push_back(p0 + (static_cast<double>(k) / n) * (p1 - p0));
            }
        }
        const int first = s.bodies();
        for (size_t k = 0; k < points.size(); ++k) {
            const bool end = it.to_point && k + 1 == points.size();
            const double mk = end && given(it, "mend") ? field_of(it, "mend") : m;
            if (!add_body(mk, points[k], glm::dvec2(0.0))) return false;
        }
        // Link k joins new body k to the one before it (the rope's first end for k = 0), the last
        // link of a rope between two ends its last new body to the second end: neighbours in the
        // list share a body (the rigid links' matrix is tridiagonal).
        SceneEnd prev = from;
        for (int k = 0; k < static_cast<int>(points.size()); ++k) {
            const SceneEnd body{.anchor = false, .index = first + k};
            if (!link(body, prev, rest, alpha, d)) return false;
            prev = body;
        }
        if (!it.to_point && !link(prev, to, rest, alpha, d)) return false;
        return true;
    }

    bool cloth(const SceneItem& it) {
        const int w = static_cast<int>(field_of(it, "w")), h = static_cast<int>(field_of(it, "h"));
        const double spacing = field_of(it, "s"), m = field_of(it, "m"), alpha = field_of(it, "alpha"), d = field_of(it, "d");
        const int pin = static_cast<int>(field_of(it, "pin"));  // none, corners, top, tl, tr
        auto pinned = [&](int c, int r) {
            if (r != 0) return false;
            return pin == 2 || ((pin == 1 || pin == 3) && c == 0) || ((pin == 1 || pin == 4) && c == w - 1);
        };
        // Rigid links along a top row pinned at both corners make a rope of rods pulled straight
        // between two anchors (scene_taut): it cannot move, and its equations are singular.
        if (pin == 1 && w > 2 && alpha == 0.0)
            return fail("scene_taut", {{"distance", format_number((w - 1) * spacing)}, {"min", format_number(spacing)}});
        if (static_cast<double>(w) * h > max_scene_bodies + max_scene_anchors)
            return fail("scene_too_many", {{"count", std::to_string(w * h)}, {"what", "bodies"}, {"max", std::to_string(max_scene_bodies)}});
        std::vector<SceneEnd> at(static_cast<size_t>(w * h));
        for (int r = 0; r < h; ++r)
            for (int c = 0; c < w; ++c) {
                const glm::dvec2 x = it.point + glm::dvec2(c * spacing, -r * spacing);
                SceneEnd& e = at[static_cast<size_t>(r * w + c)];
                if (pinned(c, r)) {
                    e = {.anchor = true, .index = static_cast<int>(out.anchors.size())};
                    if (!add_anchor(x)) return false;
                } else {
                    e = {.anchor = false, .index = s.bodies()};
                    if (!add_body(m, x, glm::dvec2(0.0))) return false;
                }
            }
        // Each point's links to its right and lower neighbours, row by row (links sharing a body
        // are at most about 2w apart in the list: the band the rigid links' solve works in).
        for (int r = 0; r < h; ++r)
            for (int c = 0; c < w; ++c) {
                const SceneEnd p = at[static_cast<size_t>(r * w + c)];
                for (const auto& [dc, dr] : {std::pair{1, 0}, std::pair{0, 1}}) {
                    if (c + dc >= w || r + dr >= h) continue;
                    const SceneEnd q = at[static_cast<size_t>((r + dr) * w + c + dc)];
                    if (p.anchor && q.anchor) continue;
                    if (!link(q, p, spacing, alpha, d)) return false;
                }
            }
        return true;
    }

    bool ring(const SceneItem& it) {
        const int n = static_cast<int>(field_of(it, "n"));
        const double r = field_of(it, "r"), m = field_of(it, "m"), k = field_of(it, "k"), d = field_of(it, "d");
        const double spin = field_of(it, "spin");
        const int first = s.bodies();
        for (int j = 0; j < n; ++j) {
            const double a = 2.0 * pi * j / n;
            const glm::dvec2 rel(r * std::cos(a), r * std::sin(a));
            if (!add_body(m, it.point + rel, spin * glm::dvec2(-rel.y, rel.x))) return false;
        }
        for (int j = 0; j < n; ++j) {
            const SceneEnd a{.anchor = false, .index = first + (j + 1) % n}, b{.anchor = false, .index = first + j};
            if (!spring(a, b, k, nan, d)) return false;
        }
        return true;
    }

    bool add(const SceneItem& it) {
        switch (it.kind) {
            case SceneKind::body:
                return add_body(field_of(it, "m"), it.point, {field_of(it, "vx"), field_of(it, "vy")});
            case SceneKind::anchor: return add_anchor(it.point);
            case SceneKind::spring:
                return spring(it.ends[0], it.ends[1], field_of(it, "k"), field_of(it, "rest"), field_of(it, "d"));
            case SceneKind::link:
                return link(it.ends[0], it.ends[1], field_of(it, "rest"), field_of(it, "alpha"), field_of(it, "d"));
            case SceneKind::rope: return rope(it);
            case SceneKind::cloth: return cloth(it);
            case SceneKind::ring: return ring(it);
        }
        return false;
    }
};

}  // namespace

SceneSpec explicit_scene(const SceneSpec& scene) {
    System s;
    SceneLayout layout;
    Layout build(s, layout, nullptr);
    for (const SceneItem& it : scene.items) build.add(it);
    SceneSpec out;
    // An item of kind k with the fields named, each marked given unless at its default.
    const auto item = [](SceneKind kind, std::initializer_list<std::pair<const char*, double>> fields) {
        SceneItem it;
        it.kind = kind;
        const SceneKindInfo& info = scene_kind_info(kind);
        for (size_t f = 0; f < info.fields.size(); ++f) it.field[f] = info.fields[f].def;
        for (const auto& [name, value] : fields) {
            const int f = scene_field_index(kind, name);
            it.field[f] = value;
            if (!(value == info.fields[static_cast<size_t>(f)].def)) it.given |= 1u << f;
        }
        return it;
    };
    for (glm::dvec2 a : layout.anchors) {
        SceneItem it = item(SceneKind::anchor, {});
        it.point = a;
        out.items.push_back(it);
    }
    for (int b = 0; b < s.bodies(); ++b) {
        const auto k = static_cast<size_t>(b);
        SceneItem it = item(SceneKind::body, {{"m", s.mass[k]}, {"vx", layout.v0[k].x}, {"vy", layout.v0[k].y}});
        it.point = layout.x0[k];
        out.items.push_back(it);
    }
    const auto joined = [&](SceneKind kind, const Layout::Made& made, std::initializer_list<std::pair<const char*, double>> fields) {
        SceneItem it = item(kind, fields);
        it.ends[0] = made.a;
        it.ends[1] = made.b;
        if (made.rest_derived) {
            const int f = scene_field_index(kind, "rest");
            it.field[f] = nan;
            it.given &= ~(1u << f);
        }
        out.items.push_back(it);
    };
    for (size_t k = 0; k < s.anchor_springs.size(); ++k) {
        const AnchorSpring& sp = s.anchor_springs[k];
        joined(SceneKind::spring, build.anchor_springs_made[k], {{"k", sp.k}, {"rest", sp.rest}, {"d", sp.b}});
    }
    for (size_t k = 0; k < s.pair_springs.size(); ++k) {
        const PairSpring& sp = s.pair_springs[k];
        joined(SceneKind::spring, build.pair_springs_made[k], {{"k", sp.k}, {"rest", sp.rest}, {"d", sp.b}});
    }
    for (size_t k = 0; k < s.links.size(); ++k) {
        const Link& l = s.links[k];
        joined(SceneKind::link, build.links_list[k], {{"rest", l.rest}, {"alpha", l.compliance}, {"d", l.damping}});
    }
    return out;
}

std::optional<SceneSpec> parse_scene(std::string_view text, SceneProblem& problem) {
    Reader reader(problem);
    SceneSpec scene;
    if (text.size() > max_scene_length) {
        problem = {"too_long", {{"got", printable_text(text)}, {"length", std::to_string(text.size())},
                                {"max", std::to_string(max_scene_length)}}};
        return std::nullopt;
    }
    int item = 0;
    std::string_view rest = text;
    std::vector<std::string_view> texts;
    while (!rest.empty()) {
        const size_t semi = rest.find(';');
        const std::string_view t = rest.substr(0, semi);
        rest = semi == std::string_view::npos ? std::string_view() : rest.substr(semi + 1);
        ++item;
        if (item > max_scene_items) {
            reader.fail("scene_too_many", item, t, {{"count", std::to_string(item)}, {"what", "items"},
                                                   {"max", std::to_string(max_scene_items)}});
            return std::nullopt;
        }
        SceneItem it;
        if (!reader.read_item(t, item, it)) return std::nullopt;
        scene.items.push_back(it);
        texts.push_back(t);
    }
    if (scene.items.empty()) {
        problem = {"scene_empty", {{"got", printable_text(text)}}};
        return std::nullopt;
    }
    System s;
    SceneLayout layout;
    Layout check(s, layout, &reader);
    for (size_t i = 0; i < scene.items.size(); ++i) {
        check.item = static_cast<int>(i + 1);
        check.text = texts[i];
        if (!check.add(scene.items[i])) return std::nullopt;
    }
    if (s.bodies() == 0) {
        problem = {"scene_empty", {{"got", printable_text(text)}}};
        return std::nullopt;
    }
    return scene;
}

std::string scene_text(const SceneSpec& scene) {
    std::string out;
    for (const SceneItem& it : scene.items) {
        const SceneKindInfo& info = scene_kind_info(it.kind);
        if (!out.empty()) out += ';';
        out += info.id;
        out += ':';
        const auto point = [&] { out += format_number(it.point.x) + "," + format_number(it.point.y); };
        switch (info.args) {
            case SceneArgs::point: point(); break;
            case SceneArgs::two_ends: out += end_text(it.ends[0]) + "," + end_text(it.ends[1]); break;
            case SceneArgs::rope:
                out += end_text(it.ends[0]) + ",";
                if (it.to_point) point();
                else out += end_text(it.ends[1]);
                break;
        }
        // The fields given (a field at its default is not: parse_scene; a derived default, NaN,
        // counts as given whenever written: rest:1 is not "the distance" even when equal).
        for (size_t f = 0; f < info.fields.size(); ++f) {
            const SceneFieldSpec& spec = info.fields[f];
            if (!(it.given >> f & 1u)) continue;
            out += std::string(",") + spec.name + ":";
            out += spec.words.empty() ? format_number(it.field[f]) : spec.words[static_cast<size_t>(it.field[f])];
        }
    }
    return out;
}

void build_scene_items(const SceneSpec& scene, System& s, SceneLayout& layout) {
    Layout build(s, layout, nullptr);
    for (const SceneItem& it : scene.items) build.add(it);
}

}  // namespace stepwise
