#include "cloud.hpp"

#include "exact.hpp"
#include "forces/link.hpp"
#include "simulation.hpp"
#include "work.hpp"

#include <cmath>
#include <limits>

namespace stepwise {

namespace {

constexpr double two_pi = 6.283185307179586476925286766559;
// The golden angle: successive sunflower points never line up.
constexpr double golden_angle = 2.399963229728653322231555506633;

}  // namespace

std::vector<dvec2> PhaseCloud::offsets(int points, double radius, int boundary) {
    std::vector<dvec2> all = disc_points(points, radius);
    const std::vector<dvec2> rim = rim_points(boundary, radius);
    all.insert(all.end(), rim.begin(), rim.end());
    return all;
}

dvec2 disc_point(int i, int points, double r) {
    // Equal area per point: radius grows as the square root of the index.
    const double rho = r * std::sqrt((i + 0.5) / points);
    const double phi = golden_angle * i;
    return {rho * std::cos(phi), rho * std::sin(phi)};
}

std::vector<dvec2> disc_points(int points, double r) {
    std::vector<dvec2> out(static_cast<size_t>(points));
    for (int i = 0; i < points; ++i) out[static_cast<size_t>(i)] = disc_point(i, points, r);
    return out;
}

std::vector<dvec2> rim_points(int boundary, double r) {
    std::vector<dvec2> out(static_cast<size_t>(boundary));
    for (int j = 0; j < boundary; ++j) {
        const double phi = two_pi * j / boundary;
        out[static_cast<size_t>(j)] = {r * std::cos(phi), r * std::sin(phi)};
    }
    return out;
}

double polygon_area(const double* x, const double* v, int n) {
    // Measured from the first vertex: a small disc far from the origin (x0 = 1000, radius 0.1)
    // would otherwise lose its area to cancellation between products near 1e5.
    double twice = 0.0;
    for (int j = 1; j + 1 < n; ++j)
        twice += (x[j] - x[0]) * (v[j + 1] - v[0]) - (x[j + 1] - x[0]) * (v[j] - v[0]);
    return 0.5 * twice;  // NaN propagates from any non-finite vertex
}

void cloud_start(const Scene& scene, dvec2 offset, dvec2* x, dvec2* v) {
    const int n = scene.system.bodies();
    if (scene.cloud.plane != CloudPlane::rotation) {
        for (int b = 0; b < n; ++b) {
            x[b] = scene.x0[b];
            v[b] = scene.v0[b];
        }
        x[0].x = scene.x0[0].x + offset.x;
        v[0].x = scene.v0[0].x + offset.y;
        return;
    }
    // Turned by δθ about the anchor c: r' = R r, v' = R v + δω (−r'y, r'x). Every difference
    // x_i − x_j turns by R (its length kept) and every relative velocity turns with it plus a
    // rigid rotation's, which stretches no link: d·w is unchanged.
    const double cs = std::cos(offset.x), sn = std::sin(offset.x), spin = offset.y;
    const dvec2 c = scene.cloud.centre;
    for (int b = 0; b < n; ++b) {
        const dvec2 r = scene.x0[b] - c, w = scene.v0[b];
        const dvec2 turned(cs * r.x - sn * r.y, sn * r.x + cs * r.y);
        x[b] = c + turned;
        v[b] = dvec2(cs * w.x - sn * w.y, sn * w.x + cs * w.y) + spin * dvec2(-turned.y, turned.x);
    }
}

dvec2 cloud_coordinates(const Scene& scene, const dvec2* x, const dvec2* v) {
    if (scene.cloud.plane != CloudPlane::rotation) return {x[0].x, v[0].x};
    return phase_point(PhaseSpec{.kind = PhaseKind::angle, .body = 0, .centre = scene.cloud.centre}, x, v);
}

namespace {

// Each vertex's angle within π of its neighbour's (the rotation plane reads θ in (−π, π]).
void unwrap_rim(CloudPlane plane, double* q, int n) {
    if (plane == CloudPlane::rotation)
        for (int j = 1; j < n; ++j) q[j] -= two_pi * std::round((q[j] - q[j - 1]) / two_pi);
}

}  // namespace

double rim_area(CloudPlane plane, double* q, const double* p, int n) {
    unwrap_rim(plane, q, n);
    return polygon_area(q, p, n);
}

std::string cloud_plane_text(CloudPlane plane) {
    if (plane == CloudPlane::none) return "none";
    const CloudPlaneNames n = cloud_plane_names(plane);
    return std::string(n.q) + " (" + n.unit_q + ") against " + n.p + " (" + n.unit_p + ") of " + n.of;
}

PhaseCloud::PhaseCloud(const Scene& scene, const LaneSpec& lane, int points, double radius, int boundary,
                       double pbd_stiffness)
    : PhaseCloud(scene, lane, points, offsets(points, radius, boundary), pbd_stiffness) {}

PhaseCloud::PhaseCloud(const Scene& scene, const LaneSpec& lane, int points, const std::vector<dvec2>& offsets,
                       double pbd_stiffness)
    : ensemble_(scene.system, lane.integrator, static_cast<int>(offsets.size()), scene.x0.data(), scene.v0.data(),
                lane.iterations, pbd_stiffness),
      plane_(scene.cloud),
      points_(points),
      boundary_(static_cast<int>(offsets.size()) - points),
      // A method that integrates forces cannot step a rod; the game-physics solvers can.
      needs_compliance_(!method_steps(lane.integrator, scene.system)) {
    substeps_ = lane.substeps;
    std::vector<dvec2> x = scene.x0, v = scene.v0;
    for (int k = 0; k < points_ + boundary_; ++k) {
        cloud_start(scene, offsets[static_cast<size_t>(k)], x.data(), v.data());
        ensemble_.set_start(k, x.data(), v.data());
    }
    ensemble_.reset();
    initial_area_ = rim_area_now();
}

void PhaseCloud::reset() { ensemble_.reset(); }

void PhaseCloud::step(double h) {
    if (needs_compliance_) return;
    ensemble_.substep_part(h, substeps_, 0, ensemble_.copies());
    ensemble_.end_step();
}

bool PhaseCloud::step(double h, int part, const std::function<bool()>& stop) {
    if (needs_compliance_) return true;
    const int copies = ensemble_.copies();
    for (int first = 0; first < copies; first += part) {
        step_part(h, first, part);
        if (first + part < copies && stop()) return false;
    }
    end_step();
    return true;
}

dvec2 PhaseCloud::point(int k) const {
    if (plane_.plane != CloudPlane::rotation) return {ensemble_.x(0)[k], ensemble_.vx(0)[k]};
    const dvec2 x(ensemble_.x(0)[k], ensemble_.y(0)[k]), v(ensemble_.vx(0)[k], ensemble_.vy(0)[k]);
    return phase_point(PhaseSpec{.kind = PhaseKind::angle, .body = 0, .centre = plane_.centre}, &x, &v);
}

double PhaseCloud::rim_area_now() const {
    if (plane_.plane != CloudPlane::rotation)
        return polygon_area(ensemble_.x(0) + points_, ensemble_.vx(0) + points_, boundary_);
    rim_q_.resize(static_cast<size_t>(boundary_));
    rim_p_.resize(static_cast<size_t>(boundary_));
    for (int j = 0; j < boundary_; ++j) {
        const dvec2 qp = point(points_ + j);
        rim_q_[static_cast<size_t>(j)] = qp.x;
        rim_p_[static_cast<size_t>(j)] = qp.y;
    }
    return rim_area(plane_.plane, rim_q_.data(), rim_p_.data(), boundary_);
}

std::optional<double> PhaseCloud::area_ratio() const {
    if (needs_compliance_) return std::nullopt;
    const double ratio = rim_area_now() / initial_area_;
    if (!std::isfinite(ratio)) return std::nullopt;
    return ratio;
}

long long work_done(const PhaseCloud& cloud, const System& s, const LaneSpec& lane) {
    const Ensemble& e = cloud.ensemble();
    const double evaluations = e.force_evaluations() * e.copies();
    return static_cast<long long>(evaluations) * evaluation_units(s, lane) + e.row_visits();
}

int PhaseCloud::points_finite() const { return needs_compliance_ ? 0 : ensemble_.finite_copies(0, points_); }

double PhaseCloud::bytes_needed(int integrator, int bodies, int points, int boundary, int solver_rows) {
    return Ensemble::bytes_needed(integrator, bodies, points + boundary, false, solver_rows);
}

bool ExactCloud::available(const Scene& scene) {
    if (scene.cloud.plane == CloudPlane::none) return false;
    return has_closed_form(scene.system, scene.x0.data(), scene.v0.data()) || scene.system.has_rigid_links();
}

ExactCloud::ExactCloud(const Scene& scene, int points, double radius, int sample, double reference_step, int boundary)
    : scene_(scene), linear_bodies_(linear_bodies(scene.system)) {
    // Every (points / sample)-th point of the sunflower: spread over the whole disc (only those
    // are computed: a page's cloud of 10^5 points follows 2000).
    const int stride = sample > 0 && points > sample ? (points + sample - 1) / sample : 1;
    for (int i = 0; i < points; i += stride) sample_start_.push_back(disc_point(i, points, radius));
    rim_start_ = rim_points(boundary, radius);
    x0_ = scene.x0;
    v0_ = scene.v0;
    x_ = scene.x0;
    v_ = scene.v0;
    rim_x_.resize(rim_start_.size());
    rim_v_.resize(rim_start_.size());
    stepped_ = !has_closed_form(scene.system, scene.x0.data(), scene.v0.data());
    if (stepped_) {
        // The constrained reference of every copy, as Simulation's (rk45 at reference_rtol).
        reference_step_ = reference_step;
        lane_ = make_lane(scene.system, find_integrator("rk45"), scene.x0.data(), scene.v0.data());
        lane_.rtol = lane_.atol = reference_rtol;
        const size_t n = static_cast<size_t>(scene.system.bodies()), copies = sample_start_.size() + rim_start_.size();
        copy_x_.resize(n * copies);
        copy_v_.resize(n * copies);
        copy_substep_.assign(copies, 0.0);
        for (size_t k = 0; k < copies; ++k) {
            const dvec2 offset = k < sample_start_.size() ? sample_start_[k] : rim_start_[k - sample_start_.size()];
            cloud_start(scene, offset, &copy_x_[k * n], &copy_v_[k * n]);
        }
    }
    at(0.0);
    initial_area_ = polygon_area(rim_x_.data(), rim_v_.data(), static_cast<int>(rim_x_.size()));
}

void ExactCloud::move(const std::vector<dvec2>& offsets, double t, std::vector<dvec2>& out) {
    out.resize(offsets.size());  // allocates on the first call only
    for (size_t k = 0; k < offsets.size(); ++k) {
        cloud_start(scene_, offsets[k], x0_.data(), v0_.data());
        exact_state(scene_.system, linear_bodies_.data(), x0_.data(), v0_.data(), t, x_.data(), v_.data());
        out[k] = cloud_coordinates(scene_, x_.data(), v_.data());
    }
}

void ExactCloud::step_copies(double h) {
    const size_t n = static_cast<size_t>(scene_.system.bodies());
    const StepFn step = integrators()[static_cast<size_t>(lane_.integrator)].step;
    for (size_t k = 0; k < copy_substep_.size(); ++k) {
        dvec2* x = &copy_x_[k * n];
        dvec2* v = &copy_v_[k * n];
        if (!std::isfinite(x[0].x)) continue;  // stopped: it stays NaN
        std::copy(x, x + n, lane_.x.begin());
        std::copy(v, v + n, lane_.v.begin());
        lane_.substep = copy_substep_[k];
        lane_.started = false;
        lane_.gave_up = false;
        lane_.t = static_cast<double>(steps_) * h;  // every copy's step starts at the same time
        step(scene_.system, lane_, h);
        project_onto_links(scene_.system, lane_);
        if (lane_.gave_up) std::fill(lane_.x.begin(), lane_.x.end(), dvec2(std::numeric_limits<double>::quiet_NaN()));
        std::copy(lane_.x.begin(), lane_.x.end(), x);
        std::copy(lane_.v.begin(), lane_.v.end(), v);
        copy_substep_[k] = lane_.substep;
    }
}

void ExactCloud::read_copies() {
    const size_t n = static_cast<size_t>(scene_.system.bodies());
    sample_now_.resize(sample_start_.size());
    rim_now_.resize(rim_start_.size());
    for (size_t k = 0; k < copy_substep_.size(); ++k) {
        const dvec2 qp = cloud_coordinates(scene_, &copy_x_[k * n], &copy_v_[k * n]);
        (k < sample_now_.size() ? sample_now_[k] : rim_now_[k - sample_now_.size()]) = qp;
    }
}

void ExactCloud::at(double t) {
    if (stepped_) {
        const long long target = reference_step_ > 0.0 ? std::llround(t / reference_step_) : 0;
        for (; steps_ < target; ++steps_) step_copies(reference_step_);
        read_copies();
    } else {
        move(sample_start_, t, sample_now_);
        move(rim_start_, t, rim_now_);
    }
    for (size_t j = 0; j < rim_now_.size(); ++j) {
        rim_x_[j] = rim_now_[j].x;
        rim_v_[j] = rim_now_[j].y;
    }
    unwrap_rim(scene_.cloud.plane, rim_x_.data(), static_cast<int>(rim_x_.size()));
}

std::optional<double> ExactCloud::area_ratio() const {
    const double ratio = polygon_area(rim_x_.data(), rim_v_.data(), static_cast<int>(rim_x_.size())) / initial_area_;
    if (!std::isfinite(ratio)) return std::nullopt;
    return ratio;
}

}  // namespace stepwise
