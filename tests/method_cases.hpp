// The test data of every method in the core's table (integrators()), one row each: what the tests
// that run the whole table expect of a method, worked out by hand. A new method is its row in the
// core's table and its row here; test_integrators.cpp checks that the two tables name the same
// methods, and the tests below read this one instead of keeping lists of their own:
//   constant_force_distance  test_integrators.cpp, "constant force table"
//   critical_limit           test_stability.cpp, "at critical damping (ζ = 1 exactly)"
//   steps_angles             test_layout.cpp, the turning body under every method that turns
#pragma once

#include <cmath>
#include <string_view>
#include <vector>

namespace stepwise::test {

struct MethodCase {
    const char* id;
    // From rest under g = 10 along -y, m = 1, dt = 1 s, after 10 steps: the distance fallen.
    // Explicit Euler sums v_0 … v_9 = 10 (0 + 1 + … + 9) = 450; semi-implicit Euler sums
    // v_1 … v_10 = 550; a method exact for constant acceleration gives a t² / 2 = 500.
    double constant_force_distance;
    // The largest stable ωh on x'' = -x - 2x' (critical damping, ζ = 1); 0: stable at every ωh.
    double critical_limit;
    // It steps the angles of turning bodies (a rigid body in the plane) as well as positions.
    bool steps_angles;
};

// The limits at ζ = 1, derived by hand from each method's step on x'' = -x - 2x'. There the test
// equation has the double eigenvalue -1 and a one-step map built from it a double eigenvalue too
// (a Jordan block): its radius computed from the roots loses half the digits, so the limits are
// worked out from the map instead.
//   RK methods: M = R(hA), eigenvalue R(-h) twice. Explicit Euler |1 - h| ≤ 1: h ≤ 2; Heun and
//   midpoint R(-h) = 1 - h + h²/2 ∈ [1/2, 1] up to h = 2; RK4 R(-h) = 1 at the real root of
//   h³ - 4h² + 12h - 24 = 0 (rk4_critical_limit).
//   Semi-implicit Euler (either order): tr = 2 - 2h - h², det = 1 - 2h; |tr| ≤ 1 + det
//   gives h² + 4h - 4 ≤ 0, h ≤ 2√2 - 2.
//   Newton (x1 = x + hv + h²a/2, v1 = v + ha): tr = 2 - 2h - h²/2, det = 1 - 2h + h²/2;
//   -tr ≤ 1 + det gives h ≤ 1.
//   Velocity Verlet on (x, v, carried a): λ³ + (h² + 3h - 2)λ² + (1 - 4h)λ + h, which has the
//   root -1 where h² + 8h - 4 = 0: h = 2√5 - 4 (leapfrog and Störmer carry the same map).
//   Yoshida 4: yoshida4_critical_limit. Implicit Euler, the kinematic pair, rk45 and the
//   game-physics solvers (which take the spring implicitly: XPBD, VBD, the soft constraints and
//   sequential impulses' soft joint are implicit Euler on the row; PBD projects it away) are
//   stable at every ωh, measured.

// RK4's: Newton's method on the cubic h³ - 4h² + 12h - 24 = 0 from 2.8.
inline double rk4_critical_limit() {
    double h = 2.8;
    for (int i = 0; i < 50; ++i) h -= (((h - 4.0) * h + 12.0) * h - 24.0) / ((3.0 * h - 8.0) * h + 12.0);
    return h;
}

// Yoshida 4's: drifts D(c h), the damper's exact flow F(t): v e^{-2t}, kicks K(d h) by the spring
// alone, composed as the method's definition says (drift, F(dh/2) K(dh) F(dh/2), …), in long
// double; its determinant is e^{-2h} < 1, so the limit is where |tr| = 1 + det, found by bisection
// on [0.5, 3] (stable below 0.5, unstable at 3: test_stability.cpp checks both ends).
inline long double yoshida4_critical_excess(long double h) {
    const long double cbrt2 = std::cbrt(2.0L), w1 = 1.0L / (2.0L - cbrt2), w0 = 1.0L - 2.0L * w1;
    const long double c[4] = {w1 / 2, (w0 + w1) / 2, (w0 + w1) / 2, w1 / 2}, d[3] = {w1, w0, w1};
    long double m[2][2] = {{1, 0}, {0, 1}};  // rows (x, v) of the map so far
    auto apply = [&](long double a, long double b, long double c2, long double d2) {  // m = [[a b][c2 d2]] m
        const long double r00 = a * m[0][0] + b * m[1][0], r01 = a * m[0][1] + b * m[1][1];
        const long double r10 = c2 * m[0][0] + d2 * m[1][0], r11 = c2 * m[0][1] + d2 * m[1][1];
        m[0][0] = r00, m[0][1] = r01, m[1][0] = r10, m[1][1] = r11;
    };
    for (int k = 0; k < 4; ++k) {
        apply(1, c[k] * h, 0, 1);
        if (k == 3) break;
        const long double flow = std::exp(-d[k] * h);  // F(d h / 2): v e^{-2 (d h / 2)}
        apply(1, 0, 0, flow);
        apply(1, 0, -d[k] * h, 1);
        apply(1, 0, 0, flow);
    }
    const long double tr = m[0][0] + m[1][1], det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    return std::fabs(tr) - (1.0L + det);
}
inline double yoshida4_critical_limit() {
    long double lo = 0.5L, hi = 3.0L;
    for (int i = 0; i < 200; ++i) (yoshida4_critical_excess(0.5L * (lo + hi)) < 0.0L ? lo : hi) = 0.5L * (lo + hi);
    return static_cast<double>(lo);
}

inline const std::vector<MethodCase>& method_cases() {
    static const std::vector<MethodCase> rows = {
        {.id = "explicit_euler", .constant_force_distance = 450, .critical_limit = 2.0, .steps_angles = true},
        {.id = "semi_implicit_euler", .constant_force_distance = 550, .critical_limit = 2.0 * std::sqrt(2.0) - 2.0, .steps_angles = true},
        {.id = "semi_implicit_euler_x", .constant_force_distance = 450, .critical_limit = 2.0 * std::sqrt(2.0) - 2.0, .steps_angles = true},
        {.id = "implicit_euler", .constant_force_distance = 550, .critical_limit = 0.0, .steps_angles = false},
        {.id = "newton", .constant_force_distance = 500, .critical_limit = 1.0, .steps_angles = true},
        {.id = "heun", .constant_force_distance = 500, .critical_limit = 2.0, .steps_angles = true},
        {.id = "midpoint", .constant_force_distance = 500, .critical_limit = 2.0, .steps_angles = true},
        {.id = "rk4", .constant_force_distance = 500, .critical_limit = rk4_critical_limit(), .steps_angles = true},
        {.id = "leapfrog", .constant_force_distance = 500, .critical_limit = 2.0 * std::sqrt(5.0) - 4.0, .steps_angles = true},
        {.id = "stormer_verlet", .constant_force_distance = 500, .critical_limit = 2.0 * std::sqrt(5.0) - 4.0, .steps_angles = true},
        {.id = "velocity_verlet", .constant_force_distance = 500, .critical_limit = 2.0 * std::sqrt(5.0) - 4.0, .steps_angles = true},
        {.id = "yoshida4", .constant_force_distance = 500, .critical_limit = yoshida4_critical_limit(), .steps_angles = true},
        {.id = "kinematic", .constant_force_distance = 500, .critical_limit = 0.0, .steps_angles = false},
        {.id = "kinematic_avg", .constant_force_distance = 500, .critical_limit = 0.0, .steps_angles = false},
        {.id = "rk45", .constant_force_distance = 500, .critical_limit = 0.0, .steps_angles = true},
        // The game-physics solvers: no rows under gravity alone, so each steps as semi-implicit Euler.
        {.id = "pbd", .constant_force_distance = 550, .critical_limit = 0.0, .steps_angles = false},
        {.id = "xpbd", .constant_force_distance = 550, .critical_limit = 0.0, .steps_angles = false},
        {.id = "soft_step", .constant_force_distance = 550, .critical_limit = 0.0, .steps_angles = false},
        {.id = "sequential_impulses", .constant_force_distance = 550, .critical_limit = 0.0, .steps_angles = false},
        {.id = "vbd", .constant_force_distance = 550, .critical_limit = 0.0, .steps_angles = false},
    };
    return rows;
}

// The row of `id`, or nullptr.
inline const MethodCase* method_case(std::string_view id) {
    for (const MethodCase& c : method_cases())
        if (id == c.id) return &c;
    return nullptr;
}

}  // namespace stepwise::test
