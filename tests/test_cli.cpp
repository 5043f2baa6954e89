// The CLI, run as a built binary: run, list and check as specified.
#include "config.hpp"
#include "helpers.hpp"
#include "integrators.hpp"
#include "json.hpp"
#include "simulation.hpp"
#include "trace.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

using namespace stepwise;
using testing_helpers::Json;
using testing_helpers::parse_json;

namespace {

struct Result {
    int status;
    std::string out;
};

// Runs the CLI with the given arguments (each single-quoted for the shell); stderr to /dev/null
// unless asked for.
Result cli(const std::vector<std::string>& args, bool merge_stderr = false) {
    std::string cmd = STEPWISE_BIN;
    for (const std::string& a : args) {
        std::string quoted = "'";
        for (char c : a) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
        cmd += " " + quoted + "'";
    }
    cmd += merge_stderr ? " 2>&1" : " 2>/dev/null";
    Result r{0, ""};
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int status = pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

std::vector<std::string> lines(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    std::string f;
    std::istringstream in(line);
    while (std::getline(in, f, ',')) out.push_back(f);
    if (!line.empty() && line.back() == ',') out.push_back("");
    return out;
}

// Every number anywhere in the document is finite.
bool all_finite(const Json& j) {
    if (j.kind == Json::Kind::number) return std::isfinite(j.number);
    for (const Json& item : j.items)
        if (!all_finite(item)) return false;
    for (const auto& [key, value] : j.members)
        if (!all_finite(value)) return false;
    return true;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("cli run: CSV columns, one row per integrator and body every K steps, t = 0 included") {
    const Result r = cli({"run", "preset=two_point_exercise&integrators=explicit_euler,rk4", "--steps", "6", "--every", "3"});
    REQUIRE(r.status == 0);
    const auto ls = lines(r.out);
    REQUIRE(ls.size() == 1 + 3 * 2 * 2);  // header + steps {0, 3, 6} x 2 integrators x 2 bodies
    CHECK(ls[0] == "t,integrator,body,x,y,vx,vy,energy,error");
    CHECK(ls[1].rfind("0,explicit_euler,0,-2,2,-1,-1.5,", 0) == 0);
    CHECK(ls[2].rfind("0,explicit_euler,1,3,2,1,-1.5,", 0) == 0);
    const auto last = fields(ls.back());
    REQUIRE(last.size() == 9);
    CHECK(last[0] == "3");
    CHECK(last[1] == "rk4");
    CHECK(last[2] == "1");
}

TEST_CASE("cli run: numbers are printed to full precision and match the core") {
    const std::string q = "preset=damped_spring";
    const Result r = cli({"run", q, "--steps", "250", "--every", "250"});
    REQUIRE(r.status == 0);
    Simulation sim(parse_config(q).config);
    sim.advance(250);
    const auto ls = lines(r.out);
    REQUIRE(ls.size() == 1 + 2 * 4);
    for (int l = 0; l < sim.lanes(); ++l) {
        const auto f = fields(ls[1 + 4 + l]);
        CHECK(f[1] == sim.info(l).id);
        CHECK(std::stod(f[3]) == sim.lane(l).x[0].x);  // exact: %.17g round-trips
        CHECK(std::stod(f[5]) == sim.lane(l).v[0].x);
        CHECK(std::stod(f[7]) == sim.energy(l));
        CHECK(std::stod(f[8]) == sim.error(l, 0));
    }
}

TEST_CASE("cli run: the constant-force table") {
    const Result r = cli({"run", "preset=constant_force", "--until", "10", "--every", "10"});
    REQUIRE(r.status == 0);
    const auto ls = lines(r.out);
    REQUIRE(ls.size() == 1 + 2 * 5);
    CHECK(ls[6] == "10,explicit_euler,0,0,-450,0,-100,500,50");
    CHECK(ls[7] == "10,semi_implicit_euler,0,0,-550,0,-100,-500,50");
    CHECK(ls[8] == "10,newton,0,0,-500,0,-100,0,0");
}

TEST_CASE("cli run --format json: diverged flags and the reference kind, never NaN") {
    const Result r = cli({"run", "preset=stiff_spring", "--format", "json", "--every", "50"});
    REQUIRE(r.status == 0);
    CHECK(r.out.find("\"reference\": \"exact\"") != std::string::npos);
    CHECK(r.out.find("\"id\": \"explicit_euler\", \"name\": \"Explicit Euler\", \"order\": 1, \"symplectic\": false, "
                     "\"diverged\": true, \"diverged_at\": 1.25") != std::string::npos);
    CHECK(r.out.find("\"id\": \"semi_implicit_euler\", \"name\": \"Semi-implicit Euler\", \"order\": 1, "
                     "\"symplectic\": true, \"diverged\": false, \"diverged_at\": null") != std::string::npos);
    for (const char* bad : {"nan", "NaN", "inf", "Inf"}) CHECK(r.out.find(bad) == std::string::npos);
    const Result drag = cli({"run", "preset=projectile_drag", "--format", "json", "--steps", "2"});
    CHECK(drag.out.find("\"reference\": \"rk45\"") != std::string::npos);
    const Result csv = cli({"run", "preset=stiff_spring"}, true);
    CHECK(csv.out.find("explicit_euler diverged at t = 1.25 s") != std::string::npos);
    for (const char* bad : {"nan", "inf"}) CHECK(csv.out.find(bad) == std::string::npos);
}

TEST_CASE("cli list prints every integrator, scenario and preset with metadata") {
    const Result r = cli({"list"});
    REQUIRE(r.status == 0);
    for (const IntegratorInfo& i : integrators()) CHECK(r.out.find(std::string(i.id) + " ") != std::string::npos);
    for (const ScenarioInfo& s : scenarios()) CHECK(r.out.find(s.id) != std::string::npos);
    for (const PresetInfo& p : presets()) CHECK(r.out.find(p.id) != std::string::npos);
    CHECK(r.out.find("Störmer–Verlet") != std::string::npos);
    // Each integrator's orders in words under its row, and its note where it has one.
    for (const IntegratorInfo& i : integrators()) {
        INFO(i.id);
        const size_t row = r.out.find("\n" + std::string(i.id) + " ");
        REQUIRE(row != std::string::npos);
        const std::string orders = "\n    " + orders_summary(i.orders) + "\n";
        CHECK(r.out.substr(r.out.find('\n', row + 1), orders.size()) == orders);
        if (*i.order_note) CHECK(contains(r.out, std::string("\n    ") + i.order_note + "\n"));
    }
    CHECK(contains(r.out, "\nkinematic_avg "));
    CHECK(contains(r.out, "\n    exact with uniform gravity alone; order 2 with one force with a closed form on each body or "
                          "several undamped forces with closed forms on a body; order 1 with several forces on a body "
                          "including damping or a force without a closed form (a spring with a rest length, a link, "
                          "quadratic drag, a force you write)\n"));
    CHECK(contains(r.out, "\n  dissipative          several forces on a body including damping\n"));
}

TEST_CASE("cli list --format json: every table in strict JSON, each integrator's orders by kind of system") {
    const Result r = cli({"list", "--format", "json"});
    REQUIRE(r.status == 0);
    const auto doc = parse_json(r.out);
    REQUIRE(doc);
    CHECK(doc->keys() == std::vector<std::string>{"integrators", "reference_id", "order_regimes", "limits", "shared_keys",
                                                  "families", "scenarios", "scene", "presets", "loop", "views", "languages",
                                                  "messages", "allowed_forms"});
    // The scene grammar's kinds, as core/scene_spec.hpp lists them.
    CHECK((*doc)["scene"]["kinds"].items.size() == scene_kinds().size());
    CHECK((*doc)["messages"].items.size() == message_table().size());
    CHECK((*doc)["allowed_forms"].items.size() == allowed_forms().size());
    const auto& ints = (*doc)["integrators"].items;
    REQUIRE(ints.size() == integrators().size());
    for (size_t k = 0; k < ints.size(); ++k) {
        const IntegratorInfo& i = integrators()[k];
        const Json& row = ints[k];
        INFO(i.id);
        CHECK(row.keys() == std::vector<std::string>{"id", "name", "family", "orders", "orders_text", "order_note",
                                                     "force_evaluations", "evaluations_note", "symplectic", "implicit",
                                                     "stateful", "adaptive", "default_iterations", "solves_constraints",
                                                     "description", "stability_note", "update"});
        CHECK(row["id"].string == i.id);
        CHECK(row["stability_note"].string == i.stability_note);
        CHECK(row["update"].string == i.update);
        CHECK(row["name"].string == i.name);
        CHECK(row["order_note"].string == i.order_note);
        CHECK(row["orders_text"].string == orders_summary(i.orders));
        CHECK(row["force_evaluations"].number == i.force_evaluations);
        CHECK(row["adaptive"].boolean == i.adaptive);
        CHECK(row["orders"].keys() == std::vector<std::string>{"constant_force", "single_forces", "conservative",
                                                               "dissipative", "without_closed_form"});
        for (OrderRegime kind : table_regimes) {
            const Json& claim = row["orders"][regime_id(kind)];
            const Order o = i.orders.in(kind);
            if (o.kind == Order::power) CHECK(claim.number == o.p);
            if (o.kind == Order::exact) CHECK(claim.string == "exact");
            if (o.kind == Order::none) CHECK(claim.kind == Json::Kind::null);
        }
    }
    const Json& kinematic_avg = ints[static_cast<size_t>(find_integrator("kinematic_avg"))]["orders"];
    CHECK(kinematic_avg["constant_force"].string == "exact");
    CHECK(kinematic_avg["single_forces"].number == 2);
    CHECK(kinematic_avg["conservative"].number == 2);
    CHECK(kinematic_avg["dissipative"].number == 1);
    CHECK(kinematic_avg["without_closed_form"].number == 1);
    CHECK((*doc)["order_regimes"].items.size() == static_cast<size_t>(order_regimes));
    CHECK((*doc)["order_regimes"].items[4]["id"].string == "dissipative");
    CHECK((*doc)["limits"]["dt_max"].number == dt_max);
    CHECK((*doc)["limits"]["dt_min"].number == 1e-9);
    CHECK((*doc)["limits"]["duration_min"].number == 1e-9);
    CHECK((*doc)["scenarios"].items.size() == scenarios().size());
    const Json& spring = (*doc)["scenarios"].items[static_cast<size_t>(find_scenario("spring"))];
    CHECK(spring["params"].items[1]["key"].string == "k");
    CHECK(spring["params"].items[1]["default"].items[0].number == 15);
    CHECK(spring["presets"].items[0].string == "damped_spring");
    // Rules across keys in words where a scenario has them; the cloud keys' ranges in the limits.
    CHECK(spring["rules"].string.empty());
    CHECK((*doc)["scenarios"].items[static_cast<size_t>(find_scenario("orbit"))]["rules"].string ==
          "x0 at least 1e-06 m from the central mass at (0,0)");
    CHECK((*doc)["limits"]["max_cloud_points"].number == 1000000);
    CHECK((*doc)["limits"]["min_cloud_radius"].number == 1e-6);
    CHECK((*doc)["limits"]["max_cloud_radius"].number == 1e6);
    const std::string text = cli({"list"}).out;
    // The shared keys from their table, each with what its error says it allows (pbd_stiffness
    // was left out when the line was written by hand).
    CHECK(contains(text, "\n  dt             run     a number from 1e-09 to 10 — the step (s)\n"));
    CHECK(contains(text, "\n  duration       run     a number from 1e-09 to 100000 — the run's length (s)\n"));
    CHECK(contains(text, "\n  cloud          study   a whole number from 0 (off) to 1000000 — "));
    CHECK(contains(text, "\n  cloud_radius   study   a number from 1e-06 to 1000000 (metres along x, m/s along vx) — "));
    CHECK(contains(text, "\n  pbd_stiffness  run     a number from 0 to 1 — PBD's stiffness factor s per step (1: rigid)\n"));
    CHECK(contains(text, "\n  equal_cost     study   0 (off) or 1 (on) — "));
    CHECK(contains(text, "\n  view           study   one of motion, convergence, stability, cloud — what the page shows\n"));
    CHECK(contains(text, "\n  lang           page    one of en, de — the page's language; the numbers ignore it\n"));
    // (as many lanes as the core has methods)
    CHECK(max_lanes() == static_cast<int>(integrators().size()));
    CHECK(contains(text, "\n  integrators    run     at most " + std::to_string(max_lanes()) +
                             " lanes, substeps 1 .. 1000, a solver's iterations 1 .. 1000, at most 10000 passes a step — "));
    // The JSON says the same, from the same table; the error a wrong value gets too.
    const Json& dt_key = (*doc)["shared_keys"].items[4];
    CHECK(dt_key["key"].string == "dt");
    CHECK(dt_key["allowed"].string == "a number from 1e-09 to 10");
    CHECK(dt_key["meaning"].string == "the step (s)");
    CHECK((*doc)["shared_keys"].items[1]["allowed"].kind == Json::Kind::null);  // scenario: its ids, below
    CHECK(contains(cli({"check", "scenario=spring&pbd_stiffness=2"}, true).out, "pbd_stiffness must be a number from 0 to 1; got '2'"));
    CHECK(contains(text, "  rules:      x0 at least 1e-06 m from the central mass at (0,0)\n"));
    CHECK((*doc)["presets"].items.size() == presets().size());
    CHECK((*doc)["presets"].items[0]["query"].string == presets()[0].query);
    CHECK((*doc)["views"].items.size() == views().size());
    CHECK(all_finite(*doc));
    // list takes --format text|json and nothing else.
    CHECK(cli({"list", "--format", "text"}).out == cli({"list"}).out);
    const Result bad = cli({"list", "--format", "csv"}, true);
    CHECK(bad.status == 64);
    CHECK(contains(bad.out, "list's --format must be text or json; got 'csv'"));
    CHECK(cli({"list", "extra"}).status == 64);
}

TEST_CASE("cli check: normalised query and exit 0, or every error and exit 2") {
    const Result ok = cli({"check", "k=15&scenario=spring&dt=0.010"});
    CHECK(ok.status == 0);
    CHECK(ok.out == normalise(parse_config("scenario=spring&k=15&dt=0.01").config) + "\n");
    const Result bad = cli({"check", "dt=0&integrators=rk5&m=-1"}, true);
    CHECK(bad.status == 2);
    CHECK(bad.out.find("dt must be a number from 1e-09 to 10; got '0'") != std::string::npos);
    CHECK(bad.out.find("unknown integrator 'rk5'; known: ") != std::string::npos);
    CHECK(bad.out.find("m must be a number from 1e-06 to 1000000") != std::string::npos);
    CHECK(cli({"run", "dt=0"}).status == 2);
}

TEST_CASE("cli: lang is accepted and kept by check, ignored by run's numbers, and a bad one exits 2") {
    const Result de = cli({"check", "preset=damped_spring&lang=de"});
    CHECK(de.status == 0);
    CHECK(contains(de.out, "&lang=de\n"));
    const Result plain = cli({"run", "preset=damped_spring", "--steps", "5", "--format", "csv"});
    const Result german = cli({"run", "preset=damped_spring&lang=de", "--steps", "5", "--format", "csv"});
    REQUIRE(plain.status == 0);
    CHECK(german.status == 0);
    CHECK(german.out == plain.out);  // same rows, decimal points: the CLI is English
    const Result bad = cli({"check", "lang=fr"}, true);
    CHECK(bad.status == 2);
    CHECK(contains(bad.out, "unknown lang 'fr'; known: en, de"));
}

TEST_CASE("cli rejects bad usage with a message") {
    CHECK(cli({}).status == 64);
    CHECK(cli({"fly"}).status == 64);
    CHECK(cli({"run", "preset=damped_spring", "--steps", "-3"}).status == 64);
    CHECK(cli({"run", "preset=damped_spring", "--every", "0"}).status == 64);
    CHECK(cli({"run", "preset=damped_spring", "--format", "xml"}).status == 64);
    CHECK(cli({"run", "preset=damped_spring", "--steps", "3", "--until", "1"}).status == 64);
    const Result r = cli({"run", "preset=damped_spring", "--until", "nan"}, true);
    CHECK(r.status == 64);
    CHECK(r.out.find("--until must be a time in seconds >= 0") != std::string::npos);
}

TEST_CASE("cli run --format json is valid JSON with the documented structure") {
    const std::string q = "preset=two_point_exercise&integrators=explicit_euler,rk4";
    const Result r = cli({"run", q, "--format", "json", "--steps", "6", "--every", "3"});
    REQUIRE(r.status == 0);
    const auto doc = parse_json(r.out);
    REQUIRE(doc);
    CHECK(doc->keys() == std::vector<std::string>{"config", "reference", "order_regime", "dt", "steps", "rows",
                                                  "reference_stopped", "reference_stopped_at", "integrators"});
    CHECK((*doc)["config"].string == normalise(parse_config(q).config));
    CHECK((*doc)["reference"].string == "rk45");
    CHECK((*doc)["dt"].number == 0.5);
    CHECK((*doc)["steps"].number == 6);
    CHECK((*doc)["reference_stopped_at"].kind == Json::Kind::null);
    const auto& rows = (*doc)["rows"].items;
    REQUIRE(rows.size() == 3 * 2 * 2);  // steps {0, 3, 6} x 2 integrators x 2 bodies
    for (const Json& row : rows)
        CHECK(row.keys() == std::vector<std::string>{"t", "integrator", "body", "x", "y", "vx", "vy", "energy", "error"});
    CHECK(rows[0]["integrator"].string == "explicit_euler");
    CHECK(rows[0]["x"].number == -2.0);  // P1 starts at (-2, 2)
    CHECK(rows[11]["t"].number == 3.0);
    CHECK(rows[11]["integrator"].string == "rk4");
    CHECK(rows[11]["body"].number == 1);
    const auto& lanes = (*doc)["integrators"].items;
    REQUIRE(lanes.size() == 2);
    CHECK(lanes[1]["id"].string == "rk4");
    CHECK(lanes[1]["order"].number == 4);
    CHECK((*doc)["order_regime"].string == "without_closed_form");  // the exercise's spring has a rest length
    CHECK(lanes[1]["stopped"].kind == Json::Kind::null);
    CHECK(lanes[1].keys() == std::vector<std::string>{"id", "name", "order", "symplectic", "diverged", "diverged_at",
                                                      "stopped", "energy", "energy_drift", "dissipated",
                                                      "angular_momentum", "force_evaluations"});
    CHECK(all_finite(*doc));
    // The diverging preset too: still valid, with its stop reason.
    const auto stiff = parse_json(cli({"run", "preset=stiff_spring", "--format", "json", "--every", "50"}).out);
    REQUIRE(stiff);
    CHECK((*stiff)["integrators"].items[0]["stopped"].string == "diverged");
    CHECK((*stiff)["integrators"].items[0]["diverged_at"].number == 1.25);
}

TEST_CASE("cli run: falling straight in stops every integrator with a collision, and nothing is NaN or Inf") {
    // t_ff = pi / (2 sqrt 2) for r = 1, gm = 1.
    const double t_ff = testing_helpers::pi / (2.0 * std::sqrt(2.0)), dt = 0.01;
    const std::string q = "scenario=orbit&x0=1,0&v0=0,0&integrators=" + testing_helpers::all_integrators();
    const Result r = cli({"run", q, "--format", "json", "--every", "10"});
    REQUIRE(r.status == 0);
    for (const char* bad : {"nan", "NaN", "inf", "Inf"}) CHECK_FALSE(contains(r.out, bad));
    const auto doc = parse_json(r.out);
    REQUIRE(doc);  // NaN or Infinity would not even parse
    CHECK(all_finite(*doc));
    CHECK((*doc)["reference"].string == "rk45");
    CHECK((*doc)["reference_stopped"].string == "collision");
    CHECK((*doc)["reference_stopped_at"].number >= t_ff);
    CHECK((*doc)["reference_stopped_at"].number < t_ff + dt);
    const auto& lanes = (*doc)["integrators"].items;
    REQUIRE(lanes.size() == integrators().size());
    for (const Json& lane : lanes) {
        INFO(lane["id"].string);
        // Implicit Euler's step equation has no root just before the centre (test_simulation).
        CHECK(lane["stopped"].string == (lane["id"].string == "implicit_euler" ? "newton_failed" : "collision"));
        CHECK(lane["diverged"].boolean);
        CHECK(std::fabs(lane["diverged_at"].number - t_ff) < 3.5 * dt);
    }
    CHECK((*doc)["rows"].items.size() == 101 * integrators().size());
    const Result csv = cli({"run", q, "--every", "100"}, true);
    CHECK(contains(csv.out, "the reference fell into the central mass at t = 1.1200000000000001 s and stopped: the error column is empty"));
    CHECK(contains(csv.out, "kinematic fell into the central mass at t = 1.1200000000000001 s and stopped advancing"));
    for (const char* bad : {"nan", "inf"}) CHECK_FALSE(contains(csv.out, bad));
}

TEST_CASE("cli list shows the orbit and elastic pendulum rows with reference, phase plot, keys and presets") {
    const Result r = cli({"list"});
    REQUIRE(r.status == 0);
    for (const char* id : {"orbit", "elastic_pendulum"}) {
        DYNAMIC_SECTION(id) {
            const ScenarioInfo& row = scenarios()[find_scenario(id)];
            const size_t at = r.out.find(std::string("\n") + row.id + ": " + row.name + "\n");
            REQUIRE(at != std::string::npos);
            // The row's block runs to the next blank line.
            const std::string block = r.out.substr(at + 1, r.out.find("\n\n", at + 1) - at - 1);
            INFO(block);
            CHECK(contains(block, std::string("  reference:  ") + row.reference + "\n"));
            CHECK(contains(block, std::string("  phase plot: ") + row.phase_plot + "\n"));
            for (const ParamSpec& p : row.params) {
                const auto line = block.find(std::string("\n    ") + p.key + " ");
                REQUIRE(line != std::string::npos);
                CHECK(block.substr(line, block.find('\n', line + 1) - line).find(p.meaning) != std::string::npos);
            }
            for (const PresetInfo& p : row.presets) {
                const auto line = block.find(std::string("\n    ") + p.id + " ");
                REQUIRE(line != std::string::npos);
                CHECK(block.substr(line, block.find('\n', line + 1) - line).find(p.description) != std::string::npos);
            }
        }
    }
    CHECK(contains(r.out, "    gm       number default 1 "));
    CHECK(contains(r.out, "  reference:  rk45 (no closed form)\n"));
}

TEST_CASE("cli run 'preset=eccentric_orbit' prints finite rows against the exact reference") {
    // stderr apart: unbuffered, it could land inside a row of the piped stdout.
    const Result notes = cli({"run", "preset=eccentric_orbit", "--every", "2400"}, true);
    CHECK(contains(notes.out, "reference: exact"));
    CHECK_FALSE(contains(notes.out, "stopped advancing"));
    const Result r = cli({"run", "preset=eccentric_orbit", "--every", "100"});
    REQUIRE(r.status == 0);
    int rows = 0;
    double last_t = -1.0;
    for (const std::string& line : lines(r.out)) {
        const auto f = fields(line);
        if (f.size() != 9 || f[0] == "t") continue;
        ++rows;
        for (int k : {0, 3, 4, 5, 6, 7, 8}) {
            char* end = nullptr;
            const double x = std::strtod(f[k].c_str(), &end);
            INFO(line);
            CHECK(*end == '\0');
            CHECK(std::isfinite(x));
        }
        last_t = std::stod(f[0]);
    }
    CHECK(rows == 25 * 4);  // 2400 steps of 0.005 every 100: t = 0, 0.5, ..., 12; four integrators
    CHECK(last_t == 12.0);
}

TEST_CASE("cli cloud: CSV columns, t = 0 included, the exact flow's row, closed-form ratios") {
    // Explicit Euler on k = 15 at dt = 0.01 stretches the area by 1 + 15 h^2 every step.
    const Result r = cli({"cloud", "scenario=spring&b=0&cloud=500&integrators=explicit_euler,semi_implicit_euler",
                          "--steps", "100", "--every", "50"});
    REQUIRE(r.status == 0);
    std::istringstream lines(r.out);
    std::string line;
    std::getline(lines, line);
    CHECK(line == "t,integrator,area_ratio,points_finite");
    std::vector<std::vector<std::string>> rows;
    while (std::getline(lines, line)) {
        std::vector<std::string> cells;
        std::stringstream cell(line);
        std::string c;
        while (std::getline(cell, c, ',')) cells.push_back(c);
        REQUIRE(cells.size() == 4);
        rows.push_back(cells);
    }
    REQUIRE(rows.size() == 3 * 3);  // t = 0, 0.5, 1 x (two integrators + exact)
    CHECK(rows[0] == std::vector<std::string>{"0", "explicit_euler", "1", "500"});
    CHECK(rows[2][1] == "exact");
    CHECK(rows[6][0] == "1");
    CHECK(std::stod(rows[6][2]) == Approx(std::pow(1.0 + 15.0 * 1e-4, 100)).epsilon(1e-9));
    CHECK(std::fabs(std::stod(rows[7][2]) - 1.0) < 1e-12);  // semi-implicit Euler keeps the area
    CHECK(std::fabs(std::stod(rows[8][2]) - 1.0) < 1e-12);  // so does the exact flow
}

TEST_CASE("cli cloud --format json: per integrator, and an empty ratio once the rim has diverged") {
    const Result r = cli({"cloud", "preset=stiff_spring&cloud=100&integrators=explicit_euler,rk4", "--format", "json",
                          "--steps", "800", "--every", "400"});
    REQUIRE(r.status == 0);
    const auto doc = parse_json(r.out);
    REQUIRE(doc);
    CHECK(doc->keys() == std::vector<std::string>{"config", "points", "radius", "integrators"});
    CHECK((*doc)["points"].number == 100);
    const auto& lanes = (*doc)["integrators"].items;
    REQUIRE(lanes.size() == 3);  // explicit_euler, rk4, exact
    CHECK(lanes[2]["id"].string == "exact");
    for (const Json& lane : lanes) {
        CHECK(lane.keys() == std::vector<std::string>{"id", "rows"});
        REQUIRE(lane["rows"].items.size() == 3);  // t = 0, 20, 40 (800 steps of 0.05)
        for (const Json& row : lane["rows"].items)
            CHECK(row.keys() == std::vector<std::string>{"t", "area_ratio", "points_finite"});
    }
    CHECK(all_finite(*doc));
    // Explicit Euler at (w h)^2 = 2.5 grows the area 3.5-fold a step: its rim's coordinates pass 1e200
    // within 800 steps, their products overflow, and the ratio is no longer reported.
    CHECK(lanes[0]["rows"].items[2]["area_ratio"].kind == Json::Kind::null);
}

TEST_CASE("cli cloud: bad cloud keys are errors naming the key") {
    struct Case {
        const char* query;
        const char* key;
    };
    const Case cases[] = {{"cloud=-1", "cloud"},        {"cloud=1.5", "cloud"},         {"cloud=2000000", "cloud"},
                          {"cloud=abc", "cloud"},       {"cloud=10&cloud_radius=0", "cloud_radius"},
                          {"cloud=10&cloud_radius=nan", "cloud_radius"},
                          {"cloud=10&cloud_radius=-1", "cloud_radius"}, {"scenario=spring", "cloud"}};
    for (const Case& c : cases) {
        INFO(c.query);
        const Result r = cli({"cloud", c.query}, true);
        CHECK(r.status == 2);
        CHECK(r.out.find(std::string("error: ") + c.key) != std::string::npos);
    }
}

TEST_CASE("cli help names convergence and stability") {
    const Result r = cli({"--help"});
    CHECK(r.status == 0);
    CHECK(contains(r.out, "stepwise convergence 'QUERY' [--halvings N] [--in dt|iterations] [--format csv|json]"));
    CHECK(contains(r.out, "stepwise stability ['QUERY'] [--format csv|json]"));
}

TEST_CASE("cli convergence: CSV rows per integrator and level, in the query's order") {
    const std::string q = "scenario=spring&k=4&b=0&dt=0.02&duration=4&integrators=rk4,explicit_euler,kinematic";
    const Result r = cli({"convergence", q, "--halvings", "2"});
    REQUIRE(r.status == 0);
    const auto rows = lines(r.out);
    REQUIRE(rows.size() == 1 + 3 * 3);
    CHECK(rows[0] == "integrator,dt,evaluations,max_error,final_error");
    const char* order[] = {"rk4", "explicit_euler", "kinematic"};
    const double dts[] = {0.02, 0.01, 0.005};
    for (int i = 0; i < 3; ++i)
        for (int l = 0; l < 3; ++l) {
            const auto f = fields(rows[1 + 3 * i + l]);
            INFO(rows[1 + 3 * i + l]);
            REQUIRE(f.size() == 5);
            CHECK(f[0] == order[i]);
            CHECK(std::stod(f[1]) == dts[l]);
            CHECK(std::stoll(f[2]) == (i == 0 ? 4 : 1) * std::llround(4.0 / dts[l]));
            CHECK(std::isfinite(std::stod(f[3])));
            CHECK(std::stod(f[4]) <= std::stod(f[3]));
        }
    // The orders go to stderr with the reference and the floor.
    const Result both = cli({"convergence", q, "--halvings", "2"}, true);
    CHECK(contains(both.out, "reference: exact; noise floor "));
    CHECK(contains(both.out, "explicit_euler: order 1.0"));
    CHECK(contains(both.out, " levels (table: 1)\n"));
    CHECK(contains(both.out, "kinematic: no order (0 levels above the noise floor; table: exact)\n"));
    CHECK(contains(both.out, "; kind of system: single_forces (one force with a closed form on each body)\n"));
}

TEST_CASE("cli convergence --in iterations: rows by iterations, a verdict per lane, the methods without left out") {
    const std::string q = "scenario=spring&k=4&m=1&b=0&x0=1,0&dt=0.05&duration=3&integrators=rk4,xpbd@1x1";
    const Result r = cli({"convergence", q, "--in", "iterations", "--halvings", "2"}, true);
    REQUIRE(r.status == 0);
    CHECK(contains(r.out, "integrator,iterations,evaluations,max_error,final_error\nxpbd@1x1,1,120,"));
    CHECK(contains(r.out, "\nxpbd@1x1,2,180,"));
    CHECK(contains(r.out, "\nxpbd@1x1,4,300,"));
    CHECK(contains(r.out, "rk4: left out (its method has no iterations; --in dt studies it)"));
    CHECK(contains(r.out, "xpbd@1x1: max error 0.252 m at 1 iteration, 0.252 m at 4 iterations; the last doubling "
                          "changed it by "));
    CHECK(contains(r.out, "settled on the step's own error at dt = 0.05, not the exact motion (more substeps or a "
                          "smaller dt reduce it; more iterations do not)"));
    const Result json = cli({"convergence", q, "--in", "iterations", "--halvings", "1", "--format", "json"});
    REQUIRE(json.status == 0);
    const auto doc = parse_json(json.out);
    REQUIRE(doc);
    CHECK((*doc)["axis"].string == "iterations");
    CHECK((*doc)["doublings"].number == 1);
    const auto& row = (*doc)["integrators"].items.at(0);
    CHECK(row["id"].string == "xpbd@1x1");
    CHECK(contains(row["verdict"].string, "settled on the step's own error"));
    CHECK(row["rows"].items.at(1)["iterations"].number == 2);
}

TEST_CASE("cli convergence --format json: strict JSON, orders or null, stops named") {
    const Result r = cli({"convergence", "preset=stiff_spring&integrators=explicit_euler,rk4,kinematic", "--halvings", "3",
                          "--format", "json"});
    REQUIRE(r.status == 0);
    const auto doc = parse_json(r.out);
    REQUIRE(doc);
    CHECK(all_finite(*doc));
    CHECK(doc->keys() == std::vector<std::string>{"config", "reference", "order_regime", "halvings", "levels",
                                                  "noise_floor", "integrators"});
    CHECK((*doc)["order_regime"].string == "single_forces");
    CHECK((*doc)["config"].string == normalise(parse_config("preset=stiff_spring&integrators=explicit_euler,rk4,kinematic").config));
    CHECK((*doc)["reference"].string == "exact");
    CHECK((*doc)["halvings"].number == 3);
    CHECK((*doc)["levels"].number == 4);
    CHECK((*doc)["noise_floor"].number > 0.0);
    const auto& rows = (*doc)["integrators"].items;
    REQUIRE(rows.size() == 3);
    for (const Json& row : rows) {
        CHECK(row.keys() == std::vector<std::string>{"id", "name", "table_order", "order", "fitted_points", "rows"});
        REQUIRE(row["rows"].items.size() == 4);
        for (const Json& p : row["rows"].items)
            CHECK(p.keys() == std::vector<std::string>{"dt", "evaluations", "max_error", "final_error", "stopped", "stopped_at"});
    }
    // Explicit Euler runs away at every level: each stop is named, and there is no order to fit.
    CHECK(rows[0]["id"].string == "explicit_euler");
    CHECK(rows[0]["order"].kind == Json::Kind::null);
    CHECK(rows[0]["fitted_points"].number == 0);
    CHECK(rows[0]["rows"].items[0]["stopped"].string == "diverged");
    CHECK(rows[0]["rows"].items[0]["stopped_at"].number > 0.0);
    CHECK(rows[1]["id"].string == "rk4");
    CHECK(rows[1]["table_order"].number == 4);
    CHECK(rows[1]["order"].kind == Json::Kind::number);
    CHECK(rows[1]["rows"].items[3]["stopped"].kind == Json::Kind::null);
    CHECK(rows[1]["rows"].items[3]["stopped_at"].kind == Json::Kind::null);
    CHECK(rows[2]["order"].kind == Json::Kind::null);  // kinematic: exact on the spring, at the floor
    CHECK(rows[2]["table_order"].string == "exact");    // as the table says for one spring alone
}

TEST_CASE("cli convergence and stability reject bad arguments with the option, the value and what is allowed") {
    for (const char* bad : {"-1", "13", "1.5", "", "abc", " 3", "+3", "99999999999999999999", "1e1", "0x3"}) {
        INFO("--halvings '" << bad << "'");
        const Result r = cli({"convergence", "preset=damped_spring", "--halvings", bad}, true);
        CHECK(r.status == 64);
        CHECK(contains(r.out, std::string("--halvings must be a whole number from 0 to 12, digits only; got '") + bad + "'"));
    }
    CHECK(cli({"convergence", "preset=damped_spring", "--halvings", "0"}).status == 0);
    CHECK(cli({"convergence", "preset=damped_spring&duration=1", "--halvings", "12"}).status == 0);
    const Result format = cli({"convergence", "preset=damped_spring", "--format", "xml"}, true);
    CHECK(format.status == 64);
    CHECK(contains(format.out, "--format must be csv or json; got 'xml'"));
    CHECK(contains(cli({"convergence"}, true).out, "convergence needs a QUERY"));
    CHECK(contains(cli({"convergence", "preset=damped_spring", "--halvings"}, true).out,
                   "option --halvings needs a value: a whole number from 0 to 12, digits only"));
    CHECK(contains(cli({"convergence", "preset=damped_spring", "--steps", "3"}, true).out,
                   "unknown option '--steps' for convergence; its options: --halvings, --in, --format, --budget"));
    const Result axis = cli({"convergence", "preset=damped_spring", "--in", "substeps"}, true);
    CHECK(axis.status == 64);
    CHECK(contains(axis.out, "--in must be dt (halve dt at every level) or iterations (double a solver lane's "
                             "iterations at its dt); got 'substeps'"));
    const Result no_solver = cli({"convergence", "preset=damped_spring&integrators=rk4,leapfrog", "--in", "iterations"}, true);
    CHECK(no_solver.status == 2);
    CHECK(contains(no_solver.out, "error: stepwise convergence --in iterations needs a lane with iterations (a "
                                  "game-physics solver: pbd, xpbd, soft_step, sequential_impulses or vbd); the "
                                  "integrators given: rk4, leapfrog"));
    const Result query = cli({"convergence", "dt=0"}, true);
    CHECK(query.status == 2);
    CHECK(contains(query.out, "dt must be a number from 1e-09 to 10"));
    CHECK(cli({"stability", "--format", "yaml"}).status == 64);
    CHECK(contains(cli({"stability", "--every", "2"}, true).out, "unknown option '--every' for stability; its options: --format"));
    CHECK(cli({"stability", "k=-1"}).status == 2);
}

namespace {

// The usage error of a command line: exit 64 and the message on the first line.
std::string usage_error(const std::vector<std::string>& args) {
    const Result r = cli(args, true);
    CHECK(r.status == 64);
    return r.out.substr(0, r.out.find('\n'));
}

// `stepwise run` after step + 1 steps and the "result" stage of `stepwise trace --step step`, as
// "integrator,body,x,y,vx,vy" text per integrator and body, each in its command's order.
std::pair<std::vector<std::string>, std::vector<std::string>> run_and_traced_results(const std::string& q, int step) {
    const Result run = cli({"run", q, "--steps", std::to_string(step + 1), "--every", std::to_string(step + 1)});
    const Result trace = cli({"trace", q, "--step", std::to_string(step)});
    REQUIRE(run.status == 0);
    REQUIRE(trace.status == 0);
    std::vector<std::string> from_run, traced;
    for (const std::string& line : lines(run.out)) {
        const auto f = fields(line);
        if (f[0] == "t" || std::stod(f[0]) == 0.0) continue;
        from_run.push_back(f[1] + "," + f[2] + "," + f[3] + "," + f[4] + "," + f[5] + "," + f[6]);
    }
    for (const std::string& line : lines(trace.out)) {
        const auto f = fields(line);
        if (f[2] != "result") continue;
        traced.push_back(f[0] + "," + f[3] + "," + f[4] + "," + f[5] + "," + f[6] + "," + f[7]);
    }
    return {from_run, traced};
}
}  // namespace

TEST_CASE("cli run and cloud: every option value is checked with the config's number rules, before any arithmetic") {
    const std::string q = "preset=damped_spring";  // dt = 0.01
    for (const std::string command : {"run", "cloud"}) {
        INFO(command);
        // Counts: digits only, within the range.
        for (const char* bad : {"", " 7", "7 ", "+3", "-3", "1e3", "7.0", "0x10", "10000001", "99999999999999999999",
                                "\xEF\xBC\x97"}) {  // a fullwidth 7
            INFO("--steps '" << bad << "'");
            CHECK(usage_error({command, q, "--steps", bad}) ==
                  std::string("stepwise: --steps must be a whole number from 0 to 10000000 steps of dt, digits only; got '") +
                      bad + "'");
        }
        for (const char* bad : {"0", "", "+1", "1.0", "10000001"}) {
            INFO("--every '" << bad << "'");
            CHECK(usage_error({command, q, "--every", bad}) ==
                  std::string("stepwise: --every must be a whole number from 1 to 10000000, digits only; got '") + bad + "'");
        }
        // --until: the config format's decimals (no hex, spaces, inf or nan), >= 0 ...
        for (const char* bad : {"", " 7", "7 ", "0x1p3", "0x10", "inf", "nan", "-1", "-1e-9", "1,5", "1e", "1e400"}) {
            INFO("--until '" << bad << "'");
            CHECK(usage_error({command, q, "--until", bad}) ==
                  std::string("stepwise: --until must be a time in seconds >= 0 written as a plain decimal number (e.g. "
                              "2.5 or 1e3; no hex, inf or nan), at most 10000000 steps of dt; got '") +
                      bad + "'");
        }
        // ... and at most max_steps steps of dt: 1e17 (1e19 steps, beyond a long long) is refused
        // like 1e19 and 1e300, before the cast that used to be undefined.
        for (const char* far : {"1e17", "1e19", "1e300", "100000.001", "1.7976931348623157e308"}) {
            INFO("--until " << far);
            CHECK(usage_error({command, q, "--until", far}) ==
                  std::string("stepwise: --until must be at most 100000 s at dt = 0.01 (at most 10000000 steps per run); "
                              "got '") + far + "'");
        }
        CHECK(contains(usage_error({command, q + "&dt=10", "--until", "100000001"}), "at most 100000000 s at dt = 10 "));
        CHECK(usage_error({command, q, "--format", "CSV"}) == "stepwise: --format must be csv or json; got 'CSV'");
        // An unknown option is unknown wherever it stands, the last one included.
        const std::string unknown = "stepwise: unknown option '--bogus' for " + command +
                                    "; its options: --steps, --until, --every, --format, --budget";
        CHECK(usage_error({command, q, "--every", "2", "--bogus"}) == unknown);
        CHECK(usage_error({command, q, "--bogus"}) == unknown);
        CHECK(usage_error({command, q, "--bogus", "3"}) == unknown);
        CHECK(usage_error({command, q, "--steps", "3", "extra"}) ==
              "stepwise: unknown option 'extra' for " + command + "; its options: --steps, --until, --every, --format, --budget");
        CHECK(usage_error({command, q, "--steps"}) ==
              "stepwise: option --steps needs a value: a whole number from 0 to 10000000 steps of dt, digits only");
        CHECK(usage_error({command, q, "--every", "2", "--every", "3"}) ==
              "stepwise: option --every is given twice; give each option once");
        CHECK(usage_error({command, q, "--steps", "3", "--until", "1"}) == "stepwise: give --steps or --until, not both");
        // The bounds themselves are accepted: `cloud` then stops at its own check (the query has no
        // cloud), exit 2, so nothing runs 10^7 steps here.
        if (command == "cloud") {
            const std::vector<std::vector<std::string>> bounds = {
                {"--steps", "10000000"}, {"--until", "100000"}, {"--until", "+1e5"}, {"--every", "10000000"}, {"--steps", "0007"}};
            for (const std::vector<std::string>& at_bound : bounds) {
                std::vector<std::string> args = {"cloud", q};
                args.insert(args.end(), at_bound.begin(), at_bound.end());
                const Result r = cli(args, true);
                INFO(at_bound[0] << " " << at_bound[1] << ": " << r.out);
                CHECK(r.status == 2);
                CHECK(contains(r.out, "error: cloud must be a whole number from 1"));
            }
        }
    }
    // Accepted values do what they say: --until 0.025 is ceil(2.5) = 3 steps of 0.01; +0.02 and
    // 2e-2 are the config format's numbers for 2 steps; 1e-400 reads as 0 (no step).
    auto rows = [&](const std::string& until) { return lines(cli({"run", q + "&integrators=rk4", "--until", until}).out).size(); };
    CHECK(rows("0.025") == 1 + 4);
    CHECK(rows("+0.02") == 1 + 3);
    CHECK(rows("2e-2") == 1 + 3);
    CHECK(rows("1e-400") == 1 + 1);
    CHECK(rows("0") == 1 + 1);
    CHECK(lines(cli({"run", q + "&integrators=rk4", "--steps", "007"}).out).size() == 1 + 8);
}

TEST_CASE("cli usage messages show values cut between characters, as valid UTF-8") {
    // 70 × 'é' (2 bytes each): 60 characters are shown, then "…".
    std::string accents;
    for (int i = 0; i < 70; ++i) accents += "\xC3\xA9";
    std::string shown;
    for (int i = 0; i < 60; ++i) shown += "\xC3\xA9";
    CHECK(usage_error({"run", "preset=damped_spring", "--steps", accents}) ==
          "stepwise: --steps must be a whole number from 0 to 10000000 steps of dt, digits only; got '" + shown +
              "\xE2\x80\xA6'");
    // A byte that is not UTF-8 is shown as U+FFFD, a control character as '?'.
    CHECK(usage_error({"run", "preset=damped_spring", "--until", "1\xFF\x01"}) ==
          "stepwise: --until must be a time in seconds >= 0 written as a plain decimal number (e.g. 2.5 or 1e3; no hex, "
          "inf or nan), at most 10000000 steps of dt; got '1\xEF\xBF\xBD?'");
    CHECK(usage_error({"convergence", "preset=damped_spring", "--\xFF"}) ==
          "stepwise: unknown option '--\xEF\xBF\xBD' for convergence; its options: --halvings, --in, --format, --budget");
}

TEST_CASE("cli stability without a query: one row per integrator in table order") {
    const Result r = cli({"stability"});
    REQUIRE(r.status == 0);
    const auto rows = lines(r.out);
    REQUIRE(rows.size() == 1 + integrators().size());
    CHECK(rows[0] == "integrator,oscillator_limit,unconditional");
    for (size_t i = 0; i < integrators().size(); ++i) {
        const auto f = fields(rows[1 + i]);
        INFO(rows[1 + i]);
        REQUIRE(f.size() == 3);
        CHECK(f[0] == integrators()[i].id);
        if (f[2] == "1") CHECK(f[1].empty());
    }
    auto row = [&](const char* id) { return rows[1 + static_cast<size_t>(find_integrator(id))]; };
    CHECK(row("explicit_euler") == "explicit_euler,0,0");
    CHECK(row("heun") == "heun,0,0");
    CHECK(row("newton") == "newton,0,0");
    CHECK(row("semi_implicit_euler") == "semi_implicit_euler,2,0");
    CHECK(row("leapfrog") == "leapfrog,2,0");
    CHECK(row("implicit_euler") == "implicit_euler,,1");
    CHECK(row("kinematic") == "kinematic,,1");
    CHECK(row("rk45") == "rk45,,1");  // adaptive: unconditional
    CHECK(std::stod(fields(row("rk4"))[1]) == Approx(2.0 * std::sqrt(2.0)).epsilon(1e-12));
    CHECK(std::stod(fields(row("velocity_verlet"))[1]) == Approx(2.0).epsilon(1e-12));
    CHECK(std::stod(fields(row("yoshida4"))[1]) == Approx(1.5734019474344683).epsilon(1e-12));
    const auto doc = parse_json(cli({"stability", "--format", "json"}).out);
    REQUIRE(doc);
    CHECK(doc->keys() == std::vector<std::string>{"integrators"});
    REQUIRE((*doc)["integrators"].items.size() == integrators().size());
    const Json& rk45 = (*doc)["integrators"].items[static_cast<size_t>(find_integrator("rk45"))];
    CHECK(rk45["adaptive"].boolean);
    CHECK(rk45["unconditional"].boolean);
    CHECK(rk45["oscillator_limit"].kind == Json::Kind::null);
}

TEST_CASE("cli stability with a query: the stiffest mode, its ωh and the largest stable dt") {
    // preset=stiff_spring: k = 1000, m = 1, b = 0, dt = 0.05: ω = √1000, ωh = 1.58.
    const Result r = cli({"stability", "preset=stiff_spring&integrators=explicit_euler,semi_implicit_euler,rk4,implicit_euler"});
    REQUIRE(r.status == 0);
    const auto rows = lines(r.out);
    REQUIRE(rows.size() == 5);
    CHECK(rows[0] == "integrator,oscillator_limit,unconditional,omega_h,zeta,limit_at_zeta,largest_stable_dt,stable_now");
    const double omega = std::sqrt(1000.0);
    const auto euler = fields(rows[1]), semi = fields(rows[2]), rk4 = fields(rows[3]), implicit = fields(rows[4]);
    REQUIRE(euler.size() == 8);
    CHECK(euler[0] == "explicit_euler");
    CHECK(std::stod(euler[3]) == Approx(omega * 0.05).epsilon(1e-14));
    CHECK(euler[4] == "0");
    CHECK(euler[7] == "0");  // unstable now
    CHECK(semi[7] == "1");
    CHECK(std::stod(semi[6]) == Approx(2.0 / omega).epsilon(1e-12));
    CHECK(std::stod(rk4[6]) == Approx(2.0 * std::sqrt(2.0) / omega).epsilon(1e-12));
    CHECK(implicit[5].empty());
    CHECK(implicit[6].empty());
    CHECK(implicit[7] == "1");
    // Damped: the limit moves with ζ; a projectile has no mode, so nothing limits dt.
    const auto damped = parse_json(
        cli({"stability", "scenario=spring&k=4&b=2&integrators=explicit_euler,rk45", "--format", "json"}).out);
    REQUIRE(damped);
    CHECK(all_finite(*damped));
    CHECK((*damped)["oscillates"].boolean);
    CHECK((*damped)["omega"].number == Approx(2.0).epsilon(1e-14));
    CHECK((*damped)["zeta"].number == Approx(0.5).epsilon(1e-14));  // b / (2 √(k m))
    const Json& e = (*damped)["integrators"].items[0];
    CHECK(e["limit_at_zeta"].number == Approx(1.0).epsilon(1e-9));  // 2ζ
    CHECK(e["largest_stable_dt"].number == Approx(0.5).epsilon(1e-9));
    CHECK(e["stable_now"].boolean);  // ωh = 0.02 ≤ 1
    CHECK((*damped)["integrators"].items[1]["largest_stable_dt"].kind == Json::Kind::null);
    const Result free = cli({"stability", "scenario=projectile&integrators=explicit_euler", "--format", "json"});
    const auto flight = parse_json(free.out);
    REQUIRE(flight);
    CHECK_FALSE((*flight)["oscillates"].boolean);
    CHECK((*flight)["omega"].kind == Json::Kind::null);
    CHECK((*flight)["integrators"].items[0]["largest_stable_dt"].kind == Json::Kind::null);
    CHECK((*flight)["integrators"].items[0]["stable_now"].boolean);
}

TEST_CASE("cli trace: CSV columns, every integrator of the query at step 0, the exercise's RK4 by hand") {
    const std::string q = "preset=two_point_exercise&integrators=explicit_euler,rk4";
    const Result r = cli({"trace", q});
    REQUIRE(r.status == 0);
    const auto rows = lines(r.out);
    REQUIRE(!rows.empty());
    CHECK(rows[0] == "integrator,stage,label,body,x,y,vx,vy,ax,ay");
    // Explicit Euler: start and result; RK4: k1 … k4 and result; two bodies each.
    REQUIRE(rows.size() == 1 + 2 * 2 + 5 * 2);
    CHECK(rows[1] == "explicit_euler,1,start,0,-2,2,-1,-1.5,-2,-10");
    CHECK(rows[2] == "explicit_euler,1,start,1,3,2,1,-1.5,1.3333333333333333,-10");
    CHECK(rows[5] == "rk4,1,k1,0,-2,2,-1,-1.5,-2,-10");  // the first stage at P1 is the start state
    const std::vector<std::string> labels = {"k1", "k1", "k2", "k2", "k3", "k3", "k4", "k4", "result", "result"};
    for (size_t k = 0; k < labels.size(); ++k) {
        const auto f = fields(rows[5 + k]);
        REQUIRE(f.size() == 10);
        CHECK(f[1] == std::to_string(k / 2 + 1));
        CHECK(f[2] == labels[k]);
        CHECK(f[3] == std::to_string(k % 2));
    }
    // RK4's result at P1: (-763/288, 0) (worked by hand in test_trace.cpp).
    const auto p1 = fields(rows[13]);
    CHECK(std::stod(p1[4]) == Approx(-763.0 / 288).margin(1e-15));
    CHECK(std::stod(p1[5]) == 0.0);
    // --integrator picks one, --step another step; JSON and CSV agree with the numbers of the run.
    const Result one = cli({"trace", q, "--integrator", "rk4", "--step", "3"});
    REQUIRE(one.status == 0);
    CHECK(lines(one.out).size() == 1 + 5 * 2);
    CHECK(lines(one.out)[1].rfind("rk4,1,k1,0,", 0) == 0);
}

TEST_CASE("cli trace: the result is the state run prints after step N + 1, to the last digit, for every integrator") {
    const std::string all = testing_helpers::all_integrators();
    for (const std::string system : {"scenario=spring&dt=0.05", "scenario=two_spring&b=0.5&dt=0.05",
                                     "scenario=spring_pair&dt=0.1", "scenario=orbit&dt=0.1",
                                     "scenario=projectile&drag=0.1&dt=0.05"}) {
        const std::string q = system + "&integrators=" + all;
        for (int step : {0, 4}) {
            INFO(q << ", step " << step);
            const auto [want, got] = run_and_traced_results(q, step);
            CHECK(want.size() == integrators().size() * (system.find("spring_pair") != std::string::npos ? 2 : 1));
            CHECK(got == want);
        }
    }
}

TEST_CASE("cli trace --format json: strict, the documented structure, null where a stage has no column") {
    const std::string q = "preset=two_point_exercise&integrators=leapfrog,kinematic,rk45";
    const Result r = cli({"trace", q, "--format", "json"});
    REQUIRE(r.status == 0);
    const auto doc = parse_json(r.out);
    REQUIRE(doc);
    CHECK(doc->keys() == std::vector<std::string>{"config", "step", "integrators"});
    CHECK((*doc)["config"].string == normalise(parse_config(q).config));
    CHECK((*doc)["step"].number == 0);
    const auto& lanes = (*doc)["integrators"].items;
    REQUIRE(lanes.size() == 3);
    for (const Json& lane : lanes) {
        CHECK(lane.keys() == std::vector<std::string>{"id", "name", "stepped", "step", "t", "h", "force_evaluations",
                                                      "stopped", "stopped_at", "stages"});
        CHECK(lane["h"].number == 0.5);
        CHECK(lane["stopped"].kind == Json::Kind::null);
        const auto& stages = lane["stages"].items;
        REQUIRE(!stages.empty());
        for (size_t k = 0; k < stages.size(); ++k) {
            CHECK(stages[k].keys() == std::vector<std::string>{"stage", "label", "kind", "bodies"});
            CHECK(stages[k]["stage"].number == static_cast<double>(k + 1));
            REQUIRE(stages[k]["bodies"].items.size() == 2);
            CHECK(stages[k]["bodies"].items[1].keys() ==
                  std::vector<std::string>{"body", "x", "y", "vx", "vy", "ax", "ay"});
        }
        CHECK(stages.back()["label"].string == "result");
        CHECK(stages.back()["kind"].string == "state");
    }
    CHECK(lanes[0]["id"].string == "leapfrog");
    // Leapfrog's half kick is a velocity alone: its x and a are null.
    const Json& kick = lanes[0]["stages"].items[1]["bodies"].items[0];
    CHECK(kick["x"].kind == Json::Kind::null);
    CHECK(kick["ax"].kind == Json::Kind::null);
    CHECK(kick["vx"].number == -1.5);
    CHECK(lanes[1]["stages"].items[1]["kind"].string == "increment");
    CHECK(lanes[2]["stages"].items[0]["kind"].string == "evaluation");
    CHECK(all_finite(*doc));
}

TEST_CASE("cli trace: bad options name the option, the value and what is allowed") {
    const std::string q = "preset=two_point_exercise";  // 20 steps of 0.5 s; six integrators
    struct Case {
        std::vector<std::string> args;
        int status;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{"trace", q, "--step", "20"}, 64,
         "--step must be a step of the run: a whole number from 0 to 19 (the query's duration / dt is 20 steps); "
         "got '20'"},
        {{"trace", q, "--step", "-1"}, 64, "--step must be a whole number from 0 to 9999999"},
        {{"trace", q, "--step", "1.5"}, 64, "got '1.5'"},
        {{"trace", q, "--step", "1e1"}, 64, "digits only; got '1e1'"},
        {{"trace", q, "--integrator", "rk5"}, 64,
         "--integrator must be one of the query's integrators (explicit_euler, heun, midpoint, semi_implicit_euler, "
         "leapfrog, rk4); got 'rk5' (no integrator has that id"},
        {{"trace", q, "--integrator", "rk45"}, 64, "got 'rk45' (add it to the query's integrators to trace it)"},
        {{"trace", q, "--steps", "3"}, 64, "unknown option '--steps' for trace; its options: --integrator, --step, --format"},
        {{"trace", q, "--format", "xml"}, 64, "--format must be csv or json; got 'xml'"},
        {{"trace", q, "--step"}, 64, "option --step needs a value"},
        {{"trace"}, 64, "trace needs a QUERY"},
        {{"trace", "preset=two_point_exercise&dt=0"}, 2, "dt must be a number from 1e-09 to 10; got '0'"},
    };
    for (const Case& c : cases) {
        INFO(c.args.back());
        const Result r = cli(c.args, true);
        CHECK(r.status == c.status);
        CHECK(contains(r.out, c.message));
        CHECK_FALSE(contains(r.out, "integrator,stage"));  // nothing printed before the check
    }
    CHECK(contains(cli({"help"}).out, "stepwise trace 'QUERY' [--integrator ID] [--step N] [--format csv|json]"));
}

TEST_CASE("cli trace: a lane that stopped before the step has no stages, and says so") {
    // Explicit Euler diverges on the stiff spring (at t = 1.25 s, see above); RK4 does not.
    const std::string q = "preset=stiff_spring&integrators=explicit_euler,rk4";
    const Result r = cli({"trace", q, "--step", "100"}, true);
    REQUIRE(r.status == 0);
    CHECK(contains(r.out, "explicit_euler diverged at t = 1.25 s and stopped advancing: it has no step 100 to trace"));
    CHECK_FALSE(contains(r.out, "explicit_euler,"));
    CHECK(contains(r.out, "rk4,1,k1,0,"));
    const auto doc = parse_json(cli({"trace", q, "--step", "100", "--format", "json"}).out);
    REQUIRE(doc);
    const Json& euler = (*doc)["integrators"].items[0];
    CHECK(euler["stepped"].kind == Json::Kind::boolean);
    CHECK_FALSE(euler["stepped"].boolean);
    CHECK(euler["stopped"].string == "diverged");
    CHECK(euler["stopped_at"].number == 1.25);
    CHECK(euler["h"].kind == Json::Kind::null);
    CHECK(euler["stages"].items.empty());
}

TEST_CASE("cli run with loop=fixed at 60 Hz prints exactly what dt = 1/60 prints, every integrator", "[loop]") {
    const std::string system = "scenario=two_spring&b=0.3&integrators=" + testing_helpers::all_integrators();
    const Result looped = cli({"run", system + "&loop=fixed&hz=60", "--steps", "40", "--every", "4"});
    const Result plain = cli({"run", system + "&dt=" + format_number(1.0 / 60.0), "--steps", "40", "--every", "4"});
    REQUIRE(looped.status == 0);
    REQUIRE(plain.status == 0);
    CHECK(lines(looped.out).size() == 1 + 11 * integrators().size());
    CHECK(looped.out == plain.out);
    // 4 substeps at 30 Hz: frame n is step 4n of dt = 1/120.
    const Result sub = cli({"run", system + "&loop=fixed&hz=30&substeps=4", "--steps", "10"});
    const Result fine = cli({"run", system + "&dt=" + format_number(1.0 / 120.0), "--steps", "40", "--every", "4"});
    CHECK(sub.out == fine.out);
}

TEST_CASE("cli run with a loop: one row per frame at the frame's time, frames from the duration or --until", "[loop]") {
    const Result r = cli({"run", "preset=substeps_rescue"});
    REQUIRE(r.status == 0);
    const std::vector<std::string> out = lines(r.out);
    CHECK(out[0] == "t,integrator,body,x,y,vx,vy,energy,error");
    CHECK(out.size() == 1 + 151 * 2);  // frames 0 … 150 (5 s at 30 Hz) of two lanes
    const Result merged = cli({"run", "preset=substeps_rescue"}, true);
    CHECK(contains(merged.out, "\ngame loop: accumulator at 30 Hz, 4 substeps (step 1/120 s), jitter 0.2 "
                               "(seed 1), at most 8 steps a frame; 150 frames, 603 physics steps (rows: the render state "
                               "lerp(previous, current, alpha))\n"));
    // The render times increase frame by frame, about 1/30 s apart.
    double last = -1.0;
    for (size_t i = 1; i < out.size(); i += 2) {
        const double t = std::stod(fields(out[i])[0]);
        CHECK(t > last);
        last = t;
    }
    CHECK(last == Approx(5.0).margin(0.1));
    const Result until = cli({"run", "preset=explodes_at_30fps", "--until", "1"});
    CHECK(lines(until.out).size() == 1 + 31 * 2);
    CHECK(fields(lines(until.out).back())[0] == "1");  // 30 frames of 1/30 s: steps × dt = 1
    const Result steps = cli({"run", "preset=variable_dt_drifts", "--steps", "7"});
    CHECK(lines(steps.out).size() == 1 + 8 * 2);
    const Result far = cli({"run", "preset=explodes_at_30fps", "--until", "1e6"}, true);
    CHECK(far.status == 64);
    CHECK(contains(far.out, "--until must be at most 333333.3333333333 s at hz = 30 (at most 10000000 frames per run)"));
}

TEST_CASE("cli run --format json with a loop: frames, the loop's keys and what it did, strict JSON", "[loop]") {
    const auto doc = parse_json(cli({"run", "preset=explodes_at_30fps", "--format", "json", "--every", "10"}).out);
    REQUIRE(doc);
    CHECK(doc->keys() == std::vector<std::string>{"config", "reference", "order_regime", "dt", "frames", "loop", "rows",
                                                  "reference_stopped", "reference_stopped_at", "loop_frames",
                                                  "physics_steps", "most_steps_in_a_frame", "capped_frames",
                                                  "dropped_time", "integrators"});
    CHECK((*doc)["frames"].number == 150);
    CHECK((*doc)["loop"]["kind"].string == "fixed");
    CHECK((*doc)["loop"]["hz"].number == 30);
    CHECK((*doc)["loop"].keys() == std::vector<std::string>{"kind", "hz", "substeps", "text"});
    CHECK((*doc)["dt"].number == 1.0 / 30.0);
    for (const Json& lane : (*doc)["integrators"].items) {
        CHECK(lane["diverged"].kind == Json::Kind::boolean);
        CHECK(lane["stopped"].string == "diverged");
        CHECK(lane["diverged_at"].number < 0.4);
    }
    CHECK(all_finite(*doc));
    // The accumulator's cap: frames of up to 1.9 periods at 8 substeps need up to 15 steps.
    const std::string capped = "scenario=spring&integrators=rk4&loop=accumulator&hz=10&substeps=8&jitter=0.9&seed=2";
    const auto slow = parse_json(cli({"run", capped, "--format", "json", "--every", "100"}).out);
    REQUIRE(slow);
    CHECK((*slow)["most_steps_in_a_frame"].number == 8);
    CHECK((*slow)["capped_frames"].number > 10);
    CHECK((*slow)["dropped_time"].number > 0.5);
    CHECK((*slow)["physics_steps"].number <= 8 * 100);
    const double dropped_steps = (*slow)["dropped_time"].number * 80;  // whole steps of 1/80 s
    CHECK(std::fabs(dropped_steps - std::round(dropped_steps)) < 1e-9);
    const Result text = cli({"run", capped, "--every", "100"}, true);
    CHECK(contains(text.out, "slowed: "));
    CHECK(contains(text.out, " s of game time dropped in "));
}

TEST_CASE("cli with a loop: bad keys exit 2 naming the key, and convergence and stability say what they cannot use", "[loop]") {
    const Result bad = cli({"check", "scenario=spring&loop=sometimes&hz=0&jitter=1&substeps=65"}, true);
    CHECK(bad.status == 2);
    CHECK(contains(bad.out, "error: loop must be fixed, variable or accumulator; got 'sometimes'"));
    CHECK(contains(bad.out, "error: hz must be a number from 1 to 1000 (frames per second); got '0'"));
    CHECK(contains(bad.out, "error: jitter must be a number from 0 to below 1"));
    CHECK(contains(bad.out, "error: substeps must be a whole number from 1 to 64; got '65'"));
    const Result both = cli({"run", "preset=explodes_at_30fps&dt=0.01"}, true);
    CHECK(both.status == 2);
    CHECK(contains(both.out, "error: dt=0.01 cannot be combined with loop=fixed"));
    const Result conv = cli({"convergence", "preset=explodes_at_30fps"}, true);
    CHECK(conv.status == 2);
    CHECK(contains(conv.out, "error: loop=fixed cannot be used by stepwise convergence"));
    const Result stab = cli({"stability", "preset=variable_dt_drifts"}, true);
    CHECK(stab.status == 2);
    CHECK(contains(stab.out, "error: loop=variable cannot be used by stepwise stability"));
    // The fixed loop's step is one dt: the map's point is ω/hz, past the limit at 30 Hz.
    const Result fixed = cli({"stability", "preset=explodes_at_30fps"});
    REQUIRE(fixed.status == 0);
    CHECK(lines(fixed.out)[1] == "semi_implicit_euler,2,0,2.5,0,2,0.026666666666666668,0");
    const Result sixty = cli({"stability", "preset=explodes_at_30fps&hz=60"});
    CHECK(lines(sixty.out)[1] == "semi_implicit_euler,2,0,1.25,0,2,0.026666666666666668,1");
}

TEST_CASE("cli list names the loop keys with their ranges and rules, in text and JSON", "[loop]") {
    const Result text = cli({"list"});
    CHECK(contains(text.out, "Game loop (shared keys"));
    CHECK(contains(text.out, "  loop      fixed | variable | accumulator"));
    CHECK(contains(text.out, "  hz        default 60    a number from 1 to 1000"));
    CHECK(contains(text.out, "  max_steps default 8     a whole number from 1 to 64"));
    CHECK(contains(text.out, "explodes_at_30fps"));
    const auto doc = parse_json(cli({"list", "--format", "json"}).out);
    REQUIRE(doc);
    const Json& loop = (*doc)["loop"];
    REQUIRE(loop["kinds"].items.size() == 3);
    CHECK(loop["kinds"].items[2]["id"].string == "accumulator");
    std::vector<std::string> keys;
    for (const Json& k : loop["keys"].items) keys.push_back(k["key"].string);
    CHECK(keys == std::vector<std::string>{"hz", "substeps", "jitter", "seed", "max_steps"});
    CHECK(loop["keys"].items[2]["max"].number == 1);
    CHECK(loop["keys"].items[2]["max_exclusive"].kind == Json::Kind::boolean);
    CHECK(loop["keys"].items[1]["loops"].string == "fixed and accumulator");
    CHECK(contains(loop["rules"].string, "a link that gives dt as well is an error naming both keys"));
}

TEST_CASE("cli trace with a game loop: step N is the loop's physics step N, and a variable loop's is frame N, of its own length", "[loop]") {
    // Fixed (one step a frame) and variable loops print one row per step, so the traced result is
    // the run's row after step N + 1; the accumulator's rows are render states (interpolated).
    for (const std::string q : {"preset=explodes_at_30fps", "preset=variable_dt_drifts"}) {
        for (int step : {0, 4}) {
            INFO(q << ", step " << step);
            const auto [want, got] = run_and_traced_results(q, step);
            CHECK(!want.empty());
            CHECK(got == want);
        }
    }
    // The variable loop's step is the jittered frame: not 1/hz, and the same as the run's frame times.
    const auto doc = parse_json(cli({"trace", "preset=variable_dt_drifts", "--step", "2", "--format", "json"}).out);
    REQUIRE(doc);
    const double h = (*doc)["integrators"].items[0]["h"].number;
    const double t = (*doc)["integrators"].items[0]["t"].number;
    const auto rows = lines(cli({"run", "preset=variable_dt_drifts", "--steps", "3"}).out);
    std::vector<double> times;
    for (const std::string& line : rows) {
        const auto f = fields(line);
        if (f[0] != "t" && (times.empty() || std::stod(f[0]) != times.back())) times.push_back(std::stod(f[0]));
    }
    REQUIRE(times.size() == 4);  // t = 0 and three frames
    CHECK(t == times[2]);
    CHECK(h == Approx(times[3] - times[2]).epsilon(1e-12));
    CHECK(std::abs(h - 1.0 / 30.0) > 1e-6);
}

TEST_CASE("cli: an implicit-Euler step that Newton cannot solve stops the lane with its reason in CSV and JSON") {
    const std::string q = "scenario=orbit&m=1.454&gm=2.518&x0=0.758,0.3033&v0=-0.5283,1.3204&integrators=implicit_euler&dt=0.0179";
    const Result json = cli({"run", q, "--steps", "50", "--format", "json"});
    REQUIRE(json.status == 0);
    const auto doc = parse_json(json.out);
    REQUIRE(doc);
    const Json& lane = (*doc)["integrators"].items.at(0);
    CHECK(lane["stopped"].string == "newton_failed");
    CHECK(lane["diverged"].boolean);
    CHECK(lane["diverged_at"].number == Approx(50 * 0.0179).epsilon(1e-12));
    // The rows of steps 49 and 50 hold the same state: the last good one.
    const auto& rows = (*doc)["rows"].items;
    REQUIRE(rows.size() == 51);
    CHECK(rows[50]["x"].number == rows[49]["x"].number);
    CHECK(rows[50]["vy"].number == rows[49]["vy"].number);
    const Result csv = cli({"run", q, "--steps", "50"}, true);
    CHECK(contains(csv.out, "implicit_euler found no implicit-Euler step: Newton's iteration did not converge in 50 "
                            "iterations (the step's equation may have no solution at this dt) at t = 0.89500000000000002 s "
                            "and stopped advancing"));
}

TEST_CASE("cli work bounds: known work over the cap is refused naming the keys, unknown work stops at --budget saying how far it got") {
    // Known in advance (fixed steps): 10^6 steps x 1000 points x rk4's 4 evaluations = 4e9 > 5e8.
    const Result cloud = cli({"cloud", "scenario=spring&cloud=1000&dt=0.0001&duration=100&integrators=rk4"}, true);
    CHECK(cloud.status == 2);
    CHECK(contains(cloud.out, "error: stepwise cloud would take at least 4000000000 force evaluations (1000000 steps x "
                              "1000 points x the integrators' evaluations per step); at most 500000000 per command: "
                              "lower cloud, raise dt or shorten duration (or --steps), or give fewer integrators"));
    // Not known (rk45's substeps): the audit's case took over 10 s with no sign of life.
    const std::string stiff = "scenario=two_spring&dt=0.000001&duration=10&integrators=rk45";
    const Result conv = cli({"convergence", stiff, "--budget", "0.5"}, true);
    CHECK(conv.status == 3);
    CHECK(contains(conv.out, "stepwise convergence: stopped at its run-time budget of 0.5 s (--budget) after 0 of 3 levels"));
    CHECK(contains(conv.out, "the work of rk45's adaptive substeps is not known in advance. To finish sooner: raise dt, "
                             "shorten duration, ask for fewer --halvings, drop rk45 and implicit_euler from integrators, "
                             "or give a larger --budget"));
    CHECK(contains(conv.out, "kept 3 of 5 levels"));
    const Result json = cli({"convergence", stiff, "--budget", "0.5", "--format", "json"});
    CHECK(json.status == 3);
    REQUIRE(parse_json(json.out));  // still a whole document, holding the finished levels
    // run: the rows so far, then the message.
    const Result run = cli({"run", stiff, "--every", "1000000", "--budget", "0.2"}, true);
    CHECK(run.status == 3);
    CHECK(contains(run.out, "stepwise run: stopped at its run-time budget of 0.2 s (--budget) after "));
    CHECK(contains(run.out, "t,integrator,body,x,y,vx,vy,energy,error\n0,rk45,0,"));
    // The cloud of the audit: 1000 points on a stiff elastic pendulum with every integrator.
    const Result stiff_cloud = cli({"cloud", "scenario=elastic_pendulum&k=1000000&cloud=1000&integrators=" +
                                                 testing_helpers::all_integrators(), "--budget", "0.5"}, true);
    CHECK(stiff_cloud.status == 3);
    CHECK(contains(stiff_cloud.out, "stepwise cloud: stopped at its run-time budget of 0.5 s (--budget) after "));
    CHECK(contains(stiff_cloud.out, "the work of rk45's adaptive substeps and implicit Euler's Newton iterations is not known"));
    // --budget is checked like every option.
    for (const char* bad : {"0", "abc", "1e9", "-1", "inf"}) {
        INFO(bad);
        const Result r = cli({"convergence", stiff, "--budget", bad}, true);
        CHECK(r.status == 64);
        CHECK(contains(r.out, std::string("--budget must be seconds of run time, a plain decimal number from 0.001 to "
                                          "86400 (default 60); got '") + bad + "'"));
    }
}

TEST_CASE("cli progress: a command running longer than a second shows its progress on a terminal's stderr, and clears it") {
    // script(1) gives the command a terminal; without one (every other test) nothing is printed.
    const std::string cmd = std::string("script -qec \"") + STEPWISE_BIN +
                            " convergence 'scenario=two_spring&dt=0.000001&duration=10&integrators=rk45' --budget 1.6"
                            " >/dev/null\" /dev/null 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::string out;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
    CHECK(contains(out, "\r\033[Kconvergence: "));
    CHECK(contains(out, " %, level 1 of 3, 1 s (budget 1.6 s)"));
    CHECK(contains(out, "\r\033[Kstepwise convergence: stopped at its run-time budget"));  // cleared first
    // Without a terminal: no progress line.
    const Result plain = cli({"convergence", "scenario=two_spring&dt=0.000001&duration=10&integrators=rk45", "--budget", "1.6"}, true);
    CHECK_FALSE(contains(plain.out, "\r"));
}

TEST_CASE("cli cloud and stability on linked systems: the first link's plane, rods stopped, the stiffest mode") {
    // A rigid pendulum: rk4 cannot step the rod (its cloud stays, saying so); the closed form's
    // cloud keeps its area in (θ, dθ/dt).
    const Result json = cli({"cloud", "scenario=pendulum&cloud=20&integrators=rk4", "--steps", "10", "--every", "10",
                             "--format", "json"});
    CHECK(json.status == 0);
    CHECK(contains(json.out, "\"plane\": \"θ₁ (rad) against dθ₁/dt (rad/s) of the first link\""));
    CHECK(contains(json.out, "{\"id\": \"rk4\", \"stopped\": \"needs_compliance\", \"rows\": ["));
    CHECK(contains(json.out, "{\"id\": \"exact\", \"rows\": ["));
    const Result csv = cli({"cloud", "scenario=pendulum&cloud=20&integrators=rk4", "--steps", "10"}, true);
    CHECK(contains(csv.out, "rk4 cannot step a rigid link"));
    // The bridge has none: a config error naming the key.
    const Result bridge = cli({"cloud", "scenario=bridge&cloud=20"}, true);
    CHECK(bridge.status == 2);
    CHECK(contains(bridge.out, "cloud=20 cannot be used here: bridge has no phase cloud"));
    // The hanging double pendulum's stiffest mode, in reduced coordinates: ω² = (g/L)(2 + √2).
    const Result modes = cli({"stability", "scenario=chain&links=2&theta0=0", "--format", "json"});
    CHECK(contains(modes.out, "\"omega\": 5.78735129803609"));
    CHECK(contains(modes.out, "\"mode\": \"swing\",\n  \"modes\": 2,"));
    const Result stretch = cli({"stability", "scenario=pendulum&compliance=1e-8&integrators=rk4"}, true);
    CHECK(contains(stretch.out, "stiffest mode: the compliant links stretching, omega = 10000 rad/s"));
}

TEST_CASE("cli: a lane with settings is named by its id in run, convergence, trace and cloud") {
    const std::string q = "preset=damped_spring&integrators=rk4@2,rk4&duration=0.04";
    const Result run = cli({"run", q, "--format", "json"});
    CHECK(run.status == 0);
    CHECK(contains(run.out, "\"id\": \"rk4@2\", \"name\": \"Runge–Kutta 4\""));
    CHECK(contains(run.out, "\"force_evaluations\": 32"));  // 4 steps × 2 substeps × 4 evaluations
    CHECK(contains(cli({"run", q}).out, "0.01,rk4@2,0,"));
    const Result trace = cli({"trace", q, "--integrator", "rk4@2", "--step", "1"}, true);
    CHECK(trace.status == 0);
    CHECK(contains(trace.out, "rk4@2: step 1, from t = 0.01 s over h = 0.01 s, 8 force evaluations"));
    CHECK(contains(trace.out, "rk4@2,1,"));
    const Result either = cli({"trace", q, "--integrator", "rk4", "--step", "1"}, true);
    CHECK(contains(either.out, "rk4: step 1"));  // the lane of that id, not every lane of the method
    const Result both = cli({"trace", "preset=damped_spring&integrators=rk4@2,rk4@3&duration=0.04", "--integrator", "rk4"}, true);
    CHECK(both.status == 64);
    CHECK(contains(both.out, "(rk4@2, rk4@3); got 'rk4' (several lanes use that method: name one with its settings)"));
    const Result cloud = cli({"cloud", q + "&cloud=50", "--steps", "2", "--every", "2", "--format", "json"});
    CHECK(cloud.status == 0);
    CHECK(contains(cloud.out, "{\"id\": \"rk4@2\""));
}

TEST_CASE("cli on a written force: run, trace, convergence, stability and cloud, every number finite") {
    // A driven Duffing oscillator (issue 22 §3) beside the projectile's own gravity.
    const std::string q = "scenario=projectile&x0=1,0&v0=0,2&fx=-c1*x-c2*x^3+c3*cos(c4*t)&c1=4&c2=0.5&c3=1&c4=3"
                          "&integrators=explicit_euler,rk4,leapfrog,implicit_euler,kinematic,xpbd&duration=2";
    auto finite = [](const std::string& out) {
        for (const char* bad : {"nan", "NaN", "inf", "Inf"}) CHECK(out.find(bad) == std::string::npos);
    };
    const Result run = cli({"run", q});
    REQUIRE(run.status == 0);
    finite(run.out);
    const Result json = cli({"run", q, "--format", "json"});
    REQUIRE(json.status == 0);
    const auto doc = parse_json(json.out);
    REQUIRE(doc);
    CHECK(all_finite(*doc));
    CHECK(contains(json.out, "fx=-c1*x-c2*x^3+c3*cos(c4*t)&c1=4&c2=0.5&c3=1&c4=3"));
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"trace", q, "--step", "5"}, std::vector<std::string>{"convergence", q},
          std::vector<std::string>{"stability", q}, std::vector<std::string>{"cloud", q + "&cloud=50", "--steps", "20"}}) {
        INFO(args[0]);
        const Result r = cli(args);
        REQUIRE(r.status == 0);
        CHECK(!r.out.empty());
        finite(r.out);
    }
    // A bad expression exits 2 naming the key and the place.
    const Result bad = cli({"run", "scenario=spring&fx=-k*x"}, true);
    CHECK(bad.status == 2);
    CHECK(contains(bad.out, "fx: unknown name 'k' at character 2 of '-k*x'"));
}

