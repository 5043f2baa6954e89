// The one configuration format: a URL query such as
//   v=1&scenario=spring&integrators=explicit_euler,rk4&dt=0.01&m=1&k=15&x0=1000,0
// shared by the CLI, the page's address hash and share links. Parse, validate, normalise.
#pragma once
#include "frame_loop.hpp"
#include "messages.hpp"
#include "parts.hpp"
#include "number_text.hpp"
#include "scenarios.hpp"

#include <glm/ext/vector_double2.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepwise {

// The keys every scenario shares, with their ranges.
constexpr int config_version = 1;
// dt and duration from 1e-9 s: a smaller one is a typo (5e-324), not a time step. The solvers
// divide by h² (XPBD's α/h², VBD's m/h², a tension λ/h²): at the smallest substep, 1e-9 s over
// max_lane_substeps = 1e-12 s (and 2^-12 of that at a convergence study's finest level), h² is
// at least 6e-32 and any range's parameter over it (masses and compliances up to 1e6) at most
// about 1e37, far inside the double range, where a dt of 1e-160 made h² underflow and printed a
// NaN tension. The smallest dt a preset, test or document uses is
// 1e-7 s. Their ratio is bounded by max_steps.
constexpr double dt_min = 1e-9;
constexpr double dt_max = 10.0;
constexpr double duration_min = 1e-9;
constexpr double duration_max = 100000.0;
constexpr double max_steps = 1e7;       // duration / dt
constexpr std::size_t max_pairs = 64;   // key=value pairs in one query
constexpr std::size_t max_value_length = 1024;
constexpr std::size_t max_errors = 20;
// The keys every scenario accepts, besides its own parameters (in the order errors list them),
// each with its group: "link" (v), "system" (scenario, preset), "run" (integrators, dt, duration),
// "study" (cloud, cloud_radius, equal_cost, view: how the systems are compared), "loop" (loop and
// its keys), "force" (fx, fy, c1..c4: the written force law) and "page" (lang). A study's and the
// page's keys hold for any system: the page keeps them when the system or the preset changes. The
// force's keys are part of the system (a Duffing spring's constants are tuned to its spring, an
// x^3 force means nothing beside an orbit's scale), so they go with it: not kept.
struct SharedKey {
    const char* key;
    const char* group;
    // In words, for `stepwise list` and the reference.
    const char* meaning = "";
    // What it allows, as the arguments its error gives (messages.hpp allowed_text says them in
    // words); empty where another part says it: the lanes (integrators, their own grammar), the
    // systems (scenario, preset), the loop's keys (loop_keys()) and the written force's.
    MessageArgs allowed = {};
};
const std::vector<SharedKey>& shared_keys();
// The row of shared_keys() for `key` (one of them).
const SharedKey& shared_key(std::string_view key);
// The lanes of a link that names no integrators, on a system without rigid links.
extern const char* const default_integrators;
// The name of the reference in an integrator list (integrators=rk4,reference).
constexpr const char* reference_id = "reference";
extern const char* const default_scenario;
constexpr double default_dt = 0.01;
// The phase-space cloud (core/cloud.hpp): points per integrator (0: off) and the radius of the
// start disc in the scene's cloud plane (Scene::cloud): the (x, vx) plane of body 0 (metres along
// x, metres per second along vx), or a pendulum's or chain's first link (θ, dθ/dt) (rad, rad/s).
constexpr int max_cloud_points = 1000000;  // the page allows fewer (it says so)
constexpr double default_cloud_radius = 0.1;
// At least 1e-6: the disc's area (~radius²) stays far inside the double range and its rim still
// moves a start position of up to 1e6 by ~1e4 of its last bit (a radius of 1e-300 had an area
// of 0, and every area ratio divided by it).
constexpr double min_cloud_radius = 1e-6;
constexpr double max_cloud_radius = 1e6;
constexpr double default_duration = 10.0;
// The written force's constants c1..c4 (keys of their own): numbers within ±written_constant_max.
constexpr double written_constant_max = 1e6;
constexpr int written_constants = 4;

