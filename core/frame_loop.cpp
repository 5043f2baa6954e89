#include "frame_loop.hpp"

#include "number_text.hpp"

#include <algorithm>
#include <cmath>

namespace stepwise {

const std::vector<LoopKindInfo>& loop_kinds() {
    static const std::vector<LoopKindInfo> table = {
        {.kind = LoopKind::fixed, .id = "fixed",
         .description = "every frame takes substeps steps of 1/(hz·substeps), whatever the frame lasted"},
        {.kind = LoopKind::variable, .id = "variable",
         .description = "every frame takes one step of the frame's own (jittered) length, as a naive game does"},
        {.kind = LoopKind::accumulator, .id = "accumulator",
         .description = "frame lengths fill an accumulator, whole steps of 1/(hz·substeps) drain it (at most "
                        "max_steps a frame, the rest dropped); the player sees lerp(previous, current, leftover)"},
    };
    return table;
}

const LoopKindInfo* find_loop_kind(std::string_view id) {
    for (const LoopKindInfo& k : loop_kinds())
        if (id == k.id) return &k;
    return nullptr;
}

const char* loop_kind_id(LoopKind kind) {
    for (const LoopKindInfo& k : loop_kinds())
        if (k.kind == kind) return k.id;
    return "";
}

const std::vector<LoopKeySpec>& loop_keys() {
    // hz up to 1000: a 1 kHz physics loop is the fastest games run; at least 1 keeps a frame
    // within a second. 64 substeps or steps a frame are far past what a game affords. The seed
    // is a 32-bit number, so it reads back exactly from any link.
    static const std::vector<LoopKeySpec> table = {
        {.key = "hz", .field = &LoopSettings::hz, .min = 1, .max = 1000, .def = 60, .whole = false,
         .max_exclusive = false, .unit = "1/s", .label = "frame rate", .meaning = "frames per second",
         .fixed = true, .variable = true, .accumulator = true, .needs_jitter = false},
        {.key = "substeps", .field = &LoopSettings::substeps, .min = 1, .max = 64, .def = 1, .whole = true,
         .max_exclusive = false, .unit = "", .label = "substeps", .meaning = "physics steps per frame: the step is 1/(hz·substeps)",
         .fixed = true, .variable = false, .accumulator = true, .needs_jitter = false},
        {.key = "jitter", .field = &LoopSettings::jitter, .min = 0, .max = 1, .def = 0, .whole = false,
         .max_exclusive = true, .unit = "", .label = "jitter",
         .meaning = "relative spread of the frame lengths: (1/hz)·(1 + jitter·u), u uniform in [-1, 1)",
         .fixed = false, .variable = true, .accumulator = true, .needs_jitter = false},
        {.key = "seed", .field = &LoopSettings::seed, .min = 0, .max = 4294967295.0, .def = 1, .whole = true,
         .max_exclusive = false, .unit = "", .label = "seed", .meaning = "seed of the jittered frame lengths (splitmix64)",
         .fixed = false, .variable = true, .accumulator = true, .needs_jitter = true},
        {.key = "max_steps", .field = &LoopSettings::max_steps, .min = 1, .max = 64, .def = 8, .whole = true,
         .max_exclusive = false, .unit = "", .label = "steps cap",
         .meaning = "the most physics steps in one frame; the time beyond is dropped (the game slows down)",
         .fixed = false, .variable = false, .accumulator = true, .needs_jitter = false},
    };
    return table;
}

const LoopKeySpec* find_loop_key(std::string_view key) {
    for (const LoopKeySpec& k : loop_keys())
        if (key == k.key) return &k;
    return nullptr;
}

MessageArgs loop_key_range(const LoopKeySpec& spec) {
    // A whole number's range says enough; a number's range adds what it means.
    const bool noted = *spec.meaning && !spec.whole;
    const char* form = spec.whole ? "whole"
                       : spec.max_exclusive ? (noted ? "number_below_noted" : "number_below")
                                            : (noted ? "number_noted" : "number");
    MessageArgs args = {{"allowed", form}, {"min", format_number(spec.min)}, {"max", format_number(spec.max)}};
    if (noted) args.push_back({"note", spec.meaning});
    return args;
}

std::string loop_key_allowed(const LoopKeySpec& spec) { return allowed_text(loop_key_range(spec)); }

bool loop_reads(const LoopKeySpec& spec, const LoopSettings& s) {
    const bool kind = (s.kind == LoopKind::fixed && spec.fixed) || (s.kind == LoopKind::variable && spec.variable) ||
                      (s.kind == LoopKind::accumulator && spec.accumulator);
    return kind && (!spec.needs_jitter || s.jitter > 0.0);
}

std::string loop_key_loops(const LoopKeySpec& spec) {
    std::vector<std::string> names;
    if (spec.fixed) names.push_back("fixed");
    if (spec.variable) names.push_back("variable");
    if (spec.accumulator) names.push_back("accumulator");
    std::string out;
    for (size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return out;
}

const char* const loop_rules =
    "with a loop, dt is the loop's physics step, 1/(hz·substeps) (loop=variable: each frame's own length, 1/hz on "
    "average): a link that gives dt as well is an error naming both keys, and a preset's dt gives way to the loop; a "
    "loop key that the link's loop does not read (substeps with loop=variable, jitter with loop=fixed, seed without "
    "jitter, any of them without loop) is an error; loop cannot be combined with equal_cost=1, cloud > 0, "
    "view=convergence or view=cloud, and loop=variable not with view=stability; `stepwise run` then counts frames "
    "(--steps N is N frames, the duration is ceil(duration·hz) frames) and writes one row per frame at the frame's "
    "time (the accumulator's rows: the render state)";

double loop_step(const LoopSettings& s) {
    if (s.kind == LoopKind::variable) return 1.0 / s.hz;
    return 1.0 / (s.hz * s.substeps);
}

std::string describe_loop(const LoopSettings& s) {
    if (s.kind == LoopKind::none) return "";
    std::string out = std::string(loop_kind_id(s.kind)) + " at " + format_number(s.hz) + " Hz";
    if (s.kind != LoopKind::variable) {
        const int n = static_cast<int>(s.substeps);
        // The step as the fraction it is: "1/120 s" reads better than 0.008333333333333333.
        const double per_second = s.hz * s.substeps;
        const std::string step = per_second == std::floor(per_second) ? "1/" + format_number(per_second)
                                                                     : format_number(loop_step(s));
        out += ", " + std::to_string(n) + (n == 1 ? " substep" : " substeps") + " (step " + step + " s)";
    }
    if (s.kind != LoopKind::fixed) {
        out += ", jitter " + format_number(s.jitter);
        if (s.jitter > 0.0) out += " (seed " + format_number(s.seed) + ")";
    }
    if (s.kind == LoopKind::accumulator) out += ", at most " + format_number(s.max_steps) + " steps a frame";
    return out;
}

std::uint64_t SplitMix64::next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double SplitMix64::next_signed() {
    // k in [0, 2^53) is exact as a double, so is k·2^-53, its double and the subtraction of 1.
    const double unit = static_cast<double>(next() >> 11) * 0x1p-53;
    return 2.0 * unit - 1.0;
}

FrameLoop::FrameLoop(const LoopSettings& s)
    : settings_(s),
      period_(1.0 / s.hz),
      step_(loop_step(s)),
      substeps_(static_cast<int>(s.substeps)),
      cap_(static_cast<int>(s.max_steps)),
      random_(static_cast<std::uint64_t>(s.seed)) {
    reset();
}

void FrameLoop::reset() {
    random_ = SplitMix64(static_cast<std::uint64_t>(settings_.seed));
    frame_ = Frame{};
    wall_periods_ = 0.0;
    accumulator_ = 0.0;
    steps_taken_ = dropped_steps_ = capped_frames_ = 0;
    most_steps_ = 0;
}

const Frame& FrameLoop::next() {
    // The frame's length in periods: exactly 1 without jitter (1 + 0·u). The variable loop and
    // the accumulator draw the same u for frame n, so at one seed their frames last the same.
    // The fixed loop's frames all last 1/hz (it takes no jitter).
    const double periods = settings_.kind == LoopKind::fixed ? 1.0 : 1.0 + settings_.jitter * random_.next_signed();
    Frame& f = frame_;
    ++f.index;
    f.length = period_ * periods;
    wall_periods_ += periods;
    f.wall_time = period_ * wall_periods_;
    f.dropped = 0;
    switch (settings_.kind) {
        case LoopKind::none:
        case LoopKind::fixed:
            f.steps = substeps_;
            f.step = step_;
            break;
        case LoopKind::variable:
            f.steps = 1;
            f.step = f.length;
            break;
        case LoopKind::accumulator: {
            // Kept in steps, not seconds: without jitter a frame adds exactly `substeps` steps
            // and leaves exactly 0 (in seconds, 1/30 over 1/120 rounds to 3.9999… and a step
            // would slip to the next frame).
            accumulator_ += periods * substeps_;
            const double whole = std::floor(accumulator_);
            accumulator_ -= whole;
            long long due = static_cast<long long>(whole);
            if (due > cap_) {
                f.dropped = due - cap_;
                dropped_steps_ += f.dropped;
                ++capped_frames_;
                due = cap_;
            }
            f.steps = static_cast<int>(due);
            f.step = step_;
            f.alpha = accumulator_;
            break;
        }
    }
    steps_taken_ += f.steps;
    most_steps_ = std::max(most_steps_, f.steps);
    return f;
}

std::string dropped_text(const FrameLoop& loop) {
    if (loop.dropped_steps() == 0) return "";
    const long long frames = loop.capped_frames();
    return "slowed: " + format_fixed(loop.dropped_time(), 2) + " s of game time dropped in " + std::to_string(frames) +
           (frames == 1 ? " frame" : " frames") + " (at most " + format_number(loop.settings().max_steps) +
           " steps a frame)";
}

}  // namespace stepwise
