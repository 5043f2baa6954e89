// The page's view of the core: a Simulation that advances in one call and hands out its whole
// state (and the plot history) as flat arrays of doubles, so that one frame crosses into wasm
// a handful of times, never once per body or per value. Plus the config functions and tables
// as plain JS values (no handles to delete). Emscripten-only; core/ stays free of it.
#pragma once
#include "config.hpp"
#include "cloud.hpp"
#include "deadline.hpp"
#include "layout.hpp"
#include "simulation.hpp"
#include "trace.hpp"

#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

namespace stepwise::web {

// The page's two modules are built from the same sources (wasm_bindings/CMakeLists.txt): the
// motion module (STEPWISE_PAGE_MOTION: the simulation, its tables and the X-ray; what the first
// frame needs) and the full module (everything: the phase-space clouds, the analysis views, the
// export). In the motion module the clouds' paths compile away.
#ifdef STEPWISE_PAGE_MOTION
constexpr bool module_has_clouds = false;
#else
constexpr bool module_has_clouds = true;
#endif

// How many plot-history samples are kept (then every other one is dropped and the stride doubles).
constexpr int history_capacity = 1024;
// The page's limits on the phase-space cloud (the CLI allows more): points per integrator, the
// memory all clouds may take (the module's heap grows up to 2 GiB), and how many of the exact
// flow's points are followed for its ghost.
constexpr int max_page_cloud_points = 100000;
constexpr double max_cloud_bytes = 1024.0 * 1024 * 1024;
constexpr int exact_cloud_sample = 2000;
// The most work one call from the page (advance_within, an export's run, a slice of the bounds
// probe) does, in the core's units (Simulation::work: force evaluations, a solver's pass over its
// rows counting as one, times what one visits), checked before every unit of work (a lane's
// substep, a few of an rk45 step's substeps), so that a call does at most this plus one unit.
// Calibrated once (docs/performance-web.md, "Work per task"): a unit of the heavy links cost 177
// to 269 ns in the page's module on a loaded machine, so this is at most about 27 ms of work there
// (400,000 units, the first choice, made calls of 55-67 ms CPU in the long-task tests).
constexpr long long max_work_per_call = 100000;
// Copies of a cloud stepped in one call of the ensemble, between two reads of the clock, at most;
// clouds of at most cloud_build_at_once copies in all are built with the Playground (a few ms).
// A copy's step costs from 20 ns (explicit Euler) to 0.1 ms (rk45 taking 2000 substeps on a stiff
// system: 1000 copies were one step of 120 ms), so each cloud's part is sized from what its last
// part cost, to about cloud_part_ms, starting at cloud_part_first copies.
constexpr int cloud_part = 2048;
constexpr int cloud_part_first = 32;
constexpr double cloud_part_ms = 2.0;
constexpr double cloud_part_work = max_work_per_call / 4;
constexpr int cloud_build_at_once = 32768;
// The clouds' point buffers grow by this many floats per unit of building (4 MB): touching fresh
// memory costs time too, and 15 clouds of 100,000 points need 24 MB of buffers (one 45-55 ms
// task of the page when it was allocated with the Playground).
constexpr size_t cloud_buffer_part = size_t{1} << 20;
// A closed-form motion's box is sampled at this many intervals over the duration.
constexpr int motion_bound_samples = 400;

class Playground {
public:
    explicit Playground(const std::string& query);

    void reset();
    // Builds the integrators' phase-space clouds for about budget_ms (a whole cloud at a time);
    // true once every one is built. Small clouds are built with the Playground; until the others
    // are, the clouds read as not there (NaN ratios, no points) and advance_within takes no
    // step; advance_steps builds them all first.
    bool prepare(double budget_ms);
    bool clouds_ready() const;
    // True in the motion module when the query asks for a phase-space cloud: this simulation runs
    // without it, and the page makes the query's simulation in the full module instead.
    bool needs_full_module() const { return cloud_for_full_module_ > 0; }
    // The parts the query needs that this module lacks (core/parts.hpp), by id; none when it runs
    // the query. With any, this simulation runs the default scenario instead, and the page makes
    // the query in a module that carries them.
    emscripten::val missing_parts() const;

