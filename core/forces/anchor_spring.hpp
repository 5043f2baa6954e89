// A spring from one body to a fixed anchor: F = −k (|d| − rest) d/|d| − b v, d = x − anchor
// (its damper acts on the body's whole velocity). With rest = 0 it is linear, −k d − b v: a
// damped oscillator about the anchor, with an exact flow and a closed form.
#pragma once
#include "forces/force_terms.hpp"
#include "forces/solver_rows.hpp"
#include "forces/spring_math.hpp"

#include <algorithm>

namespace stepwise {

struct AnchorSpringForce {
    static constexpr const char* id = "anchor_spring";
    static constexpr bool couples_bodies = false, internal = false, uniform_acceleration = false;
    static constexpr unsigned closed_forms = closed_form_decoupled;

    static bool present(const System& s) { return !s.anchor_springs.empty(); }

    static void add_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a) {
        const double* inv_m = s.inv_mass.data();
        for (const AnchorSpring& sp : s.anchor_springs) {
            const int i = sp.body;
            const dvec2 f = spring_math::force(x[i] - sp.anchor, sp.k, sp.rest) - sp.b * v[i];
            a[i] += inv_m[i] * f;
        }
    }
    static void add_potential(const System& s, const dvec2* x, double& e) {
        for (const AnchorSpring& sp : s.anchor_springs) e += spring_math::energy(x[sp.body] - sp.anchor, sp.k, sp.rest);
    }
    // The solvers' rows (solver_rows.hpp): stiffness k is compliance 1/k; with a rest length one
    // distance row, without it one row per axis (½k|d|² = ½k d.x² + ½k d.y²). A spring of k = 0 has
    // nothing to keep. Its damper b acts on the whole velocity: external (add_solver_external).
    static void add_solver_rows(const System& s, SolverRows& rows) {
        for (const AnchorSpring& sp : s.anchor_springs) {
            if (sp.k == 0.0) continue;
            if (sp.rest > 0.0) {
                rows.add(sp.body, no_body, sp.anchor, sp.rest, -1, 1.0 / sp.k, 0.0, -1);
            } else {
                for (int axis = 0; axis < 2; ++axis) rows.add(sp.body, no_body, sp.anchor, 0.0, axis, 1.0 / sp.k, 0.0, -1);
            }
        }
    }
    static void add_solver_external(const System& s, const dvec2*, const dvec2* v, dvec2* a) {
        const double* inv_m = s.inv_mass.data();
        for (const AnchorSpring& sp : s.anchor_springs) a[sp.body] -= inv_m[sp.body] * (sp.b * v[sp.body]);
    }
    static void add_power(const System& s, const dvec2*, const dvec2* v, double& p) {
        for (const AnchorSpring& sp : s.anchor_springs) {
            const dvec2 w = v[sp.body];
            p += sp.b * (w.x * w.x + w.y * w.y);
        }
    }
    // |d| <= √2 (x_max + |anchor|), so the energy is at most k (|d| + rest)² / 2, the power b v2.
    static double energy_bound(const System& s, double x_max, double v2) {
        double bound = 0.0;
        for (const AnchorSpring& sp : s.anchor_springs) {
            const double stretch = std::sqrt(2.0) * (x_max + std::fabs(sp.anchor.x) + std::fabs(sp.anchor.y)) + sp.rest;
            bound += std::max(1.0, std::fabs(sp.k)) * std::max(1.0, stretch * stretch) + std::max(1.0, std::fabs(sp.b)) * v2;
        }
        return bound;
    }
    static void add_jacobian_blocks(const System& s, const dvec2* x, const dvec2*, double* dadx, double* dadv) {
        for (const AnchorSpring& sp : s.anchor_springs) {
            double j[4];
            spring_math::jacobian(x[sp.body] - sp.anchor, sp.k, sp.rest, j);
            double* jx = dadx + 4 * sp.body;
            double* jv = dadv + 4 * sp.body;
            for (int c = 0; c < 4; ++c) jx[c] += j[c];
            jv[0] -= sp.b;
            jv[3] -= sp.b;
        }
    }
    static void add_jacobian_dense(const System& s, const dvec2* x, const dvec2*, double* dadx, double* dadv) {
        const int n = 2 * s.bodies();
        const double minus_identity[4] = {-1.0, 0.0, 0.0, -1.0};
        for (const AnchorSpring& sp : s.anchor_springs) {
            double j[4];
            spring_math::jacobian(x[sp.body] - sp.anchor, sp.k, sp.rest, j);
            const double im = s.inv_mass[sp.body];
            spring_math::add_block(dadx, n, sp.body, sp.body, j, im);
            spring_math::add_block(dadv, n, sp.body, sp.body, minus_identity, sp.b * im);
        }
    }

