// An ensemble: N independent copies of one System (the same forces, different initial
// conditions) stepped together under one integrator. The state is a structure of arrays, one
// array of N doubles per body and component (x, y, vx, vy), so every force and every stage of
// a method is a loop over the copies with its parameters hoisted out: no per-copy branches,
// contiguous memory, vectorised by the compiler (SSE2/AVX natively, simd128 in wasm).
//
// Each copy gets exactly the numbers the single-trajectory path (integrators.hpp, one Lane)
// gives for the same initial condition: the same operations in the same order, component by
// component (tests/test_ensemble.cpp checks it bit for bit for every integrator on every
// scenario). The methods whose work differs per copy (implicit Euler's Newton iteration,
// rk45's adaptive substeps) run the single path on each copy in turn.
//
// Memory is sized in the constructor (state, carried data, scratch for the chosen method);
// step() allocates nothing.
#pragma once
#include "integrators.hpp"
#include "system.hpp"

#include <vector>

namespace stepwise {

class Ensemble {
public:
    // `copies` copies of `system` under integrators()[integrator], every copy starting from
    // (x0, v0) (system.bodies() entries each) until set_start changes it. iterations: a
    // game-physics solver's per substep (0: its default; the solvers step copy by copy), and PBD's
    // stiffness factor (Config::pbd_stiffness).
    Ensemble(const System& system, int integrator, int copies, const dvec2* x0, const dvec2* v0, int iterations = 0,
             double pbd_stiffness = 1.0);

    int copies() const { return copies_; }
    int bodies() const { return bodies_; }
    int integrator() const { return integrator_; }

    // The start state of one copy (bodies() entries each); takes effect at the next reset().
    void set_start(int copy, const dvec2* x, const dvec2* v);
    // Every copy back to its start; stateful methods restart.
    void reset();
    // Advances every copy by h.
    void step(double h);
    // The same step in parts: step_part advances copies [first, first + count) by h, and
    // end_step closes the step once every copy has been advanced exactly once. A large
    // ensemble's step can so be spread over several calls (the page keeps each within its
    // frame budget); every copy's result is the same bits as step(h)'s.
    void step_part(double h, int first, int count);
    void end_step();
    // A lane's substeps (LaneSpec): copies [first, first + count) advanced by `substeps` steps of
    // h/substeps, each after the first taken as a later step (the Verlet family's start once).
    void substep_part(double h, int substeps, int first, int count);

    // The state, one contiguous array of copies() values per body and component.
    const double* x(int body) const { return &state_[0][static_cast<size_t>(body) * copies_]; }
    const double* y(int body) const { return &state_[1][static_cast<size_t>(body) * copies_]; }
    const double* vx(int body) const { return &state_[2][static_cast<size_t>(body) * copies_]; }
    const double* vy(int body) const { return &state_[3][static_cast<size_t>(body) * copies_]; }
    dvec2 position(int copy, int body) const;
    dvec2 velocity(int copy, int body) const;
    // How many copies have a finite state (every body, position and velocity). A copy that
    // diverged is non-finite; so is an rk45 copy whose step hit rk45_max_substeps (NaN).
    // (Of the copies [first, first + count) only, when a range is given.)
    int finite_copies(int first = 0, int count = -1) const;

    // Force evaluations per copy so far (the same for every copy of a fixed-step method; the
    // sum over copies divided by copies() for rk45 and implicit Euler).
    double force_evaluations() const;
    // Constraint rows the game-physics solvers' passes visited, summed over the copies (Lane::row_visits).
    long long row_visits() const { return lane_.row_visits; }
    // The same summed over the copies: the work done, in force evaluations.
    long long evaluations() const { return evaluations_; }

    // Bytes the ensemble holds for `copies` copies of a system with `bodies` bodies under
    // integrator `integrator`: callers with a memory budget check before they build one.
    // How step() runs: "fused" (every stage's forces computed inside the method's loop, copy by
    // copy: systems without pair springs, at most two anchor springs per body and one central
    // body), "passes" (a pass per force and stage over blocks of copies) or "per copy" (the
    // single path). For the tests and the benchmark; the results are the same bits.
    const char* path() const;

    // solver_rows: the system's constraint rows (build_solver_rows), which a stateful solver
    // carries an impulse for in every copy.
    static double bytes_needed(int integrator, int bodies, int copies, bool linked = false, int solver_rows = 0);

private:
    void step_per_copy(double h, size_t first, size_t end);
    void step_fused(double h, size_t first, size_t end);
    double* carry(int field, int component) {
        return carry_.data() + (static_cast<size_t>(field) * 2 + component) * bodies_ * copies_;
    }

    System system_;
    int integrator_, copies_, bodies_;
    // The vectorised method (an index into ensemble.cpp's table), or -1: the single path per copy.
    int method_ = -1;
    // Copies stepped together through every stage of a vectorised method, so that its scratch
    // stays in the first-level cache.
    int block_ = 0;
    // state_[c]: component c (0 x, 1 y, 2 vx, 3 vy) of body b for copy k at [b * copies + k].
    std::vector<double> state_[4], start_[4];
    // What stateful methods carry between steps (vector fields of every body and copy, x then y
    // components, each in the state's layout), and one block's scratch fields.
    std::vector<double> carry_;
    std::vector<double> scratch_;
    bool started_ = false;
    double force_maps_h_ = 0.0;
    std::vector<OscillatorMap> force_maps_;
    std::vector<unsigned char> first_touch_;
    // The fused plan (ensemble.cpp's fused_plan: seven ints per body), or empty.
    std::vector<int> fused_;  // which force writes a body's acceleration first
    long long evaluations_ = 0;  // summed over the copies
    // Per-copy methods: one Lane reused for every copy, and each copy's carried data.
    Lane lane_;
    std::vector<double> copy_substep_;
    std::vector<double> copy_time_;  // per copy, its lane's clock (Lane::t): only with a written force
    std::vector<unsigned char> copy_started_;
    std::vector<double> copy_row_lambda_;  // row q of copy k at [q * copies + k] (soft_step)
};

}  // namespace stepwise
