// The loop around the step: a fixed step with an accumulator, substeps and a cap (Glenn Fiedler's
// "Fix your timestep!"), as Stepwise runs it with loop=accumulator&hz=…&substeps=…&max_steps=….
// Each frame's time fills an accumulator; whole physics steps of h = 1/(hz·substeps) are taken
// out of it, at most MaxSteps in one frame (the rest is dropped and counted: after a long frame
// the game slows down instead of spiralling into ever longer frames); the state drawn is the last
// two states interpolated by Alpha, the time left over as a fraction of a step.
// It calls the step you give it, so it works with any integrator's step function: TBody is that
// snippet's Body.
using System;

public sealed class FixedStepLoop<TBody> where TBody : struct
{
    public delegate void StepFunction(ref TBody body, double h);

    public TBody Current;   // the physics state, after the last step
    public TBody Previous;  // the state before the last step (the start, before the first)
    public readonly double H;  // the physics step (s)
    public readonly int MaxSteps;  // the most steps in one frame
    public double Accumulator;  // time not stepped yet, in steps of H
    public double Alpha;
    public long Steps;  // physics steps taken
    public long Dropped;  // steps the cap dropped (game time lost: Dropped·H)
    public long CappedFrames;

    // hz: the frame rate the game is made for; substeps: physics steps in each such frame.
    public FixedStepLoop(TBody start, double hz = 60, int substeps = 1, int maxSteps = 8)
    {
        Current = start;
        Previous = start;
        H = 1.0 / (hz * substeps);
        MaxSteps = maxSteps;
    }

    // One frame that lasted frameSeconds: step(ref Current, H) as many times as the accumulator
    // holds whole steps, at most MaxSteps. Then draw Shown(b => b.X), Shown(b => b.Y).
    public void Frame(double frameSeconds, StepFunction step)
    {
        Accumulator += frameSeconds / H;
        // A frame of exactly 1/hz holds exactly `substeps` steps, but in floating point 1/60 over
        // 1/240 can come out as 3.9999…: within a billionth of a whole step, it is that whole step.
        double whole = Math.Round(Accumulator);
        if (Math.Abs(Accumulator - whole) < 1e-9) Accumulator = whole;
        long due = (long)Math.Floor(Accumulator);
        Accumulator -= due;
        if (due > MaxSteps)  // the cap: drop the rest, and count it
        {
            Dropped += due - MaxSteps;
            CappedFrames++;
            due = MaxSteps;
        }
        for (long i = 0; i < due; i++)
        {
            Previous = Current;
            step(ref Current, H);
            Steps++;
        }
        Alpha = Accumulator;
    }

    // One number of the state to draw: Previous and Current interpolated by Alpha.
    public double Shown(Func<TBody, double> field) => (1 - Alpha) * field(Previous) + Alpha * field(Current);

    // The game time of the state drawn: one step behind the physics, (Steps − 1 + Alpha)·H.
    public double ShownTime() => Steps == 0 ? 0.0 : (Steps - 1 + Alpha) * H;
}
