#include "tables.hpp"

#include "config.hpp"
#include "frame_loop.hpp"
#include "integrators.hpp"
#include "messages.hpp"
#include "orders.hpp"
#include "rows.hpp"
#include "scenarios.hpp"
#include "scene_spec.hpp"

#include <cmath>

namespace stepwise {

namespace {

std::string boolean(bool b) { return b ? "true" : "false"; }

// A message's or an allowed form's arguments as a JSON object.
std::string args_json(const MessageArgs& args) {
    std::string out = "{";
    for (size_t i = 0; i < args.size(); ++i)
        out += std::string(i ? ", " : "") + json_string(args[i].name) + ": " + json_string(args[i].value);
    return out + "}";
}

std::string messages_json(const std::vector<MessageInfo>& table) {
    std::string out = "[";
    for (size_t r = 0; r < table.size(); ++r)
        out += std::string(r ? "," : "") + "\n    {\"code\": " + json_string(table[r].code) +
               ", \"text\": " + json_string(table[r].text) + "}";
    return out + "\n  ]";
}

}  // namespace

std::string tables_json(const std::vector<std::pair<std::string, double>>& extra_limits) {
    std::string out = "{\n  \"integrators\": [";
    for (size_t r = 0; r < integrators().size(); ++r) {
        const IntegratorInfo& i = integrators()[r];
        out += std::string(r ? "," : "") + "\n    {\"id\": " + json_string(i.id) + ", \"name\": " + json_string(i.name) +
               ", \"family\": " + json_string(i.family) + ",\n     \"orders\": {";
        for (OrderRegime kind : table_regimes)
            out += std::string(kind == table_regimes[0] ? "" : ", ") + "\"" + regime_id(kind) +
                   "\": " + order_json(i.orders.in(kind));
        out += "},\n     \"orders_text\": " + json_string(orders_summary(i.orders)) +
               ",\n     \"order_note\": " + json_string(i.order_note) +
               ",\n     \"force_evaluations\": " + std::to_string(i.force_evaluations) +
               ", \"evaluations_note\": " + json_string(i.evaluations_note) + ", \"symplectic\": " + boolean(i.symplectic) +
               ", \"implicit\": " + boolean(i.implicit) + ", \"stateful\": " + boolean(i.stateful) +
               ", \"adaptive\": " + boolean(i.adaptive) +
               ", \"default_iterations\": " + std::to_string(i.default_iterations) +
               ", \"solves_constraints\": " + boolean(i.solves_constraints) +
               ",\n     \"description\": " + json_string(i.description) +
               ",\n     \"stability_note\": " + json_string(i.stability_note) +
               ",\n     \"update\": " + json_string(i.update) + "}";
    }
    out += "\n  ],\n  \"reference_id\": " + json_string(reference_id);
    out += ",\n  \"order_regimes\": [";
    for (int r = 0; r < order_regimes; ++r)
        out += std::string(r ? "," : "") + "\n    {\"id\": \"" + regime_id(static_cast<OrderRegime>(r)) +
               "\", \"text\": " + json_string(regime_text(static_cast<OrderRegime>(r))) + "}";
    out += "\n  ],\n  \"limits\": {\"version\": " + std::to_string(config_version) + ", \"dt_min\": " + exact_text(dt_min) +
           ", \"dt_max\": " + exact_text(dt_max) + ", \"duration_min\": " + exact_text(duration_min) +
           ", \"duration_max\": " + exact_text(duration_max) + ", \"max_steps\": " + exact_text(max_steps) +
           ", \"default_dt\": " + exact_text(default_dt) + ", \"default_duration\": " + exact_text(default_duration) +
           ", \"default_scenario\": " + json_string(default_scenario) +
           ", \"default_integrators\": " + json_string(default_integrators) +
           ", \"max_pairs\": " + std::to_string(max_pairs) + ", \"max_value_length\": " + std::to_string(max_value_length) +
           ", \"max_scene_length\": " + std::to_string(max_scene_length) +
           ", \"max_cloud_points\": " + std::to_string(max_cloud_points) +
           ", \"default_cloud_radius\": " + exact_text(default_cloud_radius) +
           ", \"min_cloud_radius\": " + exact_text(min_cloud_radius) + ", \"max_cloud_radius\": " + exact_text(max_cloud_radius) +
           ", \"max_lanes\": " + std::to_string(max_lanes()) + ", \"max_lane_substeps\": " + std::to_string(max_lane_substeps) +
           ", \"max_lane_iterations\": " + std::to_string(max_lane_iterations) +
           ", \"max_lane_passes\": " + std::to_string(max_lane_passes);
    for (const auto& [name, value] : extra_limits) out += ", " + json_string(name) + ": " + exact_text(value);
    out += "},\n  \"shared_keys\": [";
    for (size_t k = 0; k < shared_keys().size(); ++k)
        out += std::string(k ? ", " : "") + "{\"key\": " + json_string(shared_keys()[k].key) +
               ", \"group\": " + json_string(shared_keys()[k].group) +
               ", \"meaning\": " + json_string(shared_keys()[k].meaning) + ", \"allowed\": " +
               (shared_keys()[k].allowed.empty() ? std::string("null") : json_string(allowed_text(shared_keys()[k].allowed))) +
               "}";
    out += "],\n  \"families\": [";
    for (size_t f = 0; f < integrator_families().size(); ++f)
        out += std::string(f ? ", " : "") + "{\"id\": " + json_string(integrator_families()[f].id) +
               ", \"name\": " + json_string(integrator_families()[f].name) + "}";
    out += "],\n  \"scenarios\": [";
    for (size_t r = 0; r < scenarios().size(); ++r) {
        const ScenarioInfo& s = scenarios()[r];
        out += std::string(r ? "," : "") + "\n    {\"id\": " + json_string(s.id) + ", \"name\": " + json_string(s.name) +
               ",\n     \"description\": " + json_string(s.description) + ",\n     \"reference\": " +
               json_string(s.reference) + ", \"phase_plot\": " + json_string(s.phase_plot) +
               ", \"rules\": " + json_string(s.rules) + ",\n     \"params\": [";
        for (size_t k = 0; k < s.params.size(); ++k) {
            const ParamSpec& p = s.params[k];
            std::string def = exact_text(p.def[0]);
            if (p.dims == 2) def += ", " + exact_text(p.def[1]);
            out += std::string(k ? "," : "") + "\n      {\"key\": " + json_string(p.key) +
                   ", \"dims\": " + std::to_string(p.dims) + ", \"default\": [" + def + "], \"min\": " + exact_text(p.min) +
                   ", \"max\": " + exact_text(p.max) + ", \"min_exclusive\": " + boolean(p.min_exclusive) +
                   ", \"unit\": " + json_string(p.unit) + ", \"label\": " + json_string(p.label) +
                   ", \"meaning\": " + json_string(p.meaning) + "}";
        }
        out += "],\n     \"presets\": [";
        for (size_t k = 0; k < s.presets.size(); ++k) out += std::string(k ? ", " : "") + json_string(s.presets[k].id);
        out += "]";
        if (s.default_scene) out += ", \"scene\": " + json_string(s.default_scene);
        out += "}";
    }
    // The scene grammar's kinds (core/scene_spec.hpp), for the page's editor and its messages.
    out += "\n  ],\n  \"scene\": {\"max_length\": " + std::to_string(max_scene_length) +
           ", \"max_bodies\": " + std::to_string(max_scene_bodies) + ", \"max_anchors\": " + std::to_string(max_scene_anchors) +
           ", \"max_joins\": " + std::to_string(max_scene_joins) + ", \"kinds\": [";
    for (size_t r = 0; r < scene_kinds().size(); ++r) {
        const SceneKindInfo& k = scene_kinds()[r];
        out += std::string(r ? "," : "") + "\n    {\"id\": " + json_string(k.id) + ", \"name\": " + json_string(k.name) +
               ", \"meaning\": " + json_string(k.meaning) + ", \"fields\": [";
        for (size_t f = 0; f < k.fields.size(); ++f) {
            const SceneFieldSpec& fs = k.fields[f];
            std::string words;
            for (const char* w : fs.words) words += (words.empty() ? "" : ", ") + json_string(w);
            out += std::string(f ? ", " : "") + "{\"name\": " + json_string(fs.name) +
                   ", \"default\": " + (std::isnan(fs.def) ? std::string("null") : exact_text(fs.def)) +
                   ", \"min\": " + exact_text(fs.min) + ", \"max\": " + exact_text(fs.max) +
                   ", \"min_exclusive\": " + boolean(fs.min_exclusive) + ", \"whole\": " + boolean(fs.whole) +
                   ", \"words\": [" + words + "], \"unit\": " + json_string(fs.unit) +
                   ", \"meaning\": " + json_string(fs.meaning) + "}";
        }
        out += "]}";
    }
    out += "\n  ]},\n  \"presets\": [";
    for (size_t r = 0; r < presets().size(); ++r) {
        const PresetInfo& p = presets()[r];
        out += std::string(r ? "," : "") + "\n    {\"id\": " + json_string(p.id) + ", \"name\": " + json_string(p.name) +
               ", \"description\": " + json_string(p.description) + ", \"query\": " + json_string(p.query) + "}";
    }
    out += "\n  ],\n  \"loop\": {\"kinds\": [";
    for (size_t r = 0; r < loop_kinds().size(); ++r) {
        const LoopKindInfo& k = loop_kinds()[r];
        out += std::string(r ? "," : "") + "\n    {\"id\": " + json_string(k.id) + ", \"description\": " +
               json_string(k.description) + "}";
    }
    out += "\n  ], \"keys\": [";
    for (size_t r = 0; r < loop_keys().size(); ++r) {
        const LoopKeySpec& k = loop_keys()[r];
        out += std::string(r ? "," : "") + "\n    {\"key\": " + json_string(k.key) + ", \"default\": " + exact_text(k.def) +
               ", \"min\": " + exact_text(k.min) + ", \"max\": " + exact_text(k.max) + ", \"max_exclusive\": " +
               boolean(k.max_exclusive) + ", \"whole\": " + boolean(k.whole) + ", \"unit\": " + json_string(k.unit) +
               ", \"label\": " + json_string(k.label) + ", \"meaning\": " + json_string(k.meaning) +
               ", \"allowed\": " + json_string(loop_key_allowed(k)) + ", \"range\": " + args_json(loop_key_range(k)) +
               ", \"loops\": " + json_string(loop_key_loops(k)) + ", \"fixed\": " + boolean(k.fixed) +
               ", \"variable\": " + boolean(k.variable) + ", \"accumulator\": " + boolean(k.accumulator) +
               ", \"needs_jitter\": " + boolean(k.needs_jitter) + "}";
    }
    out += "\n  ], \"rules\": " + json_string(loop_rules) + "},";
    out += "\n  \"views\": [";
    for (size_t r = 0; r < views().size(); ++r) {
        const ViewInfo& v = views()[r];
        out += std::string(r ? "," : "") + "\n    {\"id\": " + json_string(v.id) + ", \"name\": " + json_string(v.name) +
               ", \"description\": " + json_string(v.description) + "}";
    }
    out += "\n  ],\n  \"languages\": [";
    for (size_t r = 0; r < languages().size(); ++r)
        out += std::string(r ? ", " : "") + "{\"id\": " + json_string(languages()[r].id) +
               ", \"name\": " + json_string(languages()[r].name) + "}";
    out += "],\n  \"messages\": " + messages_json(message_table());
    out += ",\n  \"allowed_forms\": " + messages_json(allowed_forms());
    out += "\n}\n";
    return out;
}

}  // namespace stepwise
