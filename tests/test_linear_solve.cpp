// The banded solve against the dense one (core/linear_solve.hpp): the same numbers bit for bit,
// signs of zero included, on random bands that need row swaps, with right-hand sides full of ±0;
// and implicit Euler on a chain, whose Newton systems take the band, against the same lane
// solving densely.
#include "integrators.hpp"
#include "linear_solve.hpp"
#include "system.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

using namespace stepwise;

namespace {

struct Lcg {
    std::uint64_t state;
    double next() {  // uniform in [0, 1)
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) * (1.0 / 9007199254740992.0);
    }
};

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Solves the dense n x n matrix m (zero outside the band) both ways; true when they agree.
bool agree(int n, int kl, int ku, const std::vector<double>& m, const std::vector<double>& r, BandSolve& how) {
    std::vector<double> dense = m, rd = r;
    const bool dense_solved = solve_dense(n, dense.data(), rd.data());
    const Band b{n, kl, ku};
    std::vector<double> band(b.size(), 0.0), rb = r;
    for (int i = 0; i < n; ++i)
        for (int j = std::max(0, i - kl); j <= std::min(n - 1, i + ku); ++j) b.at(band.data(), i, j) = m[i * n + j];
    how = solve_banded(b, band.data(), rb.data());
    if (how == BandSolve::not_finite) return true;  // the caller then solves densely
    if ((how == BandSolve::solved) != dense_solved) return false;
    return !dense_solved || same_bits(rd, rb);
}

}  // namespace

TEST_CASE("the banded solve gives the dense solve's numbers, signs of zero included", "[linear_solve]") {
    Lcg rng{0x6a6bULL};
    int solved = 0, signed_zeros = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const int n = 2 + static_cast<int>(rng.next() * 30);
        const int kl = 1 + static_cast<int>(rng.next() * 4), ku = 1 + static_cast<int>(rng.next() * 4);
        std::vector<double> m(static_cast<size_t>(n * n), 0.0), r(static_cast<size_t>(n));
        // Entries in the band: random signs and sizes, some exactly 0 (+0: the matrix holds no
        // −0, see solve_banded), diagonals often small so that rows swap.
        for (int i = 0; i < n; ++i)
            for (int j = std::max(0, i - kl); j <= std::min(n - 1, i + ku); ++j) {
                const double u = rng.next();
                double e = u < 0.2 ? 0.0 : (2.0 * rng.next() - 1.0) * std::pow(10.0, 4.0 * rng.next() - 2.0);
                if (i == j && rng.next() < 0.5) e *= 1e-3;
                m[i * n + j] = e;
            }
        // Right-hand sides: mostly ±0 in some trials (a motion along x alone leaves every y
        // residual 0), random otherwise.
        const double zeros = trial % 3 == 0 ? 0.9 : 0.2;
        for (double& e : r) {
            const double u = rng.next();
            e = u < zeros ? (rng.next() < 0.5 ? -0.0 : 0.0) : 2.0 * rng.next() - 1.0;
        }
        BandSolve how = BandSolve::singular;  // set by agree()
        INFO("trial " << trial << ", n = " << n << ", kl = " << kl << ", ku = " << ku);
        REQUIRE(agree(n, kl, ku, m, r, how));
        solved += how == BandSolve::solved;
        for (double e : r) signed_zeros += e == 0.0 && std::signbit(e);
    }
    CHECK(solved > 2000);
    CHECK(signed_zeros > 1000);
}

TEST_CASE("the banded solve leaves infinities and NaN to the dense one", "[linear_solve]") {
    const int n = 8, kl = 1, ku = 1;
    std::vector<double> m(n * n, 0.0), r(n, 1.0);
    for (int i = 0; i < n; ++i) {
        m[i * n + i] = 4.0;
        if (i > 0) m[i * n + i - 1] = -1.0;
        if (i + 1 < n) m[i * n + i + 1] = -1.0;
    }
    BandSolve how;
    REQUIRE(agree(n, kl, ku, m, r, how));
    CHECK(how == BandSolve::solved);
    m[3 * n + 4] = std::numeric_limits<double>::infinity();
    REQUIRE(agree(n, kl, ku, m, r, how));
    CHECK(how == BandSolve::not_finite);
    m[3 * n + 4] = -1.0;
    m[5 * n + 5] = std::numeric_limits<double>::quiet_NaN();
    REQUIRE(agree(n, kl, ku, m, r, how));
    CHECK(how == BandSolve::not_finite);
}

TEST_CASE("implicit Euler on a chain solves its band and gets the dense solve's numbers", "[linear_solve]") {
    // Chains of pair springs hanging from an anchor spring, rest 0 (a linear spring, whose
    // Jacobian has exact zeros), and of compliant links with rest lengths; hanging (y only moves at first) or laid out
    // along x with gravity off (every y residual 0, the right-hand sides full of ±0).
    for (const bool stretched : {false, true})
        for (const double rest : {0.0, 0.4}) {
            System s;
            const int n = 24;
            std::vector<dvec2> x0, v0;
            for (int i = 0; i < n; ++i) {
                s.add_body(i == n - 1 ? 3.0 : 1.0);
                x0.push_back(stretched ? dvec2(0.5 * (i + 1), 0.0) : dvec2(0.0, -0.5 * (i + 1)));
                v0.push_back(dvec2(stretched ? 0.1 * i : 0.0, 0.0));
            }
            s.gravity = stretched ? dvec2(0.0, 0.0) : dvec2(0.0, -9.81);
            if (rest == 0.0) {
                s.anchor_springs.push_back({0, dvec2(0.0, 0.0), 400.0, rest, 0.0});
                for (int i = 0; i + 1 < n; ++i) s.pair_springs.push_back({i, i + 1, 400.0, rest, 0.5});
            } else {
                // The chain scenario's compliant links (a spring along each, damped along it).
                for (int i = 0; i < n; ++i)
                    s.links.push_back({i, i == 0 ? no_body : i - 1, dvec2(0.0, 0.0), rest, 1.0 / 400.0, 0.5});
            }
            if (!stretched) x0[n - 1].x = 0.3;  // a kick sideways at the end
            const int index = find_integrator("implicit_euler");
            Lane band = make_lane(s, index, x0.data(), v0.data());
            REQUIRE(band.band_kl == 3);  // 2·1 + 1 for neighbours
            Lane dense = band;
            dense.band_kl = 0;
            for (int step = 0; step < 300; ++step) {
                integrators()[index].step(s, band, 0.01);
                integrators()[index].step(s, dense, 0.01);
            }
            INFO("stretched " << stretched << ", rest " << rest);
            CHECK(std::memcmp(band.x.data(), dense.x.data(), n * sizeof(dvec2)) == 0);
            CHECK(std::memcmp(band.v.data(), dense.v.data(), n * sizeof(dvec2)) == 0);
            CHECK(band.force_evaluations == dense.force_evaluations);
            CHECK(band.force_evaluations >= 600);  // 2 evaluations a step when linear
        }
}
