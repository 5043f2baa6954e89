// The N-link pendulum oracle (n_pendulum_oracle.hpp) against the pendulum's closed form (N = 1),
// its own energy (N = 2, 3, 8), its own step halving, and, for the double pendulum, the two
// Lagrange equations written out by hand and integrated by a different method (classic RK4 with
// Richardson extrapolation).
#include "n_pendulum_oracle.hpp"
#include "pendulum_exact.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <vector>

using namespace n_pendulum_oracle;

namespace {

constexpr double pi = 3.14159265358979323846;
constexpr double degree = pi / 180.0;

State at_rest(std::vector<double> theta) {
    const std::size_t n = theta.size();
    return State{std::move(theta), std::vector<double>(n, 0.0)};
}

// The largest |E(t) - E(0)| over [0, duration], sampled every 0.1 s, relative to the potential
// energy's scale g sum_i m_i (l_1 + ... + l_i).
double energy_drift(const Chain& chain, const State& start, double duration) {
    double scale = 0.0, depth = 0.0;
    for (std::size_t i = 0; i < chain.size(); ++i) {
        depth += chain.length[i];
        scale += chain.g * chain.mass[i] * depth;
    }
    Oracle o(chain, start);
    const double e0 = energy(chain, start);
    double worst = 0.0;
    for (int i = 1; i <= int(std::lround(duration * 10.0)); ++i) {
        o.advance_to(0.1 * i);
        worst = std::max(worst, std::fabs(energy(chain, o.state()) - e0) / scale);
    }
    return worst;
}

// The double pendulum by hand. L = (1/2)(m1 + m2) l1^2 a'^2 + (1/2) m2 l2^2 b'^2
// + m2 l1 l2 a' b' cos(a - b) + (m1 + m2) g l1 cos a + m2 g l2 cos b gives
//   (m1 + m2) l1 a'' + m2 l2 cos(a - b) b'' = -m2 l2 sin(a - b) b'^2 - (m1 + m2) g sin a,
//   l1 cos(a - b) a'' + l2 b''               =  l1 sin(a - b) a'^2 - g sin b,
// solved here by Cramer's rule.
struct DoublePendulum {
    double m1, m2, l1, l2, g;
    std::array<double, 2> accelerations(double a, double b, double wa, double wb) const {
        const double c = std::cos(a - b), s = std::sin(a - b);
        const double p = (m1 + m2) * l1, q = m2 * l2 * c;  // first row
        const double r = l1 * c, u = l2;                   // second row
        const double e = -m2 * l2 * s * wb * wb - (m1 + m2) * g * std::sin(a);
        const double f = l1 * s * wa * wa - g * std::sin(b);
        const double det = p * u - q * r;
        return {(e * u - q * f) / det, (p * f - e * r) / det};
    }
    // y = (a, b, a', b').
    std::array<double, 4> rhs(const std::array<double, 4>& y) const {
        const std::array<double, 2> acc = accelerations(y[0], y[1], y[2], y[3]);
        return {y[2], y[3], acc[0], acc[1]};
    }
    // Classic RK4 with n steps over [0, t].
    std::array<double, 4> rk4(std::array<double, 4> y, double t, int n) const {
        const double h = t / n;
        auto axpy = [](const std::array<double, 4>& y0, double s, const std::array<double, 4>& k) {
            return std::array<double, 4>{y0[0] + s * k[0], y0[1] + s * k[1], y0[2] + s * k[2], y0[3] + s * k[3]};
        };
        for (int i = 0; i < n; ++i) {
            const auto k1 = rhs(y);
            const auto k2 = rhs(axpy(y, 0.5 * h, k1));
            const auto k3 = rhs(axpy(y, 0.5 * h, k2));
            const auto k4 = rhs(axpy(y, h, k3));
            for (int e = 0; e < 4; ++e) y[e] += h / 6.0 * (k1[e] + 2.0 * k2[e] + 2.0 * k3[e] + k4[e]);
        }
        return y;
    }
    // RK4's global error is C h^4 + O(h^5): (16 y(h/2) - y(h))/15 removes the h^4 term.
    std::array<double, 4> richardson(const std::array<double, 4>& y, double t, int n) const {
        const auto coarse = rk4(y, t, n), fine = rk4(y, t, 2 * n);
        std::array<double, 4> out;
        for (int e = 0; e < 4; ++e) out[e] = (16.0 * fine[e] - coarse[e]) / 15.0;
        return out;
    }
};

}  // namespace

