// A system of point masses in 2D and the forces acting on them.
// Hot state (positions, velocities) lives in the lane; this holds the cold parameters.
#pragma once
#include "expression.hpp"
#include "layout.hpp"

#include <glm/ext/vector_double2.hpp>
#include <vector>

namespace stepwise {

using glm::dvec2;

// A spring from one body to a fixed anchor: F = -k(|d| - rest) d/|d| - b v, d = x - anchor.
struct AnchorSpring {
    int body;
    dvec2 anchor;
    double k, rest, b;
};

// A spring between two bodies: F_i = -k(|d| - rest) d/|d| - b (v_i - v_j), d = x_i - x_j.
struct PairSpring {
    int i, j;
    double k, rest, b;
};

// An attracting body fixed at `centre`: a = -gm (x - centre)/|x - centre|^3 on every body
// (F = -gm m r/|r|^3). A body closer than collision_radius has fallen into it.
struct CentralForce {
    dvec2 centre;
    double gm;
    double collision_radius;
};

// A link from body i to body j, or to a fixed anchor (j = no_body): it keeps their distance at
// `rest` (> 0). Its compliance α (m/N) says how: α = 0 is a rigid rod (a constraint
// |x_i − x_j| = rest, which no force law expresses: only the constrained reference and the
// position-based solvers can run it), α > 0 a spring of stiffness 1/α along the link. `damping`
// (N·s/m) acts on the relative velocity along the link only: F_i = −damping (n·(v_i − v_j)) n.
// See core/forces/link.hpp.
constexpr int no_body = -1;
struct Link {
    int i;
    int j;         // a body, or no_body: the link ends at `anchor`
    dvec2 anchor;  // j's place when j = no_body
    double rest;
    double compliance;
    double damping;
};

// A torsion spring from a turning body to the ground: τ = −κ (φ − rest) − c ω (κ in N·m/rad, c in
// N·m·s/rad; both 0: none). The angular block's first torque: with it a turning body is an
// oscillator in φ, whose closed form checks every method's angular updates.
struct TorsionSpring {
    double kappa = 0.0, rest = 0.0, damping = 0.0;
};

// A body that turns (layout planar, layout.hpp): body `body`'s angle φ and rate ω are the state's
// angular coordinate of this rotation's index; `inertia` I (kg·m², > 0) is its moment of inertia
// about its centre of mass. At most one torsion spring holds it (one list in System, not two: each
// vector a System holds is code in every copy of one, in the page's first frame too).
struct Rotation {
    int body;
    double inertia;
    double inv_inertia;
    TorsionSpring torsion;
};

// A force law a user writes (issue 22 §3; core/forces/written_force.hpp): on every body i,
// F = (fx, fy)(x_i, y_i, vx_i, vy_i, t, m_i, c1..c4), a_i = F/m_i. `present` is false when the
// link gives neither fx nor fy (then nothing of it is evaluated anywhere).
struct WrittenLaw {
    bool present = false;
    Expression fx, fy;  // a component left out is the constant 0
    double c[4] = {0.0, 0.0, 0.0, 0.0};
    // Its potential U = −∫₀ˣ fx dξ − ∫₀ʸ fy dη, decided once where the motion starts
    // (WrittenForce::decide_potential): `potential` when the force has one; `exact_potential` when
    // each component is a polynomial of degree ≤ 31 in its own coordinate (the 16-point rule is
    // exact); otherwise `no_potential` is the message code that says why it has none (a row of
    // core/messages.cpp) and `no_potential_args` its arguments.
    bool potential = false, exact_potential = false;
    std::string no_potential;
    MessageArgs no_potential_args;
};

struct System {
    std::vector<double> mass;      // per body, > 0
    std::vector<double> inv_mass;  // per body
    dvec2 gravity{0.0, 0.0};       // uniform acceleration on every body
    double drag = 0.0;             // quadratic air drag: F = -drag |v| v on every body
    double damper = 0.0;           // linear damper to the ground: F = -damper v on every body
    std::vector<AnchorSpring> anchor_springs;
    std::vector<PairSpring> pair_springs;
    std::vector<CentralForce> central_forces;
    std::vector<Link> links;
    WrittenLaw written;
    // The bodies that turn, in the order of the state's angular block (layout.hpp), each with its
    // torsion spring. Empty: every body is a point, and the state is the linear block alone.
    std::vector<Rotation> rotations;

