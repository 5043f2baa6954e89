#include "system.hpp"

#include "forces/force_kind.hpp"
#include "kepler.hpp"
#include "turning.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stepwise {

int System::add_body(double m) {
    mass.push_back(m);
    inv_mass.push_back(1.0 / m);
    return bodies() - 1;
}

int System::add_rigid_body(double m, double inertia) {
    const int i = add_body(m);
    rotations.push_back({.body = i, .inertia = inertia, .inv_inertia = 1.0 / inertia, .torsion = {}});
    return i;
}

BodyLayout System::layout(int i) const {
    for (const Rotation& r : rotations)
        if (r.body == i) return BodyLayout::planar;
    return BodyLayout::point;
}

void System::inverse_generalised_mass(double* w) const {
    for (int i = 0; i < bodies(); ++i) w[2 * i] = w[2 * i + 1] = inv_mass[i];
    for (int r = 0; r < rotating(); ++r) w[angular_offset(r)] = rotations[r].inv_inertia;
}

bool System::is_linear() const {
    bool linear = true;
    for_each_force_kind([&]<class K>() { linear = linear && (!K::present(*this) || K::linear(*this)); });
    return linear;
}

bool System::dissipative() const {
    bool dissipative = false;
    for_each_force_kind([&]<class K>() { dissipative = dissipative || (K::present(*this) && K::dissipative(*this)); });
    for (const Rotation& r : rotations) dissipative = dissipative || r.torsion.damping > 0.0;
    return dissipative;
}

bool System::couples_bodies() const {
    bool couples = false;
    for_each_force_kind([&]<class K>() { couples = couples || (K::couples_bodies && K::present(*this)); });
    return couples;
}

int System::coupling_span() const {
    int span = 0;
    for_each_force_kind([&]<class K>() {
        if constexpr (K::couples_bodies) span = std::max(span, K::coupling_span(*this));
    });
    return span;
}

bool System::collided(const dvec2* x0, const dvec2* v0, const dvec2* x1, const dvec2* v1) const {
    auto dot = [](dvec2 a, dvec2 b) { return a.x * b.x + a.y * b.y; };
    for (const CentralForce& c : central_forces) {
        const double radius2 = c.collision_radius * c.collision_radius;
        for (int i = 0; i < bodies(); ++i) {
            const dvec2 p = x0[i] - c.centre, q = x1[i] - c.centre;
            const bool finite =
                std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(v1[i].x) && std::isfinite(v1[i].y);
            if (finite && dot(q, q) < radius2) return true;
            // Heading in on an orbit that dives inside the radius: the step got there when it
            // ends heading out (past the closest approach: the exact flow bounces back out of a
            // radial fall), when the straight line between its ends passes inside (a fixed step
            // jumps across the centre), or when it ends non-finite.
            if (!(dot(p, v0[i]) < 0.0 && orbit_elements(c.gm, p, v0[i]).periapsis < c.collision_radius)) continue;
            if (!finite || dot(q, v1[i]) >= 0.0) return true;
            const dvec2 d = q - p;
            // The point of the segment closest to the centre (d = 0 gives 0/0: fmax takes 0).
            const double s = std::fmin(1.0, std::fmax(0.0, -dot(p, d) / dot(d, d)));
            const dvec2 closest = p + s * d;
            if (dot(closest, closest) < radius2) return true;
        }
    }
    return false;
}

bool System::conserves_angular_momentum(dvec2& centre) const {
    bool have = false, keeps = true;
    for_each_force_kind([&]<class K>() { keeps = keeps && K::keeps_angular_momentum(*this, have, centre); });
    if (!keeps) return false;
    if (!have) centre = dvec2(0.0);  // only internal forces: any point will do
    return true;
}

double angular_momentum(const System& s, const dvec2* x, const dvec2* v, dvec2 centre) {
    double l = 0.0;
    for (int i = 0; i < s.bodies(); ++i) {
        const dvec2 r = x[i] - centre;
        l += s.mass[i] * (r.x * v[i].y - r.y * v[i].x);
    }
    return l;
}

