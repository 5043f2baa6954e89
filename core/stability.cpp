#include "stability.hpp"

#include "forces/link.hpp"
#include "integrators.hpp"

#include <algorithm>
#include <cmath>

namespace stepwise {

namespace {

// The lane's state on the test equation: one body moving along x, so every vector holds one
// dvec2 and only its x component takes part. These are the components a method may read or
// write; OscillatorProbe keeps those it uses.
constexpr int lane_components = 5;

double& component(Lane& L, int k) {
    switch (k) {
        case 0: return L.x[0].x;
        case 1: return L.v[0].x;
        case 2: return L.carry_x[0].x;
        case 3: return L.carry_v[0].x;
        default: return L.carry_a[0].x;
    }
}

// Sets the lane to state e_k (component k = 1, the rest 0) as a lane that has started
// (stateful methods read their carries), steps it once and writes the result as column k.
void step_basis(const System& s, Lane& L, int k, double h, double* column) {
    for (int j = 0; j < lane_components; ++j) component(L, j) = j == k ? 1.0 : 0.0;
    L.x[0].y = L.v[0].y = L.carry_x[0].y = L.carry_v[0].y = L.carry_a[0].y = 0.0;
    L.started = true;
    // soft_step's carried impulses start each column at 0: this system's rows (the rest-0
    // spring's two axes) are orthogonal, and on such a row the warm start is taken back in its own
    // solve pass (mass scale + impulse scale = 1), so the map of (x, v) does not depend on them; an
    // impulse left over from the last column would only add its round-off.
    std::fill(L.row_lambda.begin(), L.row_lambda.end(), 0.0);
    integrators()[L.integrator].step(s, L, h);
    for (int j = 0; j < lane_components; ++j) column[j] = component(L, j);
}

// ρ of a 2 x 2 matrix from its trace and determinant: a complex pair has |λ|² = det exactly,
// so a symplectic map reads 1 to round-off right up to its double root at the limit, where an
// iterative method would lose half the digits.
double radius_2x2(double a, double b, double c, double d) {
    const double trace = a + d, det = a * d - b * c;
    const double disc = trace * trace - 4.0 * det;
    if (disc < 0.0) return std::sqrt(det);
    return 0.5 * (std::fabs(trace) + std::sqrt(disc));
}

}  // namespace

namespace {

// M restricted to its range: B = Q^T M Q (rank x rank) for an orthonormal basis Q of M's columns.
// The range of M is invariant under M and holds every eigenvector of a nonzero eigenvalue, so B
// has the same nonzero eigenvalues. The carried values of the Verlet family make M 3 x 3 of rank 2.
// Returns the rank (0 for the zero map), or -1 when M is not finite. n ≤ 5.
int restrict_to_range(int n, const double* m, double* b /* 25 doubles */) {
    double q[5][5];  // q[k]: basis vector k
    int rank = 0;
    double largest = 0.0;
    for (int c = 0; c < n; ++c) {
        double norm = 0.0;
        for (int r = 0; r < n; ++r) norm += m[r * n + c] * m[r * n + c];
        largest = std::max(largest, std::sqrt(norm));
    }
    if (largest == 0.0) return 0;
    if (!std::isfinite(largest)) return -1;
    bool taken[5] = {};
    for (;;) {
        // Modified Gram–Schmidt with pivoting: the column with the largest remainder next.
        int best = -1;
        double best_norm = 1e-12 * largest;
        double rest[5][5];
        for (int c = 0; c < n; ++c) {
            if (taken[c]) continue;
            for (int r = 0; r < n; ++r) rest[c][r] = m[r * n + c];
            for (int k = 0; k < rank; ++k) {
                double dot = 0.0;
                for (int r = 0; r < n; ++r) dot += q[k][r] * rest[c][r];
                for (int r = 0; r < n; ++r) rest[c][r] -= dot * q[k][r];
            }
            double norm = 0.0;
            for (int r = 0; r < n; ++r) norm += rest[c][r] * rest[c][r];
            norm = std::sqrt(norm);
            if (norm > best_norm) {
                best_norm = norm;
                best = c;
            }
        }
        if (best < 0) break;
        taken[best] = true;
        for (int r = 0; r < n; ++r) q[rank][r] = rest[best][r] / best_norm;
        ++rank;
    }
    for (int i = 0; i < rank; ++i)
        for (int j = 0; j < rank; ++j) {
            double sum = 0.0;
            for (int r = 0; r < n; ++r) {
                double mq = 0.0;
                for (int c = 0; c < n; ++c) mq += m[r * n + c] * q[j][c];
                sum += q[i][r] * mq;
            }
            b[i * rank + j] = sum;
        }
    return rank;
}

}  // namespace

double map_radius(int n, const double* m, double* scratch) {
    if (n > 5) return spectral_radius(n, m, scratch);
    double b[25];
    const int rank = restrict_to_range(n, m, b);
    if (rank <= 0) return rank == 0 ? 0.0 : HUGE_VAL;
    if (rank == 1) return std::fabs(b[0]);
    if (rank == 2) return radius_2x2(b[0], b[1], b[2], b[3]);
    return spectral_radius(rank, b, scratch);
}

bool map_within(int n, const double* m, double tolerance, double* scratch) {
    const double bound = 1.0 + tolerance;
    if (n > 5) return spectral_radius(n, m, scratch) <= bound;
    double b[25];
    const int rank = restrict_to_range(n, m, b);
    if (rank <= 0) return rank == 0;
    if (rank == 1) return std::fabs(b[0]) <= bound;
    if (rank != 2) return spectral_radius(rank, b, scratch) <= bound;
    // A double root (critical damping, ζ = 1: a Jordan block) is where the radius from the roots
    // fails: an error ε in M moves a double root by √ε, so √(tr² - 4 det) read up to 1e-7 above
    // the true radius (rk4's limit at ζ = 1 came out 2.7852935126 instead of 2.7852935634). The
    // determinant keeps its digits there (for a double root |λ|² = det), and both roots lie in
    // the closed disc |λ| ≤ 1 exactly when |det| ≤ 1 and |tr| ≤ 1 + det (Schur–Cohn, Jury's
    // conditions). So where the radius says unstable but the roots are one double root within
    // round-off (disc tiny against tr²) and the determinant is clearly inside, those conditions
    // decide, with the tolerance as slack for |tr| ≤ 1 + det, which a double root only touches.
    // Where det is within 1e-13 of 1 the radius decides as before: a symplectic map's double root
    // on the circle (ζ = 0 at its limit) then still reads unstable just past the limit, and no
    // limit that the radius got right moves.
    const double trace = b[0] + b[3], det = b[0] * b[3] - b[1] * b[2];
    if (radius_2x2(b[0], b[1], b[2], b[3]) <= bound) return true;
    const double disc = trace * trace - 4.0 * det;
    const bool double_root = disc >= 0.0 && disc <= 1e-12 * std::max(1.0, trace * trace);
    return double_root && std::fabs(det) <= 1.0 - 1e-13 && std::fabs(trace) <= 1.0 + det + tolerance;
}

double spectral_radius(int n, const double* m, double* scratch) {
    // ρ(M) = lim ||M^k||^(1/k). Square 48 times (k = 2^48 ≈ 2.8e14), rescaling each power to a
    // largest entry of 1 and summing the logs of the scales weighted by 1/k: the polynomial
    // factor of a Jordan block (||M^k|| ~ k ρ^k) costs log(k)/k ≈ 1e-13 in ρ.
    double* a = scratch;
    double* b = scratch + n * n;
    double largest = 0.0;
    for (int i = 0; i < n * n; ++i) largest = std::max(largest, std::fabs(m[i]));
    if (largest == 0.0 || !std::isfinite(largest)) return largest == 0.0 ? 0.0 : HUGE_VAL;
    for (int i = 0; i < n * n; ++i) a[i] = m[i] / largest;
    double log_radius = std::log(largest);
    double weight = 1.0;  // 1 / 2^j
    for (int j = 0; j < 48; ++j) {
        weight *= 0.5;
        double scale = 0.0;
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c) {
                double sum = 0.0;
                for (int k = 0; k < n; ++k) sum += a[r * n + k] * a[k * n + c];
                b[r * n + c] = sum;
                scale = std::max(scale, std::fabs(sum));
            }
        if (scale == 0.0) return 0.0;  // nilpotent
        for (int i = 0; i < n * n; ++i) a[i] = b[i] / scale;
        log_radius += weight * std::log(scale);
    }
    return std::exp(log_radius);
}

