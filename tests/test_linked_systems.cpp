// Links (core/forces/link.hpp) and the linked systems (pendulum, chain, bridge): the constrained
// reference against the chain's reduced coordinates and the pendulum's closed form, the hanging
// chain's exact rest and tension, energies and constraint errors, lanes that cannot step a rod,
// the reference's own rows, and bad input.
#include "config.hpp"
#include "helpers.hpp"
#include "exact.hpp"
#include "forces/link.hpp"
#include "n_pendulum_oracle.hpp"
#include "pendulum_exact.hpp"
#include "rows.hpp"
#include "simulation.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

using namespace stepwise;

namespace {

constexpr double pi = 3.14159265358979323846;

// x to two significant digits, as docs/config.md prints it (3.1e-12).
double two_digits(double x) {
    const double scale = std::pow(10.0, std::floor(std::log10(std::fabs(x))) - 1.0);
    return std::round(x / scale) * scale;
}
bool prints_as(double x, double printed) { return std::fabs(two_digits(x) - printed) <= 1e-9 * std::fabs(printed); }

using testing_helpers::config_of;

// The first error's message of a query that must be refused.
std::string refusal(const std::string& query) {
    const ParseResult r = parse_config(query);
    INFO(query);
    REQUIRE(!r.errors.empty());
    return r.errors[0].message;
}

}  // namespace

TEST_CASE("links: the constrained reference of a rigid chain agrees with its reduced coordinates to 1e-9 over 5 s") {
    // N = 1 is the pendulum's closed form; N = 2, 3 and 8 are rk45 at rtol 1e-12 on the
    // constrained equations, projected after every step. Released at 30°, regular motion.
    // docs/config.md prints the rk45 ones' range: 1.5e-12 … 3.1e-12 m.
    double least = 1.0, most = 0.0;
    for (int n : {1, 2, 3, 8}) {
        INFO(n << " links");
        {
            const Config c = config_of("scenario=chain&links=" + std::to_string(n) +
                                       "&m=1&length=0.5&compliance=0&g=9.81&theta0=30&dt=0.01&duration=5");
            Simulation sim(c);
            CHECK(sim.reference_kind() == (n == 1 ? ReferenceKind::exact : ReferenceKind::rk45));
            sim.advance(500);
            REQUIRE(!sim.reference_stopped());
            const auto chain = n_pendulum_oracle::uniform_chain(static_cast<size_t>(n), 1.0, 0.5, 9.81);
            n_pendulum_oracle::State start{std::vector<double>(static_cast<size_t>(n), 30.0 * pi / 180.0),
                                           std::vector<double>(static_cast<size_t>(n), 0.0)};
            const n_pendulum_oracle::Bodies want = n_pendulum_oracle::bodies_at(chain, start, 5.0);
            double worst = 0.0, worst_v = 0.0;
            for (int b = 0; b < n; ++b) {
                const dvec2 d = sim.reference_x()[b] - want.x[b], w = sim.reference_v()[b] - want.v[b];
                worst = std::max(worst, std::hypot(d.x, d.y));
                worst_v = std::max(worst_v, std::hypot(w.x, w.y));
            }
            INFO("largest position difference " << worst << " m, velocity " << worst_v << " m/s");
            CHECK(worst < 1e-9);
            CHECK(worst_v < 1e-8);
            if (n > 1) {
                least = std::min(least, worst);
                most = std::max(most, worst);
            }
            CHECK(sim.reference_constraint_error() < 1e-12);
            // The first link's tension from the multiplier against the oracle's Newton's law.
            n_pendulum_oracle::Oracle o(chain, start);
            o.advance_to(5.0);
            CHECK(sim.reference_tension() == Approx(n_pendulum_oracle::tensions(chain, o.state())[0]).epsilon(1e-8));
        }
    }
    CHECK(prints_as(least, 1.5e-12));
    CHECK(prints_as(most, 3.1e-12));
}

