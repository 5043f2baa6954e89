// The parts of the core a build may leave out. Each family of systems beyond bodies on springs
// and fields is a part:
//   links    rigid and compliant links with their constrained reference and projection
//            (forces/link.cpp, forces/link_order.cpp) and the game-physics solvers (solvers.cpp),
//            which exist to step them: the pendulum, the chain, the bridge;
//   scenes   the scene grammar, its layout and building (scene_spec.cpp): the built scene;
//   written  force laws a link writes (expression.cpp, forces/written_force.cpp): fx, fy;
//   turning  bodies that turn (turning.cpp, layout.hpp): the angular block's torques, energies
//            and kinds of system. No link makes a turning body yet, so no motion variant carries
//            it and the parser asks for it nowhere; the native builds and the full module do.
// A part is its own sources, or, in a build without it, its stand-in (core/parts/*_absent.cpp),
// which defines the same functions and says the part is absent; the linker then drops the part's
// code. The native builds carry every part. The page's motion module is built once per row of
// wasm_bindings/CMakeLists.txt's variants, each with the parts its family needs, so the code of a
// family reaches a page's first frame only when its link asks for that family (issue 32).
//
// The parser (core/config.cpp) reads which parts a link needs before it reads anything that runs
// a part's code, and says which this build lacks (ParseResult::missing_parts); the page makes the
// link in a module that carries them. Reading a scene or a written law runs their parts' code, so
// without one of those the parser reads no further; without the links it reads the whole link
// (its keys and checks need none of their code) and only the simulation cannot be made. No
// stand-in is ever called for a link the parser let through.
#pragma once

namespace stepwise {

enum Part : unsigned {
    part_links = 1u << 0,
    part_scenes = 1u << 1,
    part_written = 1u << 2,
    part_turning = 1u << 3,
};
// The parts whose code reading a link runs (a scene's grammar, a written law's compiler).
constexpr unsigned parts_the_parser_runs = part_scenes | part_written;

struct PartInfo {
    Part part;
    const char* id;  // as the page and the size report name it
};
inline constexpr PartInfo part_table[] = {
    {part_links, "links"},
    {part_scenes, "scenes"},
    {part_written, "written"},
    {part_turning, "turning"},
};

// Each defined by the part's own sources (true) or by its stand-in (false).
bool carries_links();
bool carries_scenes();
bool carries_written();
bool carries_turning();
inline unsigned carried_parts() {
    return (carries_links() ? part_links : 0u) | (carries_scenes() ? part_scenes : 0u) |
           (carries_written() ? part_written : 0u) | (carries_turning() ? part_turning : 0u);
}

}  // namespace stepwise
