// The scenario table (core/scenarios.*): every row builds from its defaults and presets, round
// trips, declares what its presets use, says which reference it has and what its phase plot
// shows; Params and Config::get refuse undeclared keys; phase points by hand.
#include "helpers.hpp"
#include "scenarios.hpp"
#include "simulation.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

using namespace stepwise;
using namespace testing_helpers;

namespace {

// The queries that build each row: its defaults ("scenario=ID") and each of its presets.
std::vector<std::pair<std::string, std::string>> row_queries(const ScenarioInfo& row) {
    std::vector<std::pair<std::string, std::string>> out = {{std::string(row.id) + " defaults", std::string("scenario=") + row.id}};
    for (const PresetInfo& p : row.presets) out.emplace_back(p.id, std::string("preset=") + p.id);
    return out;
}

std::vector<std::string> keys_of(const std::string& query) {
    std::vector<std::string> keys;
    size_t start = 0;
    while (start <= query.size()) {
        const size_t amp = std::min(query.find('&', start), query.size());
        const std::string pair = query.substr(start, amp - start);
        keys.push_back(pair.substr(0, pair.find('=')));
        start = amp + 1;
    }
    return keys;
}

bool declares(const ScenarioInfo& row, const std::string& key) {
    for (const ParamSpec& p : row.params)
        if (key == p.key) return true;
    return false;
}

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

TEST_CASE("every scenario row builds from its defaults and from each preset, and round-trips") {
    for (const ScenarioInfo& row : scenarios()) {
        for (const auto& [name, query] : row_queries(row)) {
            DYNAMIC_SECTION(name) {
                const Config c = config_of(query);
                CHECK(c.scenario == find_scenario(row.id));
                // Building calls the row's build with Params, which throws on an undeclared key.
                REQUIRE_NOTHROW(Simulation(c));
                const Simulation sim(c);
                CHECK(static_cast<int>(sim.scene().x0.size()) == sim.bodies());
                CHECK(static_cast<int>(sim.scene().v0.size()) == sim.bodies());
                CHECK(sim.scene().length_scale >= 1.0);
                // parse -> normalise -> parse gives the same Config.
                const std::string n = normalise(c);
                const ParseResult again = parse_config(n);
                REQUIRE(again.ok());
                CHECK(again.config == c);
                CHECK(normalise(again.config) == n);
            }
        }
    }
}

TEST_CASE("every preset's query names only keys its row declares, and no scenario or preset key") {
    for (const ScenarioInfo& row : scenarios()) {
        for (const PresetInfo& p : row.presets) {
            DYNAMIC_SECTION(p.id) {
                for (const std::string& key : keys_of(p.query)) {
                    INFO("key '" << key << "' in " << p.query);
                    // The keys every system shares (core/config.hpp shared_keys: a run's, a study's, the
                    // game loop's, the written force's) but the link's version and the system's own
                    // choice; a built scene's row reads `scene` (ScenarioInfo::default_scene).
                    bool shared = key == "scene" && row.default_scene;
                    for (const SharedKey& k : shared_keys())
                        if (key == k.key && std::string(k.group) != "link" && std::string(k.group) != "system") shared = true;
                    CHECK((shared || declares(row, key)));
                }
                // presets() puts the row's scenario in front, once.
                const int index = find_preset(p.id);
                REQUIRE(index >= 0);
                CHECK(std::string(presets()[index].query) == std::string("scenario=") + row.id + "&" + p.query);
            }
        }
    }
}

TEST_CASE("an undeclared key is a programming error, never a silent 0") {
    const Config spring = default_config(find_scenario("spring"));
    CHECK(spring.get("k") == 15.0);
    CHECK_THROWS_AS(spring.get("gm"), std::logic_error);
    CHECK_THROWS_AS(spring.get("nope"), std::logic_error);
    CHECK_THROWS_AS(spring.get_vec("k"), std::logic_error);  // declared, but a number
    CHECK_THROWS_AS(spring.get("anchor"), std::logic_error);  // declared, but a vector
    const Config orbit = default_config(find_scenario("orbit"));
    CHECK(orbit.get("gm") == 1.0);
    CHECK(orbit.get_vec("v0") == dvec2(0.0, 1.0));
    CHECK_THROWS_AS(orbit.get("k"), std::logic_error);
    const ScenarioInfo& row = scenarios()[find_scenario("elastic_pendulum")];
    const Config pendulum = default_config(find_scenario("elastic_pendulum"));
    const Params p(row, pendulum.values, pendulum.scene);  // holds references: the values must outlive it
    CHECK(p.num("rest") == 1.0);
    CHECK(p.vec("g") == dvec2(0.0, -9.81));
    CHECK_THROWS_AS(p.num("gm"), std::logic_error);
    CHECK_THROWS_WITH(p.num("gm"), Catch::Contains("elastic_pendulum") && Catch::Contains("'gm'"));
}

TEST_CASE("an unknown scenario id is an error and never becomes another scenario") {
    for (const char* id : {"Orbit", "orbit ", "orbits", "orb", "elastic", "elastic-pendulum", "", "0", "4"}) {
        DYNAMIC_SECTION("'" << id << "'") {
            CHECK(find_scenario(id) == -1);
            const ParseResult r = parse_config(std::string("scenario=") + id);
            CHECK_FALSE(r.ok());
            bool named = false;
            for (const ConfigError& e : r.errors)
                named = named || (e.key == "scenario" && e.message.find("unknown scenario") != std::string::npos);
            CHECK(named);
        }
    }
    // The orbit's keys do not slip into the fallback: gm is an unknown key there, reported too.
    const ParseResult r = parse_config("scenario=Orbit&gm=2");
    CHECK(r.errors.size() == 2);
    CHECK(r.config.scenario != find_scenario("orbit"));
    for (const ScenarioInfo& row : scenarios()) CHECK(scenarios()[find_scenario(row.id)].id == row.id);
}

TEST_CASE("the orbit's cross-key check: x0 = 0,0 is an error naming x0, and the rest of the link applies") {
    const ParseResult r = parse_config("scenario=orbit&x0=0,0&gm=2&dt=0.05&v0=0,2");
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].key == "x0");
    CHECK(r.errors[0].value == "0,0");
    CHECK(r.errors[0].message.find("x0") != std::string::npos);
    CHECK(r.config.scenario == find_scenario("orbit"));
    CHECK(r.config.get("gm") == 2.0);
    CHECK(r.config.dt == 0.05);
    CHECK(r.config.get_vec("v0") == dvec2(0.0, 2.0));
    CHECK(r.config.get_vec("x0") == dvec2(1.0, 0.0));  // back to the default
    // Over a preset, x0 goes back to the preset's value.
    const ParseResult p = parse_config("preset=hyperbolic_flyby&x0=0,0");
    REQUIRE(p.errors.size() == 1);
    CHECK(p.errors[0].key == "x0");
    CHECK(p.config.get_vec("x0") == dvec2(-10.0, 1.0));
    // Anything at least 1e-6 m from the centre is fine; closer is an error naming the bound.
    CHECK(parse_config("scenario=orbit&x0=0,1e-6").ok());
    CHECK(parse_config("scenario=orbit&x0=-6e-7,8e-7").ok());  // exactly 1e-6 away
    const ParseResult near = parse_config("scenario=orbit&x0=1e-7,0");
    REQUIRE(near.errors.size() == 1);
    CHECK(near.errors[0].key == "x0");
    CHECK(near.errors[0].message ==
          "x0 must be at least 1e-06 m from the central body at (0,0) (two numbers 'x,y', each from -1000000 to "
          "1000000); got '1e-07,0'");
    CHECK(parse_config("scenario=orbit&x0=-3,0&v0=0,0").ok());
}

