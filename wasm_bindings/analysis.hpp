// The page's analysis views' side of the core: a convergence study run in slices whose results
// cross as one flat array described by name (the same scheme as the state, layout.hpp), and the
// linear stability map filled a row at a time into one array (never one call per cell).
#pragma once
#include "convergence.hpp"
#include "layout.hpp"
#include "stability.hpp"

#include <emscripten/val.h>

#include <string>
#include <vector>

namespace stepwise::web {

// A ConvergenceStudy of a query's config (its valid parts). Rows are its integrators in the
// config's order (along the iterations axis, those with iterations), levels its dt halvings or
// iteration doublings; in the results a row is a "lane" and a level a "body" of the layout, so
// the page decodes them with the state's decoder. axis: "iterations", or anything else for dt.
class Convergence {
public:
    Convergence(const std::string& query, int halvings, double max_work, const std::string& axis);
    // Runs at most `work` lane-steps (clamped to [1, 1e9]), and stops after the step that ends
    // past budget_ms of wall time; true when finished.
    bool advance(double work, double budget_ms);
    bool finished() const { return study_.finished(); }
    double progress() const { return study_.progress(); }
    // A fresh view of the results, valid until the next call into this object:
    // globals (levels, levels_done, noise_floor, reference, …), per row the integrator and its
    // fitted order, per row and level the point (NaN for a level not yet run).
    emscripten::val results();
    // {width, fields, rows, levels}: fields as in Simulation.layout().
    emscripten::val layout() const;
    emscripten::val integrator_ids() const;

    const ConvergenceStudy& study() const { return study_; }

private:
    ConvergenceStudy study_;
    LayoutOf<Convergence> layout_;
    std::vector<double> results_;
};

// The spectral radius of one integrator's step on the damped oscillator over a grid: columns
// of ωh spaced evenly in log between omega_h_min and omega_h_max, rows of ζ evenly in
// [0, zeta_max]. fill(n) computes n more rows; radii() is row-major, NaN where not yet filled.
class StabilityGrid {
public:
    StabilityGrid(const std::string& integrator, int columns, int rows, double omega_h_min, double omega_h_max,
                  double zeta_max);
    int fill(int rows);  // the rows done so far
    int rows_done() const { return done_; }
    emscripten::val radii() const;

private:
    OscillatorProbe probe_;
    int columns_, rows_, done_ = 0;
    double log_min_, log_max_, zeta_max_;
    std::vector<double> radii_;
};

// {limit, unconditional, adaptive, tolerance} of oscillator_limit; null for an unknown id.
emscripten::val stability_limit(const std::string& integrator, double zeta);
// One lane of `substeps` substeps at dt on a mode of angular frequency omega (> 0) and damping
// ratio zeta (core's lane_stability, as `stepwise stability` prints it): {limit, unconditional,
// adaptive, omega_h (of a substep), largest_stable_dt (null when unbounded), stable_now}; null
// for an unknown id.
emscripten::val lane_stability_of(const std::string& integrator, int substeps, double omega, double zeta, double dt);

}  // namespace stepwise::web
