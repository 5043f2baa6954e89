// docs/accuracy.md's part "Game-physics solvers", measured again: the published claims about PBD,
// XPBD, substeps, soft step and vertex block descent, with every number the report prints, from the
// report's own queries through the same core the CLI runs (Simulation for `stepwise run`,
// ConvergenceStudy for `stepwise convergence`). Each number is checked to the digits printed.
#include "convergence.hpp"
#include "helpers.hpp"
#include "simulation.hpp"
#include "trace.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

using namespace stepwise;
using namespace testing_helpers;

namespace {

// A number as the report prints it: rounded to `digits` significant digits, written out in full
// from 0.001 to 10^5 (150, 0.0069, 1120) and with an exponent beyond (1.1e-07).
std::string printed(double value, int digits) {
    char text[48];
    const double magnitude = std::fabs(value);
    if (magnitude < 1e-3 || magnitude >= 1e5) {
        std::snprintf(text, sizeof text, "%.*g", digits, value);
        return text;
    }
    const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
    const double unit = std::pow(10.0, exponent - digits + 1);
    std::snprintf(text, sizeof text, "%.*f", std::max(0, digits - 1 - exponent), std::round(value / unit) * unit);
    return text;
}

// Each lane's summary at the end of the query's run, as `stepwise run 'QUERY' --format json` ends,
// keyed by the lane's id as the link writes it ("xpbd@20x1").
struct LaneEnd {
    double energy, energy_drift, constraint_error, tension;
};
std::map<std::string, LaneEnd> run_to_end(const std::string& query) {
    const Config c = config_of(query);
    Simulation sim(c);
    sim.advance(run_steps(c));
    std::map<std::string, LaneEnd> out;
    for (int i = 0; i < sim.lanes(); ++i) {
        INFO(query << " " << sim.id(i));
        REQUIRE(sim.stop_reason(i) == StopReason::none);
        const bool linked = !sim.scene().system.links.empty();
        out[sim.id(i)] = {sim.energy(i), sim.energy_drift(i), linked ? sim.constraint_error(i) : 0.0,
                          linked ? sim.tension(i) : 0.0};
    }
    return out;
}

// The max_error column of `stepwise convergence 'QUERY' --halvings 0`, one entry a lane in the
// query's order.
std::vector<double> worst_errors(const std::string& query) {
    ConvergenceStudy study(config_of(query), 0);
    study.advance(HUGE_VAL);
    REQUIRE(study.finished());
    std::vector<double> out;
    for (int row = 0; row < study.integrators(); ++row) out.push_back(study.point(row, 0).max_error);
    return out;
}

// The mean period of body 0's x about `centre`, from its upward crossings between the rows
// `stepwise run` prints (one a step, t = 0 included), each placed by linear interpolation: the
// report's awk over the CSV.
std::vector<double> periods(const std::string& query, double centre) {
    const Config c = config_of(query);
    Simulation sim(c);
    const long long steps = run_steps(c);
    std::vector<std::vector<double>> crossings(static_cast<size_t>(sim.lanes()));
    std::vector<double> before(static_cast<size_t>(sim.lanes()));
    for (int i = 0; i < sim.lanes(); ++i) before[i] = sim.lane(i).x[0].x - centre;
    for (long long k = 1; k <= steps; ++k) {
        sim.step();
        for (int i = 0; i < sim.lanes(); ++i) {
            const double now = sim.lane(i).x[0].x - centre;
            if (before[i] < 0.0 && now >= 0.0)
                crossings[i].push_back(c.dt * (static_cast<double>(k - 1) + before[i] / (before[i] - now)));
            before[i] = now;
        }
    }
    std::vector<double> out;
    for (const std::vector<double>& t : crossings) {
        REQUIRE(t.size() >= 2);
        out.push_back((t.back() - t.front()) / static_cast<double>(t.size() - 1));
    }
    return out;
}

}  // namespace

