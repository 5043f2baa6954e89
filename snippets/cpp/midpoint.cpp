// Midpoint (RK2): half an Euler step, then a full step with the slopes at that midpoint.
// Second order.
// Force evaluations per step: 2.
namespace midpoint {

struct Body { double x, y, vx, vy; };  // position (m), velocity (m/s)
struct Spring { double k, m, b; };     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0

// The spring's acceleration along one axis: a = (−k·p − b·v)/m.
inline double spring_acceleration(const Spring& s, double p, double v) { return (1.0 / s.m) * (-s.k * p - s.b * v); }

inline void step_spring(Body& b, const Spring& s, double h) {
    const double vmx = b.vx + 0.5 * h * spring_acceleration(s, b.x, b.vx);
    const double vmy = b.vy + 0.5 * h * spring_acceleration(s, b.y, b.vy);
    const double amx = spring_acceleration(s, b.x + 0.5 * h * b.vx, vmx);
    const double amy = spring_acceleration(s, b.y + 0.5 * h * b.vy, vmy);
    b.x += h * vmx;
    b.y += h * vmy;
    b.vx += h * amx;
    b.vy += h * amy;
}

// Any force: accel(x, y, vx, vy) returns {ax, ay} (m/s²): a struct, std::pair or std::array<double, 2>.
template <class Accel>
void step(Body& b, double h, Accel&& accel) {
    const auto [ax, ay] = accel(b.x, b.y, b.vx, b.vy);
    const double vmx = b.vx + 0.5 * h * ax, vmy = b.vy + 0.5 * h * ay;
    const auto [amx, amy] = accel(b.x + 0.5 * h * b.vx, b.y + 0.5 * h * b.vy, vmx, vmy);
    b.x += h * vmx;
    b.y += h * vmy;
    b.vx += h * amx;
    b.vy += h * amy;
}

}  // namespace midpoint