TEST_CASE("n-pendulum oracle: the Gauss-Legendre coefficients meet the order conditions") {
    const GaussLegendre gl;
    constexpr int s = GaussLegendre::stages;
    // B(2s): sum_i b_i c_i^(q-1) = 1/q for q <= 2s; C(s): sum_j a_ij c_j^(q-1) = c_i^q/q for q <= s.
    for (int q = 1; q <= 2 * s; ++q) {
        double sum = 0.0;
        for (int i = 0; i < s; ++i) sum += gl.weight(i) * std::pow(gl.node(i), q - 1);
        CHECK(sum == Approx(1.0 / q).epsilon(1e-14));
    }
    for (int i = 0; i < s; ++i)
        for (int q = 1; q <= s; ++q) {
            double sum = 0.0;
            for (int j = 0; j < s; ++j) sum += gl.coefficient(i, j) * std::pow(gl.node(j), q - 1);
            CHECK(sum == Approx(std::pow(gl.node(i), q) / q).margin(1e-16));
        }
}

TEST_CASE("n-pendulum oracle: one link agrees with the pendulum's closed form to 1e-10") {
    struct Start {
        double theta0, omega0, l;
    };
    const Start starts[] = {{30.0 * degree, 0.0, 1.0},
                            {170.0 * degree, 0.0, 1.5},
                            {-1.0, 2.5, 0.7},
                            {0.3, 8.0, 1.0},    // over the top
                            {-2.0, -9.0, 1.2}};  // over the top, backwards
    double worst = 0.0;
    for (const Start& st : starts) {
        const Chain chain{{1.3}, {st.l}, 9.81, dvec2(0.5, 2.0)};
        const stepwise::PendulumExact exact(st.theta0, st.omega0, chain.g, st.l);
        Oracle o(chain, State{{st.theta0}, {st.omega0}});
        for (int i = 1; i <= 20; ++i) {
            const double t = 0.5 * i;
            o.advance_to(t);
            const stepwise::PendulumState e = exact.at(t);
            const State s = o.state();
            const Bodies b = o.bodies();
            const dvec2 x = chain.anchor + st.l * dvec2(std::sin(e.theta), -std::cos(e.theta));
            const dvec2 v = st.l * e.omega * dvec2(std::cos(e.theta), std::sin(e.theta));
            worst = std::max({worst, std::fabs(s.theta[0] - e.theta), std::fabs(s.omega[0] - e.omega),
                              std::fabs(b.x[0].x - x.x), std::fabs(b.x[0].y - x.y), std::fabs(b.v[0].x - v.x),
                              std::fabs(b.v[0].y - v.y)});
        }
    }
    INFO("largest difference " << worst);
    CHECK(worst < 1e-10);
}

TEST_CASE("n-pendulum oracle: energy constant to 1e-11 for 2, 3 and 8 links") {
    struct Case {
        Chain chain;
        State start;
    };
    std::vector<Case> cases;
    cases.push_back({uniform_chain(2, 1.0, 1.0), at_rest({30.0 * degree, 30.0 * degree})});
    cases.push_back({uniform_chain(2, 1.0, 1.0), at_rest({120.0 * degree, 120.0 * degree})});  // chaotic
    cases.push_back({Chain{{2.0, 0.5}, {0.7, 1.3}, 9.81, dvec2(0.0)}, State{{0.4, -0.2}, {1.0, -3.0}}});
    cases.push_back({uniform_chain(3, 1.0, 1.0), at_rest({30.0 * degree, 30.0 * degree, 30.0 * degree})});
    // Light links with a heavy end (fast modes): 3 links, and Matthias Mueller's challenge of
    // four links (0.1, 0.1, 0.1, 10 kg, g = 10).
    cases.push_back({Chain{{0.1, 0.1, 10.0}, {1.0, 0.5, 0.25}, 10.0, dvec2(0.0)}, at_rest({0.3, 0.2, -0.1})});
    cases.push_back({Chain{{0.1, 0.1, 0.1, 10.0}, std::vector<double>(4, 0.25), 10.0, dvec2(1.0, 3.0)},
                     at_rest(std::vector<double>(4, 30.0 * degree))});
    cases.push_back({uniform_chain(8, 1.0, 0.5), at_rest(std::vector<double>(8, 30.0 * degree))});
    cases.push_back({uniform_chain(8, 0.7, 0.3), State{std::vector<double>(8, 90.0 * degree), std::vector<double>(8, 0.5)}});
    for (const Case& c : cases) {
        const double drift = energy_drift(c.chain, c.start, 5.0);
        INFO(c.chain.size() << " links, energy drift " << drift);
        CHECK(drift < 1e-11);
    }
}