// What the page shows, by link (`view=`): a row each, so a new view is a row here and a module
// in web/views/. The first row is the default.
struct ViewInfo {
    const char* id;
    const char* name;
    const char* description;
};
const std::vector<ViewInfo>& views();
int find_view(std::string_view id);  // index in views(), or -1

// The page's language, by link (`lang=`): a row each, so a new language is a row here and a
// table file in web/strings/. The numbers never depend on it (the CLI reads and ignores it).
struct LanguageInfo {
    const char* id;
    const char* name;  // in the language itself, as a language menu shows it
};
const std::vector<LanguageInfo>& languages();
int find_language(std::string_view id);  // index in languages(), or -1

// One lane of a run: a method (an index into integrators()) and how it steps. Each step of dt is
// `substeps` calls of the method's step over dt/substeps, and a game-physics solver makes
// `iterations` passes over its constraints in each (0: its default_iterations). Written `id`,
// `id@S` or `id@SxI` (lane_id), the default parts left out, so equal lanes are written alike.
struct LaneSpec {
    int integrator = 0;
    int substeps = 1;
    int iterations = 0;
    LaneSpec() = default;
    LaneSpec(int integrator_) : integrator(integrator_) {}  // implicit: a list of methods reads {i, j}
    bool operator==(const LaneSpec&) const = default;
};
// A lane's settings' bounds: the work of one step of dt, substeps × iterations passes, is at most
// max_lane_passes (a 64-link chain at that many passes is a few milliseconds a step in the page).
constexpr int max_lane_substeps = 1000;
constexpr int max_lane_iterations = 1000;
constexpr int max_lane_passes = 10000;
// At most as many lanes as the core has methods: every method once (or any of them at several
// settings), read from the table so that a new method raises it.
int max_lanes();
// "xpbd@20x1", "semi_implicit_euler@20", "rk4": the lane's id in links, the CLI, JSON and the page.
std::string lane_id(const LaneSpec& lane);
// One lane written as the integrators key writes it (METHOD, METHOD@S, METHOD@SxI), normalised as
// that key normalises it (xpbd@1000x10 is xpbd@1000: 10 is XPBD's default iterations); nothing
// when the key would refuse it.
std::optional<LaneSpec> parse_lane_id(std::string_view text);
// The iterations a substep of the lane makes (its own, or its method's default; 0: none).
int lane_iterations(const LaneSpec& lane);
// What one step of the lane costs against one step of its method alone: substeps × iterations
// (iterations counted 1 for a method without them). What the analyses weigh a lane's step by.
int lane_passes(const LaneSpec& lane);
// Whether a lane of the integrator (an index into integrators()) can step the system: a method
// that integrates forces cannot step a rigid link (a rod has no force law; the lane stops before
// its first step with needs_compliance), a game-physics solver steps it as a constraint
// (IntegratorInfo::solves_constraints). A system with a body that turns (layout.hpp) only the
// methods that step every layout's coordinates (steps_every_layout). Every other system every
// method steps.
bool method_steps(int integrator, const System& s);
// The lanes of a link that names no integrators: default_integrators, or on a system with rigid
// links, which those cannot step, every method that can (method_steps: the game-physics solvers,
// in the table's order). The CLI, a shared link and the page's menus all get them from here.
std::vector<LaneSpec> default_lanes(const System& s);
// The force evaluations of one step of the lane: its method's per step (IntegratorInfo, at the
// method's default iterations), times its substeps, the iterations it changes counted in.
int lane_evaluations(const LaneSpec& lane);