TEST_CASE("claims: XPBD's spring has its own stiffness at any iterations, PBD's follows its step (XPBD paper)") {
    // preset=xpbd_spring: 1 kg, k = 1000 N/m (compliance 0.001), rest 1 m, from 1.5 m, dt = 1/60.
    const std::string spring = "preset=xpbd_spring&integrators=xpbd,xpbd@1x20,pbd,pbd@1x1,pbd@1x20";
    const std::vector<double> at_60 = periods(spring, 1.0);
    const std::vector<double> at_120 = periods(spring + "&dt=0.008333333333333333", 1.0);
    const double omega = std::sqrt(1000.0), exact = 2.0 * pi / omega;
    CHECK(printed(exact, 3) == "0.199");
    // XPBD: one iteration solves the (linear) row exactly, so 1, 10 and 20 iterations are one motion,
    // implicit Euler's, whose period is 2πh/atan(ωh).
    CHECK(at_60[0] == at_60[1]);
    CHECK(printed(at_60[0], 3) == "0.216");
    CHECK(printed(at_120[0], 3) == "0.203");
    for (double h : {1.0 / 60.0, 1.0 / 120.0}) {
        const double implicit_euler = 2.0 * pi * h / std::atan(omega * h);
        CHECK((h > 0.01 ? at_60[0] : at_120[0]) == Approx(implicit_euler).epsilon(2e-3));
    }
    // PBD at stiffness 0.2: the same period with 1, 10 or 20 iterations (the 2007 scaling), half of it
    // at half the step (its stiffness s·m/((1 − s)·h²) is 900 N/m, then 3600 N/m).
    CHECK(printed(at_60[2], 3) == "0.226");
    CHECK(printed(at_120[2], 3) == "0.113");
    // (To 1e-5: the per-iteration factor 1 − (1 − s)^(1/n) rounds differently for each n.)
    for (int i : {3, 4}) {
        CHECK(at_60[i] == Approx(at_60[2]).epsilon(1e-5));
        CHECK(at_120[i] == Approx(at_120[2]).epsilon(1e-5));
    }
    // PBD never reads k: the spring at k = 10 N/m moves it bit for bit as at 1000 N/m.
    Simulation stiff(config_of("preset=xpbd_spring&integrators=pbd"));
    Simulation soft(config_of("scenario=spring&integrators=pbd&dt=0.016666666666666666&duration=2&m=1&k=10&b=0&"
                              "rest=1&anchor=0,0&x0=1.5,0&v0=0,0&pbd_stiffness=0.2"));
    for (int k = 0; k < 120; ++k) {
        stiff.step();
        soft.step();
    }
    CHECK(stiff.lane(0).x[0] == soft.lane(0).x[0]);
    CHECK(stiff.lane(0).v[0] == soft.lane(0).v[0]);
}

TEST_CASE("claims: 100 substeps against 100 iterations on the hanging chain, and its top link's tension (Small Steps)") {
    const std::map<std::string, LaneEnd> end =
        run_to_end("preset=hanging_chain&integrators=xpbd@1x100,xpbd@100x1&duration=2");
    const LaneEnd& iterations = end.at("xpbd@1x100");
    const LaneEnd& substeps = end.at("xpbd@100x1");
    CHECK(printed(100.0 * iterations.constraint_error, 3) == "1.08");
    CHECK(printed(100.0 * substeps.constraint_error, 3) == "0.0116");
    CHECK(printed(iterations.constraint_error / substeps.constraint_error, 2) == "93");
    const double exact = (19.0 + 100.0) * 9.81;
    CHECK(printed(exact, 6) == "1167.39");
    CHECK(printed(iterations.tension, 5) == "1159.9");
    CHECK(printed(substeps.tension, 5) == "1165.6");
    // PBD's iterations still matter on a chain (G1): with rigid links and s = 1 its projection is
    // XPBD's, bit for bit.
    const std::map<std::string, LaneEnd> pbd =
        run_to_end("preset=hanging_chain&integrators=pbd@1x20,pbd@1x100,xpbd@1x20&duration=2");
    CHECK(printed(100.0 * pbd.at("pbd@1x20").constraint_error, 2) == "4.6");
    CHECK(printed(100.0 * pbd.at("pbd@1x100").constraint_error, 3) == "1.08");
    CHECK(pbd.at("pbd@1x20").constraint_error == pbd.at("xpbd@1x20").constraint_error);
    CHECK(pbd.at("pbd@1x100").constraint_error == iterations.constraint_error);
    // Where PBD is not XPBD (s = 0.5), the 2007 per-iteration scaling leaves the iterations almost
    // nothing to change (G1, issue 31 F7).
    const std::map<std::string, LaneEnd> half = run_to_end(
        "preset=hanging_chain&duration=2&pbd_stiffness=0.5&integrators=pbd@1x5,pbd@1x20,pbd@1x100");
    CHECK(printed(100.0 * half.at("pbd@1x5").constraint_error, 4) == "604.1");
    CHECK(printed(100.0 * half.at("pbd@1x20").constraint_error, 4) == "603.7");
    CHECK(printed(100.0 * half.at("pbd@1x100").constraint_error, 4) == "603.7");
}

