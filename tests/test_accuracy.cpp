// docs/accuracy.md, measured again: the numbers the report quotes beside the articles' claims,
// from the report's own queries through the same core the CLI runs. A change that moves one of
// them fails here, so the report is updated with it instead of going stale.
#include "convergence.hpp"
#include "helpers.hpp"
#include "simulation.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace stepwise;
using namespace testing_helpers;

namespace {

// The largest position error of each integrator over one run at the query's own dt: the
// max_error that `stepwise convergence 'QUERY' --halvings 0` prints.
std::map<std::string, double> worst_errors(const std::string& query) {
    ConvergenceStudy study(config_of(query), 0);
    study.advance(HUGE_VAL);
    REQUIRE(study.finished());
    std::map<std::string, double> out;
    for (int row = 0; row < study.integrators(); ++row)
        out[integrators()[study.integrator_index(row)].id] = study.point(row, 0).max_error;
    return out;
}

// The fitted order of each integrator over dt, dt/2, …, dt/2^halvings (stderr of `convergence`).
std::map<std::string, double> fitted_orders(const std::string& query, int halvings) {
    ConvergenceStudy study(config_of(query), halvings);
    study.advance(HUGE_VAL);
    REQUIRE(study.finished());
    std::map<std::string, double> out;
    for (int row = 0; row < study.integrators(); ++row) {
        REQUIRE(study.fit(row).valid);
        out[integrators()[study.integrator_index(row)].id] = study.fit(row).order;
    }
    return out;
}

// The steps `stepwise run` takes for a config's duration.
long long steps_of(const Config& c) { return static_cast<long long>(std::ceil(c.duration / c.dt - 1e-9)); }

int lane_of(const Simulation& sim, const std::string& id) {
    for (int l = 0; l < sim.lanes(); ++l)
        if (id == sim.info(l).id) return l;
    FAIL("no lane " << id);
    return -1;
}

// One number per lane at the end of the query's run, as `stepwise run 'QUERY' --format json` ends.
template <class Read>
std::map<std::string, double> at_end(const std::string& query, Read read) {
    const Config c = config_of(query);
    Simulation sim(c);
    sim.advance(steps_of(c));
    std::map<std::string, double> out;
    for (int l = 0; l < sim.lanes(); ++l) {
        REQUIRE_FALSE(sim.diverged(l));
        out[sim.info(l).id] = read(sim, l);
    }
    return out;
}

std::map<std::string, double> final_drifts(const std::string& query) {
    return at_end(query, [](const Simulation& sim, int l) { return sim.energy_drift(l); });
}

std::map<std::string, double> final_energies(const std::string& query) {
    return at_end(query, [](const Simulation& sim, int l) { return sim.energy(l); });
}

const std::string readme_two_springs = "scenario=two_spring&integrators=semi_implicit_euler,kinematic,kinematic_avg";
const std::string identical_springs =
    "scenario=two_spring&k1=10&k2=10&anchor1=0,0&anchor2=0,0&integrators=semi_implicit_euler,kinematic,kinematic_avg";

}  // namespace

TEST_CASE("accuracy K6/K8: on docs/testing.md's two springs semi/kinematic grows as 0.046/dt, kinematic/avg stays near 7.3") {
    struct Row {
        const char* dt;
        double semi_over_kin, kin_over_avg;
    };
    // The report's table (K6): 1/60 is written 0.016667 there.
    for (const Row& row : {Row{"0.016667", 3.913, 7.55}, Row{"0.01", 5.766, 7.41}, Row{"0.001", 47.49, 7.267},
                           Row{"0.0001", 464.8, 7.255}, Row{"0.00001", 4635.0, 7.269}}) {
        DYNAMIC_SECTION("dt = " << row.dt) {
            std::map<std::string, double> e = worst_errors(readme_two_springs + "&dt=" + row.dt);
            const double semi = e["semi_implicit_euler"], kin = e["kinematic"], avg = e["kinematic_avg"];
            INFO("semi " << semi << " kinematic " << kin << " kinematic_avg " << avg);
            CHECK(semi / kin == Approx(row.semi_over_kin).epsilon(2e-3));
            CHECK(kin / avg == Approx(row.kin_over_avg).epsilon(2e-3));
        }
    }
    SECTION("the constant: (semi/kinematic)·dt = 0.0465 at 1e-4 and 0.0464 at 1e-5, so 12,000 needs dt ≈ 3.9 µs") {
        for (double dt : {1e-4, 1e-5}) {
            std::map<std::string, double> e = worst_errors(readme_two_springs + "&dt=" + format_number(dt));
            const double c = e["semi_implicit_euler"] / e["kinematic"] * dt;
            CHECK(c > 0.0462);
            CHECK(c < 0.0467);
            CHECK(c / 12000.0 == Approx(3.87e-6).epsilon(5e-3));
        }
    }
    SECTION("dt = 4 µs: 11,470, round-off already about 1 % in") {
        std::map<std::string, double> e = worst_errors(readme_two_springs + "&dt=0.000004");
        CHECK(e["semi_implicit_euler"] / e["kinematic"] == Approx(11470).epsilon(2e-3));
    }
}

