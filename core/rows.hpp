// The one place that turns a Simulation's current step into text rows, CSV or JSON, with
// every number printed %.17g by append_number (core/number_text.hpp: it reads back exactly, in
// any locale). String formatting only: core/ stays free of I/O. The CLI prints these rows and the
// page's export downloads them, so the two match by construction.
#pragma once
#include "number_text.hpp"
#include "simulation.hpp"
#include "trace.hpp"

#include <string>
#include <string_view>

namespace stepwise {

// "t,integrator,body,x,y,vx,vy,energy,error" and a newline.
extern const char* const csv_header;

// A JSON string literal of text (quotes, backslashes and control characters escaped).
std::string json_string(std::string_view text);

// One row per lane and body at the simulation's current step. CSV rows end with a newline.
// JSON rows are objects `{"t": …, "integrator": "…", "body": …, "x": …, …}`, each on a new
// line indented by four spaces, separated by commas (first: no row written yet, so no comma
// goes before this one; the function clears it). Returns the number of rows written; at most max_rows (the rest are dropped).
long long append_csv_rows(std::string& out, const Simulation& sim, long long max_rows = -1);
long long append_json_rows(std::string& out, const Simulation& sim, bool& first, long long max_rows = -1);

// The JSON document of a run (`stepwise run --format json`): the head up to the opening of
// "rows", then the rows, then the tail closing "rows" with each lane's summary.
void append_json_head(std::string& out, const Simulation& sim, long long steps);
void append_json_tail(std::string& out, const Simulation& sim);

// `stepwise trace` (trace.hpp): "integrator,stage,label,body,x,y,vx,vy,ax,ay" and a newline.
extern const char* const trace_csv_header;
// One row per stage and body of each traced lane that stepped, stages numbered from 1 in the
// order the method computes them. A column the stage does not have (see StageKind), or a value
// that is not a finite number (a step that overflows), is an empty field. A label with a comma,
// a quote or a line break is quoted (RFC 4180; the table's labels have none).
void append_trace_csv(std::string& out, const std::vector<LaneTrace>& lanes);
// The same rows for stages [first, end) of one lane (numbered first + 1 on; end is cut to the
// stages there are): a long step's CSV written in parts (the page makes it in slices).
void append_trace_csv(std::string& out, const LaneTrace& lane, size_t first, size_t end);
// The JSON document of `stepwise trace --format json`: {config, step, integrators: [{id, name,
// step, t, h, force_evaluations, stopped, stopped_at, stages: [{stage, label, kind, bodies:
// [{body, x, y, vx, vy, ax, ay}]}]}]}, null for a column the stage does not have.
void append_trace_json(std::string& out, const Config& c, long long step, const std::vector<LaneTrace>& lanes);
// The whole text of `stepwise trace` for c traced at clock step `step`: the CSV header and rows, or
// the JSON document (the CLI prints it, the page exports it).
std::string trace_text(const Config& c, long long step, const std::vector<LaneTrace>& lanes, bool json);

}  // namespace stepwise
