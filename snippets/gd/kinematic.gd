# Kinematic integrator: each force adds the exact (dv, dx) it would cause acting alone over the
# step. Exact for one spring (damped or not) or gravity alone; several forces: second order,
# first once damping acts beside another force; a force without a closed form: first order.
# Force evaluations per step: 1 (each force's closed form).
#
# Godot 4. Save as its own script, e.g. res://steps/kinematic.gd, and use it through preload:
#   const Kinematic = preload("res://steps/kinematic.gd")
#   var body := Kinematic.Body.new()  # and var spring := Kinematic.Spring.new()
#   Kinematic.step_spring(body, spring, delta)  # each physics frame
# Plain floats, not Vector2: a GDScript float has 64 bits, a Vector2 32 in standard builds.

# The acceleration accel writes (into its last argument): one buffer, made once, so that a step
# allocates nothing (a static var, so Godot 4.1 or later).
static var acceleration: Array = [0.0, 0.0]
# The buffers the step's helpers write into (the oscillator's map, a force's increment): made
# once, so that a step allocates nothing.
static var oscillator: Array = [0.0, 0.0, 0.0, 0.0]
static var increment: Array = [0.0, 0.0, 0.0, 0.0]

class Body:
	var x := 0.0  # position (m)
	var y := 0.0
	var vx := 0.0  # velocity (m/s)
	var vy := 0.0

class Spring:  # anchored at the origin, rest length 0
	var k := 1.0  # stiffness (N/m)
	var m := 1.0  # mass (kg)
	var b := 0.0  # damping (N·s/m)

# e^x − 1 without cancellation near 0 (GDScript has no expm1).
static func _expm1(x: float) -> float:
	var u := exp(x)
	if u == 1.0:
		return x
	if u - 1.0 == -1.0:
		return -1.0
	return (u - 1.0) * x / log(u)

# The damped oscillator d'' = −w2·d − 2·gamma·d' over time t, written into out as [dd, dv, vd, vv]:
# d(t) = dd·d0 + dv·v0, v(t) = vd·d0 + vv·v0. Under-, critically and over-damped.
static func oscillator_map(w2: float, gamma: float, t: float, out: Array) -> void:
	var e_c: float  # e^(−gamma·t) times (cos wt, sin(wt)/w), (1, t) or (cosh rt, sinh(rt)/r)
	var e_s: float
	var disc := gamma * gamma - w2
	if disc < 0.0:
		var w := sqrt(-disc)
		var decay := exp(-gamma * t)
		e_c = decay * cos(w * t)
		e_s = decay * sin(w * t) / w
	elif disc == 0.0:
		var decay := exp(-gamma * t)
		e_c = decay
		e_s = decay * t
	else:
		var r := sqrt(disc)  # written with decaying exponentials: no overflow, no cancellation
		if 2.0 * r * t > 700.0:
			e_c = 0.5 * exp((r - gamma) * t)
			e_s = e_c / r
		else:
			var slow := exp(-(gamma + r) * t)
			var grow := _expm1(2.0 * r * t)
			e_s = slow * grow / (2.0 * r)
			e_c = slow * (1.0 + 0.5 * grow)
	out[0] = e_c + gamma * e_s
	out[1] = e_s
	out[2] = -w2 * e_s
	out[3] = e_c - gamma * e_s

# What a spring (rest length 0) alone does over h to a body at offset (px, py) from its anchor,
# written into out: [dvx, dvy, dx, dy], dx being the displacement beyond v·h.
static func spring_increment(spring: Spring, px: float, py: float, vx: float, vy: float, h: float, out: Array) -> void:
	var inv_m := 1.0 / spring.m
	oscillator_map(spring.k * inv_m, 0.5 * spring.b * inv_m, h, oscillator)
	var o := oscillator
	out[0] = o[2] * px + o[3] * vx - vx
	out[1] = o[2] * py + o[3] * vy - vy
	out[2] = o[0] * px + o[1] * vx - px - vx * h
	out[3] = o[0] * py + o[1] * vy - py - vy * h

# Exact: the closed-form damped oscillator.
static func step_spring(body: Body, spring: Spring, h: float) -> void:
	spring_increment(spring, body.x, body.y, body.vx, body.vy, h, increment)
	body.x += h * body.vx + increment[2]
	body.y += h * body.vy + increment[3]
	body.vx += increment[0]
	body.vy += increment[1]

# Any set of forces, each a Callable (x, y, vx, vy, h, out) writing [dvx, dvy, dx, dy] into out:
# build them once with gravity, spring_force and approximate below. Their increments are summed in
# list order.
static func step(body: Body, h: float, forces: Array[Callable]) -> void:
	var dvx := 0.0
	var dvy := 0.0
	var dx := 0.0
	var dy := 0.0
	for force in forces:
		force.call(body.x, body.y, body.vx, body.vy, h, increment)
		dvx += increment[0]
		dvy += increment[1]
		dx += increment[2]
		dy += increment[3]
	body.x += h * body.vx + dx
	body.y += h * body.vy + dy
	body.vx += dvx
	body.vy += dvy

# A constant acceleration (m/s²), exact.
static func gravity(gx: float, gy: float) -> Callable:
	return func(_x: float, _y: float, _vx: float, _vy: float, h: float, out: Array) -> void:
		out[0] = h * gx
		out[1] = h * gy
		out[2] = 0.5 * h * h * gx
		out[3] = 0.5 * h * h * gy

# A spring of rest length 0 to the anchor (ax, ay), exact.
static func spring_force(spring: Spring, ax := 0.0, ay := 0.0) -> Callable:
	return func(x: float, y: float, vx: float, vy: float, h: float, out: Array) -> void:
		spring_increment(spring, x - ax, y - ay, vx, vy, h, out)

# A force without a closed form, accel.call(x, y, vx, vy, out) writes [ax, ay] into out: dv = a·h, dx = a·h² (first order).
static func approximate(accel: Callable) -> Callable:
	return func(x: float, y: float, vx: float, vy: float, h: float, out: Array) -> void:
		accel.call(x, y, vx, vy, acceleration)
		var a_x: float = acceleration[0]
		var a_y: float = acceleration[1]
		out[0] = h * a_x
		out[1] = h * a_y
		out[2] = h * (h * a_x)
		out[3] = h * (h * a_y)
