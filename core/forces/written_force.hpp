// A force law a user writes (issue 22 §3): on every body i
//   F_i = (fx, fy)(x_i, y_i, vx_i, vy_i, t, m_i, c1..c4),   a_i = F_i / m_i,
// two Expressions (core/expression.hpp) compiled once from the keys fx and fy (config.cpp).
//
// What the core asks of it (force_kind.hpp), and why:
//  - An element, not a field: the fields' one fused form g − ((b + c|v|)/m) v cannot hold it.
//  - Its force may depend on time, so its passes take the time t as a last argument (a
//    TimedElement): every method evaluates it at its stages' own times (integrators.cpp).
//  - Not linear (nothing about the text says so), no closed-form family, no exact flow: a system
//    with it is in the order regime without_closed_form, its reference is rk45, and the
//    kinematic pair adds its semi-implicit terms dv = a·h, dx = dv·h (dv·h/2 averaged).
//  - Each body's force reads that body's state alone: the Jacobian is block-diagonal (per body
//    d/dx,d/dy and d/dvx,d/dvy from the expressions' forward-mode derivatives, eval_grad), and
//    it couples no bodies.
//  - Energy. When fx reads x alone and fy y alone (besides m and the constants; neither reads t,
//    vx or vy), F = −∇U with U(x, y) = −∫₀ˣ fx(ξ) dξ − ∫₀ʸ fy(η) dη (zero at the origin, like
//    gravity's; so the force is finite at the origin, else it has none: 1/x): conservative, and
//    add_potential adds U per body: by 16-point Gauss–Legendre quadrature in one panel for a
//    polynomial in its own coordinate up to degree 31 (a Duffing spring: exact), by
//    adaptive bisection of that rule for any other (to round-off wherever the body is). Where the
//    integral from 0 to a body's start does not exist (a pole on the way, a point where the force
//    is not finite) it has none, and s.written.no_potential says why (decide_potential).
//    Otherwise the force has no potential: add_potential adds nothing, so the energy E is the
//    kinetic energy plus the other forces' potentials, and the written force's work changes it
//    (a driven oscillator pumps energy in, a force −c·vx takes it out). That work is not
//    counted as "dissipated" (damping and drag's energy removed, ≥ 0): a written force may as
//    well add energy, and the page's dissipated series says "removed by damping and drag". So
//    dissipative(s) is false, and yoshida4 kicks with the whole force at the real velocity (its
//    dissipative splitting needs each velocity-dependent force's exact flow, which this has none
//    of: with a velocity-dependent written force yoshida4 is not fourth order; beside damping its
//    kicks add the written force's velocity part at the real velocity, add_velocity_part; the
//    order table's without_closed_form claim is measured on a position- and time-dependent force).
//  - No energy_bound: a system with it has its energy computed after every step to prove it
//    finite, and a non-finite force stops the lane (diverged, with the time) as any other.
//  - Not drawn (describe adds nothing); angular momentum is not kept in general.
#pragma once
#include "forces/force_terms.hpp"

#include <cmath>
#include <limits>

namespace stepwise {

// The 16-point Gauss–Legendre rule on [−1, 1]: nodes and weights, computed once (Newton's method
// on P₁₆ from Tricomi's first guesses, to the last bit of a double).
struct GaussLegendre16 {
    static constexpr int n = 16;
    double node[n], weight[n];
};
inline const GaussLegendre16& gauss_legendre16() {
    static const GaussLegendre16 rule = [] {
        GaussLegendre16 r{};
        constexpr int n = GaussLegendre16::n;
        constexpr double pi = 3.14159265358979323846;
        // P_n(z) and P_n'(z) by the three-term recurrence.
        auto legendre = [](double z, double& dp) {
            double p0 = 1.0, p1 = z;
            for (int k = 2; k <= n; ++k) {
                const double p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
                p0 = p1;
                p1 = p2;
            }
            dp = n * (z * p1 - p0) / (z * z - 1.0);
            return p1;
        };
        for (int i = 0; i < n; ++i) {
            double z = std::cos(pi * (i + 0.75) / (n + 0.5)), dp = 0.0;
            for (int it = 0; it < 50; ++it) {
                const double dz = legendre(z, dp) / dp;
                z -= dz;
                if (std::fabs(dz) <= 1e-17) break;
            }
            legendre(z, dp);
            r.node[i] = z;
            r.weight[i] = 2.0 / ((1.0 - z * z) * dp * dp);
        }
        return r;
    }();
    return rule;
}

struct WrittenForce {
    static constexpr const char* id = "written_force";
    static constexpr bool couples_bodies = false, internal = false, uniform_acceleration = false;
    static constexpr unsigned closed_forms = closed_form_none;

    static bool present(const System& s) { return s.written.present; }

