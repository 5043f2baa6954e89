// The integrator table's orders, measured: for every kind of system (orders.hpp) a few systems of
// that kind, and on each every integrator's claim there, checked with the convergence study the
// CLI and the page run (dt, dt/2, … dt/16; least-squares slope of the largest position error):
// an order p within ±0.15, "exact" as every level at the noise floor. One pass over the whole
// table; a claim no system measures fails too.
#include "convergence.hpp"
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace stepwise;
using namespace testing_helpers;

namespace {

constexpr double order_margin = 0.15;

// One system of a kind. The coarsest dt of the study: dt_low for the claims of order 1 and 2,
// dt_high for order 4 (whose errors would reach the noise floor at dt_low) and for "exact" (a
// coarse step makes exactness the harder claim). Each is where every method of its group is in
// its asymptotic range over the four halvings (measured slopes within 0.06 of the claims, but
// implicit and explicit Euler 0.953 and 1.050 on two springs, explicit Euler 0.959 on the orbit).
struct KindCase {
    const char* system;
    OrderRegime regime;  // what regime_of must call it
    double dt_low, dt_high;
};

const KindCase cases[] = {
    {"scenario=projectile&g=0&v0=3,4&duration=4", OrderRegime::free_motion, 0.1, 0.1},
    {"scenario=projectile&duration=4", OrderRegime::constant_force, 0.1, 0.1},
    // One spring alone, undamped and damped; one orbit; two bodies joined by one spring under
    // gravity (which moves only their centre of mass), undamped and damped.
    {"scenario=spring&k=4&b=0&duration=4", OrderRegime::single_forces, 0.02, 0.1},
    {"scenario=spring&k=4&b=0.4&duration=4", OrderRegime::single_forces, 0.02, 0.1},
    {"scenario=orbit&duration=4", OrderRegime::single_forces, 0.02, 0.1},
    {"scenario=spring_pair&rest=0&duration=4", OrderRegime::single_forces, 0.02, 0.1},
    {"scenario=spring_pair&rest=0&b=0.5&duration=4", OrderRegime::single_forces, 0.02, 0.1},
    // Two springs on one mass; a spring and gravity.
    {"scenario=two_spring&duration=4", OrderRegime::conservative, 0.005, 0.02},
    {"scenario=elastic_pendulum&rest=0&b=0&duration=4", OrderRegime::conservative, 0.005, 0.02},
    // The same with damping: a damper beside two springs; a damped spring and gravity.
    {"scenario=two_spring&b=0.4&duration=4", OrderRegime::dissipative, 0.005, 0.02},
    {"scenario=elastic_pendulum&rest=0&b=0.3&duration=4", OrderRegime::dissipative, 0.002, 0.02},
    // Rest-length springs (alone, damped, beside another spring, between two bodies under
    // gravity: spring_pair's default, with gravity: the elastic pendulum) and quadratic drag.
    {"scenario=spring&k=4&b=0&rest=1&x0=1.5,0&v0=0,1&duration=4", OrderRegime::without_closed_form, 0.02, 0.1},
    {"scenario=spring&k=4&b=0.4&rest=1&x0=1.5,0&v0=0,1&duration=4", OrderRegime::without_closed_form, 0.02, 0.1},
    {"scenario=two_spring&rest1=1&duration=4", OrderRegime::without_closed_form, 0.01, 0.04},
    {"scenario=spring_pair&duration=4", OrderRegime::without_closed_form, 0.02, 0.1},
    {"scenario=elastic_pendulum&duration=4", OrderRegime::without_closed_form, 0.005, 0.05},
    {"scenario=projectile&drag=0.1&v0=5,5&duration=2", OrderRegime::without_closed_form, 0.02, 0.1},
    // A compliant chain (three links of stiffness 100 N/m: ω up to about 20/s beside the swing's 3/s).
    {"scenario=chain&links=3&compliance=0.01&link_damping=0.5&theta0=40&duration=2", OrderRegime::without_closed_form,
     0.005, 0.02},
};

std::string describe(const ConvergenceStudy& s, int row) {
    std::string out;
    for (int l = 0; l < s.levels_done(); ++l)
        out += "dt=" + format_number(s.point(row, l).dt) + " err=" + format_number(s.point(row, l).max_error) + "  ";
    const OrderFit fit = s.fit(row);
    return out + (fit.valid ? "order " + std::to_string(fit.order) : "no order") + " over " +
           std::to_string(fit.points) + " levels; floor " + format_number(s.noise_floor());
}

// Runs the study of `system` at dt with the given integrators and checks each one's claim.
// Returns the (integrator, regime) pairs it measured.
void check_claims(const KindCase& k, double dt, const std::vector<int>& ids, std::set<std::pair<int, OrderRegime>>& measured) {
    if (ids.empty()) return;
    std::string query = std::string(k.system) + "&dt=" + format_number(dt) + "&integrators=";
    for (size_t i = 0; i < ids.size(); ++i) query += (i ? "," : "") + std::string(integrators()[ids[i]].id);
    ConvergenceStudy study(config_of(query), 4, 1e9);
    study.advance(HUGE_VAL);
    CHECK(study.levels_done() == 5);
    CHECK(study.regime() == k.regime);
    for (int row = 0; row < study.integrators(); ++row) {
        const IntegratorInfo& info = integrators()[study.integrator_index(row)];
        const Order claim = expected_order(info, k.regime);
        INFO(query << "\n" << info.id << " claims " << order_text(claim) << " on " << regime_id(k.regime) << ": "
                   << describe(study, row));
        for (int l = 0; l < study.levels_done(); ++l) CHECK(study.point(row, l).stop == StopReason::none);
        if (claim.kind == Order::exact) {
            for (int l = 0; l < study.levels_done(); ++l) CHECK(study.point(row, l).max_error <= study.noise_floor());
            CHECK(study.fit(row).points == 0);
        } else {
            CHECK(study.fit(row).valid);
            CHECK(study.fit(row).points >= 3);  // more than one slope: a fourth-order method's finest
                                                // level may reach the floor of an rk45 reference
            CHECK(study.fit(row).order == Approx(claim.p).margin(order_margin));
        }
        measured.insert({study.integrator_index(row), k.regime});
    }
}

}  // namespace

