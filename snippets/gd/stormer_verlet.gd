# Störmer–Verlet (position Verlet): x_next = 2x − x_prev + a·h², the first step by Taylor,
# v from the central difference. Second order, symplectic.
# Force evaluations per step: 1 (plus 1 at the start).
#
# Godot 4. Save as its own script, e.g. res://steps/stormer_verlet.gd, and use it through preload:
#   const StormerVerlet = preload("res://steps/stormer_verlet.gd")
#   var body := StormerVerlet.Body.new()  # and var spring := StormerVerlet.Spring.new()
#   var carry := StormerVerlet.Carry.new()
#   StormerVerlet.step_spring(body, carry, spring, delta)  # each physics frame
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

# What the method carries between steps: the previous position and the last acceleration.
# Start from Carry.new(), and again whenever you move the body by hand or change h.
class Carry:
	var started := false
	var prev_x := 0.0
	var prev_y := 0.0
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

# Any force: accel.call(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out. A damping force sees a predicted
# velocity, so the step stays second order with it.
static func step(body: Body, carry: Carry, h: float, accel: Callable) -> void:
	var c := carry
	var next_x: float
	var next_y: float
	if not c.started:
		accel.call(body.x, body.y, body.vx, body.vy, acceleration)
		var a0_x: float = acceleration[0]
		var a0_y: float = acceleration[1]
		c.ax = a0_x
		c.ay = a0_y
		next_x = body.x + h * body.vx + 0.5 * h * h * c.ax  # Taylor
		next_y = body.y + h * body.vy + 0.5 * h * h * c.ay
		c.started = true
	else:
		next_x = 2.0 * body.x - c.prev_x + h * h * c.ax
		next_y = 2.0 * body.y - c.prev_y + h * h * c.ay
	var vpx := (next_x - body.x) / h + 0.5 * h * c.ax  # predicted velocity at the new position
	var vpy := (next_y - body.y) / h + 0.5 * h * c.ay
	c.prev_x = body.x
	c.prev_y = body.y
	body.x = next_x
	body.y = next_y
	accel.call(body.x, body.y, vpx, vpy, acceleration)
	var a_x: float = acceleration[0]
	var a_y: float = acceleration[1]
	c.ax = a_x
	c.ay = a_y
	body.vx = (body.x - c.prev_x) / h + 0.5 * h * c.ax
	body.vy = (body.y - c.prev_y) / h + 0.5 * h * c.ay