OscillatorProbe::OscillatorProbe(int integrator) : integrator_(integrator) {
    system_.add_body(1.0);
    system_.anchor_springs.push_back(AnchorSpring{.body = 0, .anchor = dvec2(0.0), .k = 1.0, .rest = 0.0, .b = 0.0});
    map_.resize(lane_components * lane_components);
    scratch_.resize(2 * lane_components * lane_components);
    // Which components the method uses: probe the full map once at a generic point (ωh = 0.3,
    // ζ = 0.1). A component that nothing writes and nothing reads (its column and row are those
    // of the identity) is not state; a component that is written but never read (a zero column,
    // like leapfrog's reported v) adds only the eigenvalue 0. Either way it is dropped: the
    // remaining block has the same nonzero eigenvalues.
    system_.anchor_springs[0].b = 0.2;
    const dvec2 origin(0.0);
    lane_ = make_lane(system_, integrator_, &origin, &origin);
    Lane& lane = lane_;
    double full[lane_components][lane_components];  // full[column][row]
    for (int k = 0; k < lane_components; ++k) step_basis(system_, lane, k, 0.3, full[k]);
    for (int k = 0; k < lane_components; ++k) {
        bool untouched = true, unread = true;
        for (int j = 0; j < lane_components; ++j) {
            if (full[k][j] != (j == k ? 1.0 : 0.0) || full[j][k] != (j == k ? 1.0 : 0.0)) untouched = false;
            if (full[k][j] != 0.0) unread = false;
        }
        if (!untouched && !unread) used_[dim_++] = k;
    }
}

