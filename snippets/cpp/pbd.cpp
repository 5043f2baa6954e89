// Position-based dynamics (PBD): predict with the external forces, then n Gauss–Seidel passes that
// project every constraint as a rigid one (its compliance and damping unused: springs become rods),
// scaled by k' = 1 − (1 − s)^(1/n) so that n passes remove the fraction s of an error; the velocity
// is what the positions moved.
// No order in dt on springs (it does not discretise them); first order on rigid constraints, and
// semi-implicit Euler (first order) with no constraints at all.
// Force evaluations per step: 1 external-force evaluation + 1 pass over the rows per iteration (default 10).
//
// One call is one substep of h: Stepwise's lane pbd@SxI is S calls of h = dt/S, I iterations each;
// stiffness s in [0, 1] is its pbd_stiffness (1: every pass removes the whole error).
// A Body's inv_mass is 1/m (1/kg); 0: a fixed body, never moved. A Constraint is a distance between
// bodies i and j, or with j = -1 between body i and the fixed point (ax, ay); compliance α =
// 1/stiffness (m/N, 0: rigid); damping c (N·s/m) along it. The step writes lambda: the
// constraint's tension is −lambda/h² (N), e.g. to break it (compliance and damping are not used).
// accel(body) returns the external acceleration {ax, ay} (m/s²): gravity, dampers, drag.
#include <cmath>
#include <vector>

namespace pbd {

// x0, y0 keep where the body was at the substep's start: the step allocates nothing.
struct Body {
    double x, y, vx, vy, inv_mass;  // position (m), velocity (m/s), 1/mass (1/kg)
    double x0 = 0.0, y0 = 0.0;      // written by the step: the position at the substep's start
};
struct Constraint {
    int i, j;          // bodies; j = -1: the fixed point (ax, ay)
    double ax, ay;     // m
    double rest;       // rest length (m)
    double compliance; // α (m/N); 0: rigid
    double damping;    // c (N·s/m) along the constraint
    double lambda;     // written by the step
};

// Constraint c at the current positions: C = |d| − rest and its direction g = d/|d|, d = x_i − x_j
// (g = 0 where the ends meet: no direction to push along).
struct Geometry { double c, gx, gy; };
inline Geometry geometry(const Constraint& c, const std::vector<Body>& bodies) {
    const Body& a = bodies[c.i];
    const double dx = a.x - (c.j < 0 ? c.ax : bodies[c.j].x);
    const double dy = a.y - (c.j < 0 ? c.ay : bodies[c.j].y);
    const double length = std::sqrt(dx * dx + dy * dy);
    if (length == 0.0) return {-c.rest, 0.0, 0.0};
    return {length - c.rest, dx / length, dy / length};
}

// The sum of the ends' inverse masses (a fixed point's is 0).
inline double inverse_mass(const Constraint& c, const std::vector<Body>& bodies) {
    return bodies[c.i].inv_mass + (c.j < 0 ? 0.0 : bodies[c.j].inv_mass);
}

// The predicted positions: v += h·a_ext(x, v), x += h·v, each body's start kept in (x0, y0).
template <class Accel>
void predict(std::vector<Body>& bodies, double h, Accel&& accel) {
    for (size_t n = 0; n < bodies.size(); ++n) {
        Body& b = bodies[n];
        b.x0 = b.x;
        b.y0 = b.y;
        if (b.inv_mass == 0.0) continue;
        const auto [ax, ay] = accel(static_cast<const Body&>(b));
        b.vx += h * ax;
        b.vy += h * ay;
        b.x += h * b.vx;
        b.y += h * b.vy;
    }
}

template <class Accel>
void step(std::vector<Body>& bodies, std::vector<Constraint>& constraints, double h, Accel&& accel,
          int iterations = 10, double stiffness = 1.0) {
    predict(bodies, h, accel);
    const double k = 1.0 - std::pow(1.0 - stiffness, 1.0 / iterations);
    for (Constraint& c : constraints) c.lambda = 0.0;
    for (int it = 0; it < iterations; ++it) {
        for (Constraint& c : constraints) {
            const Geometry g = geometry(c, bodies);
            const double w = inverse_mass(c, bodies);
            if (!(w > 0.0) || (g.gx == 0.0 && g.gy == 0.0)) continue;
            const double dl = -k * g.c / w;
            c.lambda += dl;
            Body& a = bodies[c.i];
            a.x += (a.inv_mass * dl) * g.gx;
            a.y += (a.inv_mass * dl) * g.gy;
            if (c.j >= 0) {
                Body& b = bodies[c.j];
                b.x -= (b.inv_mass * dl) * g.gx;
                b.y -= (b.inv_mass * dl) * g.gy;
            }
        }
    }
    for (size_t n = 0; n < bodies.size(); ++n) {
        bodies[n].vx = (bodies[n].x - bodies[n].x0) / h;
        bodies[n].vy = (bodies[n].y - bodies[n].y0) / h;
    }
}

}  // namespace pbd