    int bodies() const { return static_cast<int>(mass.size()); }
    int add_body(double m);
    // A rigid body in the plane of mass m and moment of inertia I: a body and its rotation.
    int add_rigid_body(double m, double inertia);
    // The state's coordinates (layout.hpp): 2 per body, then 1 per rotation.
    int rotating() const { return static_cast<int>(rotations.size()); }
    int coordinates() const { return 2 * bodies() + rotating(); }
    // Where rotation r's angle is among the coordinates.
    int angular_offset(int r) const { return 2 * bodies() + r; }
    // Body i's layout: planar when a rotation turns it, else a point.
    BodyLayout layout(int i) const;
    // The generalised inverse mass, one entry per coordinate: 1/m, 1/m per body, then 1/I per rotation.
    void inverse_generalised_mass(double* w) const;
    // True when every force is linear in (x, v), so a closed form exists (see exact.hpp).
    bool is_linear() const;
    bool dissipative() const;
    // True when a force couples bodies (a pair spring): their Jacobian is not block-diagonal.
    bool couples_bodies() const;
    // True when a link is rigid (compliance 0): a force-based integrator cannot step this system.
    bool has_rigid_links() const;
    // The largest |i − j| over the forces that join bodies i and j (0 when none does): how far
    // from the diagonal their Jacobian reaches, in bodies.
    int coupling_span() const;
    // True when a body came within a central body's collision radius during a step from
    // (x0, v0) to (x1, v1): it ends inside, or it started heading in on an orbit that dives
    // inside the radius and the step got it there: it ends heading out (past the closest
    // approach; the exact flow bounces back out of a radial fall), the straight line between
    // its ends passes inside (a fixed step jumps across the centre), or it ends non-finite.
    // A close pass on an orbit that stays outside the radius is never a collision, however
    // long the step. x0, v0 are finite; x1, v1 may not be.
    bool collided(const dvec2* x0, const dvec2* v0, const dvec2* x1, const dvec2* v1) const;
    // True when the exact motion keeps the total angular momentum about `centre` (written
    // there): no uniform gravity, no damping or drag, every anchor and central body at one point.
    bool conserves_angular_momentum(dvec2& centre) const;
};

// a = F/m for every body at time t (only a written force reads t: every other force is the same at
// any time), and ω' = τ/I for every rotation. x, v, a are laid out for s (layout.hpp): s.bodies()
// entries each, then the angular block's s.rotating() doubles (none for a system of points). With rigid links, their forces of
// constraint included (the constrained reference's accelerations; forces/link.hpp).
void accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double t);
// The same without the rigid links' forces of constraint (what would happen if they let go).
void unconstrained_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double t);
// What the game-physics solvers (solvers.hpp) take as external: every force but the springs and
// links they step as constraint rows, plus the springs' dampers (force_kind.hpp: SolverRowKind).
void solver_external_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double t);

// The state's angular block (layout.hpp) of an array laid out for s: the coordinates after the
// bodies' (x, y). x holds s.coordinates() doubles.
inline double* angular_block(const System& s, dvec2* x) { return reinterpret_cast<double*>(x + s.bodies()); }
inline const double* angular_block(const System& s, const dvec2* x) {
    return reinterpret_cast<const double*>(x + s.bodies());
}

// Kinetic + potential energy (gravity and springs; ½ I ω² and the torsion springs' ½ κ (φ − rest)² of
// the turning bodies); dissipated energy is tracked separately. Arrays laid out for s, as above.
double kinetic_energy(const System& s, const dvec2* v);
double potential_energy(const System& s, const dvec2* x);
inline double energy(const System& s, const dvec2* x, const dvec2* v) {
    return kinetic_energy(s, v) + potential_energy(s, x);
}
// Total angular momentum sum m (x - centre) x v (the z component).
double angular_momentum(const System& s, const dvec2* x, const dvec2* v, dvec2 centre);
// Rate at which damping and drag remove mechanical energy (>= 0); a link's damper needs x for
// its direction.
double dissipated_power(const System& s, const dvec2* x, const dvec2* v);
// An upper bound on the magnitude of every number energy() and dissipated_power() form (each
// term, each intermediate product, each partial sum, up to rounding) at any finite state whose
// position and velocity components all lie within ±x_max and ±v_max and whose bodies lie outside
// every central body's collision radius; +inf when a force kind gives no bound. Where it is far
// below the largest double, such a state's energy and power are finite without computing them
// (Simulation's check after a step).
double energy_bound(const System& s, double x_max, double v_max);

// The Jacobians of the acceleration, for implicit Euler's Newton iteration.
// Block-diagonal form (one 2x2 block per body, row-major a00 a01 a10 a11); valid only
// when no force couples bodies (System::couples_bodies). dadx, dadv hold 4 * bodies() doubles.
void acceleration_jacobian_blocks(const System& s, const dvec2* x, const dvec2* v,
                                  double* dadx, double* dadv, double t);
// Dense form for coupled systems: n = 2 * bodies(), dadx, dadv are n x n row-major.
void acceleration_jacobian_dense(const System& s, const dvec2* x, const dvec2* v,
                                 double* dadx, double* dadv, double t);

}  // namespace stepwise
