// The stand-in for the part `turning` (core/parts.hpp) in a build without it: the same functions,
// never called, since every caller reaches them only for a system with rotations, which no link
// makes yet (System::rotations is filled by code, not by the parser). Each gives what a system
// without rotations would.
#include "parts.hpp"
#include "integrators.hpp"
#include "turning.hpp"

namespace stepwise {

bool carries_turning() { return false; }

void angular_accelerations(const System&, const dvec2*, const dvec2*, dvec2*) {}
double angular_kinetic_energy(const System&, const dvec2*) { return 0.0; }
double angular_potential_energy(const System&, const dvec2*) { return 0.0; }
double angular_dissipated_power(const System&, const dvec2*) { return 0.0; }
void angular_dissipative_flow(const System&, dvec2*, double) {}
OrderRegime angular_regime(const System&) { return OrderRegime::free_motion; }
bool steps_every_layout(const IntegratorInfo&) { return false; }

}  // namespace stepwise
