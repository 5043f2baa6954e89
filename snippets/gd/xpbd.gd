# Extended PBD (XPBD): predict with the external forces, then n Gauss–Seidel passes over the
# constraints, each moving a constraint's ends by the update of its multiplier λ (compliance α
# makes a constraint a spring of stiffness 1/α); the velocity is what the positions moved.
# First order: implicit Euler on each compliant constraint, the external forces explicit.
# Force evaluations per step: 1 external-force evaluation + 1 pass over the rows per iteration (default 10).
#
# One call is one substep of h: Stepwise's lane xpbd@SxI is S calls of h = dt/S, I iterations each.
#
# Godot 4. Save as its own script, e.g. res://steps/xpbd.gd, and use it through preload:
#   const Xpbd = preload("res://steps/xpbd.gd")
#   var bodies := [Xpbd.Body.new(), ...]  # and var constraints := [Xpbd.Constraint.new(), ...]
#   Xpbd.step(bodies, constraints, delta, accel, 10)  # each physics frame
# Plain floats, not Vector2: a GDScript float has 64 bits, a Vector2 32 in standard builds.
#
# A Body's inv_mass is 1/m (1/kg); 0: a fixed body, never moved. A Constraint is a distance between
# bodies i and j, or with j = -1 between body i and the fixed point (ax, ay); compliance α =
# 1/stiffness (m/N, 0: rigid); damping c (N·s/m) along it. The step writes lambda: the
# constraint's tension is −lambda/h² (N), e.g. to break it.
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
	var x0 := 0.0  # written by the step: the position at the substep's start
	var y0 := 0.0

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

# The predicted positions: v += h·a_ext(x, v), x += h·v, each body's start kept in (x0, y0).
static func predict(bodies: Array, h: float, accel: Callable) -> void:
	for n in bodies.size():
		var b: Body = bodies[n]
		b.x0 = b.x
		b.y0 = b.y
		if b.inv_mass == 0.0:
			continue
		accel.call(b, acceleration)
		var a_x: float = acceleration[0]
		var a_y: float = acceleration[1]
		b.vx += h * a_x
		b.vy += h * a_y
		b.x += h * b.vx
		b.y += h * b.vy

static func step(bodies: Array, constraints: Array, h: float, accel: Callable, iterations: int = 10) -> void:
	predict(bodies, h, accel)
	var h2 := h * h
	for c in constraints:
		c.lambda = 0.0
	for _iteration in iterations:
		for c in constraints:
			var g := geometry(c, bodies)
			var w := inverse_mass(c, bodies)
			if not (w > 0.0) or (g.gx == 0.0 and g.gy == 0.0):
				continue
			var a: Body = bodies[c.i]
			var b: Body = null if c.j < 0 else bodies[c.j]
			# How far the ends moved apart along g in this substep: the damper's Ċ·h.
			var mx: float = a.x - bodies[c.i].x0
			var my: float = a.y - bodies[c.i].y0
			if b != null:
				mx -= b.x - bodies[c.j].x0
				my -= b.y - bodies[c.j].y0
			var moved := g.gx * mx + g.gy * my
			var alpha: float = c.compliance / h2
			var gamma: float = c.compliance * c.damping / h
			var dl: float = (-g.c - alpha * c.lambda - gamma * moved) / ((1.0 + gamma) * w + alpha)
			c.lambda += dl
			a.x += (a.inv_mass * dl) * g.gx
			a.y += (a.inv_mass * dl) * g.gy
			if b != null:
				b.x -= (b.inv_mass * dl) * g.gx
				b.y -= (b.inv_mass * dl) * g.gy
	for n in bodies.size():
		var b: Body = bodies[n]
		b.vx = (b.x - b.x0) / h
		b.vy = (b.y - b.y0) / h
