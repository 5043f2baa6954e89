// libFuzzer target: the Simulation (core/simulation.hpp) and its rows (core/rows.hpp) on every
// input that parses as a config, and on the valid parts of every other input (the config the
// parser keeps, as the page runs it). Each config runs with all of the integrators, whatever
// its `integrators` key says, for at most max_steps_per_input steps, fewer when its duration
// ends sooner or when its lanes and the reference have done max_work_per_input units of work
// (core/work.hpp: force evaluations weighed by the system's bodies and force terms, solver row
// visits, implicit Euler's solves; a stiff config may cost up to 12,000 evaluations a step in an
// rk45 lane and as many in the reference), so every input is bounded; libFuzzer's
// -timeout (scripts/fuzz.sh) catches any work beyond that, such as a reference that never
// finishes a step. dt and duration come from the input as the parser accepts them, from dt_min
// (the dictionary holds every range's ends). At t = 0 and after every step:
//  - every lane's state, energy, dissipated energy, angular momentum (and its drift), phase
//    point, stop time, own time and effective dt are finite, and so are its error per body and
//    energy drift while the reference runs (once it stopped they are unknown, and not reported);
//    with links, its constraint error and tension too;
//  - so are the reference's state, energy, angular momentum, phase point and stop time (with
//    links: constraint error and tension);
//  - each lane's step, and the reference's, spent no more force evaluations than docs/cli.md's
//    bound per step;
//  - the CSV rows (core/rows) have nine fields, a known integrator and finite numbers (the error
//    empty, and only empty, once the reference stopped).
// The rows print what those accessors return, and formatting and re-reading them costs far more
// than the steps, so rows are written at t = 0, at the last step, and at every step where a lane
// or the reference stopped (where non-finite values would come from). At the end the JSON
// document of the run (head, those rows, tail) must parse with a strict reader (tests/json.hpp:
// no NaN, no Infinity) and hold every row written and every lane.
// No sanitizer (ASan, UBSan) may report anything, and nothing may throw.
#include "checks.hpp"
#include "rows.hpp"
#include "simulation.hpp"
#include "work.hpp"

#include "../tests/json.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using namespace stepwise;
using fuzz_checks::fail;
using fuzz_checks::finite_number_text;

namespace {

constexpr long long max_steps_per_input = 200;
// About 0.1 s under the sanitizers (the cloth seeds), plus the step that crossed it. Force evaluations alone,
// 1,000,000 of them, let the cloth's seeds run 30 s: an evaluation there is 62 bodies and their
// links, and a step of a solver lane hundreds of row visits.
constexpr long long max_work_per_input = 250000;

struct Checker {
    std::string_view input;
    const Simulation& sim;

    void finite(double value, const char* what, int lane = -1) const {
        if (std::isfinite(value)) return;
        std::string where = lane >= 0 ? std::string(" of lane ") + sim.info(lane).id : std::string(" of the reference");
        fail(std::string("non-finite ") + what + where + " at step " + std::to_string(sim.steps()) + ": " +
                 std::to_string(value) + " (" + normalise(sim.config()) + ")",
             input);
    }
    void finite(dvec2 value, const char* what, int lane = -1) const {
        finite(value.x, what, lane);
        finite(value.y, what, lane);
    }