TEST_CASE("cli run: the smallest dt is refused below dt_min, and at it every solver's JSON is finite (issue 40 §2)") {
    // The audit's link printed "tension": -nan (h² underflowed): now refused with the key and range.
    const Result tiny = cli({"run", "scenario=pendulum&integrators=vbd&dt=1e-160&duration=1e-160", "--steps", "3",
                             "--format", "json"}, true);
    CHECK(tiny.status == 2);
    CHECK(contains(tiny.out, "dt must be a number from 1e-09 to 10; got '1e-160'"));
    CHECK(contains(tiny.out, "duration must be a number from 1e-09 to 100000; got '1e-160'"));
    CHECK_FALSE(contains(tiny.out, "nan"));
    // At dt_min, and at its smallest substep (dt_min / 1000), the pendulum and the chain with every
    // solver print strict JSON (no NaN, no Infinity) whose every number is finite, tension included.
    for (const char* system : {"scenario=pendulum", "scenario=chain"}) {
        const std::string q = std::string(system) +
                              "&integrators=pbd,xpbd,vbd,sequential_impulses,soft_step,pbd@1000,xpbd@1000,vbd@1000,"
                              "sequential_impulses@1000,rk4&dt=1e-9&duration=3e-9";
        INFO(q);
        const Result r = cli({"run", q, "--format", "json"});
        REQUIRE(r.status == 0);
        const auto doc = parse_json(r.out);
        REQUIRE(doc);
        CHECK(all_finite(*doc));
        const Json& lanes = (*doc)["integrators"];
        REQUIRE(lanes.items.size() == 10);
        for (const Json& lane : lanes.items) {
            INFO(lane["id"].string);
            REQUIRE(lane.has("tension"));
            CHECK(std::isfinite(lane["tension"].number));
        }
        const size_t bodies = static_cast<size_t>(build_scene(parse_config(q).config).system.bodies());
        CHECK((*doc)["rows"].items.size() == 4 * 10 * bodies);  // t = 0 and three steps
    }
}

