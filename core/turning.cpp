// Bodies that turn: the angular block's torques, energies and kind of system (turning.hpp).
#include "turning.hpp"

#include "integrators.hpp"
#include "parts.hpp"

#include <cmath>
#include <string_view>
#include <tuple>

namespace stepwise {

bool carries_turning() { return true; }

namespace {
#include "fixed_steps.inc"
}  // namespace

// The methods written once over a runner (fixed_steps.inc) step every coordinate of every layout,
// and so does rk45 (each of its loops has the angular block's): a row is one of them when its id is
// one of theirs. Asked only of a system with rotations, so it lives with them (a motion module
// without this part never asks).
bool steps_every_layout(const IntegratorInfo& info) {
    return std::string_view(info.id) == "rk45" || [&]<class... M>(std::tuple<M...>*) {
        return ((std::string_view(info.id) == M::id) || ...);
    }(static_cast<FixedSteps*>(nullptr));
}

// Only torsion springs give torques today; a force at a point of a body (issue 35) will add its
// moment here and its force to the linear block.
void angular_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a) {
    const double* phi = angular_block(s, x);
    const double* omega = angular_block(s, v);
    double* alpha = angular_block(s, a);
    for (int r = 0; r < s.rotating(); ++r) {
        const Rotation& b = s.rotations[r];
        alpha[r] = (-b.torsion.kappa * (phi[r] - b.torsion.rest) - b.torsion.damping * omega[r]) * b.inv_inertia;
    }
}

double angular_kinetic_energy(const System& s, const dvec2* v) {
    const double* omega = angular_block(s, v);
    double e = 0.0;
    for (int r = 0; r < s.rotating(); ++r) e += 0.5 * s.rotations[r].inertia * (omega[r] * omega[r]);
    return e;
}

double angular_potential_energy(const System& s, const dvec2* x) {
    const double* phi = angular_block(s, x);
    double e = 0.0;
    for (int r = 0; r < s.rotating(); ++r) {
        const TorsionSpring& k = s.rotations[r].torsion;
        const double d = phi[r] - k.rest;
        e += 0.5 * k.kappa * (d * d);
    }
    return e;
}

double angular_dissipated_power(const System& s, const dvec2* v) {
    const double* omega = angular_block(s, v);
    double p = 0.0;
    for (int r = 0; r < s.rotating(); ++r) p += s.rotations[r].torsion.damping * (omega[r] * omega[r]);
    return p;
}

// The dampers act on coordinates no force kind touches, so where this comes among the kinds'
// flows changes no bit.
void angular_dissipative_flow(const System& s, dvec2* v, double t) {
    double* omega = angular_block(s, v);
    for (int r = 0; r < s.rotating(); ++r) {
        const Rotation& b = s.rotations[r];
        if (b.torsion.damping != 0.0) omega[r] *= std::exp(-b.torsion.damping * b.inv_inertia * t);
    }
}

// A torsion spring, damped or not, is one force with a closed form (the oscillator in φ) on its
// body's angle, and each body has at most one: the angular motion is free or of single forces.
OrderRegime angular_regime(const System& s) {
    for (const Rotation& r : s.rotations)
        if (r.torsion.kappa != 0.0 || r.torsion.damping != 0.0) return OrderRegime::single_forces;
    return OrderRegime::free_motion;
}

}  // namespace stepwise