TEST_CASE("claims: the pendulum challenge's substeps against its reference over the first second") {
    // Rows: 5, 10, 20, 40 and 80 substeps of one iteration, one substep of 20 iterations.
    const std::string lanes = "xpbd@5x1,xpbd@10x1,xpbd@20x1,xpbd@40x1,xpbd@80x1,xpbd@1x20";
    const std::string query = "preset=pendulum_challenge&duration=1&integrators=" + lanes;
    const std::map<std::string, LaneEnd> end = run_to_end(query);
    const std::vector<double> worst = worst_errors(query);
    struct Row {
        const char* lane;
        const char *links_percent, *energy, *max_error;
    };
    const Row rows[] = {{"xpbd@5x1", "3.4", "-8.2", "0.23"},        {"xpbd@10x1", "0.74", "-4.0", "0.068"},
                        {"xpbd@20x1", "0.095", "-2.0", "0.035"},      {"xpbd@40x1", "0.042", "-1.1", "0.024"},
                        {"xpbd@80x1", "0.0069", "-0.60", "0.017"},   {"xpbd@1x20", "4.2", "-30", "0.35"}};
    for (size_t r = 0; r < std::size(rows); ++r) {
        INFO(rows[r].lane);
        const LaneEnd& e = end.at(rows[r].lane);
        CHECK(printed(100.0 * e.constraint_error, 2) == rows[r].links_percent);
        CHECK(printed(e.energy, 2) == rows[r].energy);
        CHECK(printed(worst[r], 2) == rows[r].max_error);
    }
    // The released chain's energy is 0 (at rest, level with its anchor), so `energy` is the loss; it
    // halves, within 25 %, as the substeps double: first order in h.
    CHECK(end.at("xpbd@10x1").energy / end.at("xpbd@20x1").energy == Approx(2.0).epsilon(0.25));
    CHECK(end.at("xpbd@20x1").energy / end.at("xpbd@40x1").energy == Approx(2.0).epsilon(0.25));
    // Past 3.3 s the reference and its tenfold-tighter twin part by more than 1e-9 of the chain's
    // size: the motion is chaotic and no lane can be compared with it for long.
    Simulation sim(config_of("preset=pendulum_challenge&integrators=xpbd@20x1"));
    sim.advance(run_steps(sim.config()));
    CHECK(printed(sim.reference_trusted_until(), 2) == "3.3");
}

