// Closed-form solutions: the damped oscillator in all three regimes, and the exact
// state of any linear system (projectile without drag, springs with rest length 0).
#pragma once
#include "system.hpp"

#include <vector>

namespace stepwise {

// The linear map of the unforced oscillator d'' = -w2 d - 2 gamma d' over time t:
// d(t) = dd d0 + dv v0, v(t) = vd d0 + vv v0. The same for every body with the same w2, gamma
// and t, so a fixed-step integrator can compute it once (the kinematic integrator caches it).
struct OscillatorMap {
    double dd, dv, vd, vv;
};
OscillatorMap oscillator_map(double w2, double gamma, double t);
inline void apply(const OscillatorMap& m, dvec2& d, dvec2& v) {
    const dvec2 d0 = d, v0 = v;
    d = m.dd * d0 + m.dv * v0;
    v = m.vd * d0 + m.vv * v0;
}

// The solution of d'' = -w2 d - 2 gamma d' + f over time t, for w2 >= 0, gamma >= 0 and a
// constant f. Under-, critically and over-damped, and the spring-free limits (w2 = 0).
// d, v hold the start values and receive the values at t.
void propagate_linear(dvec2& d, dvec2& v, double w2, double gamma, dvec2 f, double t);

// True when exact_state can give the system's state in closed form from (x0, v0): every force
// is linear and the bodies decouple (no pair springs, or exactly two bodies joined by one
// spring with no other spring and no damper, where the centre of mass and the separation
// decouple); or one body orbits one central body alone (Kepler), unless the orbit is within
// parabolic_margin of parabolic or dives inside the collision radius; or one body swings on one
// rigid link from an anchor under gravity, undamped (the pendulum).
bool has_closed_form(const System& s, const dvec2* x0, const dvec2* v0);
bool is_lone_orbit(const System& s);
// One body on one rigid link to an anchor under uniform gravity (or none), undamped: the
// pendulum's closed form (pendulum_exact.hpp).
bool is_lone_pendulum(const System& s);
constexpr double parabolic_margin = 1e-3;  // on |e - 1|

// A body on anchored rest-0 springs and dampers, combined once: the oscillator
// d'' = -w2 d - 2 gamma d' + g about `centre` (the stiffness-weighted mean of its anchors).
struct LinearBody {
    double w2, gamma;
    dvec2 centre;
};
// One entry per body, in O(bodies + springs). Used only when the system has no pair springs
// and no central body.
std::vector<LinearBody> linear_bodies(const System& s);

// exact_state with the bodies' oscillators combined beforehand (linear_bodies(s)): O(bodies)
// and no allocation, for a caller that asks every step.
void exact_state(const System& s, const LinearBody* bodies, const dvec2* x0, const dvec2* v0, double t, dvec2* x,
                 dvec2* v);

// The exact positions and velocities at time t from (x0, v0) at time 0.
// Precondition: has_closed_form(s, x0, v0). No allocation. An orbit whose propagation fails
// yields NaN (the caller's divergence guard stops the reference there).
void exact_state(const System& s, const dvec2* x0, const dvec2* v0, double t, dvec2* x, dvec2* v);

}  // namespace stepwise
