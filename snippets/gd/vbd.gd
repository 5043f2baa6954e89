# Vertex block descent (VBD) with the augmented Lagrangian for rigid constraints: predict with the
# external forces, then n sweeps over the bodies, each taking one 2×2 Newton step on implicit
# Euler's energy as a function of that body alone (inertia, the constraints' springs, their
# dampers); after each sweep a rigid constraint's multiplier and penalty grow. v from the positions.
# First order: its iterations approach implicit Euler's step; the external forces explicit.
# Force evaluations per step: 1 external-force evaluation + 1 sweep over the bodies (every row twice) per iteration (default 10).
#
# One call is one substep of h: Stepwise's lane vbd@SxI is S calls of h = dt/S, I sweeps each.
#
# Godot 4. Save as its own script, e.g. res://steps/vbd.gd, and use it through preload:
#   const Vbd = preload("res://steps/vbd.gd")
#   var bodies := [Vbd.Body.new(), ...]  # and var constraints := [Vbd.Constraint.new(), ...]
#   Vbd.step(bodies, constraints, delta, accel, 10)  # each physics frame
# Plain floats, not Vector2: a GDScript float has 64 bits, a Vector2 32 in standard builds.
#
# A Body's inv_mass is 1/m (1/kg); 0: a fixed body, never moved. A Constraint is a distance between
# bodies i and j, or with j = -1 between body i and the fixed point (ax, ay); compliance α =
# 1/stiffness (m/N, 0: rigid); damping c (N·s/m) along it. The step writes lambda and
# penalty, a rigid constraint's multiplier (N) and stiffness (N/m) of the augmented Lagrangian.
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
	var tx := 0.0  # written by the step: the predicted position x̃
	var ty := 0.0

# Constraint c at the current positions: C = |d| − rest, its direction g = d/|d| and |d|, d = x_i − x_j
# (g = 0 where the ends meet: no direction to push along).
class Geometry:
	var c := 0.0
	var gx := 0.0
	var gy := 0.0
	var length := 0.0

class Constraint:
	var i := 0  # bodies; j = -1: the fixed point (ax, ay)
	var j := -1
	var ax := 0.0  # m
	var ay := 0.0
	var rest := 1.0  # rest length (m)
	var compliance := 0.0  # α (m/N); 0: rigid
	var damping := 0.0  # c (N·s/m) along the constraint
	var lambda := 0.0  # written by the step
	var penalty := 0.0  # written by the step
	var geometry := Geometry.new()  # filled by the step (kept: the step allocates nothing)

# A rigid constraint's penalty starts at its effective mass over h² and grows by β·|C| after each
# sweep: β of Chris Giles's AVBD solver for Solver2D (2025).
const PENALTY_GROWTH := 2e5  # N/m²

static func geometry(c: Constraint, bodies: Array) -> Geometry:
	var a: Body = bodies[c.i]
	var dx: float = a.x - (c.ax if c.j < 0 else bodies[c.j].x)
	var dy: float = a.y - (c.ay if c.j < 0 else bodies[c.j].y)
	var length := sqrt(dx * dx + dy * dy)
	var g: Geometry = c.geometry
	g.length = length
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
	for b in bodies:  # the predicted positions x̃
		b.tx = b.x
		b.ty = b.y
	var h2 := h * h
	for c in constraints:
		c.lambda = 0.0
		c.penalty = 1.0 / c.compliance if c.compliance > 0.0 else 1.0 / (inverse_mass(c, bodies) * h2)
	for _iteration in iterations:
		for n in bodies.size():
			var body: Body = bodies[n]
			if body.inv_mass == 0.0:
				continue
			# Newton on G(x_n) = m/(2h²)·|x_n − x̃_n|² + Σ (½k·C² + λ·C + the damper): force f = −∇G,
			# Hessian [[h00, h01], [h01, h11]].
			var inertia := 1.0 / body.inv_mass / h2
			var fx: float = -inertia * (body.x - body.tx)
			var fy: float = -inertia * (body.y - body.ty)
			var h00 := inertia
			var h01 := 0.0
			var h11 := inertia
			# Every constraint is looked at for brevity; with many bodies keep each body's list instead.
			for c in constraints:
				if c.i != n and c.j != n:
					continue
				var g := geometry(c, bodies)
				if g.gx == 0.0 and g.gy == 0.0:
					continue
				var k: float = c.penalty
				var damper: float = c.damping / h
				var force: float = k * g.c + c.lambda
				# How far the ends moved apart along g in this substep.
				var mx: float = bodies[c.i].x - bodies[c.i].x0
				var my: float = bodies[c.i].y - bodies[c.i].y0
				if c.j >= 0:
					mx -= bodies[c.j].x - bodies[c.j].x0
					my -= bodies[c.j].y - bodies[c.j].y0
				var moved := g.gx * mx + g.gy * my
				# The row pulls body i along −g, body j along +g.
				var pull := force + damper * moved
				if c.j == n:
					pull = -pull
				fx -= pull * g.gx
				fy -= pull * g.gy
				var kk := k + damper
				h00 += kk * g.gx * g.gx
				h01 += kk * g.gx * g.gy
				h11 += kk * g.gy * g.gy
				# The distance's curvature, kept where it is positive (a stretched constraint).
				if g.length > 0.0 and force > 0.0:
					var geo := force / g.length
					h00 += geo * (1.0 - g.gx * g.gx)
					h01 -= geo * g.gx * g.gy
					h11 += geo * (1.0 - g.gy * g.gy)
			var det := h00 * h11 - h01 * h01
			if not (det > 0.0):
				continue
			body.x += (h11 * fx - h01 * fy) / det
			body.y += (h00 * fy - h01 * fx) / det
		for c in constraints:
			if c.compliance > 0.0:
				continue
			var C := geometry(c, bodies).c
			c.lambda += c.penalty * C
			c.penalty += PENALTY_GROWTH * absf(C)
	for n in bodies.size():
		var b: Body = bodies[n]
		b.vx = (b.x - b.x0) / h
		b.vy = (b.y - b.y0) / h