    // The work of one step, in force evaluations, against the bound docs/cli.md states: rk45 at
    // most rk45_max_substeps substeps of 6 evaluations (plus the first step's initial slope),
    // implicit Euler at most implicit_euler_max_iterations Newton iterations of one evaluation,
    // every other method its table's count (plus the initial acceleration a stateful method
    // evaluates on its first step).
    // The reference (rk45 where there is no closed form) is bound as an rk45 lane is, twice over
    // with the tolerance study of a linked system.
    // A frame (Simulation::frame, a game loop's frame or one step without a loop) takes `steps`
    // steps, each within that bound; the accumulator's frame at most max_steps of them.
    void work(const std::vector<long long>& before, long long reference_before, long long steps) const {
        const LoopSettings& loop = sim.config().loop;
        const long long most_steps = loop.kind == LoopKind::accumulator ? static_cast<long long>(loop.max_steps)
                                     : loop.kind == LoopKind::fixed     ? static_cast<long long>(loop.substeps)
                                                                        : 1;
        if (steps > most_steps)
            fail("frame " + std::to_string(sim.frames()) + " took " + std::to_string(steps) + " steps, more than " +
                     std::to_string(most_steps) + " (" + normalise(sim.config()) + ")",
                 input);
        const long long reference_spent = sim.reference_force_evaluations() - reference_before;
        const long long references = sim.has_tolerance_study() ? 2 : 1;  // the study's second reference
        if (reference_spent > references * steps * (6LL * rk45_max_substeps + 1))
            fail("the reference spent " + std::to_string(reference_spent) + " force evaluations on step " +
                     std::to_string(sim.steps()) + " (" + normalise(sim.config()) + ")",
                 input);
        for (int l = 0; l < sim.lanes(); ++l) {
            const IntegratorInfo& info = sim.info(l);
            const LaneSpec& lane = sim.config().integrators[static_cast<size_t>(l)];
            const long long spent = sim.lane(l).force_evaluations - before[static_cast<size_t>(l)];
            // A step is the lane's substeps, each at most its method's evaluations with the lane's
            // iterations (lane_evaluations); a stateful method's start is one more, once.
            const long long bound = info.adaptive   ? 6LL * rk45_max_substeps + 1
                                    : info.implicit ? static_cast<long long>(lane.substeps) * implicit_euler_max_iterations
                                                    : lane_evaluations(lane) + (info.stateful ? 1 : 0);
            if (spent > steps * bound)
                fail("lane " + lane_id(lane) + " spent " + std::to_string(spent) + " force evaluations on step " +
                         std::to_string(sim.steps()) + ", more than its bound of " + std::to_string(steps * bound) +
                         " (" + std::to_string(steps) + " steps of " + std::to_string(bound) + "; " +
                         normalise(sim.config()) + ")",
                     input);
        }
    }

    void accessors() const {
        for (int l = 0; l < sim.lanes(); ++l) {
            for (int b = 0; b < sim.bodies(); ++b) {
                finite(sim.lane(l).x[b], "position", l);
                finite(sim.lane(l).v[b], "velocity", l);
                // Once the reference has stopped, errors and drifts are unknown: the rows leave
                // them empty (JSON null) and nothing reads them.
                if (sim.error_known()) finite(sim.error(l, b), "error", l);
            }
            finite(sim.energy(l), "energy", l);
            if (sim.error_known()) finite(sim.energy_drift(l), "energy drift", l);
            finite(sim.dissipated(l), "dissipated energy", l);
            finite(sim.angular_momentum(l), "angular momentum", l);
            finite(sim.angular_momentum_drift(l), "angular momentum drift", l);
            finite(sim.phase(l), "phase point", l);
            finite(sim.diverged_at(l), "stop time", l);
            finite(sim.lane_time(l), "lane time", l);
            finite(sim.effective_dt(l), "effective dt", l);
            finite(sim.lane(l).rtol, "rtol", l);
            if (linked()) {
                finite(sim.constraint_error(l), "constraint error", l);
                finite(sim.tension(l), "tension", l);
            }
        }
        for (int b = 0; b < sim.bodies(); ++b) {
            finite(sim.reference_x()[b], "position");
            finite(sim.reference_v()[b], "velocity");
        }
        finite(sim.reference_energy(), "energy");
        finite(sim.reference_angular_momentum(), "angular momentum");
        finite(sim.reference_phase(), "phase point");
        finite(sim.reference_stopped_at(), "stop time");
        if (linked()) {
            finite(sim.reference_constraint_error(), "constraint error");
            finite(sim.reference_tension(), "tension");
        }
    }
    // The rows and the summary print a linked system's constraint error and tension.
    bool linked() const { return !sim.scene().system.links.empty(); }