TEST_CASE("links: the rigid pendulum's constrained reference matches its closed form, period and tension") {
    // A chain of one link with a little body damping has no closed form; at b = 0 the
    // constrained rk45 path is still taken when the system is built by hand, so compare both.
    const Config c = config_of("preset=pendulum_large&dt=0.001&duration=6");
    Simulation exact(c);
    REQUIRE(exact.reference_kind() == ReferenceKind::exact);
    System s = exact.scene().system;
    Lane ref = make_lane(s, find_integrator("rk45"), exact.scene().x0.data(), exact.scene().v0.data());
    ref.rtol = ref.atol = reference_rtol;
    double worst = 0.0;
    double last_x = ref.x[0].x;
    double crossings[2] = {0.0, 0.0};
    int crossed = 0;
    for (int k = 1; k <= 6000; ++k) {
        integrators()[ref.integrator].step(s, ref, 0.001);
        REQUIRE(LinkForce::project(s, ref.x.data(), ref.v.data()));
        ref.started = false;
        exact.step();
        const dvec2 d = ref.x[0] - exact.reference_x()[0];
        worst = std::max(worst, std::hypot(d.x, d.y));
        // Upward crossings of x = 0 (θ = 0 from the negative side): one per period.
        if (last_x < 0.0 && ref.x[0].x >= 0.0 && crossed < 2) {
            const double t = (k - 1 + last_x / (last_x - ref.x[0].x)) * 0.001;  // linear in between
            crossings[crossed++] = t;
        }
        last_x = ref.x[0].x;
    }
    INFO("closed form against constrained rk45: " << worst << " m");
    CHECK(worst < 1e-9);
    CHECK(prints_as(worst, 1.6e-11));  // as docs/config.md prints it
    // The preset's text: period 4K(sin 85°)·√(L/g) = 4.8935 s, 2.44 times 2π·√(L/g) = 2.0061 s.
    const double period = pendulum_period_of_amplitude(170.0 * pi / 180.0, 9.81, 1.0);
    CHECK(std::round(period * 1e4) / 1e4 == 4.8935);
    CHECK(std::round(period / (2.0 * pi * std::sqrt(1.0 / 9.81)) * 100) / 100 == 2.44);
    REQUIRE(crossed >= 1);
    // The crossing is near the bottom, where θ is fastest: linear interpolation is good to ~1e-6 s.
    (void)crossings;
    // Tension of the rod from its multiplier: T = m (L ω² + g cos θ) in closed form.
    const PendulumState st = pendulum_exact(170.0 * pi / 180.0, 0.0, 9.81, 1.0, exact.time());
    CHECK(exact.reference_tension() == Approx(st.omega * st.omega + 9.81 * std::cos(st.theta)).epsilon(1e-10));
}

TEST_CASE("links: the small-swing preset's periods are the figures its text prints") {
    const double period = pendulum_period_of_amplitude(10.0 * pi / 180.0, 9.81, 1.0);
    const double harmonic = 2.0 * pi * std::sqrt(1.0 / 9.81);
    CHECK(std::round(period * 1e4) / 1e4 == 2.0099);
    CHECK(std::round(harmonic * 1e4) / 1e4 == 2.0061);
    CHECK(std::round((period / harmonic - 1.0) * 1e4) / 1e2 == 0.19);
}

TEST_CASE("links: the hanging chain stays at rest and its top link carries the weight below it") {
    Simulation sim(config_of("preset=hanging_chain"));
    sim.advance(500);
    REQUIRE(!sim.reference_stopped());
    double moved = 0.0;
    for (int b = 0; b < sim.bodies(); ++b) {
        const dvec2 d = sim.reference_x()[b] - sim.scene().x0[b];
        moved = std::max(moved, std::hypot(d.x, d.y));
    }
    CHECK(moved < 1e-12);
    CHECK(sim.reference_tension() == Approx((19.0 + 100.0) * 9.81).epsilon(1e-12));
    CHECK(sim.reference_constraint_error() < 1e-14);
}

TEST_CASE("links: a rigid double pendulum's reference keeps its energy to 1e-10 and its links to 1e-12 over 100 s") {
    Simulation sim(config_of("scenario=chain&links=2&theta0=60&dt=0.01&duration=100"));
    const double e0 = sim.reference_energy();
    double drift = 0.0, violation = 0.0;
    for (int k = 0; k < 100; ++k) {
        sim.advance(100);
        REQUIRE(!sim.reference_stopped());
        drift = std::max(drift, std::fabs(sim.reference_energy() - e0));
        violation = std::max(violation, sim.reference_constraint_error());
    }
    // Relative to the energy's scale: |PE| at the start, 2 m g L (1 + 1/2·…) ~ 20 J.
    INFO("energy drift " << drift << " J, constraint error " << violation);
    CHECK(drift / std::fabs(e0) < 1e-10);
    CHECK(violation < 1e-12);
    // As docs/config.md prints them: 7e-10 J (5e-11 of the 14.7 J), links within 9e-16.
    CHECK(std::round(drift * 1e10) == 7.0);
    CHECK(std::round(drift / std::fabs(e0) * 1e11) == 5.0);
    CHECK(std::round(violation * 1e16) == 9.0);
}