    // Advances by n whole steps (frames, with a game loop; n clamped to [0, max_steps_per_call]);
    // returns the steps taken.
    int advance_steps(int n);
    // The same within about budget_ms of wall time: the page's stepping per frame. The work is
    // taken in units (a cloud's part; a physics step of every lane with the rk45 reference's step
    // behind it: the reference is lazy in the core and brought along here, so that its cost is
    // inside the budget), and the call returns once the budget has passed, inside a cloud's step
    // or a game loop's frame if need be: 0 when none was finished, the rest in the next call. A
    // frame of one step is one unit, so without clouds a call takes one step at least. After a
    // whole frame another starts only while the last one's cost fits in the budget left, so that
    // what is read (state(), after a call that took steps) is a whole frame.
    int advance_within(int n, double budget_ms);
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
    bool has_exact_cloud() const { return exact_cloud_.has_value(); }
    int history_count() const { return history_count_; }
    int history_generation() const { return history_generation_; }
    int last_advance() const { return last_advance_; }
    // The work (see max_work_per_call) of the last advance_within call, and the most of any call.
    double last_work() const { return last_work_; }
    double most_work() const { return most_work_; }
    double evaluation_size() const { return static_cast<double>(sim_.evaluation_size()); }

    // The normalised config; in the motion module with the cloud the link asked for (run without).
    std::string config() const {
        if (cloud_for_full_module_ == 0) return normalise(sim_.config());
        Config asked = sim_.config();
        asked.cloud = cloud_for_full_module_;
        return normalise(asked);
    }
    emscripten::val errors() const;  // the parse errors of the query this was made from
    // The page's unit of time: a step of dt, or with a game loop a frame of 1/hz (the runner
    // advances one frame per 1/hz of wall time, so a 30 Hz loop shows 30 new states a second).
    double dt() const { return sim_.frame_loop() ? 1.0 / sim_.config().loop.hz : sim_.config().dt; }
    // The game loop: {kind ('' without one), text (in words), hz, substeps, jitter, seed,
    // maxSteps, step (the physics step)}.
    emscripten::val loop() const;
    double time() const { return sim_.time(); }
    int lanes() const { return sim_.lanes(); }
    int bodies() const { return sim_.bodies(); }
    emscripten::val lane_ids() const;
    // The box the exact (or reference) motion of every body stays in, as far as it is known:
    // {minX, maxX, minY, maxY, t, done}, t the time up to which it is known. The page fits its
    // view to it. A closed form is sampled at motion_bound_samples + 1 times over the whole
    // duration in the first call (a few hundred evaluations, whatever the duration); an rk45
    // reference has no shortcut, so a probe steps it ahead, dt by dt, for budget_ms per call
    // (never a whole long run at once: 100,000 s of a stiff spring is minutes of work), until
    // the duration or until the reference stops. A budget of 0 steps nothing (the start alone).
    emscripten::val grow_bounds(double budget_ms);
    // The system's fastest mode at its start state (core/stability.hpp): {oscillates, omega, zeta}.
    emscripten::val stiffest_mode() const;
    // The stage X-ray of the next step of the lane whose integrator id is `integrator`
    // (core/trace.hpp), as a job in slices, one at a time (a new one replaces it; this simulation
    // does not move): a tick of a stiff system is milliseconds of work, and rk45's step on one
    // has up to 14,000 stages, so nothing here is one long call. trace_start: false (and no job)
    // when no lane has that integrator. trace_run: advances the trace (NextStepTrace: ticks of a
    // copy of the simulation until the lane has stepped, then its labels) until it is done or
    // budget_ms has passed (one unit at least); true once traced.
    // trace_stages: stages [first, first + count) of the traced step (trace_view.hpp), null
    // before. trace_csv: the rows of `stepwise trace QUERY --integrator ID --step N` (N the
    // steps taken) from stage `first` on, the header with first 0, until budget_ms has passed
    // (64 stages at least): {text, next}, next the stage to go on from (all the stages: done).
    // trace_end: the job's memory is freed.
    bool trace_start(const std::string& integrator);
    bool trace_run(double budget_ms);
    emscripten::val trace_stages(int first, int count) const;
    emscripten::val trace_csv(int first, double budget_ms) const;
    void trace_end();

    static constexpr int max_steps_per_call = 100000;

private:
    bool build_clouds(const Deadline* deadline);
    bool step_once(const Deadline* deadline);
    bool step_clouds(const Deadline* deadline);
    void keep_cloud_views();
    void note_part(size_t lane, int first, int count);
    void record();
    void compact();
    void take_in(const std::vector<dvec2>& points);

