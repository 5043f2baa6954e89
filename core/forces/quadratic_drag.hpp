// Quadratic air drag on every body: F = −c |v| v. Not linear and without a closed-form flow in
// 2D: a system with drag has no exact reference (rk45 instead) and its own order regime.
#pragma once
#include "forces/force_terms.hpp"

#include <cmath>
#include <limits>

namespace stepwise {

struct QuadraticDrag {
    static constexpr const char* id = "quadratic_drag";
    static constexpr bool couples_bodies = false, internal = false, uniform_acceleration = false;
    static constexpr unsigned closed_forms = closed_form_none;

    static bool present(const System& s) { return s.drag != 0.0; }
    static void add_field(const System& s, BodyField& f) { f.c += s.drag; }
    static bool linear(const System& s) { return !present(s); }
    static bool dissipative(const System& s) { return s.drag > 0.0; }
    static bool has_flow(const System& s) { return !present(s); }
    static void count_forces(const System& s, int* forces, char* damped) {
        for (int i = 0; i < s.bodies(); ++i) {
            ++forces[i];
            damped[i] = 1;
        }
    }
    // No flow in 2D: the semi-implicit terms.
    template <bool traced>
    static void kinematic_increment(KinematicPass& p) {
        if (!present(p.s)) return;
        const double* inv_m = p.s.inv_mass.data();
        for (int i = 0; i < p.s.bodies(); ++i) {
            const double speed = std::sqrt(p.v[i].x * p.v[i].x + p.v[i].y * p.v[i].y);
            p.template add_semi_implicit<traced>(i, (-p.s.drag * speed * inv_m[i] * p.h) * p.v[i]);
        }
        if constexpr (traced) p.show(p, {"drag", 0, p.no_closed_form});
    }
    // Alone along a fixed direction, the speed follows s/(1 + c s t/m). Backwards (t < 0) it
    // blows up at t = -m/(c s): past that the velocity has no finite value and becomes infinite
    // (the lane is then flagged as diverged, at that step).
    static void dissipative_flow(const System& s, const dvec2*, dvec2* v, double t, bool) {
        if (s.drag == 0.0) return;
        for (int i = 0; i < s.bodies(); ++i) {
            const double speed = std::sqrt(v[i].x * v[i].x + v[i].y * v[i].y);
            const double grow = 1.0 + s.drag * speed * s.inv_mass[i] * t;
            v[i] = grow > 0.0 ? v[i] / grow : dvec2(std::numeric_limits<double>::infinity());
        }
    }
    static void describe(const System&, SceneDrawing&) {}  // not drawn
    static bool keeps_angular_momentum(const System& s, bool&, dvec2&) { return !present(s); }
};

}  // namespace stepwise