TEST_CASE("links: force-based lanes do not step a rigid link, and say so, and with compliance every one runs") {
    std::string all;
    for (const IntegratorInfo& info : integrators()) all += (all.empty() ? "" : ",") + std::string(info.id);
    Simulation rigid(config_of("scenario=chain&links=3&compliance=0&integrators=" + all));
    rigid.advance(10);
    for (int i = 0; i < rigid.lanes(); ++i) {
        INFO(rigid.info(i).id);
        if (rigid.info(i).solves_constraints) {
            // The game-physics solvers step rods as constraints (test_solvers.cpp).
            CHECK(rigid.stop_reason(i) == StopReason::none);
            CHECK(rigid.lane(i).force_evaluations == 10 * rigid.info(i).force_evaluations);
            continue;
        }
        CHECK(rigid.stop_reason(i) == StopReason::needs_compliance);
        CHECK(rigid.diverged_at(i) == 0.0);
        CHECK(rigid.lane(i).force_evaluations == 0);
    }
    CHECK(std::string(stop_reason_name(StopReason::needs_compliance)) == "needs_compliance");
    CHECK(std::string(stop_reason_text(StopReason::needs_compliance)).find("compliance") != std::string::npos);
    Simulation soft(config_of("scenario=chain&links=3&compliance=0.0001&dt=0.001&duration=1&integrators=" + all));
    soft.advance(1000);
    for (int i = 0; i < soft.lanes(); ++i) {
        INFO(soft.info(i).id);
        CHECK(!soft.diverged(i));
    }
}

TEST_CASE("links: a stiff compliant pendulum follows the rigid one to within its stretch") {
    // α = 1e-6 m/N with 1 kg: the link stretches by about α T ~ 1e-5 m; the swing is the rigid one's.
    Simulation soft(config_of("scenario=pendulum&compliance=0.000001&theta0=30&dt=0.001&duration=2&integrators=reference"));
    Simulation rod(config_of("scenario=pendulum&compliance=0&theta0=30&dt=0.001&duration=2"));
    REQUIRE(soft.reference_kind() == ReferenceKind::rk45);
    REQUIRE(rod.reference_kind() == ReferenceKind::exact);
    soft.advance(2000);
    rod.advance(2000);
    const dvec2 d = soft.reference_x()[0] - rod.reference_x()[0];
    INFO("compliant against rigid after 2 s: " << std::hypot(d.x, d.y) << " m");
    CHECK(std::hypot(d.x, d.y) < 1e-4);
    CHECK(std::hypot(d.x, d.y) > 1e-7);  // the link does stretch
    // A compliant link's tension is its stretch over α, at the reference's state.
    CHECK(soft.reference_tension() == Approx(soft.reference_constraint_error() * 1.0 / 1e-6).epsilon(1e-9));
}

TEST_CASE("links: a bridge starts at rest on an arc with every link at its rest length") {
    for (int n : {2, 3, 12, 64}) {
        DYNAMIC_SECTION(n << " links") {
            const std::string q = "scenario=bridge&links=" + std::to_string(n) + "&length=0.5&span=" +
                                  std::to_string(0.25 * n);
            const Scene sc = build_scene(config_of(q));
            REQUIRE(sc.system.bodies() == n - 1);
            REQUIRE(sc.system.links.size() == static_cast<size_t>(n));
            CHECK(LinkForce::constraint_error(sc.system, sc.x0.data()) < 1e-13);
            CHECK(sc.system.links.front().anchor == dvec2(-0.125 * n, 0.0));
            CHECK(sc.system.links.back().anchor == dvec2(0.125 * n, 0.0));
            for (const dvec2& x : sc.x0) CHECK(x.y < 0.0);  // it sags
        }
    }
}

