# Heun: an Euler predictor, then the average of the slopes at both ends (trapezoid).
# Second order.
# Force evaluations per step: 2.
#
# Godot 4. Save as its own script, e.g. res://steps/heun.gd, and use it through preload:
#   const Heun = preload("res://steps/heun.gd")
#   var body := Heun.Body.new()  # and var spring := Heun.Spring.new()
#   Heun.step_spring(body, spring, delta)  # each physics frame
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

# Any force: accel.call(x, y, vx, vy) returns [ax, ay] (m/s²).
static func step(body: Body, h: float, accel: Callable) -> void:
	var a1: Array = accel.call(body.x, body.y, body.vx, body.vy)
	var vpx: float = body.vx + h * a1[0]  # predicted end velocity
	var vpy: float = body.vy + h * a1[1]
	var a2: Array = accel.call(body.x + h * body.vx, body.y + h * body.vy, vpx, vpy)
	body.x += 0.5 * h * (body.vx + vpx)
	body.y += 0.5 * h * (body.vy + vpy)
	body.vx += 0.5 * h * (a1[0] + a2[0])
	body.vy += 0.5 * h * (a1[1] + a2[1])