TEST_CASE("accuracy K6/K10: two identical springs at dt = 0.000123 over 0.58 s show 12,000 and 58 million") {
    std::map<std::string, double> e = worst_errors(identical_springs + "&dt=0.000123&duration=0.58");
    CHECK(e["semi_implicit_euler"] == Approx(3.89e-4).epsilon(2e-3));
    CHECK(e["kinematic"] == Approx(3.245e-8).epsilon(2e-3));
    CHECK(e["kinematic_avg"] == Approx(6.683e-12).epsilon(2e-3));
    CHECK(e["semi_implicit_euler"] / e["kinematic"] == Approx(11988).epsilon(1e-3));
    CHECK(e["semi_implicit_euler"] / e["kinematic_avg"] == Approx(5.82e7).epsilon(2e-3));

    SECTION("a truncation error, not round-off: the anchors at (±2, 0) give the same to 4e-4") {
        std::map<std::string, double> moved = worst_errors(
            "scenario=two_spring&k1=10&k2=10&integrators=kinematic_avg&dt=0.000123&duration=0.58");
        CHECK(moved["kinematic_avg"] == Approx(e["kinematic_avg"]).epsilon(1e-3));
        // ... and h³ from dt = 0.000246: 5.36e-11 / 8 within 0.3 %.
        std::map<std::string, double> coarser = worst_errors(identical_springs + "&dt=0.000246&duration=0.58");
        CHECK(coarser["kinematic_avg"] / 8.0 == Approx(e["kinematic_avg"]).epsilon(5e-3));
    }
    SECTION("the ratios depend on the window") {
        struct Window {
            const char* duration;
            double semi_over_kin, semi_over_avg;
        };
        for (const Window& w : {Window{"0.7025", 11988, 5.069e7}, Window{"1.405", 4532, 2.537e7}, Window{"10", 515.2, 3.626e6}}) {
            std::map<std::string, double> we = worst_errors(identical_springs + "&dt=0.000123&duration=" + w.duration);
            INFO("duration " << w.duration);
            CHECK(we["semi_implicit_euler"] / we["kinematic"] == Approx(w.semi_over_kin).epsilon(2e-3));
            CHECK(we["semi_implicit_euler"] / we["kinematic_avg"] == Approx(w.semi_over_avg).epsilon(2e-3));
        }
    }
    SECTION("in velocities the same run gives 1.9 and 1.6") {
        const Config c = config_of(identical_springs + "&dt=0.000123&duration=0.58");
        Simulation sim(c);
        std::vector<double> worst(sim.lanes(), 0.0);
        for (long long k = 0; k < steps_of(c); ++k) {
            sim.step();
            const dvec2 ref = sim.reference_v()[0];
            for (int l = 0; l < sim.lanes(); ++l)
                worst[l] = std::max(worst[l], std::hypot(sim.lane(l).v[0].x - ref.x, sim.lane(l).v[0].y - ref.y));
        }
        const double semi = worst[lane_of(sim, "semi_implicit_euler")], kin = worst[lane_of(sim, "kinematic")],
                     avg = worst[lane_of(sim, "kinematic_avg")];
        CHECK(semi == Approx(2.585e-7).epsilon(5e-3));
        CHECK(kin == Approx(1.351e-7).epsilon(5e-3));
        CHECK(avg == Approx(1.595e-7).epsilon(5e-3));
        CHECK(avg > kin);  // the average method is the worse of the two in velocity (K8)
    }
}

