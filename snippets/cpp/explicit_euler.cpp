// Explicit Euler: x += v·h and v += a·h, both slopes taken at the start of the step.
// First order; on an undamped spring its energy grows by (1 + ω²h²) every step.
// Force evaluations per step: 1.
namespace explicit_euler {

struct Body { double x, y, vx, vy; };  // position (m), velocity (m/s)
struct Spring { double k, m, b; };     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0

// The spring's acceleration along one axis: a = (−k·p − b·v)/m.
inline double spring_acceleration(const Spring& s, double p, double v) { return (1.0 / s.m) * (-s.k * p - s.b * v); }

inline void step_spring(Body& b, const Spring& s, double h) {
    const double ax = spring_acceleration(s, b.x, b.vx), ay = spring_acceleration(s, b.y, b.vy);
    b.x += h * b.vx;
    b.y += h * b.vy;
    b.vx += h * ax;
    b.vy += h * ay;
}

// Any force: accel(x, y, vx, vy) returns {ax, ay} (m/s²): a struct, std::pair or std::array<double, 2>.
template <class Accel>
void step(Body& b, double h, Accel&& accel) {
    const auto [ax, ay] = accel(b.x, b.y, b.vx, b.vy);
    b.x += h * b.vx;
    b.y += h * b.vy;
    b.vx += h * ax;
    b.vy += h * ay;
}

}  // namespace explicit_euler
