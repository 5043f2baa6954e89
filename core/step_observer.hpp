// What a step reports when someone watches it: the stage X-ray's interface between the step
// functions (integrators.cpp) and whoever records the stages (trace.hpp). Set Lane::observer and
// step() calls stage() at every point of the step, in the order the method computes them.
#pragma once
#include "system.hpp"

#include <string_view>

namespace stepwise {

// What a stage is, and what its columns hold.
//   evaluation: a force evaluation: per body the position x and velocity v the method evaluates
//               the force at, and the acceleration a = F(x, v)/m it gets. x and v are the
//               method's intermediate values (RK4's k2 is evaluated at x0 + v0·h/2,
//               v0 + a1·h/2), not points of the exact motion. A game-physics solver's pass over
//               its constraint rows (solvers.hpp) is the same unit of work and shows as one: the
//               x and v the pass leaves, no a.
//   state:      a point the method uses without evaluating a force there: an acceleration carried
//               from the last step, rk45's first slope reused, the step's result. A column that is
//               not part of the stage is absent (nullptr): Störmer–Verlet's previous position has
//               no v or a, leapfrog's half-step velocity no x or a.
//   increment:  one force's own contribution to the kinematic step, per body: x holds its dx (the
//               displacement it adds beyond x0 + v0·h), v its dv (the velocity it adds); no a.
//               The step is x1 = x0 + v0·h + Σ dx, v1 = v0 + Σ dv over the increments.
//   note:       text only (rk45's rejected substeps); no numbers.
enum class StageKind { evaluation, state, increment, note };
constexpr int stage_kind_count = 4;
const char* stage_kind_name(StageKind k);  // "evaluation", "state", "increment", "note"

// A stage's label: text, then number when it is not 0, then suffix ("newton " and 3 give
// "newton 3"), so a step labels its stages without building strings when nobody watches.
struct StageName {
    const char* text;
    int number = 0;
    const char* suffix = "";
};

class StepObserver {
public:
    // One point of the step. x, v, a hold one entry per body, or are nullptr where the column
    // does not apply (see StageKind). The arrays are the step's own: read them now, they change.
    virtual void stage(StageKind kind, StageName name, const dvec2* x, const dvec2* v, const dvec2* a) = 0;
    // rk45: the stages that follow belong to substep attempt `attempt` (1, 2, …, rejected ones
    // included) of size h; attempt 0 ends the substeps.
    virtual void substep(int attempt, double h) = 0;

protected:
    ~StepObserver() = default;
};

}  // namespace stepwise
