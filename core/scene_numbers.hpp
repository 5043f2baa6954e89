// The numbers the scene grammar's table (scene_kinds.cpp) and its reading and building
// (scene_spec.cpp) share: the scenarios' bounds and the fields every kind with a mass, a
// compliance, a damper or a stiffness has.
#pragma once
#include "scene_spec.hpp"

#include <limits>

namespace stepwise::scene_numbers {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double big = 1e6;     // the scenarios' bound on magnitudes (core/scenarios.cpp)
constexpr double small = 1e-6;  // and on masses and stiffnesses
constexpr double pi = 3.14159265358979323846;
// Stiffness over mass at most 1e12 (ω <= 1e6 s⁻¹), as every scenario's springs and links.
constexpr double max_stiffness_over_mass = 1e12;

}  // namespace stepwise::scene_numbers
