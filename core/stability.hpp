// Linear stability of the integrators, measured from their own step functions.
//
// The test equation is the damped oscillator x'' = -ω² x - 2ζω x' (one body, m = 1, a spring
// of k = ω² = 1 to the origin and a damper b = 2ζ), stepped with h = ωh. Every integrator here
// is linear on it, so one step is a matrix M acting on the lane's whole state (x, v and what
// the method carries between steps: leapfrog's half-step velocity, Störmer's previous position,
// velocity Verlet's cached acceleration). M is built column by column by stepping the lane from
// each basis state; nothing about any method is typed in by hand. The method is stable at
// (ωh, ζ) when the spectral radius ρ(M) ≤ 1 (to stability_tolerance).
#pragma once
#include "integrators.hpp"
#include "system.hpp"

#include <vector>

namespace stepwise {

constexpr double stability_tolerance = 1e-12;
// ωh below this is not sampled: there every consistent method's radius lies within round-off
// of 1 and says nothing (explicit Euler's ρ - 1 = (ωh)²/2 drops under 1e-12 at ωh ≈ 1.4e-6).
constexpr double stability_probe_min = 1e-2;
// Sampled up to this ωh; a method stable on all of it is reported unconditionally stable.
constexpr double stability_probe_max = 1e4;

// Steps one integrator on the test equation; holds its system and lane, so probing many points
// allocates nothing.
class OscillatorProbe {
public:
    explicit OscillatorProbe(int integrator);
    // ρ of the one-step map at step ωh and damping ratio ζ ≥ 0.
    double radius(double omega_h, double zeta);
    // ρ ≤ 1 + stability_tolerance, decided from the map's trace and determinant where its range is
    // two-dimensional (map_within), so a double root costs no digits.
    bool stable(double omega_h, double zeta);
    // The state's dimension (x, v and the carried values that the method uses).
    int dimension() const { return dim_; }

private:
    // The one-step map at (ωh, ζ) into map_, stepped from each basis state.
    void build_map(double omega_h, double zeta);

    int integrator_;
    System system_;
    Lane lane_;
    int dim_ = 0;
    int used_[5] = {};  // the lane components that are state, in order
    std::vector<double> map_, scratch_;
};

struct StabilityLimit {
    // The largest ωh such that every ωh in [stability_probe_min, limit] is stable; 0 when the
    // smallest probe is unstable already (no positive interval is stable).
    double limit = 0.0;
    bool unconditional = false;  // stable at every probe up to stability_probe_max
    bool adaptive = false;       // rk45: its controller shrinks its own substeps, so any dt is stable
};
// Bisected to a relative 1e-13 between the last stable and the first unstable probe.
StabilityLimit oscillator_limit(int integrator, double zeta = 0.0);

// The fastest mode of a system linearised at (x, v): ω² the largest eigenvalue (in absolute
// value) of the mass-weighted stiffness M^-1/2 K M^-1/2, K = -m ∂a/∂x; ζ the damping ratio of
// that mode from the velocity Jacobian (linear dampers and quadratic drag linearised at v).
// With rigid links the motion has fewer coordinates than the bodies: the modes are those of the
// reduced coordinates (a chain's angles), K v = ω² M v on the links' tangent space T (the null
// space of their Jacobian J): M_r = Tᵀ M T, K_r = Tᵀ (K + Σ λ_l H_l) T, with λ_l the rigid link's
// tension at (x, v) (its Lagrange multiplier) and H_l the Hessian of its length, which is
// (I − n nᵀ)/|d| on each end (the pull of a taut rod turns into stiffness across it). For the
// N-link pendulum at rest this is the linearisation of M(θ) θ'' = f(θ) (the hanging double
// pendulum of equal masses and lengths: ω² = (g/L)(2 ± √2)); velocity-dependent terms (a start
// with ω0 ≠ 0) are left out.
enum class ModeKind {
    spring,        // a force's stiffness: springs, a central body
    link_stretch,  // compliant links stretching: most of the mode's potential energy is in them,
                   // ω ≈ √(1/(α m)) (the stiffest for any small α)
    swing,         // a rigid chain (or pendulum) swinging: one of its small-oscillation modes
};
const char* mode_kind_id(ModeKind k);    // "spring", "link_stretch", "swing"
const char* mode_kind_text(ModeKind k);  // in words, for messages
struct StiffestMode {
    bool oscillates = false;  // false: no restoring force at all (free flight, gravity)
    double omega = 0.0;
    double zeta = 0.0;
    ModeKind kind = ModeKind::spring;
    int modes = 0;  // the linearisation's modes: 2 per body, less one per rigid link
};
StiffestMode stiffest_mode(const System& s, const dvec2* x, const dvec2* v);

// One lane on a system whose stiffest mode is `mode`, stepped at dt in `substeps` substeps
// (each h = dt / substeps): written once for `stepwise stability` and the page's Stability view.
struct LaneStability {
    StabilityLimit at_zeta;     // the method's limit at the mode's damping (ζ = 0 without an oscillation)
    double omega_dt = 0.0;      // ω·dt (0 without an oscillation)
    double omega_h = 0.0;       // ω·h, where the lane's substeps sit on the method's map
    bool has_largest = false;   // bounded and oscillating: a largest stable dt exists
    double largest_dt = 0.0;    // substeps · limit / ω: a lane of S substeps reaches the limit at S times the dt
    // The probe's verdict at ω·h, not a comparison with the limit: beyond the limit the stable
    // set need not be empty (the limit is where the first interval of stable ωh ends).
    bool stable_now = true;
};
LaneStability lane_stability(int integrator, int substeps, const StiffestMode& mode, double dt);

// The spectral radius of a dense n x n matrix (row-major), from the growth of its powers
// (repeated squaring with rescaling): exact to round-off for the small maps above, including
// complex pairs of equal modulus and Jordan blocks.
double spectral_radius(int n, const double* m, double* scratch /* 2 n² doubles */);
// The same for the one-step maps (n ≤ 5): restricted to the range of M (same nonzero
// eigenvalues), and in closed form when that range is two-dimensional, so a symplectic map
// reads exactly 1 up to the double root at its limit (where repeated squaring would lose half
// the digits, about 1e-8 in ρ).
double map_radius(int n, const double* m, double* scratch /* 2 n² doubles */);
// Whether every eigenvalue of the map lies in |λ| ≤ 1 + tolerance: from the characteristic
// polynomial's coefficients (Schur–Cohn) when the range is two-dimensional, which stays exact to
// round-off at a double root, where the radius itself is only good to √ε.
bool map_within(int n, const double* m, double tolerance, double* scratch /* 2 n² doubles */);

}  // namespace stepwise
