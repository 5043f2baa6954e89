// The simple pendulum in closed form (pendulum_exact.hpp). References: DLMF chapters 19
// (elliptic integrals) and 22 (Jacobi elliptic functions), https://dlmf.nist.gov; Abramowitz and
// Stegun 16 and 17 for the same formulas.
//
// Write w = sqrt(g/L), a = sin(theta/2), c = cos(theta/2), b = omega/(2w). The energy per unit
// m L^2 is E = omega^2/2 + w^2 (1 - cos theta) = 2 w^2 (b^2 + a^2), and the top's is 2 w^2, so
// k^2 = E/E_top = a^2 + b^2 and k^2 - 1 = b^2 - c^2 (a^2 + c^2 = 1). That last difference is
// computed as (b - c)(b + c), which loses nothing beyond the rounding of b and c: its sign picks
// the regime and its size is 1 - k^2 = k'^2 itself, so k' never comes from 1 - k^2 (the
// cancellation that would ruin the near-separatrix cases).
#include "pendulum_exact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stepwise {

namespace {

constexpr double pi = 3.14159265358979323846;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double infinity = std::numeric_limits<double>::infinity();

// The arithmetic-geometric mean sequence of DLMF 22.20(ii) for modulus k (complement kp):
// a_0 = 1, b_0 = k', c_0 = k; a_{n+1} = (a_n + b_n)/2, b_{n+1} = sqrt(a_n b_n),
// c_{n+1} = (a_n - b_n)/2. Since a_n^2 - b_n^2 = c_n^2 for every n (true at n = 0, and kept by
// the step), c_{n+1} = c_n^2 / (4 a_{n+1}): computed so, c keeps its relative accuracy instead
// of cancelling in a_n - b_n. Quadratic convergence: k' = 1e-300 needs 12 steps, k' = 1e-8 six.
struct Agm {
    static constexpr int max_steps = 40;
    int n = 0;
    double a[max_steps + 1];
    double b[max_steps + 1];
    double c[max_steps + 1];
    double quarter;  // K(k) = pi / (2 a_N)  (DLMF 19.8.5, M(1, k') = lim a_n)

    Agm(double k, double kp) {
        a[0] = 1.0;
        b[0] = kp;
        c[0] = k;
        // Stop once c_n/a_n is below 2^-56: the next arcsin term in the backward recursion of
        // DLMF 22.20(ii) would change phi_n by less than a quarter of an ulp.
        while (n < max_steps && c[n] > 0x1p-56 * a[n]) {
            a[n + 1] = 0.5 * (a[n] + b[n]);
            b[n + 1] = std::sqrt(a[n] * b[n]);
            c[n + 1] = c[n] * c[n] / (4.0 * a[n + 1]);
            ++n;
        }
        quarter = pi / (2.0 * a[n]);
    }

