// Body layouts: how a body's coordinates lie in a system's state (issue 34 §1).
//
// A state is flat arrays of doubles: positions q and velocities u (and every array a method
// keeps beside them: accelerations, stages, carried values), each System::coordinates() long and
// laid out alike:
//   - the linear block: every body's (x, y), in body order, 2 n doubles. Code written for points
//     reads it as one dvec2 per body, so a system of points is what it always was, bit for bit;
//   - the angular block: the angle φ (rad) of every body that turns, in the order of
//     System::rotations (its velocity coordinate is the rate ω, its acceleration ω').
// A body's coordinates are at its offsets into both blocks: 2 i for body i's linear part, and
// 2 n + r for the angle of rotation r (System::angular_offset). The generalised mass is
// diag(m, m, …, I, …) in the same layout (System::inverse_generalised_mass): a force's (Fx, Fy) and
// a torque τ give the accelerations F/m and τ/I.
//
// Every layout today has one velocity coordinate per position coordinate and q' = u, so a method's
// drift x += h v is the same pass over every coordinate. The layout table below says so for each
// (`drift_is_add`); a body in 3-D (a unit quaternion: 4 position coordinates, 3 angular
// velocities, q' = ½ q ⊗ ω) will be a row with its own drift and the methods a hook to call it.
#pragma once
#include <glm/ext/vector_double2.hpp>

#include <cstddef>
#include <vector>

namespace stepwise {

enum class BodyLayout : unsigned char { point, planar };

struct BodyLayoutInfo {
    BodyLayout layout;
    const char* id;
    int positions;      // coordinates in q
    int velocities;     // coordinates in u
    bool drift_is_add;  // q' = u coordinate by coordinate: a drift is q += h u
    const char* description;
};

inline constexpr BodyLayoutInfo body_layouts[] = {
    {.layout = BodyLayout::point, .id = "point", .positions = 2, .velocities = 2, .drift_is_add = true,
     .description = "a point mass: (x, y | vx, vy), mass m"},
    {.layout = BodyLayout::planar, .id = "planar", .positions = 3, .velocities = 3, .drift_is_add = true,
     .description = "a rigid body in the plane: (x, y, φ | vx, vy, ω), mass m and moment of inertia I about its centre of mass"},
};
constexpr const BodyLayoutInfo& layout_info(BodyLayout l) { return body_layouts[static_cast<int>(l)]; }

// One state array of a system (a lane's positions, velocities, stages …): the linear block and
// then the angular block, contiguous (see above). It reads as the std::vector<dvec2> of bodies the
// point code was written for (data(), size(), [i], begin()/end() are the bodies' (x, y)), and
// gives the whole array to the code written for any layout (flat(), count()) and the angular block
// to the code that turns bodies (angular()).
class Coordinates {
public:
    Coordinates() = default;
    Coordinates(int bodies, int angular) { resize(bodies, angular); }
    // Every coordinate zero.
    void resize(int bodies, int angular = 0) {
        bodies_ = static_cast<size_t>(bodies);
        c_.assign(2 * bodies_ + static_cast<size_t>(angular), 0.0);
    }

    // The linear block, one dvec2 per body (glm's dvec2 is two doubles, no padding: checked below).
    glm::dvec2* data() { return reinterpret_cast<glm::dvec2*>(c_.data()); }
    const glm::dvec2* data() const { return reinterpret_cast<const glm::dvec2*>(c_.data()); }
    size_t size() const { return bodies_; }
    glm::dvec2& operator[](size_t i) { return data()[i]; }
    const glm::dvec2& operator[](size_t i) const { return data()[i]; }
    glm::dvec2* begin() { return data(); }
    glm::dvec2* end() { return data() + bodies_; }
    const glm::dvec2* begin() const { return data(); }
    const glm::dvec2* end() const { return data() + bodies_; }

    // Every coordinate, both blocks.
    double* flat() { return c_.data(); }
    const double* flat() const { return c_.data(); }
    int count() const { return static_cast<int>(c_.size()); }
    // The angular block.
    double* angular() { return c_.data() + 2 * bodies_; }
    const double* angular() const { return c_.data() + 2 * bodies_; }
    int angular_count() const { return static_cast<int>(c_.size() - 2 * bodies_); }

    bool operator==(const Coordinates&) const = default;  // every coordinate (tests compare lanes)

private:
    std::vector<double> c_;
    size_t bodies_ = 0;
};

// A lane's scratch array (a step's stages): laid out as Coordinates, and read only whole, through
// data(), so it keeps no body count (a lane has eighteen, and each copy and move of the count cost
// the page's motion module code at every caller).
class Scratch {
public:
    void resize(int bodies, int angular = 0) { c_.assign(2 * static_cast<size_t>(bodies) + static_cast<size_t>(angular), 0.0); }
    glm::dvec2* data() { return reinterpret_cast<glm::dvec2*>(c_.data()); }
    const glm::dvec2* data() const { return reinterpret_cast<const glm::dvec2*>(c_.data()); }

private:
    std::vector<double> c_;
};

static_assert(sizeof(glm::dvec2) == 2 * sizeof(double) && alignof(glm::dvec2) <= alignof(double),
              "a body's (x, y) is two adjacent doubles of the linear block");

}  // namespace stepwise
