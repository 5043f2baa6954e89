#include "exact.hpp"

#include "forces/force_kind.hpp"

#include "kepler.hpp"
#include "pendulum_exact.hpp"

#include <cmath>

namespace stepwise {

OscillatorMap oscillator_map(double w2, double gamma, double t) {
    // d(t) = eC d0 + eS (v0 + gamma d0) with eC = e^{-gamma t} C, eS = e^{-gamma t} S, where
    // (C, S) = (cos wt, sin(wt)/w) underdamped, (1, t) critical, (cosh bt, sinh(bt)/b) overdamped;
    // v(t) = -w2 eS d0 + (eC - gamma eS) v0. Both follow from C' = -w^2 S (or +b^2 S), S' = C.
    double eC, eS;
    const double disc = gamma * gamma - w2;
    if (disc < 0.0) {
        const double w = std::sqrt(-disc);
        const double decay = std::exp(-gamma * t);
        eC = decay * std::cos(w * t);
        eS = decay * std::sin(w * t) / w;
    } else if (disc == 0.0) {
        const double decay = std::exp(-gamma * t);
        eC = decay;
        eS = decay * t;
    } else {
        // e^{-gamma t} cosh(bt) and e^{-gamma t} sinh(bt)/b written with the decaying
        // exponential e^{-(gamma+b)t} and expm1, so that neither overflows nor cancels.
        const double b = std::sqrt(disc);
        if (2.0 * b * t > 700.0) {
            // e^{-2bt} is below double precision relative to 1: only the slow mode is left.
            const double slow_mode = 0.5 * std::exp((b - gamma) * t);
            eC = slow_mode;
            eS = slow_mode / b;
        } else {
            const double slow = std::exp(-(gamma + b) * t);
            const double grow = std::expm1(2.0 * b * t);
            eS = slow * grow / (2.0 * b);
            eC = slow * (1.0 + 0.5 * grow);
        }
    }
    return {eC + gamma * eS, eS, -w2 * eS, eC - gamma * eS};
}

namespace {

// The unforced oscillator d'' = -w2 d - 2 gamma d'.
void propagate_free(dvec2& d, dvec2& v, double w2, double gamma, double t) {
    apply(oscillator_map(w2, gamma, t), d, v);
}

}  // namespace

void propagate_linear(dvec2& d, dvec2& v, double w2, double gamma, dvec2 f, double t) {
    if (w2 > 0.0) {
        // Shift to the equilibrium d_eq = f / w2; the constant force then drops out.
        const dvec2 d_eq = f / w2;
        dvec2 e = d - d_eq;
        propagate_free(e, v, w2, gamma, t);
        d = e + d_eq;
        return;
    }
    if (f.x != 0.0 || f.y != 0.0) {
        if (gamma == 0.0) {
            // Uniform acceleration: the kinematic equations are exact.
            d += v * t + 0.5 * f * t * t;
            v += f * t;
            return;
        }
        // Linear damping towards the terminal velocity v_t = f / (2 gamma).
        const dvec2 v_t = f / (2.0 * gamma);
        dvec2 u = v - v_t;
        d += v_t * t;
        propagate_free(d, u, 0.0, gamma, t);
        v = u + v_t;
        return;
    }
    propagate_free(d, v, w2, gamma, t);
}

namespace {

// The closed-form families every force kind in s takes part in (force_kind.hpp): a kind that is
// not linear keeps only the nonlinear families (Kepler's, the pendulum's), so a nonlinear spring or
// drag leaves none.
unsigned closed_form_families(const System& s) {
    unsigned families = closed_form_decoupled | closed_form_pair | closed_form_kepler | closed_form_pendulum;
    for_each_force_kind([&]<class K>() {
        if (!K::present(s)) return;
        families &= K::closed_forms;
        if (!K::linear(s)) families &= closed_form_nonlinear;
    });
    return families;
}

}  // namespace

bool is_lone_orbit(const System& s) {
    return (closed_form_families(s) & closed_form_kepler) != 0 && s.bodies() == 1 && s.central_forces.size() == 1;
}

bool orbit_has_closed_form(const System& s, dvec2 x0, dvec2 v0) {
    const CentralForce& c = s.central_forces[0];
    const OrbitElements e = orbit_elements(c.gm, x0 - c.centre, v0);
    // Near e = 1 the period and the universal variable grow without bound, and an orbit that
    // dives inside the collision radius has no exact continuation worth drawing.
    return std::fabs(e.eccentricity - 1.0) >= parabolic_margin && e.periapsis >= c.collision_radius;
}

bool is_lone_pendulum(const System& s) {
    return (closed_form_families(s) & closed_form_pendulum) != 0 && s.bodies() == 1 && s.links.size() == 1 &&
           s.links[0].compliance == 0.0 && s.links[0].j == no_body && s.links[0].i == 0;
}

bool has_closed_form(const System& s, const dvec2* x0, const dvec2* v0) {
    // Read from the force table: each family's kinds, then the family's own shape.
    if (is_lone_orbit(s)) return orbit_has_closed_form(s, x0[0], v0[0]);
    if (is_lone_pendulum(s)) return true;
    const unsigned families = closed_form_families(s);
    if (families & closed_form_decoupled) return true;
    return (families & closed_form_pair) != 0 && s.bodies() == 2 && s.pair_springs.size() == 1 &&
           s.pair_springs[0].i != s.pair_springs[0].j;
}

std::vector<LinearBody> linear_bodies(const System& s) {
    // Each body's springs summed in the order they are listed: K, B and the weighted anchors.
    const int n = s.bodies();
    std::vector<double> K(n, 0.0), B(n, s.damper);
    std::vector<dvec2> weighted(n, dvec2(0.0));
    for (const AnchorSpring& sp : s.anchor_springs) {
        K[sp.body] += sp.k;
        B[sp.body] += sp.b;
        weighted[sp.body] += sp.k * sp.anchor;
    }
    std::vector<LinearBody> out(n);
    for (int i = 0; i < n; ++i) {
        const dvec2 centre = K[i] > 0.0 ? weighted[i] / K[i] : dvec2(0.0);
        out[i] = {K[i] * s.inv_mass[i], 0.5 * B[i] * s.inv_mass[i], centre};
    }
    return out;
}

void exact_state(const System& s, const LinearBody* bodies, const dvec2* x0, const dvec2* v0, double t, dvec2* x,
                 dvec2* v) {
    const int n = s.bodies();
    if (!s.links.empty()) {
        // The lone rigid pendulum (pendulum_exact.hpp), with θ measured from the direction of
        // gravity ("down"; −y without gravity) counter-clockwise: d = L (sin θ side + cos θ down).
        const Link& k = s.links[0];
        const double g = std::sqrt(s.gravity.x * s.gravity.x + s.gravity.y * s.gravity.y);
        const dvec2 down = g > 0.0 ? s.gravity / g : dvec2(0.0, -1.0), side(-down.y, down.x);
        const dvec2 d = x0[0] - k.anchor, w = v0[0];
        const double theta0 = std::atan2(d.x * side.x + d.y * side.y, d.x * down.x + d.y * down.y);
        const double omega0 = (d.x * w.y - d.y * w.x) / (d.x * d.x + d.y * d.y);  // (d × w)/|d|², ccw
        const PendulumState st = pendulum_exact(theta0, omega0, g, k.rest, t);
        const double sn = std::sin(st.theta), cs = std::cos(st.theta);
        x[0] = k.anchor + k.rest * (sn * side + cs * down);
        v[0] = (k.rest * st.omega) * (cs * side - sn * down);
        return;
    }
    if (!s.central_forces.empty()) {
        // The lone orbit: Kepler's flow from the start, relative to the centre.
        const CentralForce& c = s.central_forces[0];
        dvec2 r = x0[0] - c.centre, w = v0[0];
        if (!kepler_propagate(c.gm, r, w, t)) {
            r = dvec2(std::nan(""));
            w = r;
        }
        x[0] = r + c.centre;
        v[0] = w;
        return;
    }
    if (s.pair_springs.empty()) {
        // Each body alone: the sum of its rest-0 springs is one spring of stiffness K
        // centred at the stiffness-weighted mean of the anchors.
        for (int i = 0; i < n; ++i) {
            const LinearBody& b = bodies[i];
            dvec2 d = x0[i] - b.centre, w = v0[i];
            propagate_linear(d, w, b.w2, b.gamma, s.gravity, t);
            x[i] = d + b.centre;
            v[i] = w;
        }
        return;
    }
    // Two bodies joined by one spring: the centre of mass falls freely, the separation
    // r = x_i - x_j oscillates with the reduced mass mu = m_i m_j / (m_i + m_j).
    const PairSpring& sp = s.pair_springs[0];
    const double mi = s.mass[sp.i], mj = s.mass[sp.j], M = mi + mj, mu = mi * mj / M;
    dvec2 X = (mi * x0[sp.i] + mj * x0[sp.j]) / M;
    dvec2 V = (mi * v0[sp.i] + mj * v0[sp.j]) / M;
    propagate_linear(X, V, 0.0, 0.0, s.gravity, t);
    dvec2 r = x0[sp.i] - x0[sp.j], rv = v0[sp.i] - v0[sp.j];
    propagate_linear(r, rv, sp.k / mu, 0.5 * sp.b / mu, dvec2(0.0), t);
    x[sp.i] = X + (mj / M) * r;
    x[sp.j] = X - (mi / M) * r;
    v[sp.i] = V + (mj / M) * rv;
    v[sp.j] = V - (mi / M) * rv;
}

void exact_state(const System& s, const dvec2* x0, const dvec2* v0, double t, dvec2* x, dvec2* v) {
    const std::vector<LinearBody> bodies = linear_bodies(s);
    exact_state(s, bodies.data(), x0, v0, t, x, v);
}

}  // namespace stepwise
