// Every lane's bodies (position and velocity) at the frames drawn so far, so that the timeline
// and a plot's time cursor can show the motion at an earlier time. Bounded: one Float64Array
// allocated per simulation; when it is full every other sample is dropped (the history thins
// out evenly, as the core's plot history does), so recording a frame never allocates. No DOM.

const fieldsPerBody = 4;  // x, y, vx, vy

export class MotionHistory {
  constructor(lanes, bodies, capacity = 2048) {
    this.lanes = lanes;
    this.bodies = bodies;
    this.capacity = capacity;
    this.width = 1 + lanes * bodies * fieldsPerBody;  // t, then per lane and body x, y, vx, vy
    this.data = new Float64Array(capacity * this.width);
    this.count = 0;
  }

  clear() { this.count = 0; }

  get lastTime() { return this.count ? this.data[(this.count - 1) * this.width] : NaN; }

  // Records a snapshot's lanes (a time already recorded is skipped; an earlier one, after a
  // reset, starts the history again).
  record(snapshot) {
    const t = snapshot.t;
    if (!Number.isFinite(t)) return;
    if (this.count > 0) {
      const last = this.lastTime;
      if (t === last) return;
      if (t < last) this.count = 0;
    }
    if (this.count === this.capacity) this.thin();
    const d = this.data;
    let k = this.count * this.width;
    d[k++] = t;
    for (const lane of snapshot.lanes) {
      for (const p of lane.bodies) {
        d[k++] = p.x; d[k++] = p.y; d[k++] = p.vx; d[k++] = p.vy;
      }
    }
    this.count += 1;
  }

  // Keeps every other sample (the first and the latest always).
  thin() {
    const d = this.data, w = this.width;
    let kept = 0;
    for (let i = 0; i < this.count; i += 2) d.copyWithin(kept++ * w, i * w, (i + 1) * w);
    if ((this.count - 1) % 2 !== 0) d.copyWithin(kept++ * w, (this.count - 1) * w, this.count * w);
    this.count = kept;
  }

  // The index of the last sample at or before time t (-1 when there is none).
  indexAt(t) {
    let lo = 0, hi = this.count - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.data[mid * this.width] <= t) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }

  time(i) { return this.data[i * this.width]; }

  // Lane l's body b at sample i, into `out` ({x, y, vx, vy}); returns out.
  body(i, l, b, out) {
    const k = i * this.width + 1 + (l * this.bodies + b) * fieldsPerBody;
    out.x = this.data[k]; out.y = this.data[k + 1]; out.vx = this.data[k + 2]; out.vy = this.data[k + 3];
    return out;
  }
}