    int cloud_for_full_module_ = 0;  // before parsed_: page_config sets it
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
    size_t cloud_values_ = 0;  // the floats cloud_points_ holds once built (reserved at once)
    // Clouds take each step in parts (a deadline may fall between them): the step's clouds
    // first, a cloud and a part at a time from here, then the lanes. What is read is always a
    // whole step: the clouds' points, area ratios and finite counts are those of the last whole
    // step (keep_cloud_views at t = 0), while each part writes its own into the next_ copies
    // (note_part), swapped in when the step is whole.
    bool split_clouds_ = false;
    bool clouds_ready_ = false;  // every cloud built, and their views and history taken
    std::vector<dvec2> cloud_offsets_;  // the start disc, while the clouds are being built
    size_t cloud_lane_ = 0;
    int cloud_copy_ = 0;
    std::vector<int> cloud_part_size_;  // each cloud's copies per part (see cloud_part_ms)
    std::vector<double> kept_area_ratio_, next_area_ratio_;
    std::vector<int> next_points_finite_;
    std::vector<float> next_cloud_points_;
    Layout state_layout_, history_layout_;
    std::vector<double> state_;
    std::vector<double> history_;  // history_count_ samples of sample_width_ doubles
    int sample_width_ = 0;
    int history_count_ = 0;
    int history_stride_ = 1;       // a sample every this many steps; doubles when full
    int history_generation_ = 0;   // bumps when compaction rewrites old samples
    int last_advance_ = 0;
    double last_work_ = 0.0, most_work_ = 0.0;
    double cloud_work_ = 0.0;  // of the clouds' parts in the call under way, and its limit
    double cloud_work_limit_ = static_cast<double>(max_work_per_call);
    // advance_within's budget of work (Simulation::work) for the call under way;
    // a frame whole with its reference still catching up (take_frame); the state of the last
    // whole frame kept for state() while the next is under way.
    long long work_until_ = Simulation::unlimited_work;
    bool frame_whole_ = false;
    bool state_kept_ = false;
    void keep_state();
    // A frame under way: its steps (or a step's parts) or, whole, its reference still catching up.
    bool mid_frame() const { return sim_.in_frame() || frame_whole_; }
    // The wall time of the frame under way so far (all its parts), and of the last whole one.
    double frame_ms_ = 0.0, last_frame_ms_ = 0.0;
    // grow_bounds: the probe that steps the rk45 reference ahead, and what it has seen so far.
    std::unique_ptr<Simulation> bounds_probe_;
    double bounds_[4] = {1e300, -1e300, 1e300, -1e300};
    double bounds_t_ = 0.0;
    bool bounds_done_ = false;
    // The X-ray's job: the trace under way, then the traced step.
    std::unique_ptr<NextStepTrace> tracing_;
    std::optional<LaneTrace> traced_;
};

// Config functions and tables, as plain JS objects and arrays.
// {ok, config, errors: [{key, value, message, code, args}], noLaneSteps, missingParts: [part id]}
emscripten::val parse(const std::string& query);
// The parts of the core this module carries (core/parts.hpp), by id: the page makes a link whose
// parse names missingParts in a module that carries them.
emscripten::val carried_parts_list();
// The valid parts, normalised; "" when this module cannot read the link (a part of the core it
// lacks reads it: ParseResult::unread).
std::string normalise_query(const std::string& query);
// Every table of the core as JSON (core/tables.hpp), the page module's own limits added.
std::string tables();

// The text of `stepwise run QUERY --steps N --every K --format csv|json`, in slices, so the page
// stays responsive on a long run: run(n, budget_ms) advances at most n more steps (fewer once
// ~1 MB of text waits, or once budget_ms of wall time has passed) and returns true when done; take() hands over the text chunks (each ~256 KB) written
// so far, so a long export never needs one large buffer inside the fixed wasm heap. Call take()
// after every run(). The rows come from core/rows.hpp, the CLI's own formatter.
// steps is clamped to [0, max_steps], every to >= 1, and at most max_export_rows rows are
// written (the caller picks `every` to stay under it; rows past the cap are dropped).
constexpr long long max_export_rows = 200000;

class RunExport {
public:
    RunExport(const std::string& query, double steps, double every, const std::string& format);
    bool run(int max_steps, double budget_ms);
    emscripten::val take();
    double done() const { return static_cast<double>(step_); }
    double total() const { return static_cast<double>(steps_); }

private:
    void emit();
    void flush();

    Simulation sim_;
    bool json_ = false, first_row_ = true, finished_ = false;
    long long steps_ = 0, every_ = 1, step_ = 0, rows_ = 0;
    bool frame_whole_ = false;  // take_frame's
    std::string out_;
    std::vector<std::string> chunks_;
};

// The whole export at once (tests and small runs): an array of text chunks.
emscripten::val export_run(const std::string& query, double steps, double every, const std::string& format);

}  // namespace stepwise::web
