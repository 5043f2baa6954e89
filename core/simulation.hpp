// A scenario built from a Config, and a Simulation running one lane per chosen integrator
// side by side, with the exact (or reference) motion, energies and divergence flags.
#pragma once
#include "config.hpp"
#include "frame_loop.hpp"
#include "integrators.hpp"
#include "scenarios.hpp"
#include "system.hpp"

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace stepwise {

Scene build_scene(const Config& c);

enum class ReferenceKind { exact, rk45 };
// Why a lane (or the reference) stopped: its state turned non-finite or ran away (diverged), a
// body fell into a central body (collision), rk45 needed more than rk45_max_substeps substeps
// for one step (substep_limit: the system is too stiff for it at this step; the work of every
// step is bounded), or implicit Euler's Newton iteration found no root of its step equation
// within implicit_euler_max_iterations (newton_failed: the equation may have no real root at
// this step, as on an orbit passing close to the centre), or the method integrates forces and the
// system has a rigid link, which has no force law (needs_compliance: it never starts; a link
// with compliance > 0 is a spring it can step). The codes are the page's too
// (wasm_bindings/layout.cpp).
enum class StopReason { none, diverged, collision, substep_limit, newton_failed, needs_compliance };
// "", "diverged", "collision", "substep_limit", "newton_failed", "needs_compliance"
const char* stop_reason_name(StopReason r);
// In words, for messages ("<lane> <text> at t = …"): "diverged", "fell into the central mass", ….
const char* stop_reason_text(StopReason r);
constexpr int stop_reason_count = 6;
// Why the step a lane just took cannot stand (none: it can): the step function gave up.
StopReason step_gave_up(const Lane& L);
const char* reference_name(ReferenceKind k);  // "exact" or "rk45"
// The constrained reference's state after an rk45 step of R, moved back onto s's rigid links
// (forces/link.hpp: project); NaN where the links cannot be met. Nothing when the step gave up.
void project_onto_links(const System& s, Lane& R);

// rk45 tolerances of the reference lane (where no closed form exists).
constexpr double reference_rtol = 1e-12;
// The tolerance study of a linked system's rk45 reference: a second reference at shadow_rtol
// runs beside it, and the reference is trusted while the two stay within trusted_error times the
// mechanism's size (at least 1 m) of each other (reference_trusted_until).
constexpr double shadow_rtol = 1e-13;
constexpr double trusted_error = 1e-9;
// A lane whose position leaves this many length scales has run away.
constexpr double runaway_factor = 1e6;
// The tolerances equal cost may give an rk45 lane.
constexpr double equal_cost_rtol_max = 1.0;  // no accuracy to speak of: fixed substeps, as the budget affords

class Simulation {
public:
    explicit Simulation(const Config& c);
    // A scene built elsewhere (a benchmark's system that no scenario builds): c gives the step,
    // the duration, the lanes and the loop, and its scenario keys are not read.
    Simulation(const Config& c, Scene scene);

    // Back to t = 0 with fresh lanes (stateful integrators restart).
    void reset();
    // Advance the clock by one dt; every lane that is due steps to the new time (all of them,
    // unless equal cost is on); stopped lanes stay where they were. With a game loop, advance by
    // frame() (a variable loop's steps are the frames' own lengths).
    void step();
    // step() in parts of at most about max_work (as frame_part's: one unit at least): true once
    // the step is whole, in the same bits as step(); until then call it again and read nothing.
    bool step_part(long long max_work) { return step_lanes(0.0, max_work); }
    void advance(long long steps);

    // One frame of the game loop (Config::loop, core/frame_loop.hpp): every lane takes the
    // frame's steps (fixed: substeps steps of dt; variable: one step of the frame's length;
    // accumulator: the whole steps its accumulator holds, at most the cap), so lanes compare at
    // equal frames. Without a loop a frame is one step. Called while a frame is under way
    // (frame_part), it takes the rest of that frame.
    void frame();
    // A frame in parts, for a caller that must return within a time budget (the page: a frame of
    // a 1000 Hz loop of 64 substeps on a stiff system is 64 steps of every lane, over 100 ms):
    // starts the next frame when none is under way, then takes at most max_steps (at least 1) of
    // its physics steps; true once its last step is taken, when the frame's bookkeeping (frames(),
    // the accumulator's render state) is done. A variable loop's frame, one step, is one part. A
    // frame taken in parts ends in the same state, bit for bit, as frame(). Between parts the lanes
    // are at steps() and time(), while frames() and the accumulator's render state are the last
    // whole frame's.
    // With max_work, a part also ends once it has done that much work (work(), checked before
    // each unit of it: one substep of a lane, or as many of an rk45 step's substeps as the work
    // left affords, one at least), inside a step if need be: a step then goes on lane by lane and
    // substep by substep at the next call. Between the parts of a step the lanes that stepped
    // are at the next tick and the others at steps() (read nothing then: the page shows the last
    // whole step); the step ends in the same bits as step().
    bool frame_part(int max_steps, long long max_work = unlimited_work);
    bool in_frame() const { return frame_steps_left_ > 0 || in_step_; }
    bool in_step() const { return in_step_; }
    static constexpr long long unlimited_work = std::numeric_limits<long long>::max();
    // The work done so far, in the core's unit: every force evaluation of the lanes, the reference
    // and its tolerance study (a game-physics solver's pass over its rows counts as one) times
    // what it visits: evaluation_size(); each node of a written potential's quadrature that the
    // steps' checks evaluated, as one of its expressions; for an implicit lane plus its Newton solve's
    // (2 bodies)³/3, or 2 bodies × (2 half-bandwidths + 1)² banded; for a constrained reference
    // plus the rigid links' band, links × (bandwidth + 1)² / 16 (LinkForce::constraint_work: its
    // multiply-adds cost about a sixteenth of a force term's visit).
    long long work() const;
    // What one force evaluation of this system visits: its bodies, its force terms (springs,
    // central bodies, links) and a written law's operations on every body.
    long long evaluation_size() const;
    long long frames() const { return frames_; }
    const FrameLoop* frame_loop() const { return loop_ ? &*loop_ : nullptr; }

    const Config& config() const { return config_; }
    const Scene& scene() const { return scene_; }
    long long steps() const { return steps_; }
    // steps × dt, never t += dt; a variable loop's clock is its frames' lengths, summed by the
    // schedule (FrameLoop: (1/hz)·Σ(1 + jitter·u)).
    double time() const { return variable_clock_ ? clock_ : static_cast<double>(steps_) * config_.dt; }

    // What a player sees at the current frame, and what the rows print. Without a loop, and for
    // the fixed and variable loops, the lanes' states at time(). For the accumulator, the render
    // state lerp(previous, current, alpha) = (1 − alpha)·previous + alpha·current of each lane
    // (previous: its state before its last step), standing for the time (steps − 1 + alpha)·dt
    // (0 before the first step, when previous = current = the start); its energy is the render
    // state's, and its error the distance from the reference's render state (the same lerp of
    // the reference at the same two steps), so that the error measures the integrator, not the
    // interpolation's lag.
    double shown_time() const;
    const dvec2* shown_x(int i) const;
    const dvec2* shown_v(int i) const;
    double shown_energy(int i) const;
    double shown_error(int lane, int body) const;
    // The reference as the rows show it (integrators=…,reference): its state at shown_time() (the
    // accumulator's: the same lerp as the lanes'), and its energy there.
    const dvec2* shown_reference_x() const;
    const dvec2* shown_reference_v() const;
    double shown_reference_energy() const;
    int lanes() const { return static_cast<int>(lanes_.size()); }
    int bodies() const { return scene_.system.bodies(); }
    const Lane& lane(int i) const { return lanes_[i]; }
    // Lane i's id as the link writes it (lane_id: "xpbd@20x1").
    const std::string& id(int i) const { return ids_[static_cast<size_t>(i)]; }
    // The stage X-ray (trace.hpp): lane i's steps report their stages to observer, the last one
    // "result", the state the step ended in (before the checks that may stop the lane), with the
    // acceleration there (computed for the table only: not counted, no state changed).
    // nullptr stops it.
    void set_observer(int i, StepObserver* observer) { lanes_[i].observer = observer; }
    const IntegratorInfo& info(int i) const;

    // Equal cost (Config::equal_cost): every lane spends the same force evaluations per
    // simulated second, one per dt. A method with a fixed s evaluations a step steps every s
    // clock ticks, at h = s dt (its stride). Methods whose cost varies (implicit Euler's Newton
    // iterations, rk45's substeps and rejected attempts) have stride 0: such a lane steps when
    // its evaluations so far plus what its last step cost fit in the budget of the ticks
    // elapsed, over all the ticks since its last step, so it stays within one step of the
    // budget. An adaptive lane's cost follows its tolerance rather than its step: rk45 steps on
    // multiples of one substep's cost (6 ticks) and its tolerance (lane(i).rtol) is fitted to
    // that budget, starting from the tightest that fits (calibrated at reset) and loosened after
    // any step that overspent, up to equal_cost_rtol_max; an overspent step skips a beat, so the
    // lane stays within one step of the budget and of the clock.
    // Without equal cost every stride is 1.
    bool equal_cost() const { return config_.equal_cost; }
    int stride(int i) const { return stride_[i]; }
    // The time lane i has reached (the clock's time() when it stepped on this tick) and the
    // number of steps it took; effective_dt is their ratio (stride dt before its first step).
    // A variable game loop steps every running lane by each frame's own length (equal cost, the
    // one reason lanes differ in time, does not combine with a loop): its lanes are at the clock.
    double lane_time(int i) const {
        return variable_clock_ ? clock_ : static_cast<double>(lane_at_[i]) * config_.dt;
    }
    long long lane_steps(int i) const { return lane_steps_[i]; }
    double effective_dt(int i) const;  // lane_time / lane_steps (its expected step before the first)
    // True when lane i's state belongs to the clock's time: always without equal cost (a
    // stopped lane keeps its last good state), with it when the lane stepped on this tick.
    bool current(int i) const { return !config_.equal_cost || lane_at_[i] == steps_; }

    // A lane stops at its last good state when it turns non-finite or runs away (diverged) or
    // falls into a central body (collision); diverged_at is the time of the step that did it.
    bool diverged(int i) const { return status_[i].reason != StopReason::none; }
    StopReason stop_reason(int i) const { return status_[i].reason; }
    double diverged_at(int i) const { return status_[i].diverged_at; }
    // Mechanical energy (kinetic + potential) of lane i, and the energy its damping and
    // drag have removed so far: for rk45 integrated with its own fifth-order weights over each
    // substep; for a fixed step, the power at the lane's states summed by a fourth-order rule
    // (Simpson's 3/8 over the first three steps, then the four-point Adams–Moulton rule);
    // trapezoid where the step varies (implicit Euler with equal cost).
    double energy(int i) const;
    double dissipated(int i) const { return status_[i].dissipated; }
    // The dissipated energy is summed step by step, a power at every step; a caller that never
    // reads it (the CLI's CSV rows) turns that off before the first step, and dissipated() stays
    // 0. Whether and when a lane stops does not depend on it.
    void measure_dissipated(bool on) { dissipative_ = on && scene_.system.dissipative(); }

    ReferenceKind reference_kind() const { return reference_kind_; }
    // The reference is brought up to the current step only when something reads it (a run
    // that never looks at it, an ensemble say, never pays for it).
    const std::vector<dvec2>& reference_x() const {
        sync_reference();
        return ref_x_;
    }
    const std::vector<dvec2>& reference_v() const {
        sync_reference();
        return ref_v_;
    }
    double reference_energy() const;
    // Distance from lane i's body to the reference position of the same body, at the lane's
    // time (with equal cost a lane may be behind the clock).
    double error(int lane, int body) const;
    // Energy drift of lane i relative to the reference: (E - E_ref) / S, where S is the larger
    // of KE + |PE| at the start and of the reference now (so a decayed or zero energy is no divisor).
    double energy_drift(int i) const;
    // The reference stops too (an rk45 reference that turns non-finite or needs more than its
    // substep limit, an orbit that falls in): then it stays at its last good state, and errors
    // and drifts, which need it, are unknown from then on (error_known false: the CSV leaves the
    // column empty, JSON writes null, the page a dash, each with the reason).
    bool error_known() const { return !reference_stopped(); }
    bool reference_stopped() const { return reference_stop_reason() != StopReason::none; }
    StopReason reference_stop_reason() const {
        sync_reference();
        return reference_reason_;
    }
    double reference_stopped_at() const {
        sync_reference();
        return reference_stopped_at_;
    }
    // The reference's catching up in parts: at most max_steps of its steps towards the current
    // step (an rk45 reference at rtol = atol = 1e-12 on a stiff system takes milliseconds a step,
    // and a frame of many steps left it that many behind); true once it is there. The numbers do
    // not depend on the parts (it steps dt by dt whenever it is brought along).
    bool sync_reference(long long max_steps) const;
    // The same by work (see work()): at most about max_work (an rk45 step stops between substeps
    // and goes on at the next call), one substep at least when it is behind (none when max_work
    // is 0 or less); true once it is at the current step.
    bool sync_reference_part(long long max_work) const { return advance_reference(steps_, max_work); }
    // True when reading the reference costs no step of it.
    bool reference_synced() const { return ref_steps_ >= steps_ || reference_reason_ != StopReason::none; }
    // A linked system's rk45 reference is checked against itself at a tenth of its tolerance
    // (shadow_rtol): true when that study runs. reference_trusted_until() is the time at which the
    // two first parted by more than trusted_error (times the mechanism's size, at least 1 m),
    // after which the reference (chaotic motion amplifies every error) is no longer exact to that
    // accuracy; negative while they agree.
    bool has_tolerance_study() const { return shadow_.has_value(); }
    // The lone rigid pendulum's closed form is checked against itself from a start one rounding
    // away (see twin_x0_): reference_trusted_until() is then where the two part, which happens
    // only near the separatrix (released at its speed, at 1 m and g = 9.81, after 5.12 s).
    bool has_closed_form_horizon() const { return !twin_x0_.empty(); }
    double reference_trusted_until() const {
        sync_reference();
        return trusted_until_;
    }
    // The force evaluations the reference has spent so far (0 for a closed form), its tolerance
    // study's included: an rk45 reference is bound per step as an rk45 lane is, twice that with
    // the study (the fuzz target checks it).
    long long reference_force_evaluations() const {
        sync_reference();
        return reference_lane_.force_evaluations + (shadow_ ? shadow_->force_evaluations : 0);
    }

    // Total angular momentum about the point the system conserves it around (see
    // System::conserves_angular_momentum; about the origin when it conserves none).
    bool conserves_angular_momentum() const { return conserves_l_; }
    double angular_momentum(int i) const;
    double reference_angular_momentum() const;
    // (L - L_ref) / S, with S = sum m |x0 - centre| |v0| (1 when that is 0).
    double angular_momentum_drift(int i) const;

    // Linked systems: the largest |length − rest|/rest over the links (a rigid link's violation; a
    // compliant link's stretch, physical: compare it with the reference's) and the first link's
    // tension in N (a rigid link's from the reference's multiplier, a compliant one's from its
    // stretch). 0 without links.
    double constraint_error(int i) const;
    double reference_constraint_error() const;
    double tension(int i) const;
    double reference_tension() const;

    // The phase plot's (q, p) of lane i and of the reference (Scene::phase says which).
    dvec2 phase(int i) const;
    dvec2 reference_phase() const;

private:
    struct Status {
        StopReason reason = StopReason::none;
        double diverged_at = 0.0;
        double dissipated = 0.0;
        double power[4] = {0.0, 0.0, 0.0, 0.0};  // dissipated power at the last four states, newest last
    };
    // The traced step's last stage (see set_observer).
    void report_result(const Lane& L) const;
    // Adds the energy dissipated over lane i's last step of h (see dissipated()).
    void add_dissipated(size_t i, double h, double p);
    // Brings the reference to the current step: the closed form at time(), or the rk45 lane
    // stepped dt by dt from where it was (so the numbers never depend on when it is read).
    void sync_reference() const { sync_reference(std::numeric_limits<long long>::max()); }
    // step() with every lane's h: frame_step > 0 is a variable loop's frame (clock_ holds its
    // end), else ticks of dt as step() says.
    // In parts of max_work (frame_part): true once the step is whole.
    bool step_lanes(double frame_step, long long max_work = unlimited_work);
    // One step of h of the rk45 reference (and of its tolerance study's shadow), projected onto
    // the rigid links after it (forces/link.hpp); in parts of max_work, true once whole.
    bool step_reference(double h, long long max_work = unlimited_work) const;
    // The reference brought to step `target` (steps() but while equal cost finishes a step in
    // parts: the tick under way), in parts of max_work; true once there.
    bool advance_reference(long long target, long long max_work) const;
    void project(Lane& lane) const;
    // The reference's check after a step: keeps the new state, or stops it at the last good one.
    void accept_reference() const;
    // The accumulator's render states (shown_*) at the frame's alpha.
    void render(double alpha);
    // Equal cost: whether lane i (stride other than 1) steps on this tick.
    bool due(size_t i, long long tick, bool adaptive) const;
    // Equal cost: the starting tolerance of an adaptive lane (see step()).
    void calibrate_tolerance(Lane& lane) const;
    // The reference state at lane i's time: the clock's, or with equal cost the copy taken
    // when the lane last stepped.
    const dvec2* reference_x_for(int i) const;
    const dvec2* reference_v_for(int i) const;
    // Why a step from (x0, v0) to (x, v) stops the lane (none: it goes on).
    // gave_up: the step function gave up (step_gave_up); (x, v) is then where it got to.
    StopReason check_state(const dvec2* x0, const dvec2* v0, const dvec2* x, const dvec2* v,
                           StopReason gave_up = StopReason::none) const;

    Config config_;
    Scene scene_;
    std::vector<Lane> lanes_;
    std::vector<const IntegratorInfo*> infos_;  // each lane's row of integrators()
    std::vector<int> substeps_;                 // each lane's substeps a step (LaneSpec)
    std::vector<std::string> ids_;              // each lane's id (lane_id)
    std::vector<Status> status_;
    std::vector<std::vector<dvec2>> last_x_, last_v_;  // the last good state of each lane
    ReferenceKind reference_kind_;
    std::vector<LinearBody> linear_bodies_;  // for the closed form of springs and dampers
    // The reference's state is a cache of what it is at step ref_steps_.
    // The written potential's quadrature nodes check_state evaluated (work() counts them).
    mutable long long quadrature_nodes_ = 0;
    mutable Lane reference_lane_;
    mutable std::optional<Lane> shadow_;  // the tolerance study's second reference
    // The lone pendulum's closed form from a start one rounding away (twin_x0_, twin_v0_; empty
    // otherwise): near the separatrix the motion parts from the saddle as e^(ωt), so any rounding
    // of the start, the closed form's own included, grows as fast; where the twin parts from the
    // reference by more than trusted_error, the closed form is no longer exact to that accuracy.
    std::vector<dvec2> twin_x0_, twin_v0_;
    mutable std::vector<dvec2> twin_x_, twin_v_;
    mutable double trusted_until_ = -1.0;
    mutable std::vector<dvec2> ref_x_, ref_v_;
    mutable StopReason reference_reason_ = StopReason::none;
    mutable double reference_stopped_at_ = 0.0;
    mutable long long ref_steps_ = 0;
    bool dissipative_ = false;
    bool constrained_ = false;  // rigid links: the reference is projected onto them after each step
    bool conserves_l_ = false;
    dvec2 l_centre_{0.0, 0.0};
    double l_scale_ = 1.0;
    double initial_energy_scale_ = 0.0;  // KE + |PE| at t = 0
    // check_state's proof: a state whose coordinates are within the runaway limit and whose
    // velocity components are within this has a finite energy and power (-1: none is proved).
    double check_speed_ = -1.0;
    long long steps_ = 0;
    // Equal cost: each lane's stride (0: by budget), the tick its state belongs to, its step
    // count, what its next step is expected to cost, and the reference at its time.
    std::vector<int> stride_;
    std::vector<long long> lane_at_, lane_steps_, expected_cost_;
    std::vector<std::vector<dvec2>> lane_ref_x_, lane_ref_v_;
    // The game loop: its schedule, frames taken, a variable loop's clock, and the accumulator's
    // render states (lanes and reference) with the reference's state one step back.
    std::optional<FrameLoop> loop_;
    long long frames_ = 0;
    int frame_steps_left_ = 0;  // of the frame under way (frame_part)
    bool variable_clock_ = false;
    bool accumulator_ = false;
    double clock_ = 0.0;
    double shown_time_ = 0.0;
    std::vector<std::vector<dvec2>> shown_x_, shown_v_;
    std::vector<dvec2> ref_shown_x_, ref_shown_v_;
    mutable std::vector<dvec2> ref_prev_x_, ref_prev_v_;
    // A step in parts (step_lanes with a budget): under way, the lane to go on with, its next
    // substep, its evaluations before this step, whether any lane stepped on this tick; and
    // the reference's step in parts: its shadow's turn.
    bool in_step_ = false;
    // What one force evaluation of each lane and of the reference counts for in work().
    std::vector<long long> lane_work_;
    long long reference_work_ = 0;
    size_t part_lane_ = 0;
    int part_substep_ = 0;
    long long part_spent_ = 0;
    bool part_any_stepped_ = false;
    mutable bool ref_shadow_turn_ = false;
};

}  // namespace stepwise
