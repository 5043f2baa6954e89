# Runge–Kutta 4 (the classic RK4): four slopes per step, weighted 1, 2, 2, 1.
# Fourth order; on an undamped spring it slowly loses energy.
# Force evaluations per step: 4.
#
# Godot 4. Save as its own script, e.g. res://steps/rk4.gd, and use it through preload:
#   const Rk4 = preload("res://steps/rk4.gd")
#   var body := Rk4.Body.new()  # and var spring := Rk4.Spring.new()
#   Rk4.step_spring(body, spring, delta)  # each physics frame
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

# One axis of the spring (it acts on each axis alone): [p, v] after the four stages.
static func rk4_axis(spring: Spring, h: float, p: float, v: float) -> Array:
	var a1 := spring_acceleration(spring, p, v)
	var v2 := v + 0.5 * h * a1
	var a2 := spring_acceleration(spring, p + 0.5 * h * v, v2)
	var v3 := v + 0.5 * h * a2
	var a3 := spring_acceleration(spring, p + 0.5 * h * v2, v3)
	var v4 := v + h * a3
	var a4 := spring_acceleration(spring, p + h * v3, v4)
	return [p + (h / 6.0) * (v + 2.0 * (v2 + v3) + v4), v + (h / 6.0) * (a1 + 2.0 * (a2 + a3) + a4)]

static func step_spring(body: Body, spring: Spring, h: float) -> void:
	var ax := rk4_axis(spring, h, body.x, body.vx)
	var ay := rk4_axis(spring, h, body.y, body.vy)
	body.x = ax[0]
	body.vx = ax[1]
	body.y = ay[0]
	body.vy = ay[1]

# Any force: accel.call(x, y, vx, vy) returns [ax, ay] (m/s²).
static func step(body: Body, h: float, accel: Callable) -> void:
	var x := body.x
	var y := body.y
	var vx := body.vx
	var vy := body.vy
	var a1: Array = accel.call(x, y, vx, vy)
	var vx2: float = vx + 0.5 * h * a1[0]
	var vy2: float = vy + 0.5 * h * a1[1]
	var a2: Array = accel.call(x + 0.5 * h * vx, y + 0.5 * h * vy, vx2, vy2)
	var vx3: float = vx + 0.5 * h * a2[0]
	var vy3: float = vy + 0.5 * h * a2[1]
	var a3: Array = accel.call(x + 0.5 * h * vx2, y + 0.5 * h * vy2, vx3, vy3)
	var vx4: float = vx + h * a3[0]
	var vy4: float = vy + h * a3[1]
	var a4: Array = accel.call(x + h * vx3, y + h * vy3, vx4, vy4)
	body.x = x + (h / 6.0) * (vx + 2.0 * (vx2 + vx3) + vx4)
	body.y = y + (h / 6.0) * (vy + 2.0 * (vy2 + vy3) + vy4)
	body.vx = vx + (h / 6.0) * (a1[0] + 2.0 * (a2[0] + a3[0]) + a4[0])
	body.vy = vy + (h / 6.0) * (a1[1] + 2.0 * (a2[1] + a3[1]) + a4[1])
