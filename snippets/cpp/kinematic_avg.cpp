// Kinematic (average acceleration): as the kinematic integrator (each force's exact dv over the
// step), but every force's dx is ½·dv·h. Second order for one spring, damped or not; first order
// once damping acts beside another force, or with a force without a closed form.
// Force evaluations per step: 1 (each force's closed form).
#include <cmath>

namespace kinematic_avg {

struct Body { double x, y, vx, vy; };  // position (m), velocity (m/s)
struct Spring { double k, m, b; };     // stiffness (N/m), mass (kg), damping (N·s/m); rest length 0
struct Increment { double dvx, dvy, dx, dy; };  // dx: the displacement beyond v·h, here ½·dv·h

// The damped oscillator d'' = −w2·d − 2·gamma·d' over time t: d(t) = dd·d0 + dv·v0,
// v(t) = vd·d0 + vv·v0. Under-, critically and over-damped.
struct OscillatorMap { double dd, dv, vd, vv; };
inline OscillatorMap oscillator_map(double w2, double gamma, double t) {
    double eC, eS;  // e^(−gamma·t) times (cos wt, sin(wt)/w), (1, t) or (cosh rt, sinh(rt)/r)
    const double disc = gamma * gamma - w2;
    if (disc < 0.0) {
        const double w = std::sqrt(-disc), decay = std::exp(-gamma * t);
        eC = decay * std::cos(w * t);
        eS = decay * std::sin(w * t) / w;
    } else if (disc == 0.0) {
        const double decay = std::exp(-gamma * t);
        eC = decay;
        eS = decay * t;
    } else {
        const double r = std::sqrt(disc);  // written with decaying exponentials: no overflow, no cancellation
        if (2.0 * r * t > 700.0) {
            eC = 0.5 * std::exp((r - gamma) * t);
            eS = eC / r;
        } else {
            const double slow = std::exp(-(gamma + r) * t), grow = std::expm1(2.0 * r * t);
            eS = slow * grow / (2.0 * r);
            eC = slow * (1.0 + 0.5 * grow);
        }
    }
    return {eC + gamma * eS, eS, -w2 * eS, eC - gamma * eS};
}

// What a spring (rest length 0) alone does over h to a body at offset (px, py) from its anchor:
// its exact dv, and dx = ½·dv·h.
inline Increment spring_increment(const Spring& s, double px, double py, double vx, double vy, double h) {
    const double inv_m = 1.0 / s.m;
    const OscillatorMap o = oscillator_map(s.k * inv_m, 0.5 * s.b * inv_m, h);
    const double dvx = o.vd * px + o.vv * vx - vx, dvy = o.vd * py + o.vv * vy - vy;
    return {dvx, dvy, 0.5 * h * dvx, 0.5 * h * dvy};
}

// A spring anchored at the origin.
inline void step_spring(Body& b, const Spring& s, double h) {
    const Increment i = spring_increment(s, b.x, b.y, b.vx, b.vy, h);
    b.x += h * b.vx + i.dx;
    b.y += h * b.vy + i.dy;
    b.vx += i.dvx;
    b.vy += i.dvy;
}

// Any set of forces, each a callable (x, y, vx, vy, h) -> Increment: build them with gravity,
// spring_force and approximate below. Their increments are summed in argument order.
template <class... Forces>
void step(Body& b, double h, const Forces&... forces) {
    Increment sum{0.0, 0.0, 0.0, 0.0};
    auto add = [&sum](const Increment& i) {
        sum.dvx += i.dvx;
        sum.dvy += i.dvy;
        sum.dx += i.dx;
        sum.dy += i.dy;
    };
    (add(forces(b.x, b.y, b.vx, b.vy, h)), ...);
    b.x += h * b.vx + sum.dx;
    b.y += h * b.vy + sum.dy;
    b.vx += sum.dvx;
    b.vy += sum.dvy;
}

// A constant acceleration (m/s²): dx = ½·dv·h is its exact displacement.
inline auto gravity(double gx, double gy) {
    return [gx, gy](double, double, double, double, double h) {
        return Increment{h * gx, h * gy, 0.5 * h * h * gx, 0.5 * h * h * gy};
    };
}
// A spring of rest length 0 to the anchor (ax, ay): its exact dv.
inline auto spring_force(const Spring& s, double ax = 0.0, double ay = 0.0) {
    return [s, ax, ay](double x, double y, double vx, double vy, double h) {
        return spring_increment(s, x - ax, y - ay, vx, vy, h);
    };
}
// A force without a closed form, accel(x, y, vx, vy) -> {ax, ay}: dv = a·h, dx = ½·a·h².
template <class Accel>
auto approximate(Accel accel) {
    return [accel](double x, double y, double vx, double vy, double h) {
        const auto [ax, ay] = accel(x, y, vx, vy);
        return Increment{h * ax, h * ay, 0.5 * h * (h * ax), 0.5 * h * (h * ay)};
    };
}

}  // namespace kinematic_avg
