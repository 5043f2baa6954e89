// The written force law's expressions (expression.hpp): a lexer, a recursive-descent parser into a
// small tree, the tree's canonical text, and its instruction list for a stack machine.
#include "expression.hpp"

#include "config.hpp"
#include "number_text.hpp"
#include "parts.hpp"

#include <cmath>

namespace stepwise {

// The part `written` (core/parts.hpp): this file and forces/written_force.cpp.
bool carries_written() { return true; }

// The compiler fills an Expression's private parts through this friend.
struct ExpressionAccess {
    static std::vector<Expression::Instruction>& code(Expression& e) { return e.code_; }
    static std::array<int, expr_var_count>& first_column(Expression& e) { return e.first_column_; }
    static void set(Expression& e, std::string text, std::uint16_t uses, int stack) {
        e.text_ = std::move(text);
        e.uses_ = uses;
        e.stack_ = stack;
    }
};

namespace {

using Op = Expression::Op;

struct Function {
    std::string_view name;
    int arity;
    Op op;
    std::string_view form;  // how a call is written, for messages
};

const Function functions[] = {
    {"sin", 1, Op::sin, "sin(a)"},        {"cos", 1, Op::cos, "cos(a)"},     {"tan", 1, Op::tan, "tan(a)"},
    {"exp", 1, Op::exp, "exp(a)"},        {"log", 1, Op::log, "log(a)"},     {"sqrt", 1, Op::sqrt, "sqrt(a)"},
    {"abs", 1, Op::abs, "abs(a)"},        {"min", 2, Op::min, "min(a,b)"},   {"max", 2, Op::max, "max(a,b)"},
    {"pow", 2, Op::pow, "pow(a,b)"},      {"atan2", 2, Op::atan2, "atan2(a,b)"},
};
constexpr int function_count = sizeof functions / sizeof functions[0];

bool continues_utf8(char c) { return (static_cast<unsigned char>(c) & 0xC0u) == 0x80u; }

std::string join_names(const std::vector<std::string_view>& names) {
    std::string out;
    for (std::string_view n : names) {
        if (!out.empty()) out += ", ";
        out += n;
    }
    return out;
}

enum class Tok : unsigned char { number, name, plus, minus, star, slash, caret, lparen, rparen, comma, end, bad };

struct Token {
    Tok kind;
    int begin, end;  // bytes of the text
    int column;      // 1-based character
    double value = 0;
};

enum class Kind : unsigned char { number, variable, neg, add, sub, mul, div, power, call };

struct Node {
    Kind kind;
    int a = -1, b = -1;  // operands (a call's arguments)
    double value = 0;    // number
    int index = 0;       // variable: ExprVar; call: row of functions[]
    int column = 0;      // where its token is
};

// Binding strength, for the fewest parentheses: a child weaker than its place needs them.
int strength(const Node& n) {
    switch (n.kind) {
        case Kind::add:
        case Kind::sub: return 1;
        case Kind::mul:
        case Kind::div: return 2;
        case Kind::neg: return 3;
        case Kind::power: return 4;
        default: return 5;  // numbers, variables, calls
    }
}

class Compiler {
public:
    Compiler(std::string_view text, ExprProblem& problem) : text_(text), problem_(problem) {}