void OscillatorProbe::build_map(double omega_h, double zeta) {
    // a = -x - 2ζ v (ω = 1, m = 1): the damper is the spring's own, so the test equation is one
    // force, the damped oscillator, whose closed form the kinematic integrator follows exactly.
    system_.anchor_springs[0].b = 2.0 * zeta;
    const dvec2 origin(0.0);
    lane_.reset(&origin, &origin);  // also forgets the kinematic maps, which depend on the damper
    Lane& lane = lane_;
    double column[lane_components];
    for (int c = 0; c < dim_; ++c) {
        step_basis(system_, lane, used_[c], omega_h, column);
        for (int r = 0; r < dim_; ++r) map_[r * dim_ + c] = column[used_[r]];
    }
}

double OscillatorProbe::radius(double omega_h, double zeta) {
    build_map(omega_h, zeta);
    return map_radius(dim_, map_.data(), scratch_.data());
}

bool OscillatorProbe::stable(double omega_h, double zeta) {
    build_map(omega_h, zeta);
    return map_within(dim_, map_.data(), stability_tolerance, scratch_.data());
}

LaneStability lane_stability(int integrator, int substeps, const StiffestMode& mode, double dt) {
    LaneStability out;
    const double zeta = mode.oscillates && mode.zeta > 0.0 ? mode.zeta : 0.0;
    out.at_zeta = oscillator_limit(integrator, zeta);
    if (!mode.oscillates) return out;
    const double s = static_cast<double>(substeps);
    out.omega_dt = mode.omega * dt;
    out.omega_h = out.omega_dt / s;
    out.has_largest = !out.at_zeta.unconditional;
    out.largest_dt = s * out.at_zeta.limit / mode.omega;
    out.stable_now = out.at_zeta.unconditional || OscillatorProbe(integrator).stable(out.omega_h, mode.zeta);
    return out;
}