    // am(x, k) by DLMF 22.20(ii): phi_N = 2^N a_N x, phi_{n-1} = (phi_n + arcsin(c_n sin(phi_n)
    // / a_n)) / 2 for n = N, ..., 1; am = phi_0. The map phi_n -> phi_{n-1} has a derivative
    // between 0 and 1, but arcsin near 1 does not: as k -> 1, c_1/a_1 = (1 - k')/(1 + k') and
    // c_1 sin(phi_1)/a_1 comes within k' of 1, where an ulp of the sine became 1/sqrt(k') ulps
    // of the angle (measured: 3e-12 relative on cn at k' = 1.4e-5). So the arcsine is taken as
    // an atan2 whose cosine side is computed without cancellation: since a_n^2 - c_n^2 = b_n^2
    // (above), a_n^2 - c_n^2 sin^2 phi = a_n^2 cos^2 phi + b_n^2 sin^2 phi, and
    // arcsin(c_n sin phi / a_n) = atan2(c_n sin phi, hypot(a_n cos phi, b_n sin phi)).
    // Then phi_0 is right to a few ulps of its size.
    double amplitude(double x) const {
        double phi = std::ldexp(a[n] * x, n);
        for (int i = n; i >= 1; --i) {
            const double s = std::sin(phi), co = std::cos(phi);
            phi = 0.5 * (phi + std::atan2(c[i] * s, std::hypot(a[i] * co, b[i] * s)));
        }
        return phi;
    }
};

// sn, cn, dn, am on the first quarter period 0 <= x <= K. The split at K/2 keeps cn relatively
// accurate (to about an ulp over cn, and cn >= sqrt(k'/(1 + k')) on 0 <= x <= K/2).
JacobiElliptic quarter_period(const Agm& agm, double k, double kp, double x) {
    const double big_k = agm.quarter;
    x = std::clamp(x, 0.0, big_k);
    JacobiElliptic e;
    if (x <= 0.5 * big_k) {
        e.am = agm.amplitude(x);
        e.sn = std::sin(e.am);  // sn = sin am, cn = cos am (DLMF 22.16(i))
        e.cn = std::cos(e.am);
        // dn^2 = 1 - k^2 sn^2 = k'^2 + k^2 cn^2 (DLMF 22.6.1): a sum of positive terms, so dn
        // is as accurate as cn, and never below k' (the ratio cos phi_0 / cos(phi_1 - phi_0)
        // of DLMF 22.20(ii) divides two small numbers near K when k -> 1).
        e.dn = std::sqrt(kp * kp + k * k * e.cn * e.cn);
        return e;
    }
    // Near K, cn -> 0 and am -> pi/2 would lose their relative digits. Reflect: v = K - x
    // (DLMF 22.4(iii), Table 22.4.3, the shift by K): sn(K - v) = cd(v) = cn v / dn v,
    // cn(K - v) = k' sd(v) = k' sn v / dn v, dn(K - v) = k' nd(v) = k' / dn v.
    const JacobiElliptic r = quarter_period(agm, k, kp, big_k - x);
    e.sn = r.cn / r.dn;
    e.cn = kp * r.sn / r.dn;
    e.dn = kp / r.dn;
    // am = atan2(sn, cn), scaled by dn v > 0: pi/2 - am(x) is then the small angle it is.
    e.am = std::atan2(r.cn, kp * r.sn);
    return e;
}

// sn, cn, dn, am at any u: u = 2K j + r with -K <= r < K (j counts half periods), then
// sn(u) = (-1)^j sn r, cn(u) = (-1)^j cn r, dn(u) = dn r, am(u) = j pi + am r (DLMF Table 22.4.3,
// 22.16(i)), and sn, am odd, cn, dn even (DLMF Table 22.4.3 and 22.16(i), u -> -u).
// half_turns receives j (as a double: it can exceed an int for huge u); am excludes j pi.
JacobiElliptic any_argument(const Agm& agm, double k, double kp, double u, double& half_turns) {
    const double half_period = 2.0 * agm.quarter;
    double r = std::fmod(u, half_period);  // exact: u - j' * half_period with |r| < half_period
    double j = std::round((u - r) / half_period);
    if (r >= agm.quarter) {
        r -= half_period;
        j += 1.0;
    } else if (r < -agm.quarter) {
        r += half_period;
        j -= 1.0;
    }
    JacobiElliptic e = quarter_period(agm, k, kp, std::fabs(r));
    if (r < 0.0) {
        e.sn = -e.sn;
        e.am = -e.am;
    }
    if (std::fmod(j, 2.0) != 0.0) {
        e.sn = -e.sn;
        e.cn = -e.cn;
    }
    half_turns = j;
    return e;
}

// Carlson's symmetric integral R_F(x, y, z) = (1/2) int_0^inf dt / sqrt((t+x)(t+y)(t+z)) for
// x, y, z >= 0, at most one of them 0, by the duplication theorem (DLMF 19.26(ii), algorithm of
// DLMF 19.36(i), Carlson 1995): each step x <- (x + lambda)/4, ... with
// lambda = sqrt(x y) + sqrt(y z) + sqrt(z x) keeps R_F and shrinks the spread by 4; once the
// spread is below (3 r)^(1/6) of the mean, the fifth-order series
// R_F = A^(-1/2) (1 - E2/10 + E3/14 + E2^2/24 - 3 E2 E3/44) is good to r (here r ~ 1e-17).
double carlson_rf(double x, double y, double z) {
    const double a0 = (x + y + z) / 3.0;
    double a = a0;
    // Q = (3r)^(-1/6) max|A0 - x|, r = 1e-17: (3e-17)^(-1/6) < 570.
    double q = 570.0 * std::max({std::fabs(a0 - x), std::fabs(a0 - y), std::fabs(a0 - z)});
    const double x0 = x, y0 = y;
    double scale = 1.0;  // 4^-n
    while (q * scale >= std::fabs(a)) {
        const double sx = std::sqrt(x), sy = std::sqrt(y), sz = std::sqrt(z);
        const double lambda = sx * sy + sy * sz + sz * sx;
        x = 0.25 * (x + lambda);
        y = 0.25 * (y + lambda);
        z = 0.25 * (z + lambda);
        a = 0.25 * (a + lambda);
        scale *= 0.25;
    }
    // X = (A0 - x0) / (4^n A), Y likewise, Z = -X - Y (DLMF 19.36.1).
    const double dx = (a0 - x0) * scale / a;
    const double dy = (a0 - y0) * scale / a;
    const double dz = -dx - dy;
    const double e2 = dx * dy - dz * dz;
    const double e3 = dx * dy * dz;
    return (1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0 - 3.0 * e2 * e3 / 44.0) / std::sqrt(a);
}

bool finite(double v) { return std::isfinite(v); }

}  // namespace

