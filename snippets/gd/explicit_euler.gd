# Explicit Euler: x += v·h and v += a·h, both slopes taken at the start of the step.
# First order; on an undamped spring its energy grows by (1 + ω²h²) every step.
# Force evaluations per step: 1.
#
# Godot 4. Save as its own script, e.g. res://steps/explicit_euler.gd, and use it through preload:
#   const ExplicitEuler = preload("res://steps/explicit_euler.gd")
#   var body := ExplicitEuler.Body.new()  # and var spring := ExplicitEuler.Spring.new()
#   ExplicitEuler.step_spring(body, spring, delta)  # each physics frame
# Plain floats, not Vector2: a GDScript float has 64 bits, a Vector2 32 in standard builds.

class Body:
	var x := 0.0  # position (m)
	var y := 0.0
	var vx := 0.0  # velocity (m/s)
	var vy := 0.0

class Spring:  # anchored at the origin, rest length 0
	var k := 1.0  # stiffness (N/m)
	var m := 1.0  # mass (kg)
	var b := 0.0  # damping (N·s/m)

# Spring anchored at the origin, rest length 0: a = (−k·p − b·v)/m along each axis.
static func spring_acceleration(spring: Spring, p: float, v: float) -> float:
	return (1.0 / spring.m) * (-spring.k * p - spring.b * v)

static func step_spring(body: Body, spring: Spring, h: float) -> void:
	var ax := spring_acceleration(spring, body.x, body.vx)
	var ay := spring_acceleration(spring, body.y, body.vy)
	body.x += h * body.vx
	body.y += h * body.vy
	body.vx += h * ax
	body.vy += h * ay

# Any force: accel.call(x, y, vx, vy) returns [ax, ay] (m/s²).
static func step(body: Body, h: float, accel: Callable) -> void:
	var a: Array = accel.call(body.x, body.y, body.vx, body.vy)
	body.x += h * body.vx
	body.y += h * body.vy
	body.vx += h * a[0]
	body.vy += h * a[1]