TEST_CASE("claims: soft step, sequential impulses and XPBD on a chain with a 1:100 mass ratio at 60 Hz (Box2D v3, Solver2D)") {
    // preset=heavy_chain_60hz: the links' largest stretch after 10 s, in % of a link.
    const std::map<std::string, LaneEnd> swinging = run_to_end("preset=heavy_chain_60hz");
    CHECK(printed(100.0 * swinging.at("xpbd@1x20").constraint_error, 2) == "14");
    CHECK(printed(100.0 * swinging.at("xpbd@20x1").constraint_error, 2) == "1.1");
    CHECK(printed(100.0 * swinging.at("soft_step@4").constraint_error, 2) == "65");
    CHECK(printed(100.0 * swinging.at("sequential_impulses").constraint_error, 2) == "300");
    // The same chain hanging at rest for 30 s. Soft step's rigid links are springs of stiffness
    // m_eff·ω², ω = 2π·min(60 Hz, substep rate / 8): from 8 substeps the frequency stays at 60 Hz.
    // Warm-started, a link at rest keeps the impulse that holds its load, and the solve's bias
    // term settles where the stretch is that load over m_eff·ω²: the 60 Hz springs' own stretch
    // (spring_stretch below), whatever the substeps, not 0.
    const std::map<std::string, LaneEnd> hanging =
        run_to_end("preset=heavy_chain_60hz&theta0=0&duration=30&integrators=soft_step@8,soft_step@16,soft_step@32,"
                   "soft_step@64,sequential_impulses@4,xpbd@1x20,xpbd@20x1");
    const std::pair<const char*, const char*> stretch[] = {
        {"soft_step@8", "14.9"}, {"soft_step@16", "14.9"},         {"soft_step@32", "14.9"}, {"soft_step@64", "14.9"},
        {"sequential_impulses@4", "11.3"}, {"xpbd@1x20", "14.3"}, {"xpbd@20x1", "0.736"}};
    for (const auto& [lane, percent] : stretch) {
        INFO(lane);
        CHECK(printed(100.0 * hanging.at(lane).constraint_error, 3) == percent);
    }
    // The 60 Hz springs' stretch: link k carries the bodies below it, (9 − k)·0.1 kg + 10 kg (the
    // top link all of them), over m_eff = 1/(w_i + w_j) times ω², in % of the 0.1 m link. The
    // largest is the second link's: 14.9 % (at 30 Hz, Box2D's 4 substeps, four times that: 59.6 %).
    auto spring_stretch = [](double hertz) {
        const double omega = 2.0 * pi * hertz, g = 9.81;
        double largest = 0.0;
        for (int k = 0; k < 10; ++k) {
            const double below = (9 - k) * 0.1 + 10.0;
            const double w = (k == 0 ? 0.0 : 1.0 / 0.1) + (k == 9 ? 1.0 / 10.0 : 1.0 / 0.1);
            largest = std::max(largest, below * g * w / (omega * omega) / 0.1);
        }
        return 100.0 * largest;
    };
    CHECK(printed(spring_stretch(60.0), 3) == "14.9");
    CHECK(printed(spring_stretch(30.0), 3) == "59.6");
    CHECK(printed(spring_stretch(7.5), 3) == "954");
    for (const char* lane : {"soft_step@8", "soft_step@16", "soft_step@32", "soft_step@64"}) {
        INFO(lane);
        CHECK(100.0 * hanging.at(lane).constraint_error == Approx(spring_stretch(60.0)).epsilon(1e-3));
    }
    // Below 8 substeps the frequency is lower (4 substeps: 30 Hz; 1 substep: 7.5 Hz) and the
    // springs softer: 4 substeps settle at the 30 Hz springs' 59.6 %, 1 substep swings about its
    // 7.5 Hz springs' 954 %.
    const std::map<std::string, LaneEnd> at_20 = run_to_end(
        "preset=heavy_chain_60hz&theta0=0&duration=20&integrators=soft_step,soft_step@4,sequential_impulses");
    const std::map<std::string, LaneEnd> at_30 = run_to_end(
        "preset=heavy_chain_60hz&theta0=0&duration=30&integrators=soft_step,soft_step@4,sequential_impulses");
    CHECK(printed(100.0 * at_20.at("soft_step").constraint_error, 3) == "1020");
    CHECK(printed(100.0 * at_30.at("soft_step").constraint_error, 3) == "948");
    CHECK(printed(100.0 * at_20.at("soft_step@4").constraint_error, 3) == "59.6");
    CHECK(printed(100.0 * at_30.at("soft_step@4").constraint_error, 3) == "59.6");
    CHECK(printed(100.0 * at_30.at("sequential_impulses").constraint_error, 3) == "182");
}