TEST_CASE("each row's reference text agrees with the reference its defaults and presets get") {
    // By hand: a closed form needs linear forces that decouple, or a lone orbit clear of the
    // parabola and of the collision radius.
    const std::map<std::string, ReferenceKind> expected = {
        {"projectile defaults", ReferenceKind::exact},       // no drag
        {"constant_force", ReferenceKind::exact},
        {"projectile_drag", ReferenceKind::rk45},
        {"spring defaults", ReferenceKind::exact},           // rest 0
        {"damped_spring", ReferenceKind::exact},
        {"undamped_dt01", ReferenceKind::exact},
        {"undamped_dt025", ReferenceKind::exact},
        {"stiff_spring", ReferenceKind::exact},
        {"xpbd_spring", ReferenceKind::rk45},                // a rest length of 1 m
        {"explodes_at_30fps", ReferenceKind::exact},
        {"substeps_rescue", ReferenceKind::exact},
        {"two_spring defaults", ReferenceKind::exact},       // both rest lengths 0
        {"two_springs", ReferenceKind::exact},
        {"spring_pair defaults", ReferenceKind::rk45},       // rest 6
        {"two_point_exercise", ReferenceKind::rk45},
        {"orbit defaults", ReferenceKind::exact},            // the unit circle
        {"circular_orbit", ReferenceKind::exact},
        {"eccentric_orbit", ReferenceKind::exact},           // e = 0.9, periapsis 1/19 > 1e-3
        {"hyperbolic_flyby", ReferenceKind::exact},          // e = 2.37
        {"variable_dt_drifts", ReferenceKind::exact},        // e = 0.64
        {"elastic_pendulum defaults", ReferenceKind::rk45},
        {"elastic_pendulum_resonance", ReferenceKind::rk45},
        {"elastic_pendulum_chaos", ReferenceKind::rk45},
        // Linked systems: a lone rigid undamped link has the pendulum's closed form; compliant
        // links, chains and bridges have rk45 (projected onto rigid links).
        {"pendulum defaults", ReferenceKind::exact},
        {"pendulum_small", ReferenceKind::rk45},             // compliant
        {"pendulum_large", ReferenceKind::exact},
        {"pendulum_over_top", ReferenceKind::exact},
        {"chain defaults", ReferenceKind::rk45},
        {"double_pendulum", ReferenceKind::rk45},
        {"pendulum_challenge", ReferenceKind::rk45},
        {"pendulum_challenge_default", ReferenceKind::rk45},
        {"hanging_chain", ReferenceKind::rk45},
        {"heavy_chain_60hz", ReferenceKind::rk45},
        {"rope", ReferenceKind::rk45},
        {"bridge defaults", ReferenceKind::rk45},
        {"bridge_sag", ReferenceKind::rk45},
        // Built scenes: springs with rest lengths or links, so rk45 (constrained with rods).
        {"scene defaults", ReferenceKind::rk45},
        {"scene_rope", ReferenceKind::rk45},
        {"scene_bridge", ReferenceKind::rk45},
        {"scene_cloth", ReferenceKind::rk45},
        {"scene_triple_pendulum", ReferenceKind::rk45},
        {"scene_heavy_chain", ReferenceKind::rk45},
        {"scene_molecule", ReferenceKind::rk45},
        {"scene_duffing", ReferenceKind::rk45},  // a written force has no closed form
        {"scene_driven", ReferenceKind::rk45},
    };
    size_t seen = 0;
    for (const ScenarioInfo& row : scenarios()) {
        const std::string text = row.reference;
        for (const auto& [name, query] : row_queries(row)) {
            DYNAMIC_SECTION(name) {
                INFO(row.id << ": \"" << text << "\"");
                const ReferenceKind kind = Simulation(config_of(query)).reference_kind();
                REQUIRE(expected.count(name) == 1);  // a new row or preset needs its line above
                CHECK(kind == expected.at(name));
                if (kind == ReferenceKind::exact) CHECK(starts_with(text, "closed form"));
                if (kind == ReferenceKind::rk45) CHECK(text.find("rk45") != std::string::npos);
                if (starts_with(text, "rk45")) CHECK(kind == ReferenceKind::rk45);
            }
            ++seen;
        }
    }
    CHECK(seen == expected.size());
    // The orbit's text names its exceptions: near a parabola, or diving into the centre.
    CHECK(Simulation(config_of("scenario=orbit&v0=0,1.4142")).reference_kind() == ReferenceKind::rk45);   // e = 0.99996
    CHECK(Simulation(config_of("scenario=orbit&v0=0,1.5")).reference_kind() == ReferenceKind::exact);     // e = 1.25
    CHECK(Simulation(config_of("scenario=orbit&v0=0.5,0")).reference_kind() == ReferenceKind::rk45);      // radial
    // e = 0.9984 (clear of the parabola), but periapsis h^2 / (gm (1 + e)) = 8.0e-4 < 1e-3.
    CHECK(Simulation(config_of("scenario=orbit&v0=0,0.04")).reference_kind() == ReferenceKind::rk45);
    CHECK(Simulation(config_of("scenario=orbit&v0=0,0.05")).reference_kind() == ReferenceKind::exact);    // 1.25e-3
}