TEST_CASE("every order the integrator table claims holds on systems of its kind", "[orders]") {
    std::set<std::pair<int, OrderRegime>> measured;
    // One loop, no sections: the coverage check below needs every case in the same run.
    for (const KindCase& k : cases) {
        INFO(k.system);
        // The kind of system, as the core classifies it.
        CHECK(regime_of(build_scene(config_of(k.system)).system) == k.regime);
        std::vector<int> low, high;
        for (int i = 0; i < static_cast<int>(integrators().size()); ++i) {
            const Order claim = expected_order(integrators()[i], k.regime);
            if (claim.kind == Order::none) continue;  // adaptive: no order in dt to measure
            (claim.kind == Order::power && claim.p <= 2 ? low : high).push_back(i);
        }
        check_claims(k, k.dt_low, low, measured);
        check_claims(k, k.dt_high, high, measured);
    }
    // Every claim of every row was measured on some system.
    for (int i = 0; i < static_cast<int>(integrators().size()); ++i)
        for (int r = 0; r < order_regimes; ++r) {
            const OrderRegime regime = static_cast<OrderRegime>(r);
            if (expected_order(integrators()[i], regime).kind == Order::none) continue;
            INFO(integrators()[i].id << " on " << regime_id(regime));
            CHECK(measured.count({i, regime}) == 1);
        }
}

