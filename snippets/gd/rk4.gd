# Runge–Kutta 4 (the classic RK4): four slopes per step, weighted 1, 2, 2, 1.
# Fourth order; on an undamped spring it slowly loses energy.
# Force evaluations per step: 4.
#
# Godot 4. Save as its own script, e.g. res://steps/rk4.gd, and use it through preload:
#   const Rk4 = preload("res://steps/rk4.gd")
#   var body := Rk4.Body.new()  # and var spring := Rk4.Spring.new()
#   Rk4.step_spring(body, spring, delta)  # each physics frame
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

# One axis of the spring (it acts on each axis alone): [p, v] after the four stages, written into out.
static func rk4_axis(spring: Spring, h: float, p: float, v: float, out: Array) -> void:
	var a1 := spring_acceleration(spring, p, v)
	var v2 := v + 0.5 * h * a1
	var a2 := spring_acceleration(spring, p + 0.5 * h * v, v2)
	var v3 := v + 0.5 * h * a2
	var a3 := spring_acceleration(spring, p + 0.5 * h * v2, v3)
	var v4 := v + h * a3
	var a4 := spring_acceleration(spring, p + h * v3, v4)
	out[0] = p + (h / 6.0) * (v + 2.0 * (v2 + v3) + v4)
	out[1] = v + (h / 6.0) * (a1 + 2.0 * (a2 + a3) + a4)

# An axis's [p, v]: one buffer, made once.
static var axis_state: Array = [0.0, 0.0]

static func step_spring(body: Body, spring: Spring, h: float) -> void:
	rk4_axis(spring, h, body.x, body.vx, axis_state)
	body.x = axis_state[0]
	body.vx = axis_state[1]
	rk4_axis(spring, h, body.y, body.vy, axis_state)
	body.y = axis_state[0]
	body.vy = axis_state[1]

# Any force: accel.call(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out.
static func step(body: Body, h: float, accel: Callable) -> void:
	var x := body.x
	var y := body.y
	var vx := body.vx
	var vy := body.vy
	accel.call(x, y, vx, vy, acceleration)
	var a1_x: float = acceleration[0]
	var a1_y: float = acceleration[1]
	var vx2: float = vx + 0.5 * h * a1_x
	var vy2: float = vy + 0.5 * h * a1_y
	accel.call(x + 0.5 * h * vx, y + 0.5 * h * vy, vx2, vy2, acceleration)
	var a2_x: float = acceleration[0]
	var a2_y: float = acceleration[1]
	var vx3: float = vx + 0.5 * h * a2_x
	var vy3: float = vy + 0.5 * h * a2_y
	accel.call(x + 0.5 * h * vx2, y + 0.5 * h * vy2, vx3, vy3, acceleration)
	var a3_x: float = acceleration[0]
	var a3_y: float = acceleration[1]
	var vx4: float = vx + h * a3_x
	var vy4: float = vy + h * a3_y
	accel.call(x + h * vx3, y + h * vy3, vx4, vy4, acceleration)
	var a4_x: float = acceleration[0]
	var a4_y: float = acceleration[1]
	body.x = x + (h / 6.0) * (vx + 2.0 * (vx2 + vx3) + vx4)
	body.y = y + (h / 6.0) * (vy + 2.0 * (vy2 + vy3) + vy4)
	body.vx = vx + (h / 6.0) * (a1_x + 2.0 * (a2_x + a3_x) + a4_x)
	body.vy = vy + (h / 6.0) * (a1_y + 2.0 * (a2_y + a3_y) + a4_y)