TEST_CASE("accuracy K8/K2: the fitted orders the report quotes") {
    std::map<std::string, double> identical = fitted_orders(identical_springs + "&dt=0.01&duration=0.58", 4);
    CHECK(identical["semi_implicit_euler"] == Approx(1.002).margin(0.005));
    CHECK(identical["kinematic"] == Approx(2.004).margin(0.005));
    CHECK(identical["kinematic_avg"] == Approx(2.997).margin(0.005));  // a gained order on identical springs
    std::map<std::string, double> readme = fitted_orders(readme_two_springs + "&dt=0.01", 4);
    CHECK(readme["kinematic"] == Approx(1.998).margin(0.005));
    CHECK(readme["kinematic_avg"] == Approx(1.991).margin(0.005));
    std::map<std::string, double> damped = fitted_orders(
        "scenario=two_spring&b=0.5&integrators=semi_implicit_euler,kinematic,kinematic_avg,velocity_verlet&dt=0.01", 4);
    CHECK(damped["kinematic"] == Approx(1.029).margin(0.005));  // K12: first order with a damper
    CHECK(damped["kinematic_avg"] == Approx(0.998).margin(0.005));
    CHECK(damped["velocity_verlet"] == Approx(2.004).margin(0.005));
    std::map<std::string, double> spring = fitted_orders(
        "scenario=spring&k=4&b=0&dt=0.02&duration=4&integrators=explicit_euler,semi_implicit_euler,leapfrog,heun,rk4", 4);
    CHECK(spring["semi_implicit_euler"] == Approx(1.008).margin(0.005));  // K2: not second order
    CHECK(spring["leapfrog"] == Approx(2.000).margin(0.005));
    CHECK(spring["explicit_euler"] == Approx(1.022).margin(0.005));
    CHECK(spring["heun"] == Approx(2.001).margin(0.005));
    CHECK(spring["rk4"] == Approx(4.002).margin(0.005));
}

TEST_CASE("accuracy K2: semi-implicit Euler from rest, velocity second order, position ahead by (h/2)·v") {
    std::vector<double> velocity_errors;
    for (const char* dt : {"0.02", "0.01", "0.005"}) {
        const Config c = config_of(std::string("scenario=spring&k=4&b=0&x0=1,0&integrators=semi_implicit_euler&duration=4&dt=") + dt);
        Simulation sim(c);
        double worst_v = 0.0, worst_offset = 0.0;
        for (long long k = 0; k < steps_of(c); ++k) {
            sim.step();
            const double t = sim.time();
            worst_v = std::max(worst_v, std::fabs(sim.lane(0).v[0].x + 2.0 * std::sin(2.0 * t)));
            // x(t) + (h/2)·v(t) of the exact motion x = cos 2t
            const double ahead = std::cos(2.0 * t) - c.dt * std::sin(2.0 * t);
            worst_offset = std::max(worst_offset, std::fabs(sim.lane(0).x[0].x - ahead));
        }
        velocity_errors.push_back(worst_v);
        CHECK(worst_offset / (c.dt * c.dt) == Approx(1.32).margin(0.01));  // second order once the offset is out
    }
    CHECK(velocity_errors[0] == Approx(9.862e-4).epsilon(2e-3));
    CHECK(velocity_errors[1] == Approx(2.465e-4).epsilon(2e-3));
    CHECK(velocity_errors[2] == Approx(6.163e-5).epsilon(2e-3));
}

TEST_CASE("accuracy K4/K5: the constant-acceleration step runs away on a spring, the kinematic one is exact") {
    const Config c = config_of("scenario=spring&k=15&b=0&x0=1000,0&integrators=newton,semi_implicit_euler&dt=0.01&duration=1000");
    Simulation sim(c);
    sim.advance(steps_of(c));
    CHECK(sim.diverged(lane_of(sim, "newton")));
    CHECK(sim.diverged_at(lane_of(sim, "newton")) == Approx(369.09).margin(1e-6));
    CHECK(worst_errors(normalise(c))["semi_implicit_euler"] == Approx(260.65).epsilon(1e-3));
    for (const char* dt : {"0.01", "0.5", "2", "10"}) {
        INFO("dt " << dt);
        // Round-off of the per-step sin/cos only: at most 3e-12 of the 1000 m swing.
        CHECK(worst_errors(std::string("scenario=spring&k=15&b=0&x0=1000,0&integrators=kinematic&duration=1000&dt=") + dt)
                  ["kinematic"] < 3.1e-9);
    }
}

