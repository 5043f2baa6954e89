// The written force law's expressions (core/expression.hpp): precedence, every function, the
// derivatives, integer powers as products, the canonical text and its round trip, every problem
// with its column, the limits.
#include "expression.hpp"
#include "helpers.hpp"
#include "messages.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace stepwise;

namespace {

// x=2, y=3, vx=5, vy=7, t=0.5, m=2, c1=1.5, c2=0.25, c3=3, c4=-2
struct Vars {
    double v[expr_var_count] = {2, 3, 5, 7, 0.5, 2, 1.5, 0.25, 3, -2};
    Vars& set(ExprVar var, double value) {
        v[static_cast<int>(var)] = value;
        return *this;
    }
    double operator[](ExprVar var) const { return v[static_cast<int>(var)]; }
};

Expression compiled(const std::string& text) {
    ExprProblem p;
    const std::optional<Expression> e = Expression::compile(text, p);
    INFO("'" << text << "': " << p.code << " at " << p.column);
    REQUIRE(e.has_value());
    return *e;
}
double value(const std::string& text, const Vars& vars = {}) { return compiled(text).eval(vars.v); }

ExprProblem problem(const std::string& text) {
    ExprProblem p;
    INFO("'" << text << "'");
    REQUIRE_FALSE(Expression::compile(text, p).has_value());
    return p;
}
// Its English message, for the key fx.
std::string message(const ExprProblem& p) {
    MessageArgs args = {{"key", "fx"}};
    args.insert(args.end(), p.args.begin(), p.args.end());
    return message_text(p.code, args);
}

// `term` n times, joined by `between`.
std::string repeated(const std::string& term, const std::string& between, int n) {
    std::string out = term;
    for (int i = 1; i < n; ++i) out += between + term;
    return out;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool same_code(const Expression& a, const Expression& b) {
    if (a.instructions() != b.instructions()) return false;
    for (size_t i = 0; i < a.code().size(); ++i) {
        const Expression::Instruction &p = a.code()[i], &q = b.code()[i];
        if (p.op != q.op || p.var != q.var || !same_bits(p.value, q.value)) return false;
    }
    return true;
}

}  // namespace

TEST_CASE("expression: precedence and associativity") {
    CHECK(value("-x^2") == -4);                 // ^ binds tighter than unary minus
    CHECK(value("(-x)^2") == 4);
    CHECK(value("2^3^2") == 512);               // right-associative: 2^9
    CHECK(value("(2^3)^2") == 64);
    CHECK(value("-2^2") == -4);
    CHECK(value("2^-1") == 0.5);
    CHECK(value("x^-2") == 0.25);               // x = 2
    CHECK(value("x^-y^2") == std::pow(2.0, -9.0));  // x^(-(y^2)): std::pow, the exponent is no literal
    CHECK(value("x-y-vx") == -6);               // (2-3)-5
    CHECK(value("x-(y-vx)") == 4);
    CHECK(value("x/y/vx") == (2.0 / 3.0) / 5.0);
    CHECK(value("x/(y/vx)") == 2.0 / (3.0 / 5.0));
    CHECK(value("x+y*vx") == 17);
    CHECK(value("(x+y)*vx") == 25);
    CHECK(value("x*y^2") == 18);
    CHECK(value("-x*y") == -6);
    CHECK(value("x*-y") == -6);
    CHECK(value("x--y") == 5);
    CHECK(value("--x") == 2);
    CHECK(value("-x+y") == 1);
    CHECK(value("x - y + vx") == 4);
    CHECK(value("1 - 2*3 + 8/4/2 - 2^2^-1") == 1.0 - 6.0 + 1.0 - std::pow(2.0, 0.5));
    CHECK(value("m*t+c4") == -1);
    CHECK(value("c1+c2+c3+c4") == 2.75);
    CHECK(value("vy/vx") == 7.0 / 5.0);
    CHECK(value("0.5e1+.5") == 5.5);
}

TEST_CASE("expression: every function equals its std:: function") {
    for (double x : {0.3, 1.7, -0.8, 2.5, 0.0, -3.25}) {
        const Vars v = Vars().set(ExprVar::x, x);
        INFO(x);
        CHECK(same_bits(value("sin(x)", v), std::sin(x)));
        CHECK(same_bits(value("cos(x)", v), std::cos(x)));
        CHECK(same_bits(value("tan(x)", v), std::tan(x)));
        CHECK(same_bits(value("exp(x)", v), std::exp(x)));
        CHECK(same_bits(value("log(x)", v), std::log(x)));    // NaN below 0, -inf at 0
        CHECK(same_bits(value("sqrt(x)", v), std::sqrt(x)));
        CHECK(same_bits(value("abs(x)", v), std::fabs(x)));
        for (double y : {0.3, -1.5, 4.0, 0.0}) {
            const Vars w = Vars().set(ExprVar::x, x).set(ExprVar::y, y);
            INFO(y);
            CHECK(same_bits(value("min(x,y)", w), std::min(x, y)));
            CHECK(same_bits(value("max(x,y)", w), std::max(x, y)));
            CHECK(same_bits(value("pow(x,y)", w), std::pow(x, y)));
            CHECK(same_bits(value("x^y", w), std::pow(x, y)));
            CHECK(same_bits(value("atan2(x,y)", w), std::atan2(x, y)));
        }
    }
    CHECK(value("pow(2,10)") == 1024);
    CHECK(value("pow(x,-1)") == 0.5);
}

TEST_CASE("expression: the Duffing spring and the driven oscillator") {
    const Vars v;  // x = 2, c1 = 1.5, c2 = 0.25, c3 = 3, t = 0.5
    CHECK(value("-c1*x-c2*x^3", v) == -5);  // -3 - 0.25·8
    CHECK(value("-c1*x+c2*cos(c3*t)", v) == -1.5 * 2 + 0.25 * std::cos(3 * 0.5));
    const Vars w = Vars().set(ExprVar::x, -0.7).set(ExprVar::c1, 1).set(ExprVar::c2, 0.1);
    CHECK(value("-c1*x-c2*x^3", w) == -1 * -0.7 - 0.1 * (-0.7 * -0.7 * -0.7));
    // Written the other way round, the same numbers.
    CHECK(value("-(c1*x + c2*x*x*x)", w) == -(1 * -0.7 + 0.1 * -0.7 * -0.7 * -0.7));
}

TEST_CASE("expression: derivatives against their closed forms") {
    double g[expr_grad_count];
    const Vars v;  // x = 2, y = 3, vx = 5, vy = 7, t = 0.5, c1 = 1.5, c2 = 0.25, c3 = 3
    SECTION("Duffing: d/dx (-c1*x - c2*x^3) = -c1 - 3·c2·x²") {
        CHECK(compiled("-c1*x-c2*x^3").eval_grad(v.v, g) == -5);
        CHECK(g[0] == -1.5 - 3 * 0.25 * 4);
        CHECK(g[1] == 0);
        CHECK(g[2] == 0);
        CHECK(g[3] == 0);
    }
    SECTION("the driven oscillator: only x moves it; t is not differentiated") {
        compiled("-c1*x+c2*cos(c3*t)").eval_grad(v.v, g);
        CHECK(g[0] == -1.5);
        CHECK(g[1] == 0);
    }
    SECTION("sin(x*y)") {
        CHECK(compiled("sin(x*y)").eval_grad(v.v, g) == std::sin(6.0));
        CHECK(g[0] == Approx(3 * std::cos(6.0)).epsilon(1e-15));
        CHECK(g[1] == Approx(2 * std::cos(6.0)).epsilon(1e-15));
    }
    SECTION("quadratic drag in the velocities") {
        const Vars w = Vars().set(ExprVar::vx, -5);
        compiled("-c1*vx*abs(vx)").eval_grad(w.v, g);
        CHECK(g[2] == -1.5 * 2 * 5);  // d/dvx (-c1·vx·|vx|) = -2·c1·|vx|
        compiled("-c2*vy*sqrt(vx^2+vy^2)").eval_grad(v.v, g);
        const double s = std::sqrt(74.0);
        CHECK(g[2] == Approx(-0.25 * 7 * 5 / s).epsilon(1e-14));
        CHECK(g[3] == Approx(-0.25 * (s + 49 / s)).epsilon(1e-14));
    }
    SECTION("each function") {
        const Vars w = Vars().set(ExprVar::x, 0.7).set(ExprVar::y, 1.3);
        const double x = 0.7, y = 1.3;
        auto dx = [&](const char* text) {
            compiled(text).eval_grad(w.v, g);
            return g[0];
        };
        CHECK(dx("sin(x)") == Approx(std::cos(x)).epsilon(1e-15));
        CHECK(dx("cos(x)") == Approx(-std::sin(x)).epsilon(1e-15));
        CHECK(dx("tan(x)") == Approx(1 / (std::cos(x) * std::cos(x))).epsilon(1e-14));
        CHECK(dx("exp(x)") == Approx(std::exp(x)).epsilon(1e-15));
        CHECK(dx("log(x)") == Approx(1 / x).epsilon(1e-15));
        CHECK(dx("sqrt(x)") == Approx(0.5 / std::sqrt(x)).epsilon(1e-15));
        CHECK(dx("abs(x)") == 1);
        CHECK(dx("abs(-x)") == 1);
        CHECK(dx("x/y") == Approx(1 / y).epsilon(1e-15));
        CHECK(dx("y/x") == Approx(-y / (x * x)).epsilon(1e-15));
        CHECK(dx("x^-2") == Approx(-2 / (x * x * x)).epsilon(1e-14));
        CHECK(dx("x^0") == 0);
        CHECK(dx("x^1") == 1);
        CHECK(dx("x^2.5") == Approx(2.5 * std::pow(x, 1.5)).epsilon(1e-15));
        CHECK(dx("min(x,y)") == 1);
        CHECK(dx("min(y,x)") == 1);
        CHECK(dx("max(x,y)") == 0);  // the branch chosen is y
        CHECK(dx("max(x,2*x)") == 2);
        CHECK(dx("atan2(y,x)") == Approx(-y / (x * x + y * y)).epsilon(1e-15));
        compiled("atan2(y,x)").eval_grad(w.v, g);
        CHECK(g[1] == Approx(x / (x * x + y * y)).epsilon(1e-15));
        // pow with an exponent that moves: d/dy x^y = x^y·log x; d/dx = y·x^(y-1).
        compiled("pow(x,y)").eval_grad(w.v, g);
        CHECK(g[0] == Approx(y * std::pow(x, y - 1)).epsilon(1e-15));
        CHECK(g[1] == Approx(std::pow(x, y) * std::log(x)).epsilon(1e-15));
        compiled("2^x").eval_grad(w.v, g);
        CHECK(g[0] == Approx(std::pow(2, x) * std::log(2.0)).epsilon(1e-15));
    }
    SECTION("a constant exponent at 0 and below gives no NaN from log") {
        const Vars zero = Vars().set(ExprVar::x, 0);
        CHECK(compiled("x^1.5").eval_grad(zero.v, g) == 0);
        CHECK(g[0] == 0);
        CHECK(compiled("abs(x)").eval_grad(zero.v, g) == 0);
        CHECK(g[0] == 0);
        const Vars negative = Vars().set(ExprVar::x, -2);
        CHECK(compiled("x^3").eval_grad(negative.v, g) == -8);
        CHECK(g[0] == 12);
    }
    SECTION("the value of eval_grad is eval's, bit for bit") {
        for (const char* text : {"-c1*x-c2*x^3", "-c1*x+c2*cos(c3*t)", "atan2(y,x)/m", "pow(x,y)^-3+exp(-vx)",
                                 "min(x,vy)*max(y,vx)-sqrt(abs(c4))", "tan(x/7)^2+log(y)"}) {
            INFO(text);
            const Expression e = compiled(text);
            CHECK(same_bits(e.eval_grad(v.v, g), e.eval(v.v)));
        }
    }
}

TEST_CASE("expression: derivatives against a central finite difference") {
    const char* texts[] = {"-c1*x-c2*x^3", "sin(x*y)", "x^y", "pow(abs(x)+1,vy/4)", "atan2(y-1,x+vx)",
                           "exp(-x*x)*cos(vy*t)", "log(x*x+y*y)", "sqrt(vx^2+vy^2)*vx", "x/(1+y^2)", "tan(x/5)*vy",
                           "-m*9.81-c4*vy*abs(vy)", "min(x*y,vx)+max(vy,x^2)", "(x-y)^-3", "1/sqrt(x^2+y^2)^3"};
    Vars at = Vars().set(ExprVar::x, 0.8).set(ExprVar::y, 1.1).set(ExprVar::vx, 0.4).set(ExprVar::vy, -0.6);
    for (const char* text : texts) {
        INFO(text);
        const Expression e = compiled(text);
        double g[expr_grad_count];
        e.eval_grad(at.v, g);
        for (int i = 0; i < expr_grad_count; ++i) {
            INFO("variable " << i);
            const double h = 1e-6;
            Vars plus = at, minus = at;
            plus.v[i] += h;
            minus.v[i] -= h;
            const double fd = (e.eval(plus.v) - e.eval(minus.v)) / (2 * h);
            CHECK(g[i] == Approx(fd).epsilon(1e-6).margin(1e-7));
        }
    }
}

TEST_CASE("expression: integer powers are products from left to right, bit for bit") {
    testing_helpers::Xorshift rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        const double x = (static_cast<double>(rng() >> 11) * 0x1p-53 - 0.5) * 6;
        const Vars v = Vars().set(ExprVar::x, x);
        double product = x;
        for (int n = 2; n <= expr_max_int_power; ++n) {
            product = product * x;
            INFO(x << "^" << n);
            const std::string text = "x^" + std::to_string(n);
            CHECK(same_bits(value(text, v), product));
            CHECK(same_bits(value("pow(x," + std::to_string(n) + ")", v), product));
            CHECK(same_bits(value("x^-" + std::to_string(n), v), 1.0 / product));
            CHECK(same_bits(value("x^(-" + std::to_string(n) + ")", v), 1.0 / product));
        }
        CHECK(same_bits(value("x*x*x", v), value("x^3", v)));
        CHECK(same_bits(value("x^1", v), x));
        CHECK(same_bits(value("x^-1", v), 1 / x));
        CHECK(value("x^0", v) == 1);
    }
    CHECK(compiled("x^3").instructions() == 5);    // x, dup, 2 × mul_keep, pow_end
    CHECK(compiled("x^-2").instructions() == 5);   // x, dup, mul_keep, pow_end, recip
    CHECK(compiled("x^16").instructions() == 18);
    CHECK(compiled("x^17").instructions() == 3);   // x, 17, pow: std::pow
    CHECK(compiled("x^2.5").instructions() == 3);
    CHECK(compiled("x^2.0").instructions() == 4);  // 2.0 is the literal 2: a product
    CHECK(compiled("x^--2").instructions() == 5);  // not a literal: x, 2, neg, neg, pow
    CHECK(value("x^0", Vars().set(ExprVar::x, std::nan(""))) == 1);  // as std::pow
}