double elliptic_k_complement(double kp) {
    if (!(kp > 0.0 && kp <= 1.0)) return kp == 0.0 ? infinity : nan;
    return Agm(std::sqrt((1.0 - kp) * (1.0 + kp)), kp).quarter;
}

double elliptic_k(double k) {
    if (!(k >= 0.0 && k < 1.0)) return k == 1.0 ? infinity : nan;
    return Agm(k, std::sqrt((1.0 - k) * (1.0 + k))).quarter;
}

double elliptic_f(double phi, double k) {
    // F(phi, k) = sin phi R_F(cos^2 phi, 1 - k^2 sin^2 phi, 1) (DLMF 19.25.5), |phi| <= pi/2,
    // with 1 - k^2 sin^2 = cos^2 + k'^2 sin^2: no cancellation as phi -> pi/2 and k -> 1.
    const double s = std::sin(phi), c = std::cos(phi);
    const double kp2 = (1.0 - k) * (1.0 + k);
    return s * carlson_rf(c * c, c * c + kp2 * s * s, 1.0);
}

JacobiElliptic jacobi_elliptic(double u, double k) {
    if (!(k >= 0.0 && k < 1.0) || !finite(u)) return {nan, nan, nan, nan};
    const double kp = std::sqrt((1.0 - k) * (1.0 + k));
    const Agm agm(k, kp);
    double half_turns = 0.0;
    JacobiElliptic e = any_argument(agm, k, kp, u, half_turns);
    e.am += half_turns * pi;
    return e;
}