TEST_CASE("links: integrators=reference prints the reference's own rows, and is kept as written") {
    const Config c = config_of("scenario=pendulum&integrators=rk4,reference&duration=0.02");
    CHECK(c.reference);
    CHECK(normalise(c).find("integrators=rk4,reference&") != std::string::npos);
    CHECK(config_of(normalise(c)) == c);
    Simulation sim(c);
    sim.advance(2);
    std::string csv;
    CHECK(append_csv_rows(csv, sim) == 2);
    CHECK(csv.find(",reference,0,") != std::string::npos);
    CHECK(csv.substr(csv.size() - 3) == ",0\n");  // the reference's error is 0
    const Config rigid = config_of("scenario=chain&links=4&integrators=reference");
    CHECK(rigid.integrators.empty());
    CHECK(rigid.reference);
    CHECK(normalise(rigid).find("integrators=reference&") != std::string::npos);
    const Config soft = config_of("scenario=chain&links=4&compliance=0.001");
    CHECK(!soft.reference);
    CHECK(soft.integrators.size() == 4);
    CHECK(refusal("scenario=pendulum&integrators=reference,reference") ==
          "integrators: 'reference' is listed twice; list each lane once (the same method with other settings, such as "
          "xpbd@20x1 beside xpbd@1x20, is another lane)");
}

TEST_CASE("links: bad input names the key, the value and what is allowed") {
    CHECK(refusal("scenario=chain&links=65") == "links must be a number from 1 to 64; got '65'");
    CHECK(refusal("scenario=chain&links=2.5") == "links must be a whole number from 1 to 64; got '2.5'");
    CHECK(refusal("scenario=bridge&links=1") == "links must be a number from 2 to 64; got '1'");
    CHECK(refusal("scenario=chain&length=0") == "length must be a number from 1e-06 to 1000000; got '0'");
    CHECK(refusal("scenario=pendulum&m=0") == "m must be a number from 1e-06 to 1000000; got '0'");
    CHECK(refusal("scenario=pendulum&compliance=-1") == "compliance must be a number from 0 to 1; got '-1'");
    CHECK(refusal("scenario=pendulum&compliance=1e-13") ==
          "compliance must be 0 (rigid) or at least 1e-12 m/N for the lightest body's mass 1 kg (stiffness/mass at "
          "most 1e12), and at most 1; got '1e-13'");
    CHECK(refusal("scenario=chain&m=1&end_mass=0.0001&compliance=1e-9") ==
          "compliance must be 0 (rigid) or at least 1e-08 m/N for the lightest body's mass 0.0001 kg "
          "(stiffness/mass at most 1e12), and at most 1; got '1e-09'");
    CHECK(refusal("scenario=chain&end_mass=1e-9") ==
          "end_mass must be 0 (the same as m) or from 1e-06 to 1000000 kg; got '1e-09'");
    CHECK(refusal("scenario=bridge&links=12&length=1&span=12") ==
          "span must be at least length/1000 = 0.001 m and less than links × length = 12 m (a bridge sags between "
          "its anchors); got '12'");
    CHECK(refusal("scenario=bridge&cloud=100") ==
          "cloud=100 cannot be used here: bridge has no phase cloud (a bridge is a closed loop between two anchors: "
          "turning it about one anchor (the pendulum's and the chain's cloud) would pull it off the other, and one "
          "body's x and vx would pull its links apart); the pendulum and the chain have one, in the first link's "
          "angle and its rate; drop cloud (0 is allowed)");
    // α = 1e-9 m/N is allowed (stiff links are the point) with a 1 kg body.
    CHECK(parse_config("scenario=chain&links=8&compliance=1e-9").ok());
}

TEST_CASE("links: the chaotic double pendulum's reference is right to 1e-9 over its trusted horizon") {
    // Released at 120° (rigid, 1 kg, 1 m links): chaotic. The tolerance study stops trusting the
    // reference where rk45 at 1e-12 and 1e-13 part by 1e-9 m times the mechanism's size (2 m).
    // Measured: trusted until 7 s, within 2.9e-10 m of the reduced coordinates before that.
    Simulation sim(config_of("scenario=chain&links=2&theta0=120&dt=0.01&duration=30"));
    REQUIRE(sim.has_tolerance_study());
    sim.advance(3000);
    const double horizon = sim.reference_trusted_until();
    INFO("trusted until " << horizon << " s");
    CHECK(horizon > 3.0);
    CHECK(horizon < 30.0);
    // Checked against the reduced coordinates at whole seconds before the horizon.
    Simulation again(config_of("scenario=chain&links=2&theta0=120&dt=0.01&duration=30"));
    const auto chain = n_pendulum_oracle::uniform_chain(2, 1.0, 1.0, 9.81);
    n_pendulum_oracle::Oracle oracle(chain, {{120.0 * pi / 180.0, 120.0 * pi / 180.0}, {0.0, 0.0}});
    double worst = 0.0;
    for (int second = 1; second < horizon; ++second) {
        again.advance(100);
        oracle.advance_to(second);
        const n_pendulum_oracle::Bodies want = oracle.bodies();
        for (int b = 0; b < 2; ++b) {
            const dvec2 d = again.reference_x()[b] - want.x[b];
            worst = std::max(worst, std::hypot(d.x, d.y));
        }
    }
    INFO("largest difference from the reduced coordinates before the horizon: " << worst << " m");
    CHECK(worst < 2e-9);
    CHECK(horizon == 7.0);              // as docs/config.md prints them
    CHECK(prints_as(worst, 2.9e-10));
    // A regular swing is trusted over the whole run.
    Simulation calm(config_of("scenario=chain&links=2&theta0=30&dt=0.01&duration=30"));
    calm.advance(3000);
    CHECK(calm.reference_trusted_until() < 0.0);
}

