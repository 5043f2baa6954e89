// core/rows: the one formatter of CSV and JSON rows, checked against hand-written text.
#include "helpers.hpp"
#include "json.hpp"
#include "rows.hpp"

#include <catch2/catch.hpp>

using namespace stepwise;
using namespace testing_helpers;

namespace {

// m = 1 under g = 10 along -y from rest at the origin, dt = 1, one step. Explicit Euler:
// x1 = x0 + v0 h = (0, 0), v1 = (0, -10); energy = 1/2 m v^2 + m g y = 50 + 0; exact y = -5,
// so error 5. Newton: x1 = 1/2 a h^2 = (0, -5), energy 50 - 50 = 0, error 0.
const char* const one_step = "preset=constant_force&integrators=explicit_euler,newton&duration=1";

}  // namespace

TEST_CASE("core/rows: CSV rows of one constant-force step, by hand") {
    Simulation sim(config_of(one_step));
    std::string csv = csv_header;
    CHECK(append_csv_rows(csv, sim) == 2);
    sim.step();
    CHECK(append_csv_rows(csv, sim) == 2);
    CHECK(csv ==
          "t,integrator,body,x,y,vx,vy,energy,error\n"
          "0,explicit_euler,0,0,0,0,0,0,0\n"
          "0,newton,0,0,0,0,0,0,0\n"
          "1,explicit_euler,0,0,0,0,-10,50,5\n"
          "1,newton,0,0,-5,0,-10,0,0\n");
    std::string capped;
    CHECK(append_csv_rows(capped, sim, 1) == 1);
    CHECK(capped == "1,explicit_euler,0,0,0,0,-10,50,5\n");
}

TEST_CASE("core/rows: the JSON document of one constant-force step, by hand") {
    Simulation sim(config_of(one_step));
    std::string json;
    append_json_head(json, sim, 1);
    bool first = true;
    CHECK(append_json_rows(json, sim, first, 0) == 0);  // nothing written: still no comma needed
    CHECK(first);
    CHECK(append_json_rows(json, sim, first) == 2);
    CHECK_FALSE(first);
    sim.step();
    CHECK(append_json_rows(json, sim, first) == 2);
    append_json_tail(json, sim);
    // energy_drift = (E - E_ref) / max(KE0 + |PE0|, KE_ref + |PE_ref|) = (50 - 0) / (50 + 50) for
    // explicit Euler; angular momentum about the origin (gravity keeps none): x × v = 0.
    CHECK(json ==
          "{\n"
          "  \"config\": \"v=1&scenario=projectile&integrators=explicit_euler,newton&dt=1&duration=1&m=1&g=10&"
          "drag=0&x0=0,0&v0=0,0\",\n"
          "  \"reference\": \"exact\",\n"
          "  \"order_regime\": \"constant_force\",\n"
          "  \"dt\": 1,\n"
          "  \"steps\": 1,\n"
          "  \"rows\": [\n"
          "    {\"t\": 0, \"integrator\": \"explicit_euler\", \"body\": 0, \"x\": 0, \"y\": 0, \"vx\": 0, \"vy\": 0, "
          "\"energy\": 0, \"error\": 0},\n"
          "    {\"t\": 0, \"integrator\": \"newton\", \"body\": 0, \"x\": 0, \"y\": 0, \"vx\": 0, \"vy\": 0, "
          "\"energy\": 0, \"error\": 0},\n"
          "    {\"t\": 1, \"integrator\": \"explicit_euler\", \"body\": 0, \"x\": 0, \"y\": 0, \"vx\": 0, \"vy\": -10, "
          "\"energy\": 50, \"error\": 5},\n"
          "    {\"t\": 1, \"integrator\": \"newton\", \"body\": 0, \"x\": 0, \"y\": -5, \"vx\": 0, \"vy\": -10, "
          "\"energy\": 0, \"error\": 0}\n"
          "  ],\n"
          "  \"reference_stopped\": null,\n"
          "  \"reference_stopped_at\": null,\n"
          "  \"integrators\": [\n"
          "    {\"id\": \"explicit_euler\", \"name\": \"Explicit Euler\", \"order\": 1, \"symplectic\": false, "
          "\"diverged\": false, \"diverged_at\": null, \"stopped\": null, \"energy\": 50, \"energy_drift\": 0.5, "
          "\"dissipated\": 0, \"angular_momentum\": 0, \"force_evaluations\": 1},\n"
          "    {\"id\": \"newton\", \"name\": \"Newton (constant acceleration)\", \"order\": \"exact\", \"symplectic\": false, "
          "\"diverged\": false, \"diverged_at\": null, \"stopped\": null, \"energy\": 0, \"energy_drift\": 0, "
          "\"dissipated\": 0, \"angular_momentum\": 0, \"force_evaluations\": 1}\n"
          "  ]\n"
          "}\n");
    const auto doc = parse_json(json);
    REQUIRE(doc);
    CHECK(doc->keys() == std::vector<std::string>{"config", "reference", "order_regime", "dt", "steps", "rows",
                                                  "reference_stopped", "reference_stopped_at", "integrators"});
    CHECK((*doc)["rows"].items.size() == 4);
    CHECK((*doc)["rows"].items[3]["y"].number == -5.0);
}

TEST_CASE("core/rows: numbers read back exactly, strings are escaped") {
    for (double x : {0.1, 1.0 / 3.0, -2.5e-300, 1e300, 6.02214076e23}) {
        std::string s;
        append_number(s, x);
        CHECK(parse_number(s) == x);
    }
    const std::string nasty = std::string("say \"hi\"\\ then\nbell\x07 and ö");
    const std::string quoted = json_string(nasty);
    CHECK(quoted == "\"say \\\"hi\\\"\\\\ then\\u000abell\\u0007 and ö\"");
    const auto back = parse_json(quoted);
    REQUIRE(back);
    CHECK(back->string == nasty);
    // The checker itself refuses what JSON does not allow.
    for (const char* bad : {"NaN", "[1,]", "{\"a\": Infinity}", "\"tab\there\"", "01", "[1 2]", "{\"a\" 1}", ""})
        CHECK_FALSE(parse_json(bad));
}
