// Semi-implicit Euler (x first), symplectic: x += v·h, then v += a(x_new, v)·h.
// First order; keeps a spring's energy bounded like the velocity-first variant.
// Force evaluations per step: 1.
namespace semi_implicit_euler_x {

struct Body { double x, y, vx, vy; };  // position (m), velocity (m/s)
struct Spring { double k, m, b; };     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0

// The spring's acceleration along one axis: a = (−k·p − b·v)/m.
inline double spring_acceleration(const Spring& s, double p, double v) { return (1.0 / s.m) * (-s.k * p - s.b * v); }

inline void step_spring(Body& b, const Spring& s, double h) {
    b.x += h * b.vx;
    b.y += h * b.vy;
    b.vx += h * spring_acceleration(s, b.x, b.vx);
    b.vy += h * spring_acceleration(s, b.y, b.vy);
}

// Any force: accel(x, y, vx, vy) returns {ax, ay} (m/s²): a struct, std::pair or std::array<double, 2>.
template <class Accel>
void step(Body& b, double h, Accel&& accel) {
    b.x += h * b.vx;
    b.y += h * b.vy;
    const auto [ax, ay] = accel(b.x, b.y, b.vx, b.vy);
    b.vx += h * ax;
    b.vy += h * ay;
}

}  // namespace semi_implicit_euler_x