TEST_CASE("expression: canonical text") {
    const std::vector<std::pair<const char*, const char*>> cases = {
        {" -c1 * x - c2*x^3 ", "-c1*x-c2*x^3"},
        {"(x)", "x"},
        {"((x))", "x"},
        {"x-(y-vx)", "x-(y-vx)"},
        {"x+(y+vx)", "x+(y+vx)"},  // floating-point sums do not regroup
        {"(x+y)+vx", "x+y+vx"},
        {"(-x)^2", "(-x)^2"},
        {"-(x^2)", "-x^2"},
        {"-(x*y)", "-(x*y)"},
        {"(-x)*y", "-x*y"},
        {"x*(-y)", "x*-y"},
        {"x-(-y)", "x--y"},
        {"-(-x)", "--x"},
        {"x^(-2)", "x^-2"},
        {"x^(y^2)", "x^y^2"},
        {"(x^y)^2", "(x^y)^2"},
        {"x*(y*vx)", "x*(y*vx)"},
        {"x/(y*vx)", "x/(y*vx)"},
        {"(x*y)/vx", "x*y/vx"},
        {"x+(y*vx)", "x+y*vx"},
        {"(x+y)*2", "(x+y)*2"},
        {"pow( x , 2 )", "pow(x,2)"},
        {"\tx\t+ y", "x+y"},
        {"sin((x))", "sin(x)"},
        {"atan2( (y) , -x )", "atan2(y,-x)"},
        {"1.50", "1.5"},
        {"1e5", "100000"},
        {"2E-3", "0.002"},
        {"1e-7", "1e-07"},
        {"1e20", "1e+20"},
        {"0.1000000000000000055511151231257827", "0.1"},
        {"00012", "12"},
        {"1e-400", "0"},
        {"2^3^2", "2^3^2"},
        {"(2^3)^2", "(2^3)^2"},
    };
    for (const auto& [text, canonical] : cases) {
        INFO(text);
        CHECK(compiled(text).text() == canonical);
    }
}

