// The stage X-ray: one step of an integrator with every point it computes, as an exercise sheet
// prints a worked step. `stepwise trace` and the page's X-ray read it; the rows' text comes from
// core/rows.hpp. The stages come from the step functions themselves through Lane::observer
// (step_observer.hpp), so the traced step is the untraced one, bit for bit.
#pragma once
#include "config.hpp"
#include "simulation.hpp"
#include "step_observer.hpp"

#include <memory>
#include <string>
#include <vector>

namespace stepwise {

// One stage as recorded. Its columns per body: x, v, a (see StageKind for what they hold in an
// increment); a column that is not part of the stage is an empty vector. Labels name what the
// method computes there: "k1" … "k4", "predictor", "half step", "newton 2", "kick 3",
// "substep 2 (h = 0.125): k5", "gravity: x y = its dx; vx vy = its dv", and the last one "result".
struct TraceStage {
    StageKind kind = StageKind::evaluation;
    std::string label;
    std::vector<dvec2> x, v, a;
};

// One integrator's traced step, from the lane's time t to t + h.
struct LaneTrace {
    int integrator = 0;    // index into integrators()
    std::string id;        // the lane's id (lane_id: "xpbd@20x1")
    int bodies = 0;
    bool stepped = false;  // false: no step to show (the lane had stopped before it; see stop)
    long long step = 0;    // the clock step it starts at: t = step·dt
    double t = 0.0, h = 0.0;
    long long force_evaluations = 0;  // what the step cost (the result's acceleration is not counted)
    // Why the lane stopped (none: it runs on). If it stopped on this very step, the stages show
    // that step, whose result the run does not keep (it stays at the last good state); otherwise
    // (stepped false) it had stopped at stopped_at, before the step.
    StopReason stop = StopReason::none;
    double stopped_at = 0.0;
    std::vector<TraceStage> stages;  // in the order computed; the last is "result"
    // Stages the step computed that a bounded trace left out (max_rows): they came between the
    // first ones kept and the last ("result"), which is always kept. 0: every stage is here.
    long long stages_left_out = 0;
};
// The number of the kth stage kept (from 1, in the order the step computed them): k + 1, and the
// last one's is the step's own count when stages were left out before it.
long long stage_number(const LaneTrace& lane, size_t k);

// Records what a lane reports (set as Lane::observer). Allocates: tracing is not the hot path.
// rk45's stage labels start with their substep ("substep 2 (h = 0.125): k5"); writing h as its
// shortest exact text is costly where the C library formats (the wasm build: up to 17 printf and
// strtod calls), and a step on a stiff system has 2000 substeps, so the step only notes each
// substep and label_substeps() puts the prefixes in front afterwards, a few substeps at a time.
class TraceRecorder final : public StepObserver {
public:
    // max_stages > 0: keeps the first max_stages − 1 stages and the last one, and counts the rest
    // (left_out()); 0: every stage.
    explicit TraceRecorder(int bodies, long long max_stages = 0) : bodies_(bodies), max_stages_(max_stages) {}
    void stage(StageKind kind, StageName name, const dvec2* x, const dvec2* v, const dvec2* a) override;
    void substep(int attempt, double h) override;
    // Labels the stages of up to `count` more substeps; true once every stage has its whole label.
    bool label_substeps(size_t count);
    // The stages (their whole labels once label_substeps() said true).
    const std::vector<TraceStage>& stages() const { return stages_; }
    std::vector<TraceStage> take();
    long long left_out() const { return left_out_; }

private:
    // From stage `first` on, the stages belong to this substep attempt (0: to none) of size h.
    struct Substep {
        int attempt;
        double h;
        size_t first;
    };
    int bodies_;
    long long max_stages_;
    long long left_out_ = 0;  // stages past max_stages_ − 1 not kept, the last one (latest_) aside
    TraceStage latest_;       // the latest stage past the bound: the last one once the step ends
    bool holding_ = false;    // latest_ holds a stage
    std::vector<Substep> substeps_;
    size_t labelled_ = 0;  // substeps_ whose stages have their prefix
    std::vector<TraceStage> stages_;
};
// The label an increment stage's text ends with, saying what its columns hold.
extern const char* const increment_columns;

// The steps `stepwise run` takes for c: ceil(duration / dt) (at most max_steps).
long long run_steps(const Config& c);

// The next step of each lane in `lanes` (indices into sim's lanes) as sim would take it: sim is
// copied, the copy steps until every one of them has stepped (with equal cost a lane steps
// every few ticks) or is found stopped, so the result is what sim's own next step of that lane
// gives, bit for bit. At most max_trace_ticks clock ticks are stepped.
std::vector<LaneTrace> trace_next(const Simulation& sim, const std::vector<int>& lanes, long long max_rows = 0);
constexpr long long max_trace_ticks = 100000;

// What `stepwise trace` prints at most per integrator: stages × bodies rows (CSV rows; JSON
// entries of a stage's bodies). A step of xpbd@1000 on the 62-body cloth computes 13,001 stages
// (806,062 rows); a few such lanes wrote 177 MB. A lane past it shows its first stages and its
// result, and says how many stages it left out. About 10 MB of CSV.
constexpr long long max_trace_rows = 100000;

// trace_next in units of work of bounded size, for a caller that must stop between them (the
// page: a tick of a stiff system is milliseconds of work, and it slices its work by time). A unit
// is one clock tick of the copy (a frame with a variable loop) until every traced lane has
// stepped, then the labels of label_part substeps. trace_next(sim, lanes) is
// NextStepTrace(sim, lanes), advance() until done(), then take(). The copy and the recorders live
// here: not copyable or movable.
class NextStepTrace {
public:
    // max_rows > 0: each lane records at most that many rows (TraceRecorder's bound in stages
    // of the system's bodies, at least 2 stages); 0: every stage.
    NextStepTrace(const Simulation& sim, const std::vector<int>& lanes, long long max_rows = 0);
    NextStepTrace(const NextStepTrace&) = delete;
    NextStepTrace& operator=(const NextStepTrace&) = delete;
    bool done() const { return stepping_done() && labelling_ == recorders_.size(); }
    // One unit of work; nothing once done().
    void advance();
    // The traces, in the order of `lanes` (a lane still pending after max_trace_ticks has stepped
    // false), once done().
    std::vector<LaneTrace> take() { return std::move(out_); }
    static constexpr size_t label_part = 64;

private:
    // Every traced lane has stepped or was found stopped (or max_trace_ticks ticks were stepped).
    bool stepping_done() const { return pending_ == 0 || ticks_ >= max_trace_ticks; }

    Simulation copy_;
    std::vector<int> lanes_;
    long long max_rows_;
    bool by_frames_;
    std::vector<LaneTrace> out_;
    std::vector<std::unique_ptr<TraceRecorder>> recorders_;  // one per traced lane, at a fixed address
    std::vector<long long> steps_before_, evaluations_before_;
    size_t pending_ = 0;
    long long ticks_ = 0;
    size_t labelling_ = 0;  // the recorder being labelled once stepping is done
};

// Step `step` (0: the first) of each lane in `lanes` (each one of c.integrators) on c: steps
// 0 … step − 1 run untraced, then step `step` is traced. Its result is the state `stepwise run`
// reports after step + 1 steps. Throws std::invalid_argument when step is not in
// [0, run_steps(c)) or a lane is not in c (the CLI checks both first, by name).
// max_rows as for NextStepTrace.
std::vector<LaneTrace> trace_step(const Config& c, long long step, const std::vector<LaneSpec>& lanes,
                                  long long max_rows = 0);

}  // namespace stepwise
