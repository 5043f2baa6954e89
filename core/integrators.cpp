#include "integrators.hpp"

#include "exact.hpp"
#include "forces/force_kind.hpp"
#include "kepler.hpp"
#include "linear_solve.hpp"
#include "solvers.hpp"
#include "step_observer.hpp"
#include "table_lookup.hpp"
#include "turning.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stepwise {

void Lane::reset(const dvec2* x0, const dvec2* v0) {
    const double* q0 = reinterpret_cast<const double*>(x0);
    const double* u0 = reinterpret_cast<const double*>(v0);
    std::copy(q0, q0 + x.count(), x.flat());
    std::copy(u0, u0 + v.count(), v.flat());
    started = false;
    substep = 0.0;
    t = 0.0;
    force_maps_h = 0.0;
    force_evaluations = newton_failures = rejected_substeps = row_visits = 0;
    gave_up = false;
    in_step = false;
    unsolved = false;
    dissipated = 0.0;
    // The solvers' carried multipliers (soft_step's accumulated impulses; the others restart
    // theirs every substep): a reset lane starts cold.
    std::fill(row_lambda.begin(), row_lambda.end(), 0.0);
    std::fill(row_penalty.begin(), row_penalty.end(), 0.0);
}

namespace {

// ---------------------------------------------------------------------------------------
// Small helpers over contiguous arrays. n is the body count throughout.

// Every force evaluation of every method goes through here: a = F(x, v, t)/m, counted, and shown
// to the lane's observer (if any) as stage `name`. One branch per evaluation when nobody watches.
// t is the stage's own time: the step's start L.t plus the stage's offset (a written force may
// read it; every other force ignores it). Each method's calls say which offset, beside its update.
inline void eval(const System& s, Lane& L, const dvec2* x, const dvec2* v, dvec2* a, double t, StageName name) {
    accelerations(s, x, v, a, t);
    ++L.force_evaluations;
    if (L.observer) L.observer->stage(StageKind::evaluation, name, x, v, a);
}

// A point of the step that is not an evaluation (a carried acceleration, a half-step velocity, a
// previous position, a force's increment): shown to the observer, if any. nullptr: no such column.
inline void report(const Lane& L, StageName name, const dvec2* x, const dvec2* v, const dvec2* a,
                   StageKind kind = StageKind::state) {
    if (L.observer) L.observer->stage(kind, name, x, v, a);
}

// out = base + c * dir
inline void axpy(int n, dvec2* out, const dvec2* base, double c, const dvec2* dir) {
    for (int i = 0; i < n; ++i) out[i] = base[i] + c * dir[i];
}

// ---------------------------------------------------------------------------------------
// The implicit Euler step (the other fixed-step methods are in fixed_steps.inc, below)

// Backward Euler: v1 = v0 + h a(x0 + h v1, v1), x1 = x0 + h v1. Newton's method on
// G(v1) = v1 - v0 - h a(x0 + h v1, v1), with dG/dv1 = I - h (h da/dx + da/dv).
// Starting from v1 = v0, a linear system converges after one update (two evaluations).
void implicit_euler(const System& s, Lane& L, double h) {
    const int n = s.bodies();
    dvec2* v1 = L.stage[0].data();
    dvec2* x1 = L.stage[1].data();
    dvec2* a = L.stage[2].data();
    dvec2* delta = L.stage[3].data();
    std::copy(L.v.begin(), L.v.end(), v1);
    const bool coupled = s.couples_bodies();
    bool converged = false;
    L.unsolved = false;
    for (int it = 0; it < implicit_euler_max_iterations && !converged; ++it) {
        axpy(n, x1, L.x.data(), h, v1);
        eval(s, L, x1, v1, a, L.t + h, {"newton ", it + 1});  // the iterate v1 and its x1 = x0 + h v1, at t + h
        bool solved = true;
        if (!coupled) {
            acceleration_jacobian_blocks(s, x1, v1, L.jx.data(), L.jv.data(), L.t + h);
            for (int i = 0; i < n; ++i) {
                const double* jx = &L.jx[4 * i];
                const double* jv = &L.jv[4 * i];
                const double m00 = 1.0 - h * (h * jx[0] + jv[0]), m01 = -h * (h * jx[1] + jv[1]);
                const double m10 = -h * (h * jx[2] + jv[2]), m11 = 1.0 - h * (h * jx[3] + jv[3]);
                const dvec2 r = -(v1[i] - L.v[i] - h * a[i]);
                const double det = m00 * m11 - m01 * m10;
                if (det == 0.0) { solved = false; break; }
                delta[i] = dvec2((m11 * r.x - m01 * r.y) / det, (m00 * r.y - m10 * r.x) / det);
            }
        } else {
            const int dim = 2 * n;
            acceleration_jacobian_dense(s, x1, v1, L.jx.data(), L.jv.data(), L.t + h);
            // The Newton matrix I − h (h Jx + Jv) (whose zeros are +0: 0 − (±0)) and −G.
            auto entry = [&](int r, int c) {
                return (r == c ? 1.0 : 0.0) - h * (h * L.jx[r * dim + c] + L.jv[r * dim + c]);
            };
            auto residual = [&]() {
                for (int i = 0; i < n; ++i) {
                    const dvec2 g = v1[i] - L.v[i] - h * a[i];
                    L.rhs[2 * i] = -g.x;
                    L.rhs[2 * i + 1] = -g.y;
                }
            };
            residual();
            BandSolve banded = BandSolve::not_finite;
            if (L.band_kl > 0) {
                // Bodies coupled only to near ones (a chain): the band, the same numbers.
                const Band b{dim, L.band_kl, L.band_kl};
                std::fill(L.mat.begin(), L.mat.begin() + static_cast<std::ptrdiff_t>(b.size()), 0.0);
                for (int r = 0; r < dim; ++r)
                    for (int c = std::max(0, r - b.kl); c <= std::min(dim - 1, r + b.ku); ++c)
                        b.at(L.mat.data(), r, c) = entry(r, c);
                banded = solve_banded(b, L.mat.data(), L.rhs.data());
                solved = banded == BandSolve::solved;
            }
            if (banded == BandSolve::not_finite) {
                // Dense, or an infinity or NaN on the way, where only the dense solve says what it gives.
                if (L.band_kl > 0) residual();
                for (int r = 0; r < dim; ++r)
                    for (int c = 0; c < dim; ++c) L.mat[r * dim + c] = entry(r, c);
                solved = solve_dense(dim, L.mat.data(), L.rhs.data());
            }
            for (int i = 0; i < n && solved; ++i) delta[i] = dvec2(L.rhs[2 * i], L.rhs[2 * i + 1]);
        }
        if (!solved) break;
        double step_norm = 0.0, v_norm = 0.0;
        for (int i = 0; i < n; ++i) {
            v1[i] += delta[i];
            step_norm = std::max({step_norm, std::fabs(delta[i].x), std::fabs(delta[i].y)});
            v_norm = std::max({v_norm, std::fabs(v1[i].x), std::fabs(v1[i].y)});
        }
        converged = step_norm <= implicit_euler_tolerance * (1.0 + v_norm);
    }
    if (!converged) {
        ++L.newton_failures;
        L.unsolved = true;  // bounded work: the caller stops the lane with the reason
        report(L, {"gave up: Newton's iteration found no implicit-Euler step"}, nullptr, nullptr, nullptr,
               StageKind::note);
    }
    for (int i = 0; i < n; ++i) {
        L.x[i] += h * v1[i];
        L.v[i] = v1[i];
    }
}

// Dormand–Prince 5(4) with error control, integrating each outer step of size h with as
// many internal substeps as the tolerance needs. The first-same-as-last slope is reused.
namespace dp {
// The nodes: stage j is at the substep's start + c[j]·hs (k7, the next k1, at its end).
constexpr double c[7] = {0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0};
constexpr double a21 = 1.0 / 5;
constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                 a65 = -5103.0 / 18656;
// Row j holds stage j's coefficients a_j1 .. a_j(j-1) (row 0: the start, none).
constexpr double rows[6][5] = {{0, 0, 0, 0, 0},      {a21, 0, 0, 0, 0},        {a31, a32, 0, 0, 0},
                               {a41, a42, a43, 0, 0}, {a51, a52, a53, a54, 0}, {a61, a62, a63, a64, a65}};
constexpr double b1 = 35.0 / 384, b3 = 500.0 / 1113, b4 = 125.0 / 192, b5 = -2187.0 / 6784, b6 = 11.0 / 84;
// Fifth- minus fourth-order weights: the local error estimate.
constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200,
                 e6 = 22.0 / 525, e7 = -1.0 / 40;
}  // namespace dp

void rk45(const System& s, Lane& L, double h) {
    using namespace dp;
    // Every coordinate of every layout (layout.hpp), one double at a time: the arithmetic is
    // componentwise, so a system of points gets the bits it got over its bodies' dvec2s.
    const int n = s.coordinates();
    auto flat = [](auto& a) { return reinterpret_cast<double*>(a.data()); };
    // The arrays as the forces and the observer read them: one dvec2 a body, then the angles.
    auto bodies = [](double* p) { return reinterpret_cast<dvec2*>(p); };
    // Stage slopes: kx = velocity, kv = acceleration.
    double* kx[7];
    double* kv[7];
    for (int j = 0; j < 7; ++j) {
        kx[j] = flat(L.stage[2 * j]);
        kv[j] = flat(L.stage[2 * j + 1]);
    }
    double *xs = flat(L.substep_start_x), *vs = flat(L.substep_start_v), *xn = flat(L.substep_end_x),
           *vn = flat(L.substep_end_v);
    double *x = L.x.flat(), *v = L.v.flat();
    // Stage j (1..5) from the slopes before it: x + hs Σ_m a_jm kx[m], v + hs Σ_m a_jm kv[m].
    double ts = L.t;  // the substep's start time
    auto stage = [&](int j, double hs) {
        for (int i = 0; i < n; ++i) {
            double dx = 0.0, dv = 0.0;
            for (int m = 0; m < j; ++m) {
                dx += rows[j][m] * kx[m][i];
                dv += rows[j][m] * kv[m][i];
            }
            xs[i] = x[i] + hs * dx;
            vs[i] = v[i] + hs * dv;
        }
        std::copy(vs, vs + n, kx[j]);
        eval(s, L, bodies(xs), bodies(vs), bodies(kv[j]), ts + c[j] * hs, {"k", j + 1});
    };
    if (L.substep <= 0.0) L.substep = h;
    double done = 0.0;
    bool first_slope_valid = L.started;
    int substeps = 0;
    bool swapped = false;
    if (L.in_step) {
        // A step in parts goes on where the last call stopped (see Lane::part_substeps).
        done = L.part_done;
        substeps = L.part_taken;
        first_slope_valid = L.part_slope_valid;
        swapped = L.part_swapped;
        if (swapped) {
            std::swap(kx[0], kx[6]);
            std::swap(kv[0], kv[6]);
        }
        L.in_step = false;
    } else if (first_slope_valid) {
        // First same as last across steps too: the slope at the state the last step ended in.
        std::copy(L.carry_v.flat(), L.carry_v.flat() + n, kx[0]);
        std::copy(L.carry_a.flat(), L.carry_a.flat() + n, kv[0]);
    }
    int this_call = 0;
    const bool dissipative = s.dissipative();
    const bool positions_in_power = dissipative && !s.links.empty();
    // Stage j's position, x + hs Σ a_jm kx[m], summed as stage() sums it (the same bits).
    auto stage_position = [&](int j, double hs, double* out) {
        for (int i = 0; i < n; ++i) {
            double dx = 0.0;
            for (int m = 0; m < j; ++m) dx += rows[j][m] * kx[m][i];
            out[i] = j == 0 ? x[i] : x[i] + hs * dx;
        }
    };
    while (done < h) {
        if (L.part_substeps > 0 && this_call >= L.part_substeps) {
            L.in_step = true;  // the rest in the next call
            L.part_done = done;
            L.part_taken = substeps;
            L.part_slope_valid = first_slope_valid;
            L.part_swapped = swapped;
            return;
        }
        ++this_call;
        if (substeps >= L.max_substeps) {
            L.gave_up = true;  // bounded work: the caller stops the lane with the reason
            report(L, {"gave up: the substep limit is reached"}, nullptr, nullptr, nullptr, StageKind::note);
            break;
        }
        double hs = std::min(L.substep, h - done);
        ts = L.t + done;
        const bool last = hs >= h - done;
        if (L.observer) L.observer->substep(substeps + 1, hs);
        if (!first_slope_valid) {
            std::copy(v, v + n, kx[0]);
            eval(s, L, bodies(x), bodies(v), bodies(kv[0]), ts, {"k1"});
            first_slope_valid = true;
        } else {
            // The slope at (x, v) is known already: the last substep's k7, or this one's before
            // a rejection.
            report(L, {"k1 (reused: not evaluated again)"}, bodies(x), bodies(kx[0]), bodies(kv[0]));
        }
        for (int j = 1; j <= 5; ++j) stage(j, hs);
        for (int i = 0; i < n; ++i) {
            xn[i] = x[i] + hs * (b1 * kx[0][i] + b3 * kx[2][i] + b4 * kx[3][i] + b5 * kx[4][i] + b6 * kx[5][i]);
            vn[i] = v[i] + hs * (b1 * kv[0][i] + b3 * kv[2][i] + b4 * kv[3][i] + b5 * kv[4][i] + b6 * kv[5][i]);
        }
        std::copy(vn, vn + n, kx[6]);
        eval(s, L, bodies(xn), bodies(vn), bodies(kv[6]), ts + hs, {"k7"});
        // The largest scaled error over every component: a maximum, the same whichever order the
        // components come in (a NaN never wins a comparison, and is caught below when nothing else is).
        double err = 0.0;
        for (int i = 0; i < n; ++i) {
            const double ex = hs * (e1 * kx[0][i] + e3 * kx[2][i] + e4 * kx[3][i] + e5 * kx[4][i] +
                                    e6 * kx[5][i] + e7 * kx[6][i]);
            const double ev = hs * (e1 * kv[0][i] + e3 * kv[2][i] + e4 * kv[3][i] + e5 * kv[4][i] +
                                    e6 * kv[5][i] + e7 * kv[6][i]);
            auto scaled = [&](double e, double y0, double y1) {
                return std::fabs(e) / (L.atol + L.rtol * std::max(std::fabs(y0), std::fabs(y1)));
            };
            err = std::max({err, scaled(ex, x[i], xn[i]), scaled(ev, v[i], vn[i])});
        }
        if (!std::isfinite(err)) err = 1e300;
        // Standard step-size control: factor 0.9 err^(-1/5), kept within [0.2, 5].
        const double factor = err == 0.0 ? 5.0 : std::clamp(0.9 * std::pow(err, -0.2), 0.2, 5.0);
        ++substeps;
        if (err > 1.0 && hs <= 1e-12 * h) {
            // The substep can no longer shrink usefully: give up rather than accept a step that
            // misses the tolerance (the caller stops the lane at its last good state).
            L.gave_up = true;
            report(L, {"gave up: the error stays above the tolerance at the smallest substep"}, nullptr, nullptr,
                   nullptr, StageKind::note);
            break;
        }
        if (err <= 1.0) {
            if (dissipative) {
                // The power removed at each stage's velocity (kx[j] holds it), weighted as the
                // solution is: the quadrature has the method's order.
                const double b[7] = {b1, 0.0, b3, b4, b5, b6, 0.0};
                double work = 0.0;
                for (int j = 0; j < 6; ++j) {
                    if (b[j] == 0.0) continue;
                    // A link's damper needs the stage's position too: rebuilt as stage() built it
                    // (xs is free now; the forces without a direction of their own ignore it).
                    if (positions_in_power) stage_position(j, hs, xs);
                    work += b[j] * dissipated_power(s, bodies(xs), bodies(kx[j]));
                }
                L.dissipated += hs * work;
            }
            std::copy(xn, xn + n, x);
            std::copy(vn, vn + n, v);
            std::swap(kx[0], kx[6]);  // first same as last
            std::swap(kv[0], kv[6]);
            swapped = !swapped;
            done = last ? h : done + hs;
            // Do not let the clipped final substep shrink the remembered step size.
            if (!last || factor < 1.0) L.substep = hs * factor;
        } else {
            ++L.rejected_substeps;
            L.substep = hs * factor;
            report(L, {"rejected: the error estimate is above the tolerance; tried again smaller"}, nullptr,
                   nullptr, nullptr, StageKind::note);
        }
        if (!std::isfinite(L.substep) || L.substep <= 0.0) L.substep = h;
    }
    if (L.observer) L.observer->substep(0, 0.0);
    std::copy(kx[0], kx[0] + n, L.carry_v.flat());
    std::copy(kv[0], kv[0] + n, L.carry_a.flat());
    L.started = true;
}

// ---------------------------------------------------------------------------------------
// The fixed-step methods, written once in fixed_steps.inc for the lane and the ensemble alike.

// Every dissipative force alone has an exact flow, and each flow only changes velocities (each
// kind's dissipative_flow, core/forces/). dissipative_flow applies them one after another over t
// (t < 0 runs them backwards, which the triple jump's middle step does), in the force table's
// order, or in reverse order when `reverse`, so that flow(t) then flow(t, reverse) is a
// symmetric composition.
template <class... K>
void dissipative_flows(std::tuple<K...>*, const System& s, const dvec2* x, dvec2* v, double t, bool reverse) {
    auto one = []<class F>(const System& s, const dvec2* x, dvec2* v, double t, bool reverse) {
        if constexpr (requires { F::dissipative_flow(s, x, v, t, reverse); }) F::dissipative_flow(s, x, v, t, reverse);
    };
    if (!reverse) {
        (one.template operator()<K>(s, x, v, t, false), ...);
    } else {
        // A fold over the reversed list: each kind's flow, last kind first (and each kind's
        // elements last first).
        int dummy = 0;
        (dummy = ... = (one.template operator()<K>(s, x, v, t, true), 0));
        (void)dummy;
    }
}

void dissipative_flow(const System& s, const dvec2* x, dvec2* v, double t, bool reverse) {
    dissipative_flows(static_cast<ForceKinds*>(nullptr), s, x, v, t, reverse);
    if (!s.rotations.empty()) angular_dissipative_flow(s, v, t);  // the torsion dampers (turning.cpp)
}

#include "fixed_steps.inc"

// fixed_steps.inc's runner for one lane: slot x is the lane's x, v its v, tmp<k> its stage[k],
// carried_x, carried_v, carried_a its carry_x, carry_v, carry_a; each array one dvec2 a body,
// walked as 2 n doubles (a dvec2 is its two components, x then y). Every evaluation and report
// goes to the lane's observer, if any.
static_assert(sizeof(dvec2) == 2 * sizeof(double), "a dvec2 array is an array of doubles");
struct LaneRun {
    const System& s;
    Lane& L;

