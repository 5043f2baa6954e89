#include "convergence.hpp"

#include "exact.hpp"

#include <algorithm>
#include <cmath>

namespace stepwise {

namespace {

// Below these multiples of the scene's length scale an error says nothing about the method.
// A closed form is exact but for round-off: positions of size L carry about 1e-16 L each, and
// a long run of sums and a few sin/cos/exp calls leave the measured distance with a few
// 1e-13 L at worst; 1e-11 L leaves a margin of ~100 above that. The rk45 reference is itself
// only accurate to its tolerance: reference_rtol = 1e-12 per step, accumulated over up to 10^7
// steps of a run (and amplified by the dynamics), so its own global error can reach ~1e-10 L;
// an error below 1e-9 L may be the reference's, not the method's.
constexpr double exact_floor = 1e-11;
constexpr double rk45_floor = 1e-9;

}  // namespace

const char* study_axis_id(StudyAxis axis) { return axis == StudyAxis::iterations ? "iterations" : "dt"; }

bool has_iterations(const LaneSpec& lane) { return lane_iterations(lane) > 0; }

namespace {
// The lane at `iterations` per substep, written as the parser writes it (its method's default as 0).
LaneSpec at_iterations(LaneSpec lane, int iterations) {
    lane.iterations = iterations == integrators()[static_cast<size_t>(lane.integrator)].default_iterations ? 0 : iterations;
    return lane;
}
}  // namespace

Config ConvergenceStudy::level_config(int level) const {
    Config c = config_;
    if (axis_ == StudyAxis::dt) {
        c.dt = std::ldexp(config_.dt, -level);
    } else {
        for (LaneSpec& lane : c.integrators) lane = at_iterations(lane, lane_iterations(lane) << level);
    }
    return c;
}

namespace {
long long level_steps(const Config& c) { return std::llround(c.duration / c.dt); }
}  // namespace

OrderFit fit_order(const ConvergencePoint* points, int n, double floor) {
    double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
    int used = 0;
    for (int i = 0; i < n; ++i) {
        const ConvergencePoint& p = points[i];
        if (p.stop != StopReason::none || !std::isfinite(p.max_error) || !(p.max_error > floor) ||
            !std::isfinite(p.dt) || !(p.dt > 0.0))
            continue;
        const double x = std::log(p.dt), y = std::log(p.max_error);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        ++used;
    }
    OrderFit fit;
    fit.points = used;
    if (used < 2) return fit;
    const double m = static_cast<double>(used);
    const double denominator = m * sxx - sx * sx;
    const double slope = (m * sxy - sx * sy) / denominator;
    if (!(denominator > 0.0) || !std::isfinite(slope)) return fit;  // every point at one dt
    fit.valid = true;
    fit.order = slope;
    return fit;
}

namespace {
// The work of one step of every lane and the reference, in steps of one method: a lane's step is
// lane_passes of them (xpbd@20x4 is 80).
double lanes_cost(const Config& c) {
    double cost = 1.0;
    for (const LaneSpec& lane : c.integrators) cost += static_cast<double>(lane_passes(lane));
    return cost;
}
}  // namespace

ConvergenceStudy::ConvergenceStudy(const Config& c, int halvings, double max_work, StudyAxis axis)
    : config_(c), axis_(axis) {
    config_.equal_cost = false;  // each lane steps dt_j, the quantity the study varies
    if (axis_ == StudyAxis::iterations)
        std::erase_if(config_.integrators, [](const LaneSpec& lane) { return !has_iterations(lane); });
    requested_ = 1 + std::clamp(halvings, 0, max_halvings);
    const Scene scene = build_scene(config_);
    reference_ = has_closed_form(scene.system, scene.x0.data(), scene.v0.data()) ? ReferenceKind::exact
                                                                                  : ReferenceKind::rk45;
    length_scale_ = scene.length_scale;
    regime_ = regime_of(scene.system);
    floor_ = (reference_ == ReferenceKind::exact ? exact_floor : rk45_floor) * scene.length_scale;
    // The plan: the coarsest levels whose work, added up, stays within the cap (and, along the
    // iterations axis, whose lanes stay within the lane settings' bounds).
    for (int level = 0; level < requested_; ++level) {
        const Config at = level_config(level);
        if (std::any_of(at.integrators.begin(), at.integrators.end(), [](const LaneSpec& lane) {
                return lane_iterations(lane) > max_lane_iterations || lane_passes(lane) > max_lane_passes;
            }))
            break;
        const double work = static_cast<double>(level_steps(at)) * lanes_cost(at);
        if (!(total_work_ + work <= max_work)) break;
        total_work_ += work;
        planned_ = level + 1;
    }
    points_.assign(config_.integrators.size(), std::vector<ConvergencePoint>(static_cast<size_t>(planned_)));
    for (int level = 0; level < planned_; ++level) {
        const Config at = level_config(level);
        for (size_t row = 0; row < points_.size(); ++row) {
            points_[row][level].dt = at.dt;
            points_[row][level].iterations = lane_iterations(at.integrators[row]);
        }
    }
}

bool ConvergenceStudy::advance(double work, long long max_core_work) {
    const int rows = integrators();
    double budget = 0.0, lane_cost = 1.0;
    bool started = false;
    const bool bounded = max_core_work != Simulation::unlimited_work;
    long long call_start = -1;  // the current simulation's work when this call began with it
    // The work this call may still do in the current simulation (one unit at least: progress).
    const auto core_left = [&](const Simulation& sim) {
        if (!bounded) return Simulation::unlimited_work;
        if (call_start < 0) call_start = sim.work();
        return std::max(1LL, max_core_work - (sim.work() - call_start));
    };
    const auto spent = [&](const Simulation& sim) { return bounded && call_start >= 0 && sim.work() - call_start >= max_core_work; };
    while (!finished()) {
        if (!current_) {
            const Config level = level_config(done_);
            current_ = std::make_unique<Simulation>(level);
            current_steps_ = 0;
            current_total_ = level_steps(level);
        }
        // Whole steps of every lane; at least one, so any positive slice makes progress. The
        // budget left is counted in the level's lane-steps (it changes with the level's cost).
        const double cost = lanes_cost(current_->config());
        budget = started ? budget * lane_cost / cost : std::min(std::max(1.0, std::floor(work / cost)), 1e18);
        started = true;
        lane_cost = cost;
        if (!(budget >= 1.0)) break;
        budget = std::floor(budget);
        Simulation& sim = *current_;
        const long long n = std::min(current_total_ - current_steps_, static_cast<long long>(budget));
        long long k = 0;
        for (; k < n; ++k) {
            // The step, then the reference brought up to it (reading the errors would do that in
            // one go), each in parts when the call's work is bounded.
            if (bounded) {
                if (k > 0 && pending_ == Pending::none && spent(sim)) break;
                if (pending_ != Pending::reference) {
                    pending_ = Pending::lanes;
                    if (!sim.step_part(core_left(sim))) break;
                }
                pending_ = Pending::reference;
                if (!sim.sync_reference_part(core_left(sim))) break;
                pending_ = Pending::none;
            } else if (pending_ != Pending::reference) {
                sim.step();  // (the rest of a step begun in parts, if one is)
                pending_ = Pending::none;
            } else {
                pending_ = Pending::none;  // the errors below bring the reference up to the step
            }
            for (int row = 0; row < rows; ++row) {
                ConvergencePoint& p = points_[row][done_];
                if (p.stop != StopReason::none || sim.diverged(row)) continue;
                double e = 0.0;
                for (int b = 0; b < sim.bodies(); ++b) e = std::max(e, sim.error(row, b));
                if (!std::isfinite(e)) {
                    // Cannot happen for a lane the simulation keeps finite, but a non-finite
                    // error is never a result: the lane counts as stopped here.
                    p.stop = StopReason::diverged;
                    p.stopped_at = sim.time();
                    continue;
                }
                p.max_error = std::max(p.max_error, e);
                p.final_error = e;  // the last error measured: at the end, or where it stopped
            }
        }
        current_steps_ += k;
        budget -= static_cast<double>(k);
        done_work_ += static_cast<double>(k) * lane_cost;
        if (current_steps_ < current_total_ || pending_ != Pending::none) break;
        for (int row = 0; row < rows; ++row) {
            ConvergencePoint& p = points_[row][done_];
            p.evaluations = sim.lane(row).force_evaluations;
            if (p.stop == StopReason::none && sim.diverged(row)) {
                p.stop = sim.stop_reason(row);
                p.stopped_at = sim.diverged_at(row);
            }
        }
        current_.reset();
        ++done_;
    }
    return finished();
}

bool ConvergenceStudy::finished() const { return done_ >= planned_; }

double ConvergenceStudy::progress() const {
    if (finished() || !(total_work_ > 0.0)) return 1.0;
    return std::min(1.0, done_work_ / total_work_);
}

int ConvergenceStudy::integrators() const { return static_cast<int>(config_.integrators.size()); }
int ConvergenceStudy::integrator_index(int row) const { return config_.integrators[static_cast<size_t>(row)].integrator; }
int ConvergenceStudy::levels() const { return planned_; }
int ConvergenceStudy::levels_requested() const { return requested_; }
int ConvergenceStudy::levels_done() const { return done_; }
const ConvergencePoint& ConvergenceStudy::point(int row, int level) const { return points_[row][level]; }
OrderFit ConvergenceStudy::fit(int row) const {
    // An adaptive method's error follows its tolerance, not dt (dt only sets where it reports,
    // and a finer one merely clips its substeps more often): there is no order in dt to fit.
    if (stepwise::integrators()[integrator_index(row)].adaptive) return OrderFit{};
    // Along the iterations axis dt is fixed: the levels have no order in it.
    if (axis_ == StudyAxis::iterations) return OrderFit{};
    return fit_order(points_[row].data(), done_, floor_);
}
IterationsTrend ConvergenceStudy::iterations_trend(int row) const {
    IterationsTrend trend;
    if (done_ < 2) return trend;
    const ConvergencePoint &first = points_[row][0], &before = points_[row][done_ - 2], &last = points_[row][done_ - 1];
    if (before.stop != StopReason::none || last.stop != StopReason::none || !(before.max_error > 0.0)) return trend;
    trend.valid = true;
    trend.first_iterations = first.iterations;
    trend.last_iterations = last.iterations;
    trend.first_error = first.max_error;
    trend.last_error = last.max_error;
    trend.last_change = std::fabs(last.max_error - before.max_error) / before.max_error;
    trend.settled = trend.last_change < iterations_settled;
    trend.at_floor = last.max_error <= floor_;
    return trend;
}

ReferenceKind ConvergenceStudy::reference() const { return reference_; }
double ConvergenceStudy::noise_floor() const { return floor_; }

}  // namespace stepwise
