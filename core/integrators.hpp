// The table of integrators: metadata and a step function for each, read by the CLI,
// the page and the tests alike. Ids are fixed: links and the CLI use them.
#pragma once
#include "exact.hpp"
#include "forces/solver_rows.hpp"
#include "orders.hpp"
#include "system.hpp"

#include <string_view>
#include <vector>

namespace stepwise {

class StepObserver;  // trace.hpp

// One integrator's working memory for one system: the reported state, what a stateful
// method carries between steps, and scratch. Sized once in make_lane; step() never allocates.
// The most substeps (accepted and rejected) rk45 spends on one step: bounds the work of any step
// of an rk45 lane or of the reference (each substep costs 6 force evaluations). One step is one
// unit of work in the page, which must stay well under 50 ms a task even when a slice holds a
// step of an rk45 lane and one of the reference: at 50,000 a capped step took 100–120 ms of CPU in
// the wasm module on the shared test machine, at 10,000 a convergence slice still reached 76 ms.
// At rtol = atol = 1e-12 the reference needs about ω·dt/0.007 substeps a step, so 2,000 allows ω·dt up to
// about 14 (at dt = 0.01, ω up to 1,400 rad/s), far past where every fixed-step method explodes.
constexpr int rk45_max_substeps = 2000;

struct Lane {
    int integrator = 0;
    int iterations = 0;
    // The state reported at the current step, laid out for the system (layout.hpp): the bodies'
    // (x, y), then the angles of the bodies that turn. Every array below that holds a state or a
    // stage is laid out alike.
    Coordinates x, v;

    // Carried between steps (leapfrog: half-step velocity; Verlet: previous position;
    // cached acceleration); cleared by reset().
    Coordinates carry_x, carry_v, carry_a;
    bool started = false;
    double substep = 0.0;  // rk45: the last accepted internal step
    // The time at the start of the next step: 0 after reset(), and every step (the table's
    // IntegratorInfo::step) adds its h. Each force evaluation reads it plus its stage's offset.
    double t = 0.0;

    // kinematic: each force's oscillator map over one step, computed when h changes.
    std::vector<OscillatorMap> force_maps;
    double force_maps_h = 0.0;  // 0: not computed

    // rk45 error control.
    double rtol = 1e-9;
    double atol = 1e-9;
    // rk45: true when the last step gave up (it needed more than rk45_max_substeps substeps, or
    // its substep fell below 1e-12 of the step without meeting the tolerance); the state is then
    // the last accepted substep's, short of the step's end, and the caller stops the lane.
    bool gave_up = false;
    // rk45: the most substeps (accepted and rejected) one step may take before it gives up. The
    // equal-cost calibration's trials need to know only whether the first one is accepted: 1.
    int max_substeps = rk45_max_substeps;
    // rk45 in parts, for a caller that must return within a budget (the page; Simulation::
    // step_part): at most part_substeps substeps a call (0: the whole step). A call that stops
    // short leaves in_step true and the state at its last accepted substep; the next call with
    // the same h goes on from there, and the step ends in the same bits as one whole call.
    int part_substeps = 0;
    bool in_step = false;
    double part_done = 0.0;       // the part of h done so far
    int part_taken = 0;           // substeps so far (for max_substeps)
    bool part_slope_valid = false;  // k1 at (x, v) is known
    bool part_swapped = false;      // k1 and k7 have traded places (first same as last)
    // implicit_euler: true when the last step's Newton iteration did not converge (no root within
    // implicit_euler_max_iterations, or a singular Jacobian): the state is then not an
    // implicit-Euler step, and the caller stops the lane at its last good state.
    bool unsolved = false;
    // rk45: the energy its damping and drag removed so far, integrated over each substep with the
    // method's own fifth-order weights on the stage velocities (so E + dissipated keeps to the
    // tolerance, not to a trapezoid's h^2).
    double dissipated = 0.0;

    // The game-physics solvers (solvers.hpp; iterations above: a substep's iterations, set by
    // make_lane to the row's default): the system's constraint rows (cold, built by make_lane for
    // a row of the table that solves constraints), and per row its multiplier (xpbd, pbd: the
    // position multiplier Δx = w·λ·∇C summed; soft_step, sequential_impulses: the accumulated
    // impulse; vbd: the augmented Lagrangian's λ), vbd's penalty stiffness, and its tension at
    // the end of the last step (N, > 0 pulling its ends together). Every solver but soft_step
    // restarts its multipliers every substep; soft_step carries its impulses to the next substep
    // and step (Box2D's warm start). reset() zeroes the multipliers and penalties.
    SolverRows rows;
    std::vector<double> row_lambda, row_penalty, row_tension;
    // pbd's stiffness factor s in [0, 1] (applied per iteration as 1 − (1 − s)^(1/n)) and
    // sequential_impulses' Baumgarte factor β (b2_baumgarte in Box2D v2.4, s2_baumgarte in Solver2D's
    // constants.h; Solver2D's cap s2_maxBaumgarteVelocity on the bias is not applied): constants for now.
    double pbd_stiffness = 1.0;
    double baumgarte = 0.2;