    dvec2* at(int index) const {
        if (index == x_slot.index) return L.x.data();
        if (index == v_slot.index) return L.v.data();
        if (index < carried_x_index) return L.stage[index - first_tmp].data();
        return index == carried_x_index ? L.carry_x.data() : index == carried_v_index ? L.carry_v.data()
                                                                                      : L.carry_a.data();
    }
    template <int I>
    dvec2* at(Slot<I>) const {
        return at(I);
    }
    dvec2* at(NoSlot) const { return nullptr; }

    template <class F, int... I>
    void each(const F& f, Slot<I>...) const {
        static_assert(distinct_slots<I...>());
        // Every coordinate of every layout (layout.hpp): the bodies' (x, y), then the angles.
        pass(L.x.count(), f, reinterpret_cast<double*>(at(I))...);
    }
    // One system's few bodies: in the page's motion module (wasm, SIMD) a vectorised loop and its
    // remainder would double the code of every pass (+0.9 KB gzip over the eleven methods, measured)
    // and gain nothing on a handful of bodies. The same arithmetic in the same order either way.
    template <class F, class... P>
    static void pass(int m, const F& f, P* __restrict... p) {
#if defined(__wasm__)
#pragma clang loop vectorize(disable) interleave(disable)
#endif
        for (int k = 0; k < m; ++k) f(p[k]...);
    }
    template <class X, class V, class A>
    void eval(X x, V v, A a, double dt, StageName name) const {
        stepwise::eval(s, L, at(x), at(v), at(a), L.t + dt, name);
    }
    template <class X, class V, class A>
    void report(StageName name, X x, V v, A a) const {
        stepwise::report(L, name, at(x), at(v), at(a));
    }
    bool started() const { return L.started; }
    void start() const { L.started = true; }
    bool dissipative() const { return s.dissipative(); }
    void dissipative_flow(double t, bool reverse) const {
        stepwise::dissipative_flow(s, L.x.data(), L.v.data(), t, reverse);
    }
    template <class X, class V, class A>
    void add_velocity_part(X x, V v, A a, double dt) const {
        WrittenForce::add_velocity_part(s, at(x), at(v), at(a), L.t + dt);
    }
};

// A method of fixed_steps.inc as a step of the table.
template <class M>
void fixed(const System& s, Lane& L, double h) {
    LaneRun r{s, L};
    M::step(r, h);
}

// ---------------------------------------------------------------------------------------
// The kinematic integrator: v1 = v0 + sum dv, x1 = x0 + v0 h + sum dx, where each force
// gives the exact (dv, dx) it would cause acting alone over the step, or, without a closed
// form, the semi-implicit Euler terms dv = a h, dx = a h^2. With average = true every
// force's dx becomes dv h/2 (the average-acceleration method).

}  // namespace

