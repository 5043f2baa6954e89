// A spring between two bodies: F_i = −k (|d| − rest) d/|d| − b (v_i − v_j), d = x_i − x_j, and
// F_j = −F_i (its damper acts on the whole relative velocity). Internal: the centre of mass
// keeps its motion. With rest = 0 the separation is a damped oscillator of the reduced mass.
#pragma once
#include "forces/force_terms.hpp"
#include "forces/solver_rows.hpp"
#include "forces/spring_math.hpp"

#include <algorithm>
#include <cstdlib>

namespace stepwise {

struct PairSpringForce {
    static constexpr const char* id = "pair_spring";
    static constexpr bool couples_bodies = true, internal = true, uniform_acceleration = false;
    static constexpr unsigned closed_forms = closed_form_pair;

    static bool present(const System& s) { return !s.pair_springs.empty(); }
    static int coupling_span(const System& s) {
        int span = 0;
        for (const PairSpring& sp : s.pair_springs) span = std::max(span, std::abs(sp.i - sp.j));
        return span;
    }

    static void add_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a) {
        const double* inv_m = s.inv_mass.data();
        for (const PairSpring& sp : s.pair_springs) {
            const dvec2 f = spring_math::force(x[sp.i] - x[sp.j], sp.k, sp.rest) - sp.b * (v[sp.i] - v[sp.j]);
            a[sp.i] += inv_m[sp.i] * f;
            a[sp.j] -= inv_m[sp.j] * f;
        }
    }
    static void add_potential(const System& s, const dvec2* x, double& e) {
        for (const PairSpring& sp : s.pair_springs) e += spring_math::energy(x[sp.i] - x[sp.j], sp.k, sp.rest);
    }
    // The solvers' rows, as an anchor spring's (anchor_spring.hpp) with body j for the anchor; its
    // damper b on the whole relative velocity stays external.
    static void add_solver_rows(const System& s, SolverRows& rows) {
        for (const PairSpring& sp : s.pair_springs) {
            if (sp.k == 0.0) continue;
            if (sp.rest > 0.0) {
                rows.add(sp.i, sp.j, dvec2(0.0), sp.rest, -1, 1.0 / sp.k, 0.0, -1);
            } else {
                for (int axis = 0; axis < 2; ++axis) rows.add(sp.i, sp.j, dvec2(0.0), 0.0, axis, 1.0 / sp.k, 0.0, -1);
            }
        }
    }
    static void add_solver_external(const System& s, const dvec2*, const dvec2* v, dvec2* a) {
        const double* inv_m = s.inv_mass.data();
        for (const PairSpring& sp : s.pair_springs) {
            const dvec2 f = -sp.b * (v[sp.i] - v[sp.j]);
            a[sp.i] += inv_m[sp.i] * f;
            a[sp.j] -= inv_m[sp.j] * f;
        }
    }
    static void add_power(const System& s, const dvec2*, const dvec2* v, double& p) {
        for (const PairSpring& sp : s.pair_springs) {
            const dvec2 w = v[sp.i] - v[sp.j];
            p += sp.b * (w.x * w.x + w.y * w.y);
        }
    }
    // |d| <= 2√2 x_max and |v_i − v_j|² <= 4 v2.
    static double energy_bound(const System& s, double x_max, double v2) {
        double bound = 0.0;
        for (const PairSpring& sp : s.pair_springs) {
            const double stretch = 2.0 * std::sqrt(2.0) * x_max + sp.rest;
            bound += std::max(1.0, std::fabs(sp.k)) * std::max(1.0, stretch * stretch) + std::max(1.0, std::fabs(sp.b)) * 4.0 * v2;
        }
        return bound;
    }
    static void add_jacobian_dense(const System& s, const dvec2* x, const dvec2*, double* dadx, double* dadv) {
        const int n = 2 * s.bodies();
        const double minus_identity[4] = {-1.0, 0.0, 0.0, -1.0};
        for (const PairSpring& sp : s.pair_springs) {
            double j[4];
            spring_math::jacobian(x[sp.i] - x[sp.j], sp.k, sp.rest, j);
            const double mi = s.inv_mass[sp.i], mj = s.inv_mass[sp.j];
            // F_i = f(x_i - x_j) - b (v_i - v_j); F_j = -F_i.
            spring_math::add_block(dadx, n, sp.i, sp.i, j, mi);
            spring_math::add_block(dadx, n, sp.i, sp.j, j, -mi);
            spring_math::add_block(dadx, n, sp.j, sp.i, j, -mj);
            spring_math::add_block(dadx, n, sp.j, sp.j, j, mj);
            spring_math::add_block(dadv, n, sp.i, sp.i, minus_identity, sp.b * mi);
            spring_math::add_block(dadv, n, sp.i, sp.j, minus_identity, -sp.b * mi);
            spring_math::add_block(dadv, n, sp.j, sp.i, minus_identity, -sp.b * mj);
            spring_math::add_block(dadv, n, sp.j, sp.j, minus_identity, sp.b * mj);
        }
    }

