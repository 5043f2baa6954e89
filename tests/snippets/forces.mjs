// The reference cases' forces as callbacks for the JavaScript snippets, written in the core's
// operation order (core/system.cpp: accelerations, acceleration_jacobian_blocks;
// core/integrators.cpp: dissipative_flow, kinematic_step) so that the snippets can agree with
// `stepwise run` to the last bits. params are the positional numbers of a job line (snippets.test.mjs).
// Each accel writes its [ax, ay] into its last argument, each jacobian its eight derivatives and
// each dissipate its [vx, vy], and they return nothing: a snippet that read a returned array would
// fail.
export const forces = {
  // k m b: a spring anchored at the origin, rest length 0, with its damper.
  spring([k, m, b]) {
    const invM = 1 / m;
    return {
      accel: (x, y, vx, vy, out) => { out[0] = invM * (-k * x - b * vx); out[1] = invM * (-k * y - b * vy); },
      jacobian: (x, y, vx, vy, out) => write(out, -k * invM, 0, 0, -k * invM, -b * invM, 0, 0, -b * invM),
      dissipate: b > 0 ? exponentialDecay(b * invM) : null,
      kinematic: (mod) => [mod.springForce({ k, m, b })],
    };
  },
  // m k1 k2 a1x a1y a2x a2y: two undamped springs of rest length 0 to two anchors.
  two_spring([m, k1, k2, a1x, a1y, a2x, a2y]) {
    const invM = 1 / m;
    return {
      accel: (x, y, vx, vy, out) => {
        out[0] = invM * (-k1 * (x - a1x)) + invM * (-k2 * (x - a2x));
        out[1] = invM * (-k1 * (y - a1y)) + invM * (-k2 * (y - a2y));
      },
      jacobian: (x, y, vx, vy, out) => write(out, (-k1 + -k2) * invM, 0, 0, (-k1 + -k2) * invM, 0, 0, 0, 0),
      dissipate: null,
      kinematic: (mod) => [mod.springForce({ k: k1, m, b: 0 }, a1x, a1y), mod.springForce({ k: k2, m, b: 0 }, a2x, a2y)],
    };
  },
  // k m b rest gx gy: gravity and a damped spring of rest length `rest` anchored at the origin.
  elastic_pendulum([k, m, b, rest, gx, gy]) {
    const invM = 1 / m;
    const spring = (x, y, vx, vy, out) => {
      const len = Math.sqrt(x * x + y * y);
      const s = len === 0 ? 0 : -k * (len - rest) / len;
      out[0] = invM * (s * x - b * vx);
      out[1] = invM * (s * y - b * vy);
    };
    return {
      accel: (x, y, vx, vy, out) => {
        spring(x, y, vx, vy, out);
        out[0] = gx + out[0];
        out[1] = gy + out[1];
      },
      jacobian: (x, y, vx, vy, out) => {
        const len = Math.sqrt(x * x + y * y);
        if (len === 0) return write(out, 0, 0, 0, 0, -b * invM, 0, 0, -b * invM);
        const s = rest / len, ux = x / len, uy = y / len;
        const off = -k * (s * ux * uy) * invM;
        return write(out, -k * ((1 - s) + s * ux * ux) * invM, off, off, -k * ((1 - s) + s * uy * uy) * invM,
          -b * invM, 0, 0, -b * invM);
      },
      dissipate: b > 0 ? exponentialDecay(b * invM) : null,
      kinematic: (mod) => [mod.gravity(gx, gy), mod.approximate(spring)],
    };
  },
  // m gx gy c: gravity and quadratic drag F = −c·|v|·v.
  projectile([m, gx, gy, c]) {
    const invM = 1 / m;
    const drag = (x, y, vx, vy, out) => {
      const f = c * Math.sqrt(vx * vx + vy * vy) * invM;
      out[0] = -f * vx;
      out[1] = -f * vy;
    };
    return {
      accel: (x, y, vx, vy, out) => {
        const f = c * Math.sqrt(vx * vx + vy * vy) * invM;
        out[0] = gx - f * vx;
        out[1] = gy - f * vy;
      },
      jacobian: (x, y, vx, vy, out) => {
        const speed = Math.sqrt(vx * vx + vy * vy);
        if (speed === 0) return write(out, 0, 0, 0, 0, 0, 0, 0, 0);
        const off = -c * (vx * vy / speed) * invM;
        return write(out, 0, 0, 0, 0, -c * (speed + vx * vx / speed) * invM, off, off, -c * (speed + vy * vy / speed) * invM);
      },
      // Drag alone keeps the direction; the speed s goes to s/(1 + c·s·t/m).
      dissipate: (vx, vy, t, reverse, out) => {
        const grow = 1 + c * Math.sqrt(vx * vx + vy * vy) * invM * t;
        return grow > 0 ? write(out, vx / grow, vy / grow) : write(out, Infinity, Infinity);
      },
      kinematic: (mod) => [mod.gravity(gx, gy), mod.approximate(drag)],
    };
  },
};

// A linear damper alone: v·e^(−rate·t).
function exponentialDecay(rate) {
  return (vx, vy, t, reverse, out) => {
    const e = Math.exp(-rate * t);
    write(out, vx * e, vy * e);
  };
}

// Writes the values into the snippet's buffer, in order; returns nothing.
function write(out, ...values) {
  values.forEach((v, k) => { out[k] = v; });
}
