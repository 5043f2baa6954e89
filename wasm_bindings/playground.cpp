#include "playground.hpp"

#include "parts.hpp"

#include "tables.hpp"

#include "forces/force_kind.hpp"

#include "rows.hpp"
#include "solvers.hpp"
#include "stability.hpp"
#include "trace_view.hpp"

#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <limits>

namespace stepwise::web {

using emscripten::val;

namespace {

// A message of the core's table for JS, one form for every message the page shows:
// {key, value, message (the core's English), code, args}; the page writes it in its language
// from code and args (web/common/language.js coreMessage).
val message_value(const std::string& key, const std::string& value, const std::string& message, const std::string& code,
                  const MessageArgs& message_args) {
    val item = val::object();
    item.set("key", key);
    item.set("value", value);
    item.set("message", message);
    item.set("code", code);
    val args = val::object();
    for (const MessageArg& a : message_args) args.set(a.name, a.value);
    item.set("args", args);
    return item;
}

val error_list(const std::vector<ConfigError>& errors) {
    val list = val::array();
    for (const ConfigError& e : errors) list.call<void>("push", message_value(e.key, e.value, e.message, e.code, e.args));
    return list;
}

// Why the system's written force has no potential (WrittenForce::decide_potential: a pole or a
// point where it is not finite between the origin and a body's start), as a message; null when
// it has one, or none by its form (it reads t, a velocity or the other coordinate).
val no_potential_value(const WrittenLaw& w) {
    if (w.no_potential.empty()) return val::null();
    std::string key, got;
    for (const MessageArg& a : w.no_potential_args) {
        if (a.name == "key") key = a.value;
        if (a.name == "got") got = a.value;
    }
    return message_value(key, got, message_text(w.no_potential, w.no_potential_args), w.no_potential, w.no_potential_args);
}

// One order claim for JS: {kind: 'power' | 'exact' | 'none', p, text: '4' | 'exact' | 'none'}.
val order_value(Order o) {
    val v = val::object();
    v.set("kind", std::string(o.kind == Order::power ? "power" : o.kind == Order::exact ? "exact" : "none"));
    v.set("p", o.p);
    v.set("text", std::string(order_text(o)));
    return v;
}

// A view of `count` doubles at `data`; JS copies it out with slice() before anything allocates.
val view(const double* data, size_t count) {
    return val(emscripten::typed_memory_view(count, data));
}

// The query's config with the page's own limits on the cloud applied: a cloud the page cannot
// hold is refused (cloud = 0) with a message naming the key, the value and what is allowed. The
// motion module computes no cloud: there a config with one is run without it and marked as
// needing the full module (the page then makes the simulation there, web/wasm.js).
ParseResult page_config(const std::string& query, int& cloud_for_full_module) {
    ParseResult r = parse_config(query);
    Config& c = r.config;
    // A link this module lacks a part for runs the default system here (the page makes it again in
    // a module that carries the part: missing_parts); none of a missing part's code is ever run.
    if (r.missing_parts != 0) {
        c = default_config(find_scenario(default_scenario));
        return r;
    }
    if (c.cloud == 0) return r;
    if constexpr (!module_has_clouds) {
        cloud_for_full_module = c.cloud;
        c.cloud = 0;
        return r;
    }
    const std::string value = std::to_string(c.cloud);
    if (c.cloud > max_page_cloud_points) {
        r.errors.push_back({"cloud", value,
                            "cloud must be a whole number from 0 to " + std::to_string(max_page_cloud_points) +
                                " in the page (the CLI allows up to " + std::to_string(max_cloud_points) + "); got '" +
                                value + "'"});
        c.cloud = 0;
        return r;
    }
    const System system = build_scene(c).system;
    const int bodies = system.bodies(), rows = build_solver_rows(system).size();
    double bytes = 0.0;
    for (const LaneSpec& lane : c.integrators)
        bytes += PhaseCloud::bytes_needed(lane.integrator, bodies, c.cloud, cloud_boundary_points, rows);
    if (bytes > max_cloud_bytes) {
        const std::string mb = format_fixed(bytes / 1e6, 0) + " MB";
        r.errors.push_back({"cloud", value,
                            "cloud: " + value + " points for each of " + std::to_string(c.integrators.size()) +
                                " integrators need " + mb + ", more than the page's " +
                                std::to_string(static_cast<int>(max_cloud_bytes / 1e6)) +
                                " MB; choose fewer points or integrators; got '" + value + "'"});
        c.cloud = 0;
    }
    return r;
}

StiffestMode stiffest_mode_of(const Scene& sc) { return stiffest_mode(sc.system, sc.x0.data(), sc.v0.data()); }

// Takes sim's frame under way (or the next one) a unit of work at a time until it is whole, the
// deadline has passed (nullptr: none) or sim.work() reaches `until` (a unit at least); true once
// whole. A unit is a substep of one lane or a few of an rk45 step's substeps
// (Simulation::frame_part with a budget of work), and the reference's step behind them in
// the same units: the core's reference is lazy, and left behind, the next read would take its
// steps at once. A frame of a 1000 Hz loop of 64 substeps on a stiff pendulum is 64 steps of every
// lane and as many of the rk45 reference at rtol = atol = 1e-12; a step of a stiff written law
// on the cloth with an rk45 lane and the reference at their substep cap is 2 × 12,000 evaluations
// of 62 bodies (1.24 s in one task when a step was the unit). whole_pending: the frame is whole
// and the reference is being brought to its end (kept between calls). The numbers are frame()'s,
// bit for bit.
bool take_frame(Simulation& sim, const Deadline* deadline, long long until, bool& whole_pending) {
    const bool follow = sim.reference_kind() == ReferenceKind::rk45;
    const auto left = [&] {
        return until == Simulation::unlimited_work ? until : until - sim.work();
    };
    for (;;) {
        // The reference is kept at most a step behind the lanes, and at the frame's end with them
        // (a unit of its work at a time: the deadline is looked at between them).
        while (follow && !sim.sync_reference_part(left()))
            if (left() <= 0 || (deadline && deadline->passed())) return false;
        if (whole_pending) {
            whole_pending = false;
            return true;
        }
        if (left() <= 0) return false;
        whole_pending = sim.frame_part(1, left());
        if (!whole_pending && (left() <= 0 || (deadline && deadline->passed()))) return false;
    }
}

}  // namespace

Playground::Playground(const std::string& query)
    : parsed_(page_config(query, cloud_for_full_module_)),
      sim_(parsed_.config),
      state_layout_(state_series(sim_), sim_.lanes(), sim_.bodies()),
      history_layout_(history_series(*this), sim_.lanes(), sim_.bodies()) {
    const Config& c = sim_.config();
    const double copies = static_cast<double>(c.integrators.size()) * (c.cloud + cloud_boundary_points);
    if (module_has_clouds && c.cloud > 0) {
        // The integrators' clouds are built by build_clouds, one at a time (15 clouds of 100,000
        // points take a few hundred milliseconds); the exact flow's few points now.
        clouds_.reserve(c.integrators.size());
        if (sim_.reference_kind() == ReferenceKind::exact)
            exact_cloud_.emplace(sim_.scene(), c.cloud, c.cloud_radius, exact_cloud_sample);
        // The points' buffers are reserved now (no page of them touched yet) and filled by
        // build_clouds a part at a time.
        cloud_values_ = static_cast<size_t>(c.cloud) * 2 * c.integrators.size() +
                        (exact_cloud_ ? exact_cloud_->sample().size() * 2 : 0);
        cloud_points_.reserve(cloud_values_);
        // Every cloud steps in parts: even a small one may cost more than a frame (see cloud_part_ms).
        split_clouds_ = true;
        cloud_part_size_.assign(c.integrators.size(), cloud_part_first);
        if (split_clouds_) {
            next_cloud_points_.reserve(cloud_values_);
            next_area_ratio_.assign(c.integrators.size(), std::nan(""));
            next_points_finite_.assign(c.integrators.size(), 0);
        }
    }
    state_.assign(static_cast<size_t>(state_layout_.width()), 0.0);
    sample_width_ = history_layout_.width();
    history_.assign(static_cast<size_t>(history_capacity) * sample_width_, 0.0);
    // Small clouds (a few milliseconds) at once: ready with the simulation.
    if (module_has_clouds && c.cloud > 0 && copies <= cloud_build_at_once) build_clouds(nullptr);
    reset();
}

void Playground::reset() {
    sim_.reset();
    frame_whole_ = false;
    state_kept_ = false;
    frame_ms_ = last_frame_ms_ = 0.0;
    if constexpr (module_has_clouds)
        for (PhaseCloud& cloud : clouds_) cloud.reset();
    cloud_lane_ = 0;  // a step in progress is dropped with the rest
    cloud_copy_ = 0;
    exact_cloud_t_ = -1.0;
    points_finite_step_ = -1;
    if (split_clouds_) keep_cloud_views();
    history_count_ = 0;
    history_stride_ = 1;
    ++history_generation_;
    last_advance_ = 0;
    record();
}

bool Playground::clouds_ready() const { return sim_.config().cloud == 0 || clouds_ready_; }

bool Playground::build_clouds(const Deadline* deadline) {
    if (!module_has_clouds || clouds_ready()) return true;
    const Config& c = sim_.config();
    // Units of work, with the clock read between them: the start disc's offsets (the same for
    // every integrator) a part at a time, its rim, then each cloud.
    bool built = false;
    auto more = [&] { return !(built && deadline && deadline->passed()); };
    const size_t points = static_cast<size_t>(c.cloud);
    if (cloud_offsets_.empty()) cloud_offsets_.reserve(points + cloud_boundary_points);
    while (cloud_offsets_.size() < points) {
        if (!more()) return false;
        const size_t end = std::min(points, cloud_offsets_.size() + cloud_part);
        for (size_t i = cloud_offsets_.size(); i < end; ++i)
            cloud_offsets_.push_back(disc_point(static_cast<int>(i), c.cloud, c.cloud_radius));
        built = true;
    }
    // The points' buffers, a part at a time.
    for (std::vector<float>* buffer : {&cloud_points_, &next_cloud_points_}) {
        if (buffer == &next_cloud_points_ && !split_clouds_) break;
        while (buffer->size() < cloud_values_) {
            if (!more()) return false;
            buffer->resize(std::min(cloud_values_, buffer->size() + cloud_buffer_part), 0.0f);
            built = true;
        }
    }
    if (cloud_offsets_.size() == points) {
        const std::vector<dvec2> rim = rim_points(cloud_boundary_points, c.cloud_radius);
        cloud_offsets_.insert(cloud_offsets_.end(), rim.begin(), rim.end());
    }
    while (clouds_.size() < c.integrators.size()) {
        if (!more()) return false;
        clouds_.emplace_back(sim_.scene(), c.integrators[clouds_.size()], c.cloud, cloud_offsets_, c.pbd_stiffness);
        built = true;
    }
    if (!more()) return false;  // the last unit in the next call
    cloud_offsets_ = {};
    // Still at t = 0 (nothing steps before): the clouds' views and the history's first sample
    // again, with every cloud in them (a new cloud is at its start already).
    clouds_ready_ = true;
    if (split_clouds_) keep_cloud_views();
    history_count_ = 0;
    ++history_generation_;
    record();
    return true;
}

bool Playground::prepare(double budget_ms) {
    const Deadline deadline(budget_ms);
    return build_clouds(&deadline);
}

bool Playground::step_clouds(const Deadline* deadline) {
    if constexpr (!module_has_clouds) return true;
    const double dt = sim_.config().dt;
    const double evaluation_size = static_cast<double>(sim_.evaluation_size());
    while (cloud_lane_ < clouds_.size()) {
        PhaseCloud& cloud = clouds_[cloud_lane_];
        int& size = cloud_part_size_[cloud_lane_];
        const int count = std::min(size, cloud.copies() - cloud_copy_);
        const double start = emscripten_get_now();
        const long long before = cloud.ensemble().evaluations();
        cloud.step_part(dt, cloud_copy_, count);
        // The next part's size from this one's cost: towards cloud_part_ms and cloud_part_work
        // (what a copy's step cost: rk45's varies with the motion), at most 4 times larger.
        const double ms = emscripten_get_now() - start;
        const double work = static_cast<double>(cloud.ensemble().evaluations() - before) * evaluation_size;
        cloud_work_ += work;
        const double fit = static_cast<double>(count) *
                           std::min(cloud_part_ms / std::max(ms, 1e-3), cloud_part_work / std::max(work, 1.0));
        if (count == size || fit < size)
            size = static_cast<int>(std::clamp(fit, 1.0, std::min(4.0 * size, static_cast<double>(cloud_part))));
        if (split_clouds_) note_part(cloud_lane_, cloud_copy_, count);
        cloud_copy_ += count;
        if (cloud_copy_ >= cloud.copies()) {
            cloud.end_step();
            if (split_clouds_) next_area_ratio_[cloud_lane_] = cloud.area_ratio().value_or(std::nan(""));
            ++cloud_lane_;
            cloud_copy_ = 0;
        }
        if (cloud_lane_ < clouds_.size() && deadline && (deadline->passed() || cloud_work_ >= cloud_work_limit_))
            return false;
    }
    return true;
}

bool Playground::step_once(const Deadline* deadline) {
    if (!step_clouds(deadline)) return false;  // the rest of this step in the next call
    // A step, or with a game loop one frame of it: the rest in the next call.
    const double start = emscripten_get_now();
    const bool whole = take_frame(sim_, deadline, work_until_, frame_whole_);
    frame_ms_ += emscripten_get_now() - start;
    if (!whole) return false;
    state_kept_ = false;
    last_frame_ms_ = frame_ms_;
    frame_ms_ = 0.0;
    cloud_lane_ = 0;
    if (split_clouds_) {
        // The step is whole: what its parts noted becomes what is read (the exact flow's points,
        // at the end of the buffer, are written at each read).
        cloud_points_.swap(next_cloud_points_);
        kept_area_ratio_.swap(next_area_ratio_);
        points_finite_.swap(next_points_finite_);
        points_finite_step_ = sim_.steps();
    }
    if (sim_.frames() % history_stride_ == 0) record();
    return true;
}

void Playground::note_part(size_t lane, int first, int count) {
    if constexpr (!module_has_clouds) return;
    const PhaseCloud& cloud = clouds_[lane];
    if (first == 0) next_points_finite_[lane] = 0;
    const int end = std::min(first + count, cloud.points());  // the rim's copies are not points
    if (end <= first) return;
    next_points_finite_[lane] += cloud.ensemble().finite_copies(first, end - first);
    float* out = next_cloud_points_.data() + (lane * static_cast<size_t>(cloud.points()) + first) * 2;
    for (int k = first; k < end; ++k) {
        const dvec2 p = cloud.point(k);  // in the cloud's plane (a chain's: the first link's θ, dθ/dt)
        *out++ = static_cast<float>(p.x);
        *out++ = static_cast<float>(p.y);
    }
}

void Playground::keep_cloud_views() {
    if (!module_has_clouds || !clouds_ready()) return;
    kept_area_ratio_.resize(clouds_.size());
    points_finite_.resize(clouds_.size());
    float* out = cloud_points_.data();
    for (size_t l = 0; l < clouds_.size(); ++l) {
        const PhaseCloud& cloud = clouds_[l];
        kept_area_ratio_[l] = cloud.area_ratio().value_or(std::nan(""));
        points_finite_[l] = cloud.points_finite();
        for (int k = 0; k < cloud.points(); ++k) {
            const dvec2 p = cloud.point(k);
            *out++ = static_cast<float>(p.x);
            *out++ = static_cast<float>(p.y);
        }
    }
    points_finite_step_ = sim_.steps();
}

int Playground::advance_steps(int n) {
    n = std::clamp(n, 0, max_steps_per_call);
    build_clouds(nullptr);
    for (int k = 0; k < n; ++k) step_once(nullptr);
    last_advance_ = n;
    return n;
}

int Playground::advance_within(int n, double budget_ms) {
    n = std::clamp(n, 0, max_steps_per_call);
    const Deadline deadline(budget_ms);
    // A budget of time bounds the work too (an infinite one, a caller's "all of them", neither).
    const bool bounded = std::isfinite(budget_ms);
    const long long start = sim_.work();
    work_until_ = bounded ? start + max_work_per_call : Simulation::unlimited_work;
    cloud_work_ = 0.0;
    cloud_work_limit_ = bounded ? static_cast<double>(max_work_per_call) : std::numeric_limits<double>::infinity();
    int taken = 0;
    // Clouds still being built, a large cloud's step or a costly frame may take the whole budget
    // (0 steps taken) and go on at the next call.
    if (n > 0 && !build_clouds(&deadline)) n = 0;
    // What state() reads should this call end part-way through the next frame: the last whole one.
    if (n > 0 && !mid_frame()) keep_state();
    long long frame_start = start;
    while (taken < n && step_once(&deadline)) {
        ++taken;
        const long long frame_cost = sim_.work() - frame_start;
        frame_start = sim_.work();
        // Another frame only while the last one's cost fits in what is left of both budgets; what
        // is read after the call is the last whole frame (kept, should the next one not end in it).
        if (deadline.passed() || deadline.left_ms() < last_frame_ms_ ||
            work_until_ - sim_.work() < frame_cost)
            break;
        // Kept when the next one may not end in this call (a frame's cost varies: rk45's).
        if (taken < n && (work_until_ - sim_.work() < 2 * frame_cost || deadline.left_ms() < 2 * last_frame_ms_))
            keep_state();
    }
    work_until_ = Simulation::unlimited_work;
    last_advance_ = taken;
    last_work_ = static_cast<double>(sim_.work() - start) + cloud_work_;
    most_work_ = std::max(most_work_, last_work_);
    return taken;
}

void Playground::keep_state() {
    state_layout_.fill(*this, state_.data());
    state_kept_ = true;
}

int Playground::advance_time(double seconds) {
    if (!(seconds > 0.0)) return advance_steps(0);
    const double steps = std::floor(seconds / dt() + 1e-9);
    return advance_steps(static_cast<int>(std::min(steps, static_cast<double>(max_steps_per_call))));
}

// Keeps every other sample and doubles the stride: the plots always span t = 0 to now
// in bounded memory.
void Playground::compact() {
    const int kept = (history_count_ + 1) / 2;
    for (int i = 0; i < kept; ++i) {
        std::copy_n(history_.begin() + static_cast<size_t>(2 * i) * sample_width_, sample_width_,
                    history_.begin() + static_cast<size_t>(i) * sample_width_);
    }
    history_count_ = kept;
    history_stride_ *= 2;
    ++history_generation_;
}

void Playground::record() {
    if (history_count_ == history_capacity) compact();
    if (sim_.frames() % history_stride_ != 0) return;  // the stride just doubled past this step
    history_layout_.fill(*this, history_.data() + static_cast<size_t>(history_count_) * sample_width_);
    ++history_count_;
}

val Playground::state() {
    // Between the parts of a step the last whole one's (kept by advance_within).
    if (!(state_kept_ && mid_frame())) state_layout_.fill(*this, state_.data());
    return view(state_.data(), state_.size());
}

double Playground::cloud_area_ratio(int lane) const {
    if (!module_has_clouds || clouds_.empty() || !clouds_ready()) return std::nan("");
    if (split_clouds_) return kept_area_ratio_[static_cast<size_t>(lane)];
    return clouds_[static_cast<size_t>(lane)].area_ratio().value_or(std::nan(""));
}

double Playground::cloud_points_finite(int lane) const {
    if (!module_has_clouds || clouds_.empty() || !clouds_ready()) return 0.0;
    if (points_finite_step_ != sim_.steps()) {
        points_finite_.resize(clouds_.size());
        for (size_t l = 0; l < clouds_.size(); ++l) points_finite_[l] = clouds_[l].points_finite();
        points_finite_step_ = sim_.steps();
    }
    return static_cast<double>(points_finite_[static_cast<size_t>(lane)]);
}

double Playground::exact_cloud_area_ratio() const {
    if (!module_has_clouds || !exact_cloud_) return std::nan("");
    // The ratio of the closed form at the current time (moved there if nobody has yet).
    if (exact_cloud_t_ != sim_.time()) {
        exact_cloud_->at(sim_.time());
        exact_cloud_t_ = sim_.time();
    }
    return exact_cloud_->area_ratio().value_or(std::nan(""));
}

val Playground::cloud_points() {
    // Until the clouds are built their buffers are not whole: nothing to read (the page reads
    // them once cloudsReady()).
    if (!module_has_clouds || !clouds_ready())
        return val(emscripten::typed_memory_view(size_t{0}, cloud_points_.data()));
    float* out = cloud_points_.data();
    for (const PhaseCloud& cloud : clouds_) {
        if (split_clouds_ || !clouds_ready()) {  // kept at the last whole step (or not built yet)
            out += static_cast<size_t>(cloud.points()) * 2;
            continue;
        }
        for (int k = 0; k < cloud.points(); ++k) {
            const dvec2 p = cloud.point(k);
            *out++ = static_cast<float>(p.x);
            *out++ = static_cast<float>(p.y);
        }
    }
    if (exact_cloud_) {
        exact_cloud_area_ratio();  // moves it to now
        for (dvec2 p : exact_cloud_->sample()) {
            *out++ = static_cast<float>(p.x);
            *out++ = static_cast<float>(p.y);
        }
    }
    return val(emscripten::typed_memory_view(cloud_points_.size(), cloud_points_.data()));
}

val Playground::layout() const {
    val out = val::object();
    val cloud = val::object();
    cloud.set("points", sim_.config().cloud);
    cloud.set("lanes", sim_.config().cloud > 0 ? static_cast<int>(sim_.config().integrators.size()) : 0);
    cloud.set("exact", exact_cloud_ ? static_cast<int>(exact_cloud_->sample().size()) : 0);
    cloud.set("radius", sim_.config().cloud_radius);
    out.set("cloud", cloud);
    out.set("state", state_layout_.describe(sim_));
    out.set("history", history_layout_.describe(sim_));
    out.set("history_capacity", history_capacity);
    return out;
}

val Playground::scene() const {
    const Scene& sc = sim_.scene();
    const System& s = sc.system;
    const ScenarioInfo& info = scenarios()[static_cast<size_t>(sim_.config().scenario)];
    auto point = [](dvec2 p) {
        val v = val::object();
        v.set("x", p.x);
        v.set("y", p.y);
        return v;
    };
    auto end = [](SceneDrawing::End e) {
        val v = val::object();
        v.set(e.anchor ? "anchor" : "body", e.index);
        return v;
    };
    val bodies = val::array();
    for (int b = 0; b < s.bodies(); ++b) {
        val body = val::object();
        body.set("mass", s.mass[static_cast<size_t>(b)]);
        body.set("start", point(sc.x0[static_cast<size_t>(b)]));
        bodies.call<void>("push", body);
    }
    // What each force kind draws (core/forces/): anchors once each, connectors by the indices
    // of their ends, central bodies, gravity.
    const SceneDrawing drawing = describe_forces(s);
    val springs = val::array();
    for (const SceneDrawing::Connector& c : drawing.connectors) {
        val spring = val::object();
        spring.set("kind", std::string(c.kind));
        spring.set("from", end(c.from));
        spring.set("to", end(c.to));
        spring.set("rest", c.rest);
        spring.set("compliance", c.compliance);  // a link's: 0 a rigid rod, drawn as a bar
        springs.call<void>("push", spring);
    }
    val anchor_list = val::array();
    for (dvec2 a : drawing.anchors) anchor_list.call<void>("push", point(a));
    val centres = val::array();
    for (const SceneDrawing::Centre& c : drawing.centres) {
        val centre = point(c.at);
        centre.set("gm", c.gm);
        centre.set("radius", c.radius);
        centres.call<void>("push", centre);
    }
    const PhaseNames names = phase_names(sc.phase);
    val phase = val::object();
    phase.set("q", std::string(names.q));
    phase.set("p", std::string(names.p));
    phase.set("qUnit", std::string(names.unit_q));
    phase.set("pUnit", std::string(names.unit_p));
    phase.set("text", std::string(info.phase_plot));
    val reference = val::object();
    reference.set("kind", std::string(reference_name(sim_.reference_kind())));
    reference.set("text", std::string(info.reference));

    val out = val::object();
    out.set("scenario", std::string(info.id));
    out.set("name", std::string(info.name));
    out.set("bodies", bodies);
    out.set("anchors", anchor_list);
    out.set("springs", springs);
    out.set("centres", centres);
    out.set("gravity", drawing.has_gravity ? point(drawing.gravity) : val::null());
    out.set("launchLine", sc.launch_line);
    out.set("referencePath", sc.reference_path);
    out.set("size", sc.mechanism_size);
    out.set("reference", reference);
    out.set("phase", phase);
    // The phase cloud's plane (none: the system has no cloud, the config refuses one).
    out.set("cloudWhy", std::string(sc.cloud.why));  // why it has none ("" when it has one)
    if (sc.cloud.plane == CloudPlane::none) {
        out.set("cloudPlane", val::null());
    } else {
        const CloudPlaneNames plane = cloud_plane_names(sc.cloud.plane);
        val cloud_plane = val::object();
        cloud_plane.set("q", std::string(plane.q));
        cloud_plane.set("qUnit", std::string(plane.unit_q));
        cloud_plane.set("p", std::string(plane.p));
        cloud_plane.set("pUnit", std::string(plane.unit_p));
        cloud_plane.set("of", std::string(plane.of));
        out.set("cloudPlane", cloud_plane);
    }
    out.set("angularMomentum", sim_.conserves_angular_momentum());
    out.set("dissipative", s.dissipative());
    // A written force with no potential where the motion starts: the energy leaves out its work.
    out.set("noPotential", no_potential_value(s.written));
    // The kind of system for the integrator table's orders, and each lane's claim on it (in
    // lane order), so that the page shows the order that applies here without working it out.
    const OrderRegime kind = regime_of(s);
    val regime = val::object();
    regime.set("id", std::string(regime_id(kind)));
    regime.set("text", std::string(regime_text(kind)));
    out.set("regime", regime);
    val lane_orders = val::array();
    for (int l = 0; l < sim_.lanes(); ++l) lane_orders.call<void>("push", order_value(expected_order(sim_.info(l), kind)));
    out.set("laneOrders", lane_orders);
    // What each lane's step costs in force evaluations, its settings included (lane_evaluations).
    val lane_costs = val::array();
    for (const LaneSpec& lane : sim_.config().integrators) lane_costs.call<void>("push", lane_evaluations(lane));
    out.set("laneEvaluations", lane_costs);
    return out;
}

val Playground::history(int from) {
    from = std::clamp(from, 0, history_count_);
    return view(history_.data() + static_cast<size_t>(from) * sample_width_,
                static_cast<size_t>(history_count_ - from) * sample_width_);
}

val Playground::errors() const { return error_list(parsed_.errors); }

val Playground::lane_ids() const {
    val ids = val::array();
    for (int l = 0; l < sim_.lanes(); ++l) ids.call<void>("push", sim_.id(l));
    return ids;
}

void Playground::take_in(const std::vector<dvec2>& points) {
    for (dvec2 p : points) {
        if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
        bounds_[0] = std::min(bounds_[0], p.x);
        bounds_[1] = std::max(bounds_[1], p.x);
        bounds_[2] = std::min(bounds_[2], p.y);
        bounds_[3] = std::max(bounds_[3], p.y);
    }
}

val Playground::grow_bounds(double budget_ms) {
    const Config& config = sim_.config();
    if (!bounds_done_ && !bounds_probe_) {
        // The probe: the same system with one cheap lane (only its reference is read).
        Config c = config;
        c.integrators = {find_integrator("semi_implicit_euler")};
        c.equal_cost = false;
        c.cloud = 0;
        if (sim_.reference_kind() == ReferenceKind::exact) c.dt = c.duration / motion_bound_samples;
        bounds_probe_ = std::make_unique<Simulation>(c);
        take_in(bounds_probe_->reference_x());
    }
    if (!bounds_done_) {
        Simulation& probe = *bounds_probe_;
        // Whole steps up to the end of the run (the runner stops there too); a closed form's
        // samples span the duration.
        const long long end = sim_.reference_kind() == ReferenceKind::exact
                                  ? motion_bound_samples
                                  : static_cast<long long>(std::ceil(config.duration / config.dt - 1e-9));
        if (sim_.reference_kind() == ReferenceKind::exact) {
            // A closed form jumps to any time: the whole duration now, one evaluation a sample.
            while (probe.steps() < end) {
                probe.step();
                take_in(probe.reference_x());
            }
        } else {
            // A budget of 0 takes no step (the start alone), any other at least a unit of work (a
            // few of the reference's substeps: one of its steps may be 12,000 evaluations), and at
            // most max_work_per_call of it as advance_within.
            if (budget_ms > 0.0) {
                const Deadline deadline(budget_ms);
                const long long start = probe.work(), until = start + max_work_per_call;
                do {
                    if (probe.reference_synced()) probe.step();
                    if (!probe.sync_reference_part(until - probe.work())) break;  // on at the next call
                    take_in(probe.reference_x());
                } while (probe.steps() < end && !probe.reference_stopped() && !deadline.passed() && probe.work() < until);
                most_work_ = std::max(most_work_, static_cast<double>(probe.work() - start));
            }
        }
        const bool synced = probe.reference_synced();
        bounds_t_ = std::min(synced ? probe.time() : probe.time() - config.dt, config.duration);
        bounds_done_ = synced && (probe.steps() >= end || probe.reference_stopped());
        if (bounds_done_) bounds_probe_.reset();
    }
    val out = val::object();
    out.set("minX", bounds_[0]);
    out.set("maxX", bounds_[1]);
    out.set("minY", bounds_[2]);
    out.set("maxY", bounds_[3]);
    out.set("t", bounds_t_);
    out.set("done", bounds_done_);
    return out;
}

val Playground::stiffest_mode() const {
    const Scene& sc = sim_.scene();
    const StiffestMode mode = stiffest_mode_of(sc);
    val out = val::object();
    out.set("oscillates", mode.oscillates);
    out.set("omega", mode.omega);
    out.set("zeta", mode.zeta);
    return out;
}

namespace {

// The lane stepping integrator `id`, or -1.
int lane_of(const Simulation& sim, const std::string& id) {
    for (int l = 0; l < sim.lanes(); ++l)
        if (id == sim.id(l)) return l;
    return -1;
}

}  // namespace

bool Playground::trace_start(const std::string& integrator) {
    trace_end();
    const int lane = lane_of(sim_, integrator);
    if (lane < 0) return false;
    tracing_ = std::make_unique<NextStepTrace>(sim_, std::vector<int>{lane});
    return true;
}

bool Playground::trace_run(double budget_ms) {
    if (!tracing_) return traced_.has_value();
    const Deadline deadline(budget_ms);
    do tracing_->advance();
    while (!tracing_->done() && !deadline.passed());
    if (!tracing_->done()) return false;
    traced_ = std::move(tracing_->take()[0]);
    tracing_.reset();
    return true;
}

val Playground::trace_stages(int first, int count) const {
    if (!traced_) return val::null();
    return trace_value(*traced_, sim_.scene().phase, first, count);
}

val Playground::trace_csv(int first, double budget_ms) const {
    val out = val::object();
    if (!traced_) return out;
    const Deadline deadline(budget_ms);
    const size_t all = traced_->stages.size();
    size_t at = static_cast<size_t>(std::max(first, 0));
    std::string text = at == 0 ? trace_csv_header : "";
    constexpr size_t part = 64;  // stages between looks at the clock
    do {
        append_trace_csv(text, *traced_, at, at + part);
        at = std::min(all, at + part);
    } while (at < all && !deadline.passed());
    out.set("text", text);
    out.set("next", static_cast<double>(at));
    return out;
}

void Playground::trace_end() {
    tracing_.reset();
    traced_.reset();
}

namespace {

val part_ids(unsigned parts) {
    val out = val::array();
    for (const PartInfo& row : part_table)
        if (parts & row.part) out.call<void>("push", std::string(row.id));
    return out;
}

}  // namespace

val carried_parts_list() { return part_ids(carried_parts()); }

val Playground::missing_parts() const { return part_ids(parsed_.missing_parts); }

val parse(const std::string& query) {
    const ParseResult r = parse_config(query);
    val out = val::object();
    out.set("ok", r.ok());
    out.set("config", normalise(r.config));
    out.set("errors", error_list(r.errors));
    // The link's lanes cannot step its system (ParseResult::no_lane_steps): a page that carried
    // them over leaves them out for the system's own default lanes.
    out.set("noLaneSteps", r.no_lane_steps);
    out.set("missingParts", part_ids(r.missing_parts));
    return out;
}

std::string normalise_query(const std::string& query) {
    const ParseResult r = parse_config(query);
    return r.unread() ? std::string() : normalise(r.config);
}




// Every table of the core (core/tables.hpp, the text `stepwise list --format json` prints), with
// the page module's own limits in "limits".
std::string tables() {
    // The longest query the core could read in full: max_pairs key=value pairs, key and value
    // each at most max_value_length characters once decoded, every decoded character at most a
    // three-character %XX escape, and '=' and '&' between. A longer query has a part too long
    // or too many parts, so the page refuses it whole before copying it into the module's heap.
    // A scene's value may be max_scene_length characters instead (core/scene_spec.hpp).
    const double max_query_length = static_cast<double>(max_pairs * (2 * 3 * max_value_length + 2) +
                                                        3 * (max_scene_length - max_value_length));
    return tables_json({{"max_steps_per_call", Playground::max_steps_per_call},
                        {"history_capacity", history_capacity},
                        {"max_export_rows", static_cast<double>(max_export_rows)},
                        {"max_page_cloud_points", max_page_cloud_points},
                        {"max_work_per_call", static_cast<double>(max_work_per_call)},
                        {"max_query_length", max_query_length}});
}

val Playground::loop() const {
    val out = val::object();
    const LoopSettings& s = sim_.config().loop;
    out.set("kind", std::string(loop_kind_id(s.kind)));
    out.set("text", describe_loop(s));
    out.set("hz", s.hz);
    out.set("substeps", s.substeps);
    out.set("jitter", s.jitter);
    out.set("seed", s.seed);
    out.set("maxSteps", s.max_steps);
    out.set("step", sim_.config().dt);  // the physics step (1/hz on average for loop=variable)
    return out;
}




namespace {
constexpr size_t chunk_bytes = 256 * 1024;
}

RunExport::RunExport(const std::string& query, double steps, double every, const std::string& format)
    : sim_(parse_config(query).config),
      json_(format == "json"),
      steps_(std::isfinite(steps) ? static_cast<long long>(std::clamp(steps, 0.0, max_steps)) : 0),
      every_(std::isfinite(every) ? std::max(1LL, static_cast<long long>(std::min(every, 1e12))) : 1) {
    out_.reserve(chunk_bytes + 4096);
    if (json_) append_json_head(out_, sim_, steps_); else out_ += csv_header;
    emit();
}

void RunExport::flush() {
    if (out_.empty()) return;
    chunks_.push_back(out_);
    out_.clear();
}

void RunExport::emit() {
    const long long room = max_export_rows - rows_;
    if (room <= 0) return;
    rows_ += json_ ? append_json_rows(out_, sim_, first_row_, room) : append_csv_rows(out_, sim_, room);
    if (out_.size() >= chunk_bytes) flush();
}

bool RunExport::run(int max_steps, double budget_ms) {
    if (finished_) return true;
    const Deadline deadline(budget_ms);
    // Never more than ~1 MB waiting for take(): the heap is fixed.
    for (int n = 0; n < max_steps && step_ < steps_ && rows_ < max_export_rows && chunks_.size() < 4; ++n) {
        // A step, or a frame of the game loop (its rows are frames): the rest in the next call.
        if (!take_frame(sim_, &deadline, sim_.work() + max_work_per_call, frame_whole_)) break;
        ++step_;
        if (step_ % every_ == 0) emit();
        if (deadline.passed()) break;
    }
    finished_ = step_ >= steps_ || rows_ >= max_export_rows;
    if (finished_) {
        if (json_) append_json_tail(out_, sim_);
        flush();
    }
    return finished_;
}

val RunExport::take() {
    val list = val::array();
    for (const std::string& c : chunks_) list.call<void>("push", c);
    chunks_.clear();
    return list;
}

val export_run(const std::string& query, double steps, double every, const std::string& format) {
    RunExport e(query, steps, every, format);
    val all = val::array();
    for (;;) {
        const bool finished = e.run(1 << 20, std::numeric_limits<double>::infinity());
        val part = e.take();
        const int n = part["length"].as<int>();
        for (int i = 0; i < n; ++i) all.call<void>("push", part[i]);
        if (finished) return all;
    }
}

}  // namespace stepwise::web
