// A test-only reference for the planar N-link pendulum in reduced coordinates (issue 20 §4): the
// angles theta_i of the links from straight down, point masses m_i at the links' lower ends,
// rigid massless links of lengths l_i, gravity g along -y, the first link hanging from a fixed
// anchor. Clarity before speed: dense N x N equations solved by LU, a fixed-step Gauss-Legendre
// method of order 12. Accuracy (tests/test_n_pendulum_oracle.cpp), over 5 to 10 s: the
// pendulum's closed form to 5e-13 for N = 1 (libration at up to 170 degrees and rotation), the
// double pendulum's Lagrangian written by hand (integrated by RK4 with Richardson extrapolation)
// to 5e-14 when released at 30 degrees and 2e-11 at 120 degrees (chaotic), step halving changes
// N = 8 released at 30 degrees by 7e-16, and the energy stays within 2e-15 of its scale for 2, 3,
// 4 and 8 links, heavy ends on light links included. N = 8 over 5 s takes about 0.3 s (-O2).
//
// Equations of motion. Body i is at
//     x_i = anchor + sum_{j <= i} l_j (sin theta_j, -cos theta_j),
//     v_i = sum_{j <= i} l_j theta_j' (cos theta_j, sin theta_j).
// Write mu_p = sum_{k >= p} m_k (the mass hanging from link p, that link's own end mass
// included). Kinetic energy: v_i . v_i = sum_{j, k <= i} l_j l_k cos(theta_j - theta_k)
// theta_j' theta_k', and the pair (j, k) appears in every body i >= max(j, k), so
//     T = (1/2) sum_{j,k} M_jk theta_j' theta_k',  M_jk = l_j l_k cos(theta_j - theta_k) mu_max(j,k).
// Potential: V = sum_i m_i g y_i = -g sum_i m_i sum_{j <= i} l_j cos theta_j
//     = -g sum_j l_j mu_j cos theta_j.
// Lagrange's equations d/dt (dT/dtheta_i') - dT/dtheta_i + dV/dtheta_i = 0, with
//     dT/dtheta_i' = sum_j M_ij theta_j',
//     d/dt M_ij = -l_i l_j mu_max(i,j) sin(theta_i - theta_j) (theta_i' - theta_j'),
//     dT/dtheta_i = sum_j (dM_ij/dtheta_i) theta_i' theta_j'   (M_jk depends on theta_i only
//                   through j = i or k = i; the two halves of the symmetric sum are equal)
//                 = -sum_j l_i l_j mu_max(i,j) sin(theta_i - theta_j) theta_i' theta_j',
//     dV/dtheta_i = g l_i mu_i sin theta_i,
// give sum_j M_ij theta_j'' - sum_j l_i l_j mu s_ij (theta_i' - theta_j') theta_j'
//      + sum_j l_i l_j mu s_ij theta_i' theta_j' + g l_i mu_i sin theta_i = 0: the theta_i' theta_j'
// terms cancel, leaving
//     M(theta) theta'' = f(theta, theta'),
//     f_i = -l_i sum_j l_j mu_max(i,j) sin(theta_i - theta_j) theta_j'^2 - g l_i mu_i sin theta_i.
// M is symmetric positive definite (it is the kinetic energy's matrix, and the map from theta'
// to the bodies' velocities is one to one for l_i > 0), so LU with partial pivoting is safe.
#pragma once
#include <glm/ext/vector_double2.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace n_pendulum_oracle {

using glm::dvec2;

struct Chain {
    std::vector<double> mass;    // m_i, kg, > 0
    std::vector<double> length;  // l_i, m, > 0
    double g = 9.81;             // along -y
    dvec2 anchor{0.0, 0.0};
    std::size_t size() const { return mass.size(); }
};

// A uniform chain of n links.
inline Chain uniform_chain(std::size_t n, double m, double l, double g = 9.81, dvec2 anchor = dvec2(0.0)) {
    return Chain{std::vector<double>(n, m), std::vector<double>(n, l), g, anchor};
}

struct State {
    std::vector<double> theta;  // rad, from straight down
    std::vector<double> omega;  // rad/s
};

// mu_p = sum_{k >= p} m_k.
inline std::vector<double> tail_masses(const Chain& c) {
    std::vector<double> mu(c.size());
    double sum = 0.0;
    for (std::size_t p = c.size(); p-- > 0;) mu[p] = sum += c.mass[p];
    return mu;
}

