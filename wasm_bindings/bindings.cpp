// Embind declarations only: what JavaScript sees of the core. The adapters beside this file
// do the work (playground.hpp).
#include "playground.hpp"

#include <emscripten/bind.h>

using namespace emscripten;
using stepwise::web::Playground;

EMSCRIPTEN_BINDINGS(stepwise) {
    function("parse", &stepwise::web::parse);
    function("normalise", &stepwise::web::normalise_query);
    function("integrators", &stepwise::web::integrator_table);
    function("scenarios", &stepwise::web::scenario_table);
    function("presets", &stepwise::web::preset_table);
    function("limits", &stepwise::web::limits);
    function("exportRun", &stepwise::web::export_run);

    class_<Playground>("Simulation")
        .constructor<const std::string&>()
        .function("reset", &Playground::reset)
        .function("advanceSteps", &Playground::advance_steps)
        .function("advanceTime", &Playground::advance_time)
        .function("state", &Playground::state)
        .function("history", &Playground::history)
        .function("layout", &Playground::layout)
        .function("scene", &Playground::scene)
        .function("cloudPoints", &Playground::cloud_points)
        .function("config", &Playground::config)
        .function("errors", &Playground::errors)
        .function("dt", &Playground::dt)
        .function("time", &Playground::time)
        .function("lanes", &Playground::lanes)
        .function("bodies", &Playground::bodies)
        .function("laneIds", &Playground::lane_ids)
        .function("motionBounds", &Playground::motion_bounds);

    class_<stepwise::web::RunExport>("RunExport")
        .constructor<const std::string&, double, double, const std::string&>()
        .function("run", &stepwise::web::RunExport::run)
        .function("take", &stepwise::web::RunExport::take)
        .function("done", &stepwise::web::RunExport::done)
        .function("total", &stepwise::web::RunExport::total);
}
