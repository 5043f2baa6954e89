// The rigid, undamped simple pendulum in closed form: theta'' = -(g/L) sin theta, theta measured
// from straight down, through Jacobi elliptic functions in all three regimes (libration below
// the top's energy, the separatrix exactly at it, rotation over the top), with the elliptic
// functions computed by the arithmetic-geometric mean (DLMF 19.8, 22.20) so that the cases near
// the separatrix (modulus k -> 1) keep their digits. No I/O, no allocation.
//
// Accuracy (tests/test_pendulum_exact.cpp): theta and omega agree with a long-double Taylor
// integration of the ODE over 10 s to 2e-16 .. 1e-14 of their scale in libration, rotation and on
// the separatrix, to 4e-13 within 1e-12 of the separatrix and at 179.9 degrees (the integration's
// own limit there: against a 32-digit integration the closed form is within 3e-15 at 179.9
// degrees), and to 5e-13 after 100 periods (260 s). The energy is constant to 4e-16 relative
// (4e-14 over the top after 100 turns, the rounding of the unwrapped angle, ~600 rad). The phase
// is reduced modulo the period with an exact remainder (std::fmod), so a large t costs only the
// period's own rounding (about 1e-16 relative per period elapsed). Near the separatrix the
// problem itself is ill-conditioned: k'^2 = c^2 - b^2 inherits the rounding of cos(theta0/2) and
// of omega0/(2 sqrt(g/L)), a relative error of 1e-16/k'^2 that moves the time of each pass by
// the top by about that much times 1/sqrt(g/L).
#pragma once

namespace stepwise {

// Complete elliptic integral of the first kind K(k) = int_0^{pi/2} dphi / sqrt(1 - k^2 sin^2 phi)
// for 0 <= k < 1, by the AGM: K = pi / (2 M(1, k')) (DLMF 19.8.5). The second form takes the
// complementary modulus k' = sqrt(1 - k^2) itself, which keeps every digit as k -> 1 (where k'
// computed from k would have lost them).
double elliptic_k(double k);
double elliptic_k_complement(double kp);

// Incomplete elliptic integral of the first kind F(phi, k) for |phi| <= pi/2, 0 <= k <= 1
// (k = 1 only for |phi| < pi/2), by Carlson's R_F (DLMF 19.25.5, 19.36.1).
double elliptic_f(double phi, double k);

// Jacobi's elliptic functions sn, cn, dn and the amplitude am of (u, k) for 0 <= k < 1 and any
// real u, by the AGM (DLMF 22.20(ii)) on the quarter period and its symmetries (DLMF 22.4(iii)).
struct JacobiElliptic {
    double sn, cn, dn, am;
};
JacobiElliptic jacobi_elliptic(double u, double k);

// The pendulum's state: theta (rad, from straight down, unwrapped: continuous in t, growing
// by 2 pi per turn over the top) and omega = theta' (rad/s).
struct PendulumState {
    double theta, omega;
};

enum class PendulumRegime {
    rest,        // at rest at the bottom (k = 0), or g = 0 with omega0 = 0
    libration,   // energy below the top's: swings, k = sqrt(E/E_top) < 1
    separatrix,  // energy exactly the top's: approaches the top as t -> +-infinity
    rotation,    // energy above the top's: goes over the top, k > 1
    uniform,     // g = 0: uniform rotation theta0 + omega0 t
};

// The closed form for one start (theta0, omega0) at t = 0, g (m/s^2) and L (m). Domain:
// L > 0, every argument finite; any real g (g < 0 is the pendulum hanging upwards: theta about
// pi), g = 0 is uniform rotation; any real t (negative t runs the motion backwards). Outside
// the domain every state is NaN. The separatrix is taken when the energy computed from the
// start is exactly the top's (e.g. theta0 = 0, omega0 = 2 sqrt(g/L)); a start within rounding
// of it takes the elliptic forms, which join the separatrix continuously (tested at
// k = 1 -+ 1e-12).
class PendulumExact {
public:
    PendulumExact(double theta0, double omega0, double g, double L);
    PendulumState at(double t) const;
    PendulumRegime regime() const { return regime_; }
    // Libration: the period 4 K(k) sqrt(L/g). Rotation: the time of one turn over the top,
    // 2 K(1/k) / (k sqrt(g/L)). Uniform: 2 pi/|omega0|. Separatrix and rest: +infinity.
    double period() const { return period_; }
    // k = sqrt(E / E_top) with E = omega^2/2 + (g/L)(1 - cos theta) and E_top = 2 g/L.
    double modulus() const { return k_; }

private:
    PendulumRegime regime_;
    double w_ = 0.0;           // sqrt(|g|/L)
    double offset_ = 0.0;      // a multiple of 2 pi added to the reduced angle (plus pi if g < 0)
    double sign_ = 1.0;        // the direction of motion (rotation, separatrix)
    double k_ = 0.0;           // modulus as defined above (libration: the elliptic modulus)
    double m_ = 0.0, mp_ = 0.0;  // elliptic modulus and its complement used by sn, cn, dn
    double quarter_ = 0.0;     // K of the elliptic modulus m_
    double u0_ = 0.0;          // the start's argument of the elliptic functions
    double theta0_ = 0.0, omega0_ = 0.0;
    double period_;
};

// One-shot forms of the above.
PendulumState pendulum_exact(double theta0, double omega0, double g, double L, double t);
double pendulum_period(double theta0, double omega0, double g, double L);
// The libration period for a swing of the given amplitude (rad, 0 <= amplitude < pi) from rest:
// 4 K(sin(amplitude/2)) sqrt(L/g), g > 0, L > 0.
double pendulum_period_of_amplitude(double amplitude, double g, double L);

}  // namespace stepwise