TEST_CASE("expression: the canonical text compiles to the same instructions (30 expressions)") {
    const char* texts[] = {"-c1*x-c2*x^3", "-c1*x+c2*cos(c3*t)", " - ( x ) ^ 2 ", "(-x)^2", "2^3^2", "x-(y-vx)",
                           "x/y/vx", "x/(y/vx)", "-2^2", "2^-1", "x^-2", "((((x))))", "sin(x*y)+cos(vx)*tan(vy)",
                           "exp(-t/c1)*sqrt(abs(x))", "log(1+x^2)", "min(x,y)-max(vx,vy)", "pow(x,c2)+pow(y,-3)",
                           "atan2(y,x)*m", "1e-07*x", "0.1+0.2*x", "x*(y*(vx*(vy*t)))", "--x", "-(-(-x))",
                           "x^(y^(vx^2))", "((x+y)^2)^3", "-c4*vy*sqrt(vx^2+vy^2)/m", "x^16-x^-16+x^17",
                           "1/(x^2+y^2)^1.5", "c1*(x-c2)-c3*(y+c4)", "12345.678e-3*t"};
    const Vars v;
    for (const char* text : texts) {
        INFO(text);
        const Expression e = compiled(text);
        const Expression again = compiled(e.text());
        CHECK(again.text() == e.text());
        CHECK(same_code(again, e));
        CHECK(same_bits(again.eval(v.v), e.eval(v.v)));
    }
}

