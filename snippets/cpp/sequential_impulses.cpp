// Sequential impulses (Box2D v2.4): v += h·a_ext; n Gauss–Seidel passes of impulses at the start
// positions (a rigid constraint drives Ċ to −β·C/h, Baumgarte's bias; a compliant one is Box2D v2's
// soft distance joint, implicit Euler of its spring and damper); then x += h·v.
// First order: velocities first, each spring implicit Euler on the velocity level, then positions.
// Force evaluations per step: 1 external-force evaluation + 1 impulse pass over the rows per iteration (default 8).
//
// One call is one substep of h: Stepwise's lane sequential_impulses@SxI is S calls of h = dt/S, I
// passes each; baumgarte is β (Box2D v2.4's b2_baumgarte).
// A Body's inv_mass is 1/m (1/kg); 0: a fixed body, never moved. A Constraint is a distance between
// bodies i and j, or with j = -1 between body i and the fixed point (ax, ay); compliance α =
// 1/stiffness (m/N, 0: rigid); damping c (N·s/m) along it. The step writes lambda, the
// impulse it applied (N·s): the constraint's tension is −lambda/h (N), e.g. to break it.
// accel(body) returns the external acceleration {ax, ay} (m/s²): gravity, dampers, drag.
#include <cmath>
#include <vector>

namespace sequential_impulses {

struct Body { double x, y, vx, vy, inv_mass; };  // position (m), velocity (m/s), 1/mass (1/kg)
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

// v_i += w_i·P·g and v_j −= w_j·P·g: impulse P along g on constraint c's ends.
inline void push(const Constraint& c, std::vector<Body>& bodies, double impulse, const Geometry& g) {
    Body& a = bodies[c.i];
    a.vx += (a.inv_mass * impulse) * g.gx;
    a.vy += (a.inv_mass * impulse) * g.gy;
    if (c.j >= 0) {
        Body& b = bodies[c.j];
        b.vx -= (b.inv_mass * impulse) * g.gx;
        b.vy -= (b.inv_mass * impulse) * g.gy;
    }
}

// Ċ: how fast the ends move apart along g.
inline double along(const Constraint& c, const std::vector<Body>& bodies, const Geometry& g) {
    const Body& a = bodies[c.i];
    const double dvx = c.j < 0 ? a.vx : a.vx - bodies[c.j].vx;
    const double dvy = c.j < 0 ? a.vy : a.vy - bodies[c.j].vy;
    return g.gx * dvx + g.gy * dvy;
}

// v += h·a_ext(x, v) for every body that moves.
template <class Accel>
void integrate_velocities(std::vector<Body>& bodies, double h, Accel&& accel) {
    for (Body& b : bodies) {
        if (b.inv_mass == 0.0) continue;
        const auto [ax, ay] = accel(static_cast<const Body&>(b));
        b.vx += h * ax;
        b.vy += h * ay;
    }
}

// x += h·v.
inline void integrate_positions(std::vector<Body>& bodies, double h) {
    for (Body& b : bodies) {
        b.x += h * b.vx;
        b.y += h * b.vy;
    }
}

template <class Accel>
void step(std::vector<Body>& bodies, std::vector<Constraint>& constraints, double h, Accel&& accel,
          int iterations = 8, double baumgarte = 0.2) {
    integrate_velocities(bodies, h, accel);
    for (Constraint& c : constraints) c.lambda = 0.0;
    for (int it = 0; it < iterations; ++it) {
        for (Constraint& c : constraints) {
            const Geometry g = geometry(c, bodies);
            const double w = inverse_mass(c, bodies);
            if (!(w > 0.0) || (g.gx == 0.0 && g.gy == 0.0)) continue;
            const double cdot = along(c, bodies, g);
            double impulse;
            if (c.compliance == 0.0) {
                impulse = -(cdot + (baumgarte / h) * g.c) / w;
            } else {
                const double k = 1.0 / c.compliance;
                const double gamma = 1.0 / (h * (c.damping + h * k));
                impulse = -(cdot + g.c * h * k * gamma + gamma * c.lambda) / (w + gamma);
            }
            c.lambda += impulse;
            push(c, bodies, impulse, g);
        }
    }
    integrate_positions(bodies, h);
}

}  // namespace sequential_impulses
