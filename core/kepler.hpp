// The Kepler flow: the exact motion of a body under one central attraction a = -gm r/|r|^3,
// over any time, for every kind of conic (ellipse, parabola, hyperbola, radial fall), through
// universal variables and the Lagrange f and g functions. The kinematic integrator uses it as
// the central force's "closed form over a step"; the orbit's reference uses it from t = 0.
#pragma once
#include <glm/ext/vector_double2.hpp>

namespace stepwise {

using glm::dvec2;

// Shape of the orbit through (r, v) relative to the centre.
struct OrbitElements {
    double energy;        // specific orbital energy |v|^2/2 - gm/|r|
    double momentum;      // specific angular momentum r x v (z component)
    double eccentricity;  // 0 circle, < 1 ellipse, 1 parabola, > 1 hyperbola
    double periapsis;     // closest distance to the centre (0 for a radial fall)
    double period;        // 2 pi sqrt(a^3/gm) for an ellipse, 0 otherwise
};
OrbitElements orbit_elements(double gm, dvec2 r, dvec2 v);

// Advances (r, v), relative to the centre, by time t >= 0 along the exact Kepler orbit.
// An ellipse's time is first reduced modulo its period. Returns false (r, v untouched) when
// the state has no usable orbit (r = 0, non-finite numbers) or the body would pass within
// the centre's singularity (the result is not finite).
bool kepler_propagate(double gm, dvec2& r, dvec2& v, double t);

// Stumpff functions c2(z) = (1 - cos sqrt z)/z and c3(z) = (sqrt z - sin sqrt z)/sqrt(z)^3,
// continued to z <= 0 through cosh and sinh; series near 0. Exposed for the tests.
double stumpff_c2(double z);
double stumpff_c3(double z);

}  // namespace stepwise