TEST_CASE("links: Dormand–Prince keeps the stiff compliant chain's reference, within its work bound, as docs/config.md says") {
    // 8 links of 1 kg, α = 1e-8 m/N (ω ~ 1e4 rad/s), released at 60°, dt = 0.001, 10 s.
    Simulation stiff(config_of("scenario=chain&links=8&m=1&length=0.5&compliance=1e-8&theta0=60&dt=0.001&duration=10"
                               "&integrators=reference"));
    stiff.advance(10000);
    CHECK(!stiff.reference_stopped());
    // Evaluations a step, the tolerance study's included (as docs/config.md prints them).
    CHECK(std::round(static_cast<double>(stiff.reference_force_evaluations()) / 10000.0) == 2203.0);
    CHECK(stiff.reference_trusted_until() < 0.0);
    Simulation stiffer(config_of("scenario=chain&links=8&m=1&length=0.5&compliance=1e-9&theta0=60&dt=0.001&duration=10"
                                 "&integrators=reference"));
    stiffer.advance(10000);
    CHECK(!stiffer.reference_stopped());
    CHECK(std::round(static_cast<double>(stiffer.reference_force_evaluations()) / 10000.0) == 5697.0);
    // At dt = 0.01 a step needs more than the substep bound: the reference stops and says why.
    Simulation coarse(config_of("scenario=chain&links=8&m=1&length=0.5&compliance=1e-8&theta0=60&dt=0.01&duration=10"
                                "&integrators=reference"));
    coarse.advance(1000);
    CHECK(coarse.reference_stop_reason() == StopReason::substep_limit);
    CHECK(coarse.reference_stopped_at() == Approx(0.83).margin(1e-9));
}

TEST_CASE("links: a rule broken by a key's base value sends every parameter back to its base") {
    // span=x is refused and keeps its default 8, which breaks the bridge's rule with links=2:
    // the valid parts must still be a valid config (normalise parses back).
    const ParseResult r = parse_config("scenario=bridge&links=2&span=x");
    REQUIRE(r.errors.size() == 2);
    CHECK(r.errors[0].key == "span");
    CHECK(r.errors[1].key == "span");
    CHECK(parse_config(normalise(r.config)).ok());
    CHECK(r.config.get("links") == 12.0);
}

TEST_CASE("links: at pendulum_large's own dt the constrained reference is 9e-10 m from the closed form (issue 31 F5)") {
    // docs/config.md's 1.6e-11 m over 6 s at 170° is at dt = 0.001 (above); at the preset's dt = 0.01
    // the constrained rk45, projected onto the rod after every step, is further off.
    const Config c = config_of("preset=pendulum_large&duration=6");
    REQUIRE(c.dt == 0.01);
    Simulation exact(c);
    System s = exact.scene().system;
    Lane ref = make_lane(s, find_integrator("rk45"), exact.scene().x0.data(), exact.scene().v0.data());
    ref.rtol = ref.atol = reference_rtol;
    double worst = 0.0;
    for (int k = 1; k <= 600; ++k) {
        integrators()[ref.integrator].step(s, ref, c.dt);
        REQUIRE(LinkForce::project(s, ref.x.data(), ref.v.data()));
        ref.started = false;
        exact.step();
        const dvec2 d = ref.x[0] - exact.reference_x()[0];
        worst = std::max(worst, std::hypot(d.x, d.y));
    }
    INFO(worst << " m");
    CHECK(prints_as(worst, 9.0e-10));  // as docs/config.md prints it
}

