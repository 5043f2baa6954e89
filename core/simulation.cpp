#include "simulation.hpp"

#include "exact.hpp"
#include "forces/link.hpp"
#include "forces/written_force.hpp"
#include "step_observer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

namespace stepwise {

const char* reference_name(ReferenceKind k) { return k == ReferenceKind::exact ? "exact" : "rk45"; }

const char* stop_reason_name(StopReason r) {
    switch (r) {
        case StopReason::none: return "";
        case StopReason::diverged: return "diverged";
        case StopReason::collision: return "collision";
        case StopReason::substep_limit: return "substep_limit";
        case StopReason::newton_failed: return "newton_failed";
        case StopReason::needs_compliance: return "needs_compliance";
    }
    return "";
}

const char* stop_reason_text(StopReason r) {
    switch (r) {
        case StopReason::none: return "";
        case StopReason::diverged: return "diverged";
        case StopReason::collision: return "fell into the central mass";
        case StopReason::substep_limit:
            static_assert(rk45_max_substeps == 2000, "the text below names the limit");
            return "needed more than 2000 rk45 substeps in one step (too stiff at this dt)";
        case StopReason::newton_failed:
            static_assert(implicit_euler_max_iterations == 50, "the text below names the limit");
            return "found no implicit-Euler step: Newton's iteration did not converge in 50 iterations "
                   "(the step's equation may have no solution at this dt)";
        case StopReason::needs_compliance:
            return "cannot step a rigid link: it integrates forces and a rod has no force law (set compliance "
                   "above 0 to make the links springs, or compare with the reference)";
    }
    return "";
}

StopReason step_gave_up(const Lane& L) {
    if (L.gave_up) return StopReason::substep_limit;
    if (L.unsolved) return StopReason::newton_failed;
    return StopReason::none;
}

Scene build_scene(const Config& c) {
    Scene scene = build_scene(c.scenario, c.values, c.scene, c.duration);
    add_written_force(c, scene);  // on every body beside the scenario's own forces
    return scene;
}

Simulation::Simulation(const Config& c) : Simulation(c, build_scene(c)) {}

Simulation::Simulation(const Config& c, Scene scene) : config_(c), scene_(std::move(scene)) {
    const System& s = scene_.system;
    reference_kind_ =
        has_closed_form(s, scene_.x0.data(), scene_.v0.data()) ? ReferenceKind::exact : ReferenceKind::rk45;
    linear_bodies_ = linear_bodies(s);
    dissipative_ = s.dissipative();
    constrained_ = s.has_rigid_links();
    conserves_l_ = s.conserves_angular_momentum(l_centre_);
    double l_scale = 0.0;
    for (int b = 0; b < s.bodies(); ++b) {
        const dvec2 r = scene_.x0[b] - l_centre_, w = scene_.v0[b];
        l_scale += s.mass[b] * std::hypot(r.x, r.y) * std::hypot(w.x, w.y);
    }
    l_scale_ = l_scale > 0.0 ? l_scale : 1.0;
    for (const LaneSpec& spec : c.integrators) {
        lanes_.push_back(make_lane(s, spec.integrator, scene_.x0.data(), scene_.v0.data()));
        const IntegratorInfo& info = integrators()[static_cast<size_t>(spec.integrator)];
        if (spec.iterations != 0) lanes_.back().iterations = spec.iterations;
        lanes_.back().pbd_stiffness = c.pbd_stiffness;
        substeps_.push_back(spec.substeps);
        ids_.push_back(lane_id(spec));
        infos_.push_back(&info);
        const bool variable_cost = info.implicit || info.adaptive;
        stride_.push_back(!c.equal_cost ? 1 : variable_cost ? 0 : info.force_evaluations);
    }
    status_.resize(lanes_.size());
    lane_at_.assign(lanes_.size(), 0);
    lane_steps_.assign(lanes_.size(), 0);
    expected_cost_.assign(lanes_.size(), 0);
    if (c.equal_cost) {
        lane_ref_x_.assign(lanes_.size(), scene_.x0);
        lane_ref_v_.assign(lanes_.size(), scene_.v0);
    }
    last_x_.assign(lanes_.size(), scene_.x0);
    last_v_.assign(lanes_.size(), scene_.v0);
    reference_lane_ = make_lane(s, find_integrator("rk45"), scene_.x0.data(), scene_.v0.data());
    reference_lane_.rtol = reference_rtol;
    reference_lane_.atol = reference_rtol;
    if (reference_kind_ == ReferenceKind::rk45 && !s.links.empty()) {
        // Linked systems (a double pendulum is chaotic) get the reference's tolerance study.
        shadow_ = reference_lane_;
        shadow_->rtol = shadow_->atol = shadow_rtol;
    }
    if (reference_kind_ == ReferenceKind::exact && is_lone_pendulum(s)) {
        // The twin: the start turned about the anchor by one rounding of its angle and its speed
        // raised by one rounding (a relative 2^-52 each).
        constexpr double ulp = 0x1p-52;
        const dvec2 d = scene_.x0[0] - s.links[0].anchor;
        const double turn = ulp * std::max(1.0, std::fabs(std::atan2(d.x, -d.y)));
        twin_x0_ = {s.links[0].anchor + d + turn * dvec2(-d.y, d.x)};
        twin_v0_ = {scene_.v0[0] * (1.0 + ulp)};
        twin_x_ = twin_x0_;
        twin_v_ = twin_v0_;
    }
    // What an evaluation counts for in work(): the system's size, an implicit lane's Newton solve,
    // the constrained reference's band.
    const long long size = evaluation_size();
    for (const Lane& L : lanes_) {
        const long long dim = 2LL * s.bodies();
        const long long solve = !integrators()[static_cast<size_t>(L.integrator)].implicit ? 0
                                : L.band_kl > 0 ? dim * (2LL * L.band_kl + 1) * (2LL * L.band_kl + 1)
                                                : dim * dim * dim / 3;
        lane_work_.push_back(size + solve);
    }
    // The band's multiply-adds are about 16 times cheaper than a force term's visit (measured in
    // the page's module on the heavy links: docs/performance-web.md, "The heaviest links").
    reference_work_ = size + (constrained_ ? LinkForce::constraint_work(s) / 16 : 0);
    initial_energy_scale_ = kinetic_energy(s, scene_.v0.data()) + std::fabs(potential_energy(s, scene_.x0.data()));
    // The largest of these speeds whose bound leaves a wide margin below the largest double
    // (1.8e308; the bound's own roundings are a few ulps).
    for (const double v_max : {1e50, 1e20, 1e8})
        if (energy_bound(s, runaway_factor * scene_.length_scale, v_max) <= 1e300) {
            check_speed_ = v_max;
            break;
        }
    if (c.loop.kind != LoopKind::none) {
        loop_.emplace(c.loop);
        variable_clock_ = c.loop.kind == LoopKind::variable;
        accumulator_ = c.loop.kind == LoopKind::accumulator;
        if (accumulator_) {
            shown_x_.assign(lanes_.size(), scene_.x0);
            shown_v_.assign(lanes_.size(), scene_.v0);
            ref_shown_x_ = ref_prev_x_ = scene_.x0;
            ref_shown_v_ = scene_.v0;
            ref_prev_v_ = scene_.v0;
        }
    }
    reset();
}

const IntegratorInfo& Simulation::info(int i) const { return *infos_[i]; }

void Simulation::reset() {
    steps_ = 0;
    const dvec2 *x0 = scene_.x0.data(), *v0 = scene_.v0.data();
    const double p0 = dissipated_power(scene_.system, x0, v0);
    // A method that integrates forces has nothing to integrate for a rod: it does not start. The
    // game-physics solvers step rods as constraints (IntegratorInfo::solves_constraints).
    for (size_t i = 0; i < lanes_.size(); ++i) {
        lanes_[i].reset(x0, v0);
        status_[i] = Status{};
        status_[i].power[3] = p0;
        if (!method_steps(lanes_[i].integrator, scene_.system))
            status_[i].reason = StopReason::needs_compliance;
        lane_at_[i] = lane_steps_[i] = 0;
        lanes_[i].rtol = lanes_[i].atol = Lane{}.rtol;
        // Before its first step a variable-cost lane expects the table's typical cost.
        expected_cost_[i] = integrators()[lanes_[i].integrator].force_evaluations;
        if (config_.equal_cost) {
            lane_ref_x_[i] = scene_.x0;
            lane_ref_v_[i] = scene_.v0;
            if (integrators()[lanes_[i].integrator].adaptive) calibrate_tolerance(lanes_[i]);
        }
    }
    // The state before each lane's last step (the accumulator's previous state) is the start.
    for (size_t i = 0; i < lanes_.size(); ++i) {
        std::copy(scene_.x0.begin(), scene_.x0.end(), last_x_[i].begin());
        std::copy(scene_.v0.begin(), scene_.v0.end(), last_v_[i].begin());
    }
    frames_ = 0;
    frame_steps_left_ = 0;  // a frame under way is dropped with the rest, and a step in parts
    in_step_ = false;
    ref_shadow_turn_ = false;
    clock_ = 0.0;
    shown_time_ = 0.0;
    if (loop_) loop_->reset();
    if (accumulator_) {
        for (size_t i = 0; i < lanes_.size(); ++i) {
            std::copy(scene_.x0.begin(), scene_.x0.end(), shown_x_[i].begin());
            std::copy(scene_.v0.begin(), scene_.v0.end(), shown_v_[i].begin());
        }
        std::copy(scene_.x0.begin(), scene_.x0.end(), ref_shown_x_.begin());
        std::copy(scene_.v0.begin(), scene_.v0.end(), ref_shown_v_.begin());
        std::copy(scene_.x0.begin(), scene_.x0.end(), ref_prev_x_.begin());
        std::copy(scene_.v0.begin(), scene_.v0.end(), ref_prev_v_.begin());
    }
    reference_lane_.reset(x0, v0);
    if (shadow_) shadow_->reset(x0, v0);
    trusted_until_ = -1.0;
    ref_x_ = scene_.x0;
    ref_v_ = scene_.v0;
    reference_reason_ = StopReason::none;
    reference_stopped_at_ = 0.0;
    ref_steps_ = 0;
}

namespace {

// Every component of x within ±limit and of v within ±speed (limit, speed >= 0), in one pass
// without a branch: the magnitudes compared as bit patterns, which order as the numbers do, with
// inf and then NaN above every finite number; limit − |x| as 64-bit integers wraps to a pattern
// with its top bit set exactly where |x| > limit, and the patterns are or-ed, so the loop is
// integer and, subtract and or, which vectorise.
bool within_box(const dvec2* x, const dvec2* v, int n, double limit, double speed) {
    static_assert(sizeof(dvec2) == 2 * sizeof(std::uint64_t), "a dvec2 is its two doubles");
    const std::uint64_t magnitude = ~(std::uint64_t{1} << 63);
    std::uint64_t lx, lv;  // the bits of limit and speed (no std::bit_cast in the page's libc++)
    std::memcpy(&lx, &limit, 8);
    std::memcpy(&lv, &speed, 8);
    const char* px = reinterpret_cast<const char*>(x);
    const char* pv = reinterpret_cast<const char*>(v);
    std::uint64_t out = 0;
    for (int k = 0; k < 2 * n; ++k) {
        std::uint64_t a, b;
        std::memcpy(&a, px + 8 * k, 8);
        std::memcpy(&b, pv + 8 * k, 8);
        out |= (lx - (a & magnitude)) | (lv - (b & magnitude));
    }
    return (out >> 63) == 0;
}

}  // namespace

StopReason Simulation::check_state(const dvec2* x0, const dvec2* v0, const dvec2* x, const dvec2* v,
                                   StopReason gave_up) const {
    const System& s = scene_.system;
    // A fall into a central body first: it may leave the state non-finite, or make rk45 give up.
    if (s.collided(x0, v0, x, v)) return StopReason::collision;
    if (gave_up != StopReason::none) return gave_up;
    const double limit = runaway_factor * scene_.length_scale;
    // Every coordinate within the runaway limit and every velocity component within check_speed_
    // (a NaN is within neither) proves what the checks below ask, finite, not run away, a finite
    // energy and power (energy_bound), without them.
    const int n = bodies();
    if (check_speed_ > 0.0 && within_box(x, v, n, limit, check_speed_)) return StopReason::none;
    for (int b = 0; b < n; ++b) {
        if (!std::isfinite(x[b].x) || !std::isfinite(x[b].y) || !std::isfinite(v[b].x) || !std::isfinite(v[b].y))
            return StopReason::diverged;
        if (std::fabs(x[b].x) > limit || std::fabs(x[b].y) > limit) return StopReason::diverged;
    }
    // Finite positions and velocities can still give an infinite energy or power (|v| ~ 1e160
    // squared): that lane has run away too, and nothing it would report is a number.
    const long long nodes_before = WrittenForce::quadrature_nodes();
    const bool finite = std::isfinite(stepwise::energy(s, x, v)) && std::isfinite(dissipated_power(s, x, v));
    quadrature_nodes_ += WrittenForce::quadrature_nodes() - nodes_before;
    return finite ? StopReason::none : StopReason::diverged;
}

void Simulation::add_dissipated(size_t i, double h, double p) {
    Status& st = status_[i];
    const Lane& L = lanes_[i];
    double* P = st.power;
    P[0] = P[1];
    P[1] = P[2];
    P[2] = P[3];
    P[3] = p;
    if (infos_[i]->adaptive) {
        st.dissipated = L.dissipated;  // rk45 integrates it with its own stages
        return;
    }
    const long long n = lane_steps_[i];  // steps taken, this one included
    if (stride_[i] == 0 || variable_clock_ || n < 3) {
        st.dissipated += 0.5 * h * (P[2] + P[3]);  // trapezoid (provisional until the third step)
    } else if (n == 3) {
        // Simpson's 3/8 rule over the first three steps replaces their trapezoids.
        st.dissipated = (3.0 * h / 8.0) * (P[0] + 3.0 * (P[1] + P[2]) + P[3]);
    } else {
        // Four-point Adams–Moulton: the cubic through the last four powers over the last step.
        st.dissipated += (h / 24.0) * (P[0] - 5.0 * P[1] + 19.0 * P[2] + 9.0 * P[3]);
    }
}

void Simulation::report_result(const Lane& L) const {
    std::vector<dvec2> a(L.x.size());
    accelerations(scene_.system, L.x.data(), L.v.data(), a.data(), L.t);  // the step's end
    L.observer->stage(StageKind::state, {"result"}, L.x.data(), L.v.data(), a.data());
}

void Simulation::step() { step_lanes(0.0); }

long long Simulation::work() const {
    long long n = (reference_lane_.force_evaluations + (shadow_ ? shadow_->force_evaluations : 0)) * reference_work_;
    for (size_t i = 0; i < lanes_.size(); ++i) n += lanes_[i].force_evaluations * lane_work_[i];
    // The written potential's quadrature in the steps' checks, a node as one of its expressions.
    const WrittenLaw& w = scene_.system.written;
    return n + quadrature_nodes_ * std::max(w.fx.instructions(), w.fy.instructions());
}

long long Simulation::evaluation_size() const {
    const System& s = scene_.system;
    const long long terms = static_cast<long long>(s.anchor_springs.size() + s.pair_springs.size() +
                                                   s.central_forces.size() + s.links.size());
    const long long written = s.written.present ? s.written.fx.instructions() + s.written.fy.instructions() : 0;
    return s.bodies() + terms + written * s.bodies();
}

namespace {
// The evaluations left of a budget that started at `start`, spent() now (unlimited stays so).
long long work_left(long long budget, long long start, long long now) {
    return budget == Simulation::unlimited_work ? budget : budget - (now - start);
}
// An rk45 step's substeps in one unit of work for the work left, at `size` an evaluation (6
// evaluations a substep), at most rk45_unit_substeps: the caller may stop between two units (its
// clock); 0: the whole step.
constexpr long long rk45_unit_substeps = 8;
int rk45_part(long long left, long long size) {
    if (left == Simulation::unlimited_work) return 0;
    return static_cast<int>(std::clamp(left / (6 * size), 1LL, rk45_unit_substeps));
}
}  // namespace

void Simulation::frame() { frame_part(std::numeric_limits<int>::max()); }

bool Simulation::frame_part(int max_steps, long long max_work) {
    const long long start = work();
    if (!loop_) {
        if (!step_lanes(0.0, max_work)) return false;
        ++frames_;
        return true;
    }
    if (!in_frame()) {
        const Frame& f = loop_->next();
        if (variable_clock_) {
            clock_ = f.wall_time;
            step_lanes(f.step);
            if (reference_kind_ == ReferenceKind::rk45 && reference_reason_ == StopReason::none) {
                // The reference takes the frame's step too (sync_reference would take dt).
                step_reference(f.step);
                ++ref_steps_;
                accept_reference();
            }
            ref_steps_ = reference_kind_ == ReferenceKind::rk45 ? steps_ : ref_steps_;
            ++frames_;
            return true;
        }
        frame_steps_left_ = f.steps;
    }
    const int n = std::min(std::max(max_steps, 1), frame_steps_left_);
    for (int k = 0; k < n; ++k) {
        if (!step_lanes(0.0, work_left(max_work, start, work()))) return false;
        --frame_steps_left_;
    }
    if (in_frame()) return false;
    ++frames_;
    if (accumulator_) render(loop_->frame().alpha);
    return true;
}

void Simulation::render(double alpha) {
    // Before the first step previous = current = the start: the start, at t = 0.
    shown_time_ = steps_ == 0 ? 0.0 : (static_cast<double>(steps_ - 1) + alpha) * config_.dt;
    const double keep = 1.0 - alpha;
    for (size_t i = 0; i < lanes_.size(); ++i) {
        const Lane& L = lanes_[i];
        for (size_t b = 0; b < L.x.size(); ++b) {
            shown_x_[i][b] = keep * last_x_[i][b] + alpha * L.x[b];
            shown_v_[i][b] = keep * last_v_[i][b] + alpha * L.v[b];
        }
    }
    sync_reference();
    for (size_t b = 0; b < ref_x_.size(); ++b) {
        ref_shown_x_[b] = keep * ref_prev_x_[b] + alpha * ref_x_[b];
        ref_shown_v_[b] = keep * ref_prev_v_[b] + alpha * ref_v_[b];
    }
}

const dvec2* Simulation::shown_reference_x() const { return accumulator_ ? ref_shown_x_.data() : reference_x().data(); }

const dvec2* Simulation::shown_reference_v() const { return accumulator_ ? ref_shown_v_.data() : reference_v().data(); }

double Simulation::shown_reference_energy() const {
    return stepwise::energy(scene_.system, shown_reference_x(), shown_reference_v());
}

double Simulation::shown_time() const { return accumulator_ ? shown_time_ : time(); }

const dvec2* Simulation::shown_x(int i) const { return accumulator_ ? shown_x_[i].data() : lanes_[i].x.data(); }

const dvec2* Simulation::shown_v(int i) const { return accumulator_ ? shown_v_[i].data() : lanes_[i].v.data(); }

double Simulation::shown_energy(int i) const {
    return accumulator_ ? stepwise::energy(scene_.system, shown_x_[i].data(), shown_v_[i].data()) : energy(i);
}

double Simulation::shown_error(int lane, int body) const {
    if (!accumulator_) return error(lane, body);
    const dvec2 d = shown_x_[lane][body] - ref_shown_x_[body];
    return std::sqrt(d.x * d.x + d.y * d.y);
}

bool Simulation::step_lanes(double frame_step, long long max_work) {
    const System& s = scene_.system;
    const long long tick = steps_ + 1;
    const bool variable = frame_step > 0.0;
    const double t_next = variable ? clock_ : static_cast<double>(tick) * config_.dt;
    // Unlimited (every step but the page's parts): left() is unlimited_work without summing the
    // work (a pass over the lanes, three times a substep, that nothing read).
    const bool limited = max_work != unlimited_work;
    const long long start = limited ? work() : 0;
    const auto left = [&] { return limited ? work_left(max_work, start, work()) : unlimited_work; };
    if (!in_step_) {
        in_step_ = true;
        part_lane_ = 0;
        part_substep_ = 0;
        part_any_stepped_ = false;
    }
    // Lane by lane and substep by substep from where the last part stopped (part_lane_,
    // part_substep_; a lane's rk45 step in parts keeps its own place, Lane::in_step).
    for (; part_lane_ < lanes_.size(); ++part_lane_, part_substep_ = 0) {
        const size_t i = part_lane_;
        Status& st = status_[i];
        if (st.reason != StopReason::none) continue;
        Lane& L = lanes_[i];
        const IntegratorInfo& info = *infos_[i];
        const bool adaptive = stride_[i] == 0 && info.adaptive;
        // A lane whose step is under way (a part of it taken) was due when it began: due() reads
        // its force evaluations, which the parts taken so far have raised.
        const bool resuming = part_substep_ > 0 || L.in_step;
        if (!resuming && stride_[i] != 1 && !due(i, tick, adaptive)) continue;
        const long long ticks = tick - lane_at_[i];
        const double h = variable ? frame_step : static_cast<double>(ticks) * config_.dt;
        if (part_substep_ == 0 && !L.in_step) {
            std::copy(L.x.begin(), L.x.end(), last_x_[i].begin());
            std::copy(L.v.begin(), L.v.end(), last_v_[i].begin());
            part_spent_ = L.force_evaluations;
        }
        // The lane's substeps: its step of h is that many steps of h/substeps (h/1 is h, bit for
        // bit), stopped at the first that gives up.
        const int substeps = substeps_[i];
        const double part = h / static_cast<double>(substeps);
        while (part_substep_ < substeps) {
            if (left() <= 0) return false;  // the rest at the next call
            L.part_substeps = rk45_part(left(), lane_work_[i]);
            info.step(s, L, part);
            if (L.in_step) return false;  // an rk45 step in parts: on at the next call
            ++part_substep_;
            if (step_gave_up(L) != StopReason::none) break;
        }
        L.part_substeps = 0;
        if (L.observer) report_result(L);
        const long long cost = std::max(1LL, L.force_evaluations - part_spent_);
        if (adaptive) {
            // An adaptive lane's cost is set by its tolerance, not by h (given a longer step it
            // takes more substeps), so it keeps its expected cost and its tolerance gives way
            // instead: a step that cost more than its ticks loosens rtol by (cost/ticks)^5 (cost
            // ∝ rtol^(-1/5) for a fifth-order pair), at most 10× at once. It never tightens: the
            // calibration in reset() starts it at the tightest tolerance whose first substep fits.
            const double ratio = static_cast<double>(cost - (lane_steps_[i] == 0 ? 1 : 0)) / static_cast<double>(ticks);
            if (ratio > 1.0) {
                const double factor = std::min(std::pow(ratio, 5.0), 10.0);
                L.rtol = L.atol = std::min(L.rtol * factor, equal_cost_rtol_max);
            }
        } else {
            expected_cost_[i] = cost;  // implicit Euler: as many Newton iterations as last time
        }
        lane_at_[i] = tick;
        ++lane_steps_[i];
        part_any_stepped_ = true;
        if (const StopReason why =
                check_state(last_x_[i].data(), last_v_[i].data(), L.x.data(), L.v.data(), step_gave_up(L));
            why != StopReason::none) {
            // A diverging integrator is a lesson: keep its last finite state, flag it, go on.
            std::copy(last_x_[i].begin(), last_x_[i].end(), L.x.begin());
            std::copy(last_v_[i].begin(), last_v_[i].end(), L.v.begin());
            st.reason = why;
            st.diverged_at = t_next;
            continue;
        }
        if (dissipative_) add_dissipated(i, h, dissipated_power(s, L.x.data(), L.v.data()));
    }
    const bool copy_reference = config_.equal_cost && part_any_stepped_;
    // Lanes fall behind the clock between their steps: keep the reference at each lane's time,
    // so its error and drift compare states of one instant (brought to the tick in parts too).
    if (copy_reference && !advance_reference(tick, left())) return false;
    ++steps_;
    in_step_ = false;
    if (copy_reference) {
        for (size_t i = 0; i < lanes_.size(); ++i) {
            if (lane_at_[i] != steps_) continue;
            lane_ref_x_[i] = ref_x_;
            lane_ref_v_[i] = ref_v_;
        }
    }
    return true;
}

bool Simulation::due(size_t i, long long tick, bool adaptive) const {
    // With equal cost: every stride-th tick, or (stride 0) when the budget of the ticks so far,
    // one evaluation each, covers what the lane has spent plus what its next step is expected to
    // cost. An adaptive lane also keeps to multiples of its expected cost (one substep's
    // evaluations), so it steps as often as its budget allows and an overspent step only skips
    // one beat; its first slope (first same as last) is its one evaluation at the start, as the
    // Verlet family's is, and not charged.
    if (stride_[i] > 1) return tick % stride_[i] == 0;
    const Lane& L = lanes_[i];
    const long long charged = adaptive && L.started ? L.force_evaluations - 1 : L.force_evaluations;
    return charged + expected_cost_[i] <= tick && (!adaptive || (tick - lane_at_[i]) % expected_cost_[i] == 0);
}

void Simulation::calibrate_tolerance(Lane& lane) const {
    // The tightest of rtol = atol = 1e-9, 1e-8, … whose first substep of the expected cost's ticks is
    // accepted at once, tried on a copy (these trial steps are setup, not charged to the lane).
    const IntegratorInfo& info = integrators()[lane.integrator];
    const double h = static_cast<double>(info.force_evaluations) * config_.dt;
    // A trial takes at most one substep: whether it is accepted at once is all it has to tell
    // (a full trial step at a tolerance too tight for a stiff system ran up to 2,000 substeps:
    // 58-79 ms of one task in the page, 160-470 ms in Node, for tolerances it then refused).
    for (double rtol = Lane{}.rtol; rtol <= equal_cost_rtol_max * 1.0001; rtol *= 10.0) {
        Lane trial = lane;
        trial.rtol = trial.atol = rtol;
        trial.max_substeps = 1;
        info.step(scene_.system, trial, h);
        lane.rtol = lane.atol = std::min(rtol, equal_cost_rtol_max);
        if (!trial.gave_up && trial.force_evaluations <= info.force_evaluations + 1) return;
    }
}

double Simulation::effective_dt(int i) const {
    if (lane_steps_[i] == 0)
        return static_cast<double>(stride_[i] > 0 ? stride_[i] : expected_cost_[i]) * config_.dt;
    return lane_time(i) / static_cast<double>(lane_steps_[i]);
}

const dvec2* Simulation::reference_x_for(int i) const {
    if (config_.equal_cost) return lane_ref_x_[i].data();
    return reference_x().data();
}

const dvec2* Simulation::reference_v_for(int i) const {
    if (config_.equal_cost) return lane_ref_v_[i].data();
    return reference_v().data();
}

void Simulation::advance(long long n) {
    for (long long k = 0; k < n; ++k) step();
}

bool Simulation::sync_reference(long long max_steps) const {
    // A closed form (or a stopped reference) jumps to now in one go; rk45 steps dt by dt.
    if (reference_kind_ == ReferenceKind::exact || reference_reason_ != StopReason::none)
        return advance_reference(steps_, unlimited_work);
    for (long long taken = 0; ref_steps_ < steps_ && taken < max_steps; ++taken)
        advance_reference(ref_steps_ + 1, unlimited_work);
    return reference_synced();
}

bool Simulation::advance_reference(long long target, long long max_work) const {
    const double dt = config_.dt;
    const long long start = work();
    while (ref_steps_ < target) {
        if (reference_reason_ != StopReason::none) {
            ref_steps_ = std::max(target, steps_);  // stopped: it stays where it was
            return true;
        }
        if (reference_kind_ == ReferenceKind::exact) {
            // A closed form needs no history: jump straight to the target (and, for the
            // accumulator's render state, to one step back).
            const double t = target == steps_ ? time() : static_cast<double>(target) * dt;
            exact_state(scene_.system, linear_bodies_.data(), scene_.x0.data(), scene_.v0.data(), t,
                        reference_lane_.x.data(), reference_lane_.v.data());
            if (!twin_x0_.empty() && trusted_until_ < 0.0) {
                exact_state(scene_.system, linear_bodies_.data(), twin_x0_.data(), twin_v0_.data(), t,
                            twin_x_.data(), twin_v_.data());
                const dvec2 d = twin_x_[0] - reference_lane_.x[0];
                if (!(std::sqrt(d.x * d.x + d.y * d.y) <= trusted_error * std::max(1.0, scene_.mechanism_size)))
                    trusted_until_ = t;
            }
                        if (accumulator_ && target > 0)
                exact_state(scene_.system, linear_bodies_.data(), scene_.x0.data(), scene_.v0.data(),
                            static_cast<double>(target - 1) * dt, ref_prev_x_.data(), ref_prev_v_.data());
            ref_steps_ = target;
        } else {
            const long long left = work_left(max_work, start, work());
            if (left <= 0) return false;
            if (accumulator_ && ref_steps_ + 1 == target) {
                std::copy(ref_x_.begin(), ref_x_.end(), ref_prev_x_.begin());
                std::copy(ref_v_.begin(), ref_v_.end(), ref_prev_v_.begin());
            }
            if (!step_reference(dt, left)) return false;  // the rest of its step at the next call
            ++ref_steps_;
        }
        accept_reference();
    }
    return true;
}

bool Simulation::step_reference(double h, long long max_work) const {
    const long long start = work();
    const auto left = [&] { return work_left(max_work, start, work()); };
    if (!ref_shadow_turn_) {
        reference_lane_.part_substeps = rk45_part(left(), reference_work_);
        integrators()[reference_lane_.integrator].step(scene_.system, reference_lane_, h);
        reference_lane_.part_substeps = 0;
        if (reference_lane_.in_step) return false;
        if (constrained_) project(reference_lane_);
        if (!shadow_ || trusted_until_ >= 0.0) return true;
        ref_shadow_turn_ = true;
    }
    // The tolerance study: the same step at a tenth of the tolerance. Where the two part by more
    // than trusted_error (relative to the mechanism), the reference's own error may be that
    // large: chaos has amplified rk45's 1e-12 beyond it, and from then on it is not exact.
    if (left() <= 0) return false;
    Lane& S = *shadow_;
    S.part_substeps = rk45_part(left(), reference_work_);
    integrators()[S.integrator].step(scene_.system, S, h);
    S.part_substeps = 0;
    if (S.in_step) return false;
    ref_shadow_turn_ = false;
    if (constrained_) project(S);
    const double limit = trusted_error * std::max(1.0, scene_.mechanism_size);
    double apart = 0.0;
    for (size_t b = 0; b < S.x.size(); ++b) {
        const dvec2 d = S.x[b] - reference_lane_.x[b];
        apart = std::max(apart, std::sqrt(d.x * d.x + d.y * d.y));
    }
    if (!(apart <= limit) || S.gave_up)
        trusted_until_ = variable_clock_ ? clock_ : static_cast<double>(ref_steps_ + 1) * config_.dt;
    return true;
}

void Simulation::project(Lane& R) const { project_onto_links(scene_.system, R); }

void project_onto_links(const System& s, Lane& R) {
    // Back onto the rigid links (the index-1 equations let C drift with round-off). The slope
    // rk45 carries to the next step belongs to the state before the projection: evaluate afresh.
    if (R.gave_up) return;
    if (!LinkForce::project(s, R.x.data(), R.v.data()))
        std::fill(R.x.begin(), R.x.end(), dvec2(std::numeric_limits<double>::quiet_NaN()));
    R.started = false;
}

void Simulation::accept_reference() const {
    if (const StopReason why = check_state(ref_x_.data(), ref_v_.data(), reference_lane_.x.data(),
                                           reference_lane_.v.data(), step_gave_up(reference_lane_));
        why != StopReason::none) {
        // The reference keeps its last good state, and says when it stopped.
        reference_reason_ = why;
        reference_stopped_at_ = variable_clock_ ? clock_ : static_cast<double>(ref_steps_) * config_.dt;
        return;
    }
    std::copy(reference_lane_.x.begin(), reference_lane_.x.end(), ref_x_.begin());
    std::copy(reference_lane_.v.begin(), reference_lane_.v.end(), ref_v_.begin());
}

double Simulation::energy(int i) const {
    return stepwise::energy(scene_.system, lanes_[i].x.data(), lanes_[i].v.data());
}

double Simulation::reference_energy() const {
    sync_reference();
    return stepwise::energy(scene_.system, ref_x_.data(), ref_v_.data());
}

double Simulation::error(int lane, int body) const {
    const dvec2 d = lanes_[lane].x[body] - reference_x_for(lane)[body];
    return std::sqrt(d.x * d.x + d.y * d.y);
}

double Simulation::energy_drift(int i) const {
    const System& s = scene_.system;
    const double ke = kinetic_energy(s, reference_v_for(i));
    const double pe = potential_energy(s, reference_x_for(i));
    const double scale = std::max(initial_energy_scale_, ke + std::fabs(pe));
    const double diff = energy(i) - (ke + pe);
    return scale > 0.0 ? diff / scale : diff;
}

double Simulation::angular_momentum(int i) const {
    return stepwise::angular_momentum(scene_.system, lanes_[i].x.data(), lanes_[i].v.data(), l_centre_);
}

double Simulation::reference_angular_momentum() const {
    sync_reference();
    return stepwise::angular_momentum(scene_.system, ref_x_.data(), ref_v_.data(), l_centre_);
}

double Simulation::angular_momentum_drift(int i) const {
    const double l_ref =
        stepwise::angular_momentum(scene_.system, reference_x_for(i), reference_v_for(i), l_centre_);
    return (angular_momentum(i) - l_ref) / l_scale_;
}

double Simulation::constraint_error(int i) const {
    return LinkForce::constraint_error(scene_.system, lanes_[i].x.data());
}

double Simulation::reference_constraint_error() const {
    sync_reference();
    return LinkForce::constraint_error(scene_.system, ref_x_.data());
}

double Simulation::tension(int i) const {
    if (scene_.system.links.empty()) return 0.0;
    // A solver lane's rigid link: the force its own multiplier or impulse applied in the last
    // substep (solvers.cpp: the link's row); a compliant link's, its stretch over α as for any lane.
    const Lane& lane = lanes_[i];
    if (scene_.system.links[0].compliance == 0.0 && integrators()[lane.integrator].solves_constraints) {
        for (int q = 0; q < lane.rows.size(); ++q)
            if (lane.rows.link[q] == 0 && lane_steps_[i] > 0) return lane.row_tension[q];
    }
    return LinkForce::tension(scene_.system, lanes_[i].x.data(), lanes_[i].v.data(), 0, lanes_[i].t);
}

double Simulation::reference_tension() const {
    if (scene_.system.links.empty()) return 0.0;
    sync_reference();
    return LinkForce::tension(scene_.system, ref_x_.data(), ref_v_.data(), 0, time());
}

dvec2 Simulation::phase(int i) const { return phase_point(scene_.phase, lanes_[i].x.data(), lanes_[i].v.data()); }

dvec2 Simulation::reference_phase() const {
    sync_reference();
    return phase_point(scene_.phase, ref_x_.data(), ref_v_.data());
}

}  // namespace stepwise
