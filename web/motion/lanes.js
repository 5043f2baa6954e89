// What the motion canvas decides about the lanes, from the core's scene description and the
// state, never from a scenario's name: whether the motion is one-dimensional (then each
// integrator gets a row of its own, the "lanes" layout), which lanes coincide on screen, and
// where a lane that left the view is (an edge marker). Plain functions, no DOM.
import { formatValue } from '../common/text.js';

// One-dimensional: every body starts on the line of the anchors (and of the launch line, the
// central bodies), and the exact or reference motion's box, as far as it is known, has no height.
// Returns that line's y, or null.
export function motionLine(scene, bounds) {
  if (scene.centres.length > 0 || scene.bodies.length === 0) return null;
  const y = scene.bodies[0].start.y;
  const size = Math.max(scene.size, Math.abs(bounds.maxX - bounds.minX), 1e-9);
  const on = (v) => Number.isFinite(v) && Math.abs(v - y) <= 1e-9 * size;
  if (!scene.bodies.every((b) => on(b.start.y)) || !scene.anchors.every((a) => on(a.y))) return null;
  if (scene.gravity && scene.gravity.y !== 0) return null;
  if (!on(bounds.minY) || !on(bounds.maxY)) return null;
  return y;
}

// Lanes drawn at the same place: for each lane index, the index of the first earlier lane whose
// bodies are within `tolerance` (metres: about a pixel) of its own now and at every point of the
// drawn trail, or -1. trails[l][b]: that lane's trail of body b, oldest first.
export function coincidentLanes(lanes, trails, tolerance, out = []) {
  out.length = lanes.length;
  for (let j = 0; j < lanes.length; ++j) {
    out[j] = -1;
    for (let i = 0; i < j && out[j] < 0; ++i) {
      if (out[i] >= 0) continue;  // compare with the first of each group only
      if (same(lanes[i], lanes[j], trails[i], trails[j], tolerance)) out[j] = i;
    }
  }
  return out;
}

// Coincident: within the tolerance now and along the whole drawn trail, once the trail has gone
// somewhere: two pixels at the tolerance of 1/50 px (at t = 0 every lane is at the start, and
// "same as" would say nothing).
const movedTolerances = 100;
function same(a, b, trailsA, trailsB, tolerance) {
  if (a.diverged !== b.diverged) return false;
  let moved = false;
  for (let k = 0; k < a.bodies.length && !moved; ++k) {
    const ta = trailsA[k];
    for (let s = 1; s < ta.length && !moved; ++s) {
      moved = Math.abs(ta[s].x - ta[0].x) > movedTolerances * tolerance || Math.abs(ta[s].y - ta[0].y) > movedTolerances * tolerance;
    }
  }
  if (!moved) return false;
  for (let k = 0; k < a.bodies.length; ++k) {
    const p = a.bodies[k], q = b.bodies[k];
    if (!near(p, q, tolerance)) return false;
    const ta = trailsA[k], tb = trailsB[k];
    const n = Math.min(ta.length, tb.length);
    if (Math.abs(ta.length - tb.length) > 1) return false;
    for (let s = 1; s <= n; ++s) if (!near(ta[ta.length - s], tb[tb.length - s], tolerance)) return false;
  }
  return true;
}

const near = (p, q, tolerance) => Number.isFinite(p.x) && Number.isFinite(q.x)
  && Math.abs(p.x - q.x) <= tolerance && Math.abs(p.y - q.y) <= tolerance;

// Where a point outside the visible box is, seen from it: the distance from the box (metres)
// and the direction (an arrow), or null when it is inside or not finite.
export function outside(p, visible) {
  if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) return null;
  const dx = p.x < visible.minX ? p.x - visible.minX : p.x > visible.maxX ? p.x - visible.maxX : 0;
  const dy = p.y < visible.minY ? p.y - visible.minY : p.y > visible.maxY ? p.y - visible.maxY : 0;
  if (dx === 0 && dy === 0) return null;
  const distance = Math.hypot(dx, dy);
  return { dx, dy, distance, arrow: arrowFor(dx, dy) };
}

// One of eight arrows, screen-wise (y up in the world is up on screen).
function arrowFor(dx, dy) {
  const angle = Math.atan2(dy, dx);  // from +x, counter-clockwise
  const arrows = ['→', '↗', '↑', '↖', '←', '↙', '↓', '↘'];
  return arrows[((Math.round(angle / (Math.PI / 4)) % 8) + 8) % 8];
}

// "12 m →": an edge marker's text; finite by construction ('far' past 1e12 m).
export function distanceText(distance, arrow) {
  const text = distance < 1e12 ? `${formatValue(distance, distance >= 10 ? 3 : 2)} m` : 'far';
  return `${text} ${arrow}`;
}