namespace {

// The fields' summed terms (force_kind.hpp), and whether any field is there at all.
// An absent field adds zeros (its coefficient is 0), so the terms are summed without a branch.
inline bool body_field(const System& s, BodyField& f) {
    for_each_force_kind([&]<class K>() {
        if constexpr (FieldKind<K>) K::add_field(s, f);
    });
    return f.g.x != 0.0 || f.g.y != 0.0 || f.b != 0.0 || f.c != 0.0;
}

// The element kinds' accelerations, in the list's order: a fold over plain calls rather than a
// capturing lambda, whose captured pointers GCC reloaded after every store to a (the hot path:
// 25 more instructions an evaluation of a one-spring system). Without `constrained`, a kind with
// forces of constraint (links) adds only its forces (add_free_accelerations).
template <bool constrained, class... K>
inline void element_accelerations(std::tuple<K...>*, const System& s, const dvec2* x, const dvec2* v, dvec2* a,
                                  double t) {
    auto one = []<class E>(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double t) {
        if constexpr (!constrained && requires { E::add_free_accelerations(s, x, v, a); })
            E::add_free_accelerations(s, x, v, a);
        else if constexpr (ElementKind<E>)
            element_accelerations_at<E>(s, x, v, a, t);
    };
    (one.template operator()<K>(s, x, v, a, t), ...);
}

// Each element kind's pass `pass` (a generic lambda called with the kind), in the list's order.
template <class F>
inline void for_each_element_kind(F&& pass) {
    for_each_force_kind([&]<class K>() {
        if constexpr (ElementKind<K>) pass.template operator()<K>();
    });
}

// d(-c |v| v)/dv = -c (|v| I + v v^T / |v|).
inline void drag_jacobian(dvec2 v, double c, double out[4]) {
    const double speed = std::sqrt(v.x * v.x + v.y * v.y);
    if (speed == 0.0) {
        out[0] = out[1] = out[2] = out[3] = 0.0;
        return;
    }
    out[0] = -c * (speed + v.x * v.x / speed);
    out[1] = -c * (v.x * v.y / speed);
    out[2] = out[1];
    out[3] = -c * (speed + v.y * v.y / speed);
}

// The fields' d(force)/dv on one body (d(force)/dx is 0): -b I - c (|v| I + v v^T / |v|).
inline void field_jacobian(const BodyField& f, dvec2 v, double jv[4]) {
    drag_jacobian(v, f.c, jv);
    jv[0] -= f.b;
    jv[3] -= f.b;
}

}  // namespace

bool System::has_rigid_links() const {
    for (const Link& k : links)
        if (k.compliance == 0.0) return true;
    return false;
}

namespace {

// The fields' accelerations, one contiguous pass: a = g + (-b v - c |v| v) / m. Without any
// (springs and orbits alone) the pass would compute 0 - 0 v: start from zero instead; without
// drag, b + 0·|v| is b, so the speed's square root is not taken.
inline void field_accelerations(const System& s, const dvec2* v, dvec2* a) {
    const int n = s.bodies();
    const double* inv_m = s.inv_mass.data();
    BodyField f;
    if (!body_field(s, f)) {
        std::fill(a, a + n, dvec2(0.0));
    } else if (f.c == 0.0) {
        for (int i = 0; i < n; ++i) a[i] = f.g - (f.b * inv_m[i]) * v[i];
    } else {
        for (int i = 0; i < n; ++i) {
            const double speed = std::sqrt(v[i].x * v[i].x + v[i].y * v[i].y);
            a[i] = f.g - ((f.b + f.c * speed) * inv_m[i]) * v[i];
        }
    }
}

template <bool constrained>
void sum_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double t) {
    field_accelerations(s, v, a);
    element_accelerations<constrained>(static_cast<ForceKinds*>(nullptr), s, x, v, a, t);
    if (!s.rotations.empty()) angular_accelerations(s, x, v, a);  // turning.cpp
}

}  // namespace

void accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double t) {
    sum_accelerations<true>(s, x, v, a, t);
}

void unconstrained_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double t) {
    sum_accelerations<false>(s, x, v, a, t);
}

void solver_external_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double t) {
    // The fields as sum_accelerations takes them, then each element kind: a row kind only its
    // external part, any other kind its accelerations.
    field_accelerations(s, v, a);
    for_each_element_kind([&]<class K>() {
        if constexpr (SolverRowKind<K>)
            K::add_solver_external(s, x, v, a);
        else
            element_accelerations_at<K>(s, x, v, a, t);
    });
}

double kinetic_energy(const System& s, const dvec2* v) {
    double e = 0.0;
    for (int i = 0; i < s.bodies(); ++i) e += 0.5 * s.mass[i] * (v[i].x * v[i].x + v[i].y * v[i].y);
    if (!s.rotations.empty()) e += angular_kinetic_energy(s, v);
    return e;
}

