#include "analysis.hpp"

#include "deadline.hpp"
#include "playground.hpp"

#include <algorithm>
#include <cmath>

namespace stepwise::web {

using emscripten::val;

namespace {

const double not_run = std::nan("");

// The study's integrator id, or the first one's when the config names none we know (a study
// needs a valid integrator to be built at all).
int probe_integrator(const std::string& id) {
    const int index = find_integrator(id);
    return index >= 0 ? index : 0;
}

bool level_done(const Convergence& c, int level) { return level < c.study().levels_done(); }

using ConvergenceSeries = SeriesOf<Convergence>;
const ConvergencePoint& point(const Convergence& c, int row, int level) { return c.study().point(row, level); }

// Globals.
const ConvergenceSeries levels = {"levels", Scope::global, "", "levels planned",
                                  [](const Convergence& c, int, int) { return static_cast<double>(c.study().levels()); }};
const ConvergenceSeries levels_requested = {
    "levels_requested", Scope::global, "", "levels asked for (1 + halvings)",
    [](const Convergence& c, int, int) { return static_cast<double>(c.study().levels_requested()); }};
const ConvergenceSeries levels_done = {
    "levels_done", Scope::global, "", "levels finished",
    [](const Convergence& c, int, int) { return static_cast<double>(c.study().levels_done()); }};
const ConvergenceSeries noise_floor = {"noise_floor", Scope::global, "m", "errors at or below this are not fitted",
                                       [](const Convergence& c, int, int) { return c.study().noise_floor(); }};
const ConvergenceSeries length_scale = {"length_scale", Scope::global, "m", "the size of the motion",
                                        [](const Convergence& c, int, int) { return c.study().length_scale(); }};
const ConvergenceSeries reference = {
    "reference", Scope::global, "", "0 exact, 1 rk45",
    [](const Convergence& c, int, int) { return c.study().reference() == ReferenceKind::exact ? 0.0 : 1.0; }};
const ConvergenceSeries progress = {"progress", Scope::global, "", "0 … 1 of the planned work",
                                    [](const Convergence& c, int, int) { return c.study().progress(); }};
const ConvergenceSeries axis = {
    "axis", Scope::global, "", "0 dt halved, 1 iterations doubled",
    [](const Convergence& c, int, int) { return c.study().axis() == StudyAxis::iterations ? 1.0 : 0.0; }};
// Each row (integrator).
const ConvergenceSeries integrator = {
    "integrator", Scope::lane, "", "index into the integrators table",
    [](const Convergence& c, int row, int) { return static_cast<double>(c.study().integrator_index(row)); }};
const ConvergenceSeries order_valid = {"order_valid", Scope::lane, "", "1 when at least two levels were fitted",
                                       [](const Convergence& c, int row, int) { return c.study().fit(row).valid ? 1.0 : 0.0; }};
const ConvergenceSeries order = {"order", Scope::lane, "", "measured order (slope of log error against log dt)",
                                 [](const Convergence& c, int row, int) { return c.study().fit(row).order; }};
const ConvergenceSeries fitted_points = {
    "fitted_points", Scope::lane, "", "levels fitted (the CLI's JSON names it so too)",
    [](const Convergence& c, int row, int) { return static_cast<double>(c.study().fit(row).points); }};
// Along the iterations axis, where each row's error went (IterationsTrend).
const ConvergenceSeries trend_valid = {
    "trend_valid", Scope::lane, "", "1 when two finished levels ran to the end",
    [](const Convergence& c, int row, int) { return c.study().iterations_trend(row).valid ? 1.0 : 0.0; }};
const ConvergenceSeries trend_change = {
    "trend_change", Scope::lane, "", "relative change of the max error at the last doubling",
    [](const Convergence& c, int row, int) { return c.study().iterations_trend(row).last_change; }};
const ConvergenceSeries trend_settled = {
    "trend_settled", Scope::lane, "", "1 when the last doubling changed the error by under 1 %",
    [](const Convergence& c, int row, int) { return c.study().iterations_trend(row).settled ? 1.0 : 0.0; }};
const ConvergenceSeries trend_at_floor = {
    "trend_at_floor", Scope::lane, "", "1 when the last level's error is at the noise floor",
    [](const Convergence& c, int row, int) { return c.study().iterations_trend(row).at_floor ? 1.0 : 0.0; }};
// Each row and level (NaN for a level not yet run).
const ConvergenceSeries dt = {"dt", Scope::lane_body, "s", "time step",
                              [](const Convergence& c, int row, int level) {
                                  return level_done(c, level) ? point(c, row, level).dt : not_run;
                              }};
const ConvergenceSeries iterations = {"iterations", Scope::lane_body, "", "iterations per substep (0: none)",
                                      [](const Convergence& c, int row, int level) {
                                          return level_done(c, level) ? static_cast<double>(point(c, row, level).iterations)
                                                                      : not_run;
                                      }};
const ConvergenceSeries evaluations = {
    "evaluations", Scope::lane_body, "", "force evaluations of the run", [](const Convergence& c, int row, int level) {
        return level_done(c, level) ? static_cast<double>(point(c, row, level).evaluations) : not_run;
    }};
const ConvergenceSeries max_error = {"max_error", Scope::lane_body, "m", "max position error over the run",
                                     [](const Convergence& c, int row, int level) {
                                         return level_done(c, level) ? point(c, row, level).max_error : not_run;
                                     }};
const ConvergenceSeries final_error = {"final_error", Scope::lane_body, "m", "position error at the end",
                                       [](const Convergence& c, int row, int level) {
                                           return level_done(c, level) ? point(c, row, level).final_error : not_run;
                                       }};
const ConvergenceSeries stopped = {
    "stopped", Scope::lane_body, "", "0 ran to the end, 1 diverged, 2 collision", [](const Convergence& c, int row, int level) {
        return level_done(c, level) ? static_cast<double>(point(c, row, level).stop) : not_run;
    }};
const ConvergenceSeries stopped_at = {"stopped_at", Scope::lane_body, "s", "time the run stopped",
                                      [](const Convergence& c, int row, int level) {
                                          return level_done(c, level) ? point(c, row, level).stopped_at : not_run;
                                      }};

std::vector<const ConvergenceSeries*> convergence_series() {
    return {&levels,      &levels_requested, &levels_done,  &noise_floor,   &length_scale,   &reference,
            &progress,    &axis,             &integrator,   &order_valid,   &order,          &fitted_points,
            &trend_valid, &trend_change,     &trend_settled, &trend_at_floor, &dt,            &iterations,
            &evaluations, &max_error,        &final_error,  &stopped,       &stopped_at};
}

}  // namespace

Convergence::Convergence(const std::string& query, int halvings, double max_work, const std::string& axis)
    : study_(parse_config(query).config, std::clamp(halvings, 1, max_halvings),
             std::isfinite(max_work) && max_work > 0.0 ? std::min(max_work, default_convergence_work * 10.0)
                                                       : default_convergence_work,
             axis == "iterations" ? StudyAxis::iterations : StudyAxis::dt),
      layout_(convergence_series(), study_.integrators(), study_.levels_requested()) {
    results_.assign(static_cast<size_t>(layout_.width()), not_run);
}

bool Convergence::advance(double work, double budget_ms) {
    // One step of every lane at a time, so the clock is read between steps: a stiff system's
    // step may cost milliseconds, and a slice sized in lane-steps alone could last seconds.
    double left = std::isfinite(work) ? std::clamp(work, 1.0, 1e9) : 1.0;
    const double step = static_cast<double>(study_.integrators() + 1);  // lane-steps of one step
    const Deadline deadline(budget_ms);
    // Each step in parts of at most max_work_per_call of the core's work, as the page's own
    // simulation steps (playground.hpp): one step of a stiff written law at the rk45 cap took a
    // call of 100 ms.
    while (!study_.finished()) {
        study_.advance(step, max_work_per_call);
        left -= step;
        if (left <= 0.0 || deadline.passed()) break;
    }
    return study_.finished();
}

val Convergence::results() {
    // Levels past the planned ones (dropped for the work cap) stay NaN: levels_done never reaches them.
    layout_.fill(*this, results_.data());
    return val(emscripten::typed_memory_view(results_.size(), results_.data()));
}

val Convergence::layout() const {
    val out = layout_.describe();
    out.set("rows", study_.integrators());
    out.set("levels", study_.levels_requested());
    return out;
}

val Convergence::integrator_ids() const {
    val ids = val::array();
    for (int row = 0; row < study_.integrators(); ++row)
        ids.call<void>("push", lane_id(study_.config().integrators[static_cast<size_t>(row)]));
    return ids;
}

StabilityGrid::StabilityGrid(const std::string& integrator, int columns, int rows, double omega_h_min,
                             double omega_h_max, double zeta_max)
    : probe_(probe_integrator(integrator)),
      columns_(std::clamp(columns, 2, 2000)),
      rows_(std::clamp(rows, 1, 1000)),
      log_min_(std::log10(std::clamp(omega_h_min, 1e-6, 1e6))),
      log_max_(std::log10(std::clamp(omega_h_max, 1e-6, 1e6))),
      zeta_max_(std::isfinite(zeta_max) ? std::clamp(zeta_max, 0.0, 100.0) : 1.0) {
    if (!(log_max_ > log_min_)) log_max_ = log_min_ + 1.0;
    radii_.assign(static_cast<size_t>(columns_) * rows_, not_run);
}

int StabilityGrid::fill(int rows) {
    for (int n = 0; n < rows && done_ < rows_; ++n, ++done_) {
        const double zeta = rows_ == 1 ? 0.0 : zeta_max_ * done_ / (rows_ - 1);
        double* out = radii_.data() + static_cast<size_t>(done_) * columns_;
        for (int c = 0; c < columns_; ++c) {
            const double omega_h = std::pow(10.0, log_min_ + (log_max_ - log_min_) * c / (columns_ - 1));
            out[c] = probe_.radius(omega_h, zeta);
        }
    }
    return done_;
}

val StabilityGrid::radii() const { return val(emscripten::typed_memory_view(radii_.size(), radii_.data())); }

val stability_limit(const std::string& integrator, double zeta) {
    const int index = find_integrator(integrator);
    if (index < 0) return val::null();
    const StabilityLimit s = oscillator_limit(index, std::isfinite(zeta) ? std::clamp(zeta, 0.0, 100.0) : 0.0);
    val out = val::object();
    out.set("limit", s.limit);
    out.set("unconditional", s.unconditional);
    out.set("adaptive", s.adaptive);
    out.set("tolerance", stability_tolerance);
    return out;
}

val lane_stability_of(const std::string& integrator, int substeps, double omega, double zeta, double dt) {
    const int index = find_integrator(integrator);
    if (index < 0 || !(std::isfinite(omega) && omega > 0.0) || !(std::isfinite(dt) && dt > 0.0)) return val::null();
    StiffestMode mode;
    mode.oscillates = true;
    mode.omega = omega;
    mode.zeta = std::isfinite(zeta) ? std::clamp(zeta, 0.0, 100.0) : 0.0;
    const LaneStability s = lane_stability(index, std::clamp(substeps, 1, max_lane_substeps), mode, dt);
    val out = val::object();
    out.set("limit", s.at_zeta.limit);
    out.set("unconditional", s.at_zeta.unconditional);
    out.set("adaptive", s.at_zeta.adaptive);
    out.set("omega_h", s.omega_h);
    out.set("largest_stable_dt", s.has_largest ? val(s.largest_dt) : val::null());
    out.set("stable_now", s.stable_now);
    return out;
}

}  // namespace stepwise::web
