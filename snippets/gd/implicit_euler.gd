# Implicit Euler (backward Euler): v1 = v0 + h·a(x0 + h·v1, v1), x1 = x0 + h·v1.
# First order; stable for any h on a spring, and it loses energy.
# Force evaluations per step: 1 + Newton iterations (2 on linear systems).
#
# Godot 4. Save as its own script, e.g. res://steps/implicit_euler.gd, and use it through preload:
#   const ImplicitEuler = preload("res://steps/implicit_euler.gd")
#   var body := ImplicitEuler.Body.new()  # and var spring := ImplicitEuler.Spring.new()
#   ImplicitEuler.step_spring(body, spring, delta)  # each physics frame
# Plain floats, not Vector2: a GDScript float has 64 bits, a Vector2 32 in standard builds.

# The acceleration accel writes (into its last argument): one buffer, made once, so that a step
# allocates nothing (a static var, so Godot 4.1 or later).
static var acceleration: Array = [0.0, 0.0]
# The derivatives jacobian writes (into its last argument): one buffer, made once too.
static var derivatives: Array = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]

class Body:
	var x := 0.0  # position (m)
	var y := 0.0
	var vx := 0.0  # velocity (m/s)
	var vy := 0.0

class Spring:  # anchored at the origin, rest length 0
	var k := 1.0  # stiffness (N/m)
	var m := 1.0  # mass (kg)
	var b := 0.0  # damping (N·s/m)

# The equation is linear in v1 for this spring: solved directly.
static func step_spring(body: Body, spring: Spring, h: float) -> void:
	var k := spring.k
	var m := spring.m
	var b := spring.b
	var d := 1.0 + (h / m) * (b + h * k)
	body.vx = (body.vx - (h * k / m) * body.x) / d
	body.vy = (body.vy - (h * k / m) * body.y) / d
	body.x += h * body.vx
	body.y += h * body.vy

const MAX_ITERATIONS = 50
const TOLERANCE = 1e-12  # on the Newton update, relative to 1 + |v1|

# Any force: accel.call(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out; jacobian.call(x, y, vx, vy, out)
# writes its derivatives [∂ax/∂x, ∂ax/∂y, ∂ay/∂x, ∂ay/∂y, ∂ax/∂vx, ∂ax/∂vy, ∂ay/∂vx, ∂ay/∂vy] into out.
# Newton's method from v1 = v0: each iteration costs one accel and one jacobian call; a force
# linear in (x, v) converges in two. Returns false when it stopped without converging.
static func step(body: Body, h: float, accel: Callable, jacobian: Callable) -> bool:
	var vx := body.vx
	var vy := body.vy
	var converged := false
	for _iteration in MAX_ITERATIONS:
		var x := body.x + h * vx
		var y := body.y + h * vy
		accel.call(x, y, vx, vy, acceleration)
		var a_x: float = acceleration[0]
		var a_y: float = acceleration[1]
		jacobian.call(x, y, vx, vy, derivatives)
		var j := derivatives
		# G(v1) = v1 − v0 − h·a(x0 + h·v1, v1) = 0; dG/dv1 = I − h·(h·∂a/∂x + ∂a/∂v).
		var m00: float = 1.0 - h * (h * j[0] + j[4])
		var m01: float = -h * (h * j[1] + j[5])
		var m10: float = -h * (h * j[2] + j[6])
		var m11: float = 1.0 - h * (h * j[3] + j[7])
		var rx: float = -(vx - body.vx - h * a_x)
		var ry: float = -(vy - body.vy - h * a_y)
		var det := m00 * m11 - m01 * m10
		if det == 0.0:
			break
		var dvx := (m11 * rx - m01 * ry) / det
		var dvy := (m00 * ry - m10 * rx) / det
		vx += dvx
		vy += dvy
		converged = maxf(absf(dvx), absf(dvy)) <= TOLERANCE * (1.0 + maxf(absf(vx), absf(vy)))
		if converged:
			break
	body.x += h * vx
	body.y += h * vy
	body.vx = vx
	body.vy = vy
	return converged
