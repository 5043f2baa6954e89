#include "layout.hpp"

#include "playground.hpp"

#include <algorithm>

namespace stepwise::web {

using emscripten::val;

const char* scope_name(Scope s) {
    switch (s) {
        case Scope::global: return "global";
        case Scope::lane: return "lane";
        case Scope::lane_body: return "lane_body";
        case Scope::body: return "body";
    }
    return "";
}

namespace {

double max_error(const Simulation& sim, int lane) {
    double worst = 0.0;
    for (int b = 0; b < sim.bodies(); ++b) worst = std::max(worst, sim.shown_error(lane, b));
    return worst;
}

// Header of the state array.
// With a game loop: the frame's time (the accumulator's render time) and the frames taken; the
// lanes' x, y, vx, vy, error and energy are then what a player sees (Simulation::shown_*).
const Series t_series = {"t", Scope::global, "s", "time",
                         [](const Playground& p, int, int) { return p.sim().shown_time(); }};
const Series steps_series = {"steps", Scope::global, "", "steps taken (frames, with a game loop)",
                             [](const Playground& p, int, int) { return static_cast<double>(p.sim().frames()); }};
const Series physics_steps = {"physics_steps", Scope::global, "", "physics steps taken",
                              [](const Playground& p, int, int) { return static_cast<double>(p.sim().steps()); }};
const Series loop_dropped_time = {
    "loop_dropped_time", Scope::global, "s", "game time the accumulator's cap dropped",
    [](const Playground& p, int, int) { return p.sim().frame_loop() ? p.sim().frame_loop()->dropped_time() : 0.0; }};
const Series loop_capped_frames = {"loop_capped_frames", Scope::global, "", "frames that hit the accumulator's cap",
                                   [](const Playground& p, int, int) {
                                       const FrameLoop* loop = p.sim().frame_loop();
                                       return loop ? static_cast<double>(loop->capped_frames()) : 0.0;
                                   }};
const Series history_count = {"history_count", Scope::global, "", "plot samples recorded",
                              [](const Playground& p, int, int) { return static_cast<double>(p.history_count()); }};
const Series history_generation = {
    "history_generation", Scope::global, "", "bumps when old samples are rewritten",
    [](const Playground& p, int, int) { return static_cast<double>(p.history_generation()); }};
const Series last_advance = {"last_advance", Scope::global, "", "steps taken by the last advance",
                             [](const Playground& p, int, int) { return static_cast<double>(p.last_advance()); }};
const Series reference_energy = {"reference_energy", Scope::global, "J", "energy of the reference",
                                 [](const Playground& p, int, int) { return p.sim().reference_energy(); }};
const Series reference_stopped = {
    "reference_stopped", Scope::global, "", "why it stopped: a code of stop_reasons (0 running)",
    [](const Playground& p, int, int) { return static_cast<double>(p.sim().reference_stop_reason()); }};
const Series reference_stopped_at = {"reference_stopped_at", Scope::global, "s", "time the reference stopped",
                                     [](const Playground& p, int, int) { return p.sim().reference_stopped_at(); }};
const Series reference_angular_momentum = {
    "reference_angular_momentum", Scope::global, "kg·m²/s", "angular momentum of the reference",
    [](const Playground& p, int, int) { return p.sim().reference_angular_momentum(); }};
const Series reference_phase_q = {"reference_phase_q", Scope::global, "", "",
                                  [](const Playground& p, int, int) { return p.sim().reference_phase().x; }};
const Series reference_phase_p = {"reference_phase_p", Scope::global, "", "",
                                  [](const Playground& p, int, int) { return p.sim().reference_phase().y; }};

// Each lane's bodies.
const Series x = {"x", Scope::lane_body, "m", "x", [](const Playground& p, int l, int b) { return p.sim().shown_x(l)[b].x; }};
const Series y = {"y", Scope::lane_body, "m", "y", [](const Playground& p, int l, int b) { return p.sim().shown_x(l)[b].y; }};
const Series vx = {"vx", Scope::lane_body, "m/s", "vx",
                   [](const Playground& p, int l, int b) { return p.sim().shown_v(l)[b].x; }};
const Series vy = {"vy", Scope::lane_body, "m/s", "vy",
                   [](const Playground& p, int l, int b) { return p.sim().shown_v(l)[b].y; }};
const Series error = {"error", Scope::lane_body, "m", "distance from the reference position",
                      [](const Playground& p, int l, int b) { return p.sim().shown_error(l, b); }};

// Each lane.
const Series energy = {"energy", Scope::lane, "J", "mechanical energy",
                       [](const Playground& p, int l, int) { return p.sim().shown_energy(l); }};
const Series energy_drift = {"energy_drift", Scope::lane, "",
                             "energy drift: (E − E_reference) ÷ the energy scale",
                             [](const Playground& p, int l, int) { return p.sim().energy_drift(l); }};
const Series stopped = {"stopped", Scope::lane, "", "why it stopped: a code of stop_reasons (0 running)",
                        [](const Playground& p, int l, int) { return static_cast<double>(p.sim().stop_reason(l)); }};
const Series stopped_at = {"stopped_at", Scope::lane, "s", "time the lane stopped",
                           [](const Playground& p, int l, int) { return p.sim().diverged(l) ? p.sim().diverged_at(l) : 0.0; }};
// The breakdown of the shown energy (the legend's and the plot's chosen lane): kinetic and
// potential, at the state the page shows (a game loop's blended state included).
const Series kinetic_energy_series = {"kinetic_energy", Scope::lane, "J", "kinetic energy",
                                      [](const Playground& p, int l, int) {
                                          return kinetic_energy(p.sim().scene().system, p.sim().shown_v(l));
                                      }};
const Series potential_energy_series = {"potential_energy", Scope::lane, "J", "potential energy",
                                        [](const Playground& p, int l, int) {
                                            return potential_energy(p.sim().scene().system, p.sim().shown_x(l));
                                        }};
const Series dissipated = {"dissipated", Scope::lane, "J", "energy removed by damping and drag",
                           [](const Playground& p, int l, int) { return p.sim().dissipated(l); }};
const Series max_error_series = {"max_error", Scope::lane, "m", "position error, worst body",
                                 [](const Playground& p, int l, int) { return max_error(p.sim(), l); }};
const Series angular_momentum = {"angular_momentum", Scope::lane, "kg·m²/s", "angular momentum",
                                 [](const Playground& p, int l, int) { return p.sim().angular_momentum(l); }};
const Series angular_momentum_drift = {
    "angular_momentum_drift", Scope::lane, "", "angular momentum drift: (L − L_reference) ÷ Σ m·|r₀|·|v₀|",
    [](const Playground& p, int l, int) { return p.sim().angular_momentum_drift(l); }};
const Series phase_q = {"phase_q", Scope::lane, "", "", [](const Playground& p, int l, int) { return p.sim().phase(l).x; }};
const Series phase_p = {"phase_p", Scope::lane, "", "", [](const Playground& p, int l, int) { return p.sim().phase(l).y; }};

// Linked systems (only there): each lane's constraint error (the largest |length − L|/L over the
// links: a rigid link's violation, a compliant link's physical stretch) and its first link's
// tension, and the reference's own beside them.
const Series constraint_error = {"constraint_error", Scope::lane, "", "constraint error: largest |length − L|/L",
                                 [](const Playground& p, int l, int) { return p.sim().constraint_error(l); }};
const Series tension = {"tension", Scope::lane, "N", "tension of the first link",
                        [](const Playground& p, int l, int) { return p.sim().tension(l); }};
const Series reference_constraint_error = {
    "reference_constraint_error", Scope::global, "", "the reference's constraint error",
    [](const Playground& p, int, int) { return p.sim().reference_constraint_error(); }};
const Series reference_tension = {"reference_tension", Scope::global, "N", "the reference's first link's tension",
                                  [](const Playground& p, int, int) { return p.sim().reference_tension(); }};

// Equal cost (Simulation::equal_cost): each lane's stride (0: it steps by its evaluation budget),
// its own time and steps (a lane may be behind the clock), the step it effectively takes, whether
// its state belongs to the clock's time, and its rk45 tolerance (fitted to the budget).
const Series stride = {"stride", Scope::lane, "", "clock ticks per step (0: by budget)",
                       [](const Playground& p, int l, int) { return static_cast<double>(p.sim().stride(l)); }};
const Series lane_time = {"lane_time", Scope::lane, "s", "the time the lane has reached",
                          [](const Playground& p, int l, int) { return p.sim().lane_time(l); }};
const Series lane_steps = {"lane_steps", Scope::lane, "", "steps the lane took",
                           [](const Playground& p, int l, int) { return static_cast<double>(p.sim().lane_steps(l)); }};
const Series effective_dt = {"effective_dt", Scope::lane, "s", "effective step: lane time ÷ lane steps",
                             [](const Playground& p, int l, int) { return p.sim().effective_dt(l); }};
const Series current = {"current", Scope::lane, "", "1 when the lane's state belongs to the clock's time",
                        [](const Playground& p, int l, int) { return p.sim().current(l) ? 1.0 : 0.0; }};
const Series rtol = {"rtol", Scope::lane, "", "rk45's tolerance (rtol = atol)",
                     [](const Playground& p, int l, int) { return p.sim().lane(l).rtol; }};

// The phase-space clouds (NaN where there are none, or once a cloud's rim is not finite).
const Series area_ratio = {"area_ratio", Scope::lane, "", "phase-space area ÷ its area at t = 0",
                           [](const Playground& p, int l, int) { return p.cloud_area_ratio(l); }};
const Series points_finite = {"points_finite", Scope::lane, "", "cloud points still finite",
                              [](const Playground& p, int l, int) { return p.cloud_points_finite(l); }};
const Series exact_area_ratio = {"exact_area_ratio", Scope::global, "", "the exact flow's area ratio",
                                 [](const Playground& p, int, int) { return p.exact_cloud_area_ratio(); }};

// The reference's bodies.
const Series reference_x = {"reference_x", Scope::body, "m", "reference x",
                            [](const Playground& p, int, int b) { return p.sim().reference_x()[b].x; }};
const Series reference_y = {"reference_y", Scope::body, "m", "reference y",
                            [](const Playground& p, int, int b) { return p.sim().reference_x()[b].y; }};
const Series reference_vx = {"reference_vx", Scope::body, "m/s", "reference vx",
                             [](const Playground& p, int, int b) { return p.sim().reference_v()[b].x; }};
const Series reference_vy = {"reference_vy", Scope::body, "m/s", "reference vy",
                             [](const Playground& p, int, int b) { return p.sim().reference_v()[b].y; }};

}  // namespace

std::vector<const Series*> state_series(const Simulation& sim) {
    std::vector<const Series*> list = {&t_series, &steps_series, &physics_steps, &loop_dropped_time, &loop_capped_frames, &history_count, &history_generation, &last_advance, &reference_energy,
            &reference_stopped, &reference_stopped_at, &reference_angular_momentum, &reference_phase_q,
            &reference_phase_p, &x, &y, &vx, &vy, &error, &energy, &energy_drift, &stopped, &stopped_at,
            &dissipated, &max_error_series, &angular_momentum, &angular_momentum_drift, &phase_q, &phase_p,
            &stride, &lane_time, &lane_steps, &effective_dt, &current, &rtol,
            &area_ratio, &points_finite, &exact_area_ratio, &reference_x, &reference_y, &reference_vx,
            &reference_vy};
    if (!sim.scene().system.links.empty())
        list.insert(list.end(), {&constraint_error, &tension, &reference_constraint_error, &reference_tension});
    return list;
}

std::vector<const Series*> history_series(const Playground& p) {
    const Simulation& sim = p.sim();
    std::vector<const Series*> list = {&t_series, &reference_phase_q, &reference_phase_p, &energy_drift,
                                       &max_error_series, &phase_q, &phase_p,
                                       &kinetic_energy_series, &potential_energy_series, &reference_energy};
    if (sim.conserves_angular_momentum()) list.push_back(&angular_momentum_drift);
    if (!sim.scene().system.links.empty())
        list.insert(list.end(), {&constraint_error, &tension, &reference_constraint_error, &reference_tension});
    if (sim.config().cloud > 0) {
        list.push_back(&area_ratio);
        if (sim.reference_kind() == ReferenceKind::exact) list.push_back(&exact_area_ratio);
    }
    list.push_back(&reference_x);  // the reference's path: the orbit's ghost
    list.push_back(&reference_y);
    return list;
}

val Layout::describe(const Simulation& sim) const {
    const PhaseNames names = phase_names(sim.scene().phase);
    val out = LayoutOf<Playground>::describe();
    val fields = out["fields"];
    struct Phase {
        const char* name;
        bool q;
    };
    for (const Phase& phase : {Phase{"phase_q", true}, Phase{"reference_phase_q", true}, Phase{"phase_p", false},
                               Phase{"reference_phase_p", false}}) {
        if (!fields.hasOwnProperty(phase.name)) continue;
        const bool q = phase.q;
        val f = fields[phase.name];
        f.set("label", std::string(q ? names.q : names.p));
        f.set("unit", std::string(q ? names.unit_q : names.unit_p));
    }
    return out;
}

}  // namespace stepwise::web
