# Heun: an Euler predictor, then the average of the slopes at both ends (trapezoid).
# Second order.
# Force evaluations per step: 2.
#
# Godot 4. Save as its own script, e.g. res://steps/heun.gd, and use it through preload:
#   const Heun = preload("res://steps/heun.gd")
#   var body := Heun.Body.new()  # and var spring := Heun.Spring.new()
#   Heun.step_spring(body, spring, delta)  # each physics frame
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
	var ax1 := spring_acceleration(spring, body.x, body.vx)
	var ay1 := spring_acceleration(spring, body.y, body.vy)
	var vpx := body.vx + h * ax1  # predicted end velocity
	var vpy := body.vy + h * ay1
	var ax2 := spring_acceleration(spring, body.x + h * body.vx, vpx)
	var ay2 := spring_acceleration(spring, body.y + h * body.vy, vpy)
	body.x += 0.5 * h * (body.vx + vpx)
	body.y += 0.5 * h * (body.vy + vpy)
	body.vx += 0.5 * h * (ax1 + ax2)
	body.vy += 0.5 * h * (ay1 + ay2)

# Any force: accel.call(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out.
static func step(body: Body, h: float, accel: Callable) -> void:
	accel.call(body.x, body.y, body.vx, body.vy, acceleration)
	var a1_x: float = acceleration[0]
	var a1_y: float = acceleration[1]
	var vpx: float = body.vx + h * a1_x  # predicted end velocity
	var vpy: float = body.vy + h * a1_y
	accel.call(body.x + h * body.vx, body.y + h * body.vy, vpx, vpy, acceleration)
	var a2_x: float = acceleration[0]
	var a2_y: float = acceleration[1]
	body.x += 0.5 * h * (body.vx + vpx)
	body.y += 0.5 * h * (body.vy + vpy)
	body.vx += 0.5 * h * (a1_x + a2_x)
	body.vy += 0.5 * h * (a1_y + a2_y)