TEST_CASE("accuracy K7/K11: the kinematic integrator gains energy, the average method loses 5 % in 3 hours at 8.3 ms") {
    SECTION("identical springs anchored at the origin: energy_drift is the share of the oscillation's energy") {
        std::map<std::string, double> d = final_drifts(identical_springs + "&dt=0.0083&duration=10800");
        CHECK(d["kinematic_avg"] == Approx(-0.05015).epsilon(2e-3));
        CHECK(d["kinematic"] == Approx(0.1084).epsilon(2e-3));
        CHECK(d["semi_implicit_euler"] == Approx(0.0051).epsilon(2e-2));
        // ... while the positions over K6's window are only 177 and 12,900 apart.
        std::map<std::string, double> e = worst_errors(identical_springs + "&dt=0.0083&duration=0.58");
        CHECK(e["semi_implicit_euler"] / e["kinematic"] == Approx(176.9).epsilon(2e-3));
        CHECK(e["semi_implicit_euler"] / e["kinematic_avg"] == Approx(12881).epsilon(2e-3));
    }
    SECTION("at the step of 12,000 and 58 million the loss is 1.7e-8 in 1230 s (10^7 steps)") {
        const double drift = final_drifts(
            "scenario=two_spring&k1=10&k2=10&anchor1=0,0&anchor2=0,0&integrators=kinematic_avg&dt=0.000123&duration=1230")
            ["kinematic_avg"];
        CHECK(drift == Approx(-1.698e-8).epsilon(1e-2));
        // Near the trend of the map's determinant, 1 − θ⁴/12 per step with θ = √10·h (−1.9e-8 after
        // 10^7 steps), less the swing within a period (about 1e-8).
        const double theta = std::sqrt(10.0) * 0.000123;
        CHECK(std::fabs(drift + std::pow(theta, 4) / 12.0 * 1e7) < 0.5e-8);
    }
    SECTION("docs/testing.md's two springs: oscillation energy (E − 160/3)/(70 − 160/3)") {
        auto oscillation = [](double energy) { return (energy - 160.0 / 3.0) / (70.0 - 160.0 / 3.0); };
        std::map<std::string, double> e = final_energies("scenario=two_spring&integrators=kinematic,kinematic_avg&dt=0.01&duration=10000");
        CHECK(oscillation(e["kinematic"]) == Approx(1.396).epsilon(2e-3));
        CHECK(oscillation(e["kinematic_avg"]) == Approx(0.8122).epsilon(2e-3));
        std::map<std::string, double> hours = final_energies("scenario=two_spring&integrators=kinematic_avg&dt=0.006&duration=10800");
        CHECK(oscillation(hours["kinematic_avg"]) - 1.0 == Approx(-0.0473).epsilon(1e-2));
    }
}

TEST_CASE("accuracy K13: kinematic_avg at dt against RK4 at 4·dt on docs/testing.md's two springs") {
    struct Pair {
        const char *dt, *rk4_dt;
        double avg, rk4;
    };
    for (const Pair& p : {Pair{"0.05", "0.2", 0.02131, 0.4882}, Pair{"0.01", "0.04", 8.356e-4, 1.047e-3},
                          Pair{"0.005", "0.02", 2.119e-4, 6.624e-5}, Pair{"0.001", "0.004", 8.562e-6, 1.081e-7}}) {
        INFO("dt " << p.dt);
        CHECK(worst_errors(std::string("scenario=two_spring&integrators=kinematic_avg&dt=") + p.dt)["kinematic_avg"] ==
              Approx(p.avg).epsilon(2e-3));
        CHECK(worst_errors(std::string("scenario=two_spring&integrators=rk4&dt=") + p.rk4_dt)["rk4"] == Approx(p.rk4).epsilon(2e-3));
    }
}

