#include "scenarios.hpp"

#include "number_text.hpp"
#include "table_lookup.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace stepwise {

size_t Params::offset(std::string_view key, int dims) const {
    size_t at = 0;
    for (const ParamSpec& p : info_.params) {
        if (key == p.key) {
            if (p.dims != dims)
                throw std::logic_error(std::string("scenario ") + info_.id + ": '" + p.key + "' is a " +
                                       (p.dims == 2 ? "vector" : "number"));
            return at;
        }
        at += static_cast<size_t>(p.dims);
    }
    throw std::logic_error(std::string("scenario ") + info_.id + " has no parameter '" + std::string(key) + "'");
}

double Params::num(std::string_view key) const { return values_.at(offset(key, 1)); }

dvec2 Params::vec(std::string_view key) const {
    const size_t at = offset(key, 2);
    return {values_.at(at), values_.at(at + 1)};
}

dvec2 phase_point(const PhaseSpec& spec, const dvec2* x, const dvec2* v) {
    switch (spec.kind) {
        case PhaseKind::axis_x: return {x[spec.body].x, v[spec.body].x};
        case PhaseKind::axis_y: return {x[spec.body].y, v[spec.body].y};
        case PhaseKind::angle: {
            // θ from straight down, counter-clockwise: d = L (sin θ, −cos θ); θ' = (d × w)/|d|².
            const dvec2 d = x[spec.body] - spec.centre, w = v[spec.body];
            const double r2 = d.x * d.x + d.y * d.y;
            return {std::atan2(d.x, -d.y), r2 > 0.0 ? (d.x * w.y - d.y * w.x) / r2 : 0.0};
        }
        case PhaseKind::radial:
        case PhaseKind::separation: {
            const bool pair = spec.kind == PhaseKind::separation;
            const dvec2 d = x[spec.body] - (pair ? x[spec.other] : spec.centre);
            const dvec2 w = v[spec.body] - (pair ? v[spec.other] : dvec2(0.0));
            const double r = std::sqrt(d.x * d.x + d.y * d.y);
            // dr/dt = d . w / r; at r = 0 the rate is the speed along no direction: 0.
            return {r, r > 0.0 ? (d.x * w.x + d.y * w.y) / r : 0.0};
        }
    }
    return {0.0, 0.0};
}

CloudPlaneNames cloud_plane_names(CloudPlane plane) {
    if (plane == CloudPlane::rotation)
        return {.q = "θ₁", .unit_q = "rad", .p = "dθ₁/dt", .unit_p = "rad/s", .of = "the first link"};
    return {.q = "x", .unit_q = "m", .p = "vx", .unit_p = "m/s", .of = "body 0"};
}

PhaseNames phase_names(const PhaseSpec& spec) {
    switch (spec.kind) {
        case PhaseKind::axis_x: return {"x", "vx", "m", "m/s"};
        case PhaseKind::axis_y: return {"y", "vy", "m", "m/s"};
        case PhaseKind::radial: return {"distance r", "dr/dt", "m", "m/s"};
        case PhaseKind::separation: return {"spring length", "its rate", "m", "m/s"};
        case PhaseKind::angle: return {"angle θ", "dθ/dt", "rad", "rad/s"};
    }
    return {"q", "p", "", ""};
}

