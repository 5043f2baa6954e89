// A link (system.hpp: Link) from a body to another or to a fixed anchor, with rest length L and
// compliance α. Write d = x_i − x_j (x_j the anchor for an anchored link), n = d/|d| and
// w = v_i − v_j.
//
// Compliant (α > 0): a spring of stiffness 1/α along the link with a damper along it,
//   F_i = −((|d| − L)/α) n − c (n·w) n,  F_j = −F_i,
// potential (|d| − L)²/(2α), dissipated power c (n·w)². Its tension is the stretch over α.
//
// Rigid (α = 0): the constraint C = |d| − L = 0, kept by a force −λ n on body i and +λ n on j
// (λ > 0 pulls the ends together: the rod's tension). No force law gives λ: it is whatever keeps
// C'' = 0. With C'' = n·(a_i − a_j) + (|w|² − (n·w)²)/|d| (differentiate |d| twice), the
// multipliers of all rigid links solve
//   A λ = n_l·(a_i − a_j)_free + (|w_l|² − (n_l·w_l)²)/|d_l|,   A = J M⁻¹ Jᵀ,
//   A_lm = Σ over bodies b that links l and m share: σ_lb σ_mb (n_l·n_m)/m_b,
// with σ_lb = +1 when b is l's body i and −1 when it is j (an anchor contributes nothing). A is
// symmetric positive definite, and banded when links that share a body are near in the list (a
// chain or a bridge, listed end to end: half-bandwidth 1), so it is factored by a banded
// Cholesky in O(links · bandwidth²), not densely. This is the index-1 form of the constrained
// equations M a + Jᵀ λ = f, J a = −J' v (Hairer–Wanner II, VII.1); the reference integrates it
// with Dormand–Prince and projects its state back onto C = 0 and J v = 0 after every step
// (project_onto_links), since the index-1 form holds C'' = 0 and lets C drift with round-off.
// A force-based integrator never steps a rigid link: the simulation stops such lanes first
// (StopReason::needs_compliance), so accelerations() on a rigid system is the reference's alone.
#pragma once
#include "forces/force_terms.hpp"
#include "forces/solver_rows.hpp"
#include "forces/spring_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

namespace stepwise {

struct LinkForce {
    static constexpr const char* id = "link";
    static constexpr bool couples_bodies = true, internal = false, uniform_acceleration = false;
    static constexpr unsigned closed_forms = closed_form_pendulum;

    // Where the far end of link k is: body j or its anchor.
    static dvec2 far_x(const Link& k, const dvec2* x) { return k.j == no_body ? k.anchor : x[k.j]; }
    static dvec2 far_v(const Link& k, const dvec2* v) { return k.j == no_body ? dvec2(0.0) : v[k.j]; }

    // The compliant link's force on body i (F_j = −F_i).
    static dvec2 force(const Link& k, dvec2 d, dvec2 w) {
        const double len = std::sqrt(d.x * d.x + d.y * d.y);
        if (len == 0.0) return dvec2(0.0);
        const dvec2 n = d / len;
        const double along = n.x * w.x + n.y * w.y;
        return (-(len - k.rest) / k.compliance - k.damping * along) * n;
    }

    static bool present(const System& s) { return !s.links.empty(); }
    // A link joins bodies i and j (an anchored one, its body alone).
    static int coupling_span(const System& s) {
        int span = 0;
        for (const Link& k : s.links)
            if (k.j != no_body) span = std::max(span, std::abs(k.i - k.j));
        return span;
    }
    // A compliant link's energy (|d| − L)²/(2α), |d| <= √2 (2 x_max + |anchor|), and its power
    // c (n·w)², with (d·w)/|d| at most |w| <= 2 √v2 up to roundings (and d·w itself at most
    // |d| |w| before the division), each taken with a wide margin; a rigid link adds neither.
    static double energy_bound(const System& s, double x_max, double v2) {
        double bound = 0.0;
        for (const Link& k : s.links) {
            if (k.compliance == 0.0) continue;
            const double reach = std::sqrt(2.0) * (2.0 * x_max + std::fabs(k.anchor.x) + std::fabs(k.anchor.y));
            const double stretch = reach + k.rest;
            bound += std::max(1.0, std::fabs(1.0 / k.compliance)) * std::max(1.0, stretch * stretch) +
                     std::max(1.0, std::fabs(k.damping)) * 64.0 * v2 + 4.0 * std::max(1.0, reach) * std::sqrt(v2);
        }
        return bound;
    }

