#include "stability.hpp"

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

StiffestMode stiffest_mode(const System& s, const dvec2* x, const dvec2* v) {
    const int n = 2 * s.bodies();
    std::vector<double> jx(n * n), jv(n * n), k(n * n), c(n * n), vectors(n * n);
    acceleration_jacobian_dense(s, x, v, jx.data(), jv.data());
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
    // Cyclic Jacobi: K~ = V diag(λ) V^T.
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
    int best = 0;
    for (int p = 1; p < n; ++p)
        if (std::fabs(k[p * n + p]) > std::fabs(k[best * n + best])) best = p;
    StiffestMode mode;
    const double lambda = std::fabs(k[best * n + best]);
    if (!(lambda > 0.0) || !std::isfinite(lambda)) return mode;
    mode.oscillates = true;
    mode.omega = std::sqrt(lambda);
    // ζ = φ^T C~ φ / (2ω) for the unit mode vector φ.
    double damping = 0.0;
    for (int r = 0; r < n; ++r)
        for (int col = 0; col < n; ++col) damping += vectors[r * n + best] * c[r * n + col] * vectors[col * n + best];
    mode.zeta = std::max(0.0, damping / (2.0 * mode.omega));
    return mode;
}

}  // namespace stepwise
