// A force law a user writes: one component of a force as an expression (issue 22 §3), e.g. a
// Duffing spring `-c1*x-c2*x^3` or a driven oscillator `-c1*x+c2*cos(c3*t)`. Parsed once into a
// small instruction list for a stack machine, evaluated with no allocation, and differentiated by
// forward-mode automatic differentiation (four tangents: x, y, vx, vy) in the same pass.
//
// Grammar (EBNF; whitespace — spaces and tabs — may stand between any two tokens):
//   expression = term { ("+" | "-") term } ;                      left-associative
//   term       = unary { ("*" | "/") unary } ;                    left-associative
//   unary      = "-" unary | power ;                              -x^2 is -(x^2)
//   power      = primary [ "^" unary ] ;                          right-associative: 2^3^2 = 2^9;
//                                                                 x^-2 is allowed
//   primary    = number | variable | function "(" arguments ")" | "(" expression ")" ;
//   arguments  = expression [ "," expression ] ;                  1 or 2, as the function takes
//   variable   = "x" | "y" | "vx" | "vy" | "t" | "m" | "c1" | "c2" | "c3" | "c4" ;
//   function   = "sin" | "cos" | "tan" | "exp" | "log" | "sqrt" | "abs"      (1 argument)
//              | "min" | "max" | "pow" | "atan2" ;                            (2 arguments)
//   number     = digit { digit | "." } [ ("e" | "E") [ "+" | "-" ] { digit } ] ;
// A number's text must be a number of the config format (parse_number, core/number_text.hpp)
// and finite; it has no sign (a minus before it is the operator). Names are case-sensitive.
//
// Limits (each refused with a problem pointing at its place):
//  - expr_max_length characters of text. A character is a byte that does not continue a UTF-8
//    sequence (any non-ASCII character is refused anyway); columns count the same way.
//  - expr_max_depth levels of nesting. The depth of a place in the text is the number of
//    parenthesised groups, function calls, unary minuses and ^ exponents around it: `x` is at
//    depth 0, `-x` 1, `sin((x))` 2, `x^-y` 2. Chains of + - * / add no depth (x+x+…+x is 0).
//  - expr_max_instructions instructions in the compiled list (a number, a variable, an operation
//    each; x^n with an integer literal n costs |n|+1, see below). The text limit keeps an
//    expression without integer powers below it.
//  - The canonical text (text()) is at most expr_max_length characters too, so that it always
//    compiles again: a number written shorter than format_number writes it (1e14) may make it
//    longer, which is refused.
//
// Integer powers: x^n and pow(x, n) where n is an integer literal, with or without a minus, and |n| ≤ 16,
// are repeated multiplications from left to right, ((x·x)·x)·…, and 1/(x^|n|) for negative n
// (x^0 = 1, x^1 = x). libm's pow differs in the last bit between glibc and the browser's
// WebAssembly libm; multiplication is exact IEEE arithmetic everywhere, so the native CLI and the
// page agree to the bit on the common laws (x^2, x^3, r^-2). So x^3 == x*x*x bit for bit. Every
// other exponent calls std::pow, as do sin, cos, … (those may differ across libms by an ulp).
//
// Derivatives (eval_grad): forward mode with the usual rules; abs has the derivative sign(a)
// (0 at 0); min and max the derivative of the branch they choose; pow with a non-constant
// exponent y·x^(y-1)·x' + x^y·log(x)·y' (the second term only where y' ≠ 0, so a constant
// exponent at x ≤ 0 gives no NaN from log). Non-finite values propagate; the caller decides.
//
// Exact IEEE double semantics: no fast-math, no contraction (the project builds with
// -ffp-contract=off), no constant folding: the list does what the text says, in its order.
#pragma once

#include "messages.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepwise {

// The variables, in the order of the `vars` array that eval and eval_grad read.
enum class ExprVar : unsigned char { x, y, vx, vy, t, m, c1, c2, c3, c4 };
constexpr int expr_var_count = 10;
// The variables whose derivatives eval_grad gives, in the order of its `grad` array.
constexpr int expr_grad_count = 4;  // x, y, vx, vy

