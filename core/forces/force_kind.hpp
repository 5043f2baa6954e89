// The table of force kinds: what the core asks of a kind of force, one file per kind in
// core/forces/, and one list (ForceKinds below) that the core's sums, checks and
// classifications loop over instead of listing the kinds. A System holds the parameters of each
// kind (system.hpp); a kind says what it contributes.
//
// A kind is a struct of static members; the list is a type, so the loops are unrolled and
// inlined at compile time (the single-trajectory path pays nothing for the table), and a kind
// that lacks a member the core needs does not compile. Every kind has:
//   id                          its name ("anchor_spring")
//   present(s)                  s holds a force of this kind (a nonzero field, or any element)
//   linear(s)                   linear in (x, v): a linear spring, gravity, a damper
//   dissipative(s)              removes energy (a damper, drag, a damped spring)
//   has_flow(s)                 every element alone has an exact flow (the kinematic step,
//                               orders.hpp): not drag, not a spring with a rest length
//   couples_bodies              a force between bodies (dense Jacobian for implicit Euler),
//                               with coupling_span(s), the largest |i − j| it joins (the band
//                               implicit Euler solves, make_lane)
//   internal                    leaves the centre of mass alone (a uniform acceleration beside
//                               it commutes with it)
//   uniform_acceleration        a uniform acceleration (gravity): not counted as a force on a
//                               body whose other forces are all internal (orders.hpp)
//   count_forces(s, f, d)       adds, per body, its forces and whether one damps it (orders.hpp)
//   closed_forms                the closed-form families it can take part in (ClosedFormFamily)
//   keeps_angular_momentum(s, have, centre)   keeps the total angular momentum about `centre`
//                               (set by the first kind with a centre)
//   describe(s, drawing)        what the page draws of it (SceneDrawing)
//   kinematic_increment<traced>(pass)   its (dv, dx) in the kinematic step (KinematicPass),
//                               with kinematic_maps / kinematic_map_count when it uses oscillator
//                               maps; dissipative_flow(s, x, v, t, reverse) when it dissipates (yoshida4: its
//                               exact flow over t at the positions x, elements last first when reverse)
// and either
//   add_field(s, f)             a field on every body, of the one form
//                                 a_i = g − ((b + c |v_i|) / m_i) v_i
//                               (gravity g, a linear damper b, quadratic drag c): the fields'
//                               terms are summed first and the bodies take one fused pass
//                               (accelerations, potential −m g·x, power b|v|² + c|v|³, the
//                               velocity Jacobian), so a new field fits this form;
// or, for elements (springs, central bodies, links), their own passes after the fields:
//   add_accelerations(s, x, v, a), add_potential(s, x, e), add_power(s, x, v, p) (empty when
//   conservative), add_jacobian_dense(s, x, v, jx, jv) (accelerations), and
//   add_jacobian_blocks(s, x, v, jx, jv) (forces, per-body 2x2 blocks) unless couples_bodies;
//   A kind whose force depends on time (the written force) takes the time t as a last argument
//   of add_accelerations and both Jacobians (TimedElement below): every method evaluates it at its
//   stages' own times (integrators.cpp: eval's t), and the other kinds keep their signatures.
//   and optionally energy_bound(s, x_max, v2): a bound on the magnitude of everything its
//   add_potential and add_power form at a state within ±x_max whose speeds squared are at most
//   v2 (both >= 1; see energy_bound in system.hpp). Without it a system holding the kind has its
//   energy computed after every step to prove it finite.
//   A kind with forces of constraint (links) also has add_free_accelerations(s, x, v, a): its
//   forces without them (unconstrained_accelerations, for a rod's tension).
//   A kind the game-physics solvers step as constraint rows (springs, links; solver_rows.hpp)
//   has add_solver_rows(s, rows), its rows, and add_solver_external(s, x, v, a), what of it is not
//   a row (a spring's damper on the whole relative velocity) and enters the solvers' prediction
//   beside every other kind's accelerations (solver_external_accelerations in system.hpp).
//
// The list's order is the order forces are summed in, everywhere: the fields first, then anchor
// springs, pair springs, central bodies and links. Changing it changes the last bits of every result.
#pragma once
#include "forces/force_terms.hpp"

#include <array>
#include <concepts>
#include <tuple>
#include <utility>

#include "forces/anchor_spring.hpp"
#include "forces/central_body.hpp"
#include "forces/linear_damper.hpp"
#include "forces/link.hpp"
#include "forces/pair_spring.hpp"
#include "forces/quadratic_drag.hpp"
#include "forces/uniform_gravity.hpp"
#include "forces/written_force.hpp"