// Issue 31 §2: a link to a system with rigid links and no integrators (a shared
// index.html#scenario=chain, `stepwise run 'scenario=chain'`) runs lanes that step it: the
// game-physics solvers, in the table's order, and every one of them moves; a link that names its
// lanes keeps them as written, and the parser says when none of them can step the system.
TEST_CASE("links: a rigid system's default lanes are the methods that step rods, and they move") {
    std::vector<std::string> solvers;
    for (const IntegratorInfo& info : integrators())
        if (info.solves_constraints) solvers.push_back(info.id);
    REQUIRE(solvers == std::vector<std::string>{"pbd", "xpbd", "soft_step", "sequential_impulses", "vbd"});
    for (const char* query : {"scenario=chain", "scenario=pendulum", "scenario=bridge&links=4", "preset=pendulum_large",
                              "scenario=scene&scene=a:0,0;b:1,-1;l:a0,b0", "scenario=chain&integrators=bogus"}) {
        INFO(query);
        const ParseResult r = parse_config(query);
        const Config& c = r.config;
        REQUIRE(c.integrators.size() == solvers.size());
        for (size_t i = 0; i < solvers.size(); ++i) CHECK(lane_id(c.integrators[i]) == solvers[i]);
        CHECK(!c.reference);
        CHECK(!r.no_lane_steps);
        CHECK(normalise(c).find("&integrators=pbd,xpbd,soft_step,sequential_impulses,vbd&") != std::string::npos);
        CHECK(default_lanes(build_scene(c).system) == c.integrators);
        // Every lane steps: none stops, and each has left the start after 20 steps.
        Simulation sim(c);
        const std::vector<dvec2> x0 = sim.scene().x0;
        sim.advance(20);
        for (int l = 0; l < sim.lanes(); ++l) {
            INFO(lane_id(c.integrators[static_cast<size_t>(l)]));
            CHECK(sim.stop_reason(l) == StopReason::none);
            CHECK(sim.shown_x(l)[sim.bodies() - 1] != x0.back());
        }
    }
    // A refused list keeps the system's default: the error says what was dropped.
    CHECK(!parse_config("scenario=chain&integrators=bogus").ok());
    // Compliant links and systems without links keep the four force-based defaults.
    for (const char* query : {"scenario=chain&compliance=0.001", "scenario=spring",
                              "scenario=scene&scene=a:0,0;b:1,-1;l:a0,b0,alpha:0.001"}) {
        INFO(query);
        const Config c = config_of(query);
        CHECK(normalise(c).find("&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&") != std::string::npos);
        CHECK(!parse_config(query).no_lane_steps);
    }
    // Lanes named are kept, even where none can step (they say why: needs_compliance), and the
    // parser says none can; one solver among them, or compliant links, and some lane steps.
    const ParseResult forced = parse_config("scenario=chain&integrators=rk4,velocity_verlet");
    CHECK(normalise(forced.config).find("&integrators=rk4,velocity_verlet&") != std::string::npos);
    CHECK(forced.no_lane_steps);
    Simulation stopped(forced.config);
    CHECK(stopped.stop_reason(0) == StopReason::needs_compliance);
    CHECK(!parse_config("scenario=chain&integrators=rk4,xpbd").no_lane_steps);
    CHECK(!parse_config("scenario=chain&integrators=rk4&compliance=0.001").no_lane_steps);
    CHECK(!parse_config("scenario=chain&integrators=reference").no_lane_steps);  // no lane to step
    CHECK(!method_steps(find_integrator("rk4"), build_scene(forced.config).system));
    CHECK(method_steps(find_integrator("soft_step"), build_scene(forced.config).system));
}

