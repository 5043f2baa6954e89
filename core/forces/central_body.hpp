// An attracting body fixed at `centre`: a = −gm (x − centre)/|x − centre|³ on every body
// (F = −gm m r/|r|³), potential −gm m/|r|. Not linear, but alone on one body it has Kepler's
// flow (the kinematic step follows it, and the exact reference is Kepler's equation).
#pragma once
#include "forces/force_terms.hpp"
#include "kepler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stepwise {

struct CentralBody {
    static constexpr const char* id = "central_body";
    static constexpr bool couples_bodies = false, internal = false, uniform_acceleration = false;
    static constexpr unsigned closed_forms = closed_form_kepler;

    // a = -gm r/|r|^3 at relative position r (zero at the centre itself, where the body has
    // collided and stops anyway).
    static dvec2 acceleration(dvec2 r, double gm) {
        const double r2 = r.x * r.x + r.y * r.y;
        if (r2 == 0.0) return dvec2(0.0);
        const double len = std::sqrt(r2);
        return (-gm / (r2 * len)) * r;
    }
    // d(acceleration)/dr = -gm (I/|r|^3 - 3 r r^T/|r|^5), row-major.
    static void jacobian(dvec2 r, double gm, double out[4]) {
        const double r2 = r.x * r.x + r.y * r.y;
        if (r2 == 0.0) {
            out[0] = out[1] = out[2] = out[3] = 0.0;
            return;
        }
        const double len = std::sqrt(r2);
        const double c1 = -gm / (r2 * len), c3 = 3.0 * gm / (r2 * r2 * len);
        out[0] = c1 + c3 * r.x * r.x;
        out[1] = c3 * r.x * r.y;
        out[2] = out[1];
        out[3] = c1 + c3 * r.y * r.y;
    }

    static bool present(const System& s) { return !s.central_forces.empty(); }

    static void add_accelerations(const System& s, const dvec2* x, const dvec2*, dvec2* a) {
        const int n = s.bodies();
        for (const CentralForce& c : s.central_forces)
            for (int i = 0; i < n; ++i) a[i] += acceleration(x[i] - c.centre, c.gm);
    }
    static void add_potential(const System& s, const dvec2* x, double& e) {
        for (const CentralForce& c : s.central_forces)
            for (int i = 0; i < s.bodies(); ++i) {
                const dvec2 r = x[i] - c.centre;
                e -= c.gm * s.mass[i] / std::sqrt(r.x * r.x + r.y * r.y);
            }
    }
    static void add_power(const System&, const dvec2*, const dvec2*, double&) {}  // conservative
    // −gm m/|r| with |r| at least the collision radius (a body inside it has collided, which the
    // check after a step finds first: |r|² >= radius², computed alike), taken as half of it for
    // the roundings; none without a radius whose square is a normal number.
    static double energy_bound(const System& s, double x_max, double) {
        double bound = 0.0;
        for (const CentralForce& c : s.central_forces) {
            const double r_min = 0.5 * c.collision_radius;
            if (!(c.collision_radius * c.collision_radius >= 1e-300)) return std::numeric_limits<double>::infinity();
            const double reach = x_max + std::fabs(c.centre.x) + std::fabs(c.centre.y);
            for (int i = 0; i < s.bodies(); ++i)
                bound += std::max(1.0, std::fabs(c.gm)) * std::max(1.0, std::fabs(s.mass[i])) / std::min(1.0, r_min) + 2.0 * reach * reach;
        }
        return bound;
    }
    static void add_jacobian_blocks(const System& s, const dvec2* x, const dvec2*, double* dadx, double*) {
        for (const CentralForce& c : s.central_forces)
            for (int i = 0; i < s.bodies(); ++i) {
                double j[4];
                jacobian(x[i] - c.centre, c.gm, j);
                for (int k = 0; k < 4; ++k) dadx[4 * i + k] += s.mass[i] * j[k];  // a force, like the others
            }
    }
    static void add_jacobian_dense(const System& s, const dvec2* x, const dvec2*, double* dadx, double*) {
        const int n = 2 * s.bodies();
        for (const CentralForce& c : s.central_forces)
            for (int i = 0; i < s.bodies(); ++i) {
                double j[4];
                jacobian(x[i] - c.centre, c.gm, j);
                for (int r = 0; r < 2; ++r)  // already an acceleration
                    for (int col = 0; col < 2; ++col) dadx[(2 * i + r) * n + 2 * i + col] += j[2 * r + col];
            }
    }

    static bool linear(const System& s) { return !present(s); }
    static bool dissipative(const System&) { return false; }
    static bool has_flow(const System&) { return true; }
    static void count_forces(const System& s, int* forces, char*) {
        for (int i = 0; i < s.bodies(); ++i) forces[i] += static_cast<int>(s.central_forces.size());
    }
    // Its Kepler flow over the step, on every body.
    template <bool traced>
    static void kinematic_increment(KinematicPass& p) {
        for (size_t k = 0; k < p.s.central_forces.size(); ++k) {
            const CentralForce& c = p.s.central_forces[k];
            for (int i = 0; i < p.s.bodies(); ++i) {
                dvec2 ddv, ddx;
                kepler_increment(c, p.x[i], p.v[i], p.h, p.average, ddv, ddx);
                p.dv[i] += ddv;
                p.dx[i] += ddx;
                if constexpr (traced) {
                    p.inc_dv[i] = ddv;
                    p.inc_dx[i] = ddx;
                }
            }
            if constexpr (traced) p.show(p, {"central body ", static_cast<int>(k) + 1});
        }
    }
    // The (dv, dx) a central body alone gives a body at (x, v) over h: its Kepler flow's change
    // of velocity and its displacement beyond x + v h (with average, dx = dv h/2); without an
    // orbit to follow (the body sits on the centre), the semi-implicit terms. Shared with the
    // ensemble's kernels, so both compute the same numbers from one definition.
    static void kepler_increment(const CentralForce& c, dvec2 x, dvec2 v, double h, bool average, dvec2& ddv,
                                 dvec2& ddx) {
        dvec2 r = x - c.centre, w = v;
        if (kepler_propagate(c.gm, r, w, h)) {
            ddv = w - v;
            ddx = (r - (x - c.centre)) - h * v;
            if (average) ddx = (0.5 * h) * ddv;
        } else {
            const dvec2 d = x - c.centre;
            const double r2 = d.x * d.x + d.y * d.y;
            ddv = r2 > 0.0 ? (-h * c.gm / (r2 * std::sqrt(r2))) * d : dvec2(0.0);
            ddx = (average ? 0.5 * h : h) * ddv;
        }
    }
    static void describe(const System& s, SceneDrawing& d) {
        for (const CentralForce& c : s.central_forces) d.centres.push_back({c.centre, c.gm, c.collision_radius});
    }
    // Every centre at the one point (anchors included).
    static bool keeps_angular_momentum(const System& s, bool& have, dvec2& centre) {
        for (const CentralForce& c : s.central_forces) {
            if (have && (c.centre.x != centre.x || c.centre.y != centre.y)) return false;
            if (!have) centre = c.centre;
            have = true;
        }
        return true;
    }
};

}  // namespace stepwise