TEST_CASE("n-pendulum oracle: the double pendulum agrees with its Lagrangian written by hand") {
    const DoublePendulum hand{1.5, 0.7, 1.1, 0.8, 9.81};
    const Chain chain{{hand.m1, hand.m2}, {hand.l1, hand.l2}, hand.g, dvec2(0.0)};
    // The accelerations at arbitrary states.
    for (const std::array<double, 4>& y : {std::array<double, 4>{0.3, -0.4, 1.0, 2.0},
                                           std::array<double, 4>{2.9, 1.0, -4.0, 0.5},
                                           std::array<double, 4>{-1.2, 3.0, 0.0, -7.0}}) {
        const std::vector<double> oracle = accelerations(chain, State{{y[0], y[1]}, {y[2], y[3]}});
        const std::array<double, 2> by_hand = hand.accelerations(y[0], y[1], y[2], y[3]);
        CHECK(oracle[0] == Approx(by_hand[0]).epsilon(1e-13).margin(1e-13));
        CHECK(oracle[1] == Approx(by_hand[1]).epsilon(1e-13).margin(1e-13));
    }
    // The motion over 5 s, regular (30 degrees) and chaotic (120 degrees, where the sensitivity to
    // rounding grows like e^(lambda t) and both methods stay within 1e-10 to about 5 s).
    for (const std::array<double, 4>& y0 : {std::array<double, 4>{30.0 * degree, 30.0 * degree, 0.0, 0.0},
                                            std::array<double, 4>{-20.0 * degree, 10.0 * degree, 1.0, -2.0},
                                            std::array<double, 4>{120.0 * degree, 120.0 * degree, 0.0, 0.0}}) {
        Oracle o(chain, State{{y0[0], y0[1]}, {y0[2], y0[3]}});
        double worst = 0.0;
        for (int i = 1; i <= 5; ++i) {
            const double t = 1.0 * i;
            o.advance_to(t);
            const std::array<double, 4> ref = hand.richardson(y0, t, 2000 * i);
            const State s = o.state();
            worst = std::max({worst, std::fabs(s.theta[0] - ref[0]), std::fabs(s.theta[1] - ref[1]),
                              std::fabs(s.omega[0] - ref[2]), std::fabs(s.omega[1] - ref[3])});
        }
        INFO("start " << y0[0] << " " << y0[1] << ": largest difference " << worst);
        CHECK(worst < 1e-10);
    }
}

TEST_CASE("n-pendulum oracle: eight links over 5 s agree with half the step to 1e-12, in seconds") {
    const Chain chain = uniform_chain(8, 1.0, 0.5, 9.81, dvec2(0.0, 4.0));
    const State start = at_rest(std::vector<double>(8, 30.0 * degree));
    const auto begin = std::chrono::steady_clock::now();
    const Bodies coarse = bodies_at(chain, start, 5.0);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    const Bodies fine = bodies_at(chain, start, 5.0, 0.5 * Oracle::default_max_step(chain, start));
    double worst = 0.0;
    for (std::size_t i = 0; i < 8; ++i)
        worst = std::max({worst, std::fabs(coarse.x[i].x - fine.x[i].x), std::fabs(coarse.x[i].y - fine.x[i].y),
                          std::fabs(coarse.v[i].x - fine.v[i].x), std::fabs(coarse.v[i].y - fine.v[i].y)});
    INFO("step halving changes the bodies by " << worst << "; 8 links over 5 s took " << seconds << " s");
    CHECK(worst < 1e-12);
    CHECK(seconds < 30.0);  // about 0.3 s at -O2 on an idle machine; generous against load
}