    // The CSV rows of the current step: t,integrator,body,x,y,vx,vy,energy,error.
    void csv_rows() const {
        std::string csv;
        append_csv_rows(csv, sim);
        size_t start = 0;
        while (start < csv.size()) {
            const size_t end = csv.find('\n', start);
            if (end == std::string::npos) fail("a CSV row without its newline: " + csv.substr(start), input);
            const std::string_view row(csv.data() + start, end - start);
            start = end + 1;
            std::string_view fields[9];
            size_t count = 0, from = 0;
            while (true) {
                const size_t comma = row.find(',', from);
                if (count < 9) fields[count] = row.substr(from, comma == std::string_view::npos ? row.npos : comma - from);
                ++count;
                if (comma == std::string_view::npos) break;
                from = comma + 1;
            }
            if (count != 9) fail("a CSV row without nine fields: " + std::string(row), input);
            const bool reference_row = sim.config().reference && fields[1] == reference_id;
            // A lane's row names its lane id (its method, or METHOD@S / METHOD@SxI with settings).
            bool known_lane = false;
            for (int l = 0; l < sim.lanes() && !known_lane; ++l) known_lane = fields[1] == sim.id(l);
            if (!known_lane && !reference_row)
                fail("a CSV row with an unknown integrator: " + std::string(row), input);
            if (reference_row && sim.error_known() && fields[8] != "0")
                fail("a reference row whose error is not 0: " + std::string(row), input);
            for (size_t k : {0, 2, 3, 4, 5, 6, 7})
                if (!finite_number_text(fields[k])) fail("a CSV row with a non-finite number: " + std::string(row), input);
            // The error is empty once the reference has stopped (nothing to measure against), and
            // only then.
            if (sim.error_known() ? !finite_number_text(fields[8]) : !fields[8].empty())
                fail("a CSV row whose error is neither a finite number nor empty after the reference stopped: " +
                         std::string(row), input);
        }
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    // What the parser keeps of any input is a valid config (the parser target checks that): the
    // page runs a link's valid parts too. So every input runs; one that parses cleanly runs as is.
    Config config = parse_config(input).config;
    // Every method once, then the input's lanes with settings (at most three, their substeps and
    // iterations cut to 8 each to keep an input's work small).
    std::vector<LaneSpec> with_settings;
    for (LaneSpec lane : config.integrators)
        if ((lane.substeps != 1 || lane.iterations != 0) && with_settings.size() < 3 && !config.equal_cost) {
            lane.substeps = std::min(lane.substeps, 8);
            lane.iterations = std::min(lane.iterations, 8);
            if (lane.substeps != 1 || lane.iterations != 0) with_settings.push_back(lane);
        }
    config.integrators.clear();
    for (int i = 0; i < static_cast<int>(integrators().size()); ++i) config.integrators.push_back(i);
    for (const LaneSpec& lane : with_settings)
        if (std::find(config.integrators.begin(), config.integrators.end(), lane) == config.integrators.end())
            config.integrators.push_back(lane);
    // duration / dt is at most max_steps (1e7): the rounding cannot overflow.
    const long long steps = std::clamp(std::llround(config.duration / config.dt), 1LL, max_steps_per_input);

    Simulation sim(config);
    const Checker check{input, sim};
    const SimulationWork work(sim);
    std::string json_rows;
    bool first = true;
    long long rows = 0;
    int stopped = -1;  // lanes and reference stopped so far; -1 writes the rows of t = 0
    std::vector<long long> evaluations(static_cast<size_t>(sim.lanes()));
    for (long long n = 0; n <= steps; ++n) {
        if (n > 0) {
            for (int l = 0; l < sim.lanes(); ++l) evaluations[static_cast<size_t>(l)] = sim.lane(l).force_evaluations;
            const long long reference_before = sim.reference_force_evaluations();
            const long long steps_before = sim.steps();
            sim.frame();  // a game loop's frame when the config has one, else one step
            check.work(evaluations, reference_before, sim.steps() - steps_before);  // brings the reference up
        }
        const bool last = n == steps || work() >= max_work_per_input;
        check.accessors();
        int now = sim.reference_stopped() ? 1 : 0;
        for (int l = 0; l < sim.lanes(); ++l) now += sim.diverged(l) ? 1 : 0;
        if (now != stopped || last) {
            stopped = now;
            check.csv_rows();
            rows += append_json_rows(json_rows, sim, first);
        }
        if (last) break;
    }
    std::string json;
    append_json_head(json, sim, sim.steps());
    json += json_rows;
    append_json_tail(json, sim);

    const auto doc = testing_helpers::parse_json(json);
    if (!doc) {
        // Show where: the first non-finite number if there is one, else the end (the summary).
        size_t at = std::min(json.find("nan"), json.find("inf"));
        if (at == std::string::npos) at = json.size();
        const size_t from = at > 600 ? at - 600 : 0;
        fail("the run's JSON is not strict JSON; near: ..." + json.substr(from, 800), input);
    }
    if (!doc->has("rows") || static_cast<long long>((*doc)["rows"].items.size()) != rows)
        fail("the run's JSON lost rows", input);
    if (!doc->has("integrators") || (*doc)["integrators"].items.size() != static_cast<size_t>(sim.lanes()))
        fail("the run's JSON lost lanes", input);
    return 0;
}
