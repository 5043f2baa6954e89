// The scene grammar's table (core/scene_spec.hpp): its kinds and their fields, and what every
// build needs of it whether or not it reads scenes (a config's scene compares by its items; the
// bridge lays its links on the arc sag_chord_angle finds). The grammar's reading, writing and
// building are scene_spec.cpp, the part `scenes` (core/parts.hpp).
#include "scene_spec.hpp"

#include "scene_numbers.hpp"

#include <cmath>

namespace stepwise {

using namespace scene_numbers;

namespace {

// A link of these fields' names is read by name at build (field_of), never by position.
const SceneFieldSpec mass_field = {"m", 1, small, big, false, false, {}, "kg", "each body's mass"};
const SceneFieldSpec alpha_field = {"alpha", 0, 0, 1, false, false, {}, "m/N", "compliance: 0 a rigid rod, above 0 a spring of stiffness 1/alpha"};
const SceneFieldSpec damping_field = {"d", 0, 0, 1e4, false, false, {}, "N·s/m", "a damper along it, on its ends' relative velocity"};
const SceneFieldSpec stiffness_field = {"k", 10, small, big, false, false, {}, "N/m", "stiffness"};

}  // namespace

const std::vector<SceneKindInfo>& scene_kinds() {
    static const std::vector<SceneKindInfo> table = {
        {.id = "b", .kind = SceneKind::body, .name = "body", .args = SceneArgs::point,
         .fields = {mass_field,
                    {"vx", 0, -big, big, false, false, {}, "m/s", "start velocity along x"},
                    {"vy", 0, -big, big, false, false, {}, "m/s", "start velocity along y"}},
         .meaning = "a body at (X, Y)"},
        {.id = "a", .kind = SceneKind::anchor, .name = "anchor", .args = SceneArgs::point, .fields = {},
         .meaning = "a fixed point at (X, Y)"},
        {.id = "s", .kind = SceneKind::spring, .name = "spring", .args = SceneArgs::two_ends,
         .fields = {stiffness_field,
                    {"rest", nan, 0, big, false, false, {}, "m", "rest length (left out: the ends' distance at the start)"},
                    {"d", 0, 0, 1e4, false, false, {}, "N·s/m", "a damper on the ends' whole relative velocity"}},
         .meaning = "a spring between two ends (bN a body, aN an anchor)"},
        {.id = "l", .kind = SceneKind::link, .name = "link", .args = SceneArgs::two_ends,
         .fields = {{"rest", nan, 0, big, true, false, {}, "m", "rest length (left out: the ends' distance at the start)"},
                    alpha_field, damping_field},
         .meaning = "a link between two ends: a rigid rod, or a stiff spring along it"},
        {.id = "rope", .kind = SceneKind::rope, .name = "rope", .args = SceneArgs::rope,
         .fields = {{"n", 8, 1, max_scene_bodies, false, true, {}, "", "links"},
                    mass_field,
                    {"mend", nan, small, big, false, false, {}, "kg", "the last body's mass, on a rope ending at X,Y (left out: m)"},
                    {"len", nan, small, big, false, false, {}, "m",
                     "each link's rest length (left out: straight); between two ends a longer rope sags on an arc"},
                    alpha_field, damping_field},
         .meaning = "n links from an end to a new body at (X, Y), or between two ends"},
        {.id = "cloth", .kind = SceneKind::cloth, .name = "cloth", .args = SceneArgs::point,
         .fields = {{"w", 8, 1, max_scene_bodies, false, true, {}, "", "points across"},
                    {"h", 8, 1, max_scene_bodies, false, true, {}, "", "points down"},
                    {"s", 0.25, small, big, false, false, {}, "m", "spacing"},
                    {"m", 0.05, small, big, false, false, {}, "kg", "each body's mass"},
                    alpha_field, damping_field,
                    {"pin", 1, 0, 4, false, true, {"none", "corners", "top", "tl", "tr"}, "",
                     "which points are anchors: none, the two top corners, the top row, the top-left or top-right corner"}},
         .meaning = "a w × h grid of links from its top-left corner at (X, Y), rows going down"},
        {.id = "ring", .kind = SceneKind::ring, .name = "ring", .args = SceneArgs::point,
         .fields = {{"r", 1, small, big, false, false, {}, "m", "radius"},
                    {"n", 6, 3, max_scene_bodies, false, true, {}, "", "bodies"},
                    mass_field, stiffness_field,
                    {"d", 0, 0, 1e4, false, false, {}, "N·s/m", "a damper on each spring's ends' whole relative velocity"},
                    {"spin", 0, -1000, 1000, false, false, {}, "rad/s", "the ring turning about its centre at the start"}},
         .meaning = "n bodies on a circle about (X, Y), neighbours joined by springs"},
    };
    return table;
}

const SceneKindInfo& scene_kind_info(SceneKind kind) {
    for (const SceneKindInfo& k : scene_kinds())
        if (k.kind == kind) return k;
    return scene_kinds().front();
}

int scene_field_index(SceneKind kind, std::string_view name) {
    const SceneKindInfo& info = scene_kind_info(kind);
    for (size_t f = 0; f < info.fields.size(); ++f)
        if (name == info.fields[f].name) return static_cast<int>(f);
    return -1;
}

bool SceneItem::operator==(const SceneItem& o) const {
    if (kind != o.kind || given != o.given || to_point != o.to_point) return false;
    const SceneArgs args = scene_kind_info(kind).args;
    const bool has_point = args == SceneArgs::point || (args == SceneArgs::rope && to_point);
    const int end_count = args == SceneArgs::two_ends ? 2 : args == SceneArgs::rope ? (to_point ? 1 : 2) : 0;
    if (has_point && point != o.point) return false;
    for (int e = 0; e < end_count; ++e)
        if (!(ends[e] == o.ends[e])) return false;
    const size_t n = scene_kind_info(kind).fields.size();
    for (size_t f = 0; f < n; ++f)
        if (!(field[f] == o.field[f]) && !(std::isnan(field[f]) && std::isnan(o.field[f]))) return false;
    return true;
}

double sag_chord_angle(int n, double len, double span) {
    const double target = span / len;
    double lo = 0.0, hi = 2.0 * pi / n;
    for (int k = 0; k < 200 && lo < hi; ++k) {
        const double mid = 0.5 * (lo + hi);
        if (mid == lo || mid == hi) break;
        const double ratio = std::sin(0.5 * n * mid) / std::sin(0.5 * mid);
        (ratio > target ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

}  // namespace stepwise