TEST_CASE("claims: vertex block descent approaches implicit Euler as its iterations grow, and where it stands against XPBD") {
    // Four links of compliance 1e-5 m/N (1 kg each) released at 40°, dt = 0.01, 1 s.
    const std::string chain = "scenario=chain&links=4&compliance=0.00001&theta0=40&dt=0.01&duration=1";
    const Config c = config_of(chain + "&integrators=implicit_euler,vbd@1x1,vbd@1x4,vbd@1x16,vbd@1x64,xpbd@1x16,xpbd@1x64");
    Simulation sim(c);
    sim.advance(run_steps(c));
    // The largest distance of any body from implicit Euler's at t = 1 s.
    auto from_implicit_euler = [&](int lane) {
        double d = 0.0;
        for (int b = 0; b < sim.bodies(); ++b) {
            const dvec2 e = sim.lane(lane).x[b] - sim.lane(0).x[b];
            d = std::max(d, std::hypot(e.x, e.y));
        }
        return d;
    };
    CHECK(printed(from_implicit_euler(1), 2) == "0.54");
    CHECK(printed(from_implicit_euler(2), 2) == "0.34");
    CHECK(printed(from_implicit_euler(3), 2) == "0.025");
    CHECK(printed(from_implicit_euler(4), 2) == "1.1e-07");
    // XPBD's iterations converge too, but 7.7e-4 m away: its Gauss–Seidel solves a linearised
    // system, not implicit Euler's (it drops the links' geometric stiffness).
    CHECK(printed(from_implicit_euler(5), 2) == "0.00079");
    CHECK(printed(from_implicit_euler(6), 2) == "0.00077");
    // Against the reference at equal passes over the rows (the same force_evaluations).
    const std::vector<double> worst = worst_errors(
        chain + "&integrators=implicit_euler,vbd@1x1,vbd@1x4,vbd@1x16,vbd@1x64,xpbd@1x1,xpbd@1x4,xpbd@1x16,xpbd@1x64,"
                "xpbd@16x1");
    const char* expected[] = {"0.021", "0.56", "0.40", "0.044", "0.021", "0.029", "0.022", "0.021", "0.021", "0.0015"};
    for (size_t r = 0; r < worst.size(); ++r) {
        INFO("row " << r);
        CHECK(printed(worst[r], 2) == expected[r]);
    }
}

TEST_CASE("claims: XPBD's numerical damping shrinks with h, not h squared (Small Steps)") {
    // preset=xpbd_spring for 0.5 s: each substep is implicit Euler's on the linear row, whose energy
    // after T is E₀·(1 + ω²h²)^(−T/h) ≈ E₀·e^(−ω²hT): the loss halves as h halves.
    const std::map<std::string, LaneEnd> end = run_to_end(
        "preset=xpbd_spring&duration=0.5&integrators=xpbd@16,xpbd@32,xpbd@64,xpbd@128,xpbd@256");
    const std::pair<const char*, int> lanes[] = {{"xpbd@16", 16}, {"xpbd@32", 32}, {"xpbd@64", 64},
                                                 {"xpbd@128", 128}, {"xpbd@256", 256}};
    const char* printed_drift[] = {"-0.406", "-0.229", "-0.122", "-0.0630", "-0.0320"};
    double previous = 0.0;
    for (size_t i = 0; i < std::size(lanes); ++i) {
        const auto& [lane, substeps] = lanes[i];
        INFO(lane);
        const double h = 1.0 / (60.0 * substeps), drift = end.at(lane).energy_drift;
        CHECK(printed(drift, 3) == printed_drift[i]);
        CHECK(drift == Approx(std::pow(1.0 + 1000.0 * h * h, -0.5 / h) - 1.0).epsilon(1e-3));
        if (previous != 0.0) CHECK(previous / drift == Approx(2.0).epsilon(0.15));  // first order
        previous = drift;
    }
}