namespace stepwise {

// The kinds, in the order forces are summed in (see above).
// Links come last: a rigid link's force of constraint depends on every other force on its bodies.
// The written force (absent in every system but one whose link gives fx or fy) comes before the
// links for the same reason, and after the others so that a system without it sums as before.
using ForceKinds = std::tuple<UniformGravity, LinearDamper, QuadraticDrag, AnchorSpringForce, PairSpringForce,
                              CentralBody, WrittenForce, LinkForce>;
constexpr int force_kind_count = static_cast<int>(std::tuple_size_v<ForceKinds>);

// f.template operator()<K>() for every kind K, in the list's order.
template <class F>
inline void for_each_force_kind(F&& f) {
    [&]<class... K>(std::tuple<K...>*) { (f.template operator()<K>(), ...); }(static_cast<ForceKinds*>(nullptr));
}

// Every kind is a field or an element with all of an element's passes, and the block Jacobian
// exists exactly when the kind does not couple bodies: checked here, for the whole list.
// A kind whose force depends on time (the written force) takes the time t as the last argument of
// add_accelerations and its Jacobians (a TimedElement); the others are the same at any time and
// take none, so their passes and the hot path do not change. element_* below call either.
template <class K>
concept TimedElement = requires(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double* j, double t) {
    K::add_accelerations(s, x, v, a, t);
    K::add_jacobian_dense(s, x, v, j, j, t);
};
template <class K>
concept ElementKind = requires(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double& e, double* j) {
    K::add_potential(s, x, e);
    K::add_power(s, x, v, e);
} && (TimedElement<K> || requires(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double* j) {
    K::add_accelerations(s, x, v, a);
    K::add_jacobian_dense(s, x, v, j, j);
});
template <class K>
concept BlockJacobian = requires(const System& s, const dvec2* x, double* j, double t) { K::add_jacobian_blocks(s, x, x, j, j); } ||
                        requires(const System& s, const dvec2* x, double* j, double t) { K::add_jacobian_blocks(s, x, x, j, j, t); };

// An element kind's passes at time t, whether it reads the time or not.
template <class K>
inline void element_accelerations_at(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double t) {
    if constexpr (TimedElement<K>) K::add_accelerations(s, x, v, a, t);
    else K::add_accelerations(s, x, v, a);
}
template <class K>
inline void element_jacobian_dense_at(const System& s, const dvec2* x, const dvec2* v, double* jx, double* jv, double t) {
    if constexpr (TimedElement<K>) K::add_jacobian_dense(s, x, v, jx, jv, t);
    else K::add_jacobian_dense(s, x, v, jx, jv);
}
template <class K>
inline void element_jacobian_blocks_at(const System& s, const dvec2* x, const dvec2* v, double* jx, double* jv, double t) {
    if constexpr (TimedElement<K>) K::add_jacobian_blocks(s, x, v, jx, jv, t);
    else K::add_jacobian_blocks(s, x, v, jx, jv);
}
template <class K>
concept CouplingSpan = requires(const System& s) {
    { K::coupling_span(s) } -> std::same_as<int>;
};
template <class K>
concept SolverRowKind = requires(const System& s, SolverRows& rows, const dvec2* x, dvec2* a) {
    K::add_solver_rows(s, rows);
    K::add_solver_external(s, x, x, a);
};
template <class K>
concept ForceKindRow = (FieldKind<K> != ElementKind<K>) && (BlockJacobian<K> == (ElementKind<K> && !K::couples_bodies)) &&
                       (!K::couples_bodies || CouplingSpan<K>) &&
                       requires(const System& s, int* f, char* d, bool& have, dvec2& c) {
                           { K::id } -> std::convertible_to<const char*>;
                           { K::present(s) } -> std::same_as<bool>;
                           { K::linear(s) } -> std::same_as<bool>;
                           { K::dissipative(s) } -> std::same_as<bool>;
                           { K::has_flow(s) } -> std::same_as<bool>;
                           K::count_forces(s, f, d);
                           { K::keeps_angular_momentum(s, have, c) } -> std::same_as<bool>;
                           K::describe(s, std::declval<SceneDrawing&>());
                           { K::closed_forms } -> std::convertible_to<unsigned>;
                       };
static_assert([]<class... K>(std::tuple<K...>*) { return (ForceKindRow<K> && ...); }(static_cast<ForceKinds*>(nullptr)),
              "every row of ForceKinds is a field or a complete element kind");

// What the page draws of s: every kind's describe, in the list's order.
inline SceneDrawing describe_forces(const System& s) {
    SceneDrawing d;
    for_each_force_kind([&]<class K>() { K::describe(s, d); });
    return d;
}

// The kinds' ids, in the list's order (for tests and descriptions).
inline constexpr auto force_kind_ids =
    []<class... K>(std::tuple<K...>*) { return std::array<const char*, sizeof...(K)>{K::id...}; }(
        static_cast<ForceKinds*>(nullptr));

}  // namespace stepwise
