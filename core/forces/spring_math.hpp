// The spring law both spring kinds share: force and its Jacobian along a separation d.
#pragma once
#include "system.hpp"

#include <cmath>

namespace stepwise::spring_math {

// Spring force on the end at d (relative to the other end), without damping.
// rest = 0 is the linear spring -k d, computed without a square root so that it stays
// exactly linear; otherwise F = -k (|d| - rest) d/|d| (zero when the ends coincide).
inline dvec2 force(dvec2 d, double k, double rest) {
    if (rest == 0.0) return -k * d;
    const double len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len == 0.0) return dvec2(0.0);
    return (-k * (len - rest) / len) * d;
}

// d(force)/dd as a row-major 2x2: -k [(1 - r/|d|) I + (r/|d|) u u^T], u = d/|d|.
inline void jacobian(dvec2 d, double k, double rest, double out[4]) {
    if (rest == 0.0) {
        out[0] = -k; out[1] = 0.0; out[2] = 0.0; out[3] = -k;
        return;
    }
    const double len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len == 0.0) {
        out[0] = out[1] = out[2] = out[3] = 0.0;
        return;
    }
    const double s = rest / len;
    const dvec2 u = d / len;
    out[0] = -k * ((1.0 - s) + s * u.x * u.x);
    out[1] = -k * (s * u.x * u.y);
    out[2] = out[1];
    out[3] = -k * ((1.0 - s) + s * u.y * u.y);
}

// Potential energy k (|d| - rest)² / 2.
inline double energy(dvec2 d, double k, double rest) {
    const double stretch = std::sqrt(d.x * d.x + d.y * d.y) - rest;
    return 0.5 * k * stretch * stretch;
}

// m[(2 bi + r) n + 2 bj + c] += scale b[2 r + c]: a 2x2 block into a dense n x n matrix.
inline void add_block(double* m, int n, int bi, int bj, const double b[4], double scale) {
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c) m[(2 * bi + r) * n + 2 * bj + c] += scale * b[2 * r + c];
}

}  // namespace stepwise::spring_math
