// The constraint rows the game-physics solvers (core/solvers.cpp: pbd, xpbd, soft_step,
// sequential_impulses, vbd) step instead of forces. Every spring and link of a System becomes rows,
// each kind adding its own (add_solver_rows in anchor_spring.hpp, pair_spring.hpp, link.hpp); every
// other force is external and enters the solvers' prediction (solver_external_accelerations in
// system.hpp).
//
// A row q joins body i to body j, or to a fixed anchor (j = no_body), and is one of
//   a distance row (axis = −1):  C = |d| − rest, d = x_i − x_j, ∇_i C = d/|d| = −∇_j C
//     (a link, or a spring with rest > 0);
//   an axis row (axis = 0 or 1): C = d[axis], ∇_i C = e_axis = −∇_j C
//     (a spring with rest 0: ½k|d|² = ½k d.x² + ½k d.y², two rows of stiffness k).
// Either way |∇_i C| = 1, so a row's generalised inverse mass is w_i + w_j (w = 1/m, 0 for an anchor).
// compliance α = 1/k (0: rigid); damping c acts on Ċ = ∇_i C·(v_i − v_j) along the row (a link's
// `damping`; a spring's damper acts on the whole relative velocity and stays external).
//
// Cold data, built once per system (make_lane), structure of arrays; what changes during a step
// (multipliers, penalties) lives in the Lane.
#pragma once
#include "system.hpp"

#include <cmath>
#include <vector>

namespace stepwise {

struct SolverRows {
    std::vector<int> i, j;          // bodies; j = no_body: the row ends at `anchor`
    std::vector<dvec2> anchor;
    std::vector<double> rest;       // distance rows
    std::vector<int> axis;          // −1: a distance row; 0, 1: an axis row
    std::vector<double> compliance; // α (m/N); 0: rigid
    std::vector<double> damping;    // c (N·s/m) along the row
    std::vector<int> link;          // the index in System::links, or −1 (a spring's row)
    // The rows touching body b, for VBD's per-body sweep: body_rows[body_start[b] .. body_start[b + 1]).
    std::vector<int> body_start, body_rows;

    int size() const { return static_cast<int>(i.size()); }
    void add(int bi, int bj, dvec2 at, double rest_length, int row_axis, double alpha, double c, int link_index) {
        i.push_back(bi);
        j.push_back(bj);
        anchor.push_back(at);
        rest.push_back(rest_length);
        axis.push_back(row_axis);
        compliance.push_back(alpha);
        damping.push_back(c);
        link.push_back(link_index);
    }
    // Fills body_start and body_rows (after every row is added).
    void index_bodies(int bodies) {
        body_start.assign(static_cast<size_t>(bodies) + 1, 0);
        for (int q = 0; q < size(); ++q) {
            ++body_start[static_cast<size_t>(i[q]) + 1];
            if (j[q] != no_body) ++body_start[static_cast<size_t>(j[q]) + 1];
        }
        for (int b = 0; b < bodies; ++b) body_start[b + 1] += body_start[b];
        body_rows.assign(static_cast<size_t>(body_start[bodies]), 0);
        std::vector<int> fill(body_start.begin(), body_start.end() - 1);
        for (int q = 0; q < size(); ++q) {
            body_rows[static_cast<size_t>(fill[i[q]]++)] = q;
            if (j[q] != no_body) body_rows[static_cast<size_t>(fill[j[q]]++)] = q;
        }
    }
};

// Row q at positions x: its C and ∇_i C (a unit vector; 0 for a distance row of length 0, which no
// solver moves), and |d| for a distance row (0 for an axis row).
struct RowGeometry {
    double c;
    dvec2 g;
    double length;
};
inline RowGeometry row_geometry(const SolverRows& r, int q, const dvec2* x) {
    const int j = r.j[q];
    const dvec2 d = x[r.i[q]] - (j == no_body ? r.anchor[q] : x[j]);
    const int axis = r.axis[q];
    if (axis >= 0) return {axis == 0 ? d.x : d.y, axis == 0 ? dvec2(1.0, 0.0) : dvec2(0.0, 1.0), 0.0};
    const double len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len == 0.0) return {-r.rest[q], dvec2(0.0), 0.0};
    return {len - r.rest[q], d / len, len};
}

}  // namespace stepwise