TEST_CASE("accuracy F2/F3/F5/F6: Fiedler's constant force at 1/100 and his damped spring") {
    const Config c = config_of("preset=constant_force&dt=0.01&integrators=explicit_euler");
    Simulation sim(c);
    sim.advance(990);
    CHECK(sim.lane(0).x[0].y == Approx(-489.555).margin(1e-9));  // the article prints 489.552155 (float)
    sim.advance(10);
    CHECK(sim.lane(0).x[0].y == Approx(-499.5).margin(1e-9));  // ... and 499.497070
    CHECK(sim.lane(0).v[0].y == Approx(-100.0).margin(1e-9));  // ... and 99.999046

    std::map<std::string, double> e =
        worst_errors("preset=damped_spring&integrators=explicit_euler,semi_implicit_euler,implicit_euler,velocity_verlet,rk4");
    CHECK(e["explicit_euler"] == Approx(661.2).epsilon(1e-3));
    CHECK(e["semi_implicit_euler"] == Approx(19.82).epsilon(1e-3));
    CHECK(e["implicit_euler"] == Approx(318.4).epsilon(1e-3));
    CHECK(e["velocity_verlet"] == Approx(1.426).epsilon(1e-3));
    CHECK(e["rk4"] == Approx(4.250e-4).epsilon(1e-3));
    std::map<std::string, double> energy = final_energies("preset=damped_spring&integrators=explicit_euler");
    CHECK(energy["explicit_euler"] / 7.5e6 == Approx(1.668).epsilon(1e-3));  // gains, while the exact motion loses 63 %
    CHECK(final_drifts("preset=damped_spring&integrators=explicit_euler")["explicit_euler"] == Approx(1.2956).epsilon(1e-3));
    CHECK(worst_errors("preset=damped_spring&dt=0.016667&integrators=semi_implicit_euler")["semi_implicit_euler"] ==
          Approx(34.09).epsilon(1e-3));  // S2
}

TEST_CASE("accuracy F7/F8: phase and energy of the undamped oscillator at dt = 0.1 and 0.25 over 90 s") {
    struct Case {
        const char* preset;
        double semi_phase, verlet_phase, rk4_phase, rk4_drift;
    };
    for (const Case& k : {Case{"undamped_dt01", 2.347, 2.224, -0.0619, -0.04055}, Case{"undamped_dt025", 15.364, 15.350, -1.758, -0.97415}}) {
        DYNAMIC_SECTION(k.preset) {
            const Config c = config_of(std::string("preset=") + k.preset);
            Simulation sim(c);
            const double w = std::sqrt(15.0);
            // The phase of (x, −v/ω), unwrapped step by step (ωh ≤ 0.97 < π), as the report's awk does.
            auto phase = [&](int l) { return std::atan2(-sim.lane(l).v[0].x / w, sim.lane(l).x[0].x); };
            std::vector<double> last(sim.lanes()), total(sim.lanes(), 0.0);
            for (int l = 0; l < sim.lanes(); ++l) last[l] = phase(l);
            for (long long s = 0; s < steps_of(c); ++s) {
                sim.step();
                for (int l = 0; l < sim.lanes(); ++l) {
                    double d = phase(l) - last[l];
                    while (d < -pi) d += 2.0 * pi;
                    while (d > pi) d -= 2.0 * pi;
                    total[l] += d;
                    last[l] = phase(l);
                }
            }
            const double exact = w * sim.time();
            CHECK(total[lane_of(sim, "semi_implicit_euler")] - exact == Approx(k.semi_phase).margin(1e-3));
            CHECK(total[lane_of(sim, "velocity_verlet")] - exact == Approx(k.verlet_phase).margin(1e-3));
            CHECK(total[lane_of(sim, "rk4")] - exact == Approx(k.rk4_phase).margin(1e-3));
            CHECK(sim.energy_drift(lane_of(sim, "rk4")) == Approx(k.rk4_drift).epsilon(1e-3));
        }
    }
}

