// The phase-space cloud: the rim polygon's area ratio against closed forms. On a linear system a
// method's one-step map is a 2x2 matrix M in the (x, vx) plane, so after n steps the ratio is
// det(M)^n exactly (up to round-off).
#include "cloud.hpp"
#include "config.hpp"
#include "exact.hpp"
#include "integrators.hpp"
#include "simulation.hpp"
#include "work.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace stepwise;

namespace {

constexpr double k_spring = 15.0, h = 0.01;
constexpr int steps = 500;

Scene undamped_spring(double b = 0.0) {
    const ParseResult r = parse_config("scenario=spring&m=1&k=15&rest=0&anchor=0,0&x0=1,0&v0=0,0&b=" +
                                       format_number(b));
    REQUIRE(r.ok());
    return build_scene(r.config);
}

// det of the method's own one-step map on the oscillator x'' = -w^2 x - (b/m) x', read off by
// stepping the unit vectors of the (x, vx) plane once (the map is linear: the columns are exact).
double one_step_determinant(int integrator, double b) {
    System s;
    s.add_body(1.0);
    s.anchor_springs.push_back({.body = 0, .anchor = dvec2(0.0), .k = k_spring, .rest = 0.0, .b = b});
    const dvec2 zero(0.0);
    const dvec2 ex(1.0, 0.0);
    Lane col1 = make_lane(s, integrator, &ex, &zero);
    Lane col2 = make_lane(s, integrator, &zero, &ex);
    integrators()[integrator].step(s, col1, h);
    integrators()[integrator].step(s, col2, h);
    return col1.x[0].x * col2.v[0].x - col2.x[0].x * col1.v[0].x;
}

double ratio_after(const Scene& scene, int integrator, int n) {
    PhaseCloud cloud(scene, integrator, 200, 0.1);
    for (int k = 0; k < n; ++k) cloud.step(h);
    REQUIRE(cloud.area_ratio().has_value());
    return *cloud.area_ratio();
}

}  // namespace

TEST_CASE("cloud: the disc's points and rim") {
    const auto disc = disc_points(1000, 2.0);
    REQUIRE(disc.size() == 1000);
    for (dvec2 p : disc) CHECK(std::hypot(p.x, p.y) <= 2.0);
    const auto rim = rim_points(1024, 2.0);
    std::vector<double> x, v;
    for (dvec2 p : rim) {
        x.push_back(p.x);
        v.push_back(p.y);
    }
    // A regular 1024-gon of circumradius 2: area = (n/2) r^2 sin(2 pi/n), counter-clockwise.
    CHECK(polygon_area(x.data(), v.data(), 1024) == Approx(512.0 * 4.0 * std::sin(6.283185307179586 / 1024)).epsilon(1e-12));
}

TEST_CASE("cloud: area ratios on the undamped spring equal the closed forms") {
    const Scene scene = undamped_spring();
    const double y = std::sqrt(k_spring) * h, y2 = y * y;
    const double n = steps;
    struct Expected {
        const char* id;
        double per_step;  // det of the one-step map
    };
    const Expected named[] = {
        {"explicit_euler", 1.0 + y2},
        {"implicit_euler", 1.0 / (1.0 + y2)},
        {"rk4", 1.0 - std::pow(y, 6) / 72.0 + std::pow(y, 8) / 576.0},
        {"heun", 1.0 + y2 * y2 / 4.0},      // |1 + z + z^2/2|^2 at z = i y
        {"midpoint", 1.0 + y2 * y2 / 4.0},
        {"newton", 1.0 + y2 / 2.0},         // [[1 - y^2/2, h], [-w^2 h, 1]]
    };
    for (const Expected& e : named) {
        INFO(e.id);
        CHECK(ratio_after(scene, find_integrator(e.id), steps) == Approx(std::pow(e.per_step, n)).epsilon(1e-9));
    }
    // Every method: the ratio is its own map's determinant to the n-th power; the symplectic ones
    // (and the exact flow the kinematic integrator follows) keep the area: 1 to 1e-12.
    for (size_t i = 0; i < integrators().size(); ++i) {
        const IntegratorInfo& info = integrators()[i];
        if (info.adaptive) continue;
        INFO(info.id);
        const double ratio = ratio_after(scene, static_cast<int>(i), steps);
        CHECK(ratio == Approx(std::pow(one_step_determinant(static_cast<int>(i), 0.0), n)).epsilon(1e-9));
        if (info.symplectic || std::string(info.id) == "kinematic") CHECK(std::fabs(ratio - 1.0) < 1e-12);
    }
}