    // The expressions' variables for body i at (x, v, t): x, y, vx, vy, t, m, c1..c4 (ExprVar order).
    static void variables(const System& s, int i, dvec2 x, dvec2 v, double t, double* vars) {
        vars[0] = x.x;
        vars[1] = x.y;
        vars[2] = v.x;
        vars[3] = v.y;
        vars[4] = t;
        vars[5] = s.mass[i];
        for (int k = 0; k < 4; ++k) vars[6 + k] = s.written.c[k];
    }
    // The force on body i, as written.
    static dvec2 force(const System& s, int i, dvec2 x, dvec2 v, double t) {
        double vars[expr_var_count];
        variables(s, i, x, v, t, vars);
        return dvec2(s.written.fx.eval(vars), s.written.fy.eval(vars));
    }

    // One branch per evaluation, none per body (the single-trajectory path without it pays that).
    static void add_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double t) {
        if (!present(s)) return;
        const double* inv_m = s.inv_mass.data();
        for (int i = 0; i < s.bodies(); ++i) a[i] += inv_m[i] * force(s, i, x[i], v[i], t);
    }

    // What of the force depends on the velocity, (F(x, v, t) − F(x, 0, t))/m, added to a: yoshida4's
    // kicks beside damping take every force at v = 0 between the dampers' exact flows, and a
    // written force has no flow, so its velocity part rides with the kick (first order in it, but
    // the force the user wrote). Nothing when the expressions read no velocity.
    static void add_velocity_part(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double t) {
        const Expression &fx = s.written.fx, &fy = s.written.fy;
        if (!present(s) || !(fx.uses(ExprVar::vx) || fx.uses(ExprVar::vy) || fy.uses(ExprVar::vx) || fy.uses(ExprVar::vy)))
            return;
        for (int i = 0; i < s.bodies(); ++i)
            a[i] += s.inv_mass[i] * (force(s, i, x[i], v[i], t) - force(s, i, x[i], dvec2(0.0), t));
    }

    // F = −∇U when fx reads x alone and fy y alone (and neither t, vx, vy): see above. Whether it
    // has a potential where the motion starts is decided once, by decide_potential, and kept in
    // s.written (potential, exact_potential, and why not).
    static bool reads_own_coordinate_only(const System& s) {
        const Expression &fx = s.written.fx, &fy = s.written.fy;
        for (ExprVar w : {ExprVar::t, ExprVar::vx, ExprVar::vy})
            if (fx.uses(w) || fy.uses(w)) return false;
        return !fx.uses(ExprVar::y) && !fy.uses(ExprVar::x);
    }
    static bool conservative(const System& s) { return present(s) && s.written.potential; }

    // ∫₀^to of component `f` along its own axis (axis 0: x, 1: y; the other variables 0), for body i:
    // the 16-point Gauss–Legendre rule over [0, to] in one panel. Exact (to round-off) for a
    // polynomial of degree ≤ 31 over any interval, which is where it alone is used. (It once split
    // [0, to] into up to 64 panels at most 8 long: the same value to round-off, since the rule is
    // exact on each, at 64 times the cost where a diverging lane had run far; a state within 8 of
    // the origin was one panel then too, so the pinned Duffing outputs keep their bits.)
    static double integral(const System& s, int i, const Expression& f, int axis, double to) {
        if (to == 0.0) return 0.0;
        if (!std::isfinite(to)) return std::numeric_limits<double>::quiet_NaN();  // no energy at a non-finite state
        const GaussLegendre16& gl = gauss_legendre16();
        const double half = 0.5 * to, mid = half;
        double vars[expr_var_count];
        variables(s, i, dvec2(0.0), dvec2(0.0), 0.0, vars);
        double part = 0.0;
        for (int j = 0; j < GaussLegendre16::n; ++j) {
            vars[axis] = mid + half * gl.node[j];
            part += gl.weight[j] * f.eval(vars);
        }
        quadrature_nodes() += GaussLegendre16::n;
        return half * part;
    }
    // The expression evaluations this thread's potential quadratures have made, a running total:
    // energy is not a force evaluation, and a written force's potential costs 16 of them a panel,
    // up to adaptive_max_panels panels a body where the force is not a polynomial. A caller that
    // bounds its work (Simulation::work, SimulationWork) counts them from its own start.
    static long long& quadrature_nodes() {
        thread_local long long nodes = 0;
        return nodes;
    }