namespace {
// A grid of rows × cols bodies 0.25 m apart hung from two anchors by rods, its joins in the order
// `joins` makes them (heavy-links.mjs lists the 256-rod grid the same way: rows, columns,
// diagonals, then a rod to the body two along a row).
std::string rod_grid(int rows, int cols, bool diagonals, bool skips, int limit) {
    std::string text = "a:0,0.25;a:" + std::to_string(0.25 * (cols - 1)) + ",0.25";
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) text += ";b:" + std::to_string(c * 0.25) + "," + std::to_string(-r * 0.25);
    const auto b = [&](int r, int c) { return "b" + std::to_string(cols * r + c); };
    std::vector<std::string> joins = {"l:a0,b0", "l:a1," + b(0, cols - 1)};
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            if (c + 1 < cols) joins.push_back("l:" + b(r, c) + "," + b(r, c + 1));
            if (r + 1 < rows) joins.push_back("l:" + b(r, c) + "," + b(r + 1, c));
        }
    if (diagonals)
        for (int r = 0; r + 1 < rows; ++r)
            for (int c = 0; c + 1 < cols; ++c) {
                joins.push_back("l:" + b(r, c) + "," + b(r + 1, c + 1));
                joins.push_back("l:" + b(r, c + 1) + "," + b(r + 1, c));
            }
    if (skips)
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c + 2 < cols; ++c) joins.push_back("l:" + b(r, c) + "," + b(r, c + 2));
    for (int k = 0; k < std::min<int>(limit, static_cast<int>(joins.size())); ++k) text += ";" + joins[static_cast<size_t>(k)];
    return text;
}
}  // namespace

TEST_CASE("links: the rigid links' rows are renumbered by reverse Cuthill–McKee where that narrows the band (issue 31 §4)") {
    const auto system_of = [](const std::string& scene) {
        return build_scene(config_of("scenario=scene&g=0,-9.81&scene=" + scene)).system;
    };
    // The 64-body grid of 256 rods: listed rows, columns, diagonals and skips, its half-bandwidth
    // is 216; renumbered, 56 (reverse Cuthill–McKee by hand, tests' own count in Python): the
    // factor's work links · (p + 1)² falls from 256 · 217² to 256 · 57², 14.5 times less.
    const System grid256 = system_of(rod_grid(8, 8, true, true, 256));
    int listed_width = 0;  // the listed order's half-bandwidth: the widest span of one body's links
    for (int b = 0; b < grid256.bodies(); ++b) {
        int lo = 1 << 30, hi = -1;
        for (int q = 0; q < static_cast<int>(grid256.links.size()); ++q)
            if (grid256.links[q].i == b || grid256.links[q].j == b) lo = std::min(lo, q), hi = std::max(hi, q);
        if (hi > lo) listed_width = std::max(listed_width, hi - lo);
    }
    CHECK(listed_width == 216);
    CHECK(LinkForce::constraint_work(grid256) == 256LL * 57 * 57);
    CHECK(217.0 * 217.0 / (57.0 * 57.0) == Approx(14.5).margin(0.05));
    // A chain and the 8 × 8 cloth's grid are listed so that no order is narrower: kept as they
    // are (half-bandwidths 1 and 15), bits and all.
    CHECK(LinkForce::constraint_work(build_scene(config_of("scenario=chain&links=64")).system) == 64LL * 2 * 2);
    CHECK(LinkForce::constraint_work(system_of(rod_grid(8, 8, false, false, 1000))) == 114LL * 16 * 16);
    // The order is the factor's business alone: a 4 × 4 grid with its rods given in reverse gives
    // the same multipliers (tensions) to round-off as in the listed order.
    const std::string grid = rod_grid(4, 4, false, false, 1000);
    std::string reversed = grid.substr(0, grid.find(";l:"));
    std::vector<std::string> joins;
    for (size_t at = grid.find(";l:"); at != std::string::npos;) {
        const size_t next = grid.find(";l:", at + 1);
        joins.push_back(grid.substr(at, next == std::string::npos ? std::string::npos : next - at));
        at = next;
    }
    for (auto it = joins.rbegin(); it != joins.rend(); ++it) reversed += *it;
    Simulation listed(config_of("scenario=scene&g=0,-9.81&integrators=xpbd&scene=" + grid));
    Simulation backwards(config_of("scenario=scene&g=0,-9.81&integrators=xpbd&scene=" + reversed));
    const int m = static_cast<int>(joins.size());
    REQUIRE(m == 26);
    for (int q = 0; q < m; ++q) {
        INFO(q);
        const double t = LinkForce::tension(listed.scene().system, listed.scene().x0.data(), listed.scene().v0.data(),
                                            static_cast<size_t>(q), 0.0);
        const double u = LinkForce::tension(backwards.scene().system, backwards.scene().x0.data(),
                                            backwards.scene().v0.data(), static_cast<size_t>(m - 1 - q), 0.0);
        CHECK(std::isfinite(t));
        CHECK(std::fabs(t - u) <= 1e-12 * (1.0 + std::fabs(t)));
    }
}
