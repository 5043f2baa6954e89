// The page's view of the core: a Simulation that advances in one call and hands out its whole
// state (and the plot history) as flat arrays of doubles, so that one frame crosses into wasm
// a handful of times, never once per body or per value. Plus the config functions and tables
// as plain JS values (no handles to delete). Emscripten-only; core/ stays free of it.
#pragma once
#include "config.hpp"
#include "cloud.hpp"
#include "layout.hpp"
#include "simulation.hpp"

#include <emscripten/val.h>

#include <string>
#include <vector>

namespace stepwise::web {

// How many plot-history samples are kept (then every other one is dropped and the stride doubles).
constexpr int history_capacity = 1024;
// The page's limits on the phase-space cloud (the CLI allows more): points per integrator, the
// memory all clouds may take (the module's heap grows up to 2 GiB), and how many of the exact
// flow's points are followed for its ghost.
constexpr int max_page_cloud_points = 100000;
constexpr double max_cloud_bytes = 1024.0 * 1024 * 1024;
constexpr int exact_cloud_sample = 2000;

class Playground {
public:
    explicit Playground(const std::string& query);

    void reset();
    // Advances by n whole steps (n clamped to [0, max_steps_per_call]); returns the steps taken.
    int advance_steps(int n);
    // Advances to the step nearest t + seconds, returns the steps taken.
    int advance_time(double seconds);

    // Fresh views into buffers owned here; valid until the next call into this object. Their
    // layouts, by name: layout() = {state: {width, fields}, history: {width, fields}}.
    emscripten::val state();
    emscripten::val history(int from);
    emscripten::val layout() const;
    // What to draw, from the core: bodies, anchors, springs, gravity, central bodies, the
    // reference and the phase plot's axes. No scenario id needs to be known to draw it.
    emscripten::val scene() const;

    // The clouds' points as one flat array of floats (they are only drawn): for each lane in
    // turn, `cloud` (x, vx) pairs of body 0, then the exact flow's followed points (none where
    // the scene has no closed form). layout().cloud says how many of each.
    emscripten::val cloud_points();

    const Simulation& sim() const { return sim_; }
    // Area ratio of lane l's cloud (NaN when it has none or its rim is no longer finite), its
    // finite points, and the exact flow's ratio.
    double cloud_area_ratio(int lane) const;
    double cloud_points_finite(int lane) const;
    double exact_cloud_area_ratio() const;
    bool has_cloud() const { return !clouds_.empty(); }
    bool has_exact_cloud() const { return exact_cloud_.has_value(); }
    int history_count() const { return history_count_; }
    int history_generation() const { return history_generation_; }
    int last_advance() const { return last_advance_; }

    std::string config() const { return normalise(sim_.config()); }
    emscripten::val errors() const;  // the parse errors of the query this was made from
    double dt() const { return sim_.config().dt; }
    double time() const { return sim_.time(); }
    int lanes() const { return sim_.lanes(); }
    int bodies() const { return sim_.bodies(); }
    emscripten::val lane_ids() const;
    // The box [xmin, xmax, ymin, ymax] holding the exact (or reference) motion of every body over
    // the configured duration, sampled at `samples` + 1 times: the page fits its view to it.
    emscripten::val motion_bounds(int samples) const;
    // The system's fastest mode at its start state (core/stability.hpp): {oscillates, omega, zeta}.
    emscripten::val stiffest_mode() const;

    static constexpr int max_steps_per_call = 100000;

private:
    void record();
    void compact();

    ParseResult parsed_;
    Simulation sim_;
    std::vector<PhaseCloud> clouds_;
    // The exact flow's cloud is moved to the current time when read (a cache).
    mutable std::optional<ExactCloud> exact_cloud_;
    mutable double exact_cloud_t_ = -1.0;
    // Each cloud's finite points, counted once per step (a scan of every point), not per read.
    mutable std::vector<int> points_finite_;
    mutable long long points_finite_step_ = -1;
    std::vector<float> cloud_points_;
    Layout state_layout_, history_layout_;
    std::vector<double> state_;
    std::vector<double> history_;  // history_count_ samples of sample_width_ doubles
    int sample_width_ = 0;
    int history_count_ = 0;
    int history_stride_ = 1;       // a sample every this many steps; doubles when full
    int history_generation_ = 0;   // bumps when compaction rewrites old samples
    int last_advance_ = 0;
};

// Config functions and tables, as plain JS objects and arrays.
emscripten::val parse(const std::string& query);  // {ok, config, errors: [{key, value, message}]}
std::string normalise_query(const std::string& query);  // the valid parts, normalised
emscripten::val integrator_table();
emscripten::val scenario_table();
emscripten::val preset_table();
emscripten::val limits();  // dt_max, duration_max, max_steps, default dt, ...

// The text of `stepwise run QUERY --steps N --every K --format csv|json`, in slices, so the page
// stays responsive on a long run: run(n) advances at most n more steps (fewer once ~1 MB of text
// waits) and returns true when done; take() hands over the text chunks (each ~256 KB) written
// so far, so a long export never needs one large buffer inside the fixed wasm heap. Call take()
// after every run(). The rows come from core/rows.hpp, the CLI's own formatter.
// steps is clamped to [0, max_steps], every to >= 1, and at most max_export_rows rows are
// written (the caller picks `every` to stay under it; rows past the cap are dropped).
constexpr long long max_export_rows = 200000;

class RunExport {
public:
    RunExport(const std::string& query, double steps, double every, const std::string& format);
    bool run(int max_steps);
    emscripten::val take();
    double done() const { return static_cast<double>(step_); }
    double total() const { return static_cast<double>(steps_); }

private:
    void emit();
    void flush();

    Simulation sim_;
    bool json_ = false, first_row_ = true, finished_ = false;
    long long steps_ = 0, every_ = 1, step_ = 0, rows_ = 0;
    std::string out_;
    std::vector<std::string> chunks_;
};

// The whole export at once (tests and small runs): an array of text chunks.
emscripten::val export_run(const std::string& query, double steps, double every, const std::string& format);

}  // namespace stepwise::web
