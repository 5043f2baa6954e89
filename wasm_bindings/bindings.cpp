// Embind declarations only: what JavaScript sees of the core. The adapters beside this file
// do the work (playground.hpp). Two modules are built from this file (wasm_bindings/
// CMakeLists.txt): the motion module (STEPWISE_PAGE_MOTION) declares what the page needs up to
// its first frame and for the motion view; the full module declares everything, the analysis
// views and the export too.
#include "playground.hpp"
#ifndef STEPWISE_PAGE_MOTION
#include "analysis.hpp"
#include "scene_editing.hpp"
#endif

#include <emscripten/bind.h>

using namespace emscripten;
using stepwise::web::Playground;

EMSCRIPTEN_BINDINGS(stepwise) {
    function("parse", &stepwise::web::parse);
    function("normalise", &stepwise::web::normalise_query);
    function("tables", &stepwise::web::tables);
    function("carriedParts", &stepwise::web::carried_parts_list);

    class_<Playground>("Simulation")
        .constructor<const std::string&>()
        .function("reset", &Playground::reset)
        .function("advanceSteps", &Playground::advance_steps)
        .function("advanceWithin", &Playground::advance_within)
        .function("lastWork", &Playground::last_work)
        .function("mostWork", &Playground::most_work)
        .function("evaluationSize", &Playground::evaluation_size)
        .function("prepare", &Playground::prepare)
        .function("cloudsReady", &Playground::clouds_ready)
        .function("needsFullModule", &Playground::needs_full_module)
        .function("missingParts", &Playground::missing_parts)
        .function("advanceTime", &Playground::advance_time)
        .function("state", &Playground::state)
        .function("history", &Playground::history)
        .function("layout", &Playground::layout)
        .function("scene", &Playground::scene)
        .function("cloudPoints", &Playground::cloud_points)
        .function("config", &Playground::config)
        .function("errors", &Playground::errors)
        .function("dt", &Playground::dt)
        .function("loop", &Playground::loop)
        .function("time", &Playground::time)
        .function("lanes", &Playground::lanes)
        .function("bodies", &Playground::bodies)
        .function("laneIds", &Playground::lane_ids)
        .function("growBounds", &Playground::grow_bounds)
        .function("stiffestMode", &Playground::stiffest_mode)
        .function("traceStart", &Playground::trace_start)
        .function("traceRun", &Playground::trace_run)
        .function("traceStages", &Playground::trace_stages)
        .function("traceCsv", &Playground::trace_csv)
        .function("traceEnd", &Playground::trace_end);
}

#ifndef STEPWISE_PAGE_MOTION
EMSCRIPTEN_BINDINGS(stepwise_full) {
    function("exportRun", &stepwise::web::export_run);
    function("stabilityLimit", &stepwise::web::stability_limit);
    function("laneStability", &stepwise::web::lane_stability_of);
    function("sceneModel", &stepwise::web::scene_model);
    function("sceneText", &stepwise::web::scene_text_of);

    class_<stepwise::web::Convergence>("Convergence")
        .constructor<const std::string&, int, double, const std::string&>()
        .function("advance", &stepwise::web::Convergence::advance)
        .function("finished", &stepwise::web::Convergence::finished)
        .function("progress", &stepwise::web::Convergence::progress)
        .function("results", &stepwise::web::Convergence::results)
        .function("layout", &stepwise::web::Convergence::layout)
        .function("integratorIds", &stepwise::web::Convergence::integrator_ids);

    class_<stepwise::web::StabilityGrid>("StabilityGrid")
        .constructor<const std::string&, int, int, double, double, double>()
        .function("fill", &stepwise::web::StabilityGrid::fill)
        .function("rowsDone", &stepwise::web::StabilityGrid::rows_done)
        .function("radii", &stepwise::web::StabilityGrid::radii);

    class_<stepwise::web::RunExport>("RunExport")
        .constructor<const std::string&, double, double, const std::string&>()
        .function("run", &stepwise::web::RunExport::run)
        .function("take", &stepwise::web::RunExport::take)
        .function("done", &stepwise::web::RunExport::done)
        .function("total", &stepwise::web::RunExport::total);
}
#endif
