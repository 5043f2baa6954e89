#include "system.hpp"

#include "kepler.hpp"

#include <cmath>

namespace stepwise {

int System::add_body(double m) {
    mass.push_back(m);
    inv_mass.push_back(1.0 / m);
    return bodies() - 1;
}

bool System::is_linear() const {
    if (drag != 0.0 || !central_forces.empty()) return false;
    for (const AnchorSpring& s : anchor_springs)
        if (s.rest != 0.0) return false;
    for (const PairSpring& s : pair_springs)
        if (s.rest != 0.0) return false;
    return true;
}

bool System::dissipative() const {
    bool d = drag > 0.0 || damper > 0.0;
    for (const AnchorSpring& sp : anchor_springs) d = d || sp.b > 0.0;
    for (const PairSpring& sp : pair_springs) d = d || sp.b > 0.0;
    return d;
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
    if (gravity.x != 0.0 || gravity.y != 0.0 || dissipative()) return false;
    bool have = false;
    auto same = [&](dvec2 p) {
        if (!have) centre = p;
        const bool ok = !have || (p.x == centre.x && p.y == centre.y);
        have = true;
        return ok;
    };
    for (const AnchorSpring& sp : anchor_springs)
        if (!same(sp.anchor)) return false;
    for (const CentralForce& c : central_forces)
        if (!same(c.centre)) return false;
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

// a = -gm r/|r|^3 of one central body at relative position r (zero at the centre itself,
// where the body has collided and stops anyway).
inline dvec2 central_acceleration(dvec2 r, double gm) {
    const double r2 = r.x * r.x + r.y * r.y;
    if (r2 == 0.0) return dvec2(0.0);
    const double len = std::sqrt(r2);
    return (-gm / (r2 * len)) * r;
}

// d(central_acceleration)/dr = -gm (I/|r|^3 - 3 r r^T/|r|^5), row-major.
inline void central_jacobian(dvec2 r, double gm, double out[4]) {
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

// Spring force on the end at d (relative to the other end), without damping.
// rest = 0 is the linear spring -k d, computed without a square root so that it stays
// exactly linear; otherwise F = -k (|d| - rest) d/|d| (zero when the ends coincide).
inline dvec2 spring_force(dvec2 d, double k, double rest) {
    if (rest == 0.0) return -k * d;
    const double len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len == 0.0) return dvec2(0.0);
    return (-k * (len - rest) / len) * d;
}

// d(spring_force)/dd as a row-major 2x2: -k [(1 - r/|d|) I + (r/|d|) u u^T], u = d/|d|.
inline void spring_jacobian(dvec2 d, double k, double rest, double out[4]) {
    if (rest == 0.0) {
        out[0] = -k; out[1] = 0.0; out[2] = 0.0; out[3] = -k;
        return;
    }
    const double len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len == 0.0) {
        out[0] = out[1] = out[2] = out[3] = 0.0;
        return;
    }
    const double s = rest / len;
    const dvec2 u = d / len;
    out[0] = -k * ((1.0 - s) + s * u.x * u.x);
    out[1] = -k * (s * u.x * u.y);
    out[2] = out[1];
    out[3] = -k * ((1.0 - s) + s * u.y * u.y);
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

// Body forces (drag and damper) of body i: dF/dx = 0, dF/dv into jv.
inline void body_force_jacobian(const System& s, dvec2 v, double jv[4]) {
    drag_jacobian(v, s.drag, jv);
    jv[0] -= s.damper;
    jv[3] -= s.damper;
}

}  // namespace

void accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a) {
    const int n = s.bodies();
    const double* inv_m = s.inv_mass.data();
    // Body forces first, one contiguous pass: a = g + (-damper v - drag |v| v) / m. Without
    // any (springs and orbits alone) the pass would compute 0 - 0 v: start from zero instead.
    if (s.drag == 0.0 && s.damper == 0.0 && s.gravity.x == 0.0 && s.gravity.y == 0.0) {
        std::fill(a, a + n, dvec2(0.0));
    } else if (s.drag == 0.0) {
        for (int i = 0; i < n; ++i) a[i] = s.gravity - (s.damper * inv_m[i]) * v[i];
    } else {
        for (int i = 0; i < n; ++i) {
            const double speed = std::sqrt(v[i].x * v[i].x + v[i].y * v[i].y);
            a[i] = s.gravity - ((s.damper + s.drag * speed) * inv_m[i]) * v[i];
        }
    }
    for (const AnchorSpring& sp : s.anchor_springs) {
        const int i = sp.body;
        const dvec2 f = spring_force(x[i] - sp.anchor, sp.k, sp.rest) - sp.b * v[i];
        a[i] += inv_m[i] * f;
    }
    for (const PairSpring& sp : s.pair_springs) {
        const dvec2 f = spring_force(x[sp.i] - x[sp.j], sp.k, sp.rest) - sp.b * (v[sp.i] - v[sp.j]);
        a[sp.i] += inv_m[sp.i] * f;
        a[sp.j] -= inv_m[sp.j] * f;
    }
    for (const CentralForce& c : s.central_forces)
        for (int i = 0; i < n; ++i) a[i] += central_acceleration(x[i] - c.centre, c.gm);
}

double kinetic_energy(const System& s, const dvec2* v) {
    double e = 0.0;
    for (int i = 0; i < s.bodies(); ++i) e += 0.5 * s.mass[i] * (v[i].x * v[i].x + v[i].y * v[i].y);
    return e;
}