    // Statistics, for the curious and the tests.
    long long force_evaluations = 0;
    long long newton_failures = 0;   // implicit Euler steps that hit the iteration cap
    long long rejected_substeps = 0; // rk45
    long long row_visits = 0;        // the game-physics solvers: constraint rows visited by their passes (work.hpp)

    // The stage X-ray (trace.hpp): when set, step() reports every point of the step to it, each
    // force evaluation and the other points the method uses. Unset (nullptr, the default) the
    // step is the same code and the same numbers, plus one predictable branch per evaluation.
    // Copies of a lane share it; reset() keeps it.
    StepObserver* observer = nullptr;

    // Scratch, each array bodies() long and used within one step. `stage` holds a step's
    // intermediate values, which each method names at the top of its step by what they hold
    // (rk4: its four accelerations and stage velocities; rk45: its seven slopes k1..k7, position
    // part stage[2j] and velocity part stage[2j + 1]). rk45's substep also needs its start and
    // its end, named here.
    static constexpr int stage_arrays = 14;
    Scratch stage[stage_arrays];
    Scratch substep_start_x, substep_start_v, substep_end_x, substep_end_v;
    std::vector<double> jx, jv, mat, rhs;
    // Implicit Euler on bodies coupled only to near ones (a chain): the Newton matrix's
    // half-bandwidth (make_lane: 2·System::coupling_span() + 1), its band solved in `mat`
    // (linear_solve.hpp); 0: solved densely.
    int band_kl = 0;

    // Back to (x0, v0), laid out for the lane's system (x.count() doubles each).
    void reset(const dvec2* x0, const dvec2* v0);
};

using StepFn = void (*)(const System& s, Lane& lane, double h);

// One row of the table. A row names what differs from the defaults (integrators.cpp).
struct IntegratorInfo {
    const char* id;
    const char* name;
    const char* family;       // a row of integrator_families(): "Euler family", "Runge–Kutta", …
    Orders orders;            // the global order on each kind of system (orders.hpp)
    const char* order_note = "";  // what else the order depends on, in words
    int force_evaluations;    // per step (typical, for the variable ones)
    const char* evaluations_note;
    bool symplectic = false;
    bool implicit = false;
    bool stateful = false;    // carries data between steps: reset whenever system or dt changes
    bool adaptive = false;
    int default_iterations = 0;  // 0: the method has no iterations
    bool solves_constraints = false;  // steps rigid links (a game-physics solver): never needs_compliance
    const char* description;
    // What the stability view's map of the oscillator leaves out of this method, in words ("" when
    // nothing): soft step's stiffness cap, which acts on rigid links and never on the map's spring.
    const char* stability_note = "";
    // The step's update equations as plain Unicode text, one equation per line ('\n' between):
    // (x₀, v₀) the state at the start of the step, (x₁, v₁) at its end, h the step, a(x, v) the
    // acceleration. Shown by the page's methods panel and `stepwise list`; written from the step
    // functions in integrators.cpp, so they say what the code computes.
    const char* update;
    StepFn step;
};

const std::vector<IntegratorInfo>& integrators();
// The families the integrators are grouped in, in the order lists show them, each with its heading.
struct FamilyInfo {
    const char* id;
    const char* name;
};
const std::vector<FamilyInfo>& integrator_families();
// Index in integrators(), or -1.
int find_integrator(std::string_view id);
// Whether the row steps every coordinate of every layout (layout.hpp), the angles of turning bodies
// too: the methods written once over a runner (fixed_steps.inc), read from that list, and rk45,
// whose loops run over every coordinate. The others step points only, and a system with a turning body is not theirs to run (method_steps, config.hpp).
// Defined with the turning bodies (turning.cpp, a part: core/parts.hpp).
bool steps_every_layout(const IntegratorInfo& info);

// The order integrator `info` claims on a system of kind r: its table's, and exact on free
// motion for every method with a fixed step (each follows a straight line exactly).
Order expected_order(const IntegratorInfo& info, OrderRegime r);

// A lane for integrator `index`, sized for s and reset to (x0, v0) (laid out for s: its bodies'
// (x, y), then its rotations' angles and rates).
Lane make_lane(const System& s, int index, const dvec2* x0, const dvec2* v0);

// Building blocks of the kinematic step, shared with the ensemble (ensemble.hpp) so that both
// compute the same numbers from one definition.
// The oscillator map of every force with a closed form over a step of h, each force kind's in the
// force table's order (core/forces/: a damper map per body, one per anchor spring, one per pair
// spring; kinematic_map_count of them). They depend only on the parameters and h.
int kinematic_map_count(const System& s);
void kinematic_force_maps(const System& s, double h, OscillatorMap* maps);


// Newton iteration settings of implicit_euler.
constexpr int implicit_euler_max_iterations = 50;
constexpr double implicit_euler_tolerance = 1e-12;  // on |dv| relative to 1 + |v|

}  // namespace stepwise
