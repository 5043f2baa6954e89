#include "playground.hpp"

#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stepwise::web {

using emscripten::val;

namespace {

val error_list(const std::vector<ConfigError>& errors) {
    val list = val::array();
    for (const ConfigError& e : errors) {
        val item = val::object();
        item.set("key", e.key);
        item.set("value", e.value);
        item.set("message", e.message);
        list.call<void>("push", item);
    }
    return list;
}

// A view of `count` doubles at `data`; JS copies it out with slice() before anything allocates.
val view(const double* data, size_t count) {
    return val(emscripten::typed_memory_view(count, data));
}

}  // namespace

Playground::Playground(const std::string& query) : parsed_(parse_config(query)), sim_(parsed_.config) {
    const int lanes = sim_.lanes(), bodies = sim_.bodies();
    state_.assign(state_header + lanes * (4 * bodies + lane_fixed + bodies) + 4 * bodies, 0.0);
    sample_width_ = 1 + lanes * history_lane_width + 4;
    history_.assign(static_cast<size_t>(history_capacity) * sample_width_, 0.0);
    reset();
}

void Playground::reset() {
    sim_.reset();
    history_count_ = 0;
    history_stride_ = 1;
    ++history_generation_;
    last_advance_ = 0;
    record();
}

int Playground::advance_steps(int n) {
    n = std::clamp(n, 0, max_steps_per_call);
    for (int k = 0; k < n; ++k) {
        sim_.step();
        if (sim_.steps() % history_stride_ == 0) record();
    }
    last_advance_ = n;
    return n;
}

int Playground::advance_time(double seconds) {
    if (!(seconds > 0.0)) return advance_steps(0);
    const double steps = std::floor(seconds / sim_.config().dt + 1e-9);
    return advance_steps(static_cast<int>(std::min(steps, static_cast<double>(max_steps_per_call))));
}

// Keeps every other sample and doubles the stride: the plots always span t = 0 to now
// in bounded memory.
void Playground::compact() {
    const int kept = (history_count_ + 1) / 2;
    for (int i = 0; i < kept; ++i) {
        std::copy_n(history_.begin() + static_cast<size_t>(2 * i) * sample_width_, sample_width_,
                    history_.begin() + static_cast<size_t>(i) * sample_width_);
    }
    history_count_ = kept;
    history_stride_ *= 2;
    ++history_generation_;
}

void Playground::record() {
    if (history_count_ == history_capacity) compact();
    if (sim_.steps() % history_stride_ != 0) return;  // the stride just doubled past this step
    double* out = history_.data() + static_cast<size_t>(history_count_) * sample_width_;
    *out++ = sim_.time();
    for (int l = 0; l < sim_.lanes(); ++l) {
        double worst = 0.0;
        for (int b = 0; b < sim_.bodies(); ++b) worst = std::max(worst, sim_.error(l, b));
        const Lane& lane = sim_.lane(l);
        *out++ = sim_.energy_drift(l);
        *out++ = worst;
        *out++ = lane.x[0].x;
        *out++ = lane.x[0].y;
        *out++ = lane.v[0].x;
        *out++ = lane.v[0].y;
    }
    *out++ = sim_.reference_x()[0].x;
    *out++ = sim_.reference_x()[0].y;
    *out++ = sim_.reference_v()[0].x;
    *out++ = sim_.reference_v()[0].y;
    ++history_count_;
}

