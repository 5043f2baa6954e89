#include "trace_view.hpp"

#include "number_text.hpp"

#include <algorithm>
#include <cmath>

namespace stepwise::web {

using emscripten::val;

namespace {

// What the series read: the trace and the scene's phase plot (for each stage's phase point).
struct TraceSource {
    const LaneTrace& trace;
    const PhaseSpec& phase;
    int first;  // the stage at index 0 of the array: the series' stage s is trace stage first + s
};
using TraceSeries = SeriesOf<TraceSource>;
const double absent = std::nan("");

// Stage s of the array.
const TraceStage& at(const TraceSource& s, int stage) { return s.trace.stages[static_cast<size_t>(s.first + stage)]; }

// A stage's column: 0 x, 1 v, 2 a (empty where the stage has no such column).
const std::vector<dvec2>& columns(const TraceSource& s, int stage, int which) {
    const TraceStage& st = at(s, stage);
    return which == 0 ? st.x : which == 1 ? st.v : st.a;
}

bool has(const TraceSource& s, int stage, int which) { return !columns(s, stage, which).empty(); }

// Column `which` of a stage, component `y` of it, for one body: NaN where the stage has no such
// column or the number is not finite (JSON and the page never see NaN as a value).
double column(const TraceSource& s, int stage, int body, int which, bool y) {
    const std::vector<dvec2>& c = columns(s, stage, which);
    if (c.empty()) return absent;
    const double value = y ? c[static_cast<size_t>(body)].y : c[static_cast<size_t>(body)].x;
    return std::isfinite(value) ? value : absent;
}

// The stage's point in the phase plot (the scene's projection of x and v), NaN where it has not
// both, or holds increments (dx, dv are no state).
dvec2 phase(const TraceSource& s, int stage) {
    const TraceStage& st = at(s, stage);
    if (st.kind == StageKind::increment || st.x.empty() || st.v.empty()) return {absent, absent};
    const dvec2 p = phase_point(s.phase, st.x.data(), st.v.data());
    return std::isfinite(p.x) && std::isfinite(p.y) ? p : dvec2{absent, absent};
}

// The core's exact text of a number, "" for NaN (a column the stage has not, or not finite).
std::string text(double value) { return std::isfinite(value) ? format_number(value) : std::string(); }

// Globals.
const TraceSeries integrator = {"integrator", Scope::global, "", "index into the integrators table",
                                [](const TraceSource& s, int, int) { return static_cast<double>(s.trace.integrator); }};
const TraceSeries stepped = {"stepped", Scope::global, "", "1 when there is a step (0: the lane had stopped)",
                             [](const TraceSource& s, int, int) { return s.trace.stepped ? 1.0 : 0.0; }};
const TraceSeries step = {"step", Scope::global, "", "the clock step the traced step starts at",
                          [](const TraceSource& s, int, int) { return static_cast<double>(s.trace.step); }};
const TraceSeries time = {"t", Scope::global, "s", "time at the start of the step",
                          [](const TraceSource& s, int, int) { return s.trace.t; }};
const TraceSeries h = {"h", Scope::global, "s", "the step's size", [](const TraceSource& s, int, int) { return s.trace.h; }};
const TraceSeries evaluations = {
    "force_evaluations", Scope::global, "", "force evaluations of the step",
    [](const TraceSource& s, int, int) { return static_cast<double>(s.trace.force_evaluations); }};
const TraceSeries stopped = {"stopped", Scope::global, "", "why the lane stopped: a code of stop_reasons (0 running)",
                             [](const TraceSource& s, int, int) { return static_cast<double>(s.trace.stop); }};
const TraceSeries stopped_at = {"stopped_at", Scope::global, "s", "time the lane stopped",
                                [](const TraceSource& s, int, int) { return s.trace.stopped_at; }};
const TraceSeries stages = {"stages", Scope::global, "", "stages of the whole step",
                            [](const TraceSource& s, int, int) { return static_cast<double>(s.trace.stages.size()); }};
const TraceSeries stages_first = {"first", Scope::global, "", "the step's stage at index 0 of this array (from 0)",
                           [](const TraceSource& s, int, int) { return static_cast<double>(s.first); }};
const TraceSeries bodies = {"bodies", Scope::global, "", "bodies",
                            [](const TraceSource& s, int, int) { return static_cast<double>(s.trace.bodies); }};
// Each stage.
const TraceSeries kind = {"kind", Scope::lane, "", "what the stage is: an index into kinds",
                          [](const TraceSource& s, int stage, int) {
                              return static_cast<double>(at(s, stage).kind);
                          }};
const TraceSeries has_x = {"has_x", Scope::lane, "", "1 when the stage has a position column",
                           [](const TraceSource& s, int stage, int) { return has(s, stage, 0) ? 1.0 : 0.0; }};
const TraceSeries has_v = {"has_v", Scope::lane, "", "1 when the stage has a velocity column",
                           [](const TraceSource& s, int stage, int) { return has(s, stage, 1) ? 1.0 : 0.0; }};
const TraceSeries has_a = {"has_a", Scope::lane, "", "1 when the stage has an acceleration column",
                           [](const TraceSource& s, int stage, int) { return has(s, stage, 2) ? 1.0 : 0.0; }};
const TraceSeries phase_q = {"phase_q", Scope::lane, "", "the stage's point in the phase plot: q",
                             [](const TraceSource& s, int stage, int) { return phase(s, stage).x; }};
const TraceSeries phase_p = {"phase_p", Scope::lane, "", "the stage's point in the phase plot: p",
                             [](const TraceSource& s, int stage, int) { return phase(s, stage).y; }};
// Each stage and body.
const TraceSeries x = {"x", Scope::lane_body, "m", "x (an increment: its dx)",
                       [](const TraceSource& s, int stage, int b) { return column(s, stage, b, 0, false); }};
const TraceSeries y = {"y", Scope::lane_body, "m", "y (an increment: its dy)",
                       [](const TraceSource& s, int stage, int b) { return column(s, stage, b, 0, true); }};
const TraceSeries vx = {"vx", Scope::lane_body, "m/s", "vx (an increment: its dvx)",
                        [](const TraceSource& s, int stage, int b) { return column(s, stage, b, 1, false); }};
const TraceSeries vy = {"vy", Scope::lane_body, "m/s", "vy (an increment: its dvy)",
                        [](const TraceSource& s, int stage, int b) { return column(s, stage, b, 1, true); }};
const TraceSeries ax = {"ax", Scope::lane_body, "m/s²", "ax",
                        [](const TraceSource& s, int stage, int b) { return column(s, stage, b, 2, false); }};
const TraceSeries ay = {"ay", Scope::lane_body, "m/s²", "ay",
                        [](const TraceSource& s, int stage, int b) { return column(s, stage, b, 2, true); }};

}  // namespace

val trace_value(const LaneTrace& trace, const PhaseSpec& phase, int first, int count) {
    const int all = static_cast<int>(trace.stages.size());
    first = std::clamp(first, 0, all);
    const int stage_count = std::clamp(count, 0, all - first);
    const TraceSource source{trace, phase, first};
    const LayoutOf<TraceSource> layout({&integrator, &stepped, &step, &time, &h, &evaluations, &stopped, &stopped_at,
                                        &stages, &stages_first, &bodies, &kind, &has_x, &has_v, &has_a, &phase_q,
                                        &phase_p, &x, &y, &vx, &vy, &ax, &ay},
                                       stage_count, trace.bodies);
    std::vector<double> values(static_cast<size_t>(layout.width()));
    layout.fill(source, values.data());
    val desc = layout.describe();
    val kinds = val::array();
    for (int k = 0; k < stage_kind_count; ++k) kinds.call<void>("push", std::string(stage_kind_name(static_cast<StageKind>(k))));
    desc.set("kinds", kinds);
    const TraceSeries* const cell_series[] = {&x, &y, &vx, &vy, &ax, &ay};
    val names = val::array();
    for (const TraceSeries* c : cell_series) names.call<void>("push", std::string(c->name));
    desc.set("columns", names);
    desc.set("stages", stage_count);
    desc.set("bodies", trace.bodies);
    val labels = val::array();
    val cells = val::array();
    for (int st = 0; st < stage_count; ++st) {
        labels.call<void>("push", at(source, st).label);
        val per_body = val::array();
        for (int b = 0; b < trace.bodies; ++b) {
            val row = val::array();
            for (const TraceSeries* c : cell_series) row.call<void>("push", text(c->get(source, st, b)));
            per_body.call<void>("push", row);
        }
        cells.call<void>("push", per_body);
    }
    val numbers = val::object();
    numbers.set("t", text(trace.t));
    numbers.set("h", trace.stepped ? text(trace.h) : std::string());
    val out = val::object();
    out.set("layout", desc);
    // A copy: the vector is gone when this returns.
    out.set("values", val::global("Float64Array").new_(emscripten::typed_memory_view(values.size(), values.data())));
    out.set("labels", labels);
    out.set("cells", cells);
    out.set("text", numbers);
    return out;
}

}  // namespace stepwise::web
