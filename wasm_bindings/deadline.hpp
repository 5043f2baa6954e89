// A wall-clock budget for one call from the page. The page's work runs on the browser's main
// thread, where a task over 50 ms is a "long task" (a frozen tab, dropped frames): loops that
// advance a simulation, a study or a probe check a Deadline between whole units of work (one
// step, one row) and return once it has passed, so a call lasts its budget plus one unit at
// most, and the core bounds a unit (core/integrators.hpp caps an adaptive step's substeps).
#pragma once
#include <emscripten/emscripten.h>

#include <algorithm>

namespace stepwise::web {

class Deadline {
public:
    // A budget that is not a number counts as none left: one unit of work, then stop.
    explicit Deadline(double budget_ms) : end_(emscripten_get_now() + (budget_ms > 0.0 ? budget_ms : 0.0)) {}
    bool passed() const { return emscripten_get_now() >= end_; }
    double left_ms() const { return end_ - emscripten_get_now(); }

private:
    double end_;
};

}  // namespace stepwise::web