TEST_CASE("cloud: with damping every method's area shrinks, the exact flow's as e^(-b t/m)") {
    const double b = 0.5;
    const Scene scene = undamped_spring(b);
    REQUIRE(has_closed_form(scene.system, scene.x0.data(), scene.v0.data()));
    ExactCloud exact(scene, 200, 0.1, 50);
    exact.at(steps * h);
    REQUIRE(exact.area_ratio().has_value());
    CHECK(*exact.area_ratio() == Approx(std::exp(-b * steps * h)).epsilon(1e-9));
    for (size_t i = 0; i < integrators().size(); ++i) {
        INFO(integrators()[i].id);
        PhaseCloud cloud(scene, static_cast<int>(i), 100, 0.1);
        double last = 1.0;
        for (int k = 0; k < 100; ++k) {
            cloud.step(h);
            const double r = cloud.area_ratio().value();
            // PBD (where the solvers differ) projects the spring as a rigid attachment: every
            // point lands on the anchor in the first step, and the area is 0 from then on.
            if (std::string(integrators()[i].id) == "pbd")
                CHECK(r == 0.0);
            else
                CHECK(r < last);
            last = r;
        }
    }
}

TEST_CASE("cloud: a diverging method's points stop being finite, and its ratio is then not reported") {
    const ParseResult r = parse_config("scenario=spring&k=1000&b=0&dt=0.05&x0=1,0");
    REQUIRE(r.ok());
    const Scene scene = build_scene(r.config);
    PhaseCloud cloud(scene, find_integrator("explicit_euler"), 300, 0.1);
    CHECK(cloud.points_finite() == 300);
    for (int k = 0; k < 4000; ++k) cloud.step(0.05);
    CHECK(cloud.points_finite() < 300);
    CHECK_FALSE(cloud.area_ratio().has_value());
}

TEST_CASE("work meter: the clock is read once per so many units of work, and says when the budget is spent") {
    long long reads = 0;
    double now = 0.0;
    WorkMeter meter(1.0, [&] { ++reads; return now; }, 1000);
    CHECK_FALSE(meter.over(0));  // the first call reads the clock
    CHECK(reads == 1);
    for (long long w = 1; w < 1000; ++w) CHECK_FALSE(meter.over(w));
    CHECK(reads == 1);  // 999 more units: not yet
    now = 2.0;
    CHECK_FALSE(meter.over(999));
    CHECK(meter.over(1000));  // 1000 units after the first reading: read, and past the budget
    CHECK(reads == 2);
    CHECK(meter.over(1001));  // and from then on, without reading again
    CHECK(reads == 2);
    CHECK(meter.elapsed() == 2.0);
}

TEST_CASE("cloud: a step in parts asks between parts, stops within a part's work of its budget, and gives step()'s bits (issue 40 §3)") {
    // The 62-body cloth with a compliant XPBD lane, 10 substeps of 10 iterations a step: each
    // copy's step is many row visits (the CLI's case: one step of six such clouds took 52 s).
    const ParseResult r = parse_config("scenario=scene&scene=cloth:-0.875,0,alpha:0.001&integrators=xpbd@10x10&dt=0.016");
    REQUIRE(r.ok());
    const Scene scene = build_scene(r.config);
    const LaneSpec lane = r.config.integrators[0];
    constexpr int points = 200, boundary = 56, part = 16;
    // Uninterrupted, in parts: the same bits as step().
    PhaseCloud whole(scene, lane, points, 0.1, boundary), parts(scene, lane, points, 0.1, boundary);
    whole.step(0.016);
    int asked = 0;
    CHECK(parts.step(0.016, part, [&] { ++asked; return false; }));
    CHECK(asked == (points + boundary) / part - 1);  // between parts, not after the last
    for (int k = 0; k < points + boundary; k += 37) {
        CHECK(parts.point(k).x == whole.point(k).x);
        CHECK(parts.point(k).y == whole.point(k).y);
    }
    const long long step_work = work_done(whole, scene.system, lane);
    const long long part_work = step_work / ((points + boundary) / part);
    REQUIRE(part_work > 10000);
    // With a clock that is the work done (one second per step_work / 4 units) and a budget of a
    // second, the meter reading every part_work / 2 units: the step stops inside, within a part
    // and one reading's worth of work of the budget.
    PhaseCloud cloud(scene, lane, points, 0.1, boundary);
    const auto work = [&] { return work_done(cloud, scene.system, lane); };
    WorkMeter meter(1.0, [&] { return static_cast<double>(work()) / (static_cast<double>(step_work) / 4.0); }, part_work / 2);
    CHECK_FALSE(cloud.step(0.016, part, [&] { return meter.over(work()); }));
    const long long budget_work = step_work / 4;
    CHECK(work() > budget_work);
    CHECK(work() <= budget_work + part_work / 2 + part_work);
    CHECK(work() < step_work);  // stopped inside the step
}
