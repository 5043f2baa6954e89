#include "trace.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace stepwise {

const char* stage_kind_name(StageKind k) {
    switch (k) {
        case StageKind::evaluation: return "evaluation";
        case StageKind::state: return "state";
        case StageKind::increment: return "increment";
        case StageKind::note: return "note";
    }
    return "";
}

const char* const increment_columns = ": x y = its dx; vx vy = its dv";

long long stage_number(const LaneTrace& lane, size_t k) {
    const bool last = k + 1 == lane.stages.size();
    return static_cast<long long>(k) + 1 + (last ? lane.stages_left_out : 0);
}

void TraceRecorder::stage(StageKind kind, StageName name, const dvec2* x, const dvec2* v, const dvec2* a) {
    const bool past = max_stages_ > 0 && static_cast<long long>(stages_.size()) >= max_stages_ - 1;
    if (past && holding_) ++left_out_;  // the stage held before this one is left out
    holding_ = holding_ || past;
    TraceStage fresh;
    TraceStage& st = past ? latest_ : fresh;
    st = TraceStage{};
    st.kind = kind;
    st.label = name.text;
    if (name.number != 0) st.label += std::to_string(name.number);
    st.label += name.suffix;
    if (kind == StageKind::increment) st.label += increment_columns;
    auto copy = [&](const dvec2* from, std::vector<dvec2>& to) {
        if (from) to.assign(from, from + bodies_);
    };
    copy(x, st.x);
    copy(v, st.v);
    copy(a, st.a);
    if (!past) stages_.push_back(std::move(st));
}

void TraceRecorder::substep(int attempt, double h) { substeps_.push_back({attempt, h, stages_.size()}); }

bool TraceRecorder::label_substeps(size_t count) {
    const size_t end = std::min(substeps_.size(), labelled_ + count);
    for (; labelled_ < end; ++labelled_) {
        const Substep& s = substeps_[labelled_];
        if (s.attempt <= 0) continue;
        const size_t last = labelled_ + 1 < substeps_.size() ? substeps_[labelled_ + 1].first : stages_.size();
        const std::string prefix = "substep " + std::to_string(s.attempt) + " (h = " + format_number(s.h) + "): ";
        for (size_t k = s.first; k < last; ++k) stages_[k].label.insert(0, prefix);
    }
    return labelled_ == substeps_.size();
}

std::vector<TraceStage> TraceRecorder::take() {
    label_substeps(substeps_.size());
    substeps_.clear();
    labelled_ = 0;
    // The last stage past the bound (the result), after the labels: its substep's prefix is not
    // known once stages before it were left out, and the result belongs to no substep.
    if (holding_) stages_.push_back(std::move(latest_));
    latest_ = TraceStage{};
    holding_ = false;
    return std::move(stages_);
}

long long run_steps(const Config& c) {
    // The config keeps duration / dt within max_steps; the 1e-9 keeps 0.3 / 0.1 at 3 steps.
    return static_cast<long long>(std::ceil(c.duration / c.dt - 1e-9));
}

NextStepTrace::NextStepTrace(const Simulation& sim, const std::vector<int>& lanes, long long max_rows)
    : copy_(sim),
      lanes_(lanes),
      max_rows_(max_rows),
      // A variable game loop's steps are its frames, each of its own length: the copy advances
      // by frames there (one step each), by clock ticks of dt otherwise.
      by_frames_(sim.config().loop.kind == LoopKind::variable),
      out_(lanes.size()),
      recorders_(lanes.size()),
      steps_before_(lanes.size()),
      evaluations_before_(lanes.size()) {
    const double dt = copy_.config().dt;
    for (size_t k = 0; k < lanes_.size(); ++k) {
        const int l = lanes_[k];
        LaneTrace& tr = out_[k];
        tr.integrator = copy_.lane(l).integrator;
        tr.id = lane_id(copy_.config().integrators[static_cast<size_t>(l)]);
        tr.bodies = copy_.bodies();
        tr.t = copy_.lane_time(l);
        tr.step = by_frames_ ? copy_.steps() : std::llround(tr.t / dt);
        if (copy_.diverged(l)) {
            tr.stop = copy_.stop_reason(l);
            tr.stopped_at = copy_.diverged_at(l);
            continue;
        }
        const long long max_stages = max_rows_ > 0 ? std::max(2LL, max_rows_ / std::max(1, copy_.bodies())) : 0;
        recorders_[k] = std::make_unique<TraceRecorder>(copy_.bodies(), max_stages);
        copy_.set_observer(l, recorders_[k].get());
        steps_before_[k] = copy_.lane_steps(l);
        evaluations_before_[k] = copy_.lane(l).force_evaluations;
        ++pending_;
    }
}

