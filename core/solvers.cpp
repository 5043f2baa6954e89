#include "solvers.hpp"

#include "forces/force_kind.hpp"
#include "step_observer.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace stepwise {

SolverRows build_solver_rows(const System& s) {
    SolverRows rows;
    for_each_force_kind([&]<class K>() {
        if constexpr (SolverRowKind<K>) K::add_solver_rows(s, rows);
    });
    rows.index_bodies(s.bodies());
    return rows;
}

namespace {

// The external forces at (x, v): one force evaluation, shown to the observer as stage `name`.
inline void external(const System& s, Lane& L, const dvec2* x, const dvec2* v, dvec2* a, StageName name) {
    solver_external_accelerations(s, x, v, a, L.t);  // at the substep's start (every call is)
    ++L.force_evaluations;
    if (L.observer) L.observer->stage(StageKind::evaluation, name, x, v, a);
}

// A pass over the rows ends: one unit of work, counted and shown as a force evaluation is (a pass
// visits every row once as an evaluation visits every force once; IntegratorInfo::evaluations_note),
// with the positions and velocities it leaves and no acceleration.
inline void pass_done(Lane& L, StageName name) {
    ++L.force_evaluations;
    if (L.observer) L.observer->stage(StageKind::evaluation, name, L.x.data(), L.v.data(), nullptr);
}

inline void report(const Lane& L, StageName name, const dvec2* x, const dvec2* v) {
    if (L.observer) L.observer->stage(StageKind::state, name, x, v, nullptr);
}

inline int iterations_of(const Lane& L) { return std::max(1, L.iterations); }

inline double inv_mass(const System& s, int b) { return b == no_body ? 0.0 : s.inv_mass[static_cast<size_t>(b)]; }

// Moves row q's ends by w·λ·∇C: body i by w_i·λ·g, body j by −w_j·λ·g (an anchor stays).
inline void apply(const System& s, const SolverRows& r, int q, dvec2* p, double lambda, dvec2 g) {
    p[r.i[q]] += (inv_mass(s, r.i[q]) * lambda) * g;
    if (r.j[q] != no_body) p[r.j[q]] -= (inv_mass(s, r.j[q]) * lambda) * g;
}

// Row q's relative motion along g: g·(u_i − u_j) (an anchor's u is 0).
inline double along(const SolverRows& r, int q, const dvec2* u, dvec2 g) {
    const dvec2 d = r.j[q] == no_body ? u[r.i[q]] : u[r.i[q]] - u[r.j[q]];
    return g.x * d.x + g.y * d.y;
}
// The same for a displacement over the substep: g·((x_i − x0_i) − (x_j − x0_j)).
inline double moved(const SolverRows& r, int q, const dvec2* x, const dvec2* x0, dvec2 g) {
    dvec2 d = x[r.i[q]] - x0[r.i[q]];
    if (r.j[q] != no_body) d -= x[r.j[q]] - x0[r.j[q]];
    return g.x * d.x + g.y * d.y;
}

// Row q at positions x, with the sum of its ends' inverse masses w = w_i + w_j: false when no
// solver can move it (both ends fixed, or a distance row of length 0 whose direction is unknown).
inline bool movable_row(const System& s, const SolverRows& r, int q, const dvec2* x, RowGeometry& g, double& w) {
    g = row_geometry(r, q, x);
    w = inv_mass(s, r.i[q]) + inv_mass(s, r.j[q]);
    return w > 0.0 && (g.g.x != 0.0 || g.g.y != 0.0);
}

// The multipliers reset, then `iterations` Gauss–Seidel passes over the rows that can move, each
// calling visit(q, g, w) with the row's geometry at the current positions L.x; each pass counted
// and shown as `name` and its number.
template <class Visit>
void row_passes(const System& s, Lane& L, int iterations, const char* name, Visit&& visit) {
    const SolverRows& r = L.rows;
    std::fill(L.row_lambda.begin(), L.row_lambda.end(), 0.0);
    for (int it = 0; it < iterations; ++it) {
        for (int q = 0; q < r.size(); ++q) {
            RowGeometry g;
            double w;
            if (movable_row(s, r, q, L.x.data(), g, w)) visit(q, g, w);
        }
        L.row_visits += r.size();
        pass_done(L, {name, it + 1});
    }
}

// The velocity-level methods' first stage (soft_step, sequential_impulses): v += h·a_ext(x, v).
void integrate_velocities(const System& s, Lane& L, double h, dvec2* a) {
    external(s, L, L.x.data(), L.v.data(), a, {"external forces"});
    for (int i = 0; i < s.bodies(); ++i) L.v[i] += h * a[i];
    report(L, {"velocities v += h·a_ext"}, L.x.data(), L.v.data());
}

// The prediction every position-based method starts from (pbd, xpbd, vbd): the external forces at
// the start, v̂ = v₀ + h·a_ext(x₀, v₀), x̃ = x₀ + h·v̂ (x₀ kept in x0, x̃ written to L.x, v̂ to L.v).
void predict(const System& s, Lane& L, double h, dvec2* a, dvec2* x0) {
    const int n = s.bodies();
    external(s, L, L.x.data(), L.v.data(), a, {"external forces"});
    for (int i = 0; i < n; ++i) {
        x0[i] = L.x[i];
        L.v[i] += h * a[i];
        L.x[i] += h * L.v[i];
    }
    report(L, {"prediction x̃ = x₀ + h·(v₀ + h·a_ext)"}, L.x.data(), L.v.data());
}

// v = (x − x₀)/h: the velocity the positions moved with.
void velocity_from_positions(const System& s, Lane& L, double h, const dvec2* x0) {
    for (int i = 0; i < s.bodies(); ++i) L.v[i] = (L.x[i] - x0[i]) / h;
    report(L, {"velocity v = (x − x₀)/h"}, L.x.data(), L.v.data());
}

// b2MakeSoft (Box2D v3.0) in terms of ω = 2π·hertz: a soft row's impulse is
//   P = −massScale·m_eff·(Ċ + biasRate·C) − impulseScale·P_accumulated,
// which is implicit Euler of a spring of stiffness m_eff·ω² and damper 2ζ·m_eff·ω on C over h:
// with a₁ = 2ζ + hω, a₂ = hω·a₁: biasRate = ω/a₁, massScale = a₂/(1 + a₂), impulseScale = 1/(1 + a₂).
// ω = 0 is a rigid row: no bias, the full mass, no impulse memory.
struct Softness {
    double bias_rate, mass_scale, impulse_scale;
};
Softness make_soft(double omega, double zeta, double h) {
    if (omega == 0.0) return {0.0, 1.0, 0.0};
    const double a1 = 2.0 * zeta + h * omega;
    const double a2 = h * omega * a1;
    const double a3 = 1.0 / (1.0 + a2);
    return {omega / a1, a2 * a3, a3};
}

}  // namespace

