# Soft step (Box2D v3): v += h·a_ext; warm start (each constraint's impulse from the last call
# applied again along its current direction); n solve passes of soft impulses (a rigid constraint soft at
# the joint frequency, a compliant one as its spring and damper); x += h·v; one relax pass without
# the rigid constraints' bias, which takes back the velocity the bias added.
# First order: each spring is implicit Euler on the velocity level, the external forces explicit.
# Force evaluations per step: 1 external-force evaluation + 1 solve pass per iteration (default 1) + 1 relax pass.
#
# One call is one substep of h: Stepwise's lane soft_step@SxI is S calls of h = dt/S, I solve
# passes each (Box2D: 4 substeps of one).
#
# Godot 4. Save as its own script, e.g. res://steps/soft_step.gd, and use it through preload:
#   const SoftStep = preload("res://steps/soft_step.gd")
#   var bodies := [SoftStep.Body.new(), ...]  # and var constraints := [SoftStep.Constraint.new(), ...]
#   SoftStep.step(bodies, constraints, delta, accel, 1)  # each physics frame
# Plain floats, not Vector2: a GDScript float has 64 bits, a Vector2 32 in standard builds.
#
# A Body's inv_mass is 1/m (1/kg); 0: a fixed body, never moved. A Constraint is a distance between
# bodies i and j, or with j = -1 between body i and the fixed point (ax, ay); compliance α =
# 1/stiffness (m/N, 0: rigid); damping c (N·s/m) along it. lambda carries the impulse (N·s) from
# call to call (Box2D's warm start: start it at 0, and zero it again when bodies are moved by
# hand); after a call it is the impulse that call applied: the constraint's tension is
# −lambda/h (N), e.g. to break it.
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

# A spring of angular frequency omega and damping ratio zeta on C, as implicit Euler over h takes
# it: the bias rate on C, and the scales of the impulse's mass and of the impulse already applied.
# omega = 0: rigid, no bias.
class Softness:
	var bias_rate := 0.0
	var mass_scale := 1.0
	var impulse_scale := 0.0

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
	var soft := Softness.new()  # filled by the step

# Box2D v3.0's joint softness for rigid constraints (b2DefaultWorldDef): 60 Hz, damping ratio 2,
# the frequency capped at 1/8 of the substep rate.
const JOINT_HERTZ := 60.0
const JOINT_DAMPING_RATIO := 2.0
const JOINT_HERTZ_CAP := 0.125  # × 1/h

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

static func make_soft(soft: Softness, omega: float, zeta: float, h: float) -> void:
	if omega == 0.0:
		soft.bias_rate = 0.0
		soft.mass_scale = 1.0
		soft.impulse_scale = 0.0
		return
	var a1 := 2.0 * zeta + h * omega
	var a2 := h * omega * a1
	var a3 := 1.0 / (1.0 + a2)
	soft.bias_rate = omega / a1
	soft.mass_scale = a2 * a3
	soft.impulse_scale = a3

# One pass over the constraints. A compliant constraint is its spring (stiffness 1/α, damper c) in
# every pass, given to make_soft as ω = √(w/α), ζ = c·w/(2ω); a rigid one is soft at the joint's
# angular frequency joint_omega in a solve pass (use_bias) and rigid without bias in the relax pass.
static func soft_pass(bodies: Array, constraints: Array, h: float, use_bias: bool, joint_omega: float) -> void:
	for c in constraints:
		var g := geometry(c, bodies)
		var w := inverse_mass(c, bodies)
		if not (w > 0.0) or (g.gx == 0.0 and g.gy == 0.0):
			continue
		var soft: Softness = c.soft
		if c.compliance > 0.0:
			var omega := sqrt(w / c.compliance)
			make_soft(soft, omega, c.damping * w / (2.0 * omega), h)
		elif use_bias:
			make_soft(soft, joint_omega, JOINT_DAMPING_RATIO, h)
		else:
			make_soft(soft, 0.0, 0.0, h)
		var impulse: float = -soft.mass_scale / w * (along(c, bodies, g) + soft.bias_rate * g.c) - soft.impulse_scale * c.lambda
		c.lambda += impulse
		push(c, bodies, impulse, g)

# Warm start: each constraint's impulse from the last call applied again, along its direction at
# the current positions (Box2D's b2WarmStartDistanceJoint). The passes then add onto lambda; a
# constraint that cannot move keeps it.
static func warm_start(bodies: Array, constraints: Array) -> void:
	for c in constraints:
		var g := geometry(c, bodies)
		var w := inverse_mass(c, bodies)
		if not (w > 0.0) or (g.gx == 0.0 and g.gy == 0.0):
			continue
		push(c, bodies, c.lambda, g)

static func step(bodies: Array, constraints: Array, h: float, accel: Callable, iterations: int = 1) -> void:
	integrate_velocities(bodies, h, accel)
	warm_start(bodies, constraints)
	var hertz := minf(JOINT_HERTZ, JOINT_HERTZ_CAP / h)
	var joint_omega := 2.0 * PI * hertz
	for _iteration in iterations:
		soft_pass(bodies, constraints, h, true, joint_omega)
	integrate_positions(bodies, h)
	soft_pass(bodies, constraints, h, false, joint_omega)
