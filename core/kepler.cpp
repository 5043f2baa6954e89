#include "kepler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stepwise {

namespace {

constexpr double two_pi = 6.283185307179586476925286766559;

}  // namespace

// Near z = 0 both functions lose every digit to cancellation in their closed forms; their
// series c2 = sum (-z)^k/(2k+2)!, c3 = sum (-z)^k/(2k+3)! converge fast for |z| < 1.
double stumpff_c2(double z) {
    if (std::fabs(z) < 1.0) {
        double term = 0.5, sum = 0.5;
        for (int k = 1; k < 14; ++k) {
            term *= -z / ((2.0 * k + 1.0) * (2.0 * k + 2.0));
            sum += term;
        }
        return sum;
    }
    if (z > 0.0) {
        const double half = std::sin(0.5 * std::sqrt(z));
        return 2.0 * half * half / z;  // 1 - cos s = 2 sin^2(s/2): no cancellation
    }
    const double half = std::sinh(0.5 * std::sqrt(-z));
    return 2.0 * half * half / -z;
}

double stumpff_c3(double z) {
    if (std::fabs(z) < 1.0) {
        double term = 1.0 / 6.0, sum = term;
        for (int k = 1; k < 14; ++k) {
            term *= -z / ((2.0 * k + 2.0) * (2.0 * k + 3.0));
            sum += term;
        }
        return sum;
    }
    if (z > 0.0) {
        const double s = std::sqrt(z);
        return (s - std::sin(s)) / (s * s * s);
    }
    const double s = std::sqrt(-z);
    return (std::sinh(s) - s) / (s * s * s);
}

OrbitElements orbit_elements(double gm, dvec2 r, dvec2 v) {
    const double rlen = std::sqrt(r.x * r.x + r.y * r.y);
    const double energy = 0.5 * (v.x * v.x + v.y * v.y) - gm / rlen;
    const double h = r.x * v.y - r.y * v.x;
    const double e = std::sqrt(std::max(0.0, 1.0 + 2.0 * energy * h * h / (gm * gm)));
    double period = 0.0;
    if (energy < 0.0) {
        const double a = -gm / (2.0 * energy);
        period = two_pi * std::sqrt(a * a * a / gm);
    }
    return {energy, h, e, h * h / (gm * (1.0 + e)), period};
}

bool kepler_propagate(double gm, dvec2& r, dvec2& v, double t) {
    const double r0 = std::sqrt(r.x * r.x + r.y * r.y);
    if (!(r0 > 0.0) || !std::isfinite(r0) || !std::isfinite(v.x) || !std::isfinite(v.y) || !(gm > 0.0) ||
        !(t >= 0.0))
        return false;
    if (t == 0.0) return true;
    const double sqrt_mu = std::sqrt(gm);
    const double v2 = v.x * v.x + v.y * v.y;
    const double alpha = 2.0 / r0 - v2 / gm;  // 1/a: > 0 ellipse, 0 parabola, < 0 hyperbola
    if (alpha > 0.0) {
        // A whole number of periods brings the body back exactly: keep only the remainder, so
        // that the universal variable stays within one revolution.
        const double period = two_pi / (sqrt_mu * alpha * std::sqrt(alpha));
        if (t >= period) t = std::fmod(t, period);
    }
    const double sigma0 = (r.x * v.x + r.y * v.y) / sqrt_mu;  // r0 . v0 / sqrt(mu)
    const double one_minus = 1.0 - alpha * r0;

    // Kepler's equation in the universal variable chi:
    //   F(chi) = sigma0 chi^2 c2 + (1 - alpha r0) chi^3 c3 + r0 chi - sqrt(mu) t = 0,  z = alpha chi^2,
    // F'(chi) = |r(chi)| >= 0: F increases, so a bracket [lo, hi] and Newton steps kept inside
    // it (bisection where Newton leaves it) always converge.
    auto kepler = [&](double chi, double& f, double& df) {
        const double z = alpha * chi * chi;
        const double c2 = stumpff_c2(z), c3 = stumpff_c3(z);
        f = sigma0 * chi * chi * c2 + one_minus * chi * chi * chi * c3 + r0 * chi - sqrt_mu * t;
        df = sigma0 * chi * (1.0 - z * c3) + one_minus * chi * chi * c2 + r0;
    };
    double lo = 0.0, hi = sqrt_mu * t / r0;  // chi ~ sqrt(mu) t / r0 for short times
    if (alpha > 0.0) hi = std::max(hi, sqrt_mu * alpha * t);
    double f, df;
    for (int k = 0; k < 2100; ++k) {
        kepler(hi, f, df);
        if (!(f < 0.0)) break;  // a NaN (overflowing cosh) counts as past the root
        lo = hi;
        hi *= 2.0;
    }
    double chi = std::min(hi, std::max(lo, sqrt_mu * t / r0));
    // Newton kept safe (as in Numerical Recipes' rtsafe): bisect whenever the Newton step
    // leaves the bracket or shrinks the error less than bisection would. On a hyperbola far
    // from the root F grows like an exponential and plain Newton would crawl.
    double step_before_last = hi - lo, last_step = step_before_last;
    for (int k = 0; k < 200; ++k) {
        kepler(chi, f, df);
        if (f == 0.0) break;
        if (f < 0.0) lo = chi; else hi = chi;
        double next = chi - f / df;
        const bool newton = next > lo && next < hi && std::fabs(2.0 * f) <= std::fabs(step_before_last * df);
        if (!newton) next = 0.5 * (lo + hi);
        step_before_last = last_step;
        last_step = next - chi;
        const bool done = std::fabs(next - chi) <= 4.0 * std::numeric_limits<double>::epsilon() * std::fabs(next) ||
                          next == lo || next == hi;
        chi = next;
        if (done) break;
    }

    // Lagrange coefficients: r = f r0 + g v0, v = fdot r0 + gdot v0.
    const double z = alpha * chi * chi;
    const double c2 = stumpff_c2(z), c3 = stumpff_c3(z);
    const double chi2 = chi * chi;
    const double f_coef = 1.0 - chi2 * c2 / r0;
    const double g_coef = t - chi2 * chi * c3 / sqrt_mu;
    const dvec2 rn = f_coef * r + g_coef * v;
    const double rn_len = std::sqrt(rn.x * rn.x + rn.y * rn.y);
    const double fdot = sqrt_mu * chi * (z * c3 - 1.0) / (rn_len * r0);
    const double gdot = 1.0 - chi2 * c2 / rn_len;
    const dvec2 vn = fdot * r + gdot * v;
    if (!std::isfinite(rn.x) || !std::isfinite(rn.y) || !std::isfinite(vn.x) || !std::isfinite(vn.y) ||
        !(rn_len > 0.0))
        return false;
    r = rn;
    v = vn;
    return true;
}

}  // namespace stepwise