    // The same integral for any other force, adaptively: a panel's 16-point value is compared with
    // the sum over its two parts (split off the middle: see split), and a panel whose two differ by more than
    // adaptive_tolerance × ∫|f| (estimated over the whole path) is split again, depth first. The
    // halves' sum of every accepted panel is the result; a smooth force is then integrated to
    // round-off wherever the path lies (the halves are far more accurate than the difference that
    // accepts them). Where it cannot be: `gap` says why and `near` where.
    //  - not_finite: the force is not a finite number at a node (`near` is the node);
    //  - not_integrable: a panel still disagrees with its halves after adaptive_max_depth
    //    splits, or the panels ran out: a pole (1/(1−x)², tan x, 1/(1−x)) or a singularity too
    //    sharp to integrate to that accuracy (1/√|1−x|), refused rather than guessed (`near` is
    //    that panel's middle).
    enum class Gap : unsigned char { none, not_finite, not_integrable };
    struct Integral {
        double value = 0.0;
        Gap gap = Gap::none;
        double near = 0.0;
    };
    static constexpr double adaptive_tolerance = 1e-13;
    // Where a panel is split, as a fraction of it: off the middle, because the nodes of a panel and
    // of its two halves are symmetric about its middle, so an odd pole there (1/(1−x) over [0, 2])
    // cancels in both alike and would pass as integrable (with 0).
    static constexpr double split = 15.0 / 32.0;
    static constexpr int adaptive_max_depth = 50;
    static constexpr int adaptive_max_panels = 1000;
    static Integral integral_adaptive(const System& s, int i, const Expression& f, int axis, double to);
    // One component's integral from 0 to `to` (NaN where the path has a gap: that state has no energy).
    static double part(const System& s, int i, const Expression& f, int axis, double to) {
        if (s.written.exact_potential) return integral(s, i, f, axis, to);
        const Integral r = integral_adaptive(s, i, f, axis, to);
        return r.gap == Gap::none ? r.value : std::numeric_limits<double>::quiet_NaN();
    }
    // U of body i at x (the force has a potential).
    static double potential_of(const System& s, int i, dvec2 x) {
        return -(part(s, i, s.written.fx, 0, x.x) + part(s, i, s.written.fy, 1, x.y));
    }

    // Decides once whether the force has a potential zero at the origin, from every body's start
    // x0, and if not, why (s.written.no_potential: a message code, its arguments). None when it
    // reads t, a velocity or the other coordinate (docs/config.md says so; no note); none when
    // it is not finite at the origin (1/x); none when the path from 0 to a body's start crosses a
    // point where it is not finite or not integrable (a pole: the potential zero at the origin
    // does not exist there). Then the energy is the kinetic energy plus the other forces'
    // potentials, and the force's work changes it.
    static void decide_potential(System& s, const dvec2* x0);
    static void add_potential(const System& s, const dvec2* x, double& e) {
        if (!conservative(s)) return;
        for (int i = 0; i < s.bodies(); ++i) e += potential_of(s, i, x[i]);
    }
    static void add_power(const System&, const dvec2*, const dvec2*, double&) {}  // its work is not "dissipated": see above

    // Forces (acceleration_jacobian_blocks divides by the mass): row-major d/dx, d/dy of (Fx, Fy)
    // and the same by vx, vy, from one forward-mode pass per component.
    static void add_jacobian_blocks(const System& s, const dvec2* x, const dvec2* v, double* dadx, double* dadv,
                                    double t) {
        if (!present(s)) return;
        for (int i = 0; i < s.bodies(); ++i) {
            double vars[expr_var_count], gx[expr_grad_count], gy[expr_grad_count];
            variables(s, i, x[i], v[i], t, vars);
            s.written.fx.eval_grad(vars, gx);
            s.written.fy.eval_grad(vars, gy);
            double* jx = dadx + 4 * i;
            double* jv = dadv + 4 * i;
            jx[0] += gx[0], jx[1] += gx[1], jx[2] += gy[0], jx[3] += gy[1];
            jv[0] += gx[2], jv[1] += gx[3], jv[2] += gy[2], jv[3] += gy[3];
        }
    }
    // Accelerations, on the diagonal blocks of the dense form.
    static void add_jacobian_dense(const System& s, const dvec2* x, const dvec2* v, double* dadx, double* dadv, double t) {
        if (!present(s)) return;
        const int n = 2 * s.bodies();
        for (int i = 0; i < s.bodies(); ++i) {
            double vars[expr_var_count], g[2][expr_grad_count];
            variables(s, i, x[i], v[i], t, vars);
            s.written.fx.eval_grad(vars, g[0]);
            s.written.fy.eval_grad(vars, g[1]);
            const double im = s.inv_mass[i];
            for (int r = 0; r < 2; ++r)
                for (int c = 0; c < 2; ++c) {
                    dadx[(2 * i + r) * n + 2 * i + c] += im * g[r][c];
                    dadv[(2 * i + r) * n + 2 * i + c] += im * g[r][2 + c];
                }
        }
    }

    static bool linear(const System& s) { return !present(s); }
    static bool dissipative(const System&) { return false; }  // see above
    static bool has_flow(const System& s) { return !present(s); }
    static void count_forces(const System& s, int* forces, char*) {
        for (int i = 0; i < s.bodies(); ++i) ++forces[i];
    }
    // No flow: the semi-implicit terms at the step's start (x0, v0, t).
    template <bool traced>
    static void kinematic_increment(KinematicPass& p) {
        if (!present(p.s)) return;
        const double* inv_m = p.s.inv_mass.data();
        for (int i = 0; i < p.s.bodies(); ++i)
            p.template add_semi_implicit<traced>(i, (p.h * inv_m[i]) * force(p.s, i, p.x[i], p.v[i], p.t));
        if constexpr (traced) p.show(p, {"written force", 0, p.no_closed_form});
    }
    static void describe(const System&, SceneDrawing&) {}  // not drawn (the page names it)
    static bool keeps_angular_momentum(const System& s, bool&, dvec2&) { return !present(s); }
};

}  // namespace stepwise
