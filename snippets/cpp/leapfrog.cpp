// Leapfrog (kick-drift-kick): the velocity lives at half steps, started with a half kick;
// Body's v is the synchronised velocity. Second order, symplectic.
// Force evaluations per step: 1 (plus 1 at the start).
#include <array>

namespace leapfrog {

struct Body { double x, y, vx, vy; };  // position (m), velocity (m/s)
struct Spring { double k, m, b; };     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0

// The spring's acceleration along one axis: a = (−k·p − b·v)/m.
inline double spring_acceleration(const Spring& s, double p, double v) { return (1.0 / s.m) * (-s.k * p - s.b * v); }

// What leapfrog carries between steps. Start from Carry{}, and again whenever you move the body
// by hand or change h (the half-step velocity belongs to one h).
struct Carry {
    bool started = false;
    double vhx = 0, vhy = 0, ax = 0, ay = 0;
};

// Any force: accel(x, y, vx, vy) returns {ax, ay} (m/s²): a struct, std::pair or std::array<double, 2>.
// A damping force sees the predicted end velocity, so the step stays second order with it.
template <class Accel>
void step(Body& b, Carry& c, double h, Accel&& accel) {
    if (!c.started) {
        const auto [ax, ay] = accel(b.x, b.y, b.vx, b.vy);
        c.ax = ax;
        c.ay = ay;
        c.vhx = b.vx + 0.5 * h * c.ax;  // the starting half kick
        c.vhy = b.vy + 0.5 * h * c.ay;
        c.started = true;
    }
    b.x += h * c.vhx;  // drift
    b.y += h * c.vhy;
    const auto [ax, ay] = accel(b.x, b.y, c.vhx + 0.5 * h * c.ax, c.vhy + 0.5 * h * c.ay);
    c.ax = ax;
    c.ay = ay;
    b.vx = c.vhx + 0.5 * h * c.ax;  // synchronised velocity
    b.vy = c.vhy + 0.5 * h * c.ay;
    c.vhx += h * c.ax;  // kick to the next half step
    c.vhy += h * c.ay;
}

inline void step_spring(Body& b, Carry& c, const Spring& s, double h) {
    step(b, c, h, [&](double x, double y, double vx, double vy) {
        return std::array<double, 2>{spring_acceleration(s, x, vx), spring_acceleration(s, y, vy)};
    });
}

}  // namespace leapfrog