TEST_CASE("regime_of: the kind of system from its forces", "[orders]") {
    auto kind = [](const char* query) { return regime_of(build_scene(config_of(query)).system); };
    CHECK(kind("scenario=projectile&g=0") == OrderRegime::free_motion);
    CHECK(kind("scenario=projectile") == OrderRegime::constant_force);
    CHECK(kind("scenario=projectile&drag=0.1") == OrderRegime::without_closed_form);
    CHECK(kind("scenario=spring&b=0") == OrderRegime::single_forces);
    CHECK(kind("scenario=spring&b=2") == OrderRegime::single_forces);  // the damping is the spring's own
    CHECK(kind("scenario=spring&rest=1") == OrderRegime::without_closed_form);
    CHECK(kind("scenario=orbit") == OrderRegime::single_forces);
    CHECK(kind("scenario=two_spring") == OrderRegime::conservative);
    CHECK(kind("scenario=two_spring&b=0.1") == OrderRegime::dissipative);  // a damper beside the springs
    CHECK(kind("scenario=two_spring&rest2=0.5&b=0.1") == OrderRegime::without_closed_form);
    CHECK(kind("scenario=spring_pair") == OrderRegime::without_closed_form);  // rest length 6
    CHECK(kind("scenario=spring_pair&rest=0") == OrderRegime::single_forces);
    CHECK(kind("scenario=spring_pair&rest=0&g=0,0") == OrderRegime::single_forces);
    CHECK(kind("scenario=spring_pair&rest=0&b=1") == OrderRegime::single_forces);
    CHECK(kind("scenario=elastic_pendulum&rest=0") == OrderRegime::conservative);
    CHECK(kind("scenario=elastic_pendulum&rest=0&g=0,0") == OrderRegime::single_forces);
    CHECK(kind("scenario=elastic_pendulum&rest=0&b=1") == OrderRegime::dissipative);
    CHECK(kind("scenario=pendulum") == OrderRegime::without_closed_form);  // a link has no flow
    CHECK(kind("scenario=chain&compliance=0.01") == OrderRegime::without_closed_form);
    // Systems no scenario builds: gravity beside a central mass counts; a body on its own spring
    // beside another on two springs is several forces; a spring from a body to itself is one.
    System s;
    s.add_body(1.0);
    s.central_forces.push_back({.centre = dvec2(0.0), .gm = 1.0, .collision_radius = 0.01});
    CHECK(regime_of(s) == OrderRegime::single_forces);
    s.gravity = dvec2(0.0, -1.0);
    CHECK(regime_of(s) == OrderRegime::conservative);
    System t;
    t.add_body(1.0);
    t.add_body(1.0);
    t.anchor_springs.push_back({.body = 0, .anchor = dvec2(0.0), .k = 1.0, .rest = 0.0, .b = 0.5});
    CHECK(regime_of(t) == OrderRegime::single_forces);
    t.anchor_springs.push_back({.body = 1, .anchor = dvec2(1.0), .k = 1.0, .rest = 0.0, .b = 0.0});
    CHECK(regime_of(t) == OrderRegime::single_forces);  // one force on each body
    t.anchor_springs.push_back({.body = 1, .anchor = dvec2(2.0), .k = 1.0, .rest = 0.0, .b = 0.0});
    CHECK(regime_of(t) == OrderRegime::conservative);  // the damped body still feels one force
    t.anchor_springs[2].b = 0.1;
    CHECK(regime_of(t) == OrderRegime::dissipative);
    System u;
    u.add_body(1.0);
    u.pair_springs.push_back({.i = 0, .j = 0, .k = 1.0, .rest = 0.0, .b = 0.0});
    CHECK(regime_of(u) == OrderRegime::single_forces);
}

TEST_CASE("the orders in words and JSON", "[orders]") {
    const auto row = [](const char* id) { return integrators()[find_integrator(id)]; };
    CHECK(orders_summary(row("explicit_euler").orders) == "order 1 on every kind of system");
    CHECK(orders_summary(row("rk4").orders) == "exact with uniform gravity alone; order 4 otherwise");
    CHECK(orders_summary(row("kinematic").orders) ==
          "exact with uniform gravity alone or one force with a closed form on each body; order 2 with several "
          "undamped forces with closed forms on a body; order 1 with several forces on a body including damping or "
          "a force without a closed form (a spring with a rest length, a link, quadratic drag, a force you write)");
    CHECK(orders_summary(row("rk45").orders) == "no order in dt on every kind of system");
    CHECK(order_json(Order(2)) == "2");
    CHECK(order_json(Order(Order::exact)) == "\"exact\"");
    CHECK(order_json(Order()) == "null");
    CHECK(std::string(order_text(Order(4))) == "4");
    // Free motion: every fixed-step method is exact, the adaptive one has no order.
    for (const IntegratorInfo& info : integrators())
        CHECK(expected_order(info, OrderRegime::free_motion).kind == (info.adaptive ? Order::none : Order::exact));
    for (int r = 0; r < order_regimes; ++r) {
        const OrderRegime regime = static_cast<OrderRegime>(r);
        CHECK(std::string(regime_id(regime)).size() > 3);
        CHECK(std::string(regime_text(regime)).size() > 10);
    }
}
