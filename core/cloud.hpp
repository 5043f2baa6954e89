// The phase-space cloud: what "symplectic" means, measured. Many copies of the scene start on a
// disc of radius R around its start state in the (x, vx) plane of body 0 (x in metres, vx in
// metres per second; every other coordinate as in the scene), and the disc's boundary, a
// polygon of its own points, is advanced by the same integrator. The polygon's area (shoelace
// formula) over its area at t = 0 is the area ratio. On a linear system the one-step map is
// linear, so the ratio is exactly its determinant to the n-th power: 1 for a symplectic method,
// (1 + w^2 h^2)^n for explicit Euler, (1 + w^2 h^2)^-n for implicit Euler,
// (1 - (wh)^6/72 + (wh)^8/576)^n for RK4, e^(-b t/m) for the exact damped flow. It speaks of
// motion in that one plane of phase space: where x couples to other coordinates the plane's
// area alone is not conserved, even exactly.
#pragma once
#include "ensemble.hpp"
#include "exact.hpp"
#include "scenarios.hpp"

#include <optional>
#include <vector>

namespace stepwise {

constexpr int cloud_boundary_points = 1024;

// Offsets (dx, dvx) of `points` points spread evenly over a disc of radius r (a sunflower
// pattern: deterministic, no clumps), and of `boundary` points on its rim, counter-clockwise.
std::vector<dvec2> disc_points(int points, double r);
dvec2 disc_point(int i, int points, double r);  // the i-th of disc_points(points, r)
std::vector<dvec2> rim_points(int boundary, double r);
// Signed area of a closed polygon (shoelace); NaN when a vertex is not finite.
double polygon_area(const double* x, const double* v, int n);

class PhaseCloud {
public:
    PhaseCloud(const Scene& scene, int integrator, int points, double radius,
               int boundary = cloud_boundary_points);
    // The same from the start disc's offsets (dx, dvx), its points then its rim: offsets(points,
    // radius, boundary), the same for every integrator, so a caller building several clouds
    // computes them once (or a part at a time).
    PhaseCloud(const Scene& scene, int integrator, int points, const std::vector<dvec2>& offsets);
    static std::vector<dvec2> offsets(int points, double radius, int boundary = cloud_boundary_points);
    void reset();
    void step(double h);
    // The same step in parts over the copies (points, then rim): Ensemble::step_part/end_step.
    void step_part(double h, int first, int count) { ensemble_.step_part(h, first, count); }
    void end_step() { ensemble_.end_step(); }
    int copies() const { return ensemble_.copies(); }

    int points() const { return points_; }
    // Copies [0, points) are the cloud, [points, points + boundary) the rim.
    const Ensemble& ensemble() const { return ensemble_; }
    // Area of the rim polygon over its area at t = 0; nullopt once a rim point is not finite.
    std::optional<double> area_ratio() const;
    // Cloud points (not the rim) whose state is still finite.
    int points_finite() const;

    static double bytes_needed(int integrator, int bodies, int points, int boundary = cloud_boundary_points);

private:
    Ensemble ensemble_;
    int points_, boundary_;
    double initial_area_;
};

// The exact flow of the same disc, where the scene has a closed form: its rim (for the area)
// and an evenly spread sample of its points (for a ghost), at any time.
class ExactCloud {
public:
    // sample: at most this many cloud points are followed (evenly spread over the disc).
    ExactCloud(const Scene& scene, int points, double radius, int sample, int boundary = cloud_boundary_points);
    // Moves every followed point and the rim to time t (from the start, not by steps).
    void at(double t);
    std::optional<double> area_ratio() const;
    // Body 0's (x, vx) of the followed points after at(t).
    const std::vector<dvec2>& sample() const { return sample_now_; }

private:
    void move(const std::vector<dvec2>& offsets, double t, std::vector<dvec2>& out);
    const Scene& scene_;  // must outlive the cloud
    std::vector<LinearBody> linear_bodies_;
    std::vector<dvec2> sample_start_, rim_start_, sample_now_, rim_now_;
    std::vector<dvec2> x0_, v0_, x_, v_;  // one state of the scene, scratch
    std::vector<double> rim_x_, rim_v_;
    double initial_area_;
};

}  // namespace stepwise
