// Störmer–Verlet (position Verlet): x_next = 2x − x_prev + a·h², the first step by Taylor,
// v from the central difference. Second order, symplectic.
// Force evaluations per step: 1 (plus 1 at the start).
#include <array>

namespace stormer_verlet {

struct Body { double x, y, vx, vy; };  // position (m), velocity (m/s)
struct Spring { double k, m, b; };     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0

// The spring's acceleration along one axis: a = (−k·p − b·v)/m.
inline double spring_acceleration(const Spring& s, double p, double v) { return (1.0 / s.m) * (-s.k * p - s.b * v); }

// What the method carries between steps: the previous position and the last acceleration.
// Start from Carry{}, and again whenever you move the body by hand or change h.
struct Carry {
    bool started = false;
    double prev_x = 0, prev_y = 0, ax = 0, ay = 0;
};

// Any force: accel(x, y, vx, vy) returns {ax, ay} (m/s²): a struct, std::pair or std::array<double, 2>.
// A damping force sees a predicted velocity, so the step stays second order with it.
template <class Accel>
void step(Body& b, Carry& c, double h, Accel&& accel) {
    double next_x, next_y;
    if (!c.started) {
        const auto [ax, ay] = accel(b.x, b.y, b.vx, b.vy);
        c.ax = ax;
        c.ay = ay;
        next_x = b.x + h * b.vx + 0.5 * h * h * c.ax;  // Taylor
        next_y = b.y + h * b.vy + 0.5 * h * h * c.ay;
        c.started = true;
    } else {
        next_x = 2.0 * b.x - c.prev_x + h * h * c.ax;
        next_y = 2.0 * b.y - c.prev_y + h * h * c.ay;
    }
    const double vpx = (next_x - b.x) / h + 0.5 * h * c.ax;  // predicted velocity at the new position
    const double vpy = (next_y - b.y) / h + 0.5 * h * c.ay;
    c.prev_x = b.x;
    c.prev_y = b.y;
    b.x = next_x;
    b.y = next_y;
    const auto [ax, ay] = accel(b.x, b.y, vpx, vpy);
    c.ax = ax;
    c.ay = ay;
    b.vx = (b.x - c.prev_x) / h + 0.5 * h * c.ax;
    b.vy = (b.y - c.prev_y) / h + 0.5 * h * c.ay;
}

inline void step_spring(Body& b, Carry& c, const Spring& s, double h) {
    step(b, c, h, [&](double x, double y, double vx, double vy) {
        return std::array<double, 2>{spring_acceleration(s, x, vx), spring_acceleration(s, y, vy)};
    });
}

}  // namespace stormer_verlet