    std::optional<Expression> run(Expression& out) {
        const int length = expr_characters(text_);
        if (length > expr_max_length) {
            fail("expr_too_long", expr_max_length + 1,
                 {{"length", std::to_string(length)}, {"max", std::to_string(expr_max_length)}}, 60);
            return std::nullopt;
        }
        lex();
        const int root = parse_expression();
        if (root < 0) return std::nullopt;
        if (peek().kind != Tok::end) {
            after_operand(peek(), nullptr);
            return std::nullopt;
        }
        std::vector<Expression::Instruction>& code = ExpressionAccess::code(out);
        code.clear();
        ExpressionAccess::first_column(out) = first_column_;
        int limit_column = 0;
        int sp = 0, max_sp = 0;
        std::uint16_t uses = 0;
        emit(root, code, sp, max_sp, uses, limit_column);
        if (static_cast<int>(code.size()) > expr_max_instructions) {
            fail("expr_too_complex", limit_column,
                 {{"count", std::to_string(code.size())}, {"max", std::to_string(expr_max_instructions)}});
            return std::nullopt;
        }
        if (max_sp > expr_max_stack) {  // not reached within the depth limit (see expr_max_stack)
            fail("expr_too_deep", 1, {{"max", std::to_string(expr_max_depth)}});
            return std::nullopt;
        }
        std::string text;
        print(root, text);
        if (static_cast<int>(text.size()) > expr_max_length) {
            fail("expr_normal_too_long", 1,
                 {{"normal", printable_text(text, 60)},
                  {"length", std::to_string(text.size())},
                  {"max", std::to_string(expr_max_length)}});
            return std::nullopt;
        }
        ExpressionAccess::set(out, std::move(text), uses, max_sp);
        return std::optional<Expression>(std::move(out));
    }

private:
    std::string_view text_;
    ExprProblem& problem_;
    std::vector<Token> tokens_;
    ExprProblem lex_problem_;  // the problem of a `bad` token
    std::vector<Node> nodes_;
    std::array<int, expr_var_count> first_column_{};  // each variable's first read (0: none)
    size_t pos_ = 0;
    int depth_ = 0;

    // ---- problems

    void fail(const char* code, int column, MessageArgs extra, std::size_t shown = expr_max_length) {
        problem_.code = code;
        problem_.column = column;
        problem_.args = {{"got", printable_text(text_, shown)}, {"column", std::to_string(column)}};
        problem_.args.insert(problem_.args.end(), extra.begin(), extra.end());
    }
    std::string token_text(const Token& t) const {
        return printable_text(text_.substr(static_cast<size_t>(t.begin), static_cast<size_t>(t.end - t.begin)), 60);
    }

    // ---- lexer: every token up to the end, or up to and with the first bad one

