# Semi-implicit Euler (symplectic, velocity first): v += a·h, then x += v_new·h.
# First order; keeps a spring's energy bounded (no drift), its phase lags.
# Force evaluations per step: 1.
#
# Godot 4. Save as its own script, e.g. res://steps/semi_implicit_euler.gd, and use it through preload:
#   const SemiImplicitEuler = preload("res://steps/semi_implicit_euler.gd")
#   var body := SemiImplicitEuler.Body.new()  # and var spring := SemiImplicitEuler.Spring.new()
#   SemiImplicitEuler.step_spring(body, spring, delta)  # each physics frame
# Plain floats, not Vector2: a GDScript float has 64 bits, a Vector2 32 in standard builds.

# The acceleration accel writes (into its last argument): one buffer, made once, so that a step
# allocates nothing (a static var, so Godot 4.1 or later).
static var acceleration: Array = [0.0, 0.0]

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
	body.vx += h * ax
	body.vy += h * ay
	body.x += h * body.vx
	body.y += h * body.vy

# Any force: accel.call(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out.
static func step(body: Body, h: float, accel: Callable) -> void:
	accel.call(body.x, body.y, body.vx, body.vy, acceleration)
	var a_x: float = acceleration[0]
	var a_y: float = acceleration[1]
	body.vx += h * a_x
	body.vy += h * a_y
	body.x += h * body.vx
	body.y += h * body.vy