TEST_CASE("phase points by hand: axis, radial and separation") {
    const dvec2 x[] = {{4.0, 5.0}, {1.0, 1.0}};
    const dvec2 v[] = {{3.0, -2.0}, {-1.0, 3.0}};
    PhaseSpec axis;
    axis.kind = PhaseKind::axis_x;
    CHECK(phase_point(axis, x, v) == dvec2(4.0, 3.0));
    axis.kind = PhaseKind::axis_y;
    axis.body = 1;
    CHECK(phase_point(axis, x, v) == dvec2(1.0, 3.0));
    // Radial about (1, 1): d = (3, 4), r = 5, dr/dt = d . v / r = (9 - 8) / 5.
    PhaseSpec radial;
    radial.kind = PhaseKind::radial;
    radial.centre = dvec2(1.0, 1.0);
    CHECK(phase_point(radial, x, v) == dvec2(5.0, 0.2));
    // Separation of body 0 from body 1: d = (3, 4), w = (4, -5): rate (12 - 20) / 5.
    PhaseSpec separation;
    separation.kind = PhaseKind::separation;
    CHECK(phase_point(separation, x, v) == dvec2(5.0, -1.6));
    // At the centre itself the rate has no direction: 0.
    radial.centre = x[0];
    CHECK(phase_point(radial, x, v) == dvec2(0.0, 0.0));
    CHECK(std::string(phase_names(radial).q) == "distance r");
    CHECK(std::string(phase_names(separation).q) == "spring length");
    CHECK(std::string(phase_names(axis).p) == "vy");
}

