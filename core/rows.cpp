#include "rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stepwise {

const char* const csv_header = "t,integrator,body,x,y,vx,vy,energy,error\n";

std::string json_string(std::string_view text) {
    std::string out = "\"";
    for (char ch : text) {
        const unsigned char u = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += ch;
        } else if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

namespace {

// Calls row(lane, body, energy) for every row of the current step, up to max_rows; the lane's
// energy (a sum over the whole system) is computed once per lane, not once per body. With
// integrators=…,reference the reference's rows come last, as lane reference_row.
constexpr int reference_row = -1;
template <class Row>
long long each_row(const Simulation& sim, long long max_rows, Row row) {
    long long written = 0;
    auto reference_rows = [&] {
        if (!sim.config().reference) return;
        const double energy = sim.shown_reference_energy();
        for (int b = 0; b < sim.bodies(); ++b) {
            if (max_rows >= 0 && written >= max_rows) return;
            row(reference_row, b, energy);
            ++written;
        }
    };
    for (int l = 0; l < sim.lanes(); ++l) {
        if (max_rows >= 0 && written >= max_rows) return written;
        // With equal cost a lane has rows only at its own steps (its time is then the clock's).
        if (!sim.current(l)) continue;
        const double energy = sim.shown_energy(l);
        for (int b = 0; b < sim.bodies(); ++b) {
            if (max_rows >= 0 && written >= max_rows) return written;
            row(l, b, energy);
            ++written;
        }
    }
    reference_rows();
    return written;
}

// One row's values: lane l's, or the reference's (error 0: it is what the errors are measured from;
// empty as every row's once it has stopped, when it is no longer the motion at that time).
struct RowValues {
    const char* id;
    dvec2 x, v;
    bool error_known;
    double error;
};
RowValues row_values(const Simulation& sim, int l, int b) {
    if (l == reference_row)
        return {reference_id, sim.shown_reference_x()[b], sim.shown_reference_v()[b], sim.error_known(), 0.0};
    return {sim.id(l).c_str(), sim.shown_x(l)[b], sim.shown_v(l)[b], sim.error_known(),
            sim.error_known() ? sim.shown_error(l, b) : 0.0};
}

}  // namespace

long long append_csv_rows(std::string& out, const Simulation& sim, long long max_rows) {
    const double t = sim.shown_time();
    return each_row(sim, max_rows, [&](int l, int b, double energy) {
        const RowValues r = row_values(sim, l, b);
        append_number(out, t);
        out += ',';
        out += r.id;
        out += ',';
        out += std::to_string(b);
        for (double value : {r.x.x, r.x.y, r.v.x, r.v.y, energy}) {
            out += ',';
            append_number(out, value);
        }
        out += ',';
        if (r.error_known) append_number(out, r.error);  // else empty: see the reference's stop
        out += '\n';
    });
}

long long append_json_rows(std::string& out, const Simulation& sim, bool& first, long long max_rows) {
    const double t = sim.shown_time();
    return each_row(sim, max_rows, [&](int l, int b, double energy) {
        const RowValues r = row_values(sim, l, b);
        const dvec2 x = r.x, v = r.v;
        if (!first) out += ',';
        first = false;
        out += "\n    {\"t\": ";
        append_number(out, t);
        out += ", \"integrator\": \"";
        out += r.id;
        out += "\", \"body\": " + std::to_string(b);
        const char* names[] = {"x", "y", "vx", "vy", "energy"};
        const double values[] = {x.x, x.y, v.x, v.y, energy};
        for (int k = 0; k < 5; ++k) {
            out += ", \"";
            out += names[k];
            out += "\": ";
            append_number(out, values[k]);
        }
        out += ", \"error\": ";
        if (r.error_known) append_number(out, r.error); else out += "null";
        out += '}';
    });
}

void append_json_head(std::string& out, const Simulation& sim, long long steps) {
    out += "{\n  \"config\": " + json_string(normalise(sim.config())) + ",\n  \"reference\": \"";
    out += reference_name(sim.reference_kind());
    out += "\",\n  \"order_regime\": \"";
    out += regime_id(regime_of(sim.scene().system));
    // A written force that reads only its own coordinate but has no potential where the motion
    // starts (a pole on the way from 0): why, since its energy then leaves out that force's work.
    if (const WrittenLaw& w = sim.scene().system.written; !w.no_potential.empty())
        out += "\",\n  \"no_potential\": " + json_string(message_text(w.no_potential, w.no_potential_args)) + ",\n  \"dt\": ";
    else
        out += "\",\n  \"dt\": ";
    append_number(out, sim.config().dt);
    if (const FrameLoop* loop = sim.frame_loop()) {
        // With a game loop the run counts frames, and each row is a frame (the accumulator's: its
        // render state).
        const LoopSettings& s = loop->settings();
        out += ",\n  \"frames\": " + std::to_string(steps) + ",\n  \"loop\": {\"kind\": \"";
        out += loop_kind_id(s.kind);
        out += "\"";
        for (const LoopKeySpec& spec : loop_keys()) {
            if (!loop_reads(spec, s)) continue;
            out += std::string(", \"") + spec.key + "\": ";
            append_number(out, s.*(spec.field));
        }
        out += ", \"text\": " + json_string(describe_loop(s)) + "}";
    } else {
        out += ",\n  \"steps\": " + std::to_string(steps);
    }
    if (sim.config().equal_cost) out += ",\n  \"equal_cost\": true";
    out += ",\n  \"rows\": [";
}

void append_json_tail(std::string& out, const Simulation& sim) {
    // Why and when the reference stopped (null, null while it runs): errors are null from then on.
    out += "\n  ],\n  \"reference_stopped\": ";
    out += sim.reference_stopped() ? json_string(stop_reason_name(sim.reference_stop_reason())) : "null";
    out += ",\n  \"reference_stopped_at\": ";
    if (sim.reference_stopped()) append_number(out, sim.reference_stopped_at()); else out += "null";
    if (const FrameLoop* loop = sim.frame_loop()) {
        // What the loop did: frames, physics steps, and what the accumulator's cap dropped.
        out += ",\n  \"loop_frames\": " + std::to_string(sim.frames()) +
               ", \"physics_steps\": " + std::to_string(loop->steps_taken()) +
               ", \"most_steps_in_a_frame\": " + std::to_string(loop->most_steps()) +
               ", \"capped_frames\": " + std::to_string(loop->capped_frames()) + ", \"dropped_time\": ";
        append_number(out, loop->dropped_time());
    }
    const bool linked = !sim.scene().system.links.empty();
    if (linked) {
        // The reference's own constraint error (round-off for rigid links; the physical stretch
        // for compliant ones, which the lanes' is compared with) and first link's tension.
        out += ",\n  \"reference_constraint_error\": ";
        append_number(out, sim.reference_constraint_error());
        out += ", \"reference_tension\": ";
        append_number(out, sim.reference_tension());
        // The pendulum's closed form says so only where it parts from its twin (near the separatrix).
        if (sim.has_tolerance_study() || (sim.has_closed_form_horizon() && sim.reference_trusted_until() >= 0.0)) {
            // The time after which the reference is not exact to trusted_error (null: all along).
            out += ",\n  \"reference_trusted_until\": ";
            if (sim.reference_trusted_until() >= 0.0) append_number(out, sim.reference_trusted_until()); else out += "null";
            out += ", \"reference_trusted_error\": ";
            append_number(out, trusted_error * std::max(1.0, sim.scene().mechanism_size));
        }
    }
    out += ",\n  \"integrators\": [";
    const OrderRegime regime = regime_of(sim.scene().system);
    for (int l = 0; l < sim.lanes(); ++l) {
        const IntegratorInfo& info = sim.info(l);
        const bool stopped = sim.diverged(l);
        out += l ? ",\n    {" : "\n    {";
        out += "\"id\": " + json_string(sim.id(l)) + ", \"name\": " + json_string(info.name);
        out += ", \"order\": " + order_json(expected_order(info, regime));  // the claim for this kind of system
        out += std::string(", \"symplectic\": ") + (info.symplectic ? "true" : "false");
        out += std::string(", \"diverged\": ") + (stopped ? "true" : "false");
        out += ", \"diverged_at\": ";
        if (stopped) append_number(out, sim.diverged_at(l)); else out += "null";
        out += ", \"stopped\": " + (stopped ? json_string(stop_reason_name(sim.stop_reason(l))) : std::string("null"));
        out += ", \"energy\": ";
        append_number(out, sim.energy(l));
        out += ", \"energy_drift\": ";  // against the reference: unknown once it stopped
        if (sim.error_known()) append_number(out, sim.energy_drift(l)); else out += "null";
        out += ", \"dissipated\": ";
        append_number(out, sim.dissipated(l));
        out += ", \"angular_momentum\": ";
        append_number(out, sim.angular_momentum(l));
        out += ", \"force_evaluations\": " + std::to_string(sim.lane(l).force_evaluations);
        if (linked) {
            // The links: the largest |length − rest|/rest and the first link's tension (N).
            out += ", \"constraint_error\": ";
            append_number(out, sim.constraint_error(l));
            out += ", \"tension\": ";
            append_number(out, sim.tension(l));
        }
        if (sim.equal_cost()) {
            out += ", \"stride\": " + std::to_string(sim.stride(l)) + ", \"time\": ";
            append_number(out, sim.lane_time(l));
            out += ", \"effective_dt\": ";
            append_number(out, sim.effective_dt(l));
            if (info.adaptive) {
                out += ", \"rtol\": ";
                append_number(out, sim.lane(l).rtol);
                out += ", \"atol\": ";
                append_number(out, sim.lane(l).atol);
            }
        }
        out += "}";
    }
    out += "\n  ]\n}\n";
}

const char* const trace_csv_header = "integrator,stage,label,body,x,y,vx,vy,ax,ay\n";

namespace {

// Calls value(name, v, present) for the six columns of one body of a stage, x … ay in order;
// present is false where the stage has no such column or the number is not finite.
template <class Value>
void each_column(const TraceStage& st, int body, Value value) {
    struct Column {
        const char* x_name;
        const char* y_name;
        const std::vector<dvec2>* values;
    };
    for (const Column& c : {Column{"x", "y", &st.x}, Column{"vx", "vy", &st.v}, Column{"ax", "ay", &st.a}}) {
        const bool has = !c.values->empty();
        const dvec2 v = has ? (*c.values)[body] : dvec2(0.0);
        value(c.x_name, v.x, has && std::isfinite(v.x));
        value(c.y_name, v.y, has && std::isfinite(v.y));
    }
}

}  // namespace

void append_trace_csv(std::string& out, const LaneTrace& lane, size_t first, size_t end) {
    const int bodies = lane.bodies;
    for (size_t k = first; k < std::min(end, lane.stages.size()); ++k) {
        const TraceStage& st = lane.stages[k];
        std::string label = st.label;
        if (label.find_first_of(",\"\r\n") != std::string::npos) {
            std::string quoted = "\"";
            for (char ch : label) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
            label = quoted + "\"";
        }
        for (int b = 0; b < bodies; ++b) {
            out += lane.id;
            out += ',' + std::to_string(stage_number(lane, k)) + ',' + label + ',' + std::to_string(b);
            each_column(st, b, [&](const char*, double v, bool present) {
                out += ',';
                if (present) append_number(out, v);
            });
            out += '\n';
        }
    }
}

void append_trace_csv(std::string& out, const std::vector<LaneTrace>& lanes) {
    for (const LaneTrace& lane : lanes) append_trace_csv(out, lane, 0, lane.stages.size());
}

void append_trace_json(std::string& out, const Config& c, long long step, const std::vector<LaneTrace>& lanes) {
    out += "{\n  \"config\": " + json_string(normalise(c)) + ",\n  \"step\": " + std::to_string(step) +
           ",\n  \"integrators\": [";
    for (size_t l = 0; l < lanes.size(); ++l) {
        const LaneTrace& lane = lanes[l];
        const IntegratorInfo& info = integrators()[lane.integrator];
        const bool stopped = lane.stop != StopReason::none;
        out += l ? ",\n    {" : "\n    {";
        out += "\"id\": " + json_string(lane.id) + ", \"name\": " + json_string(info.name);
        out += ", \"stepped\": ";
        out += lane.stepped ? "true" : "false";
        out += ", \"step\": " + std::to_string(lane.step) + ", \"t\": ";
        append_number(out, lane.t);
        out += ", \"h\": ";
        if (lane.stepped) append_number(out, lane.h); else out += "null";
        out += ", \"force_evaluations\": " + std::to_string(lane.force_evaluations);
        out += ", \"stopped\": " + (stopped ? json_string(stop_reason_name(lane.stop)) : std::string("null"));
        out += ", \"stopped_at\": ";
        if (stopped) append_number(out, lane.stopped_at); else out += "null";
        // Only a bounded trace that left stages out says how many (max_trace_rows).
        if (lane.stages_left_out > 0) out += ", \"stages_left_out\": " + std::to_string(lane.stages_left_out);
        out += ",\n     \"stages\": [";
        const int bodies = lane.bodies;
        for (size_t k = 0; k < lane.stages.size(); ++k) {
            const TraceStage& st = lane.stages[k];
            out += k ? ",\n       {" : "\n       {";
            out += "\"stage\": " + std::to_string(stage_number(lane, k)) + ", \"label\": " + json_string(st.label) +
                   ", \"kind\": \"" + stage_kind_name(st.kind) + "\", \"bodies\": [";
            for (int b = 0; b < bodies; ++b) {
                out += b ? ", {\"body\": " : "{\"body\": ";
                out += std::to_string(b);
                each_column(st, b, [&](const char* name, double v, bool present) {
                    out += ", \"";
                    out += name;
                    out += "\": ";
                    if (present) append_number(out, v); else out += "null";
                });
                out += '}';
            }
            out += "]}";
        }
        out += lane.stages.empty() ? "]}" : "\n     ]}";
    }
    out += lanes.empty() ? "]\n}\n" : "\n  ]\n}\n";
}

std::string trace_text(const Config& c, long long step, const std::vector<LaneTrace>& lanes, bool json) {
    std::string out;
    if (json) {
        append_trace_json(out, c, step, lanes);
    } else {
        out = trace_csv_header;
        append_trace_csv(out, lanes);
    }
    return out;
}

}  // namespace stepwise