constexpr int expr_max_length = 256;        // characters of text, and of the canonical text
constexpr int expr_max_depth = 24;          // nesting levels (see above)
constexpr int expr_max_instructions = 256;  // entries of the compiled list
constexpr int expr_max_int_power = 16;      // |n| of x^n computed by multiplication
// The evaluation stack: within one nesting level at most a pending sum, a pending product and a
// power's base or a function's first argument wait, plus the two slots of an integer power; compile
// checks the list's real need against it.
constexpr int expr_max_stack = 3 * (expr_max_depth + 1) + 2;

// The names, for messages, dictionaries and the page: the variables in ExprVar order, the functions.
const std::vector<std::string_view>& expr_variable_names();
const std::vector<std::string_view>& expr_function_names();
// The number of characters of `text` as columns count them (bytes that do not continue a UTF-8
// sequence).
int expr_characters(std::string_view text);

// What is wrong with a text: a message code (a row of message_table(), core/messages.cpp), its
// arguments and the 1-based column (character) the problem is at, from 1 to the length + 1 (the
// end). The arguments hold `got` (the text made printable), `column` and the code's own; the
// caller adds `key` (the config key the text came from, e.g. "fx") before message_text().
struct ExprProblem {
    std::string code;
    MessageArgs args;
    int column = 0;
};

// A compiled expression. A default-constructed one is the constant 0 (text "0"), what a force
// component left out means.
class Expression {
public:
    // Parses and compiles `text`; on failure nullopt, and `problem` says what and where.
    static std::optional<Expression> compile(std::string_view text, ExprProblem& problem);

    // The value at vars[expr_var_count] (indexed by ExprVar). Allocates nothing.
    double eval(const double* vars) const;
    // The value, and its derivatives by x, y, vx, vy in grad (forward mode, one pass). Allocates nothing.
    double eval_grad(const double* vars, double grad[expr_grad_count]) const;

    bool uses(ExprVar v) const { return (uses_ >> static_cast<unsigned>(v)) & 1u; }
    // The degree of the expression as a polynomial in `v`, every other variable held constant
    // (`-c1*x-c2*x^3`: 3 in x, 0 in y), or -1 when it is none: `v` under a function, a division
    // by it, or a power of it that is not a whole literal n ≥ 0. Read from the instruction list.
    int polynomial_degree(ExprVar v) const;
    // The 1-based character (as ExprProblem's columns count) at which `v` is first read in the
    // text compiled, or 0 when it is not read.
    int first_column(ExprVar v) const { return first_column_[static_cast<size_t>(v)]; }
    // The canonical text: no spaces, the fewest parentheses that keep the same tree, numbers as
    // format_number writes them. compile(text()) gives the same instruction list (same bits).
    const std::string& text() const { return text_; }
    int instructions() const { return static_cast<int>(code_.size()); }
    int stack_needed() const { return stack_; }

    enum class Op : unsigned char {
        push_var,
        push_const,
        neg,
        add,
        sub,
        mul,
        div,
        dup,       // [b] → [b, b]: an integer power starts
        mul_keep,  // [b, p] → [b, p·b]
        pow_end,   // [b, p] → [p]
        recip,     // [p] → [1/p]: a negative integer power
        one,       // [b] → [1]: x^0
        pow,
        sin,
        cos,
        tan,
        exp,
        log,
        sqrt,
        abs,
        min,
        max,
        atan2,
    };
    struct Instruction {
        Op op;
        unsigned char var;  // push_var
        double value;       // push_const
    };
    const std::vector<Instruction>& code() const { return code_; }

private:
    friend struct ExpressionAccess;
    std::vector<Instruction> code_ = {{Op::push_const, 0, 0.0}};
    std::string text_ = "0";
    std::uint16_t uses_ = 0;
    std::array<int, expr_var_count> first_column_{};
    int stack_ = 1;
};

}  // namespace stepwise
