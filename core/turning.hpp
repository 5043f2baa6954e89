// Bodies that turn (layout.hpp): what the angular block adds to the sums over a system. A part
// (core/parts.hpp, `turning`): the page's motion modules carry none of it while no link can make a
// turning body, and every caller reaches it only for a system with rotations (System::rotations
// non-empty), one branch on the point systems' paths.
#pragma once
#include "orders.hpp"
#include "system.hpp"

namespace stepwise {

// ω' = τ/I of every rotation, into a's angular block (written, not added to).
void angular_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a);
// ½ I ω² summed; the torsion springs' ½ κ (φ − rest)²; their dampers' c ω².
double angular_kinetic_energy(const System& s, const dvec2* v);
double angular_potential_energy(const System& s, const dvec2* x);
double angular_dissipated_power(const System& s, const dvec2* v);
// The torsion dampers' exact flow over t: ω e^{−c t/I} (Yoshida 4's dissipative split).
void angular_dissipative_flow(const System& s, dvec2* v, double t);
// The kind of the angular motion (orders.hpp): free motion without torsion springs.
OrderRegime angular_regime(const System& s);

}  // namespace stepwise