double potential_energy(const System& s, const dvec2* x) {
    double e = 0.0;
    // The fields: U = -m g . x (zero at the origin).
    BodyField f;
    body_field(s, f);
    for (int i = 0; i < s.bodies(); ++i) e -= s.mass[i] * (f.g.x * x[i].x + f.g.y * x[i].y);
    for_each_element_kind([&]<class K>() { K::add_potential(s, x, e); });
    if (!s.rotations.empty()) e += angular_potential_energy(s, x);
    return e;
}

double dissipated_power(const System& s, const dvec2* x, const dvec2* v) {
    BodyField f;
    body_field(s, f);
    const int n = s.bodies();
    double p = 0.0;
    bool fields_done = false;
    if (f.c == 0.0) {
        // Without drag the term c |v|³ is ±0, which leaves the sum as it is (p starts at +0, so
        // it is never −0), unless |v|³ overflows and 0·inf makes it NaN: so it (and its square
        // root) is left out where the speeds squared sum to less than 1e200, all finite, and the
        // full sum below is taken otherwise.
        double v2_sum = 0.0;
        for (int i = 0; i < n; ++i) {
            const double v2 = v[i].x * v[i].x + v[i].y * v[i].y;
            p += f.b * v2;
            v2_sum += v2;
        }
        fields_done = v2_sum < 1e200;
        if (!fields_done) p = 0.0;
    }
    if (!fields_done)
        for (int i = 0; i < n; ++i) {
            const double v2 = v[i].x * v[i].x + v[i].y * v[i].y;
            p += f.b * v2 + f.c * v2 * std::sqrt(v2);
        }
    for_each_element_kind([&]<class K>() { K::add_power(s, x, v, p); });
    if (!s.rotations.empty()) p += angular_dissipated_power(s, v);
    return p;
}

double energy_bound(const System& s, double x_max, double v_max) {
    // Every factor at least 1, so that a bound on a product bounds its partial products too.
    auto big = [](double a) { return std::max(1.0, std::fabs(a)); };
    const double v2 = big(2.0 * v_max * v_max);
    // The fields, per body: kinetic 0.5 m |v|², potential −m g·x, power b |v|² + c |v|³.
    BodyField f;
    body_field(s, f);
    double bound = 0.0;
    for (int i = 0; i < s.bodies(); ++i)
        bound += big(s.mass[i]) * (v2 + 2.0 * big(std::fabs(f.g.x) + std::fabs(f.g.y)) * big(x_max)) +
                 big(f.b) * v2 + big(f.c) * v2 * std::sqrt(v2);
    // The elements': a kind without energy_bound has none to give.
    for_each_element_kind([&]<class K>() {
        if constexpr (requires { K::energy_bound(s, x_max, v2); })
            bound += K::energy_bound(s, x_max, v2);
        else if (K::present(s))
            bound = std::numeric_limits<double>::infinity();
    });
    return bound;
}

void acceleration_jacobian_blocks(const System& s, const dvec2* x, const dvec2* v,
                                  double* dadx, double* dadv, double t) {
    const int n = s.bodies();
    BodyField f;
    body_field(s, f);
    for (int i = 0; i < n; ++i) {
        double* jx = dadx + 4 * i;
        double* jv = dadv + 4 * i;
        field_jacobian(f, v[i], jv);
        jx[0] = jx[1] = jx[2] = jx[3] = 0.0;
    }
    for_each_element_kind([&]<class K>() {
        if constexpr (BlockJacobian<K>) element_jacobian_blocks_at<K>(s, x, v, dadx, dadv, t);
    });
    // Forces were summed; divide by mass once.
    for (int i = 0; i < n; ++i)
        for (int c = 0; c < 4; ++c) {
            dadx[4 * i + c] *= s.inv_mass[i];
            dadv[4 * i + c] *= s.inv_mass[i];
        }
}

void acceleration_jacobian_dense(const System& s, const dvec2* x, const dvec2* v,
                                 double* dadx, double* dadv, double t) {
    const int nb = s.bodies();
    const int n = 2 * nb;
    for (int c = 0; c < n * n; ++c) dadx[c] = dadv[c] = 0.0;
    // The fields' blocks on the diagonal.
    BodyField f;
    body_field(s, f);
    for (int i = 0; i < nb; ++i) {
        double jv[4];
        field_jacobian(f, v[i], jv);
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 2; ++c)
                dadv[(2 * i + r) * n + 2 * i + c] = s.inv_mass[i] * jv[2 * r + c];
    }
    for_each_element_kind([&]<class K>() { element_jacobian_dense_at<K>(s, x, v, dadx, dadv, t); });
}

}  // namespace stepwise
