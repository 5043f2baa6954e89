// Soft step (Box2D v3): v += h·a_ext; warm start (each constraint's impulse from the last call
// applied again along its current direction); n solve passes of soft impulses (a rigid constraint soft at
// the joint frequency, a compliant one as its spring and damper); x += h·v; one relax pass without
// the rigid constraints' bias, which takes back the velocity the bias added.
// First order: each spring is implicit Euler on the velocity level, the external forces explicit.
// Force evaluations per step: 1 external-force evaluation + 1 solve pass per iteration (default 1) + 1 relax pass.
//
// One call is one substep of h: Stepwise's lane soft_step@SxI is S calls of h = dt/S, I solve
// passes each (Box2D: 4 substeps of one).
// A Body's inv_mass is 1/m (1/kg); 0: a fixed body, never moved. A Constraint is a distance between
// bodies i and j, or with j = -1 between body i and the fixed point (ax, ay); compliance α =
// 1/stiffness (m/N, 0: rigid); damping c (N·s/m) along it. lambda carries the impulse (N·s) from
// call to call (Box2D's warm start: start it at 0, and zero it again when bodies are moved by
// hand); after a call it is the impulse that call applied: the constraint's tension is
// −lambda/h (N), e.g. to break it.
// accel(body) returns the external acceleration {ax, ay} (m/s²): gravity, dampers, drag.
#include <algorithm>
#include <cmath>
#include <vector>

namespace soft_step {

struct Body { double x, y, vx, vy, inv_mass; };  // position (m), velocity (m/s), 1/mass (1/kg)
struct Constraint {
    int i, j;          // bodies; j = -1: the fixed point (ax, ay)
    double ax, ay;     // m
    double rest;       // rest length (m)
    double compliance; // α (m/N); 0: rigid
    double damping;    // c (N·s/m) along the constraint
    double lambda;     // written by the step
};

// Box2D v3.0's joint softness for rigid constraints (b2DefaultWorldDef): 60 Hz, damping ratio 2,
// the frequency capped at 1/8 of the substep rate.
constexpr double joint_hertz = 60.0;
constexpr double joint_damping_ratio = 2.0;
constexpr double joint_hertz_cap = 0.125;  // × 1/h

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

// A spring of angular frequency omega and damping ratio zeta on C, as implicit Euler over h takes
// it: the bias rate on C, and the scales of the impulse's mass and of the impulse already applied.
// omega = 0: rigid, no bias.
struct Softness { double bias_rate, mass_scale, impulse_scale; };
inline Softness make_soft(double omega, double zeta, double h) {
    if (omega == 0.0) return {0.0, 1.0, 0.0};
    const double a1 = 2.0 * zeta + h * omega;
    const double a2 = h * omega * a1;
    const double a3 = 1.0 / (1.0 + a2);
    return {omega / a1, a2 * a3, a3};
}

// One pass over the constraints. A compliant constraint is its spring (stiffness 1/α, damper c) in
// every pass, given to make_soft as ω = √(w/α), ζ = c·w/(2ω); a rigid one is soft at `joint` in a
// solve pass (use_bias) and rigid without bias in the relax pass.
inline void soft_pass(std::vector<Body>& bodies, std::vector<Constraint>& constraints, double h, bool use_bias,
                      const Softness& joint) {
    for (Constraint& c : constraints) {
        const Geometry g = geometry(c, bodies);
        const double w = inverse_mass(c, bodies);
        if (!(w > 0.0) || (g.gx == 0.0 && g.gy == 0.0)) continue;
        Softness soft{0.0, 1.0, 0.0};
        if (c.compliance > 0.0) {
            const double omega = std::sqrt(w / c.compliance);
            soft = make_soft(omega, c.damping * w / (2.0 * omega), h);
        } else if (use_bias) {
            soft = joint;
        }
        const double impulse =
            -soft.mass_scale / w * (along(c, bodies, g) + soft.bias_rate * g.c) - soft.impulse_scale * c.lambda;
        c.lambda += impulse;
        push(c, bodies, impulse, g);
    }
}

// Warm start: each constraint's impulse from the last call applied again, along its direction at
// the current positions (Box2D's b2WarmStartDistanceJoint). The passes then add onto lambda; a
// constraint that cannot move keeps it.
inline void warm_start(std::vector<Body>& bodies, const std::vector<Constraint>& constraints) {
    for (const Constraint& c : constraints) {
        const Geometry g = geometry(c, bodies);
        const double w = inverse_mass(c, bodies);
        if (!(w > 0.0) || (g.gx == 0.0 && g.gy == 0.0)) continue;
        push(c, bodies, c.lambda, g);
    }
}

template <class Accel>
void step(std::vector<Body>& bodies, std::vector<Constraint>& constraints, double h, Accel&& accel,
          int iterations = 1) {
    integrate_velocities(bodies, h, accel);
    warm_start(bodies, constraints);
    const double hertz = std::min(joint_hertz, joint_hertz_cap / h);
    const double pi = 3.14159265358979323846;
    const Softness joint = make_soft(2.0 * pi * hertz, joint_damping_ratio, h);
    for (int it = 0; it < iterations; ++it) soft_pass(bodies, constraints, h, true, joint);
    integrate_positions(bodies, h);
    soft_pass(bodies, constraints, h, false, joint);
}

}  // namespace soft_step