double potential_energy(const System& s, const dvec2* x) {
    double e = 0.0;
    // Uniform gravity: U = -m g . x (zero at the origin).
    for (int i = 0; i < s.bodies(); ++i) e -= s.mass[i] * (s.gravity.x * x[i].x + s.gravity.y * x[i].y);
    auto stretch = [](dvec2 d, double rest) {
        return std::sqrt(d.x * d.x + d.y * d.y) - rest;
    };
    for (const AnchorSpring& sp : s.anchor_springs) {
        const double e_i = stretch(x[sp.body] - sp.anchor, sp.rest);
        e += 0.5 * sp.k * e_i * e_i;
    }
    for (const PairSpring& sp : s.pair_springs) {
        const double e_i = stretch(x[sp.i] - x[sp.j], sp.rest);
        e += 0.5 * sp.k * e_i * e_i;
    }
    // Central body: U = -gm m/|r|.
    for (const CentralForce& c : s.central_forces)
        for (int i = 0; i < s.bodies(); ++i) {
            const dvec2 r = x[i] - c.centre;
            e -= c.gm * s.mass[i] / std::sqrt(r.x * r.x + r.y * r.y);
        }
    return e;
}

double dissipated_power(const System& s, const dvec2* v) {
    double p = 0.0;
    for (int i = 0; i < s.bodies(); ++i) {
        const double v2 = v[i].x * v[i].x + v[i].y * v[i].y;
        p += s.damper * v2 + s.drag * v2 * std::sqrt(v2);
    }
    for (const AnchorSpring& sp : s.anchor_springs) {
        const dvec2 w = v[sp.body];
        p += sp.b * (w.x * w.x + w.y * w.y);
    }
    for (const PairSpring& sp : s.pair_springs) {
        const dvec2 w = v[sp.i] - v[sp.j];
        p += sp.b * (w.x * w.x + w.y * w.y);
    }
    return p;
}

void acceleration_jacobian_blocks(const System& s, const dvec2* x, const dvec2* v,
                                  double* dadx, double* dadv) {
    const int n = s.bodies();
    for (int i = 0; i < n; ++i) {
        double* jx = dadx + 4 * i;
        double* jv = dadv + 4 * i;
        body_force_jacobian(s, v[i], jv);
        jx[0] = jx[1] = jx[2] = jx[3] = 0.0;
    }
    for (const AnchorSpring& sp : s.anchor_springs) {
        double j[4];
        spring_jacobian(x[sp.body] - sp.anchor, sp.k, sp.rest, j);
        double* jx = dadx + 4 * sp.body;
        double* jv = dadv + 4 * sp.body;
        for (int c = 0; c < 4; ++c) jx[c] += j[c];
        jv[0] -= sp.b;
        jv[3] -= sp.b;
    }
    for (const CentralForce& c : s.central_forces)
        for (int i = 0; i < n; ++i) {
            double j[4];
            central_jacobian(x[i] - c.centre, c.gm, j);
            for (int k = 0; k < 4; ++k) dadx[4 * i + k] += s.mass[i] * j[k];  // a force, like the others
        }
    // Forces were summed; divide by mass once.
    for (int i = 0; i < n; ++i)
        for (int c = 0; c < 4; ++c) {
            dadx[4 * i + c] *= s.inv_mass[i];
            dadv[4 * i + c] *= s.inv_mass[i];
        }
}

void acceleration_jacobian_dense(const System& s, const dvec2* x, const dvec2* v,
                                 double* dadx, double* dadv) {
    const int nb = s.bodies();
    const int n = 2 * nb;
    for (int c = 0; c < n * n; ++c) dadx[c] = dadv[c] = 0.0;
    // Per-body blocks on the diagonal.
    for (int i = 0; i < nb; ++i) {
        double jv[4];
        body_force_jacobian(s, v[i], jv);
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 2; ++c)
                dadv[(2 * i + r) * n + 2 * i + c] = s.inv_mass[i] * jv[2 * r + c];
    }
    auto add_block = [&](double* m, int bi, int bj, const double b[4], double scale) {
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 2; ++c) m[(2 * bi + r) * n + 2 * bj + c] += scale * b[2 * r + c];
    };
    const double minus_identity[4] = {-1.0, 0.0, 0.0, -1.0};
    for (const AnchorSpring& sp : s.anchor_springs) {
        double j[4];
        spring_jacobian(x[sp.body] - sp.anchor, sp.k, sp.rest, j);
        const double im = s.inv_mass[sp.body];
        add_block(dadx, sp.body, sp.body, j, im);
        add_block(dadv, sp.body, sp.body, minus_identity, sp.b * im);
    }
    for (const PairSpring& sp : s.pair_springs) {
        double j[4];
        spring_jacobian(x[sp.i] - x[sp.j], sp.k, sp.rest, j);
        const double mi = s.inv_mass[sp.i], mj = s.inv_mass[sp.j];
        // F_i = f(x_i - x_j) - b (v_i - v_j); F_j = -F_i.
        add_block(dadx, sp.i, sp.i, j, mi);
        add_block(dadx, sp.i, sp.j, j, -mi);
        add_block(dadx, sp.j, sp.i, j, -mj);
        add_block(dadx, sp.j, sp.j, j, mj);
        add_block(dadv, sp.i, sp.i, minus_identity, sp.b * mi);
        add_block(dadv, sp.i, sp.j, minus_identity, -sp.b * mi);
        add_block(dadv, sp.j, sp.i, minus_identity, -sp.b * mj);
        add_block(dadv, sp.j, sp.j, minus_identity, sp.b * mj);
    }
    for (const CentralForce& c : s.central_forces)
        for (int i = 0; i < nb; ++i) {
            double j[4];
            central_jacobian(x[i] - c.centre, c.gm, j);
            add_block(dadx, i, i, j, 1.0);  // already an acceleration
        }
}

}  // namespace stepwise
