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

# What leapfrog carries between steps. Start from Carry.new(), and again whenever you move the
# body by hand or change h (the half-step velocity belongs to one h).
class Carry:
	var started := false
	var vhx := 0.0
	var vhy := 0.0
	var ax := 0.0
	var ay := 0.0

# The spring step's force, written into the step's buffer: no function is made per call, the
# spring stepped is kept here for it.
static var stepped: Spring = null
static func spring_force(x: float, y: float, vx: float, vy: float, out: Array) -> void:
	out[0] = spring_acceleration(stepped, x, vx)
	out[1] = spring_acceleration(stepped, y, vy)

static func step_spring(body: Body, carry: Carry, spring: Spring, h: float) -> void:
	stepped = spring
	step(body, carry, h, spring_force)

# Any force: accel.call(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out. A damping force sees the predicted
# end velocity, so the step stays second order with it.
static func step(body: Body, carry: Carry, h: float, accel: Callable) -> void:
	var c := carry
	if not c.started:
		accel.call(body.x, body.y, body.vx, body.vy, acceleration)
		var a0_x: float = acceleration[0]
		var a0_y: float = acceleration[1]
		c.ax = a0_x
		c.ay = a0_y
		c.vhx = body.vx + 0.5 * h * c.ax  # the starting half kick
		c.vhy = body.vy + 0.5 * h * c.ay
		c.started = true
	body.x += h * c.vhx  # drift
	body.y += h * c.vhy
	accel.call(body.x, body.y, c.vhx + 0.5 * h * c.ax, c.vhy + 0.5 * h * c.ay, acceleration)
	var a_x: float = acceleration[0]
	var a_y: float = acceleration[1]
	c.ax = a_x
	c.ay = a_y
	body.vx = c.vhx + 0.5 * h * c.ax  # synchronised velocity
	body.vy = c.vhy + 0.5 * h * c.ay
	c.vhx += h * c.ax  # kick to the next half step
	c.vhy += h * c.ay