namespace {

// The ranges keep every allowed config representable: each quantity the core forms from them
// stays within about 1e±100 of the double range (1e±308), so no start value, energy, closed-form
// constant or force overflows to inf or underflows to a zero that is then divided by.
//  - Magnitudes (positions, velocities, anchors, rest lengths) up to big = 1e6; gravity up to 1e3,
//    damping b up to 1e4, quadratic drag c up to 100 (the rows below).
//  - Masses, stiffnesses and G·M from small = 1e-6 to big. A mass of 1e-300 made 0.5·m·v² and k/m
//    leave the range (an energy of inf for a finite state), and m1 = m2 <= 1e-162 made the reduced
//    mass m1·m2/(m1 + m2) underflow to 0, a divisor of the kinematic maps and the closed form.
//    With these bounds: k/m, gm/r³ and ω² <= 1e12 (ω <= 1e6 s⁻¹); b/m <= 1e10 and c/m <= 1e8 s⁻¹
//    or m⁻¹; the reduced mass >= 5e-7; 0.5·m·v² <= 1e18 and 0.5·k·x² <= 1e19 J at the start; the
//    damping ratio ζ = b/(2·sqrt(k·m)) <= 5e9, so ζ² stays finite (k = 1e-300 with b = 1e4 made it
//    inf); a Kepler orbit's eccentricity <= r·v²/gm + 1 ~ 1e25 (squared: 1e50).
//  - Zero is allowed where it means "none" (b, drag, rest, g, a start velocity); tiny nonzero
//    positions and velocities are harmless: their products only underflow towards 0 (never
//    divided by: a spring whose ends coincide pulls nothing, and an orbit's start distance has its
//    own lower bound, min_orbit_distance).
// A teacher's examples sit far inside: m = 0.000001 with drag = 100 and v0 = 100 is allowed.
constexpr double big = 1e6;
constexpr double small = 1e-6;
// A body closer to a central body than this fraction of its start distance has fallen in.
constexpr double collision_fraction = 1e-3;
// An orbit starts at least this far from the central body: gm/r² <= 1e18 at the start and, down
// to the collision radius (1e-3 of it), <= 1e24; the potential energy gm·m/r <= 1e18.
constexpr double min_orbit_distance = 1e-6;

// Common keys, written once.
constexpr ParamSpec mass_param = {"m", 1, {1, 0}, small, big, false, "kg", "mass", "the body's mass"};
// The model damps the whole velocity vector, not only its part along the spring.
constexpr ParamSpec damping_param = {"b", 1, {0, 0}, 0, 1e4, false, "N·s/m", "damping",
                                     "a damper on the whole velocity, F = −b·v (not only along the spring)"};
ParamSpec start_position(double x, double y) {
    return {"x0", 2, {x, y}, -big, big, false, "m", "start position", "where the body starts"};
}
ParamSpec start_velocity(double x, double y) {
    return {"v0", 2, {x, y}, -big, big, false, "m/s", "start velocity", "the body's velocity at t = 0"};
}

// The phase plot of one body on a spring: along the axis in which it starts farther from
// where the springs pull it.
PhaseSpec axis_of(dvec2 displacement) {
    PhaseSpec p;
    p.kind = std::fabs(displacement.y) > std::fabs(displacement.x) ? PhaseKind::axis_y : PhaseKind::axis_x;
    return p;
}

void build_projectile(const Params& p, Scene& sc) {
    System& s = sc.system;
    s.add_body(p.num("m"));
    s.gravity = dvec2(0.0, -p.num("g"));
    s.drag = p.num("drag");
    sc.x0 = {p.vec("x0")};
    sc.v0 = {p.vec("v0")};
    sc.phase.kind = PhaseKind::axis_y;
    sc.launch_line = true;
}

void build_spring(const Params& p, Scene& sc) {
    System& s = sc.system;
    s.add_body(p.num("m"));
    s.anchor_springs.push_back({.body = 0, .anchor = p.vec("anchor"), .k = p.num("k"), .rest = p.num("rest"),
                                .b = p.num("b")});
    sc.x0 = {p.vec("x0")};
    sc.v0 = {p.vec("v0")};
    sc.phase = axis_of(sc.x0[0] - p.vec("anchor"));
}

void build_two_spring(const Params& p, Scene& sc) {
    System& s = sc.system;
    s.add_body(p.num("m"));
    s.damper = p.num("b");
    const double k1 = p.num("k1"), k2 = p.num("k2");
    s.anchor_springs.push_back({.body = 0, .anchor = p.vec("anchor1"), .k = k1, .rest = p.num("rest1"), .b = 0.0});
    s.anchor_springs.push_back({.body = 0, .anchor = p.vec("anchor2"), .k = k2, .rest = p.num("rest2"), .b = 0.0});
    sc.x0 = {p.vec("x0")};
    sc.v0 = {p.vec("v0")};
    // Where two rest-0 springs balance: the stiffness-weighted mean of the anchors.
    const dvec2 balance = (k1 * p.vec("anchor1") + k2 * p.vec("anchor2")) / (k1 + k2);
    sc.phase = axis_of(sc.x0[0] - balance);
}

void build_spring_pair(const Params& p, Scene& sc) {
    System& s = sc.system;
    s.add_body(p.num("m1"));
    s.add_body(p.num("m2"));
    s.gravity = p.vec("g");
    s.pair_springs.push_back({.i = 0, .j = 1, .k = p.num("k"), .rest = p.num("rest"), .b = p.num("b")});
    sc.x0 = {p.vec("x1"), p.vec("x2")};
    sc.v0 = {p.vec("v1"), p.vec("v2")};
    sc.phase.kind = PhaseKind::separation;
}

void build_orbit(const Params& p, Scene& sc) {
    System& s = sc.system;
    s.add_body(p.num("m"));
    const dvec2 x0 = p.vec("x0");
    const double r0 = std::sqrt(x0.x * x0.x + x0.y * x0.y);
    s.central_forces.push_back({.centre = dvec2(0.0), .gm = p.num("gm"), .collision_radius = collision_fraction * r0});
    sc.x0 = {x0};
    sc.v0 = {p.vec("v0")};
    sc.phase.kind = PhaseKind::radial;
    sc.reference_path = true;
}

std::optional<ParamProblem> check_orbit(const Params& p) {
    const dvec2 x0 = p.vec("x0");
    if (!(std::hypot(x0.x, x0.y) >= min_orbit_distance)) {
        const std::string got = format_number(x0.x) + "," + format_number(x0.y);
        return ParamProblem{"x0", got, "orbit_too_close",
                            {{"min", format_number(min_orbit_distance)},
                             {"lo", format_number(-big)},
                             {"hi", format_number(big)}}};
    }
    return std::nullopt;
}

void build_elastic_pendulum(const Params& p, Scene& sc) {
    System& s = sc.system;
    s.add_body(p.num("m"));
    s.gravity = p.vec("g");
    s.anchor_springs.push_back({.body = 0, .anchor = p.vec("anchor"), .k = p.num("k"), .rest = p.num("rest"),
                                .b = p.num("b")});
    sc.x0 = {p.vec("x0")};
    sc.v0 = {p.vec("v0")};
    sc.phase.kind = PhaseKind::radial;
    sc.phase.centre = p.vec("anchor");
}

// ---- Linked systems: pendulums, chains, bridges (core/forces/link.hpp) ----------------------

constexpr double pi = 3.14159265358979323846;
// A link's compliance α (m/N): 0 is a rigid rod; a compliant link is a spring of stiffness 1/α,
// kept within the ranges' k/m <= 1e12 (ω <= 1e6 s⁻¹) by the rule check_compliance.
constexpr double max_compliance = 1.0;
constexpr double max_stiffness_over_mass = 1e12;
constexpr int max_links = 64;

constexpr ParamSpec length_param = {"length", 1, {1, 0}, small, big, false, "m", "link length",
                                    "each link's rest length"};
constexpr ParamSpec compliance_param = {"compliance", 1, {0, 0}, 0, max_compliance, false, "m/N", "compliance α",
                                        "0: rigid rods; above 0: each link is a spring of stiffness 1/α"};
constexpr ParamSpec link_damping_param = {"link_damping", 1, {0, 0}, 0, 1e4, false, "N·s/m", "link damping",
                                          "a damper along each compliant link, on the ends' relative velocity"};
constexpr ParamSpec body_damping_param = {"b", 1, {0, 0}, 0, 1e4, false, "N·s/m", "damping",
                                          "a damper on each body's whole velocity, F = −b·v"};
constexpr ParamSpec down_gravity_param = {"g", 1, {9.81, 0}, 0, 1000, false, "m/s²", "gravity",
                                          "strength of gravity, pointing along −y"};
constexpr ParamSpec theta0_param = {"theta0", 1, {30, 0}, -180, 180, false, "°", "start angle",
                                    "the whole pendulum's start angle from straight down (counter-clockwise)"};
constexpr ParamSpec omega0_param = {"omega0", 1, {0, 0}, -1000, 1000, false, "rad/s", "start angular velocity",
                                    "the whole pendulum turning rigidly about its anchor at t = 0"};
constexpr ParamSpec link_anchor_param = {"anchor", 2, {0, 0}, -big, big, false, "m", "anchor",
                                         "the fixed point the first link hangs from"};

// N links hanging straight from `anchor` at theta0 from straight down, turning at omega0 as one
// rod: body k (the end of link k) at r_k = (k + 1) L (sin θ0, −cos θ0) from the anchor, moving
// at ω0 × r_k. Link 0 joins body 0 to the anchor, link k body k to body k − 1 (neighbours in the
// list share a body: the constraint matrix is tridiagonal).
void build_hanging(const Params& p, Scene& sc, int links, double end_mass) {
    System& s = sc.system;
    s.gravity = dvec2(0.0, -p.num("g"));
    s.damper = p.num("b");
    const dvec2 anchor = p.vec("anchor");
    const double m = p.num("m"), length = p.num("length"), theta = p.num("theta0") * pi / 180.0;
    const double omega = p.num("omega0");
    const dvec2 dir(std::sin(theta), -std::cos(theta));
    for (int k = 0; k < links; ++k) {
        s.add_body(k == links - 1 ? end_mass : m);
        const dvec2 r = static_cast<double>(k + 1) * length * dir;
        sc.x0.push_back(anchor + r);
        sc.v0.push_back(omega * dvec2(-r.y, r.x));
        s.links.push_back({.i = k, .j = k == 0 ? no_body : k - 1, .anchor = anchor, .rest = length,
                           .compliance = p.num("compliance"), .damping = p.num("link_damping")});
    }
    sc.phase.kind = PhaseKind::angle;
    sc.phase.centre = anchor;
    sc.cloud = {.plane = CloudPlane::rotation, .centre = anchor};
}

void build_pendulum(const Params& p, Scene& sc) { build_hanging(p, sc, 1, p.num("m")); }

void build_chain(const Params& p, Scene& sc) {
    const double end_mass = p.num("end_mass");
    build_hanging(p, sc, static_cast<int>(p.num("links")), end_mass > 0.0 ? end_mass : p.num("m"));
}

// The arc a bridge starts on: N chords of length L spanning `span` between anchors at
// (∓span/2, 0), sagging below them (sag_chord_angle, core/scene_spec.hpp).
void build_bridge(const Params& p, Scene& sc) {
    System& s = sc.system;
    s.gravity = dvec2(0.0, -p.num("g"));
    s.damper = p.num("b");
    const int n = static_cast<int>(p.num("links"));
    const double length = p.num("length"), span = p.num("span");
    const double phi = sag_chord_angle(n, length, span);
    const double radius = length / (2.0 * std::sin(0.5 * phi));
    // Points on the arc: C + R (sin a, −cos a), a from −Nφ/2 (anchor A) to +Nφ/2 (anchor B).
    const dvec2 centre(0.0, radius * std::cos(0.5 * n * phi));
    const dvec2 left(-0.5 * span, 0.0), right(0.5 * span, 0.0);
    const double alpha = p.num("compliance"), damping = p.num("link_damping");
    for (int k = 1; k < n; ++k) {
        const double a = -0.5 * n * phi + k * phi;
        s.add_body(p.num("m"));
        sc.x0.push_back(centre + radius * dvec2(std::sin(a), -std::cos(a)));
        sc.v0.push_back(dvec2(0.0));
    }
    for (int k = 0; k < n; ++k) {
        // Link k joins the arc's points k + 1 and k: point p is body p − 1, points 0 and n the
        // anchors (neighbours in the list share a body: the constraint matrix is tridiagonal).
        const bool first = k == 0, last = k == n - 1;
        s.links.push_back({.i = last ? n - 2 : k, .j = first || last ? no_body : k - 1, .anchor = first ? left : right,
                           .rest = length, .compliance = alpha, .damping = damping});
    }
    sc.phase.kind = PhaseKind::axis_y;
    sc.phase.body = (n - 1) / 2;  // the middle body (or the left of the two middle ones)
    sc.cloud = {.plane = CloudPlane::none,
                .why = "a bridge is a closed loop between two anchors: turning it about one anchor (the pendulum's and "
                       "the chain's cloud) would pull it off the other, and one body's x and vx would pull its links "
                       "apart"};
}

// compliance: 0, or soft enough that 1/(α m) <= 1e12 for the lightest body.
std::optional<ParamProblem> check_compliance(const Params& p, double lightest) {
    const double alpha = p.num("compliance");
    const double least = 1.0 / (max_stiffness_over_mass * lightest);
    if (alpha != 0.0 && alpha < least)
        return ParamProblem{"compliance", format_number(alpha), "compliance_too_stiff",
                            {{"min", format_number(least)},
                             {"mass", format_number(lightest)},
                             {"max", format_number(max_compliance)}}};
    return std::nullopt;
}

std::optional<ParamProblem> check_links(const Params& p, int least) {
    const double n = p.num("links");
    if (n != std::floor(n) || n < least || n > max_links)
        return ParamProblem{"links", format_number(n), "not_allowed",
                            {{"allowed", "whole"}, {"min", format_number(least)}, {"max", format_number(max_links)}}};
    return std::nullopt;
}

// ---- A scene a user builds (core/scene_spec.hpp) --------------------------------------------

// The scene's items, under the fields every body feels (the row's keys). Its phase plot and its
// cloud follow from what holds body 0: a link to an anchor (its angle about it), springs to
// anchors (along the axis it starts farther from their balance point in), a spring to another
// body (their separation); otherwise its height under gravity, or its x.
void build_built_scene(const Params& p, Scene& sc) {
    System& s = sc.system;
    s.gravity = p.vec("g");
    s.damper = p.num("b");
    s.drag = p.num("drag");
    SceneLayout layout;
    build_scene_items(p.scene(), s, layout);
    sc.x0 = layout.x0;
    sc.v0 = layout.v0;
    if (const double gm = p.num("gm"); gm > 0.0) {
        const dvec2 centre = p.vec("centre");
        double nearest = big;
        for (dvec2 x : sc.x0) nearest = std::min(nearest, std::hypot(x.x - centre.x, x.y - centre.y));
        s.central_forces.push_back({.centre = centre, .gm = gm, .collision_radius = collision_fraction * nearest});
    }

    std::optional<dvec2> link_anchor;
    for (const Link& k : s.links)
        if (k.i == 0 && k.j == no_body) {
            link_anchor = k.anchor;
            break;
        }
    double k_sum = 0.0;
    dvec2 balance(0.0);
    for (const AnchorSpring& sp : s.anchor_springs)
        if (sp.body == 0) {
            k_sum += sp.k;
            balance += sp.k * sp.anchor;
        }
    int partner = -1;
    for (const PairSpring& sp : s.pair_springs)
        if (partner < 0 && (sp.i == 0 || sp.j == 0)) partner = sp.i == 0 ? sp.j : sp.i;
    if (link_anchor) {
        sc.phase = {.kind = PhaseKind::angle, .body = 0, .other = 1, .centre = *link_anchor};
    } else if (k_sum > 0.0) {
        sc.phase = axis_of(sc.x0[0] - balance / k_sum);
    } else if (partner >= 0) {
        sc.phase = {.kind = PhaseKind::separation, .body = 0, .other = partner};
    } else {
        sc.phase.kind = s.gravity.y != 0.0 ? PhaseKind::axis_y : PhaseKind::axis_x;
    }

    // The cloud: without rigid links a disc in body 0's (x, vx) (springs and compliant links
    // stretch, as springs do); with rigid links the scene turned rigidly about the one point its
    // anchored links hang from, which keeps every link (core/cloud.cpp); otherwise none.
    if (!s.has_rigid_links()) return;
    std::optional<dvec2> pivot;
    bool one_pivot = true;
    for (const Link& k : s.links) {
        if (k.j != no_body) continue;
        if (pivot && *pivot != k.anchor) one_pivot = false;
        pivot = k.anchor;
    }
    if (pivot && one_pivot && link_anchor) {
        sc.cloud = {.plane = CloudPlane::rotation, .centre = *pivot};
        return;
    }
    sc.cloud = {.plane = CloudPlane::none,
                .why = "its rigid links do not all hang from one anchor that body 0 hangs from: turning the scene about "
                       "a point would pull them off the others, and one body's x and vx would pull its rods apart"};
}

// A central body attracts every body: each starts at least min_orbit_distance from it.
std::optional<ParamProblem> check_built_scene(const Params& p) {
    if (p.num("gm") == 0.0) return std::nullopt;
    System s;
    SceneLayout layout;
    build_scene_items(p.scene(), s, layout);
    const dvec2 c = p.vec("centre");
    for (size_t b = 0; b < layout.x0.size(); ++b)
        if (!(std::hypot(layout.x0[b].x - c.x, layout.x0[b].y - c.y) >= min_orbit_distance))
            return ParamProblem{"centre", format_number(c.x) + "," + format_number(c.y), "scene_central_too_close",
                                {{"body", std::to_string(b)}, {"min", format_number(min_orbit_distance)}}};
    return std::nullopt;
}

std::optional<ParamProblem> check_pendulum(const Params& p) { return check_compliance(p, p.num("m")); }

std::optional<ParamProblem> check_chain(const Params& p) {
    if (auto problem = check_links(p, 1)) return problem;
    const double end_mass = p.num("end_mass");
    if (end_mass != 0.0 && end_mass < small)
        return ParamProblem{"end_mass", format_number(end_mass), "not_allowed",
                            {{"allowed", "zero_means_m"}, {"min", format_number(small)}, {"max", format_number(big)}}};
    return check_compliance(p, std::min(p.num("m"), end_mass > 0.0 ? end_mass : p.num("m")));
}

std::optional<ParamProblem> check_bridge(const Params& p) {
    if (auto problem = check_links(p, 2)) return problem;
    // At least length/1000: two links meeting from anchors much closer than that are nearly
    // parallel, and their constraints nearly the same equation (A's condition ~ 8 (L/span)²).
    const double reach = p.num("links") * p.num("length"), least = p.num("length") / 1000.0;
    if (!(p.num("span") < reach) || p.num("span") < least)
        return ParamProblem{"span", format_number(p.num("span")), "span_out_of_reach",
                            {{"min", format_number(least)}, {"max", format_number(reach)}}};
    return check_compliance(p, p.num("m"));
}

const std::vector<ScenarioInfo> table = {
    {.id = "projectile",
     .name = "Projectile",
     .description = "A ball thrown under gravity g along −y, with optional quadratic air drag F = −c·|v|·v.",
     .params = {mass_param,
                {"g", 1, {9.81, 0}, 0, 1000, false, "m/s²", "gravity", "strength of gravity, pointing along −y"},
                {"drag", 1, {0, 0}, 0, 100, false, "kg/m", "air drag c", "quadratic air drag F = −c·|v|·v"},
                start_position(0, 0), start_velocity(10, 10)},
     .presets = {{"constant_force", "Constant force (table)",
                  "m = 1 kg pushed by a constant 10 N from rest, dt = 1 s for 10 s: Euler gives 450 m, "
                  "semi-implicit 550 m, the exact answer is 500 m.",
                  "integrators=explicit_euler,semi_implicit_euler,newton,velocity_verlet,rk4&dt=1&duration=10&m=1&"
                  "g=10&drag=0&x0=0,0&v0=0,0"},
                 {"projectile_drag", "Projectile with air drag",
                  "Quadratic drag has no closed form: the reference is the adaptive Dormand–Prince solution.",
                  "integrators=explicit_euler,semi_implicit_euler,newton,rk4,kinematic&dt=0.1&duration=4&m=1&"
                  "g=9.81&drag=0.05&x0=0,0&v0=20,20"}},
     .reference = "closed form without drag; rk45 with drag",
     .phase_plot = "height y against vertical velocity vy",
     .build = build_projectile,
     .check = nullptr},
    {.id = "spring",
     .name = "Spring",
     .description = "One mass on a spring to a fixed anchor: F = −k·(|d| − rest)·d/|d| − b·v, d = x − anchor.",
     .params = {mass_param,
                {"k", 1, {15, 0}, small, big, false, "N/m", "stiffness", "spring constant: force per metre of stretch"},
                {"b", 1, {0.1, 0}, 0, 1e4, false, "N·s/m", "damping", "linear damping, F = −b·v"},
                {"rest", 1, {0, 0}, 0, big, false, "m", "rest length", "length at which the spring pulls nothing"},
                {"anchor", 2, {0, 0}, -big, big, false, "m", "anchor", "the spring's fixed end"},
                start_position(1, 0), start_velocity(0, 0)},
     .presets = {{"damped_spring", "Damped spring (k = 15, b = 0.1)",
                  "The spring–damper from 1000 m at dt = 1/100: explicit Euler gains energy, semi-implicit Euler "
                  "and RK4 follow the exact solution.",
                  "integrators=explicit_euler,semi_implicit_euler,rk4,kinematic&dt=0.01&duration=10&m=1&k=15&b=0.1&"
                  "rest=0&anchor=0,0&x0=1000,0&v0=0,0"},
                 {"undamped_dt01", "Undamped oscillator, dt = 0.1",
                  "No damping, 90 s at dt = 0.1: semi-implicit Euler drifts out of phase, RK4 keeps the phase but "
                  "loses energy.",
                  "integrators=semi_implicit_euler,rk4,velocity_verlet&dt=0.1&duration=90&m=1&k=15&b=0&rest=0&"
                  "anchor=0,0&x0=1000,0&v0=0,0"},
                 {"undamped_dt025", "Undamped oscillator, dt = 0.25",
                  "The same oscillator at dt = 0.25: RK4 visibly loses energy while semi-implicit Euler keeps it on "
                  "average.",
                  "integrators=semi_implicit_euler,rk4,velocity_verlet&dt=0.25&duration=90&m=1&k=15&b=0&rest=0&"
                  "anchor=0,0&x0=1000,0&v0=0,0"},
                 {"stiff_spring", "Stiff spring: explicit Euler explodes",
                  "k = 1000 at dt = 0.05: explicit Euler diverges within seconds while the symplectic methods stay "
                  "bounded.",
                  "integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.05&duration=10&m=1&"
                  "k=1000&b=0&rest=0&anchor=0,0&x0=1,0&v0=0,0"},
                 {"xpbd_spring", "XPBD paper: one spring",
                  "The XPBD paper's spring: 1 kg on compliance 0.001 m/N (k = 1000 N/m), rest length 1 m, released "
                  "at 1.5 m, dt = 1/60. XPBD swings with period 0.216 s whether it takes 1 or 20 iterations "
                  "(implicit Euler's; the exact 0.199 s as the step shrinks); PBD at stiffness 0.2 never reads k: "
                  "its period is 0.226 s at this step and 0.113 s at half of it.",
                  "integrators=xpbd,xpbd@1x20,xpbd@20,pbd,pbd@2&dt=0.016666666666666666&duration=2&m=1&k=1000&b=0&"
                  "rest=1&anchor=0,0&x0=1.5,0&v0=0,0&pbd_stiffness=0.2"},
                 // The game loops (core/frame_loop.hpp, docs/game-loops.md): k picked with
                 // `stepwise stability` so that one frame's step is past the limit at 30 Hz only.
                 {"explodes_at_30fps", "Explodes at 30 fps, not at 60",
                  "A stiff spring (ω = 75/s) stepped once a frame: at 30 fps ω·h = 2.5 is past symplectic Euler's and "
                  "Verlet's limit of 2 and it explodes within 0.4 s, while at hz=60 (ω·h = 1.25) it stays bounded.",
                  "integrators=semi_implicit_euler,velocity_verlet&duration=5&m=1&k=5625&b=0&rest=0&anchor=0,0&"
                  "x0=1,0&v0=0,0&loop=fixed&hz=30"},
                 {"substeps_rescue", "Substeps rescue a stiff spring",
                  "A stiffer spring (ω = 150/s) in a 30 Hz accumulator loop with jittered frames: one step a frame "
                  "(ω·h = 5) explodes within 0.2 s, substeps=4 (ω·h = 1.25) keeps it bounded at the same frame rate.",
                  "integrators=semi_implicit_euler,velocity_verlet&duration=5&m=1&k=22500&b=0&rest=0&anchor=0,0&"
                  "x0=1,0&v0=0,0&loop=accumulator&hz=30&substeps=4&jitter=0.2&seed=1"}},
     .reference = "closed form with rest = 0 (the damped oscillator); rk45 with a rest length",
     .phase_plot = "position against velocity along the axis of the start displacement",
     .build = build_spring,
     .check = nullptr},
    {.id = "two_spring",
     .name = "Two springs",
     .description = "One mass held by two springs to two anchors (two forces at once), with a damper F = −b·v.",
     .params = {mass_param,
                {"k1", 1, {10, 0}, small, big, false, "N/m", "stiffness 1", "spring constant of the first spring"},
                {"k2", 1, {20, 0}, small, big, false, "N/m", "stiffness 2", "spring constant of the second spring"},
                {"b", 1, {0, 0}, 0, 1e4, false, "N·s/m", "damping", "a damper on the mass, F = −b·v"},
                {"rest1", 1, {0, 0}, 0, big, false, "m", "rest length 1", "rest length of the first spring"},
                {"rest2", 1, {0, 0}, 0, big, false, "m", "rest length 2", "rest length of the second spring"},
                {"anchor1", 2, {-2, 0}, -big, big, false, "m", "anchor 1", "fixed end of the first spring"},
                {"anchor2", 2, {2, 0}, -big, big, false, "m", "anchor 2", "fixed end of the second spring"},
                start_position(1, 1), start_velocity(0, 0)},
     .presets = {{"two_springs", "Two springs at once",
                  "A mass between two springs: the kinematic integrator is no longer exact, and the "
                  "average-acceleration variant wins.",
                  "integrators=semi_implicit_euler,kinematic,kinematic_avg,rk4&dt=0.05&duration=60&m=1&k1=10&k2=20&"
                  "b=0&rest1=0&rest2=0&anchor1=-2,0&anchor2=2,0&x0=1,1&v0=0,0"}},
     .reference = "closed form with both rest lengths 0; rk45 otherwise",
     .phase_plot = "position against velocity along the axis of the start displacement from the balance point",
     .build = build_two_spring,
     .check = nullptr},
    {.id = "spring_pair",
     .name = "Spring pair",
     .description = "Two masses joined by one spring (stiffness k, rest length) and a damper b on their relative "
                    "velocity, F = −b·(v1 − v2) on the first (the whole vector), under a gravity vector g.",
     .params = {{"m1", 1, {2, 0}, small, big, false, "kg", "mass 1", "mass of the first body"},
                {"m2", 1, {3, 0}, small, big, false, "kg", "mass 2", "mass of the second body"},
                {"k", 1, {4, 0}, small, big, false, "N/m", "stiffness", "spring constant of the joining spring"},
                {"b", 1, {0, 0}, 0, 1e4, false, "N·s/m", "damping",
                 "a damper on the relative velocity, F = −b·(v1 − v2) (the whole vector, not only along the spring)"},
                {"rest", 1, {6, 0}, 0, big, false, "m", "rest length", "length at which the spring pulls nothing"},
                {"g", 2, {0, -10}, -1000, 1000, false, "m/s²", "gravity", "gravity as a vector"},
                {"x1", 2, {-2, 2}, -big, big, false, "m", "start position 1", "where the first body starts"},
                {"x2", 2, {3, 2}, -big, big, false, "m", "start position 2", "where the second body starts"},
                {"v1", 2, {-1, -1.5}, -big, big, false, "m/s", "start velocity 1", "first body's velocity at t = 0"},
                {"v2", 2, {1, -1.5}, -big, big, false, "m/s", "start velocity 2", "second body's velocity at t = 0"}},
     .presets = {{"two_point_exercise", "Two-point spring exercise",
                  "P1 (mass 2) at (−2, 2) moving at (−1, −1.5) and P2 (mass 3) at (3, 2) moving at (1, −1.5), "
                  "joined by a spring of rest length 6 and stiffness 4 under gravity (0, −10), dt = 0.5: the "
                  "exercise sheet's worked step (press X-ray).",
                  "integrators=explicit_euler,heun,midpoint,semi_implicit_euler,leapfrog,rk4&dt=0.5&duration=10&m1=2&"
                  "m2=3&k=4&b=0&rest=6&g=0,-10&x1=-2,2&x2=3,2&v1=-1,-1.5&v2=1,-1.5"}},
     .reference = "closed form with rest = 0 and no damping (centre of mass and separation apart); rk45 otherwise",
     .phase_plot = "the spring's length against its rate of change",
     .build = build_spring_pair,
     .check = nullptr},
    {.id = "orbit",
     .name = "Orbit",
     .description = "One body around a fixed central mass at the origin: F = −gm·m·r/|r|³ (Kepler's problem).",
     .params = {mass_param,
                {"gm", 1, {1, 0}, small, big, false, "m³/s²", "G·M", "gravitational parameter of the central mass"},
                start_position(1, 0), start_velocity(0, 1)},
     .presets = {{"circular_orbit", "Circular orbit",
                  "gm = 1, r = 1, speed 1: a circle of period 2π. Explicit Euler spirals outwards, the symplectic "
                  "methods stay on the circle.",
                  "integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.1&duration=62.83&m=1&gm=1&"
                  "x0=1,0&v0=0,1"},
                 {"eccentric_orbit", "Eccentric orbit (e = 0.9)",
                  "From apoapsis at r = 1 with e = 0.9: explicit Euler spirals out, semi-implicit Euler precesses, "
                  "RK4 slowly loses energy at each close pass.",
                  "integrators=explicit_euler,semi_implicit_euler,rk4,kinematic&dt=0.005&duration=12&m=1&gm=1&"
                  "x0=1,0&v0=0,0.31622776601683794"},
                 {"hyperbolic_flyby", "Hyperbolic fly-by",
                  "A body coming in from x = −10 at speed 1.5 swings past the central mass once and escapes.",
                  "integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.05&duration=16&m=1&gm=1&"
                  "x0=-10,1&v0=1.5,0"},
                 {"variable_dt_drifts", "Variable frame time drifts",
                  "An eccentric orbit (e = 0.64) stepped by each jittered frame's own length (30 Hz ± 50 %): the "
                  "energy of symplectic Euler and Verlet wanders off by about 10 % in 20 orbits, where loop=fixed "
                  "returns to its start energy every orbit.",
                  "integrators=semi_implicit_euler,velocity_verlet&duration=60&m=1&gm=1&x0=1,0&v0=0,0.6&"
                  "loop=variable&hz=30&jitter=0.5&seed=1"}},
     .reference = "closed form (Kepler's equation in universal variables) for ellipses and hyperbolae; rk45 within "
                  "|e − 1| < 0.001 of a parabola or when the orbit dives inside the collision radius",
     .phase_plot = "distance r from the central mass against dr/dt (a closed loop for an ellipse)",
     .build = build_orbit,
     .check = check_orbit,
     .rules = "x0 at least " + format_number(min_orbit_distance) + " m from the central mass at (0,0)"},
    {.id = "elastic_pendulum",
     .name = "Elastic pendulum",
     .description = "A mass on a spring with a rest length hanging from a fixed anchor under gravity: swing and bounce "
                    "exchange energy, chaotically for large amplitudes.",
     .params = {mass_param,
                {"k", 1, {30, 0}, small, big, false, "N/m", "stiffness", "spring constant: force per metre of stretch"},
                damping_param,
                {"rest", 1, {1, 0}, 0, big, false, "m", "rest length", "length at which the spring pulls nothing"},
                {"g", 2, {0, -9.81}, -1000, 1000, false, "m/s²", "gravity", "gravity as a vector"},
                {"anchor", 2, {0, 0}, -big, big, false, "m", "anchor", "the spring's fixed end"},
                start_position(0.8, -1), start_velocity(0, 0)},
     .presets = {{"elastic_pendulum_resonance", "Elastic pendulum: swing ↔ bounce",
                  "k = 29.43 puts the bounce at twice the swing frequency: the energy sloshes between swinging and "
                  "bouncing, and low-order methods lose the rhythm.",
                  "integrators=semi_implicit_euler,velocity_verlet,rk4,yoshida4&dt=0.01&duration=30&m=1&k=29.43&b=0&"
                  "rest=1&g=0,-9.81&anchor=0,0&x0=0.3,-1.4&v0=0,0"},
                 {"elastic_pendulum_chaos", "Elastic pendulum: chaos",
                  "Released almost horizontally, the swing is chaotic: a small error grows exponentially, so after "
                  "60 s even RK4 is centimetres off and the second-order methods a metre; a smaller dt only delays it.",
                  "integrators=semi_implicit_euler,velocity_verlet,rk4,yoshida4&dt=0.005&duration=60&m=1&k=30&b=0&"
                  "rest=1&g=0,-9.81&anchor=0,0&x0=1.5,-0.2&v0=0,0"}},
     .reference = "rk45 (no closed form)",
     .phase_plot = "distance r from the anchor (the spring's length) against dr/dt",
     .build = build_elastic_pendulum,
     .check = nullptr},
    {.id = "pendulum",
     .name = "Pendulum",
     .description = "A mass on a link of length L from a fixed anchor under gravity along −y: a rigid rod (compliance "
                    "0) or a stiff spring of stiffness 1/α along the link.",
     .params = {mass_param, length_param, compliance_param, link_damping_param, down_gravity_param, body_damping_param,
                link_anchor_param, theta0_param, omega0_param},
     .presets = {{"pendulum_small", "Pendulum, small swing",
                  "A 10° swing of a 1 m pendulum, nearly harmonic: its period 4K(sin 5°)·√(L/g) = 2.0099 s is 0.19 % above 2π·√(L/g) = 2.0061 s. The "
                  "link is a stiff spring (α = 1e-5 m/N) so that the force-based methods can step it.",
                  "integrators=semi_implicit_euler,velocity_verlet,rk4&dt=0.001&duration=10&m=1&length=1&"
                  "compliance=0.00001&g=9.81&theta0=10"},
                 {"pendulum_large", "Pendulum, 170° swing",
                  "Released at 170° a rigid pendulum takes 2.44 times the small-swing period 2π·√(L/g): its period "
                  "4K(sin 85°)·√(L/g) is 4.8935 s against 2.0061 s: the reference is the exact elliptic solution.",
                  "dt=0.01&duration=20&m=1&length=1&compliance=0&g=9.81&theta0=170"},
                 {"pendulum_over_top", "Pendulum over the top",
                  "Pushed at 7 rad/s from the bottom (2·√(g/L) = 6.26 rad/s reaches the top), a rigid pendulum goes "
                  "round and round: the reference is the exact rotating solution.",
                  "dt=0.01&duration=10&m=1&length=1&compliance=0&g=9.81&theta0=0&omega0=7"}},
     .reference = "closed form (Jacobi elliptic functions) for a rigid undamped link; otherwise rk45, projected onto "
                  "rigid links after every step",
     .phase_plot = "the angle θ from straight down against dθ/dt",
     .build = build_pendulum,
     .check = check_pendulum,
     .rules = "compliance 0 or at least 1e-12/m m/N",
     .parts = part_links},
    {.id = "chain",
     .name = "Chain",
     .description = "N links hanging from a fixed anchor, each ending in a body of mass m (the last one end_mass): the "
                    "N-link pendulum with rigid links, a rope of stiff springs with compliant ones.",
     .params = {{"links", 1, {2, 0}, 1, max_links, false, "", "links", "the number of links N (a whole number)"},
                mass_param,
                {"end_mass", 1, {0, 0}, 0, big, false, "kg", "end mass", "the last body's mass; 0 means the same as m"},
                length_param, compliance_param, link_damping_param, down_gravity_param, body_damping_param,
                link_anchor_param, theta0_param, omega0_param},
     .presets = {{"double_pendulum", "Double pendulum",
                  "Two links released at 120°: chaotic, so methods that agree for a second part visibly after a few. "
                  "Stiff springs (α = 1e-5 m/N) for links, so that the force-based methods can step it.",
                  "integrators=semi_implicit_euler,velocity_verlet,rk4,yoshida4&dt=0.001&duration=20&links=2&m=1&"
                  "length=1&compliance=0.00001&g=9.81&theta0=120"},
                 {"pendulum_challenge", "Pendulum challenge: heavy end",
                  "Matthias Müller's challenge: four rigid links whose last body is 100 times heavier, g = 10, "
                  "dt = 1/60, against the constrained reference. XPBD with 20 substeps of one iteration keeps the "
                  "links within 0.1 % over the first second and loses 2 J; one substep of 20 iterations, the same "
                  "passes, stretches them 4 % and loses 30 J; the challenge page itself takes 50 substeps.",
                  "integrators=xpbd@20x1,xpbd@1x20,xpbd@50x1&dt=0.016666666666666666&duration=10&links=4&m=0.1&"
                  "end_mass=10&length=0.25&compliance=0&g=10&theta0=90"},
                 {"pendulum_challenge_default", "Pendulum challenge: 3 × 1 kg",
                  "The challenge page's own start: three rigid 1 kg links released horizontally, g = 10, dt = 1/60, "
                  "stepped by XPBD with the page's 50 substeps of one iteration and with 20.",
                  "integrators=xpbd@50x1,xpbd@20x1&dt=0.016666666666666666&duration=10&links=3&m=1&"
                  "length=0.3333333333333333&compliance=0&g=10&theta0=90"},
                 {"hanging_chain", "Hanging chain with a heavy end",
                  "20 rigid links at rest, straight down, the last body 100 times heavier: its exact motion is to "
                  "stay, and its top link carries the weight of everything below, (19 + 100)·m·g. XPBD with 100 "
                  "iterations against 100 substeps of one, the same passes (Small Steps): after 2 s the links "
                  "stretch 1.08 % against 0.0116 %.",
                  "integrators=xpbd@1x100,xpbd@100x1&dt=0.01&duration=5&links=20&m=1&end_mass=100&length=0.1&"
                  "compliance=0&g=9.81&theta0=0"},
                 {"heavy_chain_60hz", "Heavy chain at 60 Hz: solvers",
                  "Ten rigid links of 0.1 kg ending in 10 kg (1:100), released at 60°, one step a 60 Hz frame: "
                  "XPBD with 20 iterations against 20 substeps of one, Box2D v3's soft step at its 4 substeps and "
                  "sequential impulses with Baumgarte. After 10 s the links are stretched 14 %, 1.1 %, 65 % and "
                  "300 %: soft step makes a rigid link a 30 Hz spring here (Box2D caps it at 1/8 of the substep "
                  "rate).",
                  "integrators=xpbd@1x20,xpbd@20x1,soft_step@4,sequential_impulses&dt=0.016666666666666666&"
                  "duration=10&links=10&m=0.1&end_mass=10&length=0.1&compliance=0&g=9.81&theta0=60"},
                 {"rope", "Rope released horizontally",
                  "32 links of stiff springs (α = 1e-6 m/N, 0.1 kg each) released straight out sideways: a whip "
                  "travels down the rope as it falls.",
                  "integrators=semi_implicit_euler,velocity_verlet,rk4&dt=0.0002&duration=3&links=32&m=0.1&"
                  "length=0.1&compliance=0.000001&g=9.81&theta0=90"}},
     .reference = "rk45 of the constrained equations (Lagrange multipliers, a banded solve), projected onto the "
                  "rigid links after every step; of the springs themselves for compliant links",
     .phase_plot = "the first link's angle θ from straight down against dθ/dt",
     .build = build_chain,
     .check = check_chain,
     .rules = "links a whole number from 1 to 64; end_mass 0 or at least 1e-6 kg; compliance 0 or at least "
              "1e-12/m m/N for the lightest body",
     .parts = part_links},
    {.id = "bridge",
     .name = "Bridge",
     .description = "A chain of N links between two anchors span apart at the same height, starting at rest on a "
                    "circular arc through both anchors with every link at its rest length: it swings and settles "
                    "under gravity.",
     .params = {{"links", 1, {12, 0}, 2, max_links, false, "", "links", "the number of links N (a whole number)"},
                mass_param, length_param,
                {"span", 1, {8, 0}, small, big, false, "m", "span", "the distance between the anchors (< N·L)"},
                compliance_param, link_damping_param, down_gravity_param, body_damping_param},
     .presets = {{"bridge_sag", "Bridge settling",
                  "12 links of 1 m between anchors 8 m apart, stiff springs (α = 1e-5 m/N) with a little damping: "
                  "the arc it starts on is not its hanging shape, so it swings and settles.",
                  "integrators=semi_implicit_euler,velocity_verlet,rk4&dt=0.001&duration=10&links=12&m=1&length=1&"
                  "span=8&compliance=0.00001&link_damping=1&g=9.81&b=0.2"}},
     .reference = "rk45 of the constrained equations (a closed loop of links: no angles to use), projected onto the "
                  "rigid links after every step; of the springs themselves for compliant links",
     .phase_plot = "the middle body's height y against vy",
     .build = build_bridge,
     .check = check_bridge,
     .rules = "links a whole number from 2 to 64; length/1000 <= span < links × length; compliance 0 or at least "
              "1e-12/m m/N",
     .parts = part_links},
    {.id = "scene",
     .name = "Your own scene",
     .description = "Bodies, anchors, springs and links you place yourself (the key scene, or the page's Edit mode), "
                    "under gravity g, a damper b on every body, quadratic drag and an optional central body.",
     .params = {{"g", 2, {0, -9.81}, -1000, 1000, false, "m/s²", "gravity", "gravity as a vector"},
                {"b", 1, {0, 0}, 0, 1e4, false, "N·s/m", "damping", "a damper on each body's whole velocity, F = −b·v"},
                {"drag", 1, {0, 0}, 0, 100, false, "kg/m", "air drag c", "quadratic air drag F = −c·|v|·v on each body"},
                {"gm", 1, {0, 0}, 0, big, false, "m³/s²", "central G·M",
                 "a central body at centre attracting every body (0: none)"},
                {"centre", 2, {0, 0}, -big, big, false, "m", "centre", "where the central body is"}},
     .presets = {{"scene_rope", "Rope of 12 rods",
                  "A rope of 12 rigid links of 0.25 m, 0.1 kg each, released straight out from an anchor: XPBD "
                  "with 20 substeps, Box2D's soft step and PBD against the constrained reference.",
                  "integrators=xpbd@20x1,soft_step,pbd@20x1,reference&dt=0.016666666666666666&duration=5&g=0,-9.81&"
                  "scene=a:0,0;rope:a0,3,0,n:12,m:0.1"},
                 {"scene_bridge", "Rope bridge",
                  "Ten rigid planks of 0.65 m between anchors 6 m apart: the rope sags on an arc and swings into its "
                  "hanging shape.",
                  "integrators=xpbd@20x1,soft_step,vbd@4x4,reference&dt=0.016666666666666666&duration=5&g=0,-9.81&"
                  "scene=a:-3,0;a:3,0;rope:a0,a1,n:10,len:0.65,m:0.5"},
                 {"scene_cloth", "Cloth 8 × 8, pinned at two corners",
                  "A square of 8 × 8 points 0.25 m apart joined by stiff links (α = 0.001 m/N, 0.05 kg a point), "
                  "held at its two top corners: it falls into folds.",
                  "integrators=xpbd@10x1,soft_step,vbd@4x4&dt=0.016666666666666666&duration=5&g=0,-9.81&"
                  "scene=cloth:-0.875,0,alpha:0.001"},
                 {"scene_triple_pendulum", "Triple pendulum",
                  "Three rigid links of 1 m released horizontally from an anchor: chaotic; XPBD with 20 and 100 "
                  "substeps against the reference.",
                  "integrators=xpbd@20x1,xpbd@100x1,reference&dt=0.016666666666666666&duration=10&g=0,-9.81&"
                  "scene=a:0,0;rope:a0,3,0,n:3"},
                 {"scene_heavy_chain", "Chain with a heavy end",
                  "Eight rigid links of 0.1 kg ending in 5 kg, released at 45°: XPBD with iterations against substeps "
                  "at the same passes.",
                  "integrators=xpbd@1x20,xpbd@20x1,reference&dt=0.016666666666666666&duration=5&g=0,-9.81&"
                  "scene=a:0,0;rope:a0,1.4142135623730951,-1.4142135623730951,n:8,m:0.1,mend:5"},
                 {"scene_molecule", "Molecule of three springs",
                  "Three masses joined by three springs of rest length 1 m, one pushed: it tumbles and vibrates with "
                  "no gravity. Every integrator runs it; the reference is rk45.",
                  "integrators=semi_implicit_euler,velocity_verlet,rk4&dt=0.01&duration=10&g=0,0&"
                  "scene=b:0,0;b:1,0;b:0.5,0.8660254037844386,vx:1;s:b0,b1,k:50,rest:1;s:b1,b2,k:50,rest:1;"
                  "s:b2,b0,k:50,rest:1"},
                 {"scene_duffing", "Duffing spring you write",
                  "One body on the force you write, fx = −c1·x − c2·x³ (a spring that stiffens as it stretches), "
                  "released from x = 1.5 m with no gravity: its energy includes the force's potential, so you see "
                  "which integrators keep it. Change c1, c2 or the law itself.",
                  "integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4,yoshida4&dt=0.02&duration=20&"
                  "g=0,0&scene=b:1.5,0&fx=-c1*x-c2*x^3&c1=4&c2=2"},
                 {"scene_driven", "Driven oscillator you write",
                  "One body on fx = −c1·x + c2·cos(c3·t), a spring pushed at a frequency of its own: the force "
                  "depends on time, so every method must evaluate it at its stages' own times. Starting at rest "
                  "at 0, the motion beats between the spring's 2 rad/s and the drive's 3 rad/s.",
                  "integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.02&duration=20&"
                  "g=0,0&scene=b:0,0&fx=-c1*x+c2*cos(c3*t)&c1=4&c2=1&c3=3"}},
     .reference = "closed form when every force is linear and the table's forces give one; the constrained rk45 "
                  "with rigid links; rk45 otherwise",
     .phase_plot = "body 0: its angle about the anchor its link hangs from, or along the axis of its springs, or its "
                   "separation from the body it is joined to, or its height under gravity, else its x",
     .build = build_built_scene,
     .check = check_built_scene,
     .rules = "a central body (gm > 0) at least 1e-6 m from every body; the scene's own rules: see scene",
     .default_scene = "a:0,0;b:0,-1;b:0,-2,vx:1;s:a0,b0,k:40;s:b0,b1,k:40",
     .parts = part_links | part_scenes},
};

}  // namespace

