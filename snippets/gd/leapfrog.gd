# Leapfrog (kick-drift-kick): the velocity lives at half steps, started with a half kick;
# body.v is the synchronised velocity. Second order, symplectic.
# Force evaluations per step: 1 (plus 1 at the start).
#
# Godot 4. Save as its own script, e.g. res://steps/leapfrog.gd, and use it through preload:
#   const Leapfrog = preload("res://steps/leapfrog.gd")
#   var body := Leapfrog.Body.new()  # and var spring := Leapfrog.Spring.new()
#   var carry := Leapfrog.Carry.new()
#   Leapfrog.step_spring(body, carry, spring, delta)  # each physics frame
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

# What leapfrog carries between steps. Start from Carry.new(), and again whenever you move the
# body by hand or change h (the half-step velocity belongs to one h).
class Carry:
	var started := false
	var vhx := 0.0
	var vhy := 0.0
	var ax := 0.0
	var ay := 0.0

static func step_spring(body: Body, carry: Carry, spring: Spring, h: float) -> void:
	var accel := func(x: float, y: float, vx: float, vy: float) -> Array:
		return [spring_acceleration(spring, x, vx), spring_acceleration(spring, y, vy)]
	step(body, carry, h, accel)

# Any force: accel.call(x, y, vx, vy) returns [ax, ay] (m/s²). A damping force sees the predicted
# end velocity, so the step stays second order with it.
static func step(body: Body, carry: Carry, h: float, accel: Callable) -> void:
	var c := carry
	if not c.started:
		var a0: Array = accel.call(body.x, body.y, body.vx, body.vy)
		c.ax = a0[0]
		c.ay = a0[1]
		c.vhx = body.vx + 0.5 * h * c.ax  # the starting half kick
		c.vhy = body.vy + 0.5 * h * c.ay
		c.started = true
	body.x += h * c.vhx  # drift
	body.y += h * c.vhy
	var a: Array = accel.call(body.x, body.y, c.vhx + 0.5 * h * c.ax, c.vhy + 0.5 * h * c.ay)
	c.ax = a[0]
	c.ay = a[1]
	body.vx = c.vhx + 0.5 * h * c.ax  # synchronised velocity
	body.vy = c.vhy + 0.5 * h * c.ay
	c.vhx += h * c.ax  # kick to the next half step
	c.vhy += h * c.ay