PendulumExact::PendulumExact(double theta0, double omega0, double g, double L)
    : regime_(PendulumRegime::rest), period_(infinity) {
    theta0_ = theta0;
    omega0_ = omega0;
    if (!(L > 0.0) || !finite(L) || !finite(g) || !finite(theta0) || !finite(omega0)) {
        theta0_ = omega0_ = period_ = nan;
        return;
    }
    if (g == 0.0) {
        regime_ = omega0 == 0.0 ? PendulumRegime::rest : PendulumRegime::uniform;
        if (omega0 != 0.0) period_ = 2.0 * pi / std::fabs(omega0);
        return;
    }
    // g < 0: theta'' = (|g|/L) sin theta; with theta = pi + phi, phi'' = -(|g|/L) sin phi, the
    // ordinary pendulum in phi. offset_ collects that pi and the whole turns of the start.
    double phi0 = theta0;
    if (g < 0.0) {
        phi0 = theta0 - pi;
        offset_ = pi;
    }
    w_ = std::sqrt(std::fabs(g) / L);
    // Reduce the start to (-pi, pi]: the remainder is exact (relative to the double 2 pi), so
    // n 2 pi + r gives back phi0 to an ulp.
    const double r0 = std::remainder(phi0, 2.0 * pi);
    const double turns0 = std::round((phi0 - r0) / (2.0 * pi));
    offset_ += turns0 * 2.0 * pi;
    theta0_ = r0;  // reduced start, used by the rest and separatrix forms
    const double a = std::sin(0.5 * r0), c = std::cos(0.5 * r0);  // c >= 0
    const double b = omega0 / (2.0 * w_);
    const double excess = (b - c) * (b + c);  // k^2 - 1, see the top of this file
    k_ = std::hypot(a, b);
    if (k_ == 0.0) {
        regime_ = PendulumRegime::rest;  // at rest at the bottom
        return;
    }
    if (excess < 0.0) {
        // Libration (DLMF 22.19(i); A&S 16): sin(theta/2) = k sn(w t + u0, k),
        // omega = 2 k w cn(w t + u0, k). Check: with s = sin(theta/2) = k sn, cos(theta/2) =
        // sqrt(1 - k^2 sn^2) = dn; s' = (1/2) cos(theta/2) omega = k w cn dn, so omega = 2 k w
        // cn, and (omega/2w)^2 + sin^2(theta/2) = k^2 (cn^2 + sn^2) = k^2: the energy.
        regime_ = PendulumRegime::libration;
        m_ = k_;
        mp_ = std::sqrt(-excess);  // k' = sqrt(c^2 - b^2), no 1 - k^2
        const Agm agm(m_, mp_);
        quarter_ = agm.quarter;
        period_ = 4.0 * quarter_ / w_;  // sn has period 4K in u = w t (DLMF 22.4(i))
        // u0: sn u0 = a/k, cn u0 = b/k, dn u0 = c. On -K <= u0 <= K (cn >= 0),
        // u0 = F(am u0, k) = sn u0 R_F(cn^2 u0, dn^2 u0, 1) (DLMF 19.25.5 with 22.16(i)); for
        // cn < 0 the same sn is at 2K - u (sn(2K - u) = sn u, cn(2K - u) = -cn u, DLMF Table 22.4.3),
        // or at -2K - u for negative sn.
        const double sn0 = a / k_, cn0 = b / k_;
        const double u = sn0 * carlson_rf(cn0 * cn0, c * c, 1.0);
        u0_ = cn0 >= 0.0 ? u : std::copysign(2.0 * quarter_, sn0) - u;
        return;
    }
    sign_ = b > 0.0 ? 1.0 : -1.0;
    if (excess == 0.0) {
        // Separatrix (k = 1): phi = theta/2 obeys phi' = sign w cos phi, so
        // phi = gd(z) = atan(sinh z), z = z0 + sign w t (gd' = sech = cos gd, DLMF 4.23(viii)),
        // z0 = gd^-1(phi0) = asinh(tan phi0) (DLMF 4.23(viii)). Equivalently
        // theta = 4 atan(e^z) - pi, omega = 2 sign w sech z (sn(u, 1) = tanh u,
        // cn(u, 1) = dn(u, 1) = sech u, DLMF 22.5(ii)).
        regime_ = PendulumRegime::separatrix;
        u0_ = std::asinh(a / c);
        return;
    }
    // Rotation (k > 1): phi = theta/2 obeys phi'^2 = w^2 (k^2 - sin^2 phi) = (k w)^2
    // (1 - m^2 sin^2 phi) with m = 1/k < 1, so phi = am(k w t + u0, m) (dam/du = dn,
    // DLMF 22.16(i); the reciprocal-modulus transformation of DLMF 22.17(i) in this form) and
    // omega = 2 sign k w dn(k w t + u0, m). am(u + 2K) = am(u) + pi (DLMF 22.16(i)): a turn of
    // theta takes 2K(m)/(k w).
    regime_ = PendulumRegime::rotation;
    m_ = 1.0 / k_;
    mp_ = std::sqrt((b - c) / k_ * ((b + c) / k_));  // m' = sqrt(1 - 1/k^2) = sqrt(k^2 - 1)/k, no overflow
    const Agm agm(m_, mp_);
    quarter_ = agm.quarter;
    period_ = 2.0 * quarter_ / (k_ * w_);
    // u0 = F(psi0, m) with psi0 = sign theta0/2 in [-pi/2, pi/2]: sin psi0 = sign a,
    // cos psi0 = c, 1 - m^2 sin^2 psi0 = c^2 + m'^2 a^2 (DLMF 19.25.5).
    u0_ = sign_ * a * carlson_rf(c * c, c * c + mp_ * mp_ * a * a, 1.0);
}