TEST_CASE("expression: every problem, with its column") {
    struct Case {
        const char* text;
        const char* code;
        int column;
    };
    const Case cases[] = {
        {"", "expr_empty", 1},
        {"  \t ", "expr_empty", 1},
        {"x#y", "expr_unexpected", 2},
        {"x+\xC3\xA9", "expr_unexpected", 3},  // é
        {"x\ny", "expr_unexpected", 2},
        {"\xC3\xA9+#", "expr_unexpected", 1},
        {"1.2.3+x", "expr_bad_number", 1},
        {"x+1e999", "expr_bad_number", 3},  // not finite
        {"2e*x", "expr_bad_number", 1},
        {"-c1*x-z", "expr_unknown_name", 7},
        {"sin(X)", "expr_unknown_name", 5},
        {"c5*x", "expr_unknown_name", 1},
        {"x/", "expr_operand_after", 2},
        {"x +", "expr_operand_after", 3},
        {"x+*y", "expr_operand_after", 2},
        {"-", "expr_operand_after", 1},
        {"()", "expr_operand_after", 1},
        {"min(x,)", "expr_operand_after", 6},
        {"x^", "expr_operand_after", 2},
        {"*x", "expr_operand_before", 1},
        {" +x", "expr_operand_before", 2},
        {",x", "expr_operand_before", 1},
        {"2x", "expr_missing_operator", 2},
        {"x y", "expr_missing_operator", 3},
        {"sin(x)cos(x)", "expr_missing_operator", 7},
        {"x(2)", "expr_missing_operator", 2},
        {"(x+y", "expr_unclosed", 1},
        {"((x)", "expr_unclosed", 1},
        {"2*sin(x", "expr_unclosed", 6},
        {"(x))", "expr_unmatched_close", 4},
        {")", "expr_unmatched_close", 1},
        {"x,y", "expr_unexpected", 2},
        {"(x,y)", "expr_unexpected", 3},
        {"sin x", "expr_call_without_parenthesis", 1},
        {"2*sin", "expr_call_without_parenthesis", 3},
        {"sin(x,y)", "expr_arguments", 1},
        {"x+min(x)", "expr_arguments", 3},
        {"sin()", "expr_arguments", 1},
        {"atan2(x,y,vx)", "expr_arguments", 1},
    };
    for (const Case& c : cases) {
        INFO("'" << c.text << "'");
        const ExprProblem p = problem(c.text);
        CHECK(p.code == c.code);
        CHECK(p.column == c.column);
        CHECK(message_arg(p.args, "column") == std::to_string(p.column));
        const std::string m = message(p);
        INFO(m);
        CHECK(m.find('{') == std::string::npos);
        CHECK(m.rfind("fx: ", 0) == 0);
    }
    // The first problem from the left wins.
    CHECK(problem("x)#").code == "expr_unmatched_close");
    CHECK(problem("x+#").code == "expr_unexpected");
    CHECK(problem("z+1.2.3").code == "expr_unknown_name");
}

