#include "simulation.hpp"

#include "exact.hpp"

#include <algorithm>
#include <cmath>

namespace stepwise {

const char* reference_name(ReferenceKind k) { return k == ReferenceKind::exact ? "exact" : "rk45"; }

const char* stop_reason_name(StopReason r) {
    switch (r) {
        case StopReason::none: return "";
        case StopReason::diverged: return "diverged";
        case StopReason::collision: return "collision";
    }
    return "";
}

Scene build_scene(const Config& c) { return build_scene(c.scenario, c.values, c.duration); }

Simulation::Simulation(const Config& c) : config_(c), scene_(build_scene(c)) {
    const System& s = scene_.system;
    reference_kind_ =
        has_closed_form(s, scene_.x0.data(), scene_.v0.data()) ? ReferenceKind::exact : ReferenceKind::rk45;
    linear_bodies_ = linear_bodies(s);
    dissipative_ = s.dissipative();
    conserves_l_ = s.conserves_angular_momentum(l_centre_);
    double l_scale = 0.0;
    for (int b = 0; b < s.bodies(); ++b) {
        const dvec2 r = scene_.x0[b] - l_centre_, w = scene_.v0[b];
        l_scale += s.mass[b] * std::hypot(r.x, r.y) * std::hypot(w.x, w.y);
    }
    l_scale_ = l_scale > 0.0 ? l_scale : 1.0;
    for (int index : c.integrators) lanes_.push_back(make_lane(s, index, scene_.x0.data(), scene_.v0.data()));
    status_.resize(lanes_.size());
    last_x_.assign(lanes_.size(), scene_.x0);
    last_v_.assign(lanes_.size(), scene_.v0);
    reference_lane_ = make_lane(s, find_integrator("rk45"), scene_.x0.data(), scene_.v0.data());
    reference_lane_.rtol = reference_rtol;
    reference_lane_.atol = reference_rtol;
    initial_energy_scale_ = kinetic_energy(s, scene_.v0.data()) + std::fabs(potential_energy(s, scene_.x0.data()));
    reset();
}

const IntegratorInfo& Simulation::info(int i) const { return integrators()[lanes_[i].integrator]; }

void Simulation::reset() {
    steps_ = 0;
    const dvec2 *x0 = scene_.x0.data(), *v0 = scene_.v0.data();
    const double p0 = dissipated_power(scene_.system, v0);
    for (size_t i = 0; i < lanes_.size(); ++i) {
        lanes_[i].reset(x0, v0);
        status_[i] = Status{};
        status_[i].power = p0;
    }
    reference_lane_.reset(x0, v0);
    ref_x_ = scene_.x0;
    ref_v_ = scene_.v0;
    reference_reason_ = StopReason::none;
    reference_stopped_at_ = 0.0;
    ref_steps_ = 0;
}

StopReason Simulation::check_state(const dvec2* x0, const dvec2* v0, const dvec2* x, const dvec2* v) const {
    // A fall into a central body first: it may leave the state non-finite.
    if (scene_.system.collided(x0, v0, x, v)) return StopReason::collision;
    const double limit = runaway_factor * scene_.length_scale;
    for (int b = 0; b < bodies(); ++b) {
        if (!std::isfinite(x[b].x) || !std::isfinite(x[b].y) || !std::isfinite(v[b].x) || !std::isfinite(v[b].y))
            return StopReason::diverged;
        if (std::fabs(x[b].x) > limit || std::fabs(x[b].y) > limit) return StopReason::diverged;
    }
    return StopReason::none;
}

void Simulation::step() {
    const System& s = scene_.system;
    const double h = config_.dt;
    const double t_next = static_cast<double>(steps_ + 1) * h;
    for (size_t i = 0; i < lanes_.size(); ++i) {
        Status& st = status_[i];
        if (st.reason != StopReason::none) continue;
        Lane& L = lanes_[i];
        std::copy(L.x.begin(), L.x.end(), last_x_[i].begin());
        std::copy(L.v.begin(), L.v.end(), last_v_[i].begin());
        integrators()[L.integrator].step(s, L, h);
        if (const StopReason why = check_state(last_x_[i].data(), last_v_[i].data(), L.x.data(), L.v.data());
            why != StopReason::none) {
            // A diverging integrator is a lesson: keep its last finite state, flag it, go on.
            std::copy(last_x_[i].begin(), last_x_[i].end(), L.x.begin());
            std::copy(last_v_[i].begin(), last_v_[i].end(), L.v.begin());
            st.reason = why;
            st.diverged_at = t_next;
            continue;
        }
        if (dissipative_) {
            const double p = dissipated_power(s, L.v.data());
            st.dissipated += 0.5 * h * (st.power + p);
            st.power = p;
        }
    }
    ++steps_;
}

void Simulation::advance(long long n) {
    for (long long k = 0; k < n; ++k) step();
}

void Simulation::sync_reference() const {
    const double dt = config_.dt;
    while (ref_steps_ != steps_) {
        if (reference_reason_ != StopReason::none) {
            ref_steps_ = steps_;  // stopped: it stays where it was
            return;
        }
        if (reference_kind_ == ReferenceKind::exact) {
            // A closed form needs no history: jump straight to now.
            exact_state(scene_.system, linear_bodies_.data(), scene_.x0.data(), scene_.v0.data(), time(),
                        reference_lane_.x.data(), reference_lane_.v.data());
            ref_steps_ = steps_;
        } else {
            integrators()[reference_lane_.integrator].step(scene_.system, reference_lane_, dt);
            ++ref_steps_;
        }
        if (const StopReason why =
                check_state(ref_x_.data(), ref_v_.data(), reference_lane_.x.data(), reference_lane_.v.data());
            why != StopReason::none) {
            // The reference keeps its last good state, and says when it stopped.
            reference_reason_ = why;
            reference_stopped_at_ = static_cast<double>(ref_steps_) * dt;
            continue;
        }
        std::copy(reference_lane_.x.begin(), reference_lane_.x.end(), ref_x_.begin());
        std::copy(reference_lane_.v.begin(), reference_lane_.v.end(), ref_v_.begin());
    }
}

double Simulation::energy(int i) const {
    return stepwise::energy(scene_.system, lanes_[i].x.data(), lanes_[i].v.data());
}

double Simulation::reference_energy() const {
    sync_reference();
    return stepwise::energy(scene_.system, ref_x_.data(), ref_v_.data());
}

double Simulation::error(int lane, int body) const {
    const dvec2 d = lanes_[lane].x[body] - reference_x()[body];
    return std::sqrt(d.x * d.x + d.y * d.y);
}

double Simulation::energy_drift(int i) const {
    const System& s = scene_.system;
    sync_reference();
    const double ke = kinetic_energy(s, ref_v_.data());
    const double pe = potential_energy(s, ref_x_.data());
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
    return (angular_momentum(i) - reference_angular_momentum()) / l_scale_;
}

dvec2 Simulation::phase(int i) const { return phase_point(scene_.phase, lanes_[i].x.data(), lanes_[i].v.data()); }

dvec2 Simulation::reference_phase() const {
    sync_reference();
    return phase_point(scene_.phase, ref_x_.data(), ref_v_.data());
}

}  // namespace stepwise