struct Config {
    int scenario = 0;                   // index into scenarios()
    std::vector<LaneSpec> integrators;  // the lanes, in the order given
    // `reference` in the integrator list: the reference's own rows are printed after the lanes'
    // (integrator "reference", error 0). A system with rigid links and no integrators given runs
    // the methods that step rods (default_lanes).
    bool reference = false;
    double dt = default_dt;
    double duration = default_duration;
    std::vector<double> values;     // the scenario's params, flattened in spec order
    SceneSpec scene;                // a built scene's items (ScenarioInfo::default_scene); empty for the others
    int cloud = 0;                  // phase-space cloud: points per integrator, 0 = off
    double cloud_radius = default_cloud_radius;
    int view = 0;                   // index into views()
    // Index into languages(), or -1 when the link names none: the page then follows the
    // browser's language, and normalise writes no lang (a link without it is not forced to one).
    int lang = -1;
    // Every lane gets the same force evaluations per simulated second: a method with s
    // evaluations a step steps at s dt (see Simulation).
    bool equal_cost = false;
    // PBD's stiffness factor s in [0, 1] (Müller et al. 2007): each of a step's n iterations moves
    // a constraint 1 − (1 − s)^(1/n) of the way. It acts on pbd lanes only.
    double pbd_stiffness = 1.0;
    // The game loop (core/frame_loop.hpp): none unless the link has loop=. With a loop, dt is
    // the loop's physics step (loop_step), and the link may not give dt itself.
    LoopSettings loop;
    // The written force (core/forces/written_force.hpp): fx and fy in their canonical text
    // (Expression::text()), "" when the link leaves one out (0); the constants c1..c4 (0 unless
    // given; the parser accepts a constant only when fx or fy reads it, and needs every one they read).
    std::string fx, fy;
    double c[written_constants] = {0.0, 0.0, 0.0, 0.0};
    bool written() const { return !fx.empty() || !fy.empty(); }

    // A parameter of this config's scenario by key; a key its row does not declare throws
    // std::logic_error (see Params).
    double get(std::string_view key) const;
    glm::dvec2 get_vec(std::string_view key) const;
    // Every field compared: a field added is compared with no line here.
    bool operator==(const Config& o) const = default;
};

struct ConfigError {
    std::string key;      // the key concerned (may be empty for a malformed pair)
    std::string value;    // the offending text, shortened and made printable
    std::string message;  // names the key, the value and what is allowed (English: message_text)
    std::string code;     // a row of message_table() (core/messages.hpp)
    MessageArgs args;     // its arguments: key and got always, the row's others
};

struct ParseResult {
    Config config;  // the valid parts; invalid values keep their defaults
    std::vector<ConfigError> errors;
    // The link names lanes and none of them can step its system (method_steps: force-based lanes
    // on rigid links). Such lanes are kept as written; a page that carried them over from another
    // system (its System menu, a rod added in its editor) leaves them out for default_lanes.
    bool no_lane_steps = false;
    // The parts of the core (core/parts.hpp) the link needs and this build lacks, or 0; its
    // simulation cannot be made here (a page makes it in a module that carries them). With one
    // of parts_the_parser_runs among them the link was read no further: no errors, and the
    // default scenario's config (unread()).
    unsigned missing_parts = 0;
    bool unread() const { return (missing_parts & parts_the_parser_runs) != 0; }
    bool ok() const { return errors.empty(); }
};

// Accepts an optional leading '?' or '#'. Never throws; every problem becomes an error.
ParseResult parse_config(std::string_view query);
// The canonical query: every key, in a fixed order, numbers in their shortest exact form. The
// written force (fx, fy, then the constants they read) follows the scenario's parameters (and
// scene), and only when the link gives fx or fy (older links keep their exact text). The
// cloud keys, then equal_cost, then view, then the loop's keys come last, and only when they
// differ from their defaults (links made before they existed keep their exact text). With a
// loop, dt is not written (the loop sets it) and the loop writes every key its kind reads.
// lang is last, and only when the link gave it (a shared German link stays German).
std::string normalise(const Config& c);
// The config's written force (fx, fy, c1..c4) in the scene's system, when the config has one
// (build_scene(Config)), with its potential decided from the scene's start (written_force.hpp).
void add_written_force(const Config& c, Scene& scene);
// The defaults of a scenario (no integrator validation needed).
Config default_config(int scenario);
// What a piece of input looks like in a message: at most max_chars characters, cut between
// characters, control characters as '?' and bytes that are not UTF-8 as U+FFFD, then "…" when
// something was cut. Always valid UTF-8, whatever the input.
std::string printable_text(std::string_view text, std::size_t max_chars = 60);

}  // namespace stepwise
