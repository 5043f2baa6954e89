// The stand-in for the part `written` (core/parts.hpp) in a build without it: the same functions,
// never called, since the parser lets no link with fx or fy through in such a build
// (ParseResult::missing_parts). Each gives what the constant 0 would.
#include "parts.hpp"
#include "expression.hpp"
#include "forces/written_force.hpp"

namespace stepwise {

bool carries_written() { return false; }

const std::vector<std::string_view>& expr_variable_names() {
    static const std::vector<std::string_view> none;
    return none;
}
const std::vector<std::string_view>& expr_function_names() { return expr_variable_names(); }
int expr_characters(std::string_view text) { return static_cast<int>(text.size()); }
std::optional<Expression> Expression::compile(std::string_view, ExprProblem&) { return Expression(); }
double Expression::eval(const double*) const { return 0.0; }
double Expression::eval_grad(const double*, double grad[expr_grad_count]) const {
    for (int k = 0; k < expr_grad_count; ++k) grad[k] = 0.0;
    return 0.0;
}
int Expression::polynomial_degree(ExprVar) const { return 0; }

void WrittenForce::decide_potential(System&, const dvec2*) {}
WrittenForce::Integral WrittenForce::integral_adaptive(const System&, int, const Expression&, int, double) { return {}; }

}  // namespace stepwise