// ---------------------------------------------------------------------------------------
// PBD (Müller, Heidelberger, Hennix, Ratcliff 2007). Each row is projected as a rigid constraint,
// whatever its compliance: the linearised step that zeroes C, shared by the ends by inverse mass,
//   Δλ = −C/(w_i + w_j),  x_i += k'·w_i·Δλ·∇C,  x_j −= k'·w_j·Δλ·∇C,
// scaled by k' = 1 − (1 − s)^(1/n) so that n iterations remove the fraction 1 − (1 − k')ⁿ = s of an
// error, whatever n is (the paper's scaling of its stiffness k). A link's damping is not used either (the paper damps
// velocities globally, not per constraint).
void pbd_step(const System& s, Lane& L, double h) {
    const SolverRows& r = L.rows;
    const int iterations = iterations_of(L), rows = r.size();
    dvec2 *a = L.stage[0].data(), *x0 = L.stage[1].data(), *x = L.x.data();
    predict(s, L, h, a, x0);
    const double k = 1.0 - std::pow(1.0 - L.pbd_stiffness, 1.0 / iterations);
    row_passes(s, L, iterations, "projection ", [&](int q, const RowGeometry& g, double w) {
        const double dl = -k * g.c / w;
        L.row_lambda[q] += dl;
        apply(s, r, q, x, dl, g.g);
    });
    velocity_from_positions(s, L, h, x0);
    // The position multiplier λ moved the ends by w·λ·∇C in h: a force λ/h² along ∇C on body i.
    // h² is at least 1e-24 for any config (dt_min over max_lane_substeps; 6e-32 at a convergence
    // study's finest level, 2^-12 of that), far from underflowing (below h ≈ 1e-162 it was 0, and
    // the tension NaN).
    for (int q = 0; q < rows; ++q) L.row_tension[q] = -L.row_lambda[q] / (h * h);
}

