# Midpoint (RK2): half an Euler step, then a full step with the slopes at that midpoint.
# Second order.
# Force evaluations per step: 2.
#
# Godot 4. Save as its own script, e.g. res://steps/midpoint.gd, and use it through preload:
#   const Midpoint = preload("res://steps/midpoint.gd")
#   var body := Midpoint.Body.new()  # and var spring := Midpoint.Spring.new()
#   Midpoint.step_spring(body, spring, delta)  # each physics frame
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
	var vmx := body.vx + 0.5 * h * spring_acceleration(spring, body.x, body.vx)
	var vmy := body.vy + 0.5 * h * spring_acceleration(spring, body.y, body.vy)
	var amx := spring_acceleration(spring, body.x + 0.5 * h * body.vx, vmx)
	var amy := spring_acceleration(spring, body.y + 0.5 * h * body.vy, vmy)
	body.x += h * vmx
	body.y += h * vmy
	body.vx += h * amx
	body.vy += h * amy

# Any force: accel.call(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out.
static func step(body: Body, h: float, accel: Callable) -> void:
	accel.call(body.x, body.y, body.vx, body.vy, acceleration)
	var a_x: float = acceleration[0]
	var a_y: float = acceleration[1]
	var vmx: float = body.vx + 0.5 * h * a_x
	var vmy: float = body.vy + 0.5 * h * a_y
	accel.call(body.x + 0.5 * h * body.vx, body.y + 0.5 * h * body.vy, vmx, vmy, acceleration)
	var am_x: float = acceleration[0]
	var am_y: float = acceleration[1]
	body.x += h * vmx
	body.y += h * vmy
	body.vx += h * am_x
	body.vy += h * am_y