    static void add_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a) {
        // Every other force is summed by now (links are the table's last kind): the rigid links'
        // forces of constraint go on top of the compliant links' forces.
        if (add_free_accelerations(s, x, v, a)) constrain_accelerations(s, x, v, a, nullptr);
    }
    // The compliant links' forces alone (unconstrained_accelerations); true when there are rigid
    // links too.
    static bool add_free_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a) {
        const double* inv_m = s.inv_mass.data();
        bool rigid = false;
        for (const Link& k : s.links) {
            if (k.compliance == 0.0) {
                rigid = true;
                continue;
            }
            const dvec2 f = force(k, x[k.i] - far_x(k, x), v[k.i] - far_v(k, v));
            a[k.i] += inv_m[k.i] * f;
            if (k.j != no_body) a[k.j] -= inv_m[k.j] * f;
        }
        return rigid;
    }
    // The solvers' rows: one distance row a link, with its compliance (0: rigid) and its damping
    // along it; nothing external.
    static void add_solver_rows(const System& s, SolverRows& rows) {
        for (size_t q = 0; q < s.links.size(); ++q) {
            const Link& k = s.links[q];
            rows.add(k.i, k.j, k.anchor, k.rest, -1, k.compliance, k.damping, static_cast<int>(q));
        }
    }
    static void add_solver_external(const System&, const dvec2*, const dvec2*, dvec2*) {}
    static void add_potential(const System& s, const dvec2* x, double& e) {
        for (const Link& k : s.links)
            if (k.compliance > 0.0) e += spring_math::energy(x[k.i] - far_x(k, x), 1.0 / k.compliance, k.rest);
    }
    static void add_power(const System& s, const dvec2* x, const dvec2* v, double& p) {
        for (const Link& k : s.links) {
            if (k.compliance == 0.0 || k.damping == 0.0) continue;
            const dvec2 d = x[k.i] - far_x(k, x), w = v[k.i] - far_v(k, v);
            const double len = std::sqrt(d.x * d.x + d.y * d.y);
            if (len == 0.0) continue;
            const double along = (d.x * w.x + d.y * w.y) / len;
            p += k.damping * along * along;
        }
    }
    static void add_jacobian_dense(const System& s, const dvec2* x, const dvec2* v, double* dadx, double* dadv) {
        const int n = 2 * s.bodies();
        for (const Link& k : s.links) {
            if (k.compliance == 0.0) continue;
            const dvec2 d = x[k.i] - far_x(k, x), w = v[k.i] - far_v(k, v);
            const double len = std::sqrt(d.x * d.x + d.y * d.y);
            if (len == 0.0) continue;
            const dvec2 u = d / len;
            const double along = u.x * w.x + u.y * w.y;
            // The spring: spring_math's Jacobian of stiffness 1/α. The damper −c (u·w) u:
            // d/dw = −c u uᵀ; d/dd = −(c/|d|) [(u·w)(I − u uᵀ) + u wᵀ(I − u uᵀ)].
            double jx[4], jv[4];
            spring_math::jacobian(d, 1.0 / k.compliance, k.rest, jx);
            const double P[4] = {1.0 - u.x * u.x, -u.x * u.y, -u.y * u.x, 1.0 - u.y * u.y};
            const double wp[2] = {w.x * P[0] + w.y * P[2], w.x * P[1] + w.y * P[3]};  // wᵀ(I − u uᵀ)
            const double uu[2] = {u.x, u.y};
            const double c = k.damping;
            for (int r = 0; r < 2; ++r)
                for (int col = 0; col < 2; ++col) {
                    jx[2 * r + col] -= (c / len) * (along * P[2 * r + col] + uu[r] * wp[col]);
                    jv[2 * r + col] = -c * uu[r] * uu[col];
                }
            const double mi = s.inv_mass[k.i];
            spring_math::add_block(dadx, n, k.i, k.i, jx, mi);
            spring_math::add_block(dadv, n, k.i, k.i, jv, mi);
            if (k.j == no_body) continue;
            const double mj = s.inv_mass[k.j];
            spring_math::add_block(dadx, n, k.i, k.j, jx, -mi);
            spring_math::add_block(dadx, n, k.j, k.i, jx, -mj);
            spring_math::add_block(dadx, n, k.j, k.j, jx, mj);
            spring_math::add_block(dadv, n, k.i, k.j, jv, -mi);
            spring_math::add_block(dadv, n, k.j, k.i, jv, -mj);
            spring_math::add_block(dadv, n, k.j, k.j, jv, mj);
        }
    }

    static bool linear(const System&) { return false; }  // a rest length > 0 always
    static bool dissipative(const System& s) {
        for (const Link& k : s.links)
            if (k.compliance > 0.0 && k.damping > 0.0) return true;
        return false;
    }
    static bool has_flow(const System&) { return false; }
    static void count_forces(const System& s, int* forces, char* damped) {
        for (const Link& k : s.links)
            for (int body : {k.i, k.j}) {
                if (body == no_body) continue;
                ++forces[body];
                damped[body] |= k.damping != 0.0;
            }
    }
    // No flow: the semi-implicit terms (the kinematic step of a spring with a rest length).
    template <bool traced>
    static void kinematic_increment(KinematicPass& p) {
        const double* inv_m = p.s.inv_mass.data();
        for (size_t q = 0; q < p.s.links.size(); ++q) {
            const Link& k = p.s.links[q];
            const dvec2 f = k.compliance == 0.0 ? dvec2(0.0) : force(k, p.x[k.i] - far_x(k, p.x), p.v[k.i] - far_v(k, p.v));
            const dvec2 dv_i = (p.h * inv_m[k.i]) * f, dx_i = p.dx_factor * dv_i;
            p.dv[k.i] += dv_i;
            p.dx[k.i] += dx_i;
            dvec2 dv_j(0.0), dx_j(0.0);
            if (k.j != no_body) {
                dv_j = -(p.h * inv_m[k.j]) * f;
                dx_j = p.dx_factor * dv_j;
                p.dv[k.j] += dv_j;
                p.dx[k.j] += dx_j;
            }
            if constexpr (traced) {
                p.inc_dv[k.i] = dv_i;
                p.inc_dx[k.i] = dx_i;
                if (k.j != no_body) {
                    p.inc_dv[k.j] = dv_j;
                    p.inc_dx[k.j] = dx_j;
                }
                p.show(p, {"link ", static_cast<int>(q) + 1, p.no_closed_form});
            }
        }
    }
    // Its damper's exact flow over t at fixed positions: the relative velocity along n,
    // u = n·(v_i − v_j), decays as u e^{−c (1/m_i + 1/m_j) t} and the ends' momentum along n is
    // kept (an anchored link: v_i's part along n decays as e^{−c t/m_i}). Links sharing a body do
    // not commute: `reverse` runs them last first (yoshida4 mirrors its flows around the kick).
    static void dissipative_flow(const System& s, const dvec2* x, dvec2* v, double t, bool reverse) {
        const double* inv_m = s.inv_mass.data();
        const size_t count = s.links.size();
        for (size_t q = 0; q < count; ++q) {
            const Link& k = s.links[reverse ? count - 1 - q : q];
            if (k.compliance == 0.0 || k.damping == 0.0) continue;
            const dvec2 d = x[k.i] - far_x(k, x);
            const double len = std::sqrt(d.x * d.x + d.y * d.y);
            if (len == 0.0) continue;
            const dvec2 n = d / len;
            const dvec2 w = v[k.i] - far_v(k, v);
            const double u = n.x * w.x + n.y * w.y;
            const double im_j = k.j == no_body ? 0.0 : inv_m[k.j];
            const double change = (std::exp(-k.damping * (inv_m[k.i] + im_j) * t) - 1.0) * u;
            // Split as momentum along n is kept: body i gets m_j/M of the change (all of it when
            // anchored), body j −m_i/M; written with inverse masses, (1/m_i)/(1/m_i + 1/m_j).
            const double share_i = inv_m[k.i] / (inv_m[k.i] + im_j);
            v[k.i] += (share_i * change) * n;
            if (k.j != no_body) v[k.j] -= ((1.0 - share_i) * change) * n;
        }
    }
    // A bar (rigid) or a coil (compliant) between its ends.
    static void describe(const System& s, SceneDrawing& d) {
        for (const Link& k : s.links)
            d.connectors.push_back({.kind = id,
                                    .from = k.j == no_body ? SceneDrawing::End{true, d.anchor(k.anchor)}
                                                           : SceneDrawing::End{false, k.j},
                                    .to = {false, k.i},
                                    .rest = k.rest,
                                    .compliance = k.compliance});
    }
    // Central forces (along d) between bodies keep it; an anchored link keeps it about its anchor.
    static bool keeps_angular_momentum(const System& s, bool& have, dvec2& centre) {
        for (const Link& k : s.links) {
            if (k.j != no_body) continue;
            if (have && (k.anchor.x != centre.x || k.anchor.y != centre.y)) return false;
            if (!have) centre = k.anchor;
            have = true;
        }
        return true;
    }

    // ---- Rigid links ------------------------------------------------------------------------

    // The largest |length − L|/L over the links: how far a state is off its rigid links (and,
    // for compliant ones, their relative stretch).
    static double constraint_error(const System& s, const dvec2* x) {
        double worst = 0.0;
        for (const Link& k : s.links) {
            const dvec2 d = x[k.i] - far_x(k, x);
            worst = std::max(worst, std::fabs(std::sqrt(d.x * d.x + d.y * d.y) - k.rest) / k.rest);
        }
        return worst;
    }

    // Link q's tension (N, > 0 pulling its ends together): a compliant link's from its stretch,
    // a rigid link's from its multiplier at the state (x, v) at time t.
    static double tension(const System& s, const dvec2* x, const dvec2* v, size_t q, double t) {
        const Link& k = s.links[q];
        if (k.compliance > 0.0) {
            const dvec2 d = x[k.i] - far_x(k, x);
            return (std::sqrt(d.x * d.x + d.y * d.y) - k.rest) / k.compliance;
        }
        std::vector<dvec2> a(static_cast<size_t>(s.bodies()));
        std::vector<double> lambda(s.links.size(), 0.0);
        unconstrained_accelerations(s, x, v, a.data(), t);
        constrain_accelerations(s, x, v, a.data(), lambda.data());
        return lambda[q];
    }

    // Adds the rigid links' forces of constraint to a (every other force already in it); the
    // multipliers go to lambda (indexed as s.links; compliant links untouched) unless nullptr.
    // A singular A (a link of length 0, links that contradict each other) leaves a non-finite a,
    // which stops the reference with its reason.
    static void constrain_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double* lambda);

    // Moves (x, v) back onto the rigid links: Gauss–Newton on C(x) = 0 along M⁻¹Jᵀ (the
    // mass-weighted nearest point), then the velocity's component off J v = 0 removed the same way.
    // Returns false when A is singular.
    // The work of one constrained evaluation beyond the forces': the band of A assembled and
    // factored, links · (bandwidth + 1)² (Simulation::work counts it for the reference).
    static long long constraint_work(const System& s);
    static bool project(const System& s, dvec2* x, dvec2* v);
    // Makes room for s's rigid links in this thread's workspace (make_lane calls it: a Lane's
    // steps then allocate nothing).
    static void reserve_workspace(const System& s);
};

// The order of the rigid links' rows in the constrained solve: `rows` (indices into s.links, as
// listed) is kept, or renumbered by reverse Cuthill–McKee where that narrows the band; returns the
// half-bandwidth of the order kept (forces/link_order.cpp says why).
int order_rigid_links(const System& s, std::vector<int>& rows);

}  // namespace stepwise