// ---------------------------------------------------------------------------------------
// XPBD (Macklin, Müller, Chentanez 2016). A row of compliance α is the potential C²/(2α); implicit
// Euler's step on it, linearised and solved by Gauss–Seidel over the rows, is the paper's Δλ update
// (with its damped form, γ = α̃·β̃/h, β̃ = h²·c for a dissipation potential ½·c·Ċ²)
//   α̃ = α/h²,  γ = α̃·(h²·c)/h = α·c/h,
//   Δλ = (−C − α̃·λ − γ·∇C·(x − x₀)) / ((1 + γ)(w_i + w_j) + α̃),
//   λ += Δλ,  x_i += w_i·Δλ·∇C,  x_j −= w_j·Δλ·∇C,
// λ starting at 0 every substep. The row's force on body i is λ·∇C/h² (the multiplier of the
// constraint force times h²): its tension, pulling the ends together, −λ/h². α = 0: rigid.
void xpbd_step(const System& s, Lane& L, double h) {
    const SolverRows& r = L.rows;
    const int iterations = iterations_of(L), rows = r.size();
    dvec2 *a = L.stage[0].data(), *x0 = L.stage[1].data(), *x = L.x.data();
    predict(s, L, h, a, x0);
    const double h2 = h * h;
    row_passes(s, L, iterations, "projection ", [&](int q, const RowGeometry& g, double w) {
        const double alpha = r.compliance[q] / h2;
        const double gamma = r.compliance[q] * r.damping[q] / h;
        const double dl =
            (-g.c - alpha * L.row_lambda[q] - gamma * moved(r, q, x, x0, g.g)) / ((1.0 + gamma) * w + alpha);
        L.row_lambda[q] += dl;
        apply(s, r, q, x, dl, g.g);
    });
    velocity_from_positions(s, L, h, x0);
    for (int q = 0; q < rows; ++q) L.row_tension[q] = -L.row_lambda[q] / h2;  // h2 far from 0: see pbd_step
}

// ---------------------------------------------------------------------------------------
// Velocity-level passes over the rows, shared by soft_step and sequential_impulses: each row's
// impulse P along ∇C changes v_i by w_i·P·∇C and v_j by −w_j·P·∇C; P accumulates in row_lambda.
namespace {

// Box2D v3's solve (use_bias) or relax pass over the rows at positions x. A rigid row is soft at
// the joint softness in the solve pass and rigid without bias in the relax pass (Box2D's useBias);
// a compliant row is a spring of stiffness k = 1/α and damper c along it, which Box2D's distance
// joint expresses as a frequency and damping ratio of the row's effective mass m = 1/(w_i + w_j),
//   ω = √(k/m) = √((w_i + w_j)/α),  ζ = c/(2·m·ω),
// and applies in both passes (its spring is physics, not error correction).
void soft_pass(const System& s, Lane& L, double h, const dvec2* x, bool use_bias, Softness joint) {
    const SolverRows& r = L.rows;
    dvec2* v = L.v.data();
    L.row_visits += r.size();
    for (int q = 0; q < r.size(); ++q) {
        RowGeometry g;
        double w;
        if (!movable_row(s, r, q, x, g, w)) continue;
        Softness soft{0.0, 1.0, 0.0};
        if (r.compliance[q] > 0.0) {
            const double omega = std::sqrt(w / r.compliance[q]);
            soft = make_soft(omega, r.damping[q] * w / (2.0 * omega), h);
        } else if (use_bias) {
            soft = joint;
        }
        const double impulse = -soft.mass_scale / w * (along(r, q, v, g.g) + soft.bias_rate * g.c) -
                               soft.impulse_scale * L.row_lambda[q];
        L.row_lambda[q] += impulse;
        apply(s, r, q, v, impulse, g.g);
    }
}

}  // namespace

