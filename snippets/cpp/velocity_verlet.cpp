// Velocity Verlet: x += v·h + ½a·h², then v += ½(a + a_new)·h; a_new is kept for the next step.
// Second order, symplectic.
// Force evaluations per step: 1 (acceleration reused; plus 1 at the start).
#include <array>

namespace velocity_verlet {

struct Body { double x, y, vx, vy; };  // position (m), velocity (m/s)
struct Spring { double k, m, b; };     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0

// The spring's acceleration along one axis: a = (−k·p − b·v)/m.
inline double spring_acceleration(const Spring& s, double p, double v) { return (1.0 / s.m) * (-s.k * p - s.b * v); }

// The cached acceleration. Start from Carry{}, and again whenever you move the body by hand or
// change the forces.
struct Carry {
    bool started = false;
    double ax = 0, ay = 0;
};

// Any force: accel(x, y, vx, vy) returns {ax, ay} (m/s²): a struct, std::pair or std::array<double, 2>.
// A damping force sees the predicted velocity v + a·h, so the step stays second order with it.
template <class Accel>
void step(Body& b, Carry& c, double h, Accel&& accel) {
    if (!c.started) {
        const auto [ax, ay] = accel(b.x, b.y, b.vx, b.vy);
        c.ax = ax;
        c.ay = ay;
        c.started = true;
    }
    const double ax0 = c.ax, ay0 = c.ay;
    b.x += h * b.vx + 0.5 * h * h * ax0;
    b.y += h * b.vy + 0.5 * h * h * ay0;
    const auto [ax, ay] = accel(b.x, b.y, b.vx + h * ax0, b.vy + h * ay0);
    c.ax = ax;
    c.ay = ay;
    b.vx += 0.5 * h * (ax0 + c.ax);
    b.vy += 0.5 * h * (ay0 + c.ay);
}

inline void step_spring(Body& b, Carry& c, const Spring& s, double h) {
    step(b, c, h, [&](double x, double y, double vx, double vy) {
        return std::array<double, 2>{spring_acceleration(s, x, vx), spring_acceleration(s, y, vy)};
    });
}

}  // namespace velocity_verlet
