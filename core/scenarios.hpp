// The table of scenarios: one row per system. A row says everything that varies between
// systems: its keys with their ranges and meanings, its presets, how it builds the System and
// the start state from validated values, which reference it has, and what its phase plot
// shows. The config parser, `stepwise list`, the CLI, the page and the tests read this table;
// nothing else switches on a scenario id. A scenario that composes existing forces is one row.
#pragma once
#include "parts.hpp"
#include "messages.hpp"
#include "scene_spec.hpp"
#include "system.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepwise {

struct ParamSpec {
    const char* key;
    int dims;          // 1: a number; 2: a vector written "x,y"
    double def[2];     // default
    double min, max;   // allowed range of each component
    bool min_exclusive;
    const char* unit;
    const char* label;    // short, for a form field
    const char* meaning;  // one line: what it does
};

struct ScenarioInfo;

// The validated values of one scenario's parameters, read by key. A key the row does not
// declare is a programming error, never a silent 0: num/vec throw std::logic_error (the
// scenario tests build every row, so such a mistake cannot ship).
class Params {
public:
    Params(const ScenarioInfo& info, const std::vector<double>& values, const SceneSpec& scene)
        : info_(info), values_(values), scene_(scene) {}
    double num(std::string_view key) const;
    dvec2 vec(std::string_view key) const;
    // The scene a built scene's row reads (ScenarioInfo::default_scene); empty for the others.
    const SceneSpec& scene() const { return scene_; }

private:
    size_t offset(std::string_view key, int dims) const;
    const ScenarioInfo& info_;
    const std::vector<double>& values_;
    const SceneSpec& scene_;
};

// What the phase plot shows: a pair (q, p) computed from a state.
enum class PhaseKind {
    axis_x,      // x of `body` against vx
    axis_y,      // y of `body` against vy
    radial,      // distance of `body` from `centre` against its rate (orbits, pendulum length)
    separation,  // distance between `body` and `other` against its rate (a spring's length)
    angle,       // the angle of `body` about `centre` from straight down (−y), unwrapped to (−π, π],
                 // against its rate (a pendulum's θ and θ')
};
struct PhaseSpec {
    PhaseKind kind = PhaseKind::axis_x;
    int body = 0;
    int other = 1;
    dvec2 centre{0.0, 0.0};
};
// (q, p) of the state x, v.
dvec2 phase_point(const PhaseSpec& spec, const dvec2* x, const dvec2* v);
struct PhaseNames {
    const char* q;
    const char* p;
    const char* unit_q;
    const char* unit_p;
};
PhaseNames phase_names(const PhaseSpec& spec);

// The plane the phase cloud's start disc lies in (core/cloud.hpp): how its copies leave the start.
enum class CloudPlane {
    body_x,    // (x, vx) of body 0, every other coordinate as at the start
    rotation,  // the first link's angle θ about `centre` (rad) and its rate (rad/s): every body turned
               // rigidly about the anchor by δθ, with δω about it added to every velocity, which keeps
               // every link's length and its rate (a disc in (x, vx) would pull the links apart)
    none,      // no cloud: `why` says why, and the config refuses cloud and view=cloud
};
struct CloudSpec {
    CloudPlane plane = CloudPlane::body_x;
    dvec2 centre{0.0, 0.0};
    const char* why = "";
};
// The cloud plane's coordinates, as its plots and exports name them: "x" in "m" against "vx" in
// "m/s" of body 0, or the first link's "θ₁" in "rad" against "dθ₁/dt" in "rad/s".
struct CloudPlaneNames {
    const char* q;
    const char* unit_q;
    const char* p;
    const char* unit_p;
    const char* of;  // whose coordinates: "body 0", "the first link"
};
CloudPlaneNames cloud_plane_names(CloudPlane plane);

// A built scenario: the forces, the start state and what the page needs to draw it.
struct Scene {
    System system;
    std::vector<dvec2> x0, v0;
    PhaseSpec phase;
    CloudSpec cloud;
    bool launch_line = false;       // draw y = 0 as a labelled reference line (a projectile's launch height)
    bool reference_path = false;    // draw the reference's whole path as a ghost (a closed orbit reads at once)
    double mechanism_size = 0.0;    // how big the mechanism is (anchors, springs, bodies); 0 for a lone body
    double length_scale = 1.0;      // a size of the motion over the duration, for the runaway check
};

struct PresetInfo {
    const char* id;
    const char* name;
    const char* description;
    const char* query;  // expanded before the link's own keys, which override it
};

// A problem that involves several keys at once (each key alone was in its range).
// code is a row of message_table() (core/messages.hpp); args its arguments besides key and got.
struct ParamProblem {
    std::string key, value, code;
    MessageArgs args;
};

struct ScenarioInfo {
    const char* id;
    const char* name;
    const char* description;
    std::vector<ParamSpec> params;
    std::vector<PresetInfo> presets;  // their queries hold no scenario key: the row gives it
    const char* reference;            // in words: which reference it has, and when
    const char* phase_plot;           // in words: what its phase plot shows
    void (*build)(const Params& p, Scene& scene);
    // Rules across keys, or nullptr. Returns the first broken rule.
    std::optional<ParamProblem> (*check)(const Params& p);
    // Those rules in words, for `stepwise list` and the page ("" when there are none).
    std::string rules = "";
    // A scenario built from a scene (core/scene_spec.hpp) reads the key `scene`, whose value is
    // this when the link gives none; nullptr for the others (which do not know the key).
    const char* default_scene = nullptr;
    // The parts of the core (core/parts.hpp) its systems need beyond bodies, springs and fields.
    unsigned parts = 0;
};

const std::vector<ScenarioInfo>& scenarios();
int find_scenario(std::string_view id);  // index, or -1

// Every row's presets, in table order, with `scenario=ID&` put in front of each query.
const std::vector<PresetInfo>& presets();
int find_preset(std::string_view id);  // index into presets(), or -1

// The row's build, then what every scene derives from its system: the mechanism's size and
// the length scale of the motion over `duration`. `scene` is read by a built scene's row alone.
Scene build_scene(int scenario, const std::vector<double>& values, const SceneSpec& scene, double duration);
// A row that reads no scene.
Scene build_scene(int scenario, const std::vector<double>& values, double duration);
// The default scene of a row that reads one (ScenarioInfo::default_scene), else empty.
const SceneSpec& default_scene_of(int scenario);

}  // namespace stepwise