TEST_CASE("each row's phase plot, at t = 0, by hand") {
    struct Case {
        const char* query;
        PhaseKind kind;
        dvec2 q_p;
    };
    const std::vector<Case> cases = {
        {"scenario=projectile", PhaseKind::axis_y, {0.0, 10.0}},            // y, vy of (0,0), (10,10)
        {"scenario=spring", PhaseKind::axis_x, {1.0, 0.0}},                 // starts displaced along x
        {"scenario=spring&x0=0.5,-2&v0=3,4", PhaseKind::axis_y, {-2.0, 4.0}},  // ... or along y
        // Balance (10 (-2,0) + 20 (2,0)) / 30 = (2/3, 0); x0 = (1, 1) is farther off in y.
        {"scenario=two_spring", PhaseKind::axis_y, {1.0, 0.0}},
        // x1 - x2 = (-5, 0), v1 - v2 = (-2, 0): length 5, rate (-5)(-2)/5 = 2.
        {"scenario=spring_pair", PhaseKind::separation, {5.0, 2.0}},
        {"scenario=orbit", PhaseKind::radial, {1.0, 0.0}},
        {"scenario=orbit&x0=3,4&v0=1,2", PhaseKind::radial, {5.0, 2.2}},   // (3 + 8) / 5
        // About the anchor (1, 2): d = (3, -4), v = (1, 1): length 5, rate (3 - 4) / 5.
        {"scenario=elastic_pendulum&anchor=1,2&x0=4,-2&v0=1,1", PhaseKind::radial, {5.0, -0.2}},
    };
    for (const Case& c : cases) {
        DYNAMIC_SECTION(c.query) {
            const Simulation sim(config_of(std::string(c.query) + "&integrators=rk4"));
            CHECK(sim.scene().phase.kind == c.kind);
            CHECK(sim.phase(0).x == Approx(c.q_p.x).margin(1e-15));
            CHECK(sim.phase(0).y == Approx(c.q_p.y).margin(1e-15));
            CHECK(sim.reference_phase() == sim.phase(0));
        }
    }
}