TEST_CASE("expression: the messages a user reads, word for word") {
    CHECK(message(problem("-c1*x-z")) ==
          "fx: unknown name 'z' at character 7 of '-c1*x-z'; known: x, y, vx, vy, t, m, c1, c2, c3, c4 and the "
          "functions sin, cos, tan, exp, log, sqrt, abs, min, max, pow, atan2");
    CHECK(message(problem("-c1*x/")) == "fx: '/' at character 6 of '-c1*x/' needs a value after it");
    CHECK(message(problem("(x+1")) == "fx: the '(' at character 1 of '(x+1' is never closed; add a ')'");
    CHECK(message(problem("x+1)")) == "fx: the ')' at character 4 of 'x+1)' closes no '('");
    CHECK(message(problem("min(x)")) ==
          "fx: wrong number of arguments to min at character 1 of 'min(x)' (1 given); write min(a,b)");
    CHECK(message(problem("cos t")) ==
          "fx: the function cos at character 1 of 'cos t' takes its arguments in parentheses: cos(a)");
    CHECK(message(problem("x+1e400")) ==
          "fx: '1e400' at character 3 of 'x+1e400' is not a number (digits with an optional point and exponent, e.g. "
          "0.5 or 2e-3, within the double range)");
    CHECK(message(problem("x\x01")) ==
          "fx: unexpected '?' at character 2 of 'x?'; an expression holds numbers, names, + - * / ^, parentheses and "
          "the comma between a function's two arguments");
    CHECK(message(problem("")) == "fx: the expression is empty (''); write one such as -c1*x, or leave fx out");
}