// M (row-major N x N) and f of M theta'' = f, as derived above; mu = tail_masses(c).
inline void equations(const Chain& c, const std::vector<double>& mu, const double* theta, const double* omega,
                      std::vector<double>& m_out, std::vector<double>& f_out) {
    const std::size_t n = c.size();
    m_out.assign(n * n, 0.0);
    f_out.assign(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        double f = -c.g * c.length[i] * mu[i] * std::sin(theta[i]);
        for (std::size_t j = 0; j < n; ++j) {
            const double lm = c.length[i] * c.length[j] * mu[std::max(i, j)];
            m_out[i * n + j] = lm * std::cos(theta[i] - theta[j]);
            f -= lm * std::sin(theta[i] - theta[j]) * omega[j] * omega[j];
        }
        f_out[i] = f;
    }
}

// Solves A x = b in place (A row-major n x n, destroyed; b receives x) by Gaussian elimination
// with partial pivoting.
inline void solve_dense(std::vector<double>& a, std::vector<double>& b) {
    const std::size_t n = b.size();
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r)
            if (std::fabs(a[r * n + col]) > std::fabs(a[pivot * n + col])) pivot = r;
        if (pivot != col) {
            for (std::size_t k = 0; k < n; ++k) std::swap(a[col * n + k], a[pivot * n + k]);
            std::swap(b[col], b[pivot]);
        }
        for (std::size_t r = col + 1; r < n; ++r) {
            const double factor = a[r * n + col] / a[col * n + col];
            for (std::size_t k = col; k < n; ++k) a[r * n + k] -= factor * a[col * n + k];
            b[r] -= factor * b[col];
        }
    }
    for (std::size_t r = n; r-- > 0;) {
        double sum = b[r];
        for (std::size_t k = r + 1; k < n; ++k) sum -= a[r * n + k] * b[k];
        b[r] = sum / a[r * n + r];
    }
}

// theta'' at (theta, omega) into alpha; m is scratch.
inline void accelerations(const Chain& c, const std::vector<double>& mu, const double* theta, const double* omega,
                          std::vector<double>& m, std::vector<double>& alpha) {
    equations(c, mu, theta, omega, m, alpha);
    solve_dense(m, alpha);
}
inline std::vector<double> accelerations(const Chain& c, const State& s) {
    std::vector<double> m, alpha;
    accelerations(c, tail_masses(c), s.theta.data(), s.omega.data(), m, alpha);
    return alpha;
}

// An upper bound on the fastest small-oscillation frequency about the hanging equilibrium:
// the modes are theta'' = -M(0)^-1 G theta with G = diag(g l_i mu_i), and the largest
// eigenvalue of A = M(0)^-1 G is at most its largest absolute row sum.
inline double fastest_frequency_bound(const Chain& c) {
    const std::size_t n = c.size();
    const std::vector<double> mu = tail_masses(c), zero(n, 0.0);
    std::vector<double> m, f, row_sums(n, 0.0);
    for (std::size_t j = 0; j < n; ++j) {
        equations(c, mu, zero.data(), zero.data(), m, f);
        std::vector<double> column(n, 0.0);
        column[j] = std::fabs(c.g) * c.length[j] * mu[j];
        solve_dense(m, column);
        for (std::size_t i = 0; i < n; ++i) row_sums[i] += std::fabs(column[i]);
    }
    return std::sqrt(*std::max_element(row_sums.begin(), row_sums.end()));
}

struct Bodies {
    std::vector<dvec2> x, v;
};

inline Bodies cartesian(const Chain& c, const State& s) {
    Bodies b;
    dvec2 x = c.anchor, v(0.0);
    for (std::size_t i = 0; i < c.size(); ++i) {
        const double sn = std::sin(s.theta[i]), cs = std::cos(s.theta[i]);
        x += c.length[i] * dvec2(sn, -cs);
        v += c.length[i] * s.omega[i] * dvec2(cs, sn);
        b.x.push_back(x);
        b.v.push_back(v);
    }
    return b;
}

