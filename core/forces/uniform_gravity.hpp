// Uniform gravity: a = g on every body, potential −m g·x (zero at the origin). Linear, with an
// exact flow (constant acceleration), and part of both linear closed forms.
#pragma once
#include "forces/force_terms.hpp"

namespace stepwise {

struct UniformGravity {
    static constexpr const char* id = "uniform_gravity";
    static constexpr bool couples_bodies = false, internal = false, uniform_acceleration = true;
    static constexpr unsigned closed_forms = closed_form_decoupled | closed_form_pair | closed_form_pendulum;

    static bool present(const System& s) { return s.gravity.x != 0.0 || s.gravity.y != 0.0; }
    static void add_field(const System& s, BodyField& f) { f.g += s.gravity; }
    static bool linear(const System&) { return true; }
    static bool dissipative(const System&) { return false; }
    static bool has_flow(const System&) { return true; }
    static void count_forces(const System& s, int* forces, char*) {
        for (int i = 0; i < s.bodies(); ++i) ++forces[i];
    }
    // Constant, so the kinematic equations are exact (and dx = dv h/2 either way). Added even
    // when zero, as the sums' first term.
    template <bool traced>
    static void kinematic_increment(KinematicPass& p) {
        for (int i = 0; i < p.s.bodies(); ++i) {
            p.dv[i] += p.h * p.s.gravity;
            p.dx[i] += (0.5 * p.h * p.h) * p.s.gravity;
        }
        if constexpr (traced)
            if (present(p.s)) p.report(p, {"gravity"}, p.dx, p.dv);
    }
    static void describe(const System& s, SceneDrawing& d) {
        d.has_gravity = present(s);
        if (d.has_gravity) d.gravity = s.gravity;
    }
    // A force off the origin breaks the rotational symmetry: kept only without it.
    static bool keeps_angular_momentum(const System& s, bool&, dvec2&) { return !present(s); }
};

}  // namespace stepwise
