// The phase-space cloud: what "symplectic" means, measured. Many copies of the scene start on a
// disc of radius R around its start state in one plane of phase space (Scene::cloud says which),
// and the disc's boundary, a polygon of its own points, is advanced by the same integrator. The
// polygon's area (shoelace formula) over its area at t = 0 is the area ratio.
//  - body_x (every scene without links): the (x, vx) plane of body 0 (x in metres, vx in metres
//    per second; every other coordinate as in the scene). On a linear system the one-step map is
//    linear, so the ratio is exactly its determinant to the n-th power: 1 for a symplectic method,
//    (1 + w^2 h^2)^n for explicit Euler, (1 + w^2 h^2)^-n for implicit Euler,
//    (1 - (wh)^6/72 + (wh)^8/576)^n for RK4, e^(-b t/m) for the exact damped flow.
//  - rotation (the pendulum and the chain): the first link's angle θ from straight down about
//    the anchor (rad) and its rate dθ/dt (rad/s). A copy at offset (δθ, δω) is the whole start
//    turned rigidly about the anchor by δθ with δω × r added to every velocity: every link keeps
//    its length and its rate of stretch, so a rigid link's constraint holds at t = 0 (a disc in
//    (x, vx) would pull the links apart). For one rigid pendulum (θ, dθ/dt) is canonical up to
//    the constant m L² (p = m L² dθ/dt), so the exact flow keeps the area; for a chain the
//    plane is one of many coupled angles and the measured area is the projection of the
//    N-dimensional flow onto the first link's plane, which no flow keeps in general.
// Either way the cloud speaks of motion in that one plane: where the plane's coordinates couple to
// others its area alone is not conserved, even exactly.
#pragma once
#include "config.hpp"
#include "ensemble.hpp"
#include "exact.hpp"
#include "scenarios.hpp"

#include <functional>
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

// The start of the copy at `offset` in the cloud's plane (Scene::cloud): x, v (bodies entries)
// are the scene's start moved by it.
void cloud_start(const Scene& scene, dvec2 offset, dvec2* x, dvec2* v);
// A state's coordinates in the cloud's plane: (x, vx) of body 0, or the first link's (θ, dθ/dt).
dvec2 cloud_coordinates(const Scene& scene, const dvec2* x, const dvec2* v);
// The area of the rim polygon whose vertices are (q[j], p[j]). In the rotation plane an angle is
// read in (−π, π]: each vertex's θ is taken within π of its neighbour's, so a rim that has turned
// over the top stays one polygon.
double rim_area(CloudPlane plane, double* q, const double* p, int n);
// In words, for the CLI: "θ₁ (rad) against dθ₁/dt (rad/s) of the first link" (cloud_plane_names).
std::string cloud_plane_text(CloudPlane plane);

class PhaseCloud {
public:
    // The cloud of one lane: its method, each step taken as the lane's substeps.
    PhaseCloud(const Scene& scene, const LaneSpec& lane, int points, double radius,
               int boundary = cloud_boundary_points, double pbd_stiffness = 1.0);
    // The same from the start disc's offsets (dx, dvx), its points then its rim: offsets(points,
    // radius, boundary), the same for every integrator, so a caller building several clouds
    // computes them once (or a part at a time).
    PhaseCloud(const Scene& scene, const LaneSpec& lane, int points, const std::vector<dvec2>& offsets,
               double pbd_stiffness = 1.0);
    static std::vector<dvec2> offsets(int points, double radius, int boundary = cloud_boundary_points);
    void reset();
    void step(double h);
    // The same step in parts over the copies (points, then rim): Ensemble::step_part/end_step.
    void step_part(double h, int first, int count) { ensemble_.substep_part(h, substeps_, first, count); }
    void end_step() { ensemble_.end_step(); }
    // The step `part` copies at a time, asking stop() between parts (a caller's budget: a step of
    // 1,000 points of a stiff cloth took 52 s): false when it said so, the step then unfinished
    // (the cloud is not to be read or stepped again); true after the whole step, the same bits
    // as step(h).
    bool step(double h, int part, const std::function<bool()>& stop);
    int copies() const { return ensemble_.copies(); }

    int points() const { return points_; }
    // Copies [0, points) are the cloud, [points, points + boundary) the rim.
    const Ensemble& ensemble() const { return ensemble_; }
    // Copy k's coordinates in the cloud's plane (cloud_coordinates).
    dvec2 point(int k) const;
    // Area of the rim polygon over its area at t = 0; nullopt once a rim point is not finite, and
    // for a cloud that never runs (needs_compliance).
    std::optional<double> area_ratio() const;
    // Cloud points (not the rim) whose state is still finite; 0 for a cloud that never runs.
    int points_finite() const;
    // The integrator integrates forces and the system has a rigid link, which has none: the cloud
    // stays at its start and never steps (as its lane stops with StopReason::needs_compliance).
    bool needs_compliance() const { return needs_compliance_; }

    // solver_rows: as Ensemble::bytes_needed.
    static double bytes_needed(int integrator, int bodies, int points, int boundary = cloud_boundary_points,
                               int solver_rows = 0);

private:
    double rim_area_now() const;
    Ensemble ensemble_;
    CloudSpec plane_;
    int points_, boundary_;
    bool needs_compliance_;
    int substeps_ = 1;
    double initial_area_;
    mutable std::vector<double> rim_q_, rim_p_;  // the rotation plane's rim, scratch
};

// The exact flow of the same disc: its rim (for the area) and an evenly spread sample of its
// points (for a ghost), at any time. Where the scene has a closed form (exact.hpp: springs, a
// lone orbit, the rigid undamped pendulum) each point jumps straight to t. A system with rigid
// links and no closed form (a rigid chain, a damped rigid pendulum) follows each point with the
// constrained reference instead (rk45 at reference_rtol, projected onto the links after every
// step, as Simulation's reference): it moves by steps of `reference_step` (the query's dt), so
// at(t) must then be called with t a whole number of them, never back in time.
class ExactCloud {
public:
    // Whether the scene has such a flow for its cloud (a closed form, or rigid links).
    static bool available(const Scene& scene);
    // sample: at most this many cloud points are followed (evenly spread over the disc).
    ExactCloud(const Scene& scene, int points, double radius, int sample, double reference_step = 0.0,
               int boundary = cloud_boundary_points);
    // Moves every followed point and the rim to time t (from the start, not by steps).
    void at(double t);
    std::optional<double> area_ratio() const;
    // The followed points' coordinates in the cloud's plane after at(t).
    const std::vector<dvec2>& sample() const { return sample_now_; }
    // True when the points follow the constrained reference step by step (no closed form).
    bool stepped() const { return stepped_; }

private:
    void move(const std::vector<dvec2>& offsets, double t, std::vector<dvec2>& out);
    // The stepped flow: every followed copy (sample, then rim) one reference step on.
    void step_copies(double h);
    void read_copies();
    const Scene& scene_;  // must outlive the cloud
    std::vector<LinearBody> linear_bodies_;
    std::vector<dvec2> sample_start_, rim_start_, sample_now_, rim_now_;
    std::vector<dvec2> x0_, v0_, x_, v_;  // one state of the scene, scratch
    std::vector<double> rim_x_, rim_v_;
    double initial_area_;
    // The stepped flow: one rk45 lane for every copy in turn, each copy's state (bodies entries a
    // copy, sample then rim) and last substep, and the steps taken.
    bool stepped_ = false;
    double reference_step_ = 0.0;
    long long steps_ = 0;
    Lane lane_;
    std::vector<dvec2> copy_x_, copy_v_;
    std::vector<double> copy_substep_;
};

}  // namespace stepwise