TEST_CASE("accuracy F9: semi-implicit Euler's mean energy from rest is E0 / (1 − (ωh/2)²), with no trend") {
    for (double dt : {0.1, 0.25, 0.5}) {
        DYNAMIC_SECTION("dt = " << dt) {
            const Config c =
                config_of("scenario=spring&k=15&b=0&x0=1000,0&integrators=semi_implicit_euler&duration=9000&dt=" + format_number(dt));
            Simulation sim(c);
            const long long steps = steps_of(c);
            double first = 0.0, second = 0.0;
            for (long long s = 1; s <= steps; ++s) {
                sim.step();
                (2 * s <= steps ? first : second) += sim.energy(0) / 7.5e6;
            }
            const double half = 0.5 * std::sqrt(15.0) * dt;
            const double mean = (first + second) / static_cast<double>(steps);
            CHECK(mean == Approx(1.0 / (1.0 - half * half)).epsilon(2e-4));
            CHECK(first / static_cast<double>(steps / 2) == Approx(second / static_cast<double>(steps - steps / 2)).epsilon(2e-4));
        }
    }
}

TEST_CASE("accuracy T1/T3: every number of the TUM sheet's worked exercises, and where it printed them wrong") {
    // The sheet's values as printed; `printed` differs from `correct` where the report lists a typo.
    struct Cell {
        const char* what;
        const char* query;  // `steps` steps of this, then read lane `lane`
        const char* lane;
        int body;
        bool velocity;
        dvec2 printed, correct;
        int steps = 1;
    };
    const char* step = "preset=two_point_exercise";
    const char* half_step = "preset=two_point_exercise&integrators=explicit_euler&dt=0.25";
    // From rest, one explicit Euler step of 1 s ends with v equal to the acceleration at the start.
    const char* accel0 = "preset=two_point_exercise&integrators=explicit_euler&dt=1&v1=0,0&v2=0,0";
    const char* accel_heun = "preset=two_point_exercise&integrators=explicit_euler&dt=1&v1=0,0&v2=0,0&x1=-2.5,1.25&x2=3.5,1.25";
    const char* accel_mid = "preset=two_point_exercise&integrators=explicit_euler&dt=1&v1=0,0&v2=0,0&x1=-2.25,1.625&x2=3.25,1.625";
    const std::vector<Cell> cells = {
        {"P1's velocity at t = 0 (typos 1 and 3)", step, "heun", 0, true, {-1, 1.5}, {-1, -1.5}, 0},
        {"P2's velocity at t = 0 (typo 4)", step, "midpoint", 1, true, {1, 1.5}, {1, -1.5}, 0},
        {"a1(0) in midpoint's half step (typo 5)", accel0, "explicit_euler", 0, true, {-2, -70}, {-2, -10}},
        {"a1(0)", accel0, "explicit_euler", 0, true, {-2, -10}, {-2, -10}},
        {"a2(0)", accel0, "explicit_euler", 1, true, {4.0 / 3.0, -10}, {4.0 / 3.0, -10}},
        {"Heun helper v~1", step, "explicit_euler", 0, true, {-2, -6.5}, {-2, -6.5}},
        {"Heun helper v~2", step, "explicit_euler", 1, true, {5.0 / 3.0, -6.5}, {5.0 / 3.0, -6.5}},
        {"Heun helper p~1", step, "explicit_euler", 0, false, {-2.5, 1.25}, {-2.5, 1.25}},
        {"Heun helper p~2", step, "explicit_euler", 1, false, {3.5, 1.25}, {3.5, 1.25}},
        {"Heun a~1 (no spring force at length 6)", accel_heun, "explicit_euler", 0, true, {0, -10}, {0, -10}},
        {"Heun a~2", accel_heun, "explicit_euler", 1, true, {0, -10}, {0, -10}},
        {"Heun p1", step, "heun", 0, false, {-2.75, 0}, {-2.75, 0}},
        {"Heun p2", step, "heun", 1, false, {11.0 / 3.0, 0}, {11.0 / 3.0, 0}},
        {"Heun v1", step, "heun", 0, true, {-1.5, -6.5}, {-1.5, -6.5}},
        {"Heun v2", step, "heun", 1, true, {4.0 / 3.0, -6.5}, {4.0 / 3.0, -6.5}},
        {"midpoint p~1", half_step, "explicit_euler", 0, false, {-2.25, 1.625}, {-2.25, 1.625}},
        {"midpoint p~2", half_step, "explicit_euler", 1, false, {3.25, 1.625}, {3.25, 1.625}},
        {"midpoint v~1", half_step, "explicit_euler", 0, true, {-1.5, -4}, {-1.5, -4}},
        {"midpoint v~2", half_step, "explicit_euler", 1, true, {4.0 / 3.0, -4}, {4.0 / 3.0, -4}},
        {"midpoint a~1 (typos 6 and 7)", accel_mid, "explicit_euler", 0, true, {-1, -70}, {-1, -10}},
        {"midpoint a~2", accel_mid, "explicit_euler", 1, true, {2.0 / 3.0, -10}, {2.0 / 3.0, -10}},
        {"midpoint p1", step, "midpoint", 0, false, {-2.75, 0}, {-2.75, 0}},
        {"midpoint p2", step, "midpoint", 1, false, {11.0 / 3.0, 0}, {11.0 / 3.0, 0}},
        {"midpoint v1", step, "midpoint", 0, true, {-1.5, -6.5}, {-1.5, -6.5}},
        {"midpoint v2", step, "midpoint", 1, true, {4.0 / 3.0, -6.5}, {4.0 / 3.0, -6.5}},
        {"leap-frog v1(0.25)", step, "semi_implicit_euler", 0, true, {-2, -6.5}, {-2, -6.5}},
        {"leap-frog v2(0.25)", step, "semi_implicit_euler", 1, true, {5.0 / 3.0, -6.5}, {5.0 / 3.0, -6.5}},
        {"leap-frog p1(0.5)", step, "semi_implicit_euler", 0, false, {-3, -1.25}, {-3, -1.25}},
        {"leap-frog p2(0.5)", step, "semi_implicit_euler", 1, false, {23.0 / 6.0, -1.25}, {23.0 / 6.0, -1.25}},
        // Stepwise's leapfrog reads the velocities at t = 0, not t = -0.25 (the report says so).
        {"Stepwise leapfrog p1", step, "leapfrog", 0, false, {-2.75, 0}, {-2.75, 0}},
    };
    for (const Cell& cell : cells) {
        INFO(cell.what);
        Simulation sim(config_of(cell.query));
        sim.advance(cell.steps);
        const Lane& lane = sim.lane(lane_of(sim, cell.lane));
        const dvec2 got = cell.velocity ? lane.v[cell.body] : lane.x[cell.body];
        CHECK(got.x == Approx(cell.correct.x).margin(1e-14));
        CHECK(got.y == Approx(cell.correct.y).margin(1e-14));
        if (cell.printed != cell.correct) CHECK(std::hypot(got.x - cell.printed.x, got.y - cell.printed.y) > 1.0);
    }
    // T3: the same four force evaluations.
    CHECK(worst_errors("preset=two_point_exercise&integrators=rk4&duration=0.5")["rk4"] == Approx(3.879e-3).epsilon(1e-3));
    CHECK(worst_errors("preset=two_point_exercise&integrators=explicit_euler&dt=0.125&duration=0.5")["explicit_euler"] ==
          Approx(0.3125).epsilon(1e-3));
}

TEST_CASE("accuracy K12: with a damper on the two springs, each kinematic variant against semi-implicit Euler and velocity Verlet") {
    std::map<std::string, double> e = worst_errors(
        "scenario=two_spring&b=0.5&integrators=semi_implicit_euler,kinematic,kinematic_avg,velocity_verlet&dt=0.01");
    CHECK(e["kinematic"] == Approx(1.16e-2).epsilon(5e-3));
    CHECK(e["kinematic_avg"] == Approx(1.06e-2).epsilon(5e-3));
    CHECK(e["velocity_verlet"] == Approx(1.16e-3).epsilon(5e-3));
    // To the digits the report prints: kinematic 2.49× and 10.1×, kinematic_avg 2.74× and 9.1×.
    CHECK(std::round(100.0 * e["semi_implicit_euler"] / e["kinematic"]) / 100.0 == 2.49);
    CHECK(std::round(10.0 * e["kinematic"] / e["velocity_verlet"]) / 10.0 == 10.1);
    CHECK(std::round(100.0 * e["semi_implicit_euler"] / e["kinematic_avg"]) / 100.0 == 2.74);
    CHECK(std::round(10.0 * e["kinematic_avg"] / e["velocity_verlet"]) / 10.0 == 9.1);
}
