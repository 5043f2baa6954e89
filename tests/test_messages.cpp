// The core's messages as data (core/messages.hpp): every row of the table is given by some query,
// every message's English text is its row's template filled from its arguments, and no
// placeholder is left unfilled. The page builds its German sentences from the same codes and
// arguments (tests/web/language.test.mjs checks it has a template for every row).
#include "config.hpp"
#include "expression.hpp"
#include "integrators.hpp"
#include "messages.hpp"
#include "simulation.hpp"
#include "tables.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace stepwise;

namespace {

// A query for each message of the table (the first error it gives has that code).
const std::vector<std::pair<const char*, const char*>> message_cases = {
    {"too_many_pairs", ""},  // built below: 65 pairs
    {"more_errors", ""},     // built below: 21 bad values
    {"not_a_pair", "scenario=spring&oops"},
    {"no_key", "=1"},
    {"bad_percent_key", "k%zz=1"},
    {"bad_percent_value", "k=%z"},
    {"repeated_key", "k=1&k=2"},
    {"too_long", ""},  // built below: a value of 1,025 characters
    {"unknown_key", "scenario=spring&gm=1"},
    {"unknown_id", "view=sideways"},
    {"scenario_mismatch", "preset=damped_spring&scenario=orbit"},
    {"integrators_too_long", ""},  // built below
    {"integrator_empty", "integrators=rk4,,heun"},
    {"integrator_unknown", "integrators=rk5"},
    {"integrator_twice", "integrators=rk4,rk4"},
    {"too_many_lanes", ""},  // built below: 22 lanes
    {"lane_settings_form", "integrators=rk4@2y3"},
    {"lane_substeps_range", "integrators=rk4@0"},
    {"lane_iterations_range", "integrators=xpbd@2x0"},
    {"lane_passes", "integrators=xpbd@100x101"},
    {"lane_no_iterations", "integrators=rk4@2x3"},
    {"lane_adaptive", "integrators=rk45@2"},
    {"reference_settings", "integrators=reference@2"},
    {"equal_cost_and_settings", "integrators=rk4@2&equal_cost=1"},
    {"not_allowed", "k=-1"},
    {"too_many_steps", "duration=100000&dt=0.0001"},
    {"orbit_too_close", "scenario=orbit&x0=0,0"},
    {"compliance_too_stiff", "scenario=pendulum&compliance=1e-20"},
    {"span_out_of_reach", "scenario=bridge&span=100"},
    {"linked_no_cloud", "scenario=bridge&cloud=100"},
    {"scene_empty", "scenario=scene&scene=a:0,0"},
    {"scene_item_form", "scenario=scene&scene=b:0,0;;b:1,0"},
    {"scene_unknown_kind", "scenario=scene&scene=x:1"},
    {"scene_args", "scenario=scene&scene=b:0"},
    {"scene_field_form", "scenario=scene&scene=b:0,0,m:1,vx"},
    {"scene_unknown_field", "scenario=scene&scene=b:0,0,q:1"},
    {"scene_field_twice", "scenario=scene&scene=b:0,0,m:1,m:2"},
    {"scene_field", "scenario=scene&scene=b:0,0,m:-1"},
    {"scene_end_unknown", "scenario=scene&scene=b:0,0;l:b0,b3"},
    {"scene_self_join", "scenario=scene&scene=b:0,0;l:b0,b0"},
    {"scene_two_anchors", "scenario=scene&scene=a:0,0;a:1,0;b:0,0;s:a0,a1"},
    {"scene_zero_length", "scenario=scene&scene=b:0,0;b:0,0;l:b0,b1"},
    {"scene_too_many", "scenario=scene&scene=cloth:0,0,w:20,h:20,alpha:0.1"},
    {"scene_link_too_stiff", "scenario=scene&scene=b:0,0,m:1e-6;b:1,0;l:b0,b1,alpha:1e-9"},
    {"scene_joined_twice", "scenario=scene&scene=b:0,0;b:1,0;l:b0,b1;l:b1,b0"},
    {"scene_taut", "scenario=scene&scene=a:0,0;a:2,0;rope:a0,a1,n:4"},
    {"scene_field_unused", "scenario=scene&scene=a:0,0;b:1,0;rope:a0,b0,mend:2"},
    {"scene_central_too_close", "scenario=scene&gm=1&centre=0,0&scene=b:0,0"},
    {"linked_no_cloud_view", "scenario=bridge&view=cloud"},
    {"loop_key_without_loop", "hz=30"},
    {"loop_key_without_jitter", "loop=variable&seed=3"},
    {"loop_key_unread", "loop=variable&max_steps=4"},
    {"loop_sets_dt", "loop=fixed&dt=0.01"},
    {"loop_and_equal_cost", "loop=fixed&equal_cost=1"},
    {"loop_and_cloud", "loop=fixed&cloud=100"},
    {"loop_and_stepping_view", "loop=fixed&view=convergence"},
    {"variable_loop_and_stability", "loop=variable&view=stability"},
    {"expr_constant_missing", "fx=-c1*x-c2*x^3&c1=1"},
    {"written_constant_unused", "fx=-c1*x&c1=1&c2=3"},
    {"written_not_finite", "scenario=spring&x0=10,0&fx=-exp(exp(x))"},
    {"written_potential_not_finite", "scenario=spring&x0=2,0&fx=-1e308"},
};

// The written force law's messages (core/expression.hpp): an expression for each, compiled alone
// (the caller adds the key) and given as fx in a query (the parser adds it).
const std::vector<std::pair<const char*, std::string>> expression_cases = {
    {"expr_empty", ""},
    {"expr_too_long", std::string(257, '1')},
    {"expr_unexpected", "x#y"},
    {"expr_bad_number", "1.2.3"},
    {"expr_unknown_name", "-c1*x-z"},
    {"expr_operand_after", "x/"},
    {"expr_operand_before", "*x"},
    {"expr_missing_operator", "2x"},
    {"expr_unclosed", "(x+1"},
    {"expr_unmatched_close", "x+1)"},
    {"expr_call_without_parenthesis", "cos t"},
    {"expr_arguments", "min(x)"},
    {"expr_too_deep", std::string(25, '-') + "x"},
    {"expr_too_complex", "x^16*x^16*x^16*x^16*x^16*x^16*x^16*x^16*x^16*x^16*x^16*x^16*x^16*x^16*x^16"},
    {"expr_normal_too_long", "1e14+1e14+1e14+1e14+1e14+1e14+1e14+1e14+1e14+1e14+1e14+1e14+1e14+1e14+1e14+1e14+1e14"},
};

std::string built_query(const std::string& code) {
    std::string q;
    if (code == "too_many_pairs")
        for (int i = 0; i < 65; ++i) q += "a" + std::to_string(i) + "=1&";  // unknown keys are told after the split
    if (code == "more_errors")
        for (int i = 0; i < 21; ++i) q += "bad" + std::to_string(i) + "=1&";
    if (code == "too_long") q = "k=" + std::string(1025, '1');
    if (code == "integrators_too_long") q = "integrators=" + std::string(1025, 'a');
    if (code == "too_many_lanes") {
        q = "integrators=rk4";
        for (int i = 2; i <= 22; ++i) q += ",rk4@" + std::to_string(i);
    }
    return q;
}

}  // namespace

