// The stand-in for the part `links` (core/parts.hpp) in a build without it: the same functions,
// never called, since the parser lets no link with links or solver lanes through in such a build
// (ParseResult::missing_parts). Each returns what a system without links would give.
#include "parts.hpp"
#include "forces/link.hpp"
#include "solvers.hpp"

namespace stepwise {

bool carries_links() { return false; }

void LinkForce::constrain_accelerations(const System&, const dvec2*, const dvec2*, dvec2*, double*) {}
long long LinkForce::constraint_work(const System&) { return 0; }
bool LinkForce::project(const System&, dvec2*, dvec2*) { return true; }
void LinkForce::reserve_workspace(const System&) {}
int order_rigid_links(const System&, std::vector<int>&) { return 0; }

SolverRows build_solver_rows(const System&) { return {}; }
void pbd_step(const System&, Lane&, double) {}
void xpbd_step(const System&, Lane&, double) {}
void soft_step(const System&, Lane&, double) {}
void sequential_impulses_step(const System&, Lane&, double) {}
void vbd_step(const System&, Lane&, double) {}

}  // namespace stepwise
