#include "messages.hpp"

#include "table_lookup.hpp"

namespace stepwise {

// Arguments every message may use: key (the key concerned) and got (the offending value, made
// printable); the others are named in their rows.
const std::vector<MessageInfo>& message_table() {
    static const std::vector<MessageInfo> table = {
        // The pairs of the query.
        {.code = "too_many_pairs", .text = "too many key=value pairs; at most {max} are read"},
        {.code = "more_errors", .text = "more errors were found; fix the ones above first"},
        {.code = "not_a_pair", .text = "'{got}' is not a key=value pair"},
        {.code = "no_key", .text = "the pair '{got}' has no key; write key=value, e.g. k=15"},
        {.code = "bad_percent_key", .text = "broken percent-encoding in key '{got}' (use %XX with two hex digits)"},
        {.code = "bad_percent_value",
         .text = "broken percent-encoding in the value of {key}: '{got}' (use %XX with two hex digits)"},
        {.code = "repeated_key", .text = "key '{key}' is given more than once (again as '{got}'); give each key once"},
        {.code = "too_long", .text = "the value of {key}, '{got}', is too long ({length} characters; at most {max})"},
        // Names from the tables.
        {.code = "unknown_key", .text = "unknown key '{key}' for scenario {scenario}; known keys: {known}"},
        {.code = "unknown_id", .text = "unknown {key} '{got}'; known: {known}"},
        {.code = "scenario_mismatch",
         .text = "scenario '{got}' does not match preset '{preset}', which is a {scenario} scenario; drop one of them"},
        {.code = "integrators_too_long",
         .text = "integrators: the list '{got}' is too long ({length} characters; at most {max})"},
        {.code = "too_many_lanes", .text = "integrators: {count} lanes in '{got}'; at most {max}"},
        {.code = "integrator_empty",
         .text = "integrators: empty name in the list '{got}'; separate integrator ids with single commas"},
        {.code = "integrator_unknown", .text = "integrators: unknown integrator '{got}'; known: {known}"},
        {.code = "integrator_twice",
         .text = "integrators: '{got}' is listed twice; list each lane once (the same method with other settings, "
                 "such as xpbd@20x1 beside xpbd@1x20, is another lane)"},
        // A lane's settings: METHOD@SUBSTEPS or METHOD@SUBSTEPSxITERATIONS.
        {.code = "lane_settings_form",
         .text = "integrators: '{got}' is not METHOD, METHOD@SUBSTEPS or METHOD@SUBSTEPSxITERATIONS (whole numbers, "
                 "e.g. xpbd@20x1 or semi_implicit_euler@20)"},
        {.code = "lane_substeps_range",
         .text = "integrators: '{got}': substeps must be a whole number from 1 to {max}"},
        {.code = "lane_iterations_range",
         .text = "integrators: '{got}': iterations must be a whole number from 1 to {max}"},
        {.code = "lane_passes",
         .text = "integrators: '{got}': {substeps} substeps × {iterations} iterations is {passes} passes a step; at "
                 "most {max}"},
        {.code = "lane_no_iterations",
         .text = "integrators: '{got}': {method} has no iterations (only the game-physics solvers do); write "
                 "{method}@{substeps}"},
        {.code = "lane_adaptive",
         .text = "integrators: '{got}': {method} chooses its own substeps (it is adaptive); write {method}"},
        {.code = "reference_settings", .text = "integrators: '{got}': the reference takes no settings; write reference"},
        {.code = "equal_cost_and_settings",
         .text = "{key}={got} cannot be combined with lane settings ({lanes} in integrators): equal cost chooses "
                 "each lane's step itself; drop one of them"},
        // Values.
        {.code = "not_allowed", .text = "{key} must be {allowed}; got '{got}'"},
        {.code = "too_many_steps", .text = "duration / dt must be at most {max} steps; got '{got}'"},
        // Rules across a scenario's keys (core/scenarios.cpp).
        {.code = "orbit_too_close",
         .text = "x0 must be at least {min} m from the central body at (0,0) (two numbers 'x,y', each from {lo} to "
                 "{hi}); got '{got}'"},
        {.code = "compliance_too_stiff",
         .text = "compliance must be 0 (rigid) or at least {min} m/N for the lightest body's mass {mass} kg "
                 "(stiffness/mass at most 1e12), and at most {max}; got '{got}'"},
        {.code = "span_out_of_reach",
         .text = "span must be at least length/1000 = {min} m and less than links × length = {max} m (a bridge sags "
                 "between its anchors); got '{got}'"},
        // A built scene (core/scene_spec.hpp): {item} counts items from 1, {got} is the item's text.
        {.code = "scene_empty", .text = "scene: '{got}' makes no body; write at least one, e.g. scene=b:0,0"},
        {.code = "scene_item_form",
         .text = "scene: item {item}, '{got}', is not KIND:ARGUMENTS (e.g. b:0,1,m:2); items are separated by ';' and "
                 "the kinds are {known}"},
        {.code = "scene_unknown_kind", .text = "scene: item {item}, '{got}': unknown kind '{kind}'; known: {known}"},
        {.code = "scene_args", .text = "scene: item {item}, '{got}': a {name} is written {form}"},
        {.code = "scene_field_form", .text = "scene: item {item}, '{got}': '{field}' is not NAME:VALUE (e.g. m:2)"},
        {.code = "scene_unknown_field",
         .text = "scene: item {item}, '{got}': a {name} has no field '{field}'; its fields: {known}"},
        {.code = "scene_field_twice", .text = "scene: item {item}, '{got}': {field} is given twice; give it once"},
        {.code = "scene_field", .text = "scene: item {item}, '{got}': {field} must be {allowed}; got '{value}'"},
        {.code = "scene_end_unknown",
         .text = "scene: item {item}, '{got}': {end} names no {what} made before it (there are {count}, counted from 0)"},
        {.code = "scene_self_join", .text = "scene: item {item}, '{got}': it joins {end} to itself; join two ends"},
        {.code = "scene_two_anchors",
         .text = "scene: item {item}, '{got}': it joins two anchors, which never move; put a body at one end at least"},
        {.code = "scene_zero_length",
         .text = "scene: item {item}, '{got}': its ends start at the same place, so a link's rest length would be 0; "
                 "move an end or give rest (at least {min} m)"},
        {.code = "scene_too_many", .text = "scene: item {item}, '{got}': the scene would have {count} {what}; at most {max}"},
        {.code = "scene_link_too_stiff",
         .text = "scene: item {item}, '{got}': alpha must be 0 (rigid) or at least {min} m/N for the lighter end's mass "
                 "{mass} kg (stiffness/mass at most 1e12)"},
        {.code = "scene_joined_twice",
         .text = "scene: item {item}, '{got}': {a} and {b} are joined by a link already (item {other}); a second one "
                 "adds nothing and makes rigid links' equations singular"},
        {.code = "scene_taut",
         .text = "scene: item {item}, '{got}': rigid links pulled straight between two anchors {distance} m apart "
                 "cannot move and hold no defined tension; let them sag (a rope's len above {min} m) or give alpha "
                 "above 0"},
        {.code = "scene_field_unused",
         .text = "scene: item {item}, '{got}': {field} is only read on a rope ending at a new body (rope:END,X,Y); "
                 "drop it"},
        {.code = "scene_central_too_close",
         .text = "{key} must be at least {min} m from every body (body {body} starts closer); got '{got}'"},
        // A linked system and the phase cloud.
        {.code = "linked_no_cloud",
         .text = "{key}={got} cannot be used here: {scenario} has no phase cloud ({why}); the pendulum and the chain "
                 "have one, in the first link's angle and its rate; drop cloud (0 is allowed)"},
        {.code = "linked_no_cloud_view",
         .text = "{key}={got} cannot be used here: {scenario} has no phase cloud ({why}); the pendulum and the chain "
                 "have one, in the first link's angle and its rate; use another view"},
        // The game loop's rules (core/config.cpp, check_loop).
        {.code = "loop_key_without_loop",
         .text = "{key} is a setting of the game loop: add loop={loop} (it is read by loop={loops}) or drop {key}; "
                 "got '{got}'"},
        {.code = "loop_key_without_jitter",
         .text = "{key} only matters with jitter > 0 (it seeds the frame lengths); set jitter or drop {key}; got '{got}'"},
        {.code = "loop_key_unread",
         .text = "{key} has no effect with loop={loop} (it is read by loop={loops}); drop {key} or choose such a "
                 "loop; got '{got}'"},
        {.code = "loop_sets_dt",
         .text = "{key}={got} cannot be combined with loop={loop}: the loop sets the physics step, 1/(hz·substeps) "
                 "(1/hz a frame for loop=variable); drop dt and set hz and substeps, or drop loop; got '{got}'"},
        {.code = "loop_and_equal_cost",
         .text = "{key}={got} cannot be combined with loop={loop}: equal cost steps each method at its own multiple "
                 "of dt, a game loop steps every method at the frame's step; drop one of them; got '{got}'"},
        {.code = "loop_and_cloud",
         .text = "{key}={got} cannot be combined with loop={loop}: the phase-space cloud is stepped at a fixed dt, "
                 "not by frames; drop one of them; got '{got}'"},
        {.code = "loop_and_stepping_view",
         .text = "{key}={got} cannot be combined with loop={loop}: that view halves or fixes dt itself; use "
                 "view=motion (or view=stability with loop=fixed or accumulator); got '{got}'"},
        {.code = "variable_loop_and_stability",
         .text = "{key}={got} cannot be combined with loop={loop}: a variable loop has no one step to place on the "
                 "stability map; use loop=fixed or accumulator; got '{got}'"},
        // A written force law's expression (core/expression.hpp): {got} is the expression, {column}
        // the 1-based character the problem is at.
        {.code = "expr_empty", .text = "{key}: the expression is empty ('{got}'); write one such as -c1*x, or leave {key} out"},
        {.code = "expr_too_long", .text = "{key}: the expression '{got}' is too long ({length} characters; at most {max})"},
        {.code = "expr_unexpected",
         .text = "{key}: unexpected '{char}' at character {column} of '{got}'; an expression holds numbers, names, "
                 "+ - * / ^, parentheses and the comma between a function's two arguments"},
        {.code = "expr_bad_number",
         .text = "{key}: '{number}' at character {column} of '{got}' is not a number (digits with an optional point "
                 "and exponent, e.g. 0.5 or 2e-3, within the double range)"},
        {.code = "expr_unknown_name",
         .text = "{key}: unknown name '{name}' at character {column} of '{got}'; known: {variables} and the functions "
                 "{functions}"},
        {.code = "expr_operand_after", .text = "{key}: '{op}' at character {column} of '{got}' needs a value after it"},
        {.code = "expr_operand_before", .text = "{key}: '{op}' at character {column} of '{got}' needs a value before it"},
        {.code = "expr_missing_operator",
         .text = "{key}: an operator (+ - * / ^) is missing before character {column} of '{got}'"},
        {.code = "expr_unclosed", .text = "{key}: the '(' at character {column} of '{got}' is never closed; add a ')'"},
        {.code = "expr_unmatched_close", .text = "{key}: the ')' at character {column} of '{got}' closes no '('"},
        {.code = "expr_call_without_parenthesis",
         .text = "{key}: the function {name} at character {column} of '{got}' takes its arguments in parentheses: "
                 "{form}"},
        {.code = "expr_arguments",
         .text = "{key}: wrong number of arguments to {name} at character {column} of '{got}' ({count} given); write "
                 "{form}"},
        {.code = "expr_too_deep",
         .text = "{key}: '{got}' nests too deeply at character {column}: at most {max} levels of parentheses, "
                 "function calls, minus signs and ^"},
        {.code = "expr_too_complex",
         .text = "{key}: '{got}' needs {count} instructions, more than {max} from character {column} on (x^n with a "
                 "whole n costs n + 1)"},
        {.code = "expr_constant_missing",
         .text = "{key}: '{got}' reads the constant {name} at character {column}, but the link gives no {name}; add "
                 "{name}=NUMBER (from {min} to {max})"},
        // The written force's rules across keys (core/config.cpp, check_written).
        {.code = "written_not_finite",
         .text = "{key}: '{got}' is not a finite number where body {body} starts (x = {x}, y = {y}, vx = {vx}, "
                 "vy = {vy}, t = 0); a written force must be finite where the motion starts"},
        {.code = "written_potential_not_finite",
         .text = "{key}: the potential of '{got}' (minus its integral from 0) is not a finite number where body "
                 "{body} starts (x = {x}, y = {y}); a force that reads only its own coordinate needs a finite one "
                 "there"},
        // Notes, not errors: why a written force that reads only its own coordinate has no potential
        // (WrittenForce::decide_potential); the run goes on, and its energy leaves out the force's work.
        {.code = "written_no_potential_origin",
         .text = "{key}: '{got}' has no potential: it is not a finite number at {axis} = 0, where its potential "
                 "would be zero; the energy leaves out this force's work"},
        {.code = "written_no_potential_not_finite",
         .text = "{key}: '{got}' has no potential: it is not a finite number at {axis} = {near}, between 0 and body "
                 "{body}'s start ({axis} = {start}), so its integral from 0 does not exist; the energy leaves out "
                 "this force's work"},
        {.code = "written_no_potential_pole",
         .text = "{key}: '{got}' has no potential: its integral from 0 to body {body}'s start ({axis} = {start}) "
                 "does not converge near {axis} = {near} (a pole, or a singularity too sharp to integrate to "
                 "1e-13); the energy leaves out this force's work"},
        {.code = "written_constant_unused",
         .text = "{key}={got} is read by nothing: neither fx nor fy uses {key}; use it in the force law or drop {key}"},
        {.code = "expr_normal_too_long",
         .text = "{key}: '{got}' is {length} characters long in its normal form '{normal}' (numbers written out, "
                 "1e14 as 100000000000000); at most {max}"},
    };
    return table;
}

const std::vector<MessageInfo>& allowed_forms() {
    static const std::vector<MessageInfo> table = {
        {.code = "number", .text = "a number from {min} to {max}"},
        {.code = "number_noted", .text = "a number from {min} to {max} ({note})"},
        {.code = "number_above", .text = "a number > {min} and at most {max}"},
        {.code = "number_below", .text = "a number from {min} to below {max}"},
        {.code = "number_below_noted", .text = "a number from {min} to below {max} ({note})"},
        {.code = "whole", .text = "a whole number from {min} to {max}"},
        {.code = "whole_off", .text = "a whole number from {min} (off) to {max}"},
        {.code = "pair", .text = "two numbers 'x,y', each from {min} to {max}"},
        {.code = "pair_above", .text = "two numbers 'x,y', each > {min} and at most {max}"},
        {.code = "switch", .text = "0 (off) or 1 (on)"},
        {.code = "loop_kind", .text = "fixed, variable or accumulator"},
        {.code = "version", .text = "1 (the link format's version)"},
        {.code = "zero_means_m", .text = "0 (the same as m) or from {min} to {max} kg"},
        {.code = "word", .text = "one of {words}"},
    };
    return table;
}

std::string_view message_arg(const MessageArgs& args, std::string_view name) {
    for (const MessageArg& a : args)
        if (a.name == name) return a.value;
    return {};
}

namespace {

std::string fill(std::string_view text, const MessageArgs& args) {
    std::string out;
    while (!text.empty()) {
        const size_t open = text.find('{');
        const size_t close = open == std::string_view::npos ? open : text.find('}', open);
        if (close == std::string_view::npos) {
            out += text;
            break;
        }
        out += text.substr(0, open);
        const std::string_view name = text.substr(open + 1, close - open - 1);
        bool found = false;
        for (const MessageArg& a : args)
            if (a.name == name) {
                // {allowed} is itself a form, filled from the same arguments.
                out += name == "allowed" ? allowed_text(args) : a.value;
                found = true;
                break;
            }
        if (!found) out += text.substr(open, close - open + 1);
        text.remove_prefix(close + 1);
    }
    return out;
}

}  // namespace

std::string message_text(std::string_view code, const MessageArgs& args) {
    const int row = index_of_id(message_table(), code, &MessageInfo::code);
    return row < 0 ? std::string(code) : fill(message_table()[static_cast<size_t>(row)].text, args);
}

std::string allowed_text(const MessageArgs& args) {
    const std::string_view form = message_arg(args, "allowed");
    const int row = index_of_id(allowed_forms(), form, &MessageInfo::code);
    if (row < 0) return std::string(form);
    MessageArgs inner;  // without `allowed`, which would name itself
    for (const MessageArg& a : args)
        if (a.name != "allowed") inner.push_back(a);
    return fill(allowed_forms()[static_cast<size_t>(row)].text, inner);
}

}  // namespace stepwise