// The links' tensions (N, positive when pulling): link i carries the bodies k >= i, and pulls
// body i towards the upper end along u_i = (sin theta_i, -cos theta_i), so Newton's law for that
// sub-chain, sum_{k >= i} m_k a_k = -T_i u_i - sum_{k >= i} m_k g y^, gives
//     T_i = -u_i . sum_{k >= i} m_k (a_k + g y^),
// with the bodies' accelerations a_k = sum_{j <= k} l_j (theta_j'' (cos, sin)(theta_j)
// + theta_j'^2 (-sin, cos)(theta_j)) (the derivative of v_k above). For the rigid pendulum,
// T = m (l theta'^2 + g cos theta); for a chain hanging at rest, T_i = g sum_{k >= i} m_k.
inline std::vector<double> tensions(const Chain& c, const State& s) {
    const std::size_t n = c.size();
    const std::vector<double> alpha = accelerations(c, s);
    std::vector<dvec2> a(n);
    dvec2 sum(0.0);
    for (std::size_t k = 0; k < n; ++k) {
        const double sn = std::sin(s.theta[k]), cs = std::cos(s.theta[k]);
        sum += c.length[k] * (alpha[k] * dvec2(cs, sn) + s.omega[k] * s.omega[k] * dvec2(-sn, cs));
        a[k] = sum;
    }
    std::vector<double> t(n);
    dvec2 carried(0.0);  // sum_{k >= i} m_k (a_k + g y^)
    for (std::size_t i = n; i-- > 0;) {
        carried += c.mass[i] * (a[i] + dvec2(0.0, c.g));
        t[i] = -(std::sin(s.theta[i]) * carried.x - std::cos(s.theta[i]) * carried.y);
    }
    return t;
}

// Kinetic plus potential energy, the potential zero at the anchor's height.
inline double energy(const Chain& c, const State& s) {
    const Bodies b = cartesian(c, s);
    double e = 0.0;
    for (std::size_t i = 0; i < c.size(); ++i)
        e += c.mass[i] * (0.5 * (b.v[i].x * b.v[i].x + b.v[i].y * b.v[i].y) + c.g * (b.x[i].y - c.anchor.y));
    return e;
}

// The s-stage Gauss-Legendre Runge-Kutta method (order 2s; Hairer, Norsett, Wanner I, II.7):
// nodes c_i = (1 + x_i)/2 at the roots x_i of the Legendre polynomial P_s, weights
// b_i = 1 / ((1 - x_i^2) P_s'(x_i)^2) (the Gauss weights on [0, 1]), and
// a_ij = int_0^{c_i} l_j(tau) dtau for the Lagrange basis l_j on the nodes, computed by the same
// Gauss rule on [0, c_i] (exact: l_j has degree s - 1): a_ij = c_i sum_q b_q l_j(c_i c_q).
// The stages are solved by fixed-point iteration to rounding; the update is summed with
// Kahan's compensation so that rounding does not drift over thousands of steps.
class GaussLegendre {
public:
    static constexpr int stages = 6;  // order 12

    GaussLegendre() {
        const double pi = 3.14159265358979323846;
        for (int i = 0; i < stages; ++i) {
            double x = std::cos(pi * (i + 0.75) / (stages + 0.5));  // Tricomi's first guess
            double derivative = 0.0;
            for (int it = 0; it < 100; ++it) {
                // P_s(x) and P_s'(x) by the three-term recurrence.
                double p0 = 1.0, p1 = x;
                for (int k = 2; k <= stages; ++k) {
                    const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
                    p0 = p1;
                    p1 = p2;
                }
                derivative = stages * (x * p1 - p0) / (x * x - 1.0);
                const double dx = p1 / derivative;
                x -= dx;
                if (std::fabs(dx) < 1e-17) break;
            }
            c_[i] = 0.5 * (1.0 + x);
            b_[i] = 1.0 / ((1.0 - x * x) * derivative * derivative);
        }
        for (int i = 0; i < stages; ++i)
            for (int j = 0; j < stages; ++j) {
                double sum = 0.0;
                for (int q = 0; q < stages; ++q) sum += b_[q] * lagrange(j, c_[i] * c_[q]);
                a_[i][j] = c_[i] * sum;
            }
    }

    double node(int i) const { return c_[i]; }
    double weight(int i) const { return b_[i]; }
    double coefficient(int i, int j) const { return a_[i][j]; }

