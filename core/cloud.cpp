#include "cloud.hpp"

#include "exact.hpp"

#include <cmath>

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

PhaseCloud::PhaseCloud(const Scene& scene, int integrator, int points, double radius, int boundary)
    : PhaseCloud(scene, integrator, points, offsets(points, radius, boundary)) {}

PhaseCloud::PhaseCloud(const Scene& scene, int integrator, int points, const std::vector<dvec2>& offsets)
    : ensemble_(scene.system, integrator, static_cast<int>(offsets.size()), scene.x0.data(), scene.v0.data()),
      points_(points),
      boundary_(static_cast<int>(offsets.size()) - points) {
    std::vector<dvec2> x = scene.x0, v = scene.v0;
    for (int k = 0; k < points_ + boundary_; ++k) {
        x[0].x = scene.x0[0].x + offsets[static_cast<size_t>(k)].x;
        v[0].x = scene.v0[0].x + offsets[static_cast<size_t>(k)].y;
        ensemble_.set_start(k, x.data(), v.data());
    }
    ensemble_.reset();
    initial_area_ = polygon_area(ensemble_.x(0) + points_, ensemble_.vx(0) + points_, boundary_);
}

void PhaseCloud::reset() { ensemble_.reset(); }

void PhaseCloud::step(double h) { ensemble_.step(h); }

std::optional<double> PhaseCloud::area_ratio() const {
    const double area = polygon_area(ensemble_.x(0) + points_, ensemble_.vx(0) + points_, boundary_);
    const double ratio = area / initial_area_;
    if (!std::isfinite(ratio)) return std::nullopt;
    return ratio;
}

int PhaseCloud::points_finite() const { return ensemble_.finite_copies(0, points_); }

double PhaseCloud::bytes_needed(int integrator, int bodies, int points, int boundary) {
    return Ensemble::bytes_needed(integrator, bodies, points + boundary);
}

ExactCloud::ExactCloud(const Scene& scene, int points, double radius, int sample, int boundary)
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
    at(0.0);
    initial_area_ = polygon_area(rim_x_.data(), rim_v_.data(), static_cast<int>(rim_x_.size()));
}

void ExactCloud::move(const std::vector<dvec2>& offsets, double t, std::vector<dvec2>& out) {
    out.resize(offsets.size());  // allocates on the first call only
    for (size_t k = 0; k < offsets.size(); ++k) {
        x0_[0].x = scene_.x0[0].x + offsets[k].x;
        v0_[0].x = scene_.v0[0].x + offsets[k].y;
        exact_state(scene_.system, linear_bodies_.data(), x0_.data(), v0_.data(), t, x_.data(), v_.data());
        out[k] = {x_[0].x, v_[0].x};
    }
}

void ExactCloud::at(double t) {
    move(sample_start_, t, sample_now_);
    move(rim_start_, t, rim_now_);
    for (size_t j = 0; j < rim_now_.size(); ++j) {
        rim_x_[j] = rim_now_[j].x;
        rim_v_[j] = rim_now_[j].y;
    }
}

std::optional<double> ExactCloud::area_ratio() const {
    const double ratio = polygon_area(rim_x_.data(), rim_v_.data(), static_cast<int>(rim_x_.size())) / initial_area_;
    if (!std::isfinite(ratio)) return std::nullopt;
    return ratio;
}

}  // namespace stepwise