    static bool linear(const System& s) {
        for (const PairSpring& sp : s.pair_springs)
            if (sp.rest != 0.0) return false;
        return true;
    }
    static bool dissipative(const System& s) {
        for (const PairSpring& sp : s.pair_springs)
            if (sp.b > 0.0) return true;
        return false;
    }
    static bool has_flow(const System& s) { return linear(s); }
    static void count_forces(const System& s, int* forces, char* damped) {
        for (const PairSpring& sp : s.pair_springs) {
            for (int body : {sp.i, sp.j}) {
                ++forces[body];
                damped[body] |= sp.b != 0.0;
            }
            if (sp.i == sp.j) --forces[sp.i];  // one spring, counted once
        }
    }
    // One map per spring: the separation's damped oscillator with the reduced mass mu.
    static int kinematic_map_count(const System& s) { return static_cast<int>(s.pair_springs.size()); }
    static void kinematic_maps(const System& s, double h, OscillatorMap* maps) {
        size_t k = 0;
        for (const PairSpring& sp : s.pair_springs) {
            const double mu = s.mass[sp.i] * s.mass[sp.j] / (s.mass[sp.i] + s.mass[sp.j]);
            maps[k++] = oscillator_map(sp.k / mu, 0.5 * sp.b / mu, h);
        }
    }
    template <bool traced>
    static void kinematic_increment(KinematicPass& p) {
        for (size_t k = 0; k < p.s.pair_springs.size(); ++k) {
            const PairSpring& sp = p.s.pair_springs[k];
            const double mi = p.s.mass[sp.i], mj = p.s.mass[sp.j], M = mi + mj;
            dvec2 ddv_rel, ddx_rel;  // increments of the separation r = x_i - x_j and its rate
            if (sp.rest == 0.0) {
                // Alone, the spring leaves the centre of mass coasting and the separation
                // oscillates with the reduced mass mu.
                oscillator_increment(p.maps[k], p.x[sp.i] - p.x[sp.j], p.v[sp.i] - p.v[sp.j], p.h, ddv_rel, ddx_rel);
                if (p.average) ddx_rel = (0.5 * p.h) * ddv_rel;
            } else {
                const dvec2 d = p.x[sp.i] - p.x[sp.j];
                const double len = std::sqrt(d.x * d.x + d.y * d.y);
                dvec2 f = -sp.b * (p.v[sp.i] - p.v[sp.j]);
                if (len > 0.0) f += (-sp.k * (len - sp.rest) / len) * d;
                // Relative acceleration f/mu; split back to the bodies below.
                ddv_rel = (p.h * M / (mi * mj)) * f;
                ddx_rel = p.dx_factor * ddv_rel;
            }
            // Body i gets mj/M of the separation's increments, body j -mi/M of them.
            const dvec2 dv_i = (mj / M) * ddv_rel, dx_i = (mj / M) * ddx_rel;
            const dvec2 dv_j = (mi / M) * ddv_rel, dx_j = (mi / M) * ddx_rel;
            p.dv[sp.i] += dv_i;
            p.dx[sp.i] += dx_i;
            p.dv[sp.j] -= dv_j;
            p.dx[sp.j] -= dx_j;
            if constexpr (traced) {
                p.inc_dv[sp.i] = dv_i;
                p.inc_dx[sp.i] = dx_i;
                p.inc_dv[sp.j] = -dv_j;
                p.inc_dx[sp.j] = -dx_j;
                p.show(p, {"pair spring ", static_cast<int>(k) + 1, sp.rest == 0.0 ? "" : p.no_closed_form});
            }
        }
    }
    // Its damper's exact flow over t: the centre-of-mass velocity V is kept, the relative
    // velocity u = v_i - v_j decays as u e^{-b t/mu}, v_i = V + (m_j/M) u, v_j = V - (m_i/M) u.
    // Springs sharing a body do not commute: `reverse` runs them last first (yoshida4 mirrors
    // its flows around the kick).
    static void dissipative_flow(const System& s, const dvec2*, dvec2* v, double t, bool reverse) {
        const double* inv_m = s.inv_mass.data();
        const size_t count = s.pair_springs.size();
        for (size_t q = 0; q < count; ++q) {
            const PairSpring& sp = s.pair_springs[reverse ? count - 1 - q : q];
            if (sp.b == 0.0) continue;
            const double mi = s.mass[sp.i], mj = s.mass[sp.j], M = mi + mj;
            const dvec2 centre = (mi / M) * v[sp.i] + (mj / M) * v[sp.j];
            // b/mu = b (1/m_i + 1/m_j): no reduced mass to underflow.
            const dvec2 u = std::exp(-sp.b * (inv_m[sp.i] + inv_m[sp.j]) * t) * (v[sp.i] - v[sp.j]);
            v[sp.i] = centre + (mj / M) * u;
            v[sp.j] = centre - (mi / M) * u;
        }
    }
    // A coil between its bodies.
    static void describe(const System& s, SceneDrawing& d) {
        for (const PairSpring& sp : s.pair_springs)
            d.connectors.push_back({.kind = id, .from = {false, sp.i}, .to = {false, sp.j}, .rest = sp.rest});
    }
    // Internal and along the separation: kept, unless it is damped.
    static bool keeps_angular_momentum(const System& s, bool&, dvec2&) { return !dissipative(s); }
};

}  // namespace stepwise