int kinematic_map_count(const System& s) {
    int count = 0;
    for_each_force_kind([&]<class K>() {
        if constexpr (requires { K::kinematic_map_count(s); }) count += K::kinematic_map_count(s);
    });
    return count;
}

void kinematic_force_maps(const System& s, double h, OscillatorMap* maps) {
    for_each_force_kind([&]<class K>() {
        if constexpr (requires { K::kinematic_maps(s, h, maps); }) {
            K::kinematic_maps(s, h, maps);
            maps += K::kinematic_map_count(s);
        }
    });
}

namespace {

// Computed once per step size instead of once per body and step.
void update_force_maps(const System& s, Lane& L, double h) {
    if (L.force_maps_h == h) return;
    kinematic_force_maps(s, h, L.force_maps.data());
    L.force_maps_h = h;
}

// Traced: one force's increments as a stage, then zeros for the next force (a spring moves one
// or two bodies; the others get nothing from it). An increment of zero reads 0, never -0 (x + 0
// is +0 where x is -0).
void show_increments(KinematicPass& p, StageName name) {
    const int n = p.s.bodies();
    for (int i = 0; i < n; ++i) {
        p.inc_dx[i] += dvec2(0.0);
        p.inc_dv[i] += dvec2(0.0);
    }
    report(*static_cast<Lane*>(p.lane), name, p.inc_dx, p.inc_dv, nullptr, StageKind::increment);
    std::fill(p.inc_dv, p.inc_dv + n, dvec2(0.0));
    std::fill(p.inc_dx, p.inc_dx + n, dvec2(0.0));
}

void report_increments(KinematicPass& p, StageName name, const dvec2* dx, const dvec2* dv) {
    report(*static_cast<Lane*>(p.lane), name, dx, dv, nullptr, StageKind::increment);
}

// Every kind's increments in the table's order, each with its own maps (the layout of
// kinematic_force_maps).
template <bool traced, class... K>
void kinematic_increments(std::tuple<K...>*, KinematicPass& p) {
    auto one = [&]<class F>() {
        F::template kinematic_increment<traced>(p);
        if constexpr (requires { F::kinematic_map_count(p.s); }) p.maps += F::kinematic_map_count(p.s);
    };
    (one.template operator()<K>(), ...);
}

// traced: the same step, reporting each force's own (dx, dv) as an increment stage (the scratch
// arrays inc_dx, inc_dv hold one force's at a time). A template, so that the untraced step has
// no branch per force or body; kinematic() picks one of the two once per step.
template <bool traced>
void kinematic_step(const System& s, Lane& L, double h, bool average) {
    const int n = s.bodies();
    dvec2 *dv = L.stage[0].data(), *dx = L.stage[1].data();
    dvec2 *inc_dv = L.stage[2].data(), *inc_dx = L.stage[3].data();
    update_force_maps(s, L, h);
    KinematicPass pass{.s = s,
                       .x = L.x.data(),
                       .v = L.v.data(),
                       .dv = dv,
                       .dx = dx,
                       .inc_dv = inc_dv,
                       .inc_dx = inc_dx,
                       .h = h,
                       .t = L.t,
                       .average = average,
                       .dx_factor = average ? 0.5 * h : h,  // dx = dv * dx_factor for approximated forces
                       // A force without a closed form contributes the semi-implicit terms.
                       .no_closed_form = average ? " (no closed form: dv = a h and dx = dv h/2)"
                                                 : " (no closed form: dv = a h and dx = dv h)",
                       .maps = L.force_maps.data(),
                       .show = show_increments,
                       .report = report_increments,
                       .lane = &L};
    if constexpr (traced) {
        report(L, {"start"}, L.x.data(), L.v.data(), nullptr);
        std::fill(inc_dv, inc_dv + n, dvec2(0.0));
        std::fill(inc_dx, inc_dx + n, dvec2(0.0));
    }
    // The sums start at -0, which adding leaves exact (the first force's increment as it is).
    std::fill(dv, dv + n, dvec2(-0.0));
    std::fill(dx, dx + n, dvec2(-0.0));
    kinematic_increments<traced>(static_cast<ForceKinds*>(nullptr), pass);
    ++L.force_evaluations;
    for (int i = 0; i < n; ++i) {
        L.x[i] += h * L.v[i] + dx[i];
        L.v[i] += dv[i];
    }
}

void kinematic_step(const System& s, Lane& L, double h, bool average) {
    if (L.observer)
        kinematic_step<true>(s, L, h, average);
    else
        kinematic_step<false>(s, L, h, average);
}

void kinematic(const System& s, Lane& L, double h) { kinematic_step(s, L, h, false); }
void kinematic_avg(const System& s, Lane& L, double h) { kinematic_step(s, L, h, true); }

// Every row's step: the method's, then the lane's clock moves on by h, so the next step starts at
// its own time (L.t: what a written force's t reads) whoever calls it, substeps and the reference
// included. A sum of steps, as the methods' positions are.
template <StepFn method>
void timed(const System& s, Lane& L, double h) {
    method(s, L, h);
    if (!L.in_step) L.t += h;  // a step in parts (rk45) ends at a later call
}

// Every order below is measured on systems of its kind by tests/test_orders.cpp (within 0.15;
// "exact": every error at the round-off floor).
constexpr Orders first_order = {.constant_force = 1, .single_forces = 1, .conservative = 1, .dissipative = 1,
                                .without_closed_form = 1};
// Methods of order 2 and more follow a constant force exactly (their x is a quadratic in t).
constexpr Orders of_order(int p) {
    return {.constant_force = Order::exact, .single_forces = p, .conservative = p, .dissipative = p,
            .without_closed_form = p};
}
// The kinematic step sums each force's own exact (dv, dx): exact where one flow is the whole
// motion. With several forces on a body the sum misses their cross terms from h³ on in dv (second
// order), and once damping is among them already the h² term ∂a_i/∂v · a_j (first order). A force
// without a closed form takes dv = a·h, dx = a·h², whose dx is wrong at h²: first order.
constexpr Orders kinematic_orders = {.constant_force = Order::exact, .single_forces = Order::exact,
                                     .conservative = 2, .dissipative = 1, .without_closed_form = 1};
// dx = ½·dv·h is right to h² only, even for one force alone: second order where kinematic is exact.
constexpr Orders kinematic_avg_orders = {.constant_force = Order::exact, .single_forces = 2, .conservative = 2,
                                         .dissipative = 1, .without_closed_form = 1};
// The solvers: exact on free motion (expected_order), semi-implicit Euler under gravity alone; PBD
// has no order wherever a spring is (it does not follow the spring), which is every kind of system
// the orders test measures but gravity alone.
constexpr Orders pbd_orders = {.constant_force = 1, .single_forces = Order::none, .conservative = Order::none,
                               .dissipative = Order::none, .without_closed_form = Order::none};
// Soft step and VBD: first order on springs and compliant links (measured with `stepwise
// convergence`, tests/test_claims.cpp), none on rigid links, whose kind of system (without a
// closed form) the springs and compliant links share; so no claim there, and the note says what
// was measured on each.
constexpr Orders first_order_but_rigid_links = {.constant_force = 1, .single_forces = 1, .conservative = 1,
                                                .dissipative = 1, .without_closed_form = Order::none};
constexpr int pbd_default_iterations = 10;
constexpr int xpbd_default_iterations = 10;
constexpr int soft_step_default_iterations = 1;  // Box2D v3: one solve pass and one relax pass a substep
constexpr int sequential_impulses_default_iterations = 8;  // Box2D v2.4 and Solver2D: 8 velocity iterations
constexpr int vbd_default_iterations = 10;
constexpr const char* predicted_velocity_note =
    "Damping and drag see a predicted velocity, so the order holds with them.";

const std::vector<IntegratorInfo> table = {
    {.id = ExplicitEuler::id, .name = "Explicit Euler", .family = "Euler family", .orders = first_order,
     .force_evaluations = 1, .evaluations_note = "1",
     .description = "x += v·h, v += a·h with both slopes from the start of the step; gains energy on oscillators.",
     .update = "a₀ = a(x₀, v₀)\n"
               "x₁ = x₀ + v₀·h\n"
               "v₁ = v₀ + a₀·h",
     .step = timed<fixed<ExplicitEuler>>},
    {.id = SemiImplicitEuler::id, .name = "Semi-implicit Euler", .family = "Euler family", .orders = first_order,
     .force_evaluations = 1, .evaluations_note = "1", .symplectic = true,
     .description = "Symplectic Euler, velocity first: v += a·h, then x += v_new·h; keeps energy bounded, drifts in phase.",
     .update = "a₀ = a(x₀, v₀)\n"
               "v₁ = v₀ + a₀·h\n"
               "x₁ = x₀ + v₁·h",
     .step = timed<fixed<SemiImplicitEuler>>},
    {.id = SemiImplicitEulerX::id, .name = "Semi-implicit Euler (x first)", .family = "Euler family",
     .orders = first_order, .force_evaluations = 1, .evaluations_note = "1", .symplectic = true,
     .description = "Symplectic Euler, position first: x += v·h, then v += a(x_new)·h.",
     .update = "x₁ = x₀ + v₀·h\n"
               "v₁ = v₀ + a(x₁, v₀)·h",
     .step = timed<fixed<SemiImplicitEulerX>>},
    {.id = "implicit_euler", .name = "Implicit Euler", .family = "Euler family", .orders = first_order,
     .force_evaluations = 2, .evaluations_note = "1 + Newton iterations (2 on linear systems)", .implicit = true,
     .description = "Backward Euler solved by Newton iteration; unconditionally stable but loses energy.",
     .update = "v₁ = v₀ + a(x₀ + v₁·h, v₁)·h   (solved for v₁ by Newton's method)\n"
               "x₁ = x₀ + v₁·h",
     .step = timed<implicit_euler>},
    {.id = Newton::id, .name = "Newton (constant acceleration)", .family = "kinematic",
     .orders = {.constant_force = Order::exact, .single_forces = 1, .conservative = 1, .dissipative = 1,
                .without_closed_form = 1},
     .force_evaluations = 1, .evaluations_note = "1",
     .description = "x += v·h + ½a·h², v += a·h: exact for constant forces (a projectile without drag).",
     .update = "a₀ = a(x₀, v₀)\n"
               "x₁ = x₀ + v₀·h + ½·a₀·h²\n"
               "v₁ = v₀ + a₀·h",
     .step = timed<fixed<Newton>>},
    {.id = Heun::id, .name = "Heun", .family = "Runge–Kutta", .orders = of_order(2), .force_evaluations = 2,
     .evaluations_note = "2", .description = "Euler predictor, then the average of the slopes at both ends (trapezoid).",
     .update = "k₁ = a(x₀, v₀)\n"
               "xₚ = x₀ + v₀·h,  vₚ = v₀ + k₁·h   (Euler predictor)\n"
               "k₂ = a(xₚ, vₚ)\n"
               "x₁ = x₀ + (v₀ + vₚ)·h/2\n"
               "v₁ = v₀ + (k₁ + k₂)·h/2",
     .step = timed<fixed<Heun>>},
    {.id = Midpoint::id, .name = "Midpoint (RK2)", .family = "Runge–Kutta", .orders = of_order(2),
     .force_evaluations = 2, .evaluations_note = "2",
     .description = "Half an Euler step, then a full step with the slopes at the midpoint.",
     .update = "k₁ = a(x₀, v₀)\n"
               "xₘ = x₀ + v₀·h/2,  vₘ = v₀ + k₁·h/2\n"
               "x₁ = x₀ + vₘ·h\n"
               "v₁ = v₀ + a(xₘ, vₘ)·h",
     .step = timed<fixed<Midpoint>>},
    {.id = Rk4::id, .name = "Runge–Kutta 4", .family = "Runge–Kutta", .orders = of_order(4), .force_evaluations = 4,
     .evaluations_note = "4",
     .description = "Classic fourth-order Runge–Kutta: four slopes weighted 1, 2, 2, 1; slowly loses energy.",
     .update = "u₁ = v₀,  k₁ = a(x₀, u₁)\n"
               "u₂ = v₀ + k₁·h/2,  k₂ = a(x₀ + u₁·h/2, u₂)\n"
               "u₃ = v₀ + k₂·h/2,  k₃ = a(x₀ + u₂·h/2, u₃)\n"
               "u₄ = v₀ + k₃·h,  k₄ = a(x₀ + u₃·h, u₄)\n"
               "x₁ = x₀ + (u₁ + 2u₂ + 2u₃ + u₄)·h/6\n"
               "v₁ = v₀ + (k₁ + 2k₂ + 2k₃ + k₄)·h/6",
     .step = timed<fixed<Rk4>>},
    {.id = Leapfrog::id, .name = "Leapfrog", .family = "Verlet family", .orders = of_order(2),
     .order_note = predicted_velocity_note, .force_evaluations = 1, .evaluations_note = "1 (plus 1 at the start)",
     .symplectic = true, .stateful = true,
     .description = "Velocities at half steps, started with a half kick; reported velocity synchronised to the step.",
     .update = "x₁ = x₀ + v(h/2)·h   (v(h/2) and a₀ carried from the last step)\n"
               "a₁ = a(x₁, v(h/2) + a₀·h/2)\n"
               "v₁ = v(h/2) + a₁·h/2\n"
               "v(3h/2) = v(h/2) + a₁·h   (carried to the next step)\n"
               "first step: a₀ = a(x₀, v₀),  v(h/2) = v₀ + a₀·h/2",
     .step = timed<fixed<Leapfrog>>},
    {.id = StormerVerlet::id, .name = "Störmer–Verlet", .family = "Verlet family", .orders = of_order(2),
     .order_note = predicted_velocity_note, .force_evaluations = 1, .evaluations_note = "1 (plus 1 at the start)",
     .symplectic = true, .stateful = true,
     .description = "x_next = 2x − x_prev + a·h², first step from Taylor, velocity from the central difference.",
     .update = "x₁ = 2x₀ − x₋₁ + a₀·h²   (x₋₁ and a₀ carried from the last step)\n"
               "a₁ = a(x₁, (x₁ − x₀)/h + a₀·h/2)\n"
               "v₁ = (x₁ − x₀)/h + a₁·h/2\n"
               "first step: a₀ = a(x₀, v₀),  x₁ = x₀ + v₀·h + ½·a₀·h²",
     .step = timed<fixed<StormerVerlet>>},
    {.id = VelocityVerlet::id, .name = "Velocity Verlet", .family = "Verlet family", .orders = of_order(2),
     .order_note = predicted_velocity_note, .force_evaluations = 1,
     .evaluations_note = "1 (acceleration reused; plus 1 at the start)", .symplectic = true, .stateful = true,
     .description = "x += v·h + ½a·h², then v += ½(a + a_new)·h.",
     .update = "x₁ = x₀ + v₀·h + ½·a₀·h²   (a₀ carried from the last step)\n"
               "a₁ = a(x₁, v₀ + a₀·h)\n"
               "v₁ = v₀ + ½·(a₀ + a₁)·h\n"
               "first step: a₀ = a(x₀, v₀)",
     .step = timed<fixed<VelocityVerlet>>},
    {.id = Yoshida4::id, .name = "Yoshida 4 (Forest–Ruth)", .family = "Verlet family", .orders = of_order(4),
     .order_note = "With damping or drag the symmetric step takes each dissipative force's exact flow, so the "
                   "composition stays fourth order. A written force that reads a velocity has no such flow: then "
                   "first order.",
     .force_evaluations = 3, .evaluations_note = "3", .symplectic = true,
     .description = "Fourth-order symplectic composition of three Verlet steps (one with a negative weight).",
     .update = "w₁ = 1/(2 − ∛2),  w₀ = −∛2/(2 − ∛2)   (w₀ < 0: one step backwards)\n"
               "x += ½w₁·v·h,  v += w₁·a(x)·h\n"
               "x += ½(w₀ + w₁)·v·h,  v += w₀·a(x)·h\n"
               "x += ½(w₀ + w₁)·v·h,  v += w₁·a(x)·h\n"
               "x += ½w₁·v·h\n"
               "with damping or drag: each kick uses the forces at v = 0, between the dissipative forces' exact flows over half its length (before, and reversed after)",
     .step = timed<fixed<Yoshida4>>},
    {.id = "kinematic", .name = "Kinematic", .family = "kinematic",
     .orders = kinematic_orders,
     .order_note = "Exact wherever each force's own flow is the whole motion: one force on each body, or gravity "
                   "on bodies joined only by springs between them. Several forces on a body: second order, first "
                   "once damping is among them (two springs and a damper). A force without a closed form takes the "
                   "semi-implicit terms dv = a·h, dx = a·h²: first order.",
     .force_evaluations = 1, .evaluations_note = "1 (each force's closed form)",
     .description = "Each force adds its own exact (dv, dx) over the step: exact for gravity, one spring or one orbit alone.",
     .update = "(dv_f, dx_f) = what force f alone does over h, exactly: gravity g·h and ½g·h², a spring's or damper's oscillator, a central body's Kepler orbit\n"
               "without a closed form: dv_f = a_f·h,  dx_f = a_f·h²\n"
               "v₁ = v₀ + Σ dv_f\n"
               "x₁ = x₀ + v₀·h + Σ dx_f",
     .step = timed<kinematic>},
    {.id = "kinematic_avg", .name = "Kinematic (average acceleration)", .family = "kinematic",
     .orders = kinematic_avg_orders,
     .order_note = "Second order with one force on each body, damped or not; first order once damping acts "
                   "beside another force on a body, or with a force without a closed form (spring_pair's default "
                   "rest length, drag).",
     .force_evaluations = 1, .evaluations_note = "1 (each force's closed form)",
     .description = "As kinematic, but dx = ½·dv·h for every force: stable when several forces act at once.",
     .update = "dv_f = what force f alone does to v over h, exactly (as kinematic), or a_f·h without a closed form\n"
               "dx_f = ½·dv_f·h   (the average acceleration, for every force)\n"
               "v₁ = v₀ + Σ dv_f\n"
               "x₁ = x₀ + v₀·h + Σ dx_f",
     .step = timed<kinematic_avg>},
    // The game-physics solvers (solvers.cpp). h is a substep; n the iterations of one. A pass is
    // one visit of every row (a spring or link), counted as one force evaluation.
    {.id = "pbd", .name = "Position-based dynamics (PBD)", .family = "solver", .orders = pbd_orders,
     .order_note = "PBD projects every spring as a rigid constraint, whatever its stiffness, so on a system with "
                   "springs it does not discretise their equation and has no order; with gravity or a central "
                   "body alone it is semi-implicit Euler (order 1), and on rigid links first order (tests/test_solvers.cpp).",
     .force_evaluations = 1 + pbd_default_iterations,
     .evaluations_note = "1 external-force evaluation + 1 pass over the rows per iteration (default 10)",
     .default_iterations = pbd_default_iterations, .solves_constraints = true,
     .description = "Müller et al. 2007: predict with the external forces, project every constraint n times "
                    "(Gauss–Seidel, stiffness factor s per step), velocity from the positions. Springs become rigid.",
     .update = "v̂ = v₀ + a_ext(x₀, v₀)·h,  x = x₀ + v̂·h   (prediction)\n"
               "n times, every row C (a link, a spring, a rest-0 spring's two axes):  Δλ = −C(x)/(w_i + w_j),\n"
               "x_i += k′·w_i·Δλ·∇C,  x_j −= k′·w_j·Δλ·∇C,  k′ = 1 − (1 − s)^(1/n)\n"
               "x₁ = x,  v₁ = (x₁ − x₀)/h",
     .step = timed<pbd_step>},
    {.id = "xpbd", .name = "Extended PBD (XPBD)", .family = "solver", .orders = first_order,
     .order_note = "Each compliant row's update is implicit Euler's on its potential, solved by Gauss–Seidel; the "
                   "external forces enter explicitly, as in semi-implicit Euler: first order.",
     .force_evaluations = 1 + xpbd_default_iterations,
     .evaluations_note = "1 external-force evaluation + 1 pass over the rows per iteration (default 10)",
     .default_iterations = xpbd_default_iterations, .solves_constraints = true,
     .description = "Macklin, Müller, Chentanez 2016: PBD with compliance α = 1/k, so the stiffness follows the "
                    "spring, not the iterations or the step; λ is the constraint force times h².",
     .update = "v̂ = v₀ + a_ext(x₀, v₀)·h,  x = x₀ + v̂·h,  λ = 0   (prediction)\n"
               "n times, every row:  α̃ = α/h²,  γ = α·c/h,\n"
               "Δλ = (−C(x) − α̃·λ − γ·∇C·(x − x₀)) / ((1 + γ)(w_i + w_j) + α̃),\n"
               "λ += Δλ,  x_i += w_i·Δλ·∇C,  x_j −= w_j·Δλ·∇C\n"
               "x₁ = x,  v₁ = (x₁ − x₀)/h,  tension −λ/h²",
     .step = timed<xpbd_step>},
    {.id = "soft_step", .name = "Soft step (Box2D v3)", .family = "solver", .orders = first_order_but_rigid_links,
     .order_note = "Soft constraints are implicit Euler of each spring on the velocity level, the external forces "
                   "explicit: first order (measured 0.94 on a spring with a rest length, 0.96 on a compliant "
                   "three-link chain). Rigid links are soft at Box2D's joint frequency min(60 Hz, 1/(8h)), which "
                   "rises as h falls until 60 Hz: on the rigid four-link chain from dt = 0.01 the error falls from "
                   "0.16 m to 0.0070 m at dt = 0.0025 and then stays there (0.0058, 0.0070 m), the 60 Hz springs' "
                   "own motion: no order on rigid links, so no claim without a closed form.",
     .force_evaluations = 2 + soft_step_default_iterations,
     .evaluations_note = "1 external-force evaluation + 1 solve pass per iteration (default 1) + 1 relax pass",
     .stateful = true, .default_iterations = soft_step_default_iterations, .solves_constraints = true,
     .description = "Catto's soft step (Box2D v3, 2024): integrate velocities, solve soft constraints given as a "
                    "frequency and damping ratio, integrate positions, relax without the bias.",
     .stability_note = "Its stiffness cap, a rigid link's frequency min(60 Hz, 1/(8h)), acts on rigid links only: a "
                       "spring keeps its own frequency ω = √(k/m), so the cap never acts on this map of the "
                       "spring, and a rigid link stepped by soft step is softer than the map shows.",
     .update = "v = v₀ + a_ext(x₀, v₀)·h\n"
               "warm start, every row:  v_i += w_i·P_acc·∇C,  v_j −= w_j·P_acc·∇C   (P_acc carried from the last substep)\n"
               "soft row (ω, ζ):  a₁ = 2ζ + hω,  a₂ = hω·a₁,  bias = ω/a₁,  mass scale = a₂/(1 + a₂),  impulse scale = 1/(1 + a₂)\n"
               "n solve passes, every row:  P = −mass scale·(Ċ + bias·C)/(w_i + w_j) − impulse scale·P_acc,  v_i += w_i·P·∇C,  v_j −= w_j·P·∇C\n"
               "x₁ = x₀ + v·h\n"
               "relax pass: the same at x₁ with the rigid rows' bias off (mass scale 1, impulse scale 0);  v₁ = v\n"
               "rigid rows: ω = 2π·min(60 Hz, 1/(8h)), ζ = 2;  springs: ω = √(k(w_i + w_j)),  ζ = c(w_i + w_j)/(2ω)",
     .step = timed<soft_step>},
    {.id = "sequential_impulses", .name = "Sequential impulses", .family = "solver", .orders = first_order,
     .order_note = "Velocities first, impulses with each spring as Box2D v2's soft joint (implicit Euler on the "
                   "row), then positions: first order.",
     .force_evaluations = 1 + sequential_impulses_default_iterations,
     .evaluations_note = "1 external-force evaluation + 1 impulse pass over the rows per iteration (default 8)",
     .default_iterations = sequential_impulses_default_iterations, .solves_constraints = true,
     .description = "Catto's sequential impulses (Box2D v2, Solver2D's pgs): velocity iterations with a Baumgarte "
                    "position bias β = 0.2 on rigid rows, then positions from the new velocities.",
     .update = "v = v₀ + a_ext(x₀, v₀)·h\n"
               "n passes, every row (C and ∇C at x₀), its impulse P:\n"
               "rigid:  P = −(Ċ + β·C/h)/(w_i + w_j)\n"
               "spring k, damper c:  γ = 1/(h(c + hk)),  P = −(Ċ + C·h·k·γ + γ·P_acc)/(w_i + w_j + γ)\n"
               "v_i += w_i·P·∇C,  v_j −= w_j·P·∇C\n"
               "x₁ = x₀ + v·h,  v₁ = v",
     .step = timed<sequential_impulses_step>},
    {.id = "vbd", .name = "Vertex block descent (VBD)", .family = "solver", .orders = first_order_but_rigid_links,
     .order_note = "Its iterations approach implicit Euler's step (first order); external forces enter the "
                   "prediction explicitly: measured 0.99 on a spring with a rest length and on a compliant "
                   "three-link chain, with 10 iterations or 1 (vbd@1x1). Rigid links: the augmented Lagrangian "
                   "starts again every step, and on the rigid four-link chain from dt = 0.01 the error stops "
                   "following h: 0.42 m, then 0.18 m from dt = 0.0025 to 0.000625 (fit 0.29), and with one "
                   "iteration 1.2 to 1.3 m at every dt (fit -0.02): no order on rigid links, so no claim without "
                   "a closed form.",
     .force_evaluations = 1 + vbd_default_iterations,
     .evaluations_note = "1 external-force evaluation + 1 sweep over the bodies (every row twice) per iteration (default 10)",
     .default_iterations = vbd_default_iterations, .solves_constraints = true,
     .description = "Chen et al. 2024 with Giles et al. 2025's augmented Lagrangian: Gauss–Seidel over the bodies, "
                    "one Newton step each on implicit Euler's energy; rigid links by a ramped penalty.",
     .update = "x̃ = x₀ + (v₀ + a_ext(x₀, v₀)·h)·h,  x = x̃\n"
               "n times, every body b:  G_b(x_b) = m_b|x_b − x̃_b|²/(2h²) + Σ_rows (½k·C² + λ·C),\n"
               "x_b −= (∇²G_b)⁻¹·∇G_b   (2×2 Newton step);\n"
               "then every rigid row:  λ += k·C,  k += β·|C|   (k from m/h², β = 2·10⁵)\n"
               "x₁ = x,  v₁ = (x₁ − x₀)/h",
     .step = timed<vbd_step>},
    {.id = "rk45", .name = "Dormand–Prince 5(4)", .family = "reference",
     .orders = {},  // none anywhere: see the note
     .order_note = "Adaptive: its error follows its tolerance (rtol = atol = 1e-9 as a lane, 1e-12 as the reference), not "
                   "dt, so there is no order in dt to measure.",
     .force_evaluations = 6, .evaluations_note = "6 per accepted substep (the 7th is the next one's first; adaptive)",
     .stateful = true, .adaptive = true,
     .description = "Adaptive Runge–Kutta with error control (rtol = atol = 1e-9): the reference where no closed form exists.",
     .update = "y = (x, v),  y′ = (v, a(x, v));  substeps s cover the step h\n"
               "k₁ … k₇: the slopes y′ at the Dormand–Prince stages (nodes 0, 1/5, 3/10, 4/5, 8/9, 1, 1)\n"
               "y₁ = y₀ + s·(35/384·k₁ + 500/1113·k₃ + 125/192·k₄ − 2187/6784·k₅ + 11/84·k₆)\n"
               "e = s·(71/57600·k₁ − 71/16695·k₃ + 71/1920·k₄ − 17253/339200·k₅ + 22/525·k₆ − 1/40·k₇)\n"
               "err = the largest |e| ÷ (atol + rtol·max(|y₀|, |y₁|)) over the components;  accepted when err ≤ 1\n"
               "next s = s·clamp(0.9·err^(−1/5), 0.2, 5)\n"
               "k₇ is the next substep's k₁ (first same as last)",
     .step = timed<rk45>},
};

}  // namespace