TEST_CASE("which systems conserve angular momentum, and about which point") {
    struct Case {
        const char* query;
        bool conserves;
    };
    const std::vector<Case> cases = {
        {"scenario=orbit", true},
        {"scenario=spring&b=0", true},                 // one spring to one anchor
        {"scenario=spring&b=0&rest=0.5", true},        // a rest length keeps it central
        {"scenario=elastic_pendulum&g=0,0", true},
        {"scenario=spring_pair&g=0,0", true},          // internal forces only
        {"scenario=projectile&g=0", true},             // a free body
        {"scenario=spring", false},                    // b = 0.1
        {"scenario=projectile", false},                // gravity
        {"scenario=elastic_pendulum", false},          // gravity
        {"scenario=spring_pair", false},               // gravity
        {"scenario=spring_pair&g=0,0&b=0.5", false},   // the damper's force is not along the spring
        {"scenario=two_spring", false},                // two anchors apart
    };
    for (const Case& c : cases) {
        DYNAMIC_SECTION(c.query) {
            CHECK(Simulation(config_of(c.query)).conserves_angular_momentum() == c.conserves);
        }
    }
    // About the anchor (2, 3), not the origin: r = (1, 0), v = (0, 2) gives L = 2 (6 about the origin).
    Simulation sim(config_of("scenario=spring&b=0&anchor=2,3&x0=3,3&v0=0,2&integrators=kinematic,semi_implicit_euler"));
    REQUIRE(sim.conserves_angular_momentum());
    CHECK(sim.angular_momentum(0) == 2.0);
    sim.advance(1000);
    CHECK(sim.angular_momentum(0) == Approx(2.0).epsilon(1e-13));
    CHECK(sim.angular_momentum(1) == Approx(2.0).epsilon(1e-13));
    CHECK(std::fabs(sim.angular_momentum_drift(0)) < 1e-13);
}

TEST_CASE("masses, stiffnesses and G·M range from 1e-6 to 1e6, inclusive, and below is an error naming key, value and range") {
    // The hostile example stays valid: m = 0.000001 with drag 100 at v0 = 100,100 and dt = 10.
    CHECK(parse_config("scenario=projectile&m=0.000001&drag=100&v0=100,100&dt=10").ok());
    CHECK(parse_config("scenario=spring_pair&m1=0.000001&m2=0.000001").ok());
    const ParseResult low = parse_config("m=9.9e-7");
    REQUIRE(low.errors.size() == 1);
    CHECK(low.errors[0].key == "m");
    CHECK(low.errors[0].value == "9.9e-7");
    CHECK(low.errors[0].message == "m must be a number from 1e-06 to 1000000; got '9.9e-7'");
    CHECK(low.config.get("m") == 1.0);  // the default is kept
    CHECK(parse_config("scenario=spring_pair&m1=1e-300&m2=1e-300").errors.size() == 2);
    // Every row: each strictly positive quantity takes exactly [1e-6, 1e6].
    int bounded = 0;
    for (const ScenarioInfo& row : scenarios()) {
        for (const ParamSpec& p : row.params) {
            if (p.min <= 0.0 || std::string_view(p.unit).empty()) continue;  // a count (links), not a quantity
            INFO(row.id << " " << p.key);
            ++bounded;
            CHECK(p.min == 1e-6);
            CHECK(p.max == 1e6);
            CHECK_FALSE(p.min_exclusive);
            const std::string base = std::string("scenario=") + row.id + "&" + p.key + "=";
            // The range's ends are in range (a rule across keys may still refuse a combination with
            // the other keys' defaults, as a bridge's span against its length: never this key's range).
            for (const char* end : {"0.000001", "1000000"})
                for (const ConfigError& e : parse_config(base + end).errors)
                    CHECK(e.message.find(std::string(p.key) + " must be a number") == std::string::npos);
            for (const char* below : {"9.9e-7", "0.00000099999999999", "1e-300", "0"}) {
                const ParseResult r = parse_config(base + below);
                REQUIRE(r.errors.size() == 1);
                CHECK(r.errors[0].message ==
                      std::string(p.key) + " must be a number from 1e-06 to 1000000; got '" + below + "'");
            }
        }
    }
    CHECK(bounded == 20);  // every mass, stiffness and G·M of the six rows (13), and the linked rows' masses,
                           // link lengths and the bridge's span (7)
    // The cloud's radius likewise.
    CHECK(parse_config("cloud=10&cloud_radius=0.000001").ok());
    const ParseResult radius = parse_config("cloud=10&cloud_radius=9e-7");
    REQUIRE(radius.errors.size() == 1);
    CHECK(radius.errors[0].message ==
          "cloud_radius must be a number from 1e-06 to 1000000 (metres along x, m/s along vx); got '9e-7'");
}

