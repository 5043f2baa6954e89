// Runge–Kutta 4 (the classic RK4): four slopes per step, weighted 1, 2, 2, 1.
// Fourth order; on an undamped spring it slowly loses energy.
// Force evaluations per step: 4.
namespace rk4 {

struct Body { double x, y, vx, vy; };  // position (m), velocity (m/s)
struct Spring { double k, m, b; };     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0

// The spring's acceleration along one axis: a = (−k·p − b·v)/m.
inline double spring_acceleration(const Spring& s, double p, double v) { return (1.0 / s.m) * (-s.k * p - s.b * v); }

// The spring acts on each axis alone, so each axis takes the same four stages.
inline void rk4_axis(const Spring& s, double h, double& p, double& v) {
    const double a1 = spring_acceleration(s, p, v);
    const double v2 = v + 0.5 * h * a1;
    const double a2 = spring_acceleration(s, p + 0.5 * h * v, v2);
    const double v3 = v + 0.5 * h * a2;
    const double a3 = spring_acceleration(s, p + 0.5 * h * v2, v3);
    const double v4 = v + h * a3;
    const double a4 = spring_acceleration(s, p + h * v3, v4);
    p += (h / 6.0) * (v + 2.0 * (v2 + v3) + v4);
    v += (h / 6.0) * (a1 + 2.0 * (a2 + a3) + a4);
}

inline void step_spring(Body& b, const Spring& s, double h) {
    rk4_axis(s, h, b.x, b.vx);
    rk4_axis(s, h, b.y, b.vy);
}

// Any force: accel(x, y, vx, vy) returns {ax, ay} (m/s²): a struct, std::pair or std::array<double, 2>.
template <class Accel>
void step(Body& b, double h, Accel&& accel) {
    const double x = b.x, y = b.y, vx = b.vx, vy = b.vy;
    const auto [ax1, ay1] = accel(x, y, vx, vy);
    const double vx2 = vx + 0.5 * h * ax1, vy2 = vy + 0.5 * h * ay1;
    const auto [ax2, ay2] = accel(x + 0.5 * h * vx, y + 0.5 * h * vy, vx2, vy2);
    const double vx3 = vx + 0.5 * h * ax2, vy3 = vy + 0.5 * h * ay2;
    const auto [ax3, ay3] = accel(x + 0.5 * h * vx2, y + 0.5 * h * vy2, vx3, vy3);
    const double vx4 = vx + h * ax3, vy4 = vy + h * ay3;
    const auto [ax4, ay4] = accel(x + h * vx3, y + h * vy3, vx4, vy4);
    b.x = x + (h / 6.0) * (vx + 2.0 * (vx2 + vx3) + vx4);
    b.y = y + (h / 6.0) * (vy + 2.0 * (vy2 + vy3) + vy4);
    b.vx = vx + (h / 6.0) * (ax1 + 2.0 * (ax2 + ax3) + ax4);
    b.vy = vy + (h / 6.0) * (ay1 + 2.0 * (ay2 + ay3) + ay4);
}

}  // namespace rk4