val Playground::state() {
    double* out = state_.data();
    const int lanes = sim_.lanes(), bodies = sim_.bodies();
    out[0] = sim_.time();
    out[1] = static_cast<double>(sim_.steps());
    out[2] = lanes;
    out[3] = bodies;
    out[4] = sim_.reference_energy();
    out[5] = history_count_;
    out[6] = history_generation_;
    out[7] = sample_width_;
    out[8] = sim_.reference_kind() == ReferenceKind::exact ? 0.0 : 1.0;
    out[9] = last_advance_;
    out += state_header;
    for (int l = 0; l < lanes; ++l) {
        const Lane& lane = sim_.lane(l);
        double worst = 0.0;
        for (int b = 0; b < bodies; ++b) {
            *out++ = lane.x[b].x;
            *out++ = lane.x[b].y;
            *out++ = lane.v[b].x;
            *out++ = lane.v[b].y;
            worst = std::max(worst, sim_.error(l, b));
        }
        *out++ = sim_.energy(l);
        *out++ = sim_.energy_drift(l);
        *out++ = sim_.diverged(l) ? 1.0 : 0.0;
        *out++ = sim_.diverged(l) ? sim_.diverged_at(l) : 0.0;
        *out++ = sim_.dissipated(l);
        *out++ = worst;
        for (int b = 0; b < bodies; ++b) *out++ = sim_.error(l, b);
    }
    for (int b = 0; b < bodies; ++b) {
        *out++ = sim_.reference_x()[b].x;
        *out++ = sim_.reference_x()[b].y;
        *out++ = sim_.reference_v()[b].x;
        *out++ = sim_.reference_v()[b].y;
    }
    return view(state_.data(), state_.size());
}

val Playground::history(int from) {
    from = std::clamp(from, 0, history_count_);
    return view(history_.data() + static_cast<size_t>(from) * sample_width_,
                static_cast<size_t>(history_count_ - from) * sample_width_);
}

val Playground::errors() const { return error_list(parsed_.errors); }

val Playground::lane_ids() const {
    val ids = val::array();
    for (int l = 0; l < sim_.lanes(); ++l) ids.call<void>("push", std::string(sim_.info(l).id));
    return ids;
}

val Playground::motion_bounds(int samples) const {
    samples = std::clamp(samples, 1, 100000);
    Config c = sim_.config();
    c.integrators = {find_integrator("semi_implicit_euler")};  // any cheap lane; only the reference is read
    c.dt = c.duration / samples;
    Simulation probe(c);
    double box[4] = {1e300, -1e300, 1e300, -1e300};
    auto grow = [&box](dvec2 p) {
        if (!std::isfinite(p.x) || !std::isfinite(p.y)) return;
        box[0] = std::min(box[0], p.x);
        box[1] = std::max(box[1], p.x);
        box[2] = std::min(box[2], p.y);
        box[3] = std::max(box[3], p.y);
    };
    for (int k = 0; k <= samples; ++k) {
        if (k > 0) probe.step();
        for (dvec2 p : probe.reference_x()) grow(p);
    }
    val out = val::array();
    for (double v : box) out.call<void>("push", v);
    return out;
}

val parse(const std::string& query) {
    const ParseResult r = parse_config(query);
    val out = val::object();
    out.set("ok", r.ok());
    out.set("config", normalise(r.config));
    out.set("errors", error_list(r.errors));
    return out;
}

std::string normalise_query(const std::string& query) { return normalise(parse_config(query).config); }

val integrator_table() {
    val list = val::array();
    for (const IntegratorInfo& i : integrators()) {
        val item = val::object();
        item.set("id", std::string(i.id));
        item.set("name", std::string(i.name));
        item.set("family", std::string(i.family));
        item.set("order", i.order);
        item.set("force_evaluations", i.force_evaluations);
        item.set("evaluations_note", std::string(i.evaluations_note));
        item.set("symplectic", i.symplectic);
        item.set("implicit", i.implicit);
        item.set("stateful", i.stateful);
        item.set("adaptive", i.adaptive);
        item.set("description", std::string(i.description));
        list.call<void>("push", item);
    }
    return list;
}

val scenario_table() {
    val list = val::array();
    for (const ScenarioInfo& s : scenarios()) {
        val item = val::object();
        item.set("id", std::string(s.id));
        item.set("name", std::string(s.name));
        item.set("description", std::string(s.description));
        val params = val::array();
        for (const ParamSpec& p : s.params) {
            val spec = val::object();
            spec.set("key", std::string(p.key));
            spec.set("dims", p.dims);
            val def = val::array();
            for (int d = 0; d < p.dims; ++d) def.call<void>("push", p.def[d]);
            spec.set("default", def);
            spec.set("min", p.min);
            spec.set("max", p.max);
            spec.set("min_exclusive", p.min_exclusive);
            spec.set("unit", std::string(p.unit));
            spec.set("label", std::string(p.label));
            params.call<void>("push", spec);
        }
        item.set("params", params);
        list.call<void>("push", item);
    }
    return list;
}

