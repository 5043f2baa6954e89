// The rigid links' multipliers and projection (link.hpp): A = J M⁻¹ Jᵀ assembled in band form and
// factored by a banded Cholesky.
#include "forces/link.hpp"
#include "parts.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace stepwise {

// The part `links` (core/parts.hpp): this file, forces/link_order.cpp and solvers.cpp.
bool carries_links() { return true; }

namespace {

// The rigid links of a system at a state: their directions, their rows of A in band storage
// (row l holds A(l, l − k) at band[l (p + 1) + k], k = 0..p) and the factor in place.
struct RigidLinks {
    std::vector<int> index;  // into s.links
    std::vector<dvec2> n;    // unit direction of each, body i's end minus the far end
    std::vector<double> len;
    std::vector<double> band;
    std::vector<double> y;  // right sides and solutions
    int p = 0;  // half-bandwidth
    // The links index and p were found for: each link's i, j and whether it is rigid. They depend
    // on the links alone, not on the state, so an evaluation compares (O(links)) instead of finding
    // them again (the search for the order and its bandwidth walks every body's links).
    std::vector<int> structure_of;

    // index (the rigid links) and p (the half-bandwidth) for s's links.
    void structure(const System& s) {
        const size_t links = s.links.size();
        bool same = structure_of.size() == 3 * links;
        for (size_t q = 0; q < links && same; ++q) {
            const Link& k = s.links[q];
            same = structure_of[3 * q] == k.i && structure_of[3 * q + 1] == k.j &&
                   structure_of[3 * q + 2] == (k.compliance == 0.0 ? 1 : 0);
        }
        if (same) return;
        structure_of.clear();
        index.clear();
        for (size_t q = 0; q < links; ++q) {
            const Link& k = s.links[q];
            structure_of.insert(structure_of.end(), {k.i, k.j, k.compliance == 0.0 ? 1 : 0});
            if (k.compliance == 0.0) index.push_back(static_cast<int>(q));
        }
        // The rows' order: the list's, or a narrower one (forces/link_order.cpp).
        p = order_rigid_links(s, index);
    }

    // Directions and the band of A at positions x. False when a rigid link has length 0.
    bool assemble(const System& s, const dvec2* x) {
        structure(s);
        const int m = static_cast<int>(index.size());
        n.resize(static_cast<size_t>(m));
        len.resize(static_cast<size_t>(m));
        bool ok = true;
        for (int l = 0; l < m; ++l) {
            const Link& k = s.links[static_cast<size_t>(index[l])];
            const dvec2 d = x[k.i] - LinkForce::far_x(k, x);
            len[l] = std::sqrt(d.x * d.x + d.y * d.y);
            ok = ok && len[l] > 0.0;
            n[l] = len[l] > 0.0 ? d / len[l] : dvec2(0.0);
        }
        band.assign(static_cast<size_t>(m) * static_cast<size_t>(p + 1), 0.0);
        for (int l = 0; l < m; ++l)
            for (int q = std::max(0, l - p); q <= l; ++q) band[static_cast<size_t>(l * (p + 1) + (l - q))] = entry(s, l, q);
        return ok;
    }
    // A(l, q) = Σ over the bodies they share of σ_l σ_q (n_l·n_q)/m_b.
    double entry(const System& s, int l, int q) const {
        const Link &a = s.links[static_cast<size_t>(index[l])], &b = s.links[static_cast<size_t>(index[q])];
        const double dot = n[l].x * n[q].x + n[l].y * n[q].y;
        double sum = 0.0;
        const int ea[2] = {a.i, a.j}, eb[2] = {b.i, b.j};
        for (int u = 0; u < 2; ++u)
            for (int w = 0; w < 2; ++w)
                if (ea[u] != no_body && ea[u] == eb[w]) sum += (u == w ? 1.0 : -1.0) * s.inv_mass[ea[u]] * dot;
        return sum;
    }
    double& at(int l, int q) { return band[static_cast<size_t>(l * (p + 1) + (l - q))]; }

