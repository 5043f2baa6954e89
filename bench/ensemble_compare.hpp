// Shared by the ensemble comparison's native benchmark (ensemble_compare.cpp) and its wasm driver
// (ensemble_compare_wasm.cpp): the physics, the start states and "the limit", plain hand-written
// structure-of-arrays loops with one fused pass per component and step.
//
// The physics: kCopies independent copies of one body (m = 1) on a spring to a fixed anchor at
// the origin, F = -k x - b v (k = 15, b = 0.1, rest length 0), dt = 0.01. The x and y components
// are independent 1D oscillators, so each limit loop runs over one component's arrays at a time.
//
// Every limit loop does the operations of the matching Stepwise method (core/integrators.cpp,
// core/ensemble_kernels.inc) on the same operands in the same order, so with the build's
// -ffp-contract=off it gives the Ensemble's bits: the benchmark checks it.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

namespace stepwise_compare {

constexpr int kCopies = 10000;
constexpr double kDt = 0.01;
constexpr double kStiffness = 15.0;
constexpr double kDamping = 0.1;

// The start states, per copy: a sunflower (golden-angle) pattern filling a disc of radius 0.1
// around (x, vx) = (1, 0), and a smaller one in (y, vy); deterministic and even.
struct Start {
    std::vector<double> x, y, vx, vy;
};

inline Start make_start(int copies) {
    Start s;
    for (int k = 0; k < copies; ++k) {
        const double r = std::sqrt((k + 0.5) / copies), phi = 2.399963229728653 * k;
        const double c = std::cos(phi), sn = std::sin(phi);
        s.x.push_back(1.0 + 0.1 * r * c);
        s.vx.push_back(0.1 * r * sn);
        s.y.push_back(0.01 * r * sn);
        s.vy.push_back(0.01 * r * c);
    }
    return s;
}

// The methods the limit implements (each as the Stepwise integrator of the same id).
enum class LimitMethod { semi_implicit_euler, semi_implicit_euler_x, velocity_verlet, rk4 };
constexpr const char* limit_method_ids[] = {"semi_implicit_euler", "semi_implicit_euler_x", "velocity_verlet",
                                            "rk4"};

namespace limit {

using Out = double* __restrict;

// a = -k x - b v, written nk x - b v with nk = -k (as the ensemble's spring kernel; its
// 0.0 + (1/m) F is exact for m = 1).

// Velocity first: v += h a(x, v), then x += h v.
inline void semi_implicit_euler(int n, Out x, Out v, double nk, double b, double h) {
    for (int i = 0; i < n; ++i) {
        const double a = nk * x[i] - b * v[i];
        const double vn = v[i] + h * a;
        v[i] = vn;
        x[i] = x[i] + h * vn;
    }
}

// Position first: x += h v, then v += h a(x_new, v).
inline void semi_implicit_euler_x(int n, Out x, Out v, double nk, double b, double h) {
    for (int i = 0; i < n; ++i) {
        const double xn = x[i] + h * v[i];
        const double a = nk * xn - b * v[i];
        x[i] = xn;
        v[i] = v[i] + h * a;
    }
}

// The first step's acceleration (velocity Verlet carries it).
inline void acceleration(int n, Out a, const double* __restrict x, const double* __restrict v, double nk,
                         double b) {
    for (int i = 0; i < n; ++i) a[i] = nk * x[i] - b * v[i];
}

// x += h v + h^2/2 a; the force at the predicted velocity v + h a; v += h/2 (a + a_new).
inline void velocity_verlet(int n, Out x, Out v, Out a, double nk, double b, double h) {
    const double c2 = 0.5 * h * h, hh = 0.5 * h;
    for (int i = 0; i < n; ++i) {
        const double xn = x[i] + (h * v[i] + c2 * a[i]);
        const double vp = v[i] + h * a[i];
        const double an = nk * xn - b * vp;
        v[i] = v[i] + hh * (a[i] + an);
        x[i] = xn;
        a[i] = an;
    }
}

// The classic fourth-order Runge–Kutta step, every stage in registers.
inline void rk4(int n, Out x, Out v, double nk, double b, double h) {
    const double hh = 0.5 * h, h6 = h / 6.0;
    for (int i = 0; i < n; ++i) {
        const double x1 = x[i], v1 = v[i];
        const double a1 = nk * x1 - b * v1;
        const double x2 = x1 + hh * v1, v2 = v1 + hh * a1;
        const double a2 = nk * x2 - b * v2;
        const double x3 = x1 + hh * v2, v3 = v1 + hh * a2;
        const double a3 = nk * x3 - b * v3;
        const double x4 = x1 + h * v3, v4 = v1 + h * a3;
        const double a4 = nk * x4 - b * v4;
        x[i] = x1 + h6 * (v1 + 2.0 * (v2 + v3) + v4);
        v[i] = v1 + h6 * (a1 + 2.0 * (a2 + a3) + a4);
    }
}

}  // namespace limit

// The limit engine: the state as four arrays (x, y, vx, vy) plus velocity Verlet's carried
// acceleration.
struct Limit {
    LimitMethod method;
    double k, b;
    std::vector<double> x, y, vx, vy, ax, ay;
    bool started = false;

    Limit(LimitMethod m, double stiffness, double damping) : method(m), k(stiffness), b(damping) {}

    void reset(const Start& s) {
        x = s.x;
        y = s.y;
        vx = s.vx;
        vy = s.vy;
        ax.assign(x.size(), 0.0);
        ay.assign(x.size(), 0.0);
        started = false;
    }

    void step(double h) {
        const int n = static_cast<int>(x.size());
        const double nk = -k;
        switch (method) {
        case LimitMethod::semi_implicit_euler:
            limit::semi_implicit_euler(n, x.data(), vx.data(), nk, b, h);
            limit::semi_implicit_euler(n, y.data(), vy.data(), nk, b, h);
            break;
        case LimitMethod::semi_implicit_euler_x:
            limit::semi_implicit_euler_x(n, x.data(), vx.data(), nk, b, h);
            limit::semi_implicit_euler_x(n, y.data(), vy.data(), nk, b, h);
            break;
        case LimitMethod::velocity_verlet:
            if (!started) {
                limit::acceleration(n, ax.data(), x.data(), vx.data(), nk, b);
                limit::acceleration(n, ay.data(), y.data(), vy.data(), nk, b);
            }
            limit::velocity_verlet(n, x.data(), vx.data(), ax.data(), nk, b, h);
            limit::velocity_verlet(n, y.data(), vy.data(), ay.data(), nk, b, h);
            break;
        case LimitMethod::rk4:
            limit::rk4(n, x.data(), vx.data(), nk, b, h);
            limit::rk4(n, y.data(), vy.data(), nk, b, h);
            break;
        }
        started = true;
    }
};

}  // namespace stepwise_compare
