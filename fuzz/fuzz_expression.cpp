// libFuzzer target: a written force law's expression (core/expression.hpp) on any bytes. For
// every input:
//  - it compiles, or gives a problem whose code is a row of message_table(), whose column is
//    within [1, length + 1] (length in characters, expr_characters) and is its `column` argument,
//    and whose message (with the key fx) is valid UTF-8, names the key and leaves no {name};
//  - when it compiles: at most expr_max_instructions instructions and expr_max_stack stack
//    slots; the canonical text is at most expr_max_length characters, compiles again to the same
//    text and the same instruction list (bit for bit), and eval and eval_grad on a few sets of
//    variables (0, ordinary, negative, huge, tiny) give the same value, bit for bit, with no
//    crash (non-finite values are allowed: the caller stops a lane on them);
//  - nothing throws, and no sanitizer (ASan, UBSan) reports anything.
// Run by scripts/fuzz.sh; docs/fuzzing.md says what a finding looks like.
#include "checks.hpp"
#include "expression.hpp"
#include "messages.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

using namespace stepwise;
using fuzz_checks::fail;
using fuzz_checks::valid_utf8;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_problem(const ExprProblem& p, std::string_view input) {
    bool known = false;
    for (const MessageInfo& row : message_table()) known = known || p.code == row.code;
    if (!known) fail("a problem whose code is no row of the message table: '" + p.code + "'", input);
    const int length = expr_characters(input);
    if (p.column < 1 || p.column > length + 1)
        fail("a column outside [1, length + 1]: " + std::to_string(p.column) + " of " + std::to_string(length), input);
    if (message_arg(p.args, "column") != std::to_string(p.column)) fail("the column argument is not the column", input);
    MessageArgs args = {{"key", "fx"}};
    args.insert(args.end(), p.args.begin(), p.args.end());
    const std::string m = message_text(p.code, args);
    if (!valid_utf8(m)) fail("a message that is not valid UTF-8: " + m, input);
    if (m.rfind("fx: ", 0) != 0) fail("a message that does not name its key first: " + m, input);
    // No {name} left unfilled (the input's own text may hold braces: read the template filled
    // with the arguments' values made brace-free).
    MessageArgs plain = args;
    for (MessageArg& a : plain)
        for (char& c : a.value)
            if (c == '{' || c == '}') c = '_';
    const std::string filled = message_text(p.code, plain);
    if (filled.find('{') != std::string::npos) fail("a message with an argument left unfilled: " + filled, input);
}

void check_compiled(const Expression& e, std::string_view input) {
    if (e.instructions() < 1 || e.instructions() > expr_max_instructions) fail("an instruction count outside the limit", input);
    if (e.stack_needed() < 1 || e.stack_needed() > expr_max_stack) fail("a stack need outside the limit", input);
    const std::string& text = e.text();
    if (static_cast<int>(text.size()) > expr_max_length) fail("a canonical text over the length limit: " + text, input);
    ExprProblem p;
    const std::optional<Expression> again = Expression::compile(text, p);
    if (!again) fail("the canonical text '" + text + "' does not compile: " + p.code, input);
    if (again->text() != text) fail("the canonical text '" + text + "' compiles to another: '" + again->text() + "'", input);
    if (again->instructions() != e.instructions()) fail("the canonical text '" + text + "' compiles to other instructions", input);
    for (size_t i = 0; i < e.code().size(); ++i) {
        const Expression::Instruction &a = e.code()[i], &b = again->code()[i];
        if (a.op != b.op || a.var != b.var || !same_bits(a.value, b.value))
            fail("the canonical text '" + text + "' compiles to other instructions", input);
    }
    const double sets[][expr_var_count] = {
        {0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
        {0.7, -1.3, 2.5, -0.4, 1.25, 2, 15, 0.5, 3, -2},
        {-3, 4, -5, 6, 100, 0.001, -1, 1e-3, 1e3, 7},
        {1e300, -1e300, 1e-300, -1e-300, 1e10, 1e6, 1e308, -1e308, 5e-324, 2},
    };
    for (const auto& vars : sets) {
        double g[expr_grad_count];
        const double v = e.eval(vars);
        const double w = e.eval_grad(vars, g);
        if (!same_bits(v, w) && !(std::isnan(v) && std::isnan(w)))
            fail("eval and eval_grad differ: " + std::to_string(v) + " and " + std::to_string(w), input);
        const double u = again->eval(vars);
        if (!same_bits(u, v) && !(std::isnan(u) && std::isnan(v))) fail("the canonical text evaluates to another value", input);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    ExprProblem problem;
    const std::optional<Expression> e = Expression::compile(input, problem);
    if (e) {
        check_compiled(*e, input);
    } else {
        check_problem(problem, input);
    }
    return 0;
}
