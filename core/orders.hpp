// What order of accuracy holds where: the kinds of system a method's order depends on
// (regime_of tells which kind a system is) and the claims the integrator table makes for each
// (IntegratorInfo::orders). tests/test_orders.cpp measures every claim on systems of its kind.
#pragma once
#include "system.hpp"

#include <string>

namespace stepwise {

// The kinds of system, from the simplest. A force "has a closed form" when its flow alone is
// known exactly: uniform gravity, a spring of rest length 0 (damped or not), a damper, a
// central mass (Kepler). A spring with a rest length (in 2D) and quadratic drag have none.
enum class OrderRegime {
    free_motion,          // no force at all: every method with a fixed step is exact
    constant_force,       // uniform gravity alone
    single_forces,        // one force on each body, with a closed form (gravity on bodies joined
                          // only by springs between them counts for nothing: it moves their
                          // centre of mass and changes none of their relative motion)
    conservative,         // several forces on a body, each with a closed form, no damping
    dissipative,          // several forces on a body, each with a closed form, damping among them
    without_closed_form,  // some force without a closed form (a rest-length spring, quadratic drag)
};
constexpr int order_regimes = 6;

OrderRegime regime_of(const System& s);
const char* regime_id(OrderRegime r);    // "single_forces": the name in JSON and the bindings
const char* regime_text(OrderRegime r);  // "one force with a closed form on each body"

// One claim: the global order p (the largest position error falls as dt^p as dt → 0), exact
// (round-off at every dt: there is no order to see), or none (an adaptive method: its error
// follows its tolerance, not dt).
struct Order {
    enum Kind : unsigned char { none, power, exact };
    Kind kind = none;
    int p = 0;
    constexpr Order() = default;
    constexpr Order(int power_) : kind(power), p(power_) {}  // implicit: a table row reads `= 2`
    constexpr Order(Kind k) : kind(k) {}
    bool operator==(const Order&) const = default;
};

// A method's claim on each kind of system but free motion (where every fixed-step method is
// exact; see expected_order in integrators.hpp).
struct Orders {
    Order constant_force;
    Order single_forces;
    Order conservative;
    Order dissipative;
    Order without_closed_form;
    Order in(OrderRegime r) const;  // the field for r; none for free motion
};
// The kinds a row of the table makes claims for, in order.
constexpr OrderRegime table_regimes[] = {OrderRegime::constant_force, OrderRegime::single_forces,
                                         OrderRegime::conservative, OrderRegime::dissipative,
                                         OrderRegime::without_closed_form};

// "4", "exact" or "none".
const char* order_text(Order o);
// The claim as a JSON value: 4, "exact" or null.
std::string order_json(Order o);
// Every claim in words, equal ones together, the one most kinds share last: "exact with uniform
// gravity alone; order 4 otherwise", "order 1 on every kind of system". For the CLI's list and
// the page's tooltips.
std::string orders_summary(const Orders& o);

}  // namespace stepwise
