# Dormand–Prince 5(4): adaptive Runge–Kutta with error control. Each call advances exactly h,
# in as many internal substeps as rtol needs (six force evaluations each; the seventh is reused).
# No order in h: its error follows the tolerance.
# Force evaluations per step: 6 per accepted substep (the 7th is the next one's first; adaptive).
#
# Godot 4. Save as its own script, e.g. res://steps/rk45.gd, and use it through preload:
#   const Rk45 = preload("res://steps/rk45.gd")
#   var body := Rk45.Body.new()  # and var spring := Rk45.Spring.new()
#   var carry := Rk45.Carry.new()
#   Rk45.step_spring(body, carry, spring, delta)  # each physics frame
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

# Butcher tableau (the nodes c are not needed: the forces do not depend on time).
const A = [[], [1.0 / 5.0], [3.0 / 40.0, 9.0 / 40.0], [44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0],
	[19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0],
	[9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0, -5103.0 / 18656.0]]
const B = [35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0]  # fifth order
const E = [71.0 / 57600.0, 0.0, -71.0 / 16695.0, 71.0 / 1920.0, -17253.0 / 339200.0, 22.0 / 525.0, -1.0 / 40.0]  # fifth − fourth
const MAX_SUBSTEPS = 2000  # bounded work: give up past this many substeps in one step

# Spring anchored at the origin, rest length 0: a = (−k·p − b·v)/m along each axis.
static func spring_acceleration(spring: Spring, p: float, v: float) -> float:
	return (1.0 / spring.m) * (-spring.k * p - spring.b * v)

# What the method carries: the tolerances, the last substep size, the slope at the current state
# (first same as last) and the stage slopes (reused). Start from Carry.new(), and again whenever
# you move the body by hand or change the forces.
class Carry:
	var rtol := 1e-9
	var atol := 1e-9
	var substep := 0.0
	var started := false
	var ax := 0.0
	var ay := 0.0
	# Stage slopes: position slope = the stage's velocity, velocity slope = its acceleration.
	var kx := PackedFloat64Array()
	var ky := PackedFloat64Array()
	var kvx := PackedFloat64Array()
	var kvy := PackedFloat64Array()

	func _init(relative_tolerance := 1e-9, absolute_tolerance := 1e-9) -> void:
		rtol = relative_tolerance
		atol = absolute_tolerance
		kx.resize(7)
		ky.resize(7)
		kvx.resize(7)
		kvy.resize(7)

# The spring step's force, written into the step's buffer: no function is made per call, the
# spring stepped is kept here for it.
static var stepped: Spring = null
static func spring_force(x: float, y: float, vx: float, vy: float, out: Array) -> void:
	out[0] = spring_acceleration(stepped, x, vx)
	out[1] = spring_acceleration(stepped, y, vy)

static func step_spring(body: Body, carry: Carry, spring: Spring, h: float) -> bool:
	stepped = spring
	return step(body, carry, h, spring_force)

# Any force: accel.call(x, y, vx, vy, out) writes [ax, ay] (m/s²) into out. Returns false when it gave up (more
# than MAX_SUBSTEPS substeps, or a substep below 1e-12·h still too inaccurate): the body is then
# left at its last accepted substep, short of h.
static func step(body: Body, carry: Carry, h: float, accel: Callable) -> bool:
	var c := carry
	if c.substep <= 0.0:
		c.substep = h
	if not c.started:
		accel.call(body.x, body.y, body.vx, body.vy, acceleration)
		var a0_x: float = acceleration[0]
		var a0_y: float = acceleration[1]
		c.ax = a0_x
		c.ay = a0_y
		c.started = true
	var done := 0.0
	var substeps := 0
	while done < h:
		if substeps >= MAX_SUBSTEPS:
			return false
		var hs := minf(c.substep, h - done)
		var last := hs >= h - done
		c.kx[0] = body.vx
		c.ky[0] = body.vy
		c.kvx[0] = c.ax
		c.kvy[0] = c.ay
		var nx := 0.0
		var ny := 0.0
		for j in range(1, 7):
			# Stage j at (x, v) + hs·Σ a_jm·k_m; stage 6 is the fifth-order solution itself.
			var w: Array = A[j] if j < 6 else B
			var sx := 0.0
			var sy := 0.0
			var svx := 0.0
			var svy := 0.0
			for m in j:
				if w[m] == 0.0:
					continue  # B[1]
				sx += w[m] * c.kx[m]
				sy += w[m] * c.ky[m]
				svx += w[m] * c.kvx[m]
				svy += w[m] * c.kvy[m]
			nx = body.x + hs * sx
			ny = body.y + hs * sy
			c.kx[j] = body.vx + hs * svx
			c.ky[j] = body.vy + hs * svy
			accel.call(nx, ny, c.kx[j], c.ky[j], acceleration)
			var a_x: float = acceleration[0]
			var a_y: float = acceleration[1]
			c.kvx[j] = a_x
			c.kvy[j] = a_y
		# The local error estimate, each component scaled by atol + rtol·max(|old|, |new|).
		var ex := 0.0
		var ey := 0.0
		var evx := 0.0
		var evy := 0.0
		for m in 7:
			if E[m] == 0.0:
				continue
			ex += E[m] * c.kx[m]
			ey += E[m] * c.ky[m]
			evx += E[m] * c.kvx[m]
			evy += E[m] * c.kvy[m]
		var err: float = max(scaled(c, hs * ex, body.x, nx), scaled(c, hs * ey, body.y, ny),
				scaled(c, hs * evx, body.vx, c.kx[6]), scaled(c, hs * evy, body.vy, c.ky[6]))
		if not is_finite(err):
			err = 1e300
		var factor: float = 5.0 if err == 0.0 else minf(maxf(0.9 * pow(err, -0.2), 0.2), 5.0)
		substeps += 1
		if err > 1.0 and hs <= 1e-12 * h:
			return false  # cannot shrink usefully any more
		if err <= 1.0:
			body.x = nx
			body.y = ny
			body.vx = c.kx[6]
			body.vy = c.ky[6]
			c.ax = c.kvx[6]  # first same as last
			c.ay = c.kvy[6]
			done = h if last else done + hs
			if not last or factor < 1.0:
				c.substep = hs * factor  # a clipped last substep keeps the size
		else:
			c.substep = hs * factor
		if not is_finite(c.substep) or c.substep <= 0.0:
			c.substep = h
	return true

static func scaled(c: Carry, e: float, before: float, after: float) -> float:
	return absf(e) / (c.atol + c.rtol * maxf(absf(before), absf(after)))
