// The CLI, run as a built binary: run, list and check as specified.
#include "config.hpp"
#include "integrators.hpp"
#include "simulation.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

using namespace stepwise;

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
}

TEST_CASE("cli check: normalised query and exit 0, or every error and exit 2") {
    const Result ok = cli({"check", "k=15&scenario=spring&dt=0.010"});
    CHECK(ok.status == 0);
    CHECK(ok.out == normalise(parse_config("scenario=spring&k=15&dt=0.01").config) + "\n");
    const Result bad = cli({"check", "dt=0&integrators=rk5&m=-1"}, true);
    CHECK(bad.status == 2);
    CHECK(bad.out.find("dt must be a number > 0 and at most 10; got '0'") != std::string::npos);
    CHECK(bad.out.find("unknown integrator 'rk5'; known: ") != std::string::npos);
    CHECK(bad.out.find("m must be a number > 0") != std::string::npos);
    CHECK(cli({"run", "dt=0"}).status == 2);
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
    CHECK(r.out.find("--until must be a finite time") != std::string::npos);
}
