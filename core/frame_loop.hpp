// The game loop around the integrators: frames at hz per second whose lengths may jitter, and
// how the physics steps inside them. Three loops, as games write them:
//   fixed        every frame takes `substeps` steps of 1/(hz·substeps), whatever the frame lasted;
//   variable     every frame takes one step of the frame's own length (the naive game's dt);
//   accumulator  the frame's length goes into an accumulator, whole steps of 1/(hz·substeps)
//                are taken out of it (at most max_steps a frame: the rest is dropped, the game
//                slows down), and the render state is lerp(previous, current, alpha) with alpha
//                the leftover as a fraction of a step.
// A frame's length is (1/hz)·(1 + jitter·u), u uniform in [-1, 1) from a seeded splitmix64: the
// same numbers on every platform (integer arithmetic and exact conversions only; never a
// standard-library distribution, whose output differs between libraries).
#pragma once
#include "messages.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stepwise {

enum class LoopKind { none, fixed, variable, accumulator };

struct LoopKindInfo {
    LoopKind kind;
    const char* id;           // the link's value: loop=fixed
    const char* description;  // one line
};
// fixed, variable, accumulator (none is the absence of the key).
const std::vector<LoopKindInfo>& loop_kinds();
// The row of an id, or nullptr.
const LoopKindInfo* find_loop_kind(std::string_view id);
const char* loop_kind_id(LoopKind kind);  // "" for none

// The loop's settings as the link gives them. Whole-number keys are held as doubles too, so one
// table (loop_keys) reads, checks and writes them all.
struct LoopSettings {
    LoopKind kind = LoopKind::none;
    double hz = 60.0;        // frames per second
    double substeps = 1.0;   // physics steps per frame (fixed, accumulator)
    double jitter = 0.0;     // relative spread of the frame lengths, in [0, 1)
    double seed = 1.0;       // of the frame lengths' generator (only with jitter)
    double max_steps = 8.0;  // accumulator: the most physics steps in one frame
    bool operator==(const LoopSettings& o) const {
        return kind == o.kind && hz == o.hz && substeps == o.substeps && jitter == o.jitter && seed == o.seed &&
               max_steps == o.max_steps;
    }
};

// One numeric key of the loop: its range, default and which loops read it.
struct LoopKeySpec {
    const char* key;
    double LoopSettings::*field;
    double min, max, def;
    bool whole;          // a whole number
    bool max_exclusive;  // the range is [min, max)
    const char* unit;
    const char* label;    // short, for a form field
    const char* meaning;  // one line
    bool fixed, variable, accumulator;  // the loops that read it
    bool needs_jitter;   // read only when jitter > 0 (the seed)
};
// hz, substeps, jitter, seed, max_steps: the parser, normalise, `stepwise list` and the page
// read this table.
const std::vector<LoopKeySpec>& loop_keys();
const LoopKeySpec* find_loop_key(std::string_view key);
// What the key allows, as the arguments of a not_allowed message (core/messages.hpp), and in
// words: "a number from 1 to 1000 (frames per second)".
MessageArgs loop_key_range(const LoopKeySpec& spec);
std::string loop_key_allowed(const LoopKeySpec& spec);
// Whether loop settings s read the key (its loop reads it and, for the seed, there is jitter).
bool loop_reads(const LoopKeySpec& spec, const LoopSettings& s);
// The loops that read the key, in words: "fixed and accumulator".
std::string loop_key_loops(const LoopKeySpec& spec);

// How the loop combines with the other keys, in words (`stepwise list`, the page): the parser
// enforces each rule with an error naming both keys.
extern const char* const loop_rules;

// The physics step of a loop: 1/(hz·substeps) for fixed and accumulator; for variable the mean
// frame length 1/hz (each frame's own length is its step).
double loop_step(const LoopSettings& s);
// "accumulator at 30 Hz, 2 substeps (step 0.016666666666666666 s), jitter 0.2 (seed 1), at most
// 8 steps a frame": the loop in words (the CLI's stderr line, the page's legend).
std::string describe_loop(const LoopSettings& s);

// splitmix64 (Steele, Lea, Flood 2014): a 64-bit counter through a fixed mix. Portable: its
// numbers depend only on the seed.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    // Uniform in [-1, 1): the top 53 bits as k·2^-53 in [0, 1), doubled, minus 1 (all exact).
    double next_signed();

private:
    std::uint64_t state_;
};

// One frame of the loop, as planned by FrameLoop::next().
struct Frame {
    long long index = 0;    // frames taken so far (0: the start, nothing taken)
    double length = 0.0;    // this frame's length in seconds (jittered)
    double wall_time = 0.0; // the frames' lengths so far, summed: (1/hz)·Σ(1 + jitter·u)
    int steps = 0;          // physics steps in this frame
    double step = 0.0;      // the length of each
    double alpha = 0.0;     // accumulator: the leftover after the steps, as a fraction of a step
    long long dropped = 0;  // accumulator: steps over the cap in this frame, dropped
};

// The frame schedule of one loop: frame n's length, its steps and their length, and for the
// accumulator the leftover and what the cap dropped. Every lane of a Simulation follows the one
// schedule, so lanes compare at equal frames. Allocates nothing after construction.
class FrameLoop {
public:
    explicit FrameLoop(const LoopSettings& s);
    void reset();
    // Plans the next frame and returns it.
    const Frame& next();
    const Frame& frame() const { return frame_; }
    const LoopSettings& settings() const { return settings_; }
    // The physics step (loop_step).
    double step() const { return step_; }
    long long steps_taken() const { return steps_taken_; }
    // Accumulator: the steps the cap dropped, their game time, the frames that hit the cap and
    // the most steps any frame took.
    long long dropped_steps() const { return dropped_steps_; }
    double dropped_time() const { return static_cast<double>(dropped_steps_) * step_; }
    long long capped_frames() const { return capped_frames_; }
    int most_steps() const { return most_steps_; }

private:
    LoopSettings settings_;
    double period_ = 0.0;  // 1/hz
    double step_ = 0.0;
    int substeps_ = 1, cap_ = 1;
    SplitMix64 random_;
    Frame frame_;
    double wall_periods_ = 0.0;  // Σ(1 + jitter·u): the wall clock in periods
    double accumulator_ = 0.0;   // in steps
    long long steps_taken_ = 0, dropped_steps_ = 0, capped_frames_ = 0;
    int most_steps_ = 0;
};

// "slowed: 1.3 s of game time dropped in 12 frames (at most 8 steps a frame)", or "" when the
// cap never hit.
std::string dropped_text(const FrameLoop& loop);

}  // namespace stepwise
