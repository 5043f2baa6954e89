// Yoshida 4 (Forest–Ruth), a symplectic composition: three Verlet steps of weights w1, w0, w1
// (w0 < 0), i.e. four drifts and three kicks. Fourth order.
// Damping is not kicked: its exact flow is applied on either side of each kick, so it stays fourth order.
// Force evaluations per step: 3.
#include <cmath>

namespace yoshida4 {

struct Body { double x, y, vx, vy; };  // position (m), velocity (m/s)
struct Spring { double k, m, b; };     // stiffness (N/m), mass (kg), damping (N·s/m); anchored at the origin, rest length 0

constexpr double cbrt2 = 1.2599210498948732;  // 2^(1/3)
constexpr double w1 = 1.0 / (2.0 - cbrt2), w0 = -cbrt2 / (2.0 - cbrt2);
constexpr double drift[4] = {0.5 * w1, 0.5 * (w0 + w1), 0.5 * (w0 + w1), 0.5 * w1};
constexpr double kick[3] = {w1, w0, w1};

// The kick is the spring −k·x/m; the damper's flow is v·e^(−b·t/m).
inline void step_spring(Body& b, const Spring& s, double h) {
    const double inv_m = 1.0 / s.m;
    for (int i = 0; i < 4; ++i) {
        b.x += drift[i] * h * b.vx;
        b.y += drift[i] * h * b.vy;
        if (i == 3) break;
        const double damp = std::exp(-s.b * inv_m * (0.5 * kick[i] * h));  // the damper alone, half the kick's time
        b.vx *= damp;
        b.vy *= damp;
        b.vx += kick[i] * h * (inv_m * (-s.k * b.x));
        b.vy += kick[i] * h * (inv_m * (-s.k * b.y));
        b.vx *= damp;
        b.vy *= damp;
    }
}

// Any force without damping: accel(x, y, vx, vy) returns {ax, ay} (m/s²): a struct, std::pair or
// std::array<double, 2>.
template <class Accel>
void step(Body& b, double h, Accel&& accel) {
    for (int i = 0; i < 4; ++i) {
        b.x += drift[i] * h * b.vx;
        b.y += drift[i] * h * b.vy;
        if (i == 3) break;
        const auto [ax, ay] = accel(b.x, b.y, b.vx, b.vy);
        b.vx += kick[i] * h * ax;
        b.vy += kick[i] * h * ay;
    }
}

// With damping or drag: accel gives the other forces (it is called with v = 0) and
// dissipate(vx, vy, t, reverse) returns {vx, vy} after the damping forces alone act for t (t may
// be negative; with several such forces apply them in reverse order when reverse is true).
template <class Accel, class Dissipate>
void step(Body& b, double h, Accel&& accel, Dissipate&& dissipate) {
    for (int i = 0; i < 4; ++i) {
        b.x += drift[i] * h * b.vx;
        b.y += drift[i] * h * b.vy;
        if (i == 3) break;
        const double t = 0.5 * kick[i] * h;
        const auto [ux, uy] = dissipate(b.vx, b.vy, t, false);
        const auto [ax, ay] = accel(b.x, b.y, 0.0, 0.0);
        const auto [wx, wy] = dissipate(ux + kick[i] * h * ax, uy + kick[i] * h * ay, t, true);
        b.vx = wx;
        b.vy = wy;
    }
}

}  // namespace yoshida4
