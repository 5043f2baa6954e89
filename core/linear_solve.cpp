#include "linear_solve.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace stepwise {

bool solve_dense(int n, double* m, double* r) {
    for (int c = 0; c < n; ++c) {
        int p = c;
        for (int row = c + 1; row < n; ++row)
            if (std::fabs(m[row * n + c]) > std::fabs(m[p * n + c])) p = row;
        if (m[p * n + c] == 0.0) return false;
        if (p != c) {
            for (int k = 0; k < n; ++k) std::swap(m[c * n + k], m[p * n + k]);
            std::swap(r[c], r[p]);
        }
        for (int row = c + 1; row < n; ++row) {
            const double f = m[row * n + c] / m[c * n + c];
            for (int k = c; k < n; ++k) m[row * n + k] -= f * m[c * n + k];
            r[row] -= f * r[c];
        }
    }
    for (int c = n - 1; c >= 0; --c) {
        double acc = r[c];
        for (int k = c + 1; k < n; ++k) acc -= m[c * n + k] * r[k];
        r[c] = acc / m[c * n + c];
    }
    return true;
}

namespace {

// x is finite: |x| <= the largest double (false for inf and NaN), without a branch.
inline bool finite(double x) { return std::fabs(x) <= 1.7976931348623157e308; }

}  // namespace

BandSolve solve_banded(const Band& b, double* band, double* r) {
    const int n = b.n, kl = b.kl, reach = b.kl + b.ku;  // a pivot row's last column: c + reach
    const int w = b.width();
    // Row i, column j at band[i·w + j − i + kl]: a row's columns are contiguous, so row i's
    // column j sits (i − c)·(w − 1) after row c's column j.
    auto row_at = [&](int i, int j) { return band + i * w + j - i + kl; };
    bool ok = true;
    // solve_dense subtracts f·r[c] from every row below c; beyond the band f is 0·(1/pivot), of
    // the pivot's sign, and the product a zero of sign(pivot)·sign(r[c]): when that is −0 it turns
    // a −0 there into +0 (x − (−0) = x + 0), and nothing turns +0 back. `turned`: some earlier
    // step did so for every row still beyond the band.
    bool turned = false;
    for (int c = 0; c < n; ++c) {
        // Row c + kl joins the band at this step; the steps before passed it by.
        if (c > 0 && c + kl < n && turned && r[c + kl] == 0.0 && std::signbit(r[c + kl])) r[c + kl] = 0.0;
        const int last_row = std::min(n - 1, c + kl), last_col = std::min(n - 1, c + reach);
        int p = c;
        for (int row = c + 1; row <= last_row; ++row)
            if (std::fabs(*row_at(row, c)) > std::fabs(*row_at(p, c))) p = row;
        const double pivot_value = *row_at(p, c);
        if (pivot_value == 0.0) return ok ? BandSolve::singular : BandSolve::not_finite;
        if (p != c) {
            double *a = row_at(c, c), *z = row_at(p, c);
            for (int k = 0; k <= last_col - c; ++k) std::swap(a[k], z[k]);
            std::swap(r[c], r[p]);
        }
        const double* pivot_row = row_at(c, c);
        const double pivot = pivot_row[0];
        for (int k = 0; k <= last_col - c; ++k) ok &= finite(pivot_row[k]);
        ok &= finite(r[c]);
        for (int row = c + 1; row <= last_row; ++row) {
            double* m = row_at(row, c);
            const double f = m[0] / pivot;
            ok &= finite(f);
            for (int k = 0; k <= last_col - c; ++k) m[k] -= f * pivot_row[k];
            r[row] -= f * r[c];
        }
        turned |= std::signbit(pivot) != std::signbit(r[c]);
    }
    // Back substitution. Beyond a row's reach solve_dense subtracts (+0)·r[k], a zero of r[k]'s
    // sign, which turns a −0 sum into +0 when that sign is negative. `negative_beyond`: some r[k]
    // with k > c + reach has its sign bit set.
    bool negative_beyond = false;
    for (int c = n - 1; c >= 0; --c) {
        if (c + reach + 1 < n) negative_beyond |= std::signbit(r[c + reach + 1]);
        const double* u = row_at(c, c);
        const int last_col = std::min(n - 1, c + reach);
        double acc = r[c];
        for (int k = c + 1; k <= last_col; ++k) acc -= u[k - c] * r[k];
        if (negative_beyond && acc == 0.0) acc = 0.0;  // −0 − (−0) = +0, and +0 stays
        r[c] = acc / u[0];
        ok &= finite(r[c]);
    }
    return ok ? BandSolve::solved : BandSolve::not_finite;
}

}  // namespace stepwise