    // One step of size h of y' = rhs(y) (rhs(const std::vector<double>&, std::vector<double>&)).
    // compensation carries Kahan's running correction of y between steps (start with zeros).
    template <class Rhs>
    void step(std::vector<double>& y, std::vector<double>& compensation, double h, const Rhs& rhs) const {
        const std::size_t n = y.size();
        std::vector<std::vector<double>> k(stages, std::vector<double>(n));
        std::vector<double> f0(n), z(n), kn(n);
        rhs(y, f0);
        for (auto& ki : k) ki = f0;
        std::vector<std::vector<double>> next = k;
        double previous = INFINITY;
        for (int iteration = 0; iteration < 200; ++iteration) {
            double change = 0.0, scale = 0.0;
            for (int i = 0; i < stages; ++i) {
                for (std::size_t e = 0; e < n; ++e) {
                    double sum = 0.0;
                    for (int j = 0; j < stages; ++j) sum += a_[i][j] * k[j][e];
                    z[e] = y[e] + h * sum;
                }
                rhs(z, kn);
                for (std::size_t e = 0; e < n; ++e) {
                    change = std::max(change, std::fabs(kn[e] - k[i][e]));
                    scale = std::max(scale, std::fabs(kn[e]));
                }
                next[i] = kn;
            }
            k.swap(next);
            // Converged: no change, or the change has reached rounding and stopped shrinking.
            if (change == 0.0 || (change <= 1e-14 * scale && change >= 0.5 * previous)) break;
            previous = change;
        }
        for (std::size_t e = 0; e < n; ++e) {
            double sum = 0.0;
            for (int i = 0; i < stages; ++i) sum += b_[i] * k[i][e];
            // Kahan: y + h sum, carrying what the addition rounded away.
            const double increment = h * sum - compensation[e];
            const double t = y[e] + increment;
            compensation[e] = (t - y[e]) - increment;
            y[e] = t;
        }
    }

private:
    double lagrange(int j, double tau) const {
        double p = 1.0;
        for (int m = 0; m < stages; ++m)
            if (m != j) p *= (tau - c_[m]) / (c_[j] - c_[m]);
        return p;
    }
    double c_[stages], b_[stages], a_[stages][stages];
};

// The chain's motion from a start state, stepped in equal steps of at most max_step. By default
// max_step = min(2e-3 s, 0.03 / (w + max |theta_i'(0)|)) with w the bound above on the fastest
// mode: measured, step halving then changes the bodies by less than 1e-12 over 5 s for regular
// motion (released at up to 30 degrees) of the chains in the tests, light links with a heavy end
// included, whose fast modes ring at several times w. Large, violent motion of very unequal
// masses can need less: pass a smaller max_step and check by halving it.
class Oracle {
public:
    static double default_max_step(const Chain& chain, const State& start) {
        double fastest = fastest_frequency_bound(chain);
        double spin = 0.0;
        for (double w : start.omega) spin = std::max(spin, std::fabs(w));
        return std::min(2e-3, 0.03 / (fastest + spin));
    }

    Oracle(Chain chain, const State& start, double max_step = 0.0)
        : chain_(std::move(chain)), max_step_(max_step > 0.0 ? max_step : default_max_step(chain_, start)) {
        const std::size_t n = chain_.size();
        assert(start.theta.size() == n && start.omega.size() == n && chain_.length.size() == n);
        mu_ = tail_masses(chain_);
        y_.resize(2 * n);
        for (std::size_t i = 0; i < n; ++i) {
            y_[i] = start.theta[i];
            y_[n + i] = start.omega[i];
        }
        compensation_.assign(2 * n, 0.0);
    }

    // Advances to time t >= time() in ceil((t - time())/max_step) equal steps.
    void advance_to(double t) {
        const double span = t - time_;
        if (!(span > 0.0)) return;
        const long steps = std::max(1L, long(std::ceil(span / max_step_ * (1.0 - 1e-12))));
        const double h = span / double(steps);
        const std::size_t n = chain_.size();
        std::vector<double> m, alpha;
        auto rhs = [&](const std::vector<double>& y, std::vector<double>& dy) {
            accelerations(chain_, mu_, y.data(), y.data() + n, m, alpha);
            for (std::size_t i = 0; i < n; ++i) {
                dy[i] = y[n + i];
                dy[n + i] = alpha[i];
            }
        };
        for (long s = 0; s < steps; ++s) method_.step(y_, compensation_, h, rhs);
        time_ = t;
    }

    double time() const { return time_; }
    double max_step() const { return max_step_; }
    const Chain& chain() const { return chain_; }
    State state() const {
        const std::size_t n = chain_.size();
        return State{std::vector<double>(y_.begin(), y_.begin() + long(n)), std::vector<double>(y_.begin() + long(n), y_.end())};
    }
    Bodies bodies() const { return cartesian(chain_, state()); }

private:
    Chain chain_;
    double max_step_;
    std::vector<double> mu_;
    GaussLegendre method_;
    std::vector<double> y_, compensation_;
    double time_ = 0.0;
};

// The bodies' positions and velocities at time t from start at 0 (max_step 0: the default).
inline Bodies bodies_at(const Chain& chain, const State& start, double t, double max_step = 0.0) {
    Oracle o(chain, start, max_step);
    o.advance_to(t);
    return o.bodies();
}

}  // namespace n_pendulum_oracle
