#include "scene_editing.hpp"

#include "config.hpp"
#include "scene_spec.hpp"

#include <cmath>
#include <limits>

namespace stepwise::web {

using emscripten::val;

namespace {

double get(const SceneItem& it, const char* name) { return it.field[scene_field_index(it.kind, name)]; }

val end_value(SceneEnd e) {
    val v = val::object();
    v.set("anchor", e.anchor);
    v.set("index", e.index);
    return v;
}

// A number of the model, or NaN when it is missing or not a number (the parser then refuses it).
double number(const val& object, const char* name) {
    const val v = object[name];
    return v.isNumber() ? v.as<double>() : std::numeric_limits<double>::quiet_NaN();
}

SceneItem item_of(SceneKind kind) {
    SceneItem it;
    it.kind = kind;
    const SceneKindInfo& info = scene_kind_info(kind);
    for (size_t f = 0; f < info.fields.size(); ++f) it.field[f] = info.fields[f].def;
    return it;
}

// Sets a field from the model: given unless at its default; a null rest stays derived.
void set(SceneItem& it, const val& object, const char* name) {
    const int f = scene_field_index(it.kind, name);
    const double def = scene_kind_info(it.kind).fields[static_cast<size_t>(f)].def;
    if (std::string_view(name) == "rest" && object[name].isNull()) return;
    const double x = number(object, name);
    it.field[f] = x;
    if (!(x == def)) it.given |= 1u << f;
}

SceneEnd end_of(const val& v) {
    return {.anchor = v["anchor"].isTrue(), .index = v["index"].isNumber() ? v["index"].as<int>() : -1};
}

}  // namespace

val scene_model(const std::string& query) {
    const ParseResult r = parse_config(query);
    val out = val::object();
    val anchors = val::array(), bodies = val::array(), springs = val::array(), links = val::array();
    const bool ok = scenarios()[static_cast<size_t>(r.config.scenario)].default_scene != nullptr;
    out.set("ok", ok);
    out.set("text", ok ? scene_text(r.config.scene) : std::string());
    if (ok) {
        for (const SceneItem& it : explicit_scene(r.config.scene).items) {
            val v = val::object();
            switch (it.kind) {
                case SceneKind::anchor:
                    v.set("x", it.point.x);
                    v.set("y", it.point.y);
                    anchors.call<void>("push", v);
                    break;
                case SceneKind::body:
                    v.set("x", it.point.x);
                    v.set("y", it.point.y);
                    for (const char* f : {"m", "vx", "vy"}) v.set(f, get(it, f));
                    bodies.call<void>("push", v);
                    break;
                case SceneKind::spring:
                case SceneKind::link: {
                    v.set("a", end_value(it.ends[0]));
                    v.set("b", end_value(it.ends[1]));
                    const double rest = get(it, "rest");
                    v.set("rest", std::isnan(rest) ? val::null() : val(rest));
                    const bool spring = it.kind == SceneKind::spring;
                    for (const char* f : spring ? std::initializer_list<const char*>{"k", "d"} : std::initializer_list<const char*>{"alpha", "d"})
                        v.set(f, get(it, f));
                    (spring ? springs : links).call<void>("push", v);
                    break;
                }
                default: break;  // explicit_scene writes no shorthand
            }
        }
    }
    out.set("anchors", anchors);
    out.set("bodies", bodies);
    out.set("springs", springs);
    out.set("links", links);
    return out;
}

val scene_text_of(const val& model) {
    SceneSpec spec;
    const auto each = [&](const char* list, auto add) {
        const val items = model[list];
        const int n = items.isArray() ? items["length"].as<int>() : 0;
        for (int k = 0; k < n; ++k) add(items[k]);
    };
    each("anchors", [&](const val& v) {
        SceneItem it = item_of(SceneKind::anchor);
        it.point = {number(v, "x"), number(v, "y")};
        spec.items.push_back(it);
    });
    each("bodies", [&](const val& v) {
        SceneItem it = item_of(SceneKind::body);
        it.point = {number(v, "x"), number(v, "y")};
        for (const char* f : {"m", "vx", "vy"}) set(it, v, f);
        spec.items.push_back(it);
    });
    for (const SceneKind kind : {SceneKind::spring, SceneKind::link})
        each(kind == SceneKind::spring ? "springs" : "links", [&](const val& v) {
            SceneItem it = item_of(kind);
            it.ends[0] = end_of(v["a"]);
            it.ends[1] = end_of(v["b"]);
            for (const char* f : kind == SceneKind::spring ? std::initializer_list<const char*>{"k", "rest", "d"}
                                                           : std::initializer_list<const char*>{"rest", "alpha", "d"})
                set(it, v, f);
            spec.items.push_back(it);
        });
    // Written, then read back by the parser: what the page gets is what a link would give.
    const std::string text = scene_text(spec);
    SceneProblem problem;
    val out = val::object();
    if (parse_scene(text, problem)) {
        out.set("ok", true);
        out.set("text", text);
        return out;
    }
    const ParseResult r = parse_config("scenario=scene&scene=" + text);
    out.set("ok", false);
    val error = val::object();
    if (!r.errors.empty()) {
        const ConfigError& e = r.errors.front();
        error.set("code", e.code);
        error.set("message", e.message);
        val args = val::object();
        for (const MessageArg& a : e.args) args.set(a.name, a.value);
        error.set("args", args);
    }
    out.set("error", error);
    return out;
}

}  // namespace stepwise::web