    // A = L Lᵀ in place (L's row l in the band). False when A is not positive definite.
    bool factor() {
        const int m = static_cast<int>(index.size());
        for (int l = 0; l < m; ++l) {
            for (int q = std::max(0, l - p); q <= l; ++q) {
                double sum = at(l, q);
                for (int r = std::max(0, l - p); r < q; ++r) sum -= at(l, r) * at(q, r);
                if (q < l) {
                    at(l, q) = sum / at(q, q);
                } else {
                    if (!(sum > 0.0)) return false;
                    at(l, l) = std::sqrt(sum);
                }
            }
        }
        return true;
    }
    // Solves L Lᵀ y = y in place.
    void solve(std::vector<double>& y) {
        const int m = static_cast<int>(index.size());
        for (int l = 0; l < m; ++l) {
            double sum = y[l];
            for (int r = std::max(0, l - p); r < l; ++r) sum -= at(l, r) * y[r];
            y[l] = sum / at(l, l);
        }
        for (int l = m - 1; l >= 0; --l) {
            double sum = y[l];
            for (int r = l + 1; r <= std::min(m - 1, l + p); ++r) sum -= at(r, l) * y[r];
            y[l] = sum / at(l, l);
        }
    }
    // u_b −= (σ μ_l / m_b) n_l on every body of every rigid link: the correction along M⁻¹Jᵀ μ.
    void apply(const System& s, const std::vector<double>& mu, dvec2* u) const {
        for (size_t l = 0; l < index.size(); ++l) {
            const Link& k = s.links[static_cast<size_t>(index[l])];
            u[k.i] -= (mu[l] * s.inv_mass[k.i]) * n[l];
            if (k.j != no_body) u[k.j] += (mu[l] * s.inv_mass[k.j]) * n[l];
        }
    }
    // (J u)_l = n_l·(u_i − u_j).
    void rows(const System& s, const dvec2* u, std::vector<double>& out) const {
        out.resize(index.size());
        for (size_t l = 0; l < index.size(); ++l) {
            const Link& k = s.links[static_cast<size_t>(index[l])];
            const dvec2 r = u[k.i] - LinkForce::far_v(k, u);
            out[l] = n[l].x * r.x + n[l].y * r.y;
        }
    }
};

// One workspace per thread, reserved for a system by reserve_workspace (make_lane calls it), so
// that steps allocate nothing.
RigidLinks& workspace() {
    thread_local RigidLinks w;
    return w;
}

}  // namespace

void LinkForce::reserve_workspace(const System& s) {
    RigidLinks& w = workspace();
    w.structure_of.reserve(3 * s.links.size());
    w.index.reserve(s.links.size());
    w.structure(s);
    const size_t m = w.index.size(), width = static_cast<size_t>(w.p);
    w.n.reserve(m);
    w.len.reserve(m);
    w.y.reserve(m);
    w.band.reserve(m * (width + 1));
}

void LinkForce::constrain_accelerations(const System& s, const dvec2* x, const dvec2* v, dvec2* a, double* lambda) {
    RigidLinks& w = workspace();
    std::vector<double>& y = w.y;
    const bool ok = w.assemble(s, x) && w.factor();
    if (!ok) {
        // No multipliers exist: say so with a state no step accepts.
        for (int b = 0; b < s.bodies(); ++b) a[b] = dvec2(std::numeric_limits<double>::quiet_NaN());
        return;
    }
    // Right side: n_l·(a_i − a_j) + (|w|² − (n·w)²)/|d| (the centripetal part of C'').
    w.rows(s, a, y);
    for (size_t l = 0; l < w.index.size(); ++l) {
        const Link& k = s.links[static_cast<size_t>(w.index[l])];
        const dvec2 r = v[k.i] - far_v(k, v);
        const double along = w.n[l].x * r.x + w.n[l].y * r.y;
        y[l] += (r.x * r.x + r.y * r.y - along * along) / w.len[l];
    }
    w.solve(y);
    w.apply(s, y, a);
    if (lambda)
        for (size_t l = 0; l < w.index.size(); ++l) lambda[w.index[l]] = y[l];
}

long long LinkForce::constraint_work(const System& s) {
    RigidLinks& w = workspace();
    w.structure(s);
    const long long m = static_cast<long long>(w.index.size()), width = w.p + 1;
    return m * width * width;
}

bool LinkForce::project(const System& s, dvec2* x, dvec2* v) {
    RigidLinks& w = workspace();
    std::vector<double>& y = w.y;
    // Positions: Gauss–Newton on C(x) = 0, each iteration x −= M⁻¹Jᵀ A⁻¹ C. It converges
    // quadratically from a state already within the reference's tolerance; a few iterations
    // reach round-off (|C|/L ~ 1e-16).
    for (int iteration = 0; iteration < 8; ++iteration) {
        if (!(w.assemble(s, x) && w.factor())) return false;
        y.resize(w.index.size());
        double worst = 0.0;
        for (size_t l = 0; l < w.index.size(); ++l) {
            const double rest = s.links[static_cast<size_t>(w.index[l])].rest;
            y[l] = w.len[l] - rest;
            worst = std::max(worst, std::fabs(y[l]) / rest);
        }
        if (worst <= 4.0 * std::numeric_limits<double>::epsilon()) break;
        w.solve(y);
        w.apply(s, y, x);
    }
    // Velocities: remove the part along the links, v −= M⁻¹Jᵀ A⁻¹ J v (at the projected x).
    if (!(w.assemble(s, x) && w.factor())) return false;
    w.rows(s, v, y);
    w.solve(y);
    w.apply(s, y, v);
    return true;
}

}  // namespace stepwise