// Issue 31 §2: `stepwise run 'scenario=chain'` (no integrators) runs the core's default lanes of
// a rigid system, the solvers, and every one steps (no needs_compliance); named lanes stay.
TEST_CASE("cli run of a rigid system with no integrators runs the solvers, and they step") {
    const Result r = cli({"run", "scenario=chain", "--steps", "10", "--format", "json"});
    REQUIRE(r.status == 0);
    const auto doc = parse_json(r.out);
    REQUIRE(doc);
    CHECK(contains((*doc)["config"].string, "&integrators=pbd,xpbd,soft_step,sequential_impulses,vbd&"));
    const Json& lanes = (*doc)["integrators"];
    REQUIRE(lanes.items.size() == 5);
    for (const Json& lane : lanes.items) {
        INFO(lane["id"].string);
        CHECK(lane["stopped"].kind == Json::Kind::null);
        CHECK(lane["diverged"].kind == Json::Kind::boolean);
        CHECK_FALSE(lane["diverged"].boolean);
    }
    // Ten steps of 0.01 s from rest at 30°: the last body has fallen, the same in every lane's rows.
    const Result csv = cli({"run", "scenario=chain", "--steps", "10", "--every", "10"}, true);
    CHECK_FALSE(contains(csv.out, "cannot step a rigid link"));
    CHECK(contains(csv.out, "\n0.10000000000000001,xpbd,1,"));
    CHECK(contains(csv.out, "\n0.10000000000000001,vbd,1,"));
    // Named lanes are kept as written, even ones that cannot step the rods (they say why).
    const Result named = cli({"run", "scenario=chain&integrators=rk4", "--steps", "1"}, true);
    CHECK(contains(named.out, "rk4 cannot step a rigid link"));
    const Result reference = cli({"run", "scenario=chain&integrators=reference", "--steps", "1"});
    CHECK(contains(reference.out, "\n0.01,reference,1,"));
    CHECK_FALSE(contains(reference.out, ",xpbd,"));
}

