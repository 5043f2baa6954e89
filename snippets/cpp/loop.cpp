// The loop around the step: a fixed step with an accumulator, substeps and a cap (Glenn Fiedler's
// "Fix your timestep!"), as Stepwise runs it with loop=accumulator&hz=…&substeps=…&max_steps=….
// Each frame's time fills an accumulator; whole physics steps of h = 1/(hz·substeps) are taken
// out of it, at most max_steps in one frame (the rest is dropped and counted: after a long frame
// the game slows down instead of spiralling into ever longer frames); the state drawn is the last
// two states interpolated by alpha, the time left over as a fraction of a step.
// It calls the step you give it, so it works with any integrator's step function: Body is that
// snippet's Body (any struct with x, y, vx, vy).
#include <cmath>

template <class Body>
struct FixedStepLoop {
    Body current;   // the physics state, after the last step
    Body previous;  // the state before the last step (the start, before the first)
    double h;       // the physics step (s)
    int max_steps;  // the most steps in one frame
    double accumulator = 0;  // time not stepped yet, in steps of h
    double alpha = 0;
    long long steps = 0;         // physics steps taken
    long long dropped = 0;       // steps the cap dropped (game time lost: dropped·h)
    long long capped_frames = 0;

    // hz: the frame rate the game is made for; substeps: physics steps in each such frame.
    FixedStepLoop(const Body& start, double hz = 60, int substeps = 1, int max_steps_per_frame = 8)
        : current(start), previous(start), h(1.0 / (hz * substeps)), max_steps(max_steps_per_frame) {}

    // One frame that lasted frame_seconds: step(current, h) as many times as the accumulator holds
    // whole steps, at most max_steps. Returns the state to draw.
    template <class Step>
    Body frame(double frame_seconds, Step&& step) {
        accumulator += frame_seconds / h;
        // A frame of exactly 1/hz holds exactly `substeps` steps, but in floating point 1/60 over
        // 1/240 can come out as 3.9999…: within a billionth of a whole step, it is that whole step.
        const double whole = std::round(accumulator);
        if (std::fabs(accumulator - whole) < 1e-9) accumulator = whole;
        long long due = static_cast<long long>(std::floor(accumulator));
        accumulator -= static_cast<double>(due);
        if (due > max_steps) {  // the cap: drop the rest, and count it
            dropped += due - max_steps;
            ++capped_frames;
            due = max_steps;
        }
        for (long long i = 0; i < due; ++i) {
            previous = current;
            step(current, h);
            ++steps;
        }
        alpha = accumulator;
        const double keep = 1 - alpha;
        Body shown = current;
        shown.x = keep * previous.x + alpha * current.x;
        shown.y = keep * previous.y + alpha * current.y;
        shown.vx = keep * previous.vx + alpha * current.vx;
        shown.vy = keep * previous.vy + alpha * current.vy;
        return shown;
    }

    // The game time of the state drawn: one step behind the physics, (steps − 1 + alpha)·h.
    double shown_time() const { return steps == 0 ? 0.0 : (static_cast<double>(steps - 1) + alpha) * h; }
};
