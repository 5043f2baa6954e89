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

# The cached acceleration. Start from Carry.new(), and again whenever you move the body by hand
# or change the forces.
class Carry:
	var started := false
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
# velocity v + a·h, so the step stays second order with it.
static func step(body: Body, carry: Carry, h: float, accel: Callable) -> void:
	var c := carry
	if not c.started:
		accel.call(body.x, body.y, body.vx, body.vy, acceleration)
		var a0_x: float = acceleration[0]
		var a0_y: float = acceleration[1]
		c.ax = a0_x
		c.ay = a0_y
		c.started = true
	var ax0 := c.ax
	var ay0 := c.ay
	body.x += h * body.vx + 0.5 * h * h * ax0
	body.y += h * body.vy + 0.5 * h * h * ay0
	accel.call(body.x, body.y, body.vx + h * ax0, body.vy + h * ay0, acceleration)
	var a_x: float = acceleration[0]
	var a_y: float = acceleration[1]
	c.ax = a_x
	c.ay = a_y
	body.vx += 0.5 * h * (ax0 + c.ax)
	body.vy += 0.5 * h * (ay0 + c.ay)
