#include "layout.hpp"

#include "playground.hpp"

#include <algorithm>

namespace stepwise::web {

using emscripten::val;

namespace {

const char* scope_name(Scope s) {
    switch (s) {
        case Scope::global: return "global";
        case Scope::lane: return "lane";
        case Scope::lane_body: return "lane_body";
        case Scope::body: return "body";
    }
    return "";
}

double max_error(const Simulation& sim, int lane) {
    double worst = 0.0;
    for (int b = 0; b < sim.bodies(); ++b) worst = std::max(worst, sim.error(lane, b));
    return worst;
}

// Header of the state array.
const Series t_series = {"t", Scope::global, "s", "time", [](const Playground& p, int, int) { return p.sim().time(); }};
const Series steps_series = {"steps", Scope::global, "", "steps taken",
                             [](const Playground& p, int, int) { return static_cast<double>(p.sim().steps()); }};
const Series history_count = {"history_count", Scope::global, "", "plot samples recorded",
                              [](const Playground& p, int, int) { return static_cast<double>(p.history_count()); }};
const Series history_generation = {
    "history_generation", Scope::global, "", "bumps when old samples are rewritten",
    [](const Playground& p, int, int) { return static_cast<double>(p.history_generation()); }};
const Series last_advance = {"last_advance", Scope::global, "", "steps taken by the last advance",
                             [](const Playground& p, int, int) { return static_cast<double>(p.last_advance()); }};
const Series reference_energy = {"reference_energy", Scope::global, "J", "energy of the reference",
                                 [](const Playground& p, int, int) { return p.sim().reference_energy(); }};
const Series reference_stopped = {
    "reference_stopped", Scope::global, "", "0 running, 1 diverged, 2 collision",
    [](const Playground& p, int, int) { return static_cast<double>(p.sim().reference_stop_reason()); }};
const Series reference_stopped_at = {"reference_stopped_at", Scope::global, "s", "time the reference stopped",
                                     [](const Playground& p, int, int) { return p.sim().reference_stopped_at(); }};
const Series reference_angular_momentum = {
    "reference_angular_momentum", Scope::global, "kg·m²/s", "angular momentum of the reference",
    [](const Playground& p, int, int) { return p.sim().reference_angular_momentum(); }};
const Series reference_phase_q = {"reference_phase_q", Scope::global, "", "",
                                  [](const Playground& p, int, int) { return p.sim().reference_phase().x; }};
const Series reference_phase_p = {"reference_phase_p", Scope::global, "", "",
                                  [](const Playground& p, int, int) { return p.sim().reference_phase().y; }};

// Each lane's bodies.
const Series x = {"x", Scope::lane_body, "m", "x", [](const Playground& p, int l, int b) { return p.sim().lane(l).x[b].x; }};
const Series y = {"y", Scope::lane_body, "m", "y", [](const Playground& p, int l, int b) { return p.sim().lane(l).x[b].y; }};
const Series vx = {"vx", Scope::lane_body, "m/s", "vx",
                   [](const Playground& p, int l, int b) { return p.sim().lane(l).v[b].x; }};
const Series vy = {"vy", Scope::lane_body, "m/s", "vy",
                   [](const Playground& p, int l, int b) { return p.sim().lane(l).v[b].y; }};
const Series error = {"error", Scope::lane_body, "m", "distance from the reference position",
                      [](const Playground& p, int l, int b) { return p.sim().error(l, b); }};

// Each lane.
const Series energy = {"energy", Scope::lane, "J", "mechanical energy",
                       [](const Playground& p, int l, int) { return p.sim().energy(l); }};
const Series energy_drift = {"energy_drift", Scope::lane, "",
                             "energy drift: (E − E_reference) ÷ the energy scale",
                             [](const Playground& p, int l, int) { return p.sim().energy_drift(l); }};
const Series stopped = {"stopped", Scope::lane, "", "0 running, 1 diverged, 2 collision",
                        [](const Playground& p, int l, int) { return static_cast<double>(p.sim().stop_reason(l)); }};
const Series stopped_at = {"stopped_at", Scope::lane, "s", "time the lane stopped",
                           [](const Playground& p, int l, int) { return p.sim().diverged(l) ? p.sim().diverged_at(l) : 0.0; }};
const Series dissipated = {"dissipated", Scope::lane, "J", "energy removed by damping and drag",
                           [](const Playground& p, int l, int) { return p.sim().dissipated(l); }};
const Series max_error_series = {"max_error", Scope::lane, "m", "position error, worst body",
                                 [](const Playground& p, int l, int) { return max_error(p.sim(), l); }};
const Series angular_momentum = {"angular_momentum", Scope::lane, "kg·m²/s", "angular momentum",
                                 [](const Playground& p, int l, int) { return p.sim().angular_momentum(l); }};
const Series angular_momentum_drift = {
    "angular_momentum_drift", Scope::lane, "", "angular momentum drift: (L − L_reference) ÷ Σ m·|r₀|·|v₀|",
    [](const Playground& p, int l, int) { return p.sim().angular_momentum_drift(l); }};
const Series phase_q = {"phase_q", Scope::lane, "", "", [](const Playground& p, int l, int) { return p.sim().phase(l).x; }};
const Series phase_p = {"phase_p", Scope::lane, "", "", [](const Playground& p, int l, int) { return p.sim().phase(l).y; }};

// The phase-space clouds (NaN where there are none, or once a cloud's rim is not finite).
const Series area_ratio = {"area_ratio", Scope::lane, "", "phase-space area ÷ its area at t = 0",
                           [](const Playground& p, int l, int) { return p.cloud_area_ratio(l); }};
const Series points_finite = {"points_finite", Scope::lane, "", "cloud points still finite",
                              [](const Playground& p, int l, int) { return p.cloud_points_finite(l); }};
const Series exact_area_ratio = {"exact_area_ratio", Scope::global, "", "the exact flow's area ratio",
                                 [](const Playground& p, int, int) { return p.exact_cloud_area_ratio(); }};

// The reference's bodies.
const Series reference_x = {"reference_x", Scope::body, "m", "reference x",
                            [](const Playground& p, int, int b) { return p.sim().reference_x()[b].x; }};
const Series reference_y = {"reference_y", Scope::body, "m", "reference y",
                            [](const Playground& p, int, int b) { return p.sim().reference_x()[b].y; }};
const Series reference_vx = {"reference_vx", Scope::body, "m/s", "reference vx",
                             [](const Playground& p, int, int b) { return p.sim().reference_v()[b].x; }};
const Series reference_vy = {"reference_vy", Scope::body, "m/s", "reference vy",
                             [](const Playground& p, int, int b) { return p.sim().reference_v()[b].y; }};

}  // namespace

std::vector<const Series*> state_series() {
    return {&t_series, &steps_series, &history_count, &history_generation, &last_advance, &reference_energy,
            &reference_stopped, &reference_stopped_at, &reference_angular_momentum, &reference_phase_q,
            &reference_phase_p, &x, &y, &vx, &vy, &error, &energy, &energy_drift, &stopped, &stopped_at,
            &dissipated, &max_error_series, &angular_momentum, &angular_momentum_drift, &phase_q, &phase_p,
            &area_ratio, &points_finite, &exact_area_ratio, &reference_x, &reference_y, &reference_vx,
            &reference_vy};
}

std::vector<const Series*> history_series(const Playground& p) {
    const Simulation& sim = p.sim();
    std::vector<const Series*> list = {&t_series, &reference_phase_q, &reference_phase_p, &energy_drift,
                                       &max_error_series, &phase_q, &phase_p};
    if (sim.conserves_angular_momentum()) list.push_back(&angular_momentum_drift);
    if (sim.config().cloud > 0) {
        list.push_back(&area_ratio);
        if (sim.reference_kind() == ReferenceKind::exact) list.push_back(&exact_area_ratio);
    }
    list.push_back(&reference_x);  // the reference's path: the orbit's ghost
    list.push_back(&reference_y);
    return list;
}

Layout::Layout(std::vector<const Series*> series, int lanes, int bodies)
    : series_(std::move(series)), lanes_(lanes), bodies_(bodies) {
    // Order: the global series, then one block per lane (each body's lane_body series, then
    // the lane series), then each body's body series.
    std::vector<const Series*> global, lane_body, lane, body;
    for (const Series* s : series_) {
        switch (s->scope) {
            case Scope::global: global.push_back(s); break;
            case Scope::lane_body: lane_body.push_back(s); break;
            case Scope::lane: lane.push_back(s); break;
            case Scope::body: body.push_back(s); break;
        }
    }
    const int head = static_cast<int>(global.size());
    const int per_body = static_cast<int>(lane_body.size());
    const int lane_stride = bodies * per_body + static_cast<int>(lane.size());
    const int tail = head + lanes * lane_stride;
    const int body_stride = static_cast<int>(body.size());
    for (int k = 0; k < head; ++k) slots_.push_back({global[k], k, 0, 0});
    for (int k = 0; k < per_body; ++k) slots_.push_back({lane_body[k], head + k, lane_stride, per_body});
    for (size_t k = 0; k < lane.size(); ++k)
        slots_.push_back({lane[k], head + bodies * per_body + static_cast<int>(k), lane_stride, 0});
    for (int k = 0; k < body_stride; ++k) slots_.push_back({body[k], tail + k, 0, body_stride});
    width_ = tail + bodies * body_stride;
}

void Layout::fill(const Playground& p, double* out) const {
    for (const Slot& s : slots_) {
        switch (s.series->scope) {
            case Scope::global: out[s.offset] = s.series->get(p, 0, 0); break;
            case Scope::lane:
                for (int l = 0; l < lanes_; ++l) out[s.offset + l * s.lane_stride] = s.series->get(p, l, 0);
                break;
            case Scope::lane_body:
                for (int l = 0; l < lanes_; ++l)
                    for (int b = 0; b < bodies_; ++b)
                        out[s.offset + l * s.lane_stride + b * s.body_stride] = s.series->get(p, l, b);
                break;
            case Scope::body:
                for (int b = 0; b < bodies_; ++b) out[s.offset + b * s.body_stride] = s.series->get(p, 0, b);
                break;
        }
    }
}

val Layout::describe(const Simulation& sim) const {
    const PhaseNames names = phase_names(sim.scene().phase);
    val fields = val::object();
    for (const Slot& s : slots_) {
        std::string label = s.series->label, unit = s.series->unit;
        const std::string name = s.series->name;
        const bool q = name == "phase_q" || name == "reference_phase_q";
        const bool p = name == "phase_p" || name == "reference_phase_p";
        if (q || p) {
            label = q ? names.q : names.p;
            unit = q ? names.unit_q : names.unit_p;
        }
        val f = val::object();
        f.set("offset", s.offset);
        f.set("lane", s.lane_stride);
        f.set("body", s.body_stride);
        f.set("scope", std::string(scope_name(s.series->scope)));
        f.set("unit", unit);
        f.set("label", label);
        fields.set(name, f);
    }
    val out = val::object();
    out.set("width", width_);
    out.set("fields", fields);
    return out;
}

}  // namespace stepwise::web