TEST_CASE("messages: every row of the table is given by a query, and its text is the row's template filled in") {
    std::set<std::string> given;
    for (const auto& [code, query] : message_cases) {
        INFO(code);
        const std::string q = *query ? std::string(query) : built_query(code);
        const ParseResult r = parse_config(q);
        REQUIRE_FALSE(r.errors.empty());
        bool found = false;
        for (const ConfigError& e : r.errors) {
            // Every message, whatever its code, is its row's template with its arguments, none left over.
            CHECK(e.message == message_text(e.code, e.args));
            CHECK(e.message.find('{') == std::string::npos);
            CHECK(message_arg(e.args, "key") == e.key);
            CHECK(message_arg(e.args, "got") == e.value);
            found = found || e.code == code;
        }
        CHECK(found);
        given.insert(code);
    }
    for (const auto& [code, text] : expression_cases) {
        INFO(code);
        ExprProblem p;
        REQUIRE_FALSE(Expression::compile(text, p).has_value());
        CHECK(p.code == code);
        MessageArgs args = {{"key", "fx"}};
        args.insert(args.end(), p.args.begin(), p.args.end());
        const std::string m = message_text(p.code, args);
        CHECK(m.find('{') == std::string::npos);
        CHECK(m.rfind("fx: ", 0) == 0);
        CHECK(!message_arg(args, "column").empty());
        const ParseResult r = parse_config("fx=" + text);
        REQUIRE_FALSE(r.errors.empty());
        CHECK(r.errors[0].code == code);
        CHECK(r.errors[0].key == "fx");
        CHECK(r.errors[0].message == message_text(r.errors[0].code, r.errors[0].args));
        CHECK(message_arg(r.errors[0].args, "column") == message_arg(args, "column"));
        given.insert(code);
    }
    // Notes, not errors: why a written force has no potential (the run goes on; stderr and JSON
    // say it), from the system built for the query.
    const std::vector<std::pair<const char*, const char*>> note_cases = {
        {"written_no_potential_origin", "scenario=projectile&g=0&x0=1,0&fx=1/x"},
        {"written_no_potential_not_finite", "scenario=projectile&g=0&x0=2,0&fx=sqrt((x-0.5)*(x-1.5))"},
        {"written_no_potential_pole", "scenario=projectile&g=0&x0=2,0&fx=tan(x)"},
    };
    for (const auto& [code, query] : note_cases) {
        INFO(code);
        const ParseResult r = parse_config(query);
        REQUIRE(r.errors.empty());
        const WrittenLaw& w = build_scene(r.config).system.written;
        CHECK(w.no_potential == code);
        const std::string m = message_text(w.no_potential, w.no_potential_args);
        CHECK(m.find('{') == std::string::npos);
        CHECK(m.rfind("fx: '", 0) == 0);
        given.insert(code);
    }
    for (const MessageInfo& row : message_table()) {
        INFO(row.code);
        CHECK(given.count(row.code) == 1);
    }
    CHECK(given.size() == message_table().size());
}