StabilityLimit oscillator_limit(int integrator, double zeta) {
    StabilityLimit result;
    if (integrators()[integrator].adaptive) {
        result.adaptive = result.unconditional = true;
        return result;
    }
    OscillatorProbe probe(integrator);
    // Probes: every 0.01 up to 10 (the limits of the explicit methods lie there), then 1 % apart.
    double last_stable = 0.0, first_unstable = 0.0;
    for (double w = stability_probe_min; w <= stability_probe_max * (1.0 + 1e-12);) {
        if (!probe.stable(w, zeta)) {
            first_unstable = w;
            break;
        }
        last_stable = w;
        w = w < 10.0 ? stability_probe_min * std::round(w / stability_probe_min + 1.0) : w * 1.01;
    }
    if (first_unstable == 0.0) {
        result.unconditional = true;
        return result;
    }
    if (last_stable == 0.0) return result;  // unstable at the smallest probe: no stable interval
    double lo = last_stable, hi = first_unstable;
    while (hi - lo > 1e-13 * hi) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        (probe.stable(mid, zeta) ? lo : hi) = mid;
    }
    result.limit = lo;
    return result;
}

namespace {

// Cyclic Jacobi on the symmetric n x n matrix k (row-major): k becomes diag(λ) and the columns of
// `vectors` the unit eigenvectors.
void symmetric_eigen(int n, double* k, double* vectors) {
    for (int i = 0; i < n * n; ++i) vectors[i] = i % (n + 1) == 0 ? 1.0 : 0.0;
    for (int sweep = 0; sweep < 64; ++sweep) {
        double off = 0.0, diag = 0.0;
        for (int p = 0; p < n; ++p) {
            diag += k[p * n + p] * k[p * n + p];
            for (int q = p + 1; q < n; ++q) off += k[p * n + q] * k[p * n + q];
        }
        if (off <= 1e-30 * diag || off == 0.0) break;
        for (int p = 0; p < n; ++p)
            for (int q = p + 1; q < n; ++q) {
                const double apq = k[p * n + q];
                if (apq == 0.0) continue;
                const double theta = (k[q * n + q] - k[p * n + p]) / (2.0 * apq);
                const double t = (theta >= 0.0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
                const double cs = 1.0 / std::sqrt(t * t + 1.0), sn = t * cs;
                for (int r = 0; r < n; ++r) {  // K <- K J (columns p, q)
                    const double kp = k[r * n + p], kq = k[r * n + q];
                    k[r * n + p] = cs * kp - sn * kq;
                    k[r * n + q] = sn * kp + cs * kq;
                }
                for (int col = 0; col < n; ++col) {  // K <- J^T K (rows p, q)
                    const double kp = k[p * n + col], kq = k[q * n + col];
                    k[p * n + col] = cs * kp - sn * kq;
                    k[q * n + col] = sn * kp + cs * kq;
                }
                for (int r = 0; r < n; ++r) {  // V <- V J
                    const double vp = vectors[r * n + p], vq = vectors[r * n + q];
                    vectors[r * n + p] = cs * vp - sn * vq;
                    vectors[r * n + q] = sn * vp + cs * vq;
                }
            }
    }
}

// The largest diagonal entry in absolute value (after symmetric_eigen: the stiffest mode).
int largest_diagonal(int n, const double* k) {
    int best = 0;
    for (int p = 1; p < n; ++p)
        if (std::fabs(k[p * n + p]) > std::fabs(k[best * n + best])) best = p;
    return best;
}

// The share of a displacement u's (2 · bodies entries) potential energy uᵀ K u (energy, > 0) that
// is in the compliant links' stretch, Σ (n·(u_i − u_j))²/α: over a half, the mode stretches links.
ModeKind kind_of(const System& s, const dvec2* x, const std::vector<double>& u, double energy, ModeKind otherwise) {
    double stretch = 0.0;
    for (const Link& k : s.links) {
        if (k.compliance == 0.0) continue;
        const dvec2 d = x[k.i] - LinkForce::far_x(k, x);
        const double len = std::sqrt(d.x * d.x + d.y * d.y);
        if (len == 0.0) continue;
        const dvec2 ui(u[2 * k.i], u[2 * k.i + 1]);
        const dvec2 uj = k.j == no_body ? dvec2(0.0) : dvec2(u[2 * k.j], u[2 * k.j + 1]);
        const double along = ((ui.x - uj.x) * d.x + (ui.y - uj.y) * d.y) / len;
        stretch += along * along / k.compliance;
    }
    return stretch > 0.5 * std::fabs(energy) ? ModeKind::link_stretch : otherwise;
}

// With rigid links: the modes of the reduced coordinates (stability.hpp).
StiffestMode reduced_stiffest_mode(const System& s, const dvec2* x, const dvec2* v) {
    const int n = 2 * s.bodies();
    std::vector<double> jx(n * n), jv(n * n);
    acceleration_jacobian_dense(s, x, v, jx.data(), jv.data(), 0.0);  // the forces' at the start (rigid links have none)
    // K = −M ∂a/∂x and C = −M ∂a/∂v, then each taut rod's λ (I − n nᵀ)/|d| on its ends' blocks.
    std::vector<double> k(n * n), c(n * n);
    for (int r = 0; r < n; ++r)
        for (int col = 0; col < n; ++col) {
            k[r * n + col] = -s.mass[r / 2] * jx[r * n + col];
            c[r * n + col] = -s.mass[r / 2] * jv[r * n + col];
        }
    std::vector<dvec2> a(static_cast<size_t>(s.bodies()));
    std::vector<double> lambda(s.links.size(), 0.0);
    unconstrained_accelerations(s, x, v, a.data(), 0.0);  // at the start, t = 0
    LinkForce::constrain_accelerations(s, x, v, a.data(), lambda.data());
    std::vector<std::vector<double>> rows;  // J's rows, orthonormalised below
    for (size_t q = 0; q < s.links.size(); ++q) {
        const Link& link = s.links[q];
        if (link.compliance != 0.0) continue;
        const dvec2 d = x[link.i] - LinkForce::far_x(link, x);
        const double len = std::sqrt(d.x * d.x + d.y * d.y);
        const dvec2 u = d / len;
        const double h[4] = {(1.0 - u.x * u.x) / len, -u.x * u.y / len, -u.x * u.y / len, (1.0 - u.y * u.y) / len};
        std::vector<double> row(n, 0.0);
        row[2 * link.i] = u.x;
        row[2 * link.i + 1] = u.y;
        const int ends[2] = {link.i, link.j};
        for (int e = 0; e < 2; ++e)
            for (int f = 0; f < 2; ++f) {
                if (ends[e] == no_body || ends[f] == no_body) continue;
                const double sign = e == f ? 1.0 : -1.0;
                for (int r = 0; r < 2; ++r)
                    for (int col = 0; col < 2; ++col)
                        k[(2 * ends[e] + r) * n + 2 * ends[f] + col] += sign * lambda[q] * h[2 * r + col];
            }
        if (link.j != no_body) {
            row[2 * link.j] = -u.x;
            row[2 * link.j + 1] = -u.y;
        }
        rows.push_back(std::move(row));
    }
    // An orthonormal basis of J's rows, then of its complement T from the unit vectors: Gram–Schmidt
    // twice over. A unit vector whose remainder is under 0.5/√n is passed over; all of them being
    // so would leave a complement of dimension under n (0.5/√n)² < 1, so T is whole.
    std::vector<std::vector<double>> basis;
    const double keep = 0.5 / std::sqrt(static_cast<double>(n));
    auto add = [&](std::vector<double> w, double least) {
        for (int pass = 0; pass < 2; ++pass)
            for (const std::vector<double>& b : basis) {
                double dot = 0.0;
                for (int r = 0; r < n; ++r) dot += b[r] * w[r];
                for (int r = 0; r < n; ++r) w[r] -= dot * b[r];
            }
        double norm = 0.0;
        for (int r = 0; r < n; ++r) norm += w[r] * w[r];
        norm = std::sqrt(norm);
        if (!(norm > least)) return false;
        for (int r = 0; r < n; ++r) w[r] /= norm;
        basis.push_back(std::move(w));
        return true;
    };
    for (std::vector<double>& row : rows) add(row, 1e-12);  // links that repeat one another count once
    const size_t constrained = basis.size();
    for (int e = 0; e < n && static_cast<int>(basis.size()) < n; ++e) {
        std::vector<double> unit(n, 0.0);
        unit[e] = 1.0;
        add(unit, keep);
    }
    const int m = static_cast<int>(basis.size() - constrained);  // the reduced coordinates
    StiffestMode mode;
    mode.kind = ModeKind::swing;
    mode.modes = m;
    if (m == 0) return mode;
    // M_r, K_r, C_r = Tᵀ (M, K, C) T.
    auto reduce = [&](const double* full, bool diagonal_mass) {
        std::vector<double> out(m * m);
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < m; ++j) {
                const std::vector<double>&ti = basis[constrained + i], &tj = basis[constrained + j];
                double sum = 0.0;
                for (int r = 0; r < n; ++r) {
                    if (diagonal_mass) {
                        sum += ti[r] * s.mass[r / 2] * tj[r];
                        continue;
                    }
                    double row = 0.0;
                    for (int col = 0; col < n; ++col) row += full[r * n + col] * tj[col];
                    sum += ti[r] * row;
                }
                out[i * m + j] = sum;
            }
        return out;
    };
    std::vector<double> mr = reduce(nullptr, true), kr = reduce(k.data(), false), cr = reduce(c.data(), false);
    // M_r = L Lᵀ (Cholesky, in place, lower), A = L⁻¹ K_r L⁻ᵀ, symmetric.
    for (int j = 0; j < m; ++j) {
        double d = mr[j * m + j];
        for (int p = 0; p < j; ++p) d -= mr[j * m + p] * mr[j * m + p];
        mr[j * m + j] = std::sqrt(d);
        for (int i = j + 1; i < m; ++i) {
            double sum = mr[i * m + j];
            for (int p = 0; p < j; ++p) sum -= mr[i * m + p] * mr[j * m + p];
            mr[i * m + j] = sum / mr[j * m + j];
        }
    }
    // L⁻¹ X L⁻ᵀ for a symmetric X: forward substitution on the columns, then on the rows.
    auto whiten = [&](std::vector<double>& xm) {
        for (int col = 0; col < m; ++col)
            for (int i = 0; i < m; ++i) {
                double sum = xm[i * m + col];
                for (int p = 0; p < i; ++p) sum -= mr[i * m + p] * xm[p * m + col];
                xm[i * m + col] = sum / mr[i * m + i];
            }
        for (int r = 0; r < m; ++r)
            for (int i = 0; i < m; ++i) {
                double sum = xm[r * m + i];
                for (int p = 0; p < i; ++p) sum -= mr[i * m + p] * xm[r * m + p];
                xm[r * m + i] = sum / mr[i * m + i];
            }
    };
    whiten(kr);
    whiten(cr);
    for (int r = 0; r < m; ++r)
        for (int col = r + 1; col < m; ++col) kr[r * m + col] = kr[col * m + r] = 0.5 * (kr[r * m + col] + kr[col * m + r]);
    std::vector<double> vectors(m * m);
    symmetric_eigen(m, kr.data(), vectors.data());
    const int best = largest_diagonal(m, kr.data());
    const double lambda_best = kr[best * m + best];
    if (!(std::fabs(lambda_best) > 0.0) || !std::isfinite(lambda_best)) return mode;
    mode.oscillates = true;
    mode.omega = std::sqrt(std::fabs(lambda_best));
    double damping = 0.0;
    for (int r = 0; r < m; ++r)
        for (int col = 0; col < m; ++col) damping += vectors[r * m + best] * cr[r * m + col] * vectors[col * m + best];
    mode.zeta = std::max(0.0, damping / (2.0 * mode.omega));
    // The mode's displacement u = T L⁻ᵀ y: most of its energy in compliant links' stretch, or a swing.
    std::vector<double> phi(m), u(n, 0.0);
    for (int i = m - 1; i >= 0; --i) {
        double sum = vectors[i * m + best];
        for (int p = i + 1; p < m; ++p) sum -= mr[p * m + i] * phi[p];
        phi[i] = sum / mr[i * m + i];
    }
    for (int i = 0; i < m; ++i)
        for (int r = 0; r < n; ++r) u[r] += basis[constrained + i][r] * phi[i];
    mode.kind = kind_of(s, x, u, lambda_best, ModeKind::swing);
    return mode;
}

}  // namespace

