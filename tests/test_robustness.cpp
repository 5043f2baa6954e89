// Robustness at the edges of the allowed input: every valid config, however extreme, gives
// finite numbers and valid JSON, and every step does bounded work.
#include "config.hpp"
#include "integrators.hpp"
#include "json.hpp"
#include "rows.hpp"
#include "scenarios.hpp"
#include "simulation.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

using namespace stepwise;
using testing_helpers::Json;
using testing_helpers::parse_json;

namespace {

std::string every_integrator() {
    std::string ids;
    for (const IntegratorInfo& info : integrators()) ids += (ids.empty() ? "" : ",") + std::string(info.id);
    return ids;
}

std::string number(double x) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}

// The extreme values a parameter allows: its bounds (the smallest allowed value above an
// exclusive bound), and for a range across 0 the bounds of both signs.
std::vector<double> extremes(const ParamSpec& p) {
    const double low = p.min_exclusive ? (p.min == 0.0 ? 1e-300 : std::nextafter(p.min, p.max)) : p.min;
    return {low, p.max};
}

std::string value_text(const ParamSpec& p, double x) {
    return p.dims == 1 ? number(x) : number(x) + "," + number(-x);
}

// What `stepwise run QUERY --steps N --format json` prints, made the same way.
std::string run_json(const Config& c, long long steps) {
    Simulation sim(c);
    std::string out;
    append_json_head(out, sim, steps);
    bool first = true;
    append_json_rows(out, sim, first);
    for (long long k = 0; k < steps; ++k) {
        sim.step();
        append_json_rows(out, sim, first);
    }
    append_json_tail(out, sim);
    return out;
}

// The hostile set: for every scenario, each parameter at each extreme alone, then all at their
// maxima and all at their minima, at the largest dt; and the audit's own cases.
std::vector<std::string> hostile_queries() {
    std::vector<std::string> out = {
        "scenario=projectile&m=0.000001&drag=100&v0=100,100&dt=10",
        "scenario=spring&rest=1&x0=2,0&k=1000000&b=0&m=0.000001",
        "scenario=spring&rest=1&x0=2,0&k=1000000&b=0&m=0.000001&dt=10",
        "scenario=spring&k=1000000&m=0.000001&dt=10",
        "scenario=spring_pair&m1=0.000001&m2=0.000001&k=1000000&dt=10",
        "scenario=orbit&x0=0.000001,0&dt=0.01",
    };
    for (size_t s = 0; s < scenarios().size(); ++s) {
        const ScenarioInfo& sc = scenarios()[s];
        const std::string head = std::string("scenario=") + sc.id + "&dt=10";
        std::string all_max = head, all_min = head;
        for (const ParamSpec& p : sc.params) {
            const std::vector<double> ends = extremes(p);
            for (double x : ends) out.push_back(head + "&" + p.key + "=" + value_text(p, x));
            all_min += std::string("&") + p.key + "=" + value_text(p, ends[0]);
            all_max += std::string("&") + p.key + "=" + value_text(p, ends[1]);
        }
        out.push_back(all_min);
        out.push_back(all_max);
    }
    return out;
}

void check_finite_everywhere(const Simulation& sim) {
    for (int l = 0; l < sim.lanes(); ++l) {
        INFO(sim.info(l).id);
        CHECK(std::isfinite(sim.energy(l)));
        CHECK(std::isfinite(sim.dissipated(l)));
        CHECK(std::isfinite(sim.angular_momentum(l)));
        for (int b = 0; b < sim.bodies(); ++b) {
            CHECK(std::isfinite(sim.lane(l).x[b].x));
            CHECK(std::isfinite(sim.lane(l).v[b].y));
            if (sim.error_known()) CHECK(std::isfinite(sim.error(l, b)));
        }
        if (sim.error_known()) CHECK(std::isfinite(sim.energy_drift(l)));
    }
    CHECK(std::isfinite(sim.reference_energy()));
}

}  // namespace

TEST_CASE("every preset's and every hostile config's JSON is strict JSON with finite numbers") {
    std::vector<std::string> queries = hostile_queries();
    for (const PresetInfo& p : presets()) queries.push_back(std::string("preset=") + p.id);
    int parsed = 0;
    for (const std::string& q : queries) {
        const ParseResult r = parse_config(q + "&integrators=" + every_integrator());
        if (!r.ok()) continue;  // a range the table does not allow: refused with a message elsewhere
        ++parsed;
        INFO(q);
        Config c = r.config;
        const std::string text = run_json(c, 5);
        // The strict reader rejects NaN, Infinity and anything else that is not JSON.
        const std::optional<Json> doc = parse_json(text);
        REQUIRE(doc);
        CHECK((*doc)["rows"].items.size() > 0);
        Simulation sim(c);
        sim.advance(5);
        check_finite_everywhere(sim);
    }
    CHECK(parsed > 100);
}

