// A linear damper to the ground on every body: F = −b v (the whole velocity). Linear, with an
// exact flow (v e^{−b t/m}); with other forces on a body it makes the system dissipative.
#pragma once
#include "forces/force_terms.hpp"

#include <cmath>

namespace stepwise {

struct LinearDamper {
    static constexpr const char* id = "linear_damper";
    static constexpr bool couples_bodies = false, internal = false, uniform_acceleration = false;
    static constexpr unsigned closed_forms = closed_form_decoupled;

    static bool present(const System& s) { return s.damper != 0.0; }
    static void add_field(const System& s, BodyField& f) { f.b += s.damper; }
    static bool linear(const System&) { return true; }
    static bool dissipative(const System& s) { return s.damper > 0.0; }
    static bool has_flow(const System&) { return true; }
    static void count_forces(const System& s, int* forces, char* damped) {
        for (int i = 0; i < s.bodies(); ++i) {
            ++forces[i];
            damped[i] = 1;
        }
    }
    // The damper alone: v(t) = v0 e^{-t b/m}, one map per body (kept even without a damper,
    // so the layout of the maps does not depend on it).
    static int kinematic_map_count(const System& s) { return s.bodies(); }
    static void kinematic_maps(const System& s, double h, OscillatorMap* maps) {
        for (int i = 0; i < s.bodies(); ++i) maps[i] = oscillator_map(0.0, 0.5 * s.damper * s.inv_mass[i], h);
    }
    template <bool traced>
    static void kinematic_increment(KinematicPass& p) {
        if (!present(p.s)) return;
        for (int i = 0; i < p.s.bodies(); ++i) {
            dvec2 ddv, ddx;
            oscillator_increment(p.maps[i], dvec2(0.0), p.v[i], p.h, ddv, ddx);
            if (p.average) ddx = (0.5 * p.h) * ddv;
            p.dv[i] += ddv;
            p.dx[i] += ddx;
            if constexpr (traced) {
                p.inc_dv[i] = ddv;
                p.inc_dx[i] = ddx;
            }
        }
        if constexpr (traced) p.show(p, {"damper"});
    }
    // Its exact flow over t (yoshida4's dissipative flows): v e^{-b t/m}.
    static void dissipative_flow(const System& s, const dvec2*, dvec2* v, double t, bool) {
        if (s.damper == 0.0) return;
        for (int i = 0; i < s.bodies(); ++i) v[i] *= std::exp(-s.damper * s.inv_mass[i] * t);
    }
    static void describe(const System&, SceneDrawing&) {}  // not drawn
    static bool keeps_angular_momentum(const System& s, bool&, dvec2&) { return !present(s); }
};

}  // namespace stepwise
