# The loop around the step: a fixed step with an accumulator, substeps and a cap (Glenn Fiedler's
# "Fix your timestep!"), as Stepwise runs it with loop=accumulator&hz=…&substeps=…&max_steps=….
# Each frame's time fills an accumulator; whole physics steps of h = 1/(hz·substeps) are taken
# out of it, at most max_steps in one frame (the rest is dropped and counted: after a long frame
# the game slows down instead of spiralling into ever longer frames); the state drawn is the last
# two states interpolated by alpha, the time left over as a fraction of a step.
# It calls the step you give it, so it works with any integrator's step function.
#
# Godot 4. Save as its own script, e.g. res://steps/loop.gd, and use it through preload:
#   const FixedStepLoop = preload("res://steps/loop.gd")
#   var loop := FixedStepLoop.new(body, 60.0, 4, 8)
#   loop.frame(delta, func(b, h): Rk4.step_spring(b, spring, h))  # in _process(delta)
#   position = Vector2(loop.shown_x, loop.shown_y) * pixels_per_metre
extends RefCounted

var current  # the physics state (the step snippet's Body), stepped in place
var prev_x := 0.0  # the state before the last step (the start, before the first)
var prev_y := 0.0
var prev_vx := 0.0
var prev_vy := 0.0
var h := 0.0  # the physics step (s)
var max_steps := 8  # the most steps in one frame
var accumulator := 0.0  # time not stepped yet, in steps of h
var alpha := 0.0
var steps := 0  # physics steps taken
var dropped := 0  # steps the cap dropped (game time lost: dropped·h)
var capped_frames := 0
var shown_x := 0.0  # the state to draw, after each frame
var shown_y := 0.0
var shown_vx := 0.0
var shown_vy := 0.0

# hz: the frame rate the game is made for; substeps: physics steps in each such frame.
func _init(body, hz := 60.0, substeps := 1, max_steps_per_frame := 8) -> void:
	current = body
	prev_x = body.x
	prev_y = body.y
	prev_vx = body.vx
	prev_vy = body.vy
	h = 1.0 / (hz * substeps)
	max_steps = max_steps_per_frame
	shown_x = body.x
	shown_y = body.y
	shown_vx = body.vx
	shown_vy = body.vy

# One frame that lasted frame_seconds: step.call(current, h) as many times as the accumulator
# holds whole steps, at most max_steps. Then draw shown_x, shown_y.
func frame(frame_seconds: float, step: Callable) -> void:
	accumulator += frame_seconds / h
	# A frame of exactly 1/hz holds exactly `substeps` steps, but in floating point 1/60 over
	# 1/240 can come out as 3.9999…: within a billionth of a whole step, it is that whole step.
	var whole := roundf(accumulator)
	if absf(accumulator - whole) < 1e-9:
		accumulator = whole
	var due := int(floorf(accumulator))
	accumulator -= due
	if due > max_steps:  # the cap: drop the rest, and count it
		dropped += due - max_steps
		capped_frames += 1
		due = max_steps
	for i in range(due):
		prev_x = current.x
		prev_y = current.y
		prev_vx = current.vx
		prev_vy = current.vy
		step.call(current, h)
		steps += 1
	alpha = accumulator
	var keep := 1.0 - alpha
	shown_x = keep * prev_x + alpha * current.x
	shown_y = keep * prev_y + alpha * current.y
	shown_vx = keep * prev_vx + alpha * current.vx
	shown_vy = keep * prev_vy + alpha * current.vy

# The game time of the state drawn: one step behind the physics, (steps − 1 + alpha)·h.
func shown_time() -> float:
	return 0.0 if steps == 0 else (steps - 1 + alpha) * h