const std::vector<ScenarioInfo>& scenarios() { return table; }

int find_scenario(std::string_view id) { return index_of_id(table, id); }

const std::vector<PresetInfo>& presets() {
    // Built once: the queries' storage lives as long as the list.
    static const std::vector<std::string> queries = [] {
        std::vector<std::string> q;
        for (const ScenarioInfo& s : table)
            for (const PresetInfo& p : s.presets) q.push_back(std::string("scenario=") + s.id + "&" + p.query);
        return q;
    }();
    static const std::vector<PresetInfo> list = [] {
        std::vector<PresetInfo> l;
        size_t k = 0;
        for (const ScenarioInfo& s : table)
            for (const PresetInfo& p : s.presets) l.push_back({p.id, p.name, p.description, queries[k++].c_str()});
        return l;
    }();
    return list;
}

int find_preset(std::string_view id) { return index_of_id(presets(), id); }

const SceneSpec& default_scene_of(int scenario) {
    static const std::vector<SceneSpec> scenes = [] {
        std::vector<SceneSpec> list;
        for (const ScenarioInfo& info : table) {
            SceneProblem problem;
            // A build without the part `scenes` makes no built scene (core/parts.hpp): its row keeps none.
            list.push_back(info.default_scene && carries_scenes() ? parse_scene(info.default_scene, problem).value() : SceneSpec{});
        }
        return list;
    }();
    return scenes.at(static_cast<size_t>(scenario));
}