// Box2D v3's soft step (Catto, Solver2D's soft_step, 2024) for point masses, one substep:
//   v += h·a_ext(x, v)                       (integrate velocities)
//   warm start: v_i += w_i·P·∇C, v_j −= w_j·P·∇C with each row's accumulated impulse P from the
//                last substep, along its axis at the current positions (b2WarmStartDistanceJoint)
//   n solve passes with the soft bias        (Box2D: one)
//   x += h·v                                 (integrate positions)
//   one relax pass without the rigid rows' bias (removes the velocity the bias added)
// P lives in row_lambda and carries over from substep to substep and from step to step (Box2D's
// joint impulse); the solve and relax passes add onto it, so after a substep it is the whole
// impulse the row applied in that substep (the warm start plus the passes' increments) and the
// next substep starts from it. A row that cannot move (both ends fixed, or a zero-length distance
// row) is skipped and keeps its P. Lane::reset zeroes P: a reset lane starts cold. Tension: the
// impulse over h.
void soft_step(const System& s, Lane& L, double h) {
    const SolverRows& r = L.rows;
    const int n = s.bodies(), iterations = iterations_of(L), rows = r.size();
    dvec2* v = L.v.data();
    integrate_velocities(s, L, h, L.stage[0].data());
    for (int q = 0; q < rows; ++q) {
        RowGeometry g;
        double w;
        if (movable_row(s, r, q, L.x.data(), g, w)) apply(s, r, q, v, L.row_lambda[q], g.g);
    }
    report(L, {"warm start v += w·P·∇C"}, L.x.data(), v);
    // The rigid rows' softness: Box2D v3.0's joint defaults, the frequency capped at 1/8 of the
    // substep rate (solvers.hpp).
    using namespace solver_constants;
    const double hertz = std::min(joint_hertz, joint_hertz_cap / h);
    const Softness joint = make_soft(2.0 * std::numbers::pi * hertz, joint_damping_ratio, h);
    for (int it = 0; it < iterations; ++it) {
        soft_pass(s, L, h, L.x.data(), true, joint);
        pass_done(L, {"solve ", it + 1});
    }
    for (int i = 0; i < n; ++i) L.x[i] += h * v[i];
    report(L, {"positions x += h·v"}, L.x.data(), v);
    soft_pass(s, L, h, L.x.data(), false, joint);
    pass_done(L, {"relax"});
    for (int q = 0; q < rows; ++q) L.row_tension[q] = -L.row_lambda[q] / h;
}

// ---------------------------------------------------------------------------------------
// Sequential impulses (Catto; Solver2D's pgs, Box2D v2.4): velocities first, then n Gauss–Seidel
// passes of impulses at the start positions, then positions from the new velocities:
//   v += h·a_ext(x, v)
//   rigid row:      P = −m·(Ċ + (β/h)·C)            (Baumgarte: Ċ driven to −β·C/h)
//   compliant row:  γ = 1/(h·(c + h·k)),  b = C·h·k·γ,  P = −(Ċ + b + γ·P_acc)/(w_i + w_j + γ)
//                   (Box2D v2.4's soft distance joint: implicit Euler of the spring-damper on C)
//   x += h·v
// m = 1/(w_i + w_j), β = Lane::baumgarte. Tension: the accumulated impulse over h.
void sequential_impulses_step(const System& s, Lane& L, double h) {
    const SolverRows& r = L.rows;
    const int n = s.bodies(), iterations = iterations_of(L), rows = r.size();
    dvec2 *x = L.x.data(), *v = L.v.data();
    integrate_velocities(s, L, h, L.stage[0].data());
    row_passes(s, L, iterations, "impulses ", [&](int q, const RowGeometry& g, double w) {
        const double cdot = along(r, q, v, g.g);
        double impulse;
        if (r.compliance[q] == 0.0) {
            impulse = -(cdot + (L.baumgarte / h) * g.c) / w;
        } else {
            const double k = 1.0 / r.compliance[q];
            const double gamma = 1.0 / (h * (r.damping[q] + h * k));
            impulse = -(cdot + g.c * h * k * gamma + gamma * L.row_lambda[q]) / (w + gamma);
        }
        L.row_lambda[q] += impulse;
        apply(s, r, q, v, impulse, g.g);
    });
    for (int i = 0; i < n; ++i) x[i] += h * v[i];
    report(L, {"positions x += h·v"}, x, v);
    for (int q = 0; q < rows; ++q) L.row_tension[q] = -L.row_lambda[q] / h;
}