val preset_table() {
    val list = val::array();
    for (const PresetInfo& p : presets()) {
        val item = val::object();
        item.set("id", std::string(p.id));
        item.set("name", std::string(p.name));
        item.set("description", std::string(p.description));
        item.set("query", std::string(p.query));
        list.call<void>("push", item);
    }
    return list;
}

val limits() {
    val out = val::object();
    out.set("version", config_version);
    out.set("dt_max", dt_max);
    out.set("duration_max", duration_max);
    out.set("max_steps", max_steps);
    out.set("default_dt", default_dt);
    out.set("default_duration", default_duration);
    out.set("default_scenario", std::string(default_scenario));
    out.set("default_integrators", std::string(default_integrators));
    out.set("max_steps_per_call", Playground::max_steps_per_call);
    out.set("state_header", state_header);
    out.set("lane_fixed", lane_fixed);
    out.set("history_lane_width", history_lane_width);
    out.set("history_capacity", history_capacity);
    out.set("max_csv_rows", static_cast<double>(max_csv_rows));
    return out;
}

namespace {

// %.17g, as the CLI prints every number: reads back exactly.
void append_number(std::string& out, double x) {
    char buf[40];
    const int n = std::snprintf(buf, sizeof buf, "%.17g", x);
    out.append(buf, static_cast<size_t>(std::max(n, 0)));
}

}  // namespace

namespace {
constexpr size_t chunk_bytes = 256 * 1024;
}

CsvExport::CsvExport(const std::string& query, double steps, double every)
    : sim_(parse_config(query).config),
      steps_(std::isfinite(steps) ? static_cast<long long>(std::clamp(steps, 0.0, max_steps)) : 0),
      every_(std::isfinite(every) ? std::max(1LL, static_cast<long long>(std::min(every, 1e12))) : 1) {
    out_.reserve(chunk_bytes + 4096);
    out_ += "t,integrator,body,x,y,vx,vy,energy,error\n";
    emit();
}

void CsvExport::flush() {
    if (out_.empty()) return;
    chunks_.push_back(out_);
    out_.clear();
}

void CsvExport::emit() {
    const double t = sim_.time();
    for (int l = 0; l < sim_.lanes(); ++l) {
        const double e = sim_.energy(l);
        for (int b = 0; b < sim_.bodies(); ++b) {
            if (rows_ >= max_csv_rows) return;
            const dvec2 x = sim_.lane(l).x[b], v = sim_.lane(l).v[b];
            append_number(out_, t);
            out_ += ',';
            out_ += sim_.info(l).id;
            out_ += ',';
            out_ += std::to_string(b);
            for (double value : {x.x, x.y, v.x, v.y, e, sim_.error(l, b)}) {
                out_ += ',';
                append_number(out_, value);
            }
            out_ += '\n';
            ++rows_;
            if (out_.size() >= chunk_bytes) flush();
        }
    }
}

bool CsvExport::run(int max_steps) {
    // Never more than ~1 MB waiting for take(): the heap is fixed at 16 MiB.
    for (int n = 0; n < max_steps && step_ < steps_ && rows_ < max_csv_rows && chunks_.size() < 4; ++n) {
        sim_.step();
        ++step_;
        if (step_ % every_ == 0) emit();
    }
    const bool finished = step_ >= steps_ || rows_ >= max_csv_rows;
    if (finished) flush();
    return finished;
}

val CsvExport::take() {
    val list = val::array();
    for (const std::string& c : chunks_) list.call<void>("push", c);
    chunks_.clear();
    return list;
}

val export_csv(const std::string& query, double steps, double every) {
    CsvExport e(query, steps, every);
    val all = val::array();
    for (;;) {
        const bool finished = e.run(1 << 20);
        val part = e.take();
        const int n = part["length"].as<int>();
        for (int i = 0; i < n; ++i) all.call<void>("push", part[i]);
        if (finished) return all;
    }
}

}  // namespace stepwise::web