TEST_CASE("messages: the texts a user reads, word for word") {
    auto first = [](const char* q) { return parse_config(q).errors.at(0); };
    const ConfigError k = first("k=-1");
    CHECK(k.code == "not_allowed");
    CHECK(message_arg(k.args, "allowed") == "number");
    CHECK(k.message == "k must be a number from 1e-06 to 1000000; got '-1'");
    CHECK(first("dt=0").message == "dt must be a number from 1e-09 to 10; got '0'");
    CHECK(first("cloud=1.5").message == "cloud must be a whole number from 0 (off) to 1000000; got '1.5'");
    CHECK(first("equal_cost=2").message == "equal_cost must be 0 (off) or 1 (on); got '2'");
    CHECK(first("loop=sometimes").message == "loop must be fixed, variable or accumulator; got 'sometimes'");
    CHECK(first("loop=fixed&hz=0").message == "hz must be a number from 1 to 1000 (frames per second); got '0'");
    CHECK(first("loop=fixed&dt=0.01").message ==
          "dt=0.01 cannot be combined with loop=fixed: the loop sets the physics step, 1/(hz·substeps) (1/hz a frame "
          "for loop=variable); drop dt and set hz and substeps, or drop loop; got '0.01'");
    CHECK(first("hz=30").message ==
          "hz is a setting of the game loop: add loop=fixed (it is read by loop=fixed, variable and accumulator) or "
          "drop hz; got '30'");
    CHECK(first("scenario=bridge&span=100").message ==
          "span must be at least length/1000 = 0.001 m and less than links × length = 12 m (a bridge sags between "
          "its anchors); got '100'");
    CHECK(first("duration=100000&dt=0.0001").message == "duration / dt must be at most 10000000 steps; got '100000 / 0.0001'");
    CHECK(first("scenario=spring&gm=1").message.rfind("unknown key 'gm' for scenario spring; known keys: v, scenario", 0) == 0);
}

TEST_CASE("messages: every allowed form and message template names only arguments its users give") {
    // {name} placeholders are words; the forms say a range with min and max, or a fixed choice.
    for (const MessageInfo& row : allowed_forms()) {
        INFO(row.code);
        const std::string text = row.text;
        CHECK(text.find("{allowed}") == std::string::npos);
    }
    // The one serialisation of the tables holds both tables.
    const std::string json = tables_json({{"page_limit", 7}});
    CHECK(json.find("\"code\": \"not_allowed\"") != std::string::npos);
    CHECK(json.find("\"code\": \"whole_off\"") != std::string::npos);
    CHECK(json.find("\"page_limit\": 7") != std::string::npos);
}

TEST_CASE("tables: every integrator's family is a row of the families table, every shared key has a group") {
    for (const IntegratorInfo& i : integrators()) {
        INFO(i.id);
        bool found = false;
        for (const FamilyInfo& f : integrator_families()) found = found || std::string(f.id) == i.family;
        CHECK(found);
    }
    const std::set<std::string> groups = {"link", "system", "run", "study", "loop", "force", "page"};
    for (const SharedKey& k : shared_keys()) {
        INFO(k.key);
        CHECK(groups.count(k.group) == 1);
        // Each is a key the parser reads: alone with a bad value, the message names it (never "unknown key").
        const ParseResult r = parse_config(std::string(k.key) + "=%%");
        REQUIRE_FALSE(r.errors.empty());
        CHECK(r.errors[0].code != "unknown_key");
    }
}
