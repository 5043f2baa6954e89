// The written force's potential where it is not a polynomial: the adaptive quadrature, and the
// decision whether a potential exists at all (written_force.hpp says why each is as it is).
#include "forces/written_force.hpp"

#include "number_text.hpp"

namespace stepwise {

WrittenForce::Integral WrittenForce::integral_adaptive(const System& s, int i, const Expression& f, int axis, double to) {
    Integral out;
    if (to == 0.0) return out;
    if (!std::isfinite(to)) {
        out.value = std::numeric_limits<double>::quiet_NaN();
        return out;
    }
    const GaussLegendre16& gl = gauss_legendre16();
    double vars[expr_var_count];
    variables(s, i, dvec2(0.0), dvec2(0.0), 0.0, vars);
    int panels = 0;
    // The 16-point value over [a, b] (and of |f| in `magnitude`); false at a non-finite value.
    const auto panel = [&](double a, double b, double& value, double& magnitude) {
        ++panels;
        quadrature_nodes() += GaussLegendre16::n;
        const double mid = 0.5 * (a + b), half = 0.5 * (b - a);
        double sum = 0.0, abs_sum = 0.0;
        for (int j = 0; j < GaussLegendre16::n; ++j) {
            vars[axis] = mid + half * gl.node[j];
            const double v = f.eval(vars);
            if (!std::isfinite(v)) {
                out.gap = Gap::not_finite;
                out.near = vars[axis];
                return false;
            }
            sum += gl.weight[j] * v;
            abs_sum += gl.weight[j] * std::fabs(v);
        }
        value = half * sum;
        magnitude = std::fabs(half) * abs_sum;
        return true;
    };
    struct Pending {
        double a, b, value;
        int depth;
    };
    Pending stack[adaptive_max_depth + 2];
    int top = 0;
    double whole = 0.0, magnitude = 0.0, unused = 0.0;
    if (!panel(0.0, to, whole, magnitude)) return out;
    const double tolerance = adaptive_tolerance * magnitude;
    stack[top++] = {0.0, to, whole, 0};
    double sum = 0.0;
    while (top > 0) {
        const Pending p = stack[--top];
        const double mid = p.a + split * (p.b - p.a);
        double left = 0.0, right = 0.0;
        if (!panel(p.a, mid, left, unused) || !panel(mid, p.b, right, unused)) return out;
        if (std::fabs(p.value - (left + right)) <= tolerance) {
            sum += left + right;
            continue;
        }
        if (p.depth == adaptive_max_depth || panels + 4 > adaptive_max_panels) {
            out.gap = Gap::not_integrable;
            out.near = mid;
            return out;
        }
        stack[top++] = {mid, p.b, right, p.depth + 1};
        stack[top++] = {p.a, mid, left, p.depth + 1};
    }
    out.value = sum;
    return out;
}

void WrittenForce::decide_potential(System& s, const dvec2* x0) {
    WrittenLaw& w = s.written;
    w.potential = w.exact_potential = false;
    w.no_potential.clear();
    w.no_potential_args.clear();
    if (!present(s)) return;
    const auto refuse = [&](const char* code, const char* which, MessageArgs args) {
        w.no_potential = code;
        args.insert(args.begin(), {{"key", which}, {"got", (which[1] == 'x' ? w.fx : w.fy).text()}});
        w.no_potential_args = std::move(args);
    };
    if (!reads_own_coordinate_only(s)) return;  // no potential by its form (docs/config.md): no note
    for (int i = 0; i < s.bodies(); ++i) {
        const dvec2 f0 = force(s, i, dvec2(0.0), dvec2(0.0), 0.0);
        if (!std::isfinite(f0.x)) return refuse("written_no_potential_origin", "fx", {{"axis", "x"}});
        if (!std::isfinite(f0.y)) return refuse("written_no_potential_origin", "fy", {{"axis", "y"}});
    }
    constexpr int exact_degree = 2 * GaussLegendre16::n - 1;
    const int dx = w.fx.polynomial_degree(ExprVar::x), dy = w.fy.polynomial_degree(ExprVar::y);
    w.exact_potential = dx >= 0 && dx <= exact_degree && dy >= 0 && dy <= exact_degree;
    if (!w.exact_potential)
        for (int i = 0; i < s.bodies(); ++i)
            for (int axis = 0; axis < 2; ++axis) {
                const double to = axis == 0 ? x0[i].x : x0[i].y;
                const Integral r = integral_adaptive(s, i, axis == 0 ? w.fx : w.fy, axis, to);
                if (r.gap == Gap::none) continue;
                const char* name = axis == 0 ? "x" : "y";
                return refuse(r.gap == Gap::not_finite ? "written_no_potential_not_finite" : "written_no_potential_pole",
                              axis == 0 ? "fx" : "fy",
                              {{"body", std::to_string(i)}, {"axis", name}, {"start", format_number(to)},
                               {"near", format_significant(r.near, 6)}});
            }
    w.potential = true;
}

}  // namespace stepwise
