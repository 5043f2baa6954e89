// A convergence study: the system of a Config run at dt, dt/2, …, dt/2^halvings with each of
// its integrators, every level's error measured against the reference (closed form or rk45) at
// every step. Or, along the iterations axis, at one dt with a solver lane's iterations I, 2I, …,
// 2^halvings·I: what the iterations converge to, and whether that is the exact motion. It runs in slices of bounded work (advance), so the page can show progress
// between animation frames and the CLI can run it to the end in one call.
#pragma once
#include "config.hpp"
#include "simulation.hpp"

#include <memory>
#include <vector>

namespace stepwise {

constexpr int default_halvings = 4;
constexpr int max_halvings = 12;
// Work is counted in lane-steps (one integrator, one step of dt; the reference counts as one
// more lane). A study plans the finest levels it can within this cap and says which it dropped.
constexpr double default_convergence_work = 2e8;

// What a study varies from level to level: dt (halved), or a solver lane's iterations (doubled)
// at the lane's dt and substeps.
enum class StudyAxis { dt, iterations };
const char* study_axis_id(StudyAxis axis);  // "dt", "iterations"
// The lanes an iterations study runs: those whose method has iterations (a game-physics solver).
bool has_iterations(const LaneSpec& lane);

struct ConvergencePoint {
    double dt = 0.0;
    int iterations = 0;         // the lane's iterations per substep at this level (0: none)
    long long evaluations = 0;  // force evaluations of the whole run (Lane::force_evaluations)
    double max_error = 0.0;     // max over steps and bodies of |x - x_ref|
    double final_error = 0.0;   // max over bodies at the end (or where the lane stopped)
    StopReason stop = StopReason::none;
    double stopped_at = 0.0;
};

struct OrderFit {
    bool valid = false;  // at least two usable levels
    double order = 0.0;  // least-squares slope of log max_error against log dt
    int points = 0;      // levels used
};

// The fit over the points above `floor` whose lane did not stop.
OrderFit fit_order(const ConvergencePoint* points, int n, double floor);

// Along the iterations axis: where a row's error goes as its iterations double.
// A row has settled when the last doubling changed its max error by less than this fraction.
constexpr double iterations_settled = 0.01;
struct IterationsTrend {
    bool valid = false;  // at least two finished levels, the lane running to the end in both
    int first_iterations = 0, last_iterations = 0;
    double first_error = 0.0, last_error = 0.0;  // max errors at the first and last level
    double last_change = 0.0;  // |e_last − e_before| / e_before at the last doubling
    bool settled = false;      // last_change < iterations_settled
    bool at_floor = false;     // last_error at or below the noise floor: the exact motion, as far as it can tell
};

class ConvergenceStudy {
public:
    // Along StudyAxis::iterations the rows are c's lanes that have iterations (none: no rows), and
    // the levels stop before a lane would pass max_lane_iterations or max_lane_passes.
    ConvergenceStudy(const Config& c, int halvings = default_halvings,
                     double max_work = default_convergence_work, StudyAxis axis = StudyAxis::dt);

    // Runs at most `work` lane-steps; true when the study is finished. With max_core_work, the
    // call also ends once its simulation has done that much work in the core's units
    // (Simulation::work), inside a step if need be (its lanes in parts, then its reference: a
    // stiff system's step at the rk45 cap was 100 ms of one call on the page); the step goes on
    // at the next call and ends in the same bits as a whole one.
    bool advance(double work, long long max_core_work = Simulation::unlimited_work);
    bool finished() const;
    double progress() const;  // 0 … 1 of the planned work

    // The config the levels run (the one given, with equal cost off: each lane steps dt_j; along
    // the iterations axis only the lanes with iterations, at level 0's).
    const Config& config() const { return config_; }
    StudyAxis axis() const { return axis_; }
    int integrators() const;                  // rows: c.integrators in order
    int integrator_index(int row) const;      // index into integrators()
    int levels() const;                       // planned levels (1 + halvings kept)
    int levels_requested() const;             // 1 + halvings
    int levels_done() const;
    const ConvergencePoint& point(int row, int level) const;
    OrderFit fit(int row) const;              // over the finished levels; none for rk45 (adaptive) and
                                              // along the iterations axis (no order in dt there)
    IterationsTrend iterations_trend(int row) const;  // over the finished levels (any axis)
    ReferenceKind reference() const;
    // The kind of system (orders.hpp): which of the table's orders each row should show.
    OrderRegime regime() const { return regime_; }
    // Errors at or below this are round-off (or the reference's own error) and are not fitted.
    double noise_floor() const;
    // The scene's size of motion (Scene::length_scale): an error near it says nothing about order.
    double length_scale() const { return length_scale_; }

    // The config level `level` runs (any level ≥ 0, planned or not: the CLI estimates work with it).
    Config level_config(int level) const;

private:
    Config config_;
    StudyAxis axis_ = StudyAxis::dt;
    int requested_ = 0, planned_ = 0, done_ = 0;
    double total_work_ = 0.0, done_work_ = 0.0;
    ReferenceKind reference_ = ReferenceKind::exact;
    OrderRegime regime_ = OrderRegime::free_motion;
    double floor_ = 0.0, length_scale_ = 1.0;
    std::vector<std::vector<ConvergencePoint>> points_;  // [row][level]
    std::unique_ptr<Simulation> current_;                // the level being run
    long long current_steps_ = 0, current_total_ = 0;
    // The current level's next step, when a bounded call ended inside it: its lanes under way, or
    // its lanes done and its reference not yet up to it.
    enum class Pending : unsigned char { none, lanes, reference };
    Pending pending_ = Pending::none;
};

}  // namespace stepwise