    static bool linear(const System& s) {
        for (const AnchorSpring& sp : s.anchor_springs)
            if (sp.rest != 0.0) return false;
        return true;
    }
    static bool dissipative(const System& s) {
        for (const AnchorSpring& sp : s.anchor_springs)
            if (sp.b > 0.0) return true;
        return false;
    }
    // A rest-0 spring is a (damped) oscillator; with a rest length there is no flow.
    static bool has_flow(const System& s) { return linear(s); }
    static void count_forces(const System& s, int* forces, char* damped) {
        for (const AnchorSpring& sp : s.anchor_springs) {
            ++forces[sp.body];
            damped[sp.body] |= sp.b != 0.0;
        }
    }
    // One map per spring: the damped oscillator about its anchor (used when rest = 0).
    static int kinematic_map_count(const System& s) { return static_cast<int>(s.anchor_springs.size()); }
    static void kinematic_maps(const System& s, double h, OscillatorMap* maps) {
        size_t k = 0;
        for (const AnchorSpring& sp : s.anchor_springs)
            maps[k++] = oscillator_map(sp.k * s.inv_mass[sp.body], 0.5 * sp.b * s.inv_mass[sp.body], h);
    }
    template <bool traced>
    static void kinematic_increment(KinematicPass& p) {
        const double* inv_m = p.s.inv_mass.data();
        for (size_t k = 0; k < p.s.anchor_springs.size(); ++k) {
            const AnchorSpring& sp = p.s.anchor_springs[k];
            const int i = sp.body;
            dvec2 ddv, ddx;
            if (sp.rest == 0.0) {
                // The damped oscillator about the anchor: cos/sin (or its damped forms).
                oscillator_increment(p.maps[k], p.x[i] - sp.anchor, p.v[i], p.h, ddv, ddx);
                if (p.average) ddx = (0.5 * p.h) * ddv;
            } else {
                const dvec2 d = p.x[i] - sp.anchor;
                const double len = std::sqrt(d.x * d.x + d.y * d.y);
                dvec2 f = -sp.b * p.v[i];
                if (len > 0.0) f += (-sp.k * (len - sp.rest) / len) * d;
                ddv = (p.h * inv_m[i]) * f;
                ddx = p.dx_factor * ddv;
            }
            p.dv[i] += ddv;
            p.dx[i] += ddx;
            if constexpr (traced) {
                p.inc_dv[i] = ddv;
                p.inc_dx[i] = ddx;
                p.show(p, {"anchor spring ", static_cast<int>(k) + 1, sp.rest == 0.0 ? "" : p.no_closed_form});
            }
        }
    }
    // Its damper's exact flow over t: v e^{-b t/m} on its body.
    static void dissipative_flow(const System& s, const dvec2*, dvec2* v, double t, bool) {
        for (const AnchorSpring& sp : s.anchor_springs)
            if (sp.b != 0.0) v[sp.body] *= std::exp(-sp.b * s.inv_mass[sp.body] * t);
    }
    // A coil from its anchor to its body.
    static void describe(const System& s, SceneDrawing& d) {
        for (const AnchorSpring& sp : s.anchor_springs)
            d.connectors.push_back({.kind = id, .from = {true, d.anchor(sp.anchor)}, .to = {false, sp.body}, .rest = sp.rest});
    }
    // Every anchor at the one centre, and no damping.
    static bool keeps_angular_momentum(const System& s, bool& have, dvec2& centre) {
        for (const AnchorSpring& sp : s.anchor_springs) {
            if (sp.b > 0.0) return false;
            if (have && (sp.anchor.x != centre.x || sp.anchor.y != centre.y)) return false;
            if (!have) centre = sp.anchor;
            have = true;
        }
        return true;
    }
};

}  // namespace stepwise
