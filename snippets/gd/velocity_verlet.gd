# Velocity Verlet: x += v·h + ½a·h², then v += ½(a + a_new)·h; a_new is kept for the next step.
# Second order, symplectic.
# Force evaluations per step: 1 (acceleration reused; plus 1 at the start).
#
# Godot 4. Save as its own script, e.g. res://steps/velocity_verlet.gd, and use it through preload:
#   const VelocityVerlet = preload("res://steps/velocity_verlet.gd")
#   var body := VelocityVerlet.Body.new()  # and var spring := VelocityVerlet.Spring.new()
#   var carry := VelocityVerlet.Carry.new()
#   VelocityVerlet.step_spring(body, carry, spring, delta)  # each physics frame
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

# The cached acceleration. Start from Carry.new(), and again whenever you move the body by hand
# or change the forces.
class Carry:
	var started := false
	var ax := 0.0
	var ay := 0.0

static func step_spring(body: Body, carry: Carry, spring: Spring, h: float) -> void:
	var accel := func(x: float, y: float, vx: float, vy: float) -> Array:
		return [spring_acceleration(spring, x, vx), spring_acceleration(spring, y, vy)]
	step(body, carry, h, accel)

# Any force: accel.call(x, y, vx, vy) returns [ax, ay] (m/s²). A damping force sees the predicted
# velocity v + a·h, so the step stays second order with it.
static func step(body: Body, carry: Carry, h: float, accel: Callable) -> void:
	var c := carry
	if not c.started:
		var a0: Array = accel.call(body.x, body.y, body.vx, body.vy)
		c.ax = a0[0]
		c.ay = a0[1]
		c.started = true
	var ax0 := c.ax
	var ay0 := c.ay
	body.x += h * body.vx + 0.5 * h * h * ax0
	body.y += h * body.vy + 0.5 * h * h * ay0
	var a: Array = accel.call(body.x, body.y, body.vx + h * ax0, body.vy + h * ay0)
	c.ax = a[0]
	c.ay = a[1]
	body.vx += 0.5 * h * (ax0 + c.ax)
	body.vy += 0.5 * h * (ay0 + c.ay)