void NextStepTrace::advance() {
    if (done()) return;
    if (stepping_done()) {
        // The labels, label_part substeps at a time, a lane after another.
        while (labelling_ < recorders_.size() && !recorders_[labelling_]) ++labelling_;
        if (labelling_ == recorders_.size()) return;
        if (!recorders_[labelling_]->label_substeps(label_part)) return;
        out_[labelling_].stages = recorders_[labelling_]->take();
        out_[labelling_].stages_left_out = recorders_[labelling_]->left_out();
        recorders_[labelling_].reset();
        ++labelling_;
        return;
    }
    ++ticks_;
    if (by_frames_)
        copy_.frame();
    else
        copy_.step();
    const double dt = copy_.config().dt;
    for (size_t k = 0; k < lanes_.size(); ++k) {
        const int l = lanes_[k];
        LaneTrace& tr = out_[k];
        if (!recorders_[k] || tr.stepped || copy_.lane_steps(l) == steps_before_[k]) continue;
        tr.stepped = true;
        // The step the simulation took: whole clock ticks of dt, as Simulation::step computes it.
        tr.h = by_frames_ ? copy_.lane_time(l) - tr.t
                          : static_cast<double>(std::llround((copy_.lane_time(l) - tr.t) / dt)) * dt;
        tr.force_evaluations = copy_.lane(l).force_evaluations - evaluations_before_[k];
        tr.stop = copy_.stop_reason(l);
        if (tr.stop != StopReason::none) tr.stopped_at = copy_.diverged_at(l);
        copy_.set_observer(l, nullptr);
        --pending_;
    }
    if (stepping_done()) {
        // A lane that has not stepped within max_trace_ticks shows no stages.
        for (size_t k = 0; k < lanes_.size(); ++k)
            if (recorders_[k] && !out_[k].stepped) {
                copy_.set_observer(lanes_[k], nullptr);
                recorders_[k].reset();
            }
    }
}

std::vector<LaneTrace> trace_next(const Simulation& sim, const std::vector<int>& lanes, long long max_rows) {
    NextStepTrace trace(sim, lanes, max_rows);
    while (!trace.done()) trace.advance();
    return trace.take();
}

std::vector<LaneTrace> trace_step(const Config& c, long long step, const std::vector<LaneSpec>& ids, long long max_rows) {
    if (step < 0 || step >= run_steps(c))
        throw std::invalid_argument("trace_step: step " + std::to_string(step) + " is not in [0, " +
                                    std::to_string(run_steps(c)) + ")");
    for (const LaneSpec& id : ids)
        if (std::find(c.integrators.begin(), c.integrators.end(), id) == c.integrators.end())
            throw std::invalid_argument("trace_step: lane " + lane_id(id) + " is not in the config");
    // Only the traced lanes: lanes never affect one another, so each steps as in the whole run.
    Config traced = c;
    traced.integrators = ids;
    Simulation sim(traced);
    if (traced.loop.kind == LoopKind::variable)
        for (long long k = 0; k < step; ++k) sim.frame();
    else
        sim.advance(step);
    std::vector<int> lanes(ids.size());
    for (size_t k = 0; k < ids.size(); ++k) lanes[k] = static_cast<int>(k);
    return trace_next(sim, lanes, max_rows);
}

}  // namespace stepwise