// ---------------------------------------------------------------------------------------
// Vertex block descent (Chen, Macklin, Yuksel et al. 2024) with the augmented Lagrangian of Giles,
// Diaz, Yuksel 2025 for rigid rows. Implicit Euler's step minimises
//   G(x) = Σ_b m_b/(2h²)·|x_b − x̃_b|² + Σ_q E_q(x),
// E_q = ½·k·C² + λ·C for a row (a compliant row: k = 1/α, λ = 0; a rigid row: k the penalty and λ
// the multiplier estimate), plus a link's damper as (c/2h)·(∇C·(x − x₀))² (its gradient is
// c·Ċ·∇C with Ċ over the substep: implicit Euler's damping force). Each iteration visits the
// bodies in order and takes one Newton step on G as a function of that body's x_b alone:
//   f = −(m_b/h²)(x_b − x̃_b) − Σ_q (k·C + λ + (c/h)·∇C·Δx)·σ·g,
//   H = (m_b/h²)·I + Σ_q [(k + c/h)·g gᵀ + max(0, k·C + λ)/|d|·(I − g gᵀ)],   x_b += H⁻¹ f,
// σ = ±1 as b is the row's i or j, g = ∇_i C; the geometric term (I − g gᵀ)/|d| of a distance row
// is kept only where it is positive semidefinite (a stretched row), as VBD does. After each sweep
// a rigid row's multiplier and penalty are updated: λ ← λ + k·C, k ← k + β·|C|, from k = m/h²
// (solvers.hpp). With every row compliant and only constant external forces, the sweeps converge
// to implicit Euler's step. v = (x − x₀)/h.
void vbd_step(const System& s, Lane& L, double h) {
    const SolverRows& r = L.rows;
    const int n = s.bodies(), iterations = iterations_of(L), rows = r.size();
    dvec2 *a = L.stage[0].data(), *x0 = L.stage[1].data(), *target = L.stage[2].data(), *x = L.x.data();
    predict(s, L, h, a, x0);
    std::copy(x, x + n, target);  // x̃, and the first iterate
    const double h2 = h * h;
    for (int q = 0; q < rows; ++q) {
        L.row_lambda[q] = 0.0;
        L.row_penalty[q] = r.compliance[q] > 0.0 ? 1.0 / r.compliance[q]
                                                 : 1.0 / ((inv_mass(s, r.i[q]) + inv_mass(s, r.j[q])) * h2);
    }
    for (int it = 0; it < iterations; ++it) {
        for (int b = 0; b < n; ++b) {
            const double inertia = s.mass[static_cast<size_t>(b)] / h2;
            dvec2 f = -inertia * (x[b] - target[b]);
            double h00 = inertia, h01 = 0.0, h11 = inertia;
            for (int e = r.body_start[b]; e < r.body_start[b + 1]; ++e) {
                const int q = r.body_rows[static_cast<size_t>(e)];
                const RowGeometry g = row_geometry(r, q, x);
                if (g.g.x == 0.0 && g.g.y == 0.0) continue;
                const double sigma = r.i[q] == b ? 1.0 : -1.0;
                const double k = L.row_penalty[q], c = r.damping[q] / h;
                const double force = k * g.c + L.row_lambda[q];
                f -= (force + c * moved(r, q, x, x0, g.g)) * sigma * g.g;
                const double kk = k + c;
                h00 += kk * g.g.x * g.g.x;
                h01 += kk * g.g.x * g.g.y;
                h11 += kk * g.g.y * g.g.y;
                if (g.length > 0.0 && force > 0.0) {
                    const double geo = force / g.length;
                    h00 += geo * (1.0 - g.g.x * g.g.x);
                    h01 -= geo * g.g.x * g.g.y;
                    h11 += geo * (1.0 - g.g.y * g.g.y);
                }
            }
            const double det = h00 * h11 - h01 * h01;
            if (!(det > 0.0)) continue;
            x[b] += dvec2((h11 * f.x - h01 * f.y) / det, (h00 * f.y - h01 * f.x) / det);
        }
        for (int q = 0; q < rows; ++q) {
            if (r.compliance[q] > 0.0) continue;
            const double c = row_geometry(r, q, x).c;
            L.row_lambda[q] += L.row_penalty[q] * c;
            L.row_penalty[q] += solver_constants::avbd_beta * std::fabs(c);
        }
        L.row_visits += 3LL * rows;  // each row from both its bodies, then its multiplier
        pass_done(L, {"sweep ", it + 1});
    }
    velocity_from_positions(s, L, h, x0);
    // The row's force on body i is −(k·C + λ + c·Ċ)·∇C: its tension. A rigid row's λ after the
    // last update is k·C + λ of the final positions.
    for (int q = 0; q < rows; ++q) {
        const RowGeometry g = row_geometry(r, q, x);
        L.row_tension[q] = r.compliance[q] > 0.0
                               ? g.c / r.compliance[q] + r.damping[q] / h * moved(r, q, x, x0, g.g)
                               : L.row_lambda[q];
    }
}

}  // namespace stepwise