Scene build_scene(int scenario, const std::vector<double>& values, double duration) {
    return build_scene(scenario, values, default_scene_of(scenario), duration);
}

Scene build_scene(int scenario, const std::vector<double>& values, const SceneSpec& scene, double duration) {
    Scene sc;
    const ScenarioInfo& info = table.at(static_cast<size_t>(scenario));
    info.build(Params(info, values, scene), sc);
    const System& s = sc.system;

    // The mechanism: anchors, start positions and spring lengths (a lone body or an orbit has none).
    std::vector<dvec2> points;
    for (const AnchorSpring& sp : s.anchor_springs) points.push_back(sp.anchor);
    for (const Link& k : s.links)
        if (k.j == no_body) points.push_back(k.anchor);
    if (!points.empty() || !s.pair_springs.empty() || !s.links.empty())
        points.insert(points.end(), sc.x0.begin(), sc.x0.end());
    double size = 0.0;
    for (dvec2 a : points)
        for (dvec2 b : points) size = std::max(size, std::hypot(a.x - b.x, a.y - b.y));
    for (const PairSpring& sp : s.pair_springs) size = std::max(size, sp.rest);
    sc.mechanism_size = size;

    // How far the exact motion can plausibly reach within the duration.
    double extent = 0.0, speed = 0.0;
    auto grow = [](double& what, dvec2 p) { what = std::max({what, std::fabs(p.x), std::fabs(p.y)}); };
    for (const AnchorSpring& sp : s.anchor_springs) {
        grow(extent, sp.anchor);
        extent = std::max(extent, sp.rest);
    }
    for (const PairSpring& sp : s.pair_springs) extent = std::max(extent, sp.rest);
    for (const CentralForce& c : s.central_forces) grow(extent, c.centre);
    for (const Link& k : s.links) {
        if (k.j == no_body) grow(extent, k.anchor);
        extent = std::max(extent, k.rest);
    }
    for (dvec2 p : sc.x0) grow(extent, p);
    for (dvec2 w : sc.v0) grow(speed, w);
    const double accel = std::hypot(s.gravity.x, s.gravity.y);
    sc.length_scale = 1.0 + extent + speed * duration + 0.5 * accel * duration * duration;
    return sc;
}

}  // namespace stepwise
