// Vertex block descent (VBD) with the augmented Lagrangian for rigid constraints: predict with the
// external forces, then n sweeps over the bodies, each taking one 2×2 Newton step on implicit
// Euler's energy as a function of that body alone (inertia, the constraints' springs, their
// dampers); after each sweep a rigid constraint's multiplier and penalty grow. v from the positions.
// First order: its iterations approach implicit Euler's step; the external forces explicit.
// Force evaluations per step: 1 external-force evaluation + 1 sweep over the bodies (every row twice) per iteration (default 10).
//
// One call is one substep of h: Stepwise's lane vbd@SxI is S calls of h = dt/S, I sweeps each.
// A Body's inv_mass is 1/m (1/kg); 0: a fixed body, never moved. A Constraint is a distance between
// bodies i and j, or with j = -1 between body i and the fixed point (ax, ay); compliance α =
// 1/stiffness (m/N, 0: rigid); damping c (N·s/m) along it. The step writes lambda and
// penalty, a rigid constraint's multiplier (N) and stiffness (N/m) of the augmented Lagrangian.
// accel(body) returns the external acceleration {ax, ay} (m/s²): gravity, dampers, drag.
#include <cmath>
#include <vector>

namespace vbd {

// x0, y0 keep where the body was at the substep's start: the step allocates nothing.
struct Body {
    double x, y, vx, vy, inv_mass;  // position (m), velocity (m/s), 1/mass (1/kg)
    double x0 = 0.0, y0 = 0.0;      // written by the step: the position at the substep's start
    double tx = 0.0, ty = 0.0;      // written by the step: the predicted position x̃
};
struct Constraint {
    int i, j;          // bodies; j = -1: the fixed point (ax, ay)
    double ax, ay;     // m
    double rest;       // rest length (m)
    double compliance; // α (m/N); 0: rigid
    double damping;    // c (N·s/m) along the constraint
    double lambda;     // written by the step
    double penalty;    // written by the step
};

// A rigid constraint's penalty starts at its effective mass over h² and grows by β·|C| after each
// sweep: β of Chris Giles's AVBD solver for Solver2D (2025).
constexpr double penalty_growth = 2e5;  // N/m²

// Constraint c at the current positions: C = |d| − rest, its direction g = d/|d| and |d|, d = x_i − x_j
// (g = 0 where the ends meet: no direction to push along).
struct Geometry { double c, gx, gy, length; };
inline Geometry geometry(const Constraint& c, const std::vector<Body>& bodies) {
    const Body& a = bodies[c.i];
    const double dx = a.x - (c.j < 0 ? c.ax : bodies[c.j].x);
    const double dy = a.y - (c.j < 0 ? c.ay : bodies[c.j].y);
    const double length = std::sqrt(dx * dx + dy * dy);
    if (length == 0.0) return {-c.rest, 0.0, 0.0, length};
    return {length - c.rest, dx / length, dy / length, length};
}

// The sum of the ends' inverse masses (a fixed point's is 0).
inline double inverse_mass(const Constraint& c, const std::vector<Body>& bodies) {
    return bodies[c.i].inv_mass + (c.j < 0 ? 0.0 : bodies[c.j].inv_mass);
}

// The predicted positions: v += h·a_ext(x, v), x += h·v, each body's start kept in (x0, y0).
template <class Accel>
void predict(std::vector<Body>& bodies, double h, Accel&& accel) {
    for (size_t n = 0; n < bodies.size(); ++n) {
        Body& b = bodies[n];
        b.x0 = b.x;
        b.y0 = b.y;
        if (b.inv_mass == 0.0) continue;
        const auto [ax, ay] = accel(static_cast<const Body&>(b));
        b.vx += h * ax;
        b.vy += h * ay;
        b.x += h * b.vx;
        b.y += h * b.vy;
    }
}

template <class Accel>
void step(std::vector<Body>& bodies, std::vector<Constraint>& constraints, double h, Accel&& accel,
          int iterations = 10) {
    predict(bodies, h, accel);
    for (Body& b : bodies) {  // the predicted positions x̃
        b.tx = b.x;
        b.ty = b.y;
    }
    const double h2 = h * h;
    for (Constraint& c : constraints) {
        c.lambda = 0.0;
        c.penalty = c.compliance > 0.0 ? 1.0 / c.compliance : 1.0 / (inverse_mass(c, bodies) * h2);
    }
    for (int it = 0; it < iterations; ++it) {
        for (int n = 0; n < static_cast<int>(bodies.size()); ++n) {
            Body& body = bodies[n];
            if (body.inv_mass == 0.0) continue;
            // Newton on G(x_n) = m/(2h²)·|x_n − x̃_n|² + Σ (½k·C² + λ·C + the damper): force f = −∇G,
            // Hessian [[h00, h01], [h01, h11]].
            const double inertia = 1.0 / body.inv_mass / h2;
            double fx = -inertia * (body.x - body.tx);
            double fy = -inertia * (body.y - body.ty);
            double h00 = inertia, h01 = 0.0, h11 = inertia;
            // Every constraint is looked at for brevity; with many bodies keep each body's list instead.
            for (const Constraint& c : constraints) {
                if (c.i != n && c.j != n) continue;
                const Geometry g = geometry(c, bodies);
                if (g.gx == 0.0 && g.gy == 0.0) continue;
                const double k = c.penalty, damper = c.damping / h;
                const double force = k * g.c + c.lambda;
                // How far the ends moved apart along g in this substep.
                double mx = bodies[c.i].x - bodies[c.i].x0, my = bodies[c.i].y - bodies[c.i].y0;
                if (c.j >= 0) {
                    mx -= bodies[c.j].x - bodies[c.j].x0;
                    my -= bodies[c.j].y - bodies[c.j].y0;
                }
                const double moved = g.gx * mx + g.gy * my;
                // The row pulls body i along −g, body j along +g.
                double pull = force + damper * moved;
                if (c.j == n) pull = -pull;
                fx -= pull * g.gx;
                fy -= pull * g.gy;
                const double kk = k + damper;
                h00 += kk * g.gx * g.gx;
                h01 += kk * g.gx * g.gy;
                h11 += kk * g.gy * g.gy;
                // The distance's curvature, kept where it is positive (a stretched constraint).
                if (g.length > 0.0 && force > 0.0) {
                    const double geo = force / g.length;
                    h00 += geo * (1.0 - g.gx * g.gx);
                    h01 -= geo * g.gx * g.gy;
                    h11 += geo * (1.0 - g.gy * g.gy);
                }
            }
            const double det = h00 * h11 - h01 * h01;
            if (!(det > 0.0)) continue;
            body.x += (h11 * fx - h01 * fy) / det;
            body.y += (h00 * fy - h01 * fx) / det;
        }
        for (Constraint& c : constraints) {
            if (c.compliance > 0.0) continue;
            const double C = geometry(c, bodies).c;
            c.lambda += c.penalty * C;
            c.penalty += penalty_growth * std::fabs(C);
        }
    }
    for (size_t n = 0; n < bodies.size(); ++n) {
        bodies[n].vx = (bodies[n].x - bodies[n].x0) / h;
        bodies[n].vy = (bodies[n].y - bodies[n].y0) / h;
    }
}

}  // namespace vbd
