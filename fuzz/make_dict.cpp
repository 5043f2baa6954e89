// Writes the fuzzers' dictionaries from the core's tables. fuzz/config.dict: every key, scenario
// id, integrator id, preset id and view id, so libFuzzer builds links from real words, and the
// ends of every range. fuzz/expression.dict: the written force law's names, operators and the
// numbers at its edges.
//   make_fuzz_dict [expression]            prints the dictionary (config's, or the expressions')
//   make_fuzz_dict [expression] --check F  exit 1 unless file F holds exactly that (a ctest runs it)
#include "config.hpp"
#include "expression.hpp"
#include "integrators.hpp"
#include "scenarios.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace stepwise;

namespace {

std::string dictionary() {
    std::string out =
        "# libFuzzer dictionary for fuzz/fuzz_config and fuzz/fuzz_simulation: every key (as \"key=\"),\n"
        "# scenario, integrator, preset and view id of the core's tables, a scene's and an expression's\n"
        "# words, then the ends of the ranges.\n"
        "# Generated; do not edit.\n"
        "# Regenerate: build/native/fuzz/make_fuzz_dict > fuzz/config.dict (ctest fuzz_dict_current checks it).\n";
    std::vector<std::string> words;
    std::set<std::string> seen;
    auto add = [&](const std::string& w) {
        if (seen.insert(w).second) words.push_back(w);
    };
    for (const SharedKey& key : shared_keys()) add(std::string(key.key) + "=");
    for (const ScenarioInfo& s : scenarios())
        for (const ParamSpec& p : s.params) add(std::string(p.key) + "=");
    for (const ScenarioInfo& s : scenarios()) add(s.id);
    for (const IntegratorInfo& i : integrators()) add(i.id);
    // A lane's settings (METHOD@SUBSTEPSxITERATIONS) and their bounds.
    for (const char* settings : {"@2", "@20x1", "@1x20", "x4"}) add(settings);
    add("@" + std::to_string(max_lane_substeps));
    add("x" + std::to_string(max_lane_iterations));
    for (const PresetInfo& p : presets()) add(p.id);
    for (const ViewInfo& v : views()) add(v.id);
    for (const LoopKindInfo& k : loop_kinds()) add(k.id);  // the game loop's values
    // A built scene's grammar (core/scene_spec.hpp): its key, kinds, fields, words and ends.
    add("scene=");
    for (const SceneKindInfo& k : scene_kinds()) {
        add(std::string(k.id) + ":");
        for (const SceneFieldSpec& f : k.fields) {
            add(std::string(",") + f.name + ":");
            for (const char* w : f.words) add(w);
        }
    }
    for (const char* w : {";", "b0", "b1", "a0", "a1", "b63", "b64"}) add(w);
    // The written force's keys come with the shared keys (fx=, fy=, c1= …); its expressions' words
    // (core/expression.hpp) and two laws to build on, so a link's fx holds real ones.
    for (std::string_view v : expr_variable_names()) add(std::string(v));
    for (std::string_view f : expr_function_names()) add(std::string(f) + "(");
    for (const char* w : {"-c1*x-c2*x^3", "-c1*x+c2*cos(c3*t)", "^", "*", "/", "(", ")"}) add(w);
    add(format_number(written_constant_max));
    add(format_number(-written_constant_max));
    // The ranges' ends, and the value just above an excluded minimum (5e-324 for "> 0"): the
    // extremes that a valid config may hold, where the numbers get hard.
    for (const ScenarioInfo& s : scenarios()) {
        for (const ParamSpec& p : s.params) {
            add(format_number(p.min));
            add(format_number(p.max));
            if (p.min_exclusive) add(format_number(std::nextafter(p.min, p.max)));
        }
    }
    for (double limit : {dt_min, dt_max, duration_min, duration_max}) add(format_number(limit));
    for (const std::string& w : words) out += "\"" + w + "\"\n";  // ids and keys hold no quote or backslash
    return out;
}

std::string expression_dictionary() {
    std::string out =
        "# libFuzzer dictionary for fuzz/fuzz_expression: the variables and functions of core/expression.hpp,\n"
        "# its operators, and numbers at the edges (integer powers, the double range).\n"
        "# Generated; do not edit.\n"
        "# Regenerate: build/native/fuzz/make_fuzz_dict expression > fuzz/expression.dict (ctest "
        "fuzz_expression_dict_current checks it).\n";
    std::vector<std::string> words;
    for (std::string_view v : expr_variable_names()) words.emplace_back(v);
    for (std::string_view f : expr_function_names()) words.push_back(std::string(f) + "(");
    for (const char* w : {"^", "^-", "-", "*", "/", "+", "(", ")", ",", "e-", "e+", "."}) words.emplace_back(w);
    // Integer powers end at expr_max_int_power; beyond it std::pow.
    for (int n : {0, 1, 2, 3, expr_max_int_power, expr_max_int_power + 1}) words.push_back(std::to_string(n));
    for (const char* n : {"0.5", "2.5", "1e308", "1e309", "5e-324", "1e-400", "1e14", "9.81"}) words.emplace_back(n);
    for (const std::string& w : words) out += "\"" + w + "\"\n";  // none holds a quote or backslash
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    const bool expression = argc > 1 && std::string(argv[1]) == "expression";
    if (expression) --argc, ++argv;
    const std::string expected = expression ? expression_dictionary() : dictionary();
    if (argc == 1) {
        std::fputs(expected.c_str(), stdout);
        return 0;
    }
    if (argc != 3 || std::string(argv[1]) != "--check") {
        std::fprintf(stderr, "usage: make_fuzz_dict [expression] [--check FILE]\n");
        return 2;
    }
    std::ifstream file(argv[2], std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    if (!file || text.str() != expected) {
        std::fprintf(stderr, "%s is not the dictionary of today's tables; regenerate it:\n  %s > %s\n", argv[2], argv[0],
                     argv[2]);
        return 1;
    }
    return 0;
}
