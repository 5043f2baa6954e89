// The flat arrays that cross into JavaScript, described by name: the per-frame state, each
// plot-history sample and the convergence study's results. One table of series (name, scope, unit, label, getter) gives both the
// layout the page reads (offset, lane stride, body stride of every series) and the code that
// fills the array, so the two cannot disagree. The page decodes by name (web/layout.js).
#pragma once
#include "simulation.hpp"

#include <emscripten/val.h>

#include <string>
#include <vector>

namespace stepwise::web {

class Playground;

// Where a series lives: once per array, once per lane, per lane and body, or per body (the
// reference's bodies). Other arrays reuse the scheme with their own meaning of "lane" and
// "body" (the convergence study: a row per integrator, a level per halving of dt).
enum class Scope { global, lane, lane_body, body };
const char* scope_name(Scope s);

template <class Source>
struct SeriesOf {
    const char* name;
    Scope scope;
    const char* unit;
    const char* label;
    double (*get)(const Source& p, int lane, int body);
};
using Series = SeriesOf<Playground>;

// value(name, lane, body) = array[offset + lane * lane_stride + body * body_stride].
template <class Source>
struct SlotOf {
    const SeriesOf<Source>* series;
    int offset, lane_stride, body_stride;
};

template <class Source>
class LayoutOf {
public:
    LayoutOf(std::vector<const SeriesOf<Source>*> series, int lanes, int bodies);
    int width() const { return width_; }
    // Writes every series of p into out[0 .. width).
    void fill(const Source& p, double* out) const;
    // {width, fields: {name: {offset, lane, body, scope, unit, label}}}.
    emscripten::val describe() const;

private:
    std::vector<SlotOf<Source>> slots_;
    int lanes_, bodies_, width_ = 0;
};

class Layout : public LayoutOf<Playground> {
public:
    using LayoutOf<Playground>::LayoutOf;
    // As above, with the phase series' labels and units from the scene.
    emscripten::val describe(const Simulation& sim) const;
};

// The state array's series, and the history sample's (angular momentum only where the
// system conserves it, the clouds' area ratios only when there are clouds, the links' constraint
// error and tension only where there are links).
std::vector<const Series*> state_series(const Simulation& sim);
std::vector<const Series*> history_series(const Playground& p);

template <class Source>
LayoutOf<Source>::LayoutOf(std::vector<const SeriesOf<Source>*> series, int lanes, int bodies)
    : lanes_(lanes), bodies_(bodies) {
    // Order: the global series, then one block per lane (each body's lane_body series, then
    // the lane series), then each body's body series.
    std::vector<const SeriesOf<Source>*> global, lane_body, lane, body;
    for (const SeriesOf<Source>* s : series) {
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

template <class Source>
void LayoutOf<Source>::fill(const Source& p, double* out) const {
    for (const SlotOf<Source>& s : slots_) {
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

template <class Source>
emscripten::val LayoutOf<Source>::describe() const {
    emscripten::val fields = emscripten::val::object();
    for (const SlotOf<Source>& s : slots_) {
        emscripten::val f = emscripten::val::object();
        f.set("offset", s.offset);
        f.set("lane", s.lane_stride);
        f.set("body", s.body_stride);
        f.set("scope", std::string(scope_name(s.series->scope)));
        f.set("unit", std::string(s.series->unit));
        f.set("label", std::string(s.series->label));
        fields.set(s.series->name, f);
    }
    // The stop codes that series such as `stopped` hold, as the core names and words them.
    emscripten::val reasons = emscripten::val::array();
    for (int code = 0; code < stop_reason_count; ++code) {
        emscripten::val r = emscripten::val::object();
        r.set("name", std::string(stop_reason_name(static_cast<StopReason>(code))));
        r.set("text", std::string(stop_reason_text(static_cast<StopReason>(code))));
        reasons.call<void>("push", r);
    }
    emscripten::val out = emscripten::val::object();
    out.set("width", width_);
    out.set("fields", fields);
    out.set("stop_reasons", reasons);
    return out;
}

}  // namespace stepwise::web