    void lex() {
        const int n = static_cast<int>(text_.size());
        int i = 0, column = 1;
        auto advance = [&](int to) {
            for (; i < to; ++i)
                if (!continues_utf8(text_[static_cast<size_t>(i)])) ++column;
        };
        auto digit = [&](int k) { return k < n && text_[static_cast<size_t>(k)] >= '0' && text_[static_cast<size_t>(k)] <= '9'; };
        while (true) {
            while (i < n && (text_[static_cast<size_t>(i)] == ' ' || text_[static_cast<size_t>(i)] == '\t')) advance(i + 1);
            if (i >= n) {
                tokens_.push_back({Tok::end, i, i, column});
                return;
            }
            const char c = text_[static_cast<size_t>(i)];
            Token t{Tok::bad, i, i + 1, column};
            if (digit(i) || c == '.') {
                int k = i;
                while (digit(k) || (k < n && text_[static_cast<size_t>(k)] == '.')) ++k;
                if (k < n && (text_[static_cast<size_t>(k)] == 'e' || text_[static_cast<size_t>(k)] == 'E')) {
                    ++k;
                    if (k < n && (text_[static_cast<size_t>(k)] == '+' || text_[static_cast<size_t>(k)] == '-')) ++k;
                    while (digit(k)) ++k;
                }
                t.end = k;
                const std::optional<double> v = parse_number(text_.substr(static_cast<size_t>(i), static_cast<size_t>(k - i)));
                if (v && std::isfinite(*v)) {
                    t.kind = Tok::number;
                    t.value = *v;
                } else {
                    bad(t, "expr_bad_number", {{"number", token_text(t)}});
                    return;
                }
            } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
                int k = i + 1;
                while (k < n) {
                    const char d = text_[static_cast<size_t>(k)];
                    if (!((d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z') || (d >= '0' && d <= '9') || d == '_')) break;
                    ++k;
                }
                t.kind = Tok::name;
                t.end = k;
            } else {
                switch (c) {
                    case '+': t.kind = Tok::plus; break;
                    case '-': t.kind = Tok::minus; break;
                    case '*': t.kind = Tok::star; break;
                    case '/': t.kind = Tok::slash; break;
                    case '^': t.kind = Tok::caret; break;
                    case '(': t.kind = Tok::lparen; break;
                    case ')': t.kind = Tok::rparen; break;
                    case ',': t.kind = Tok::comma; break;
                    default: {
                        int k = i + 1;  // the whole character
                        while (k < n && k < i + 4 && continues_utf8(text_[static_cast<size_t>(k)])) ++k;
                        t.end = k;
                        bad(t, "expr_unexpected", {{"char", token_text(t)}});
                        return;
                    }
                }
            }
            tokens_.push_back(t);
            advance(t.end);
        }
    }
    void bad(const Token& t, const char* code, MessageArgs args) {
        ExprProblem saved = problem_;
        fail(code, t.column, std::move(args));
        lex_problem_ = problem_;
        problem_ = saved;
        tokens_.push_back(t);
    }

    // ---- parser

    const Token& peek() const { return tokens_[pos_]; }
    const Token& next() { return tokens_[pos_++]; }
    int make(Kind kind, int a, int b, int column) {
        Node n{.kind = kind, .a = a, .b = b, .value = 0, .index = 0, .column = column};
        nodes_.push_back(n);
        return static_cast<int>(nodes_.size()) - 1;
    }
    bool enter(const Token& t) {
        if (++depth_ <= expr_max_depth) return true;
        fail("expr_too_deep", t.column, {{"max", std::to_string(expr_max_depth)}});
        return false;
    }
    int failed_at_bad() {
        problem_ = lex_problem_;
        return -1;
    }

    // One left-associative level: operand { (op_a | op_b) operand }.
    int parse_chain(int (Compiler::*operand)(), Tok op_a, Kind kind_a, Tok op_b, Kind kind_b) {
        int left = (this->*operand)();
        while (left >= 0 && (peek().kind == op_a || peek().kind == op_b)) {
            const Token op = next();
            const int right = (this->*operand)();
            if (right < 0) return -1;
            left = make(op.kind == op_a ? kind_a : kind_b, left, right, op.column);
        }
        return left;
    }
    int parse_expression() { return parse_chain(&Compiler::parse_term, Tok::plus, Kind::add, Tok::minus, Kind::sub); }
    int parse_term() { return parse_chain(&Compiler::parse_unary, Tok::star, Kind::mul, Tok::slash, Kind::div); }
    int parse_unary() {
        if (peek().kind != Tok::minus) return parse_power();
        const Token op = next();
        if (!enter(op)) return -1;
        const int a = parse_unary();
        --depth_;
        return a < 0 ? -1 : make(Kind::neg, a, -1, op.column);
    }
    int parse_power() {
        const int base = parse_primary();
        if (base < 0 || peek().kind != Tok::caret) return base;
        const Token op = next();
        if (!enter(op)) return -1;
        const int exponent = parse_unary();
        --depth_;
        return exponent < 0 ? -1 : make(Kind::power, base, exponent, op.column);
    }
    int parse_primary() {
        const Token t = peek();
        if (t.kind == Tok::number) {
            next();
            const int n = make(Kind::number, -1, -1, t.column);
            nodes_[static_cast<size_t>(n)].value = t.value;
            return n;
        }
        if (t.kind == Tok::lparen) {
            next();
            if (!enter(t)) return -1;
            const int inner = parse_expression();
            if (inner < 0) return -1;
            if (!close(t)) return -1;
            --depth_;
            return inner;  // a group is no node: the canonical text writes the parentheses it needs
        }
        if (t.kind == Tok::name) return parse_name();
        return missing_operand(t);
    }
    int parse_name() {
        const Token t = next();
        const std::string_view name = text_.substr(static_cast<size_t>(t.begin), static_cast<size_t>(t.end - t.begin));
        const std::vector<std::string_view>& variables = expr_variable_names();
        for (size_t v = 0; v < variables.size(); ++v)
            if (variables[v] == name) {
                const int n = make(Kind::variable, -1, -1, t.column);
                nodes_[static_cast<size_t>(n)].index = static_cast<int>(v);
                int& first = first_column_[v];
                if (first == 0) first = t.column;
                return n;
            }
        for (int f = 0; f < function_count; ++f) {
            if (functions[f].name != name) continue;
            const MessageArgs about = {{"name", std::string(name)}, {"form", std::string(functions[f].form)}};
            if (peek().kind != Tok::lparen) {
                if (peek().kind == Tok::bad) return failed_at_bad();
                fail("expr_call_without_parenthesis", t.column, about);
                return -1;
            }
            const Token open = next();
            if (!enter(open)) return -1;
            int args[2] = {-1, -1};
            int count = 0;
            if (peek().kind != Tok::rparen) {
                while (true) {
                    const int a = parse_expression();
                    if (a < 0) return -1;
                    if (count < 2) args[count] = a;
                    ++count;
                    if (peek().kind != Tok::comma) break;
                    next();
                }
            }
            if (!close(open)) return -1;
            --depth_;
            if (count != functions[f].arity) {
                MessageArgs args_about = about;
                args_about.push_back({"count", std::to_string(count)});
                fail("expr_arguments", t.column, args_about);
                return -1;
            }
            const int n = make(Kind::call, args[0], args[1], t.column);
            nodes_[static_cast<size_t>(n)].index = f;
            return n;
        }
        fail("expr_unknown_name", t.column,
             {{"name", token_text(t)},
              {"variables", join_names(expr_variable_names())},
              {"functions", join_names(expr_function_names())}});
        return -1;
    }
    // After a group's or a call's contents: its ')'.
    bool close(const Token& open) {
        if (peek().kind == Tok::rparen) {
            next();
            return true;
        }
        after_operand(peek(), &open);
        return false;
    }
    // Where a value is expected and `t` is none.
    int missing_operand(const Token& t) {
        if (t.kind == Tok::bad) return failed_at_bad();
        if (pos_ > 0) {  // after an operator, '(' or ','
            const Token& before = tokens_[pos_ - 1];
            fail("expr_operand_after", before.column, {{"op", token_text(before)}});
        } else if (t.kind == Tok::end) {
            fail("expr_empty", 1, {});
        } else if (t.kind == Tok::rparen) {
            fail("expr_unmatched_close", t.column, {});
        } else {
            fail("expr_operand_before", t.column, {{"op", token_text(t)}});
        }
        return -1;
    }
    // After a whole value, `t` is neither an operator nor what closes it (`open`: the group's
    // or call's '(', or none at the top).
    void after_operand(const Token& t, const Token* open) {
        switch (t.kind) {
            case Tok::bad: failed_at_bad(); return;
            case Tok::end: fail("expr_unclosed", open ? open->column : t.column, {}); return;
            case Tok::rparen: fail("expr_unmatched_close", t.column, {}); return;
            case Tok::number:
            case Tok::name:
            case Tok::lparen: fail("expr_missing_operator", t.column, {}); return;
            default: fail("expr_unexpected", t.column, {{"char", token_text(t)}}); return;  // ','
        }
    }

    // ---- instructions

    // The exponent of x^n when n is an integer literal (with or without a minus), |n| ≤ 16.
    bool integer_exponent(int node, int& n) const {
        const Node& e = nodes_[static_cast<size_t>(node)];
        const bool negative = e.kind == Kind::neg && nodes_[static_cast<size_t>(e.a)].kind == Kind::number;
        if (e.kind != Kind::number && !negative) return false;
        const double v = negative ? nodes_[static_cast<size_t>(e.a)].value : e.value;
        if (!(v <= expr_max_int_power) || v != std::trunc(v)) return false;
        n = static_cast<int>(v) * (negative ? -1 : 1);
        return true;
    }
    void emit(int node, std::vector<Expression::Instruction>& code, int& sp, int& max_sp, std::uint16_t& uses,
              int& limit_column) const {
        const Node& n = nodes_[static_cast<size_t>(node)];
        auto put = [&](Op op, int pushed, unsigned char var = 0, double value = 0) {
            code.push_back({op, var, value});
            sp += pushed;
            if (sp > max_sp) max_sp = sp;
            if (limit_column == 0 && static_cast<int>(code.size()) > expr_max_instructions) limit_column = n.column;
        };
        switch (n.kind) {
            case Kind::number: put(Op::push_const, 1, 0, n.value); return;
            case Kind::variable:
                uses = static_cast<std::uint16_t>(uses | (1u << n.index));
                put(Op::push_var, 1, static_cast<unsigned char>(n.index));
                return;
            case Kind::neg:
                emit(n.a, code, sp, max_sp, uses, limit_column);
                put(Op::neg, 0);
                return;
            case Kind::add:
            case Kind::sub:
            case Kind::mul:
            case Kind::div:
                emit(n.a, code, sp, max_sp, uses, limit_column);
                emit(n.b, code, sp, max_sp, uses, limit_column);
                put(n.kind == Kind::add ? Op::add : n.kind == Kind::sub ? Op::sub : n.kind == Kind::mul ? Op::mul : Op::div, -1);
                return;
            case Kind::power:
            case Kind::call: {
                const Op op = n.kind == Kind::power ? Op::pow : functions[n.index].op;
                int power = 0;
                if (op == Op::pow && integer_exponent(n.b, power)) {
                    emit(n.a, code, sp, max_sp, uses, limit_column);
                    const int k = power < 0 ? -power : power;
                    if (k == 0) put(Op::one, 0);
                    if (k >= 2) {
                        put(Op::dup, 1);
                        for (int i = 1; i < k; ++i) put(Op::mul_keep, 0);
                        put(Op::pow_end, -1);
                    }
                    if (power < 0) put(Op::recip, 0);
                    return;
                }
                emit(n.a, code, sp, max_sp, uses, limit_column);
                if (n.b >= 0) emit(n.b, code, sp, max_sp, uses, limit_column);
                put(op, n.b >= 0 ? -1 : 0);
                return;
            }
        }
    }

    // ---- canonical text

    void print(int node, std::string& out) const {
        const Node& n = nodes_[static_cast<size_t>(node)];
        auto child = [&](int c, int needed) {
            const bool wrap = strength(nodes_[static_cast<size_t>(c)]) < needed;
            if (wrap) out += '(';
            print(c, out);
            if (wrap) out += ')';
        };
        switch (n.kind) {
            case Kind::number: out += format_number(n.value); return;
            case Kind::variable: out += expr_variable_names()[static_cast<size_t>(n.index)]; return;
            case Kind::neg:
                out += '-';
                child(n.a, 3);
                return;
            case Kind::add:
            case Kind::sub:
                child(n.a, 1);
                out += n.kind == Kind::add ? '+' : '-';
                child(n.b, 2);  // x-(y-z) and x+(y+z) keep theirs: floating-point sums do not regroup
                return;
            case Kind::mul:
            case Kind::div:
                child(n.a, 2);
                out += n.kind == Kind::mul ? '*' : '/';
                child(n.b, 3);
                return;
            case Kind::power:
                child(n.a, 5);
                out += '^';
                child(n.b, 3);
                return;
            case Kind::call:
                out += functions[n.index].name;
                out += '(';
                child(n.a, 1);
                if (n.b >= 0) {
                    out += ',';
                    child(n.b, 1);
                }
                out += ')';
                return;
        }
    }
};

}  // namespace

const std::vector<std::string_view>& expr_variable_names() {
    static const std::vector<std::string_view> names = {"x", "y", "vx", "vy", "t", "m", "c1", "c2", "c3", "c4"};
    return names;
}

const std::vector<std::string_view>& expr_function_names() {
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> out;
        for (const Function& f : functions) out.push_back(f.name);
        return out;
    }();
    return names;
}

int expr_characters(std::string_view text) {
    int n = 0;
    for (char c : text)
        if (!continues_utf8(c)) ++n;
    return n;
}

std::optional<Expression> Expression::compile(std::string_view text, ExprProblem& problem) {
    problem = {};
    Expression e;
    return Compiler(text, problem).run(e);
}

int Expression::polynomial_degree(ExprVar v) const {
    // The stack machine run on degrees: a constant (or another variable) is 0, `v` is 1, −1 is "not
    // a polynomial" and absorbs everything it meets.
    int s[expr_max_stack];
    int sp = -1;
    const auto both = [&](auto combine) {
        --sp;
        s[sp] = s[sp] < 0 || s[sp + 1] < 0 ? -1 : combine(s[sp], s[sp + 1]);
    };
    const auto constant_only = [](int d) { return d == 0 ? 0 : -1; };
    for (const Instruction& in : code_) {
        switch (in.op) {
            case Op::push_var: s[++sp] = in.var == static_cast<unsigned char>(v) ? 1 : 0; break;
            case Op::push_const: s[++sp] = 0; break;
            case Op::neg: break;
            case Op::add:
            case Op::sub: both([](int a, int b) { return a > b ? a : b; }); break;
            case Op::mul: both([](int a, int b) { return a + b; }); break;
            case Op::div: both([](int a, int b) { return b == 0 ? a : -1; }); break;
            case Op::dup: s[sp + 1] = s[sp], ++sp; break;
            case Op::mul_keep: s[sp] = s[sp] < 0 || s[sp - 1] < 0 ? -1 : s[sp] + s[sp - 1]; break;
            case Op::pow_end: --sp, s[sp] = s[sp + 1]; break;
            case Op::recip: s[sp] = constant_only(s[sp]); break;
            case Op::one: s[sp] = 0; break;
            case Op::pow:
            case Op::min:
            case Op::max:
            case Op::atan2: both([](int a, int b) { return a == 0 && b == 0 ? 0 : -1; }); break;
            default: s[sp] = constant_only(s[sp]); break;  // the one-argument functions
        }
    }
    return s[sp];
}

double Expression::eval(const double* vars) const {
    double s[expr_max_stack];
    int sp = -1;  // the top
    for (const Instruction& in : code_) {
        switch (in.op) {
            case Op::push_var: s[++sp] = vars[in.var]; break;
            case Op::push_const: s[++sp] = in.value; break;
            case Op::neg: s[sp] = -s[sp]; break;
            case Op::add: --sp, s[sp] = s[sp] + s[sp + 1]; break;
            case Op::sub: --sp, s[sp] = s[sp] - s[sp + 1]; break;
            case Op::mul: --sp, s[sp] = s[sp] * s[sp + 1]; break;
            case Op::div: --sp, s[sp] = s[sp] / s[sp + 1]; break;
            case Op::dup: s[sp + 1] = s[sp], ++sp; break;
            case Op::mul_keep: s[sp] = s[sp] * s[sp - 1]; break;
            case Op::pow_end: --sp, s[sp] = s[sp + 1]; break;
            case Op::recip: s[sp] = 1.0 / s[sp]; break;
            case Op::one: s[sp] = 1.0; break;
            case Op::pow: --sp, s[sp] = std::pow(s[sp], s[sp + 1]); break;
            case Op::sin: s[sp] = std::sin(s[sp]); break;
            case Op::cos: s[sp] = std::cos(s[sp]); break;
            case Op::tan: s[sp] = std::tan(s[sp]); break;
            case Op::exp: s[sp] = std::exp(s[sp]); break;
            case Op::log: s[sp] = std::log(s[sp]); break;
            case Op::sqrt: s[sp] = std::sqrt(s[sp]); break;
            case Op::abs: s[sp] = std::fabs(s[sp]); break;
            case Op::min: --sp, s[sp] = s[sp + 1] < s[sp] ? s[sp + 1] : s[sp]; break;  // std::min's choice
            case Op::max: --sp, s[sp] = s[sp] < s[sp + 1] ? s[sp + 1] : s[sp]; break;  // std::max's choice
            case Op::atan2: --sp, s[sp] = std::atan2(s[sp], s[sp + 1]); break;
        }
    }
    return s[0];
}

double Expression::eval_grad(const double* vars, double grad[expr_grad_count]) const {
    constexpr int G = expr_grad_count;
    struct Dual {
        double v;
        double d[G];
    };
    Dual s[expr_max_stack];
    int sp = -1;
    for (const Instruction& in : code_) {
        switch (in.op) {
            case Op::push_var: {
                Dual& r = s[++sp];
                r.v = vars[in.var];
                for (int i = 0; i < G; ++i) r.d[i] = in.var == i ? 1.0 : 0.0;
                break;
            }
            case Op::push_const: {
                Dual& r = s[++sp];
                r.v = in.value;
                for (int i = 0; i < G; ++i) r.d[i] = 0.0;
                break;
            }
            case Op::neg:
                s[sp].v = -s[sp].v;
                for (int i = 0; i < G; ++i) s[sp].d[i] = -s[sp].d[i];
                break;
            case Op::add:
            case Op::sub: {
                --sp;
                Dual& a = s[sp];
                const Dual& b = s[sp + 1];
                if (in.op == Op::add) {
                    a.v = a.v + b.v;
                    for (int i = 0; i < G; ++i) a.d[i] = a.d[i] + b.d[i];
                } else {
                    a.v = a.v - b.v;
                    for (int i = 0; i < G; ++i) a.d[i] = a.d[i] - b.d[i];
                }
                break;
            }
            case Op::mul:
            case Op::mul_keep: {
                // mul: [a, b] → [a·b]; mul_keep: [b, p] → [b, p·b]
                Dual& a = in.op == Op::mul ? s[sp - 1] : s[sp];
                const Dual& b = in.op == Op::mul ? s[sp] : s[sp - 1];
                for (int i = 0; i < G; ++i) a.d[i] = a.d[i] * b.v + a.v * b.d[i];
                a.v = a.v * b.v;
                if (in.op == Op::mul) --sp;
                break;
            }
            case Op::div: {
                --sp;
                Dual& a = s[sp];
                const Dual& b = s[sp + 1];
                a.v = a.v / b.v;
                for (int i = 0; i < G; ++i) a.d[i] = (a.d[i] - a.v * b.d[i]) / b.v;
                break;
            }
            case Op::dup: s[sp + 1] = s[sp], ++sp; break;
            case Op::pow_end: --sp, s[sp] = s[sp + 1]; break;
            case Op::recip: {
                Dual& a = s[sp];
                a.v = 1.0 / a.v;
                for (int i = 0; i < G; ++i) a.d[i] = -a.d[i] * (a.v * a.v);
                break;
            }
            case Op::one:
                s[sp].v = 1.0;
                for (int i = 0; i < G; ++i) s[sp].d[i] = 0.0;
                break;
            case Op::pow: {
                --sp;
                Dual& a = s[sp];
                const Dual& b = s[sp + 1];
                const double x = a.v, y = b.v, v = std::pow(x, y);
                bool by_x = false, by_y = false;
                for (int i = 0; i < G; ++i) by_x = by_x || a.d[i] != 0.0, by_y = by_y || b.d[i] != 0.0;
                const double dx = by_x ? y * std::pow(x, y - 1.0) : 0.0;
                const double dy = by_y ? v * std::log(x) : 0.0;
                for (int i = 0; i < G; ++i)
                    a.d[i] = (a.d[i] != 0.0 ? dx * a.d[i] : 0.0) + (b.d[i] != 0.0 ? dy * b.d[i] : 0.0);
                a.v = v;
                break;
            }
            case Op::sin:
            case Op::cos:
            case Op::tan:
            case Op::exp:
            case Op::log:
            case Op::sqrt:
            case Op::abs: {
                Dual& a = s[sp];
                const double x = a.v;
                double v = 0, slope = 0;
                switch (in.op) {
                    case Op::sin: v = std::sin(x), slope = std::cos(x); break;
                    case Op::cos: v = std::cos(x), slope = -std::sin(x); break;
                    case Op::tan: v = std::tan(x), slope = 1.0 + v * v; break;
                    case Op::exp: v = std::exp(x), slope = v; break;
                    case Op::log: v = std::log(x), slope = 1.0 / x; break;
                    case Op::sqrt: v = std::sqrt(x), slope = 0.5 / v; break;
                    default: v = std::fabs(x), slope = x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; break;
                }
                a.v = v;
                for (int i = 0; i < G; ++i) a.d[i] = slope * a.d[i];
                break;
            }
            case Op::min:
            case Op::max: {
                --sp;
                const bool take_b = in.op == Op::min ? s[sp + 1].v < s[sp].v : s[sp].v < s[sp + 1].v;
                if (take_b) s[sp] = s[sp + 1];
                break;
            }
            case Op::atan2: {
                --sp;
                Dual& a = s[sp];
                const Dual& b = s[sp + 1];
                const double r = a.v * a.v + b.v * b.v;
                for (int i = 0; i < G; ++i) a.d[i] = (b.v * a.d[i] - a.v * b.d[i]) / r;
                a.v = std::atan2(a.v, b.v);
                break;
            }
        }
    }
    for (int i = 0; i < G; ++i) grad[i] = s[0].d[i];
    return s[0].v;
}

}  // namespace stepwise