TEST_CASE("claims: soft step's and VBD's orders by kind of system, as their table rows state them (issue 31 F4)") {
    // `stepwise convergence 'QUERY&integrators=vbd,vbd@1x1,soft_step'` (4 halvings): each lane's
    // fitted order, and on the rigid chain each level's max_error, in the lanes' order.
    struct Study {
        std::vector<double> order;
        std::vector<std::vector<double>> error;
    };
    const auto study_of = [](const std::string& query) {
        ConvergenceStudy study(config_of(query + "&integrators=vbd,vbd@1x1,soft_step"), 4);
        study.advance(HUGE_VAL);
        REQUIRE(study.finished());
        Study out;
        for (int row = 0; row < study.integrators(); ++row) {
            REQUIRE(study.fit(row).valid);
            out.order.push_back(study.fit(row).order);
            out.error.emplace_back();
            for (int l = 0; l < study.levels_done(); ++l) out.error.back().push_back(study.point(row, l).max_error);
        }
        return out;
    };
    // A spring with a rest length and a compliant three-link chain (two of the orders test's systems
    // without a closed form): first order, 10 iterations or 1.
    const Study spring = study_of("scenario=spring&k=4&b=0&rest=1&x0=1.5,0&v0=0,1&duration=4&dt=0.02");
    const Study compliant = study_of("scenario=chain&links=3&compliance=0.01&link_damping=0.5&theta0=40&duration=2&dt=0.005");
    CHECK(printed(spring.order[0], 2) == "0.99");
    CHECK(printed(spring.order[1], 2) == "0.99");
    CHECK(printed(spring.order[2], 2) == "0.94");
    CHECK(printed(compliant.order[0], 2) == "0.99");
    CHECK(printed(compliant.order[1], 2) == "0.99");
    CHECK(printed(compliant.order[2], 2) == "0.96");
    // The rigid four-link chain at its defaults from dt = 0.01: no order.
    const Study rigid = study_of("scenario=chain&links=4&dt=0.01");
    CHECK(printed(rigid.error[0][0], 2) == "0.42");
    for (int l = 2; l < 5; ++l) CHECK(printed(rigid.error[0][l], 2) == "0.18");
    CHECK(printed(rigid.order[0], 2) == "0.29");
    for (int l = 0; l < 5; ++l) CHECK((rigid.error[1][l] >= 1.2 && rigid.error[1][l] < 1.3));
    CHECK(printed(rigid.order[1], 1) == "-0.02");
    CHECK(printed(rigid.error[2][0], 2) == "0.16");
    CHECK(printed(rigid.error[2][2], 2) == "0.0070");
    CHECK(printed(rigid.error[2][3], 2) == "0.0058");
    CHECK(printed(rigid.error[2][4], 2) == "0.0070");
    // And the table claims no order without a closed form for either, first order elsewhere.
    for (const char* id : {"vbd", "soft_step"}) {
        const IntegratorInfo& info = integrators()[static_cast<size_t>(find_integrator(id))];
        CHECK(info.orders.without_closed_form.kind == Order::none);
        CHECK(info.orders.single_forces == Order(1));
        CHECK(info.orders.dissipative == Order(1));
    }
}

TEST_CASE("claims: energy_drift where the energy is 0 at the start is relative to the reference's energy scale now") {
    // pendulum_challenge is released level with its anchor: KE0 = PE0 = 0, so the drift's divisor is
    // the reference's KE + |PE| at the time (docs/accuracy.md, "Reading the commands").
    const Config c = config_of("preset=pendulum_challenge&duration=1");
    Simulation sim(c);
    sim.advance(run_steps(c));
    const std::vector<dvec2>& x = sim.reference_x();
    const std::vector<dvec2>& v = sim.reference_v();
    const System& s = sim.scene().system;
    const double ke = kinetic_energy(s, v.data()), pe = potential_energy(s, x.data());
    REQUIRE(sim.id(0) == "xpbd@20x1");
    CHECK(printed(sim.energy(0), 3) == "-2.03");
    CHECK(printed(ke + std::fabs(pe), 3) == "29.1");
    CHECK(sim.energy_drift(0) == (sim.energy(0) - (ke + pe)) / (ke + std::fabs(pe)));
    CHECK(printed(sim.energy_drift(0), 3) == "-0.0699");
}