TEST_CASE("expression: the limits") {
    // Length: 256 characters compile, 257 do not (the column is the first one past the limit).
    std::string sum = "10";
    for (int i = 0; i < 127; ++i) sum += "+x";
    REQUIRE(sum.size() == 256);
    CHECK(compiled(sum).instructions() == 255);
    const ExprProblem too_long = problem("1" + sum);
    CHECK(too_long.code == "expr_too_long");
    CHECK(too_long.column == 257);
    CHECK(message_arg(too_long.args, "length") == "257");
    CHECK(message_arg(too_long.args, "max") == "256");
    CHECK(problem(sum + " ").code == "expr_too_long");  // spaces count
    CHECK(compiled(" x ").text() == "x");
    // A character is one column, whatever its bytes: 128 two-byte characters are 128 long.
    std::string wide;
    for (int i = 0; i < 128; ++i) wide += "\xC3\xA9";
    CHECK(problem(wide).code == "expr_unexpected");

    // Depth: 24 levels compile, 25 do not, for each kind of level; the column is the 25th level's
    // '(', '-' or '^'.
    struct Nesting {
        std::string open, close;
        int per;          // levels per repetition
        int column;       // of the 25th level
    };
    for (const Nesting& n : std::vector<Nesting>{{"(", ")", 1, 25},
                                                 {"-", "", 1, 25},
                                                 {"sin(", ")", 1, 24 * 4 + 4},
                                                 {"abs(-", ")", 2, 12 * 5 + 4},
                                                 {"x^", "", 1, 25 * 2},
                                                 {"min(x,", ")", 1, 24 * 6 + 4}}) {
        auto nest = [&](int times) {
            std::string t;
            for (int i = 0; i < times; ++i) t += n.open;
            t += "x";
            for (int i = 0; i < times; ++i) t += n.close;
            return t;
        };
        INFO(n.open);
        const Expression ok = compiled(nest(expr_max_depth / n.per));
        CHECK(same_code(compiled(ok.text()), ok));
        const ExprProblem deep = problem(nest(expr_max_depth / n.per + 1));
        CHECK(deep.code == "expr_too_deep");
        CHECK(deep.column == n.column);
        CHECK(message_arg(deep.args, "max") == "24");
    }
    // Sums and products add no depth.
    std::string chain = "x";
    for (int i = 0; i < 60; ++i) chain += i % 2 ? "*y" : "-x";
    CHECK(compiled(chain).instructions() == 121);

    // The stack's worst case: three values wait at each level (a sum, a product and a call's first
    // argument), five at the innermost (x^2 needs two); 22 calls are as many as 256 characters hold.
    const int calls = 22;
    std::string worst = "x+x*";
    for (int i = 0; i < calls; ++i) worst += "min(x,x+x*";
    worst += "x^2";
    for (int i = 0; i < calls; ++i) worst += ")";
    const Expression w = compiled(worst);
    CHECK(w.stack_needed() == 2 + 3 * (calls - 1) + 5);
    CHECK(w.stack_needed() <= expr_max_stack);
    double g[expr_grad_count];
    CHECK(std::isfinite(w.eval_grad(Vars().v, g)));

    // Instructions: x^16 costs 18; the 14th term passes 256 at its '^' (character 67).
    const ExprProblem complex = problem(repeated("x^16", "*", 15));
    CHECK(complex.code == "expr_too_complex");
    CHECK(complex.column == 67);
    CHECK(message_arg(complex.args, "count") == std::to_string(15 * 18 + 14));
    CHECK(compiled(repeated("x^16", "*", 13)).instructions() == 13 * 18 + 12);

    // The canonical text may not grow past the limit: 1e14 is 100000000000000.
    const ExprProblem normal = problem(repeated("1e14", "+", 20));
    CHECK(normal.code == "expr_normal_too_long");
    CHECK(normal.column == 1);
    CHECK(message_arg(normal.args, "length") == std::to_string(20 * 15 + 19));
}

TEST_CASE("expression: which variables it uses") {
    const Expression e = compiled("-c1*x+c2*cos(c3*t)");
    for (ExprVar v : {ExprVar::x, ExprVar::t, ExprVar::c1, ExprVar::c2, ExprVar::c3}) CHECK(e.uses(v));
    for (ExprVar v : {ExprVar::y, ExprVar::vx, ExprVar::vy, ExprVar::m, ExprVar::c4}) CHECK_FALSE(e.uses(v));
    CHECK(compiled("x^0").uses(ExprVar::x));
    CHECK(compiled("m*vy").uses(ExprVar::m));
    CHECK_FALSE(compiled("1").uses(ExprVar::x));
    CHECK(expr_variable_names().size() == expr_var_count);
    // A default Expression is 0, as a component left out.
    const Expression zero;
    double g[expr_grad_count] = {1, 1, 1, 1};
    CHECK(zero.eval(Vars().v) == 0);
    CHECK(zero.eval_grad(Vars().v, g) == 0);
    CHECK(g[0] == 0);
    CHECK(zero.text() == "0");
    CHECK(same_code(zero, compiled("0")));
    CHECK_FALSE(zero.uses(ExprVar::x));
    CHECK(expr_function_names().size() == 11);
}