TEST_CASE("n-pendulum oracle: velocities are the positions' derivatives, the anchor holds the chain") {
    const Chain chain{{1.0, 2.0, 0.5}, {0.5, 1.0, 0.75}, 9.81, dvec2(-1.0, 2.0)};
    const State start{{0.3, -0.5, 1.2}, {0.5, -1.0, 2.0}};
    Oracle o(chain, start);
    o.advance_to(1.0);
    const Bodies mid = o.bodies();
    const double h = 1e-4;
    const Bodies before = bodies_at(chain, start, 1.0 - h), after = bodies_at(chain, start, 1.0 + h);
    dvec2 previous = chain.anchor;
    for (std::size_t i = 0; i < 3; ++i) {
        const dvec2 derivative = (after.x[i] - before.x[i]) / (2.0 * h);
        CHECK(mid.v[i].x == Approx(derivative.x).margin(1e-6));
        CHECK(mid.v[i].y == Approx(derivative.y).margin(1e-6));
        const dvec2 link = mid.x[i] - previous;
        CHECK(std::sqrt(link.x * link.x + link.y * link.y) == Approx(chain.length[i]).epsilon(1e-15));
        previous = mid.x[i];
    }
}

TEST_CASE("n-pendulum oracle: tensions of the pendulum, a hanging chain and a swinging chain") {
    // One link: T = m (l theta'^2 + g cos theta).
    const Chain one{{1.7}, {0.8}, 9.81, dvec2(0.0)};
    for (const State& s : {State{{0.4}, {2.0}}, State{{2.5}, {-1.0}}, State{{-3.0}, {5.0}}})
        CHECK(tensions(one, s)[0] == Approx(1.7 * (0.8 * s.omega[0] * s.omega[0] + 9.81 * std::cos(s.theta[0]))).epsilon(1e-14));
    // A chain hanging at rest (the "Small Steps" hanging chain: 20 bodies, a heavy end): each
    // link carries the weight below it.
    std::vector<double> masses(20, 1.0);
    masses.back() = 100.0;
    const Chain hanging{masses, std::vector<double>(20, 0.1), 9.81, dvec2(0.0)};
    const std::vector<double> t = tensions(hanging, at_rest(std::vector<double>(20, 0.0)));
    double below = 0.0;
    for (std::size_t i = 20; i-- > 0;) {
        below += masses[i];
        CHECK(t[i] == Approx(9.81 * below).epsilon(1e-14));
    }
    // A swinging double pendulum: the bodies' equations of motion m_i a_i = -T_i u_i +
    // T_{i+1} u_{i+1} - m_i g y^, with a_i from a central difference of the oracle's velocities.
    const Chain two{{1.5, 0.7}, {1.1, 0.8}, 9.81, dvec2(0.0)};
    const State start{{1.0, -0.5}, {0.3, 2.0}};
    Oracle o(two, start);
    o.advance_to(0.7);
    const State s = o.state();
    const std::vector<double> tension = tensions(two, s);
    const double h = 1e-4;
    const Bodies before = bodies_at(two, start, 0.7 - h), after = bodies_at(two, start, 0.7 + h);
    const dvec2 u0(std::sin(s.theta[0]), -std::cos(s.theta[0])), u1(std::sin(s.theta[1]), -std::cos(s.theta[1]));
    const dvec2 a0 = (after.v[0] - before.v[0]) / (2.0 * h), a1 = (after.v[1] - before.v[1]) / (2.0 * h);
    const dvec2 f0 = -tension[0] * u0 + tension[1] * u1 - dvec2(0.0, 1.5 * 9.81);
    const dvec2 f1 = -tension[1] * u1 - dvec2(0.0, 0.7 * 9.81);
    CHECK(1.5 * a0.x == Approx(f0.x).margin(1e-6));
    CHECK(1.5 * a0.y == Approx(f0.y).margin(1e-6));
    CHECK(0.7 * a1.x == Approx(f1.x).margin(1e-6));
    CHECK(0.7 * a1.y == Approx(f1.y).margin(1e-6));
}
