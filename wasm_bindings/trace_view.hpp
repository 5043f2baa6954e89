// The stage X-ray for the page: one integrator's traced step (core/trace.hpp) as one flat array of
// doubles described by name, in the state's scheme (layout.hpp: a "lane" of this layout is a
// stage, a "body" a body), with the stages' labels and the table's text beside it.
#pragma once
#include "layout.hpp"
#include "trace.hpp"

#include <emscripten/val.h>


namespace stepwise::web {

// Stages [first, first + count) of a traced step (clipped to the stages there are: a step of
// rk45 on a stiff system has up to 14,000, more than the page shows at once):
// {layout: {width, fields, stop_reasons, kinds, columns, stages (the stages in this array),
// bodies}, values: Float64Array (a copy), labels: [string per stage], cells: [stage][body][column]
// strings, text: {t, h}}. value(name, stage, body) = values[offset + stage * lane + body * body];
// fields: integrator, stepped, step, t, h, force_evaluations, stopped, stopped_at, stages (of the
// whole step), first (the step's stage at index 0 here, from 0), bodies (global); kind (per stage:
// an index into kinds, "evaluation", "state", "increment", "note"), has_x, has_v, has_a (per
// stage: 1 when the stage has that column), phase_q, phase_p (per stage: the phase plot's point of
// the stage's x and v, NaN where it has not both or is an increment); x, y, vx, vy, ax, ay (per
// stage and body, NaN where the stage has no such column or the value is not finite). cells: the
// same six numbers (in the order of `columns`) as the core's shortest round-trip text
// (format_number), "" where the value is NaN; text: t and h likewise.
emscripten::val trace_value(const LaneTrace& trace, const PhaseSpec& phase, int first, int count);

}  // namespace stepwise::web
