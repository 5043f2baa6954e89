#include "simulation.hpp"

#include "exact.hpp"

#include <algorithm>
#include <cmath>

namespace stepwise {

const char* reference_name(ReferenceKind k) { return k == ReferenceKind::exact ? "exact" : "rk45"; }

Scene build_scene(const Config& c) {
    Scene sc;
    System& s = sc.system;
    const std::string id = scenarios()[c.scenario].id;
    double extent = 0.0, speed = 0.0, accel = 0.0;  // for the length scale
    auto grow = [&](double& what, dvec2 p) { what = std::max({what, std::fabs(p.x), std::fabs(p.y)}); };
    if (id == "projectile") {
        s.add_body(c.get("m"));
        s.gravity = dvec2(0.0, -c.get("g"));
        s.drag = c.get("drag");
        sc.x0 = {c.get_vec("x0")};
        sc.v0 = {c.get_vec("v0")};
    } else if (id == "spring") {
        s.add_body(c.get("m"));
        s.anchor_springs.push_back({0, c.get_vec("anchor"), c.get("k"), c.get("rest"), c.get("b")});
        sc.x0 = {c.get_vec("x0")};
        sc.v0 = {c.get_vec("v0")};
        grow(extent, c.get_vec("anchor"));
        extent = std::max(extent, c.get("rest"));
    } else if (id == "two_spring") {
        s.add_body(c.get("m"));
        s.damper = c.get("b");
        s.anchor_springs.push_back({0, c.get_vec("anchor1"), c.get("k1"), c.get("rest1"), 0.0});
        s.anchor_springs.push_back({0, c.get_vec("anchor2"), c.get("k2"), c.get("rest2"), 0.0});
        sc.x0 = {c.get_vec("x0")};
        sc.v0 = {c.get_vec("v0")};
        grow(extent, c.get_vec("anchor1"));
        grow(extent, c.get_vec("anchor2"));
        extent = std::max({extent, c.get("rest1"), c.get("rest2")});
    } else {  // spring_pair
        s.add_body(c.get("m1"));
        s.add_body(c.get("m2"));
        s.gravity = c.get_vec("g");
        s.pair_springs.push_back({0, 1, c.get("k"), c.get("rest"), c.get("b")});
        sc.x0 = {c.get_vec("x1"), c.get_vec("x2")};
        sc.v0 = {c.get_vec("v1"), c.get_vec("v2")};
        extent = std::max(extent, c.get("rest"));
    }
    for (dvec2 p : sc.x0) grow(extent, p);
    for (dvec2 w : sc.v0) grow(speed, w);
    accel = std::sqrt(s.gravity.x * s.gravity.x + s.gravity.y * s.gravity.y);
    // How far the exact motion can plausibly reach within the configured duration.
    const double T = c.duration;
    sc.length_scale = 1.0 + extent + speed * T + 0.5 * accel * T * T;
    return sc;
}

Simulation::Simulation(const Config& c) : config_(c), scene_(build_scene(c)) {
    const System& s = scene_.system;
    reference_kind_ = has_closed_form(s) ? ReferenceKind::exact : ReferenceKind::rk45;
    dissipative_ = s.drag > 0.0 || s.damper > 0.0;
    for (const AnchorSpring& sp : s.anchor_springs) dissipative_ = dissipative_ || sp.b > 0.0;
    for (const PairSpring& sp : s.pair_springs) dissipative_ = dissipative_ || sp.b > 0.0;
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
}

bool Simulation::runaway(const Lane& L) const {
    const double limit = runaway_factor * scene_.length_scale;
    for (size_t b = 0; b < L.x.size(); ++b) {
        const dvec2 x = L.x[b], v = L.v[b];
        if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(v.x) || !std::isfinite(v.y)) return true;
        if (std::fabs(x.x) > limit || std::fabs(x.y) > limit) return true;
    }
    return false;
}

void Simulation::step() {
    const System& s = scene_.system;
    const double h = config_.dt;
    const double t_next = static_cast<double>(steps_ + 1) * h;
    for (size_t i = 0; i < lanes_.size(); ++i) {
        Status& st = status_[i];
        if (st.diverged) continue;
        Lane& L = lanes_[i];
        std::copy(L.x.begin(), L.x.end(), last_x_[i].begin());
        std::copy(L.v.begin(), L.v.end(), last_v_[i].begin());
        integrators()[L.integrator].step(s, L, h);
        if (runaway(L)) {
            // A diverging integrator is a lesson: keep its last finite state, flag it, go on.
            std::copy(last_x_[i].begin(), last_x_[i].end(), L.x.begin());
            std::copy(last_v_[i].begin(), last_v_[i].end(), L.v.begin());
            st.diverged = true;
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
    update_reference();
}

void Simulation::advance(long long n) {
    for (long long k = 0; k < n; ++k) step();
}

void Simulation::update_reference() {
    if (reference_kind_ == ReferenceKind::exact) {
        exact_state(scene_.system, scene_.x0.data(), scene_.v0.data(), time(), ref_x_.data(), ref_v_.data());
    } else {
        integrators()[reference_lane_.integrator].step(scene_.system, reference_lane_, config_.dt);
        std::copy(reference_lane_.x.begin(), reference_lane_.x.end(), ref_x_.begin());
        std::copy(reference_lane_.v.begin(), reference_lane_.v.end(), ref_v_.begin());
    }
}

double Simulation::energy(int i) const {
    return stepwise::energy(scene_.system, lanes_[i].x.data(), lanes_[i].v.data());
}

double Simulation::reference_energy() const { return stepwise::energy(scene_.system, ref_x_.data(), ref_v_.data()); }

double Simulation::error(int lane, int body) const {
    const dvec2 d = lanes_[lane].x[body] - ref_x_[body];
    return std::sqrt(d.x * d.x + d.y * d.y);
}

double Simulation::energy_drift(int i) const {
    const System& s = scene_.system;
    const double ke = kinetic_energy(s, ref_v_.data());
    const double pe = potential_energy(s, ref_x_.data());
    const double scale = std::max(initial_energy_scale_, ke + std::fabs(pe));
    const double diff = energy(i) - (ke + pe);
    return scale > 0.0 ? diff / scale : diff;
}

}  // namespace stepwise
