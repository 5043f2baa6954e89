// The order of the rigid links' rows in their banded solve (link.cpp): found once per set of
// links, not per step, so the page's motion module compiles it for size (wasm_bindings/).
//
// A factor costs links · (p + 1)², p the half-bandwidth, so the order matters: a scene lists its
// rods as it likes (a grid's rows, then its diagonals), and the 256 rods of a 64-body grid came at
// p = 216. Reverse Cuthill–McKee numbers them by a breadth-first walk from a link with fewest
// neighbours, which keeps links that share a body near in the list (p = 56 there: 14.5× less work
// a factor). It is taken only when it is narrower, so a chain, a bridge or a cloth already listed
// end to end keeps its order and its bits (another order rounds the same solve differently).
#include "forces/link.hpp"

#include <algorithm>
#include <vector>

namespace stepwise {

namespace {

// For each body, the rows (positions in `rows`) of the links at it: at[start[b] .. start[b + 1]).
struct LinksAtBodies {
    std::vector<int> at, start;
    LinksAtBodies(const System& s, const std::vector<int>& rows) : start(static_cast<size_t>(s.bodies()) + 1, 0) {
        const int n = s.bodies(), m = static_cast<int>(rows.size());
        for (int l = 0; l < m; ++l) {
            const Link& k = s.links[static_cast<size_t>(rows[l])];
            ++start[static_cast<size_t>(k.i) + 1];
            if (k.j != no_body) ++start[static_cast<size_t>(k.j) + 1];
        }
        for (int b = 0; b < n; ++b) start[b + 1] += start[b];
        at.assign(static_cast<size_t>(start[n]), 0);
        std::vector<int> fill(start.begin(), start.end() - 1);
        for (int l = 0; l < m; ++l) {
            const Link& k = s.links[static_cast<size_t>(rows[l])];
            at[static_cast<size_t>(fill[k.i]++)] = l;
            if (k.j != no_body) at[static_cast<size_t>(fill[k.j]++)] = l;
        }
    }
};

// The half-bandwidth of A with its rows in the order `rows`: how far apart in the list two links
// sharing a body are, the widest span of the links at one body.
int bandwidth(const System& s, const std::vector<int>& rows) {
    const LinksAtBodies links(s, rows);
    int width = 0;
    for (int b = 0; b < s.bodies(); ++b) {
        const int from = links.start[b], to = links.start[b + 1];
        // The rows at a body come in increasing order (LinksAtBodies fills them walking the rows).
        if (to - from >= 2) width = std::max(width, links.at[to - 1] - links.at[from]);
    }
    return width;
}

// `rows` renumbered by reverse Cuthill–McKee over the graph of links that share a body: each
// connected part from a link of least degree, neighbours queued by increasing degree (ties by
// their place in the list, so the order is a function of the list alone), the whole reversed.
std::vector<int> reverse_cuthill_mckee(const System& s, const std::vector<int>& rows) {
    const int m = static_cast<int>(rows.size());
    const LinksAtBodies links(s, rows);
    const auto each_neighbour = [&](int l, auto&& f) {
        const Link& k = s.links[static_cast<size_t>(rows[l])];
        for (const int body : {k.i, k.j}) {
            if (body == no_body) continue;
            for (int u = links.start[body]; u < links.start[body + 1]; ++u)
                if (links.at[u] != l) f(links.at[u]);
        }
    };
    // A link's degree: its neighbours counted once (two links may share both their bodies).
    std::vector<int> degree(static_cast<size_t>(m), 0), mark(static_cast<size_t>(m), -1), walk, next;
    for (int l = 0; l < m; ++l)
        each_neighbour(l, [&](int q) {
            if (mark[q] != l) mark[q] = l, ++degree[l];
        });
    std::vector<char> seen(static_cast<size_t>(m), 0);
    walk.reserve(static_cast<size_t>(m));
    while (static_cast<int>(walk.size()) < m) {
        int first = -1;
        for (int l = 0; l < m; ++l)
            if (!seen[l] && (first < 0 || degree[l] < degree[first])) first = l;
        seen[first] = 1;
        walk.push_back(first);
        for (size_t head = walk.size() - 1; head < walk.size(); ++head) {
            next.clear();
            each_neighbour(walk[head], [&](int q) {
                if (!seen[q]) seen[q] = 1, next.push_back(q);
            });
            std::sort(next.begin(), next.end(), [&](int a, int b) { return degree[a] != degree[b] ? degree[a] < degree[b] : a < b; });
            walk.insert(walk.end(), next.begin(), next.end());
        }
    }
    std::vector<int> order(static_cast<size_t>(m));
    for (int l = 0; l < m; ++l) order[static_cast<size_t>(l)] = rows[static_cast<size_t>(walk[static_cast<size_t>(m - 1 - l)])];
    return order;
}

}  // namespace

int order_rigid_links(const System& s, std::vector<int>& rows) {
    const int listed = bandwidth(s, rows);
    std::vector<int> order = reverse_cuthill_mckee(s, rows);
    const int narrower = bandwidth(s, order);
    if (narrower >= listed) return listed;
    rows.swap(order);
    return narrower;
}

}  // namespace stepwise
