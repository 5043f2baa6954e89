// The flat arrays that cross into JavaScript, described by name: the per-frame state and each
// plot-history sample. One table of series (name, scope, unit, label, getter) gives both the
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
// reference's bodies).
enum class Scope { global, lane, lane_body, body };

struct Series {
    const char* name;
    Scope scope;
    const char* unit;
    const char* label;
    double (*get)(const Playground& p, int lane, int body);
};

// value(name, lane, body) = array[offset + lane * lane_stride + body * body_stride].
struct Slot {
    const Series* series;
    int offset, lane_stride, body_stride;
};

class Layout {
public:
    Layout(std::vector<const Series*> series, int lanes, int bodies);
    int width() const { return width_; }
    // Writes every series of p into out[0 .. width).
    void fill(const Playground& p, double* out) const;
    // {width, fields: {name: {offset, lane, body, scope, unit, label}}}; labels of the phase
    // series come from the scene.
    emscripten::val describe(const Simulation& sim) const;

private:
    std::vector<const Series*> series_;
    std::vector<Slot> slots_;
    int lanes_, bodies_, width_ = 0;
};

// The state array's series, and the history sample's (angular momentum only where the
// system conserves it, the clouds' area ratios only when there are clouds).
std::vector<const Series*> state_series();
std::vector<const Series*> history_series(const Playground& p);

}  // namespace stepwise::web