PendulumState PendulumExact::at(double t) const {
    switch (regime_) {
        case PendulumRegime::rest:
            if (std::isnan(theta0_)) return {nan, nan};
            return {offset_ + theta0_, 0.0};
        case PendulumRegime::uniform:
            return {theta0_ + omega0_ * t, omega0_};
        case PendulumRegime::separatrix: {
            const double z = u0_ + sign_ * w_ * t;
            return {offset_ + 2.0 * std::atan(std::sinh(z)), 2.0 * sign_ * w_ / std::cosh(z)};
        }
        case PendulumRegime::libration: {
            // t mod period, exactly (fmod has no rounding): the phase keeps its digits at any t,
            // only the period's own rounding accumulates, one ulp of it per period.
            const double tau = std::fmod(t, period_);
            const Agm agm(m_, mp_);
            double half_turns = 0.0;
            const JacobiElliptic e = any_argument(agm, m_, mp_, u0_ + w_ * tau, half_turns);
            // theta/2 = atan2(sin, cos) = atan2(k sn, dn): both exact in relative terms, so
            // theta keeps its digits near the top (dn -> k') where asin(k sn) would not.
            return {offset_ + 2.0 * std::atan2(k_ * e.sn, e.dn), 2.0 * k_ * w_ * e.cn};
        }
        case PendulumRegime::rotation: {
            const double tau = std::fmod(t, period_);
            const double turns = std::round((t - tau) / period_);
            const Agm agm(m_, mp_);
            double half_turns = 0.0;
            const JacobiElliptic e = any_argument(agm, m_, mp_, u0_ + k_ * w_ * tau, half_turns);
            // theta = 2 am = 2 pi (turns + j/2 ...): am(u) = j pi + am(r), each half period of u
            // is half a turn of theta/2, i.e. one full turn (2 pi) of theta.
            const double whole = offset_ + sign_ * 2.0 * pi * (turns + half_turns);
            return {whole + sign_ * 2.0 * e.am, sign_ * 2.0 * k_ * w_ * e.dn};
        }
    }
    return {nan, nan};
}

PendulumState pendulum_exact(double theta0, double omega0, double g, double L, double t) {
    return PendulumExact(theta0, omega0, g, L).at(t);
}

double pendulum_period(double theta0, double omega0, double g, double L) {
    return PendulumExact(theta0, omega0, g, L).period();
}

double pendulum_period_of_amplitude(double amplitude, double g, double L) {
    if (!(g > 0.0 && L > 0.0 && amplitude >= 0.0 && amplitude < pi)) return nan;
    // k = sin(A/2), k' = cos(A/2) taken directly (not sqrt(1 - k^2)).
    const double kp = std::cos(0.5 * amplitude);
    return 4.0 * elliptic_k_complement(kp) * std::sqrt(L / g);
}

}  // namespace stepwise
