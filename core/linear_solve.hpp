// Gaussian elimination with partial pivoting for implicit Euler's Newton systems: dense, and on a
// band (a chain's bodies couple only their neighbours), where it gives the dense solve's numbers
// in O(n·kl·(kl + ku)) instead of O(n³).
#pragma once
#include <cstddef>

namespace stepwise {

// Solves the n x n row-major system m y = r in place (r receives y): elimination column by
// column, the pivot the first row of largest |entry| in the column, then back substitution.
// Returns false at a zero pivot (a singular matrix).
bool solve_dense(int n, double* m, double* r);

// A band of an n x n matrix: kl entries below the diagonal, ku above, and room for the kl more
// above that row swaps fill in. Row-major, width 2 kl + ku + 1: row i's column j (from i − kl to
// i + kl + ku) at data[i·width + j − i + kl]; what lies outside the matrix or the band is 0.
struct Band {
    int n, kl, ku;
    int width() const { return 2 * kl + ku + 1; }
    size_t size() const { return static_cast<size_t>(n) * static_cast<size_t>(width()); }
    double& at(double* data, int i, int j) const { return data[i * width() + j - i + kl]; }
};

enum class BandSolve { solved, singular, not_finite };

// solve_dense on a band, in place: the same eliminations in the same order with the same pivots,
// so the same numbers, bit for bit. What solve_dense does beyond the band subtracts 0·(a finite
// number), which leaves every number as it is but may turn a −0 into +0; in the right-hand side
// those turns are done here too (a −0 entry in the matrix would need them as well: the matrix
// must hold none, as I − h(h Jx + Jv) built from 0 − (±0) = +0 does not). Where an infinity or
// NaN comes up (in the multipliers, the pivot rows or the solution), solve_dense's extra products
// 0·inf would not be zeros: it stops with not_finite, leaving band and r changed, and the caller
// solves densely instead. solved and singular are solve_dense's answers.
BandSolve solve_banded(const Band& b, double* band, double* r);

}  // namespace stepwise