TEST_CASE("every allowed config is representable: start energy, forces and closed form finite at the range's ends") {
    // Each parameter component takes its range's ends, and, where allowed, 0, 1 and a tiny 1e-300
    // (products of tiny values only underflow towards 0). Every corner of the box where it has at
    // most 2^15 of them, and random picks from the wider sets.
    Xorshift next(0x9E3779B97F4A7C15ull);
    long long checked = 0, with_closed_form = 0;
    for (size_t s = 0; s < scenarios().size(); ++s) {
        const ScenarioInfo& row = scenarios()[s];
        std::vector<std::vector<double>> choices;  // per component
        for (const ParamSpec& p : row.params)
            for (int d = 0; d < p.dims; ++d) {
                std::vector<double> c = {p.min, p.max};
                for (double extra : {0.0, 1.0, 1e-300, -1e-300})
                    if (extra >= p.min && extra <= p.max && extra != p.min) c.push_back(extra);
                choices.push_back(c);
            }
        const size_t n = choices.size();
        const long long corners = 1LL << n;
        const long long samples = std::min<long long>(corners, 1LL << 15) + 4000;
        for (long long k = 0; k < samples; ++k) {
            std::vector<double> values(n);
            for (size_t i = 0; i < n; ++i)
                values[i] = k < corners && k < (1LL << 15) ? choices[i][(k >> i) & 1] : choices[i][next() % choices[i].size()];
            if (row.check && row.check(Params(row, values, default_scene_of(static_cast<int>(s))))) continue;  // refused by the row's cross-key rule
            const Scene scene = build_scene(static_cast<int>(s), values, duration_max);
            const System& sys = scene.system;
            std::vector<dvec2> a(scene.x0.size());
            accelerations(sys, scene.x0.data(), scene.v0.data(), a.data(), 0.0);
            bool finite = std::isfinite(energy(sys, scene.x0.data(), scene.v0.data())) &&
                          std::isfinite(dissipated_power(sys, scene.x0.data(), scene.v0.data())) && std::isfinite(scene.length_scale);
            for (dvec2 ai : a) finite = finite && std::isfinite(ai.x) && std::isfinite(ai.y);
            if (has_closed_form(sys, scene.x0.data(), scene.v0.data())) {
                ++with_closed_form;
                std::vector<dvec2> x(scene.x0.size()), v(scene.x0.size());
                for (double t : {1e-3, 1.0, duration_max}) {
                    exact_state(sys, scene.x0.data(), scene.v0.data(), t, x.data(), v.data());
                    for (size_t i = 0; i < x.size(); ++i)
                        finite = finite && std::isfinite(x[i].x) && std::isfinite(x[i].y) && std::isfinite(v[i].x) &&
                                 std::isfinite(v[i].y);
                }
            }
            ++checked;
            if (!finite) {
                std::string text;
                for (double value : values) text += format_number(value) + " ";
                FAIL_CHECK(row.id << ": not representable at " << text);
            }
        }
    }
    CHECK(checked > 50000);
    CHECK(with_closed_form > 1000);
}
