// Heun: an Euler predictor, then the average of the slopes at both ends (trapezoid).
// Second order.
// Force evaluations per step: 2.
namespace heun {

struct Body { double x, y, vx, vy; };  // position (m), velocity (m/s)
struct Spring { double k, m, b; };     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0

// The spring's acceleration along one axis: a = (−k·p − b·v)/m.
inline double spring_acceleration(const Spring& s, double p, double v) { return (1.0 / s.m) * (-s.k * p - s.b * v); }

inline void step_spring(Body& b, const Spring& s, double h) {
    const double ax1 = spring_acceleration(s, b.x, b.vx), ay1 = spring_acceleration(s, b.y, b.vy);
    const double vpx = b.vx + h * ax1, vpy = b.vy + h * ay1;  // predicted end velocity
    const double ax2 = spring_acceleration(s, b.x + h * b.vx, vpx);
    const double ay2 = spring_acceleration(s, b.y + h * b.vy, vpy);
    b.x += 0.5 * h * (b.vx + vpx);
    b.y += 0.5 * h * (b.vy + vpy);
    b.vx += 0.5 * h * (ax1 + ax2);
    b.vy += 0.5 * h * (ay1 + ay2);
}

// Any force: accel(x, y, vx, vy) returns {ax, ay} (m/s²): a struct, std::pair or std::array<double, 2>.
template <class Accel>
void step(Body& b, double h, Accel&& accel) {
    const auto [ax1, ay1] = accel(b.x, b.y, b.vx, b.vy);
    const double vpx = b.vx + h * ax1, vpy = b.vy + h * ay1;  // predicted end velocity
    const auto [ax2, ay2] = accel(b.x + h * b.vx, b.y + h * b.vy, vpx, vpy);
    b.x += 0.5 * h * (b.vx + vpx);
    b.y += 0.5 * h * (b.vy + vpy);
    b.vx += 0.5 * h * (ax1 + ax2);
    b.vy += 0.5 * h * (ay1 + ay2);
}

}  // namespace heun