TEST_CASE("a stiff rk45 lane does bounded work per step and stops with its reason") {
    // k = 1e6, m = 1e-6: omega = 1e6 rad/s, so dt = 10 is 1e7 radians per step; rk45 would need
    // some 1e7 substeps a step (the audit measured 222 s for 5 steps). Each step now stops at
    // rk45_max_substeps: the lane stops at its last good state with the reason, the others go on.
    const ParseResult r = parse_config("scenario=spring&rest=1&x0=2,0&k=1000000&b=0&m=0.000001&dt=10&duration=100"
                                       "&integrators=rk45,semi_implicit_euler");
    REQUIRE(r.ok());
    Simulation sim(r.config);
    sim.advance(5);
    REQUIRE(sim.lanes() == 2);
    CHECK(sim.stop_reason(0) == StopReason::substep_limit);
    CHECK(sim.diverged_at(0) == 10.0);
    CHECK(std::string(stop_reason_name(sim.stop_reason(0))) == "substep_limit");
    // The work it spent: at most the limit's substeps (6 evaluations each, plus the first slope).
    CHECK(sim.lane(0).force_evaluations <= 6LL * rk45_max_substeps + 1);
    CHECK(sim.lane(0).force_evaluations > 6LL * rk45_max_substeps - 6);
    // Its state is where it started (its last good state), finite.
    CHECK(sim.lane(0).x[0].x == 2.0);
    CHECK(sim.lane(0).v[0].x == 0.0);
    // The reference (rk45 at rtol 1e-12: a rest-length spring has no closed form) stops too;
    // errors are then unknown rather than measured against a stale state.
    CHECK(sim.reference_kind() == ReferenceKind::rk45);
    CHECK(sim.reference_stopped());
    CHECK(sim.reference_stop_reason() == StopReason::substep_limit);
    CHECK_FALSE(sim.error_known());
    std::string csv;
    append_csv_rows(csv, sim);
    // t,integrator,body,x,y,vx,vy,energy,error: the error field is empty.
    CHECK(csv.substr(csv.size() - 2) == ",\n");
    std::string tail;
    append_json_tail(tail, sim);
    CHECK(tail.find("\"reference_stopped\": \"substep_limit\"") != std::string::npos);
    CHECK(tail.find("\"energy_drift\": null") != std::string::npos);
}

TEST_CASE("rk45 gives up rather than accept a step that misses its tolerance") {
    // A body dropped from rest straight onto a central mass without a collision radius worth the
    // name: near the centre the substep shrinks without end. The step stops the lane (collision
    // when it got inside the radius, else substep_limit), never with a non-finite state.
    const ParseResult r = parse_config("scenario=orbit&x0=0.000001,0&v0=0,0&dt=0.01&integrators=rk45,explicit_euler");
    REQUIRE(r.ok());
    Simulation sim(r.config);
    sim.advance(100);
    for (int l = 0; l < sim.lanes(); ++l) {
        INFO(sim.info(l).id);
        CHECK(sim.diverged(l));
        CHECK(std::isfinite(sim.lane(l).x[0].x));
    }
}

TEST_CASE("dissipated energy keeps the lane's accuracy: rk45 to its tolerance, fixed steps to fourth order") {
    // Quadratic drag on a projectile: no closed form, so the balance E + dissipated = E0 is the check.
    auto balance = [](const char* id, double dt) {
        const ParseResult r = parse_config(std::string("preset=projectile_drag&duration=2&dt=") + number(dt) +
                                           "&integrators=" + id);
        REQUIRE(r.ok());
        Simulation sim(r.config);
        const double e0 = sim.energy(0);
        sim.advance(static_cast<long long>(std::llround(2.0 / dt)));
        REQUIRE_FALSE(sim.diverged(0));
        return std::fabs(sim.energy(0) + sim.dissipated(0) - e0) / std::fabs(e0);
    };
    // rk45 at its default rtol 1e-9: the trapezoid sum left 1.8e-3 of the energy here.
    CHECK(balance("rk45", 0.01) < 1e-7);
    // rk4: its own energy error and the quadrature's are both fourth order: halving dt divides
    // the imbalance by about 16 (a trapezoid sum would give 4).
    const double coarse = balance("rk4", 0.02), fine = balance("rk4", 0.01);
    INFO("rk4 imbalance " << coarse << " then " << fine);
    CHECK(coarse / fine == Approx(16.0).epsilon(0.2));
}
