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

void TraceRecorder::stage(StageKind kind, StageName name, const dvec2* x, const dvec2* v, const dvec2* a) {
    TraceStage st;
    st.kind = kind;
    st.label = prefix_ + name.text;
    if (name.number != 0) st.label += std::to_string(name.number);
    st.label += name.suffix;
    if (kind == StageKind::increment) st.label += increment_columns;
    auto copy = [&](const dvec2* from, std::vector<dvec2>& to) {
        if (from) to.assign(from, from + bodies_);
    };
    copy(x, st.x);
    copy(v, st.v);
    copy(a, st.a);
    stages_.push_back(std::move(st));
}

void TraceRecorder::substep(int attempt, double h) {
    prefix_ = attempt > 0 ? "substep " + std::to_string(attempt) + " (h = " + format_number(h) + "): " : "";
}

long long run_steps(const Config& c) {
    // The config keeps duration / dt within max_steps; the 1e-9 keeps 0.3 / 0.1 at 3 steps.
    return static_cast<long long>(std::ceil(c.duration / c.dt - 1e-9));
}

std::vector<LaneTrace> trace_next(const Simulation& sim, const std::vector<int>& lanes) {
    Simulation copy = sim;
    const double dt = sim.config().dt;
    // A variable game loop's steps are its frames, each of its own length: the copy advances by
    // frames there (one step each), by clock ticks of dt otherwise.
    const bool by_frames = sim.config().loop.kind == LoopKind::variable;
    std::vector<LaneTrace> out(lanes.size());
    // One recorder per traced lane, at a fixed address while the copy steps.
    std::vector<std::unique_ptr<TraceRecorder>> recorders(lanes.size());
    std::vector<long long> steps_before(lanes.size()), evaluations_before(lanes.size());
    size_t pending = 0;
    for (size_t k = 0; k < lanes.size(); ++k) {
        const int l = lanes[k];
        LaneTrace& tr = out[k];
        tr.integrator = copy.lane(l).integrator;
        tr.bodies = copy.bodies();
        tr.t = copy.lane_time(l);
        tr.step = by_frames ? copy.steps() : std::llround(tr.t / dt);
        if (copy.diverged(l)) {
            tr.stop = copy.stop_reason(l);
            tr.stopped_at = copy.diverged_at(l);
            continue;
        }
        recorders[k] = std::make_unique<TraceRecorder>(copy.bodies());
        copy.set_observer(l, recorders[k].get());
        steps_before[k] = copy.lane_steps(l);
        evaluations_before[k] = copy.lane(l).force_evaluations;
        ++pending;
    }
    for (long long tick = 0; pending > 0 && tick < max_trace_ticks; ++tick) {
        if (by_frames)
            copy.frame();
        else
            copy.step();
        for (size_t k = 0; k < lanes.size(); ++k) {
            const int l = lanes[k];
            if (!recorders[k] || copy.lane_steps(l) == steps_before[k]) continue;
            LaneTrace& tr = out[k];
            tr.stepped = true;
            // The step the simulation took: whole clock ticks of dt, as Simulation::step computes it.
            tr.h = by_frames ? copy.lane_time(l) - tr.t
                             : static_cast<double>(std::llround((copy.lane_time(l) - tr.t) / dt)) * dt;
            tr.force_evaluations = copy.lane(l).force_evaluations - evaluations_before[k];
            tr.stop = copy.stop_reason(l);
            if (tr.stop != StopReason::none) tr.stopped_at = copy.diverged_at(l);
            tr.stages = recorders[k]->take();
            copy.set_observer(l, nullptr);
            recorders[k].reset();
            --pending;
        }
    }
    return out;
}

std::vector<LaneTrace> trace_step(const Config& c, long long step, const std::vector<int>& ids) {
    if (step < 0 || step >= run_steps(c))
        throw std::invalid_argument("trace_step: step " + std::to_string(step) + " is not in [0, " +
                                    std::to_string(run_steps(c)) + ")");
    for (int id : ids)
        if (std::find(c.integrators.begin(), c.integrators.end(), id) == c.integrators.end())
            throw std::invalid_argument("trace_step: integrator " + std::to_string(id) + " is not in the config");
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
    return trace_next(sim, lanes);
}

}  // namespace stepwise