TEST_CASE("cli trace: a lane named as written is found by its normalised id, and a long trace is bounded, saying so (issue 40 §3)") {
    // xpbd@1000x10 is xpbd@1000 (10 is XPBD's default iterations): the written form is accepted.
    const std::string q = "scenario=pendulum&integrators=xpbd@1000x10,rk4&duration=0.02";
    const Result written = cli({"trace", q, "--integrator", "xpbd@1000x10"}, true);
    CHECK(written.status == 0);
    CHECK(contains(written.out, "\nxpbd@1000,1,external forces,0,"));
    CHECK(cli({"trace", q, "--integrator", "xpbd@1000"}).out == cli({"trace", q, "--integrator", "xpbd@1000x10"}).out);
    CHECK(cli({"trace", q, "--integrator", "xpbd"}).status == 0);  // by its method alone: one xpbd lane
    const Result other = cli({"trace", q, "--integrator", "xpbd@1000x5"}, true);
    CHECK(other.status == 64);
    CHECK(contains(other.out, "--integrator must be one of the query's integrators (xpbd@1000, rk4); got 'xpbd@1000x5'"));
    // The audit's case: a step of xpbd@1000 on the 62-body cloth computes 13,001 stages (806,062
    // rows). The trace prints its first stages and its result, at most max_trace_rows rows.
    const std::string cloth = "scenario=scene&integrators=xpbd@1000&scene=cloth:-0.875,0,alpha:0.001&duration=0.02";
    const Result big = cli({"trace", cloth}, true);
    REQUIRE(big.status == 0);
    const std::vector<std::string> rows = lines(big.out);
    long long data_rows = 0;
    std::string last;
    for (const std::string& line : rows)
        if (line.rfind("xpbd@1000,", 0) == 0) {
            ++data_rows;
            last = line;
        }
    CHECK(data_rows <= max_trace_rows);
    CHECK(data_rows == 62 * (max_trace_rows / 62));
    CHECK(contains(last, "xpbd@1000,13001,result,61,"));
    CHECK(contains(big.out, "xpbd@1000: the trace shows 1612 of the step's 13001 stages: the first 1611 and the result"));
    CHECK(contains(big.out, " stages: the first 1611 and the result (stepwise trace prints at most 100000 rows, stages x "
                            "bodies, per integrator); trace fewer substeps or iterations, or a system of fewer bodies, "
                            "to see them all"));
}

TEST_CASE("cli cloud: --budget is read between a step's parts of copies, so a step of many seconds stops inside (issue 40 §3)") {
    // One step of this took 52 s before the budget was read inside it; at a budget of 1 ms it
    // stops inside its first step: no row after t = 0.
    const std::string q = "scenario=scene&integrators=xpbd@10x1,soft_step,vbd@4x4,rk4,implicit_euler,rk45&"
                          "scene=cloth:-0.875,0,alpha:0.001&fx=c1*(1-x%5E2)*vx-x&c1=1000000&dt=0.016&duration=100&cloud=1000";
    const Result r = cli({"cloud", q, "--steps", "200", "--budget", "0.001"}, true);
    CHECK(r.status == 3);
    CHECK(contains(r.out, "stepwise cloud: stopped at its run-time budget of 0.001 s (--budget) after 0 of 200 steps (t = 0 s)"));
    CHECK_FALSE(contains(r.out, "\n0.016,"));
}
