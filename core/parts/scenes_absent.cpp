// The stand-in for the part `scenes` (core/parts.hpp) in a build without it: the same functions,
// never called, since the parser lets no built scene through in such a build
// (ParseResult::missing_parts). The grammar's table (scene_kinds.cpp) is in every build.
#include "parts.hpp"
#include "scene_spec.hpp"

namespace stepwise {

bool carries_scenes() { return false; }

std::optional<SceneSpec> parse_scene(std::string_view, SceneProblem& problem) {
    problem = {"scene_empty", {}};
    return std::nullopt;
}
std::string scene_text(const SceneSpec&) { return {}; }
void build_scene_items(const SceneSpec&, System&, SceneLayout&) {}
SceneSpec explicit_scene(const SceneSpec& scene) { return scene; }

}  // namespace stepwise
