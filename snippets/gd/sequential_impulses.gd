# Sequential impulses (Box2D v2.4): v += h·a_ext; n Gauss–Seidel passes of impulses at the start
# positions (a rigid constraint drives Ċ to −β·C/h, Baumgarte's bias; a compliant one is Box2D v2's
# soft distance joint, implicit Euler of its spring and damper); then x += h·v.
# First order: velocities first, each spring implicit Euler on the velocity level, then positions.
# Force evaluations per step: 1 external-force evaluation + 1 impulse pass over the rows per iteration (default 8).
#
# One call is one substep of h: Stepwise's lane sequential_impulses@SxI is S calls of h = dt/S, I
# passes each; baumgarte is β (Box2D v2.4's b2_baumgarte).
#
# Godot 4. Save as its own script, e.g. res://steps/sequential_impulses.gd, and use it through preload:
#   const SequentialImpulses = preload("res://steps/sequential_impulses.gd")
#   var bodies := [SequentialImpulses.Body.new(), ...]  # and var constraints := [SequentialImpulses.Constraint.new(), ...]
#   SequentialImpulses.step(bodies, constraints, delta, accel, 8, 0.2)  # each physics frame
# Plain floats, not Vector2: a GDScript float has 64 bits, a Vector2 32 in standard builds.
#
# A Body's inv_mass is 1/m (1/kg); 0: a fixed body, never moved. A Constraint is a distance between
# bodies i and j, or with j = -1 between body i and the fixed point (ax, ay); compliance α =
# 1/stiffness (m/N, 0: rigid); damping c (N·s/m) along it. The step writes lambda, the
# impulse it applied (N·s): the constraint's tension is −lambda/h (N), e.g. to break it.
# accel.call(body, out) writes the external acceleration [ax, ay] (m/s²) into out: gravity, dampers, drag.

# The acceleration accel writes (into its last argument): one buffer, made once, so that a step
# allocates nothing (a static var, so Godot 4.1 or later).
static var acceleration: Array = [0.0, 0.0]

class Body:
	var x := 0.0  # position (m)
	var y := 0.0
	var vx := 0.0  # velocity (m/s)
	var vy := 0.0
	var inv_mass := 1.0  # 1/mass (1/kg); 0: fixed

# Constraint c at the current positions: C = |d| − rest and its direction g = d/|d|, d = x_i − x_j
# (g = 0 where the ends meet: no direction to push along).
class Geometry:
	var c := 0.0
	var gx := 0.0
	var gy := 0.0

class Constraint:
	var i := 0  # bodies; j = -1: the fixed point (ax, ay)
	var j := -1
	var ax := 0.0  # m
	var ay := 0.0
	var rest := 1.0  # rest length (m)
	var compliance := 0.0  # α (m/N); 0: rigid
	var damping := 0.0  # c (N·s/m) along the constraint
	var lambda := 0.0  # written by the step
	var geometry := Geometry.new()  # filled by the step (kept: the step allocates nothing)

static func geometry(c: Constraint, bodies: Array) -> Geometry:
	var a: Body = bodies[c.i]
	var dx: float = a.x - (c.ax if c.j < 0 else bodies[c.j].x)
	var dy: float = a.y - (c.ay if c.j < 0 else bodies[c.j].y)
	var length := sqrt(dx * dx + dy * dy)
	var g: Geometry = c.geometry
	if length == 0.0:
		g.c = -c.rest
		g.gx = 0.0
		g.gy = 0.0
		return g
	g.c = length - c.rest
	g.gx = dx / length
	g.gy = dy / length
	return g

# The sum of the ends' inverse masses (a fixed point's is 0).
static func inverse_mass(c: Constraint, bodies: Array) -> float:
	return bodies[c.i].inv_mass + (0.0 if c.j < 0 else bodies[c.j].inv_mass)

# v_i += w_i·P·g and v_j −= w_j·P·g: impulse P along g on constraint c's ends.
static func push(c: Constraint, bodies: Array, impulse: float, g: Geometry) -> void:
	var a: Body = bodies[c.i]
	a.vx += (a.inv_mass * impulse) * g.gx
	a.vy += (a.inv_mass * impulse) * g.gy
	if c.j >= 0:
		var b: Body = bodies[c.j]
		b.vx -= (b.inv_mass * impulse) * g.gx
		b.vy -= (b.inv_mass * impulse) * g.gy

# Ċ: how fast the ends move apart along g.
static func along(c: Constraint, bodies: Array, g: Geometry) -> float:
	var a: Body = bodies[c.i]
	var dvx: float = a.vx if c.j < 0 else a.vx - bodies[c.j].vx
	var dvy: float = a.vy if c.j < 0 else a.vy - bodies[c.j].vy
	return g.gx * dvx + g.gy * dvy

# v += h·a_ext(x, v) for every body that moves.
static func integrate_velocities(bodies: Array, h: float, accel: Callable) -> void:
	for b in bodies:
		if b.inv_mass == 0.0:
			continue
		accel.call(b, acceleration)
		var a_x: float = acceleration[0]
		var a_y: float = acceleration[1]
		b.vx += h * a_x
		b.vy += h * a_y

# x += h·v.
static func integrate_positions(bodies: Array, h: float) -> void:
	for b in bodies:
		b.x += h * b.vx
		b.y += h * b.vy

static func step(bodies: Array, constraints: Array, h: float, accel: Callable, iterations: int = 8,
		baumgarte: float = 0.2) -> void:
	integrate_velocities(bodies, h, accel)
	for c in constraints:
		c.lambda = 0.0
	for _iteration in iterations:
		for c in constraints:
			var g := geometry(c, bodies)
			var w := inverse_mass(c, bodies)
			if not (w > 0.0) or (g.gx == 0.0 and g.gy == 0.0):
				continue
			var cdot := along(c, bodies, g)
			var impulse: float
			if c.compliance == 0.0:
				impulse = -(cdot + (baumgarte / h) * g.c) / w
			else:
				var k: float = 1.0 / c.compliance
				var gamma: float = 1.0 / (h * (c.damping + h * k))
				impulse = -(cdot + g.c * h * k * gamma + gamma * c.lambda) / (w + gamma)
			c.lambda += impulse
			push(c, bodies, impulse, g)
	integrate_positions(bodies, h)
