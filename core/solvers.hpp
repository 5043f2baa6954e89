// The game-physics solvers as step functions of the integrator table (integrators.hpp): pbd, xpbd,
// soft_step, sequential_impulses and vbd. Each takes one substep of length h (the Simulation takes
// a lane's substeps by calling it once per substep) with Lane::iterations iterations, on the
// system's constraint rows (forces/solver_rows.hpp: every spring and link) with every other force
// external (solver_external_accelerations). Derivations beside the code in solvers.cpp.
#pragma once
#include "integrators.hpp"

namespace stepwise {

// The rows of every kind that has them (force_kind.hpp: SolverRowKind), in the force table's order,
// indexed by body.
SolverRows build_solver_rows(const System& s);

void pbd_step(const System& s, Lane& L, double h);
void xpbd_step(const System& s, Lane& L, double h);
void soft_step(const System& s, Lane& L, double h);
void sequential_impulses_step(const System& s, Lane& L, double h);
void vbd_step(const System& s, Lane& L, double h);

// The solvers' fixed constants, with their sources (solvers.cpp).
namespace solver_constants {
// Box2D v3.0 (b2DefaultWorldDef in src/types.c; the caps in b2World_Step, src/world.c): a joint's
// rigid rows are soft at jointHertz = 60 Hz with jointDampingRatio ζ = 2, the frequency capped at
// 1/8 of the substep rate (contacts, which Stepwise has none of, at 30 Hz capped at 1/4).
constexpr double joint_hertz = 60.0;
constexpr double joint_damping_ratio = 2.0;
constexpr double joint_hertz_cap = 0.125;  // × 1/h
// Augmented vertex block descent (Giles et al. 2025): a rigid row's penalty starts at its effective
// mass over h² and grows by β|C| after every iteration; β = 2·10⁵ N/m², the BETA of Chris Giles's
// AVBD solver for Solver2D (2025).
constexpr double avbd_beta = 2e5;
}  // namespace solver_constants

}  // namespace stepwise