const std::vector<IntegratorInfo>& integrators() { return table; }

const std::vector<FamilyInfo>& integrator_families() {
    static const std::vector<FamilyInfo> families = {
        {.id = "Euler family", .name = "Euler family"},
        {.id = "Runge–Kutta", .name = "Runge–Kutta"},
        {.id = "Verlet family", .name = "Verlet family"},
        {.id = "kinematic", .name = "Kinematic"},
        {.id = "solver", .name = "Game-physics solvers"},
        {.id = "reference", .name = "Reference"},
    };
    return families;
}

int find_integrator(std::string_view id) { return index_of_id(table, id); }

Order expected_order(const IntegratorInfo& info, OrderRegime r) {
    if (r == OrderRegime::free_motion) return info.adaptive ? Order() : Order(Order::exact);
    return info.orders.in(r);
}

Lane make_lane(const System& s, int index, const dvec2* x0, const dvec2* v0) {
    const size_t n = static_cast<size_t>(s.bodies());
    if (s.has_rigid_links()) LinkForce::reserve_workspace(s);
    Lane L;
    L.integrator = index;
    L.iterations = table[static_cast<size_t>(index)].default_iterations;
    const int bodies = s.bodies(), angular = s.rotating();
    for (auto* t : {&L.x, &L.v, &L.carry_x, &L.carry_v, &L.carry_a}) t->resize(bodies, angular);
    for (auto& t : L.stage) t.resize(bodies, angular);
    for (auto* t : {&L.substep_start_x, &L.substep_start_v, &L.substep_end_x, &L.substep_end_v}) t->resize(bodies, angular);
    L.force_maps.resize(static_cast<size_t>(kinematic_map_count(s)));
    if (!s.couples_bodies()) {
        L.jx.resize(4 * n);
        L.jv.resize(4 * n);
    } else {
        L.jx.resize(4 * n * n);
        L.jv.resize(4 * n * n);
        L.mat.resize(4 * n * n);
        L.rhs.resize(2 * n);
        // Implicit Euler's Newton matrix couples x and y of bodies i, j joined by a force:
        // entries within 2·|i − j| + 1 of the diagonal. A band (with its fill-in, 3 kl + 1 wide)
        // narrower than the matrix is solved as one.
        const int kl = 2 * s.coupling_span() + 1;
        if (3 * kl + 1 < static_cast<int>(2 * n)) L.band_kl = kl;
    }
    if (table[static_cast<size_t>(index)].solves_constraints) {
        L.rows = build_solver_rows(s);
        const size_t rows = static_cast<size_t>(L.rows.size());
        L.row_lambda.assign(rows, 0.0);
        L.row_penalty.assign(rows, 0.0);
        L.row_tension.assign(rows, 0.0);
    }
    L.reset(x0, v0);
    return L;
}

}  // namespace stepwise