namespace {

// Each kind of mode, in ModeKind's order: its id (JSON) and its words (messages).
struct ModeKindRow {
    const char* id;
    const char* text;
};
constexpr ModeKindRow mode_kinds[] = {
    {"spring", "a spring's oscillation"},
    {"link_stretch", "the compliant links stretching"},
    {"swing", "the rigid chain swinging"},
};
static_assert(static_cast<int>(ModeKind::swing) + 1 == sizeof(mode_kinds) / sizeof(mode_kinds[0]),
              "one row per ModeKind");

}  // namespace

const char* mode_kind_id(ModeKind k) { return mode_kinds[static_cast<int>(k)].id; }
const char* mode_kind_text(ModeKind k) { return mode_kinds[static_cast<int>(k)].text; }

StiffestMode stiffest_mode(const System& s, const dvec2* x, const dvec2* v) {
    if (s.has_rigid_links()) return reduced_stiffest_mode(s, x, v);
    const int n = 2 * s.bodies();
    std::vector<double> jx(n * n), jv(n * n), k(n * n), c(n * n), vectors(n * n);
    acceleration_jacobian_dense(s, x, v, jx.data(), jv.data(), 0.0);  // at the start state, t = 0
    // Mass-weighted: K~ = -M^(1/2) (da/dx) M^(-1/2), symmetric for forces with a potential
    // (symmetrised against round-off); C~ likewise from da/dv.
    for (int r = 0; r < n; ++r)
        for (int col = 0; col < n; ++col) {
            const double w = std::sqrt(s.mass[r / 2] / s.mass[col / 2]);
            k[r * n + col] = -w * jx[r * n + col];
            c[r * n + col] = -w * jv[r * n + col];
        }
    for (int r = 0; r < n; ++r)
        for (int col = r + 1; col < n; ++col) k[r * n + col] = k[col * n + r] = 0.5 * (k[r * n + col] + k[col * n + r]);
    symmetric_eigen(n, k.data(), vectors.data());
    const int best = largest_diagonal(n, k.data());
    StiffestMode mode;
    mode.modes = n;
    const double lambda = std::fabs(k[best * n + best]);
    if (!(lambda > 0.0) || !std::isfinite(lambda)) return mode;
    mode.oscillates = true;
    mode.omega = std::sqrt(lambda);
    // ζ = φ^T C~ φ / (2ω) for the unit mode vector φ.
    double damping = 0.0;
    for (int r = 0; r < n; ++r)
        for (int col = 0; col < n; ++col) damping += vectors[r * n + best] * c[r * n + col] * vectors[col * n + best];
    mode.zeta = std::max(0.0, damping / (2.0 * mode.omega));
    if (!s.links.empty()) {
        // The displacement u = M^(-1/2) φ: a compliant chain's stiffest is its links' stretch.
        std::vector<double> u(n);
        for (int r = 0; r < n; ++r) u[r] = vectors[r * n + best] / std::sqrt(s.mass[r / 2]);
        mode.kind = kind_of(s, x, u, k[best * n + best], ModeKind::spring);
    }
    return mode;
}

}  // namespace stepwise
