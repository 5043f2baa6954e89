# Yoshida 4 (Forest–Ruth), a symplectic composition: three Verlet steps of weights w1, w0, w1
# (w0 < 0), i.e. four drifts and three kicks. Fourth order.
# Damping is not kicked: its exact flow is applied on either side of each kick, so it stays fourth order.
# Force evaluations per step: 3.
#
# Godot 4. Save as its own script, e.g. res://steps/yoshida4.gd, and use it through preload:
#   const Yoshida4 = preload("res://steps/yoshida4.gd")
#   var body := Yoshida4.Body.new()  # and var spring := Yoshida4.Spring.new()
#   Yoshida4.step_spring(body, spring, delta)  # each physics frame
# Plain floats, not Vector2: a GDScript float has 64 bits, a Vector2 32 in standard builds.

# The acceleration accel writes (into its last argument): one buffer, made once, so that a step
# allocates nothing (a static var, so Godot 4.1 or later).
static var acceleration: Array = [0.0, 0.0]
# The velocity dissipate writes (into its last argument): one buffer, made once too.
static var velocity: Array = [0.0, 0.0]

class Body:
	var x := 0.0  # position (m)
	var y := 0.0
	var vx := 0.0  # velocity (m/s)
	var vy := 0.0

class Spring:  # anchored at the origin, rest length 0
	var k := 1.0  # stiffness (N/m)
	var m := 1.0  # mass (kg)
	var b := 0.0  # damping (N·s/m)

const CBRT2 = 1.2599210498948732  # 2^(1/3)
const W1 = 1.0 / (2.0 - CBRT2)
const W0 = -CBRT2 / (2.0 - CBRT2)
const DRIFT = [0.5 * W1, 0.5 * (W0 + W1), 0.5 * (W0 + W1), 0.5 * W1]
const KICK = [W1, W0, W1]

# The kick is the spring −k·x/m; the damper's flow is v·e^(−b·t/m).
static func step_spring(body: Body, spring: Spring, h: float) -> void:
	var inv_m := 1.0 / spring.m
	for i in 4:
		body.x += DRIFT[i] * h * body.vx
		body.y += DRIFT[i] * h * body.vy
		if i == 3:
			break
		var damp := exp(-spring.b * inv_m * (0.5 * KICK[i] * h))  # the damper alone, half the kick's time
		body.vx *= damp
		body.vy *= damp
		body.vx += KICK[i] * h * (inv_m * (-spring.k * body.x))
		body.vy += KICK[i] * h * (inv_m * (-spring.k * body.y))
		body.vx *= damp
		body.vy *= damp

# Any force: accel.call(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out. Without damping, leave dissipate out.
# With damping or drag, accel must give the other forces (it is called with v = 0) and
# dissipate.call(vx, vy, t, reverse, out) must write [vx, vy] into out after the damping forces alone act for t
# (t may be negative; with several such forces apply them in reverse order when reverse is true).
static func step(body: Body, h: float, accel: Callable, dissipate := Callable()) -> void:
	var damped := dissipate.is_valid()
	for i in 4:
		body.x += DRIFT[i] * h * body.vx
		body.y += DRIFT[i] * h * body.vy
		if i == 3:
			break
		var t: float = 0.5 * KICK[i] * h
		if damped:
			dissipate.call(body.vx, body.vy, t, false, velocity)
			body.vx = velocity[0]
			body.vy = velocity[1]
		if damped:
			accel.call(body.x, body.y, 0.0, 0.0, acceleration)
		else:
			accel.call(body.x, body.y, body.vx, body.vy, acceleration)
		var a_x: float = acceleration[0]
		var a_y: float = acceleration[1]
		body.vx += KICK[i] * h * a_x
		body.vy += KICK[i] * h * a_y
		if damped:
			dissipate.call(body.vx, body.vy, t, true, velocity)
			body.vx = velocity[0]
			body.vy = velocity[1]
