// Drawing the lanes on the motion canvas: each integrator's bodies, trails, velocity arrows and
// stop crosses, the lanes layout's rows and their names, the "same as" notes, the edge markers
// of a lane that left the view, the shared time cursor's marks and a dragged body's preview. The
// View (web/motion/view.js) extends it: the methods read its state (ctx, the maps, the trails).
import { laneStyle, drawMarker } from '../common/palette.js';
import { outside, distanceText } from './lanes.js';
import { isFaded } from './lane-focus.js';
import { ClippedPath, axisTicks, niceStep, stepMultiples } from './coords.js';
import { t as t_ } from '../common/language.js';
import { offsetName } from '../common/text.js';
import { SceneDrawing, finite, arrowPx, fadedAlpha, rowHeight, layoutRowKey, nearRect, addRings, trailLength, trailStart } from './scene-drawing.js';

// The centre x for a label of half-width `half` on a top or bottom edge (`side`) of rectangle r,
// nearest x, clear of the labels already placed there (placed: side → [{lo, hi}]); recorded.
function clearOf(placed, side, x, half, r) {
  const taken = placed.get(side) || [];
  const lo = r.x + half, hi = r.x + r.w - half;
  // Half a pixel of slack: (a + h) − h may round below a, which would meet the same label again.
  const overlaps = (c) => taken.find((s) => c + half > s.lo + 0.5 && c - half < s.hi - 0.5);
  let c = Math.min(Math.max(x, lo), hi);
  // Rightwards past the labels it meets; from the right edge leftwards when it runs out of room.
  // Each move clears one label for good, so a pass takes at most one move a label.
  for (let k = 0, hit = overlaps(c); hit && k <= taken.length; ++k, hit = overlaps(c)) c = hit.hi + half;
  if (c > hi) {
    c = hi;
    for (let k = 0, hit = overlaps(c); hit && k <= taken.length; ++k, hit = overlaps(c)) c = hit.lo - half;
  }
  c = Math.min(Math.max(c, lo), hi);
  taken.push({ lo: c - half, hi: c + half });
  placed.set(side, taken);
  return c;
}

// An arrow of (dx, dy) pixels from (x, y) in `colour`, its length capped at `longest` (also the
// scene editor's start velocities, web/editor/editor.js, uncapped: their tips are dragged).
export function arrowMark(ctx, x, y, dx, dy, colour, longest = Infinity) {
  const len = Math.hypot(dx, dy);
  if (!(len > 2) || !Number.isFinite(len)) return;
  const k = Math.min(1, longest / len), ux = dx / len, uy = dy / len;
  const ex = x + dx * k, ey = y + dy * k;
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(x, y); ctx.lineTo(ex - ux * 5, ey - uy * 5);
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(ex, ey);
  ctx.lineTo(ex - ux * 8 - uy * 4, ey - uy * 8 + ux * 4);
  ctx.lineTo(ex - ux * 8 + uy * 4, ey - uy * 8 - ux * 4);
  ctx.closePath();
  ctx.fill();
}

export class LaneDrawing extends SceneDrawing {
  // The lanes layout: the exact or reference bodies as a dashed ring in every row, one path.
  drawReferenceRings(maps, shownLanes, reference, theme) {
    const ctx = this.ctx;
    ctx.strokeStyle = theme.ghost;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([4, 4]);
    ctx.globalAlpha = 0.6;
    ctx.beginPath();
    for (const lane of shownLanes) {
      const m = maps[lane.index], size = this.markSize(m, this.markerSize * 1.4);
      addRings(ctx, m, reference, Math.max(size, 5), this.markedBody(size));
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);
  }

  // The fastest speed seen in this run (exact or reference, and lanes still running): the
  // velocity arrows' scale, fixed between frames so their lengths compare.
  trackSpeed(snapshot) {
    const take = (p) => {
      const v = Math.hypot(p.vx, p.vy);
      if (Number.isFinite(v) && v > this.speedMax) this.speedMax = v;
    };
    snapshot.reference.forEach(take);
    if (this.speedMax === 0) for (const lane of snapshot.lanes) if (!lane.diverged) lane.bodies.forEach(take);
  }

  // Pixels per m/s of a velocity arrow: the fastest speed seen is arrowPx long.
  arrowScale(map) {
    return this.speedMax > 0 ? arrowPx / this.speedMax : map.scale * 0.5;
  }

  // The lanes layout's frame: vertical grid lines and x ticks shared by every row, a rule
  // between rows, and each row's integrator name in its colour.
  drawRows(map, maps, shownLanes, theme) {
    const ctx = this.ctx, r = map.rect, v = map.visible();
    const step = niceStep(v.maxX - v.minX, Math.max(3, Math.round(r.w / 90)));
    ctx.lineWidth = 1;
    ctx.strokeStyle = theme.grid;
    ctx.beginPath();
    for (const k of stepMultiples(v.minX, v.maxX, step)) {
      const px = Math.round(map.px(k * step)) + 0.5;
      ctx.moveTo(px, r.y); ctx.lineTo(px, r.y + r.h);
    }
    for (const lane of shownLanes.slice(1)) {
      const y = Math.round(maps[lane.index].row.y) + 0.5;
      ctx.moveTo(r.x, y); ctx.lineTo(r.x + r.w, y);
    }
    ctx.stroke();
    const xAxis = axisTicks(v.minX, v.maxX, step);
    const xName = offsetName('x', 'm', xAxis.offset, step);
    ctx.fillStyle = theme.muted;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    this.drawXLabels(map, r, xAxis, xName);
    ctx.strokeStyle = theme.muted;
    ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
    ctx.fillStyle = theme.fg;
    ctx.textAlign = 'left';
    ctx.fillText(xName, r.x + 2, r.y + r.h + 5);
    ctx.textBaseline = 'bottom';
    const label = this.scene.reference.kind === 'exact' ? t_('exact') : t_('reference');
    ctx.fillText(r.w < 420 ? t_('one row per integrator') : `${t_('one row per integrator')} · ${t_('dashed ring: {label}', { label })}`, r.x, r.y - 3);
  }

  // Each row's name in its colour, and "same as …" when it coincides with an earlier row. The
  // name keeps clear of the row's motion (the line the bodies, trails and coils move on): in a
  // narrow row a shorter form, in a row too short for it none (the legend names the rows).
  drawRowNotes(maps, shownLanes, theme) {
    const ctx = this.ctx, short = shownLanes.length && maps[shownLanes[0].index].row.h < rowHeight;
    ctx.font = `600 ${short ? 10 : 11}px ${theme.font}`;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    this.rowNames = [];
    for (const lane of shownLanes) {
      const m = maps[lane.index], style = laneStyle(lane.id, theme.scheme);
      const same = this.sameAs[lane.index], name = this.names[lane.index];
      const forms = same >= 0 ? [`${name} · ${t_('same as {name}', { name: this.names[same] })}`, `${name} = ${this.names[same]}`, name] : [name];
      const line = m.py(this.line), x = m.rect.x + 4, y = m.row.y + (short ? 1 : 2), h = short ? 11 : 13;
      // Above the bodies, coils and trails (the rings around the exact bodies may touch it, and
      // the anchor's hatch lies under its halo), and inside the row.
      const clear = (w) => y + h <= line - this.markerSize - 1 && x + w <= m.rect.x + m.rect.w - 4;
      const text = forms.find((f) => clear(ctx.measureText(f).width));
      this.rowNames.push({ id: lane.id, text: text ?? null, box: text ? { x, y, w: ctx.measureText(text).width, h } : null, line });
      if (!text) continue;
      ctx.globalAlpha = isFaded(lane.id) ? fadedAlpha : 1;
      this.haloText(text, x, y, style.colour, theme);
    }
    ctx.globalAlpha = 1;
    ctx.font = `11px ${theme.font}`;
  }

  // The overlay's notes on coincident lanes (drawn on top of each other, so one would hide the
  // other): "RK4 same as Velocity Verlet", at the top left. Returns the box they take ({x, y, w,
  // h} in CSS pixels), or null when there are none.
  drawSameNotes(rect, shownLanes, theme) {
    const ctx = this.ctx;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    // Under the band the frame buttons (full screen, Methods) take at the top right.
    const top = rect.y + this.buttonBand() + 2;
    let y = top, shown = 0, more = 0, width = 0;
    const note = (text, colour) => {
      this.haloText(text, rect.x + 6, y, colour, theme);
      width = Math.max(width, ctx.measureText(text).width);
      y += 14;
    };
    for (const lane of shownLanes) {
      const same = this.sameAs[lane.index];
      if (same < 0) continue;
      if (shown === 4 || y + 14 > rect.y + rect.h) { more += 1; continue; }
      note(`${this.names[lane.index]} ${t_('same as {name}', { name: this.names[same] })}`, laneStyle(lane.id, theme.scheme).colour);
      shown += 1;
    }
    if (more) note(t_('and {n} more the same', { n: more }), theme.muted);
    return y > top ? { x: rect.x + 6, y: top, w: width, h: y - top } : null;
  }

  // A lane that left the view: a marker at the view's edge pointing at its farthest body out, in
  // the lane's colour, with its distance from the view ("12 m →"); one a lane (a chain's twenty
  // bodies below the view are one stretch). Markers on one edge stack without overlapping: on
  // the left and right edges 15 px apart, on the top and bottom each label clear of the others.
  drawEdgeMarkers(maps, order, rect, theme) {
    const ctx = this.ctx, markers = [], stacked = new Map(), placed = new Map();
    // The overlay's scale bar at the bottom right (drawAxes) is taken on the bottom edge.
    if (this.layoutNow === 'overlay' && this.scaleBar) placed.set('0,-1,0', [{ lo: this.scaleBar.lo - 4, hi: this.scaleBar.hi + 4 }]);
    ctx.font = `600 11px ${theme.font}`;
    for (const lane of order) {
      const m = maps[lane.index];
      const v = m.visible(), style = laneStyle(lane.id, theme.scheme);
      let far = null;
      lane.bodies.forEach((p, b) => {
        const trail = this.trails[lane.index][b];
        const at = finite(p.x, p.y) ? p : trail[trail.length - 1];
        const out = at ? outside(at, v) : null;
        if (out && (!far || out.distance > far.out.distance)) far = { b, at, out };
      });
      if (far) {
        const { b, at, out } = far;
        const text = distanceText(out.distance, out.arrow);
        const width = ctx.measureText(text).width;
        const marker = { id: lane.id, body: b, text, distance: out.distance, x: 0, y: 0 };
        markers.push(marker);
        const r = m.rect;
        const side = `${Math.sign(out.dx)},${Math.sign(out.dy)},${layoutRowKey(m)}`;
        const n = stacked.get(side) || 0;
        stacked.set(side, n + 1);
        let x = Math.min(Math.max(m.px(at.x), r.x + 8), r.x + r.w - 8);
        let y = Math.min(Math.max(m.py(at.y), r.y + 8), r.y + r.h - 8);
        if (out.dx !== 0) y = Math.min(Math.max(y + n * 15 * (y > r.y + r.h / 2 ? -1 : 1), r.y + 8), r.y + r.h - 8);
        else x = clearOf(placed, side, x, width / 2 + 4, r);
        // Never under the frame buttons (issue 31: Full screen, Methods and Edit scene hid explicit
        // Euler's marker on Two springs): below them, its text too.
        const buttons = this.buttonsArea;
        const textLeft = out.dx > 0 ? x - 10 - width : out.dx < 0 ? x : x - width / 2;
        if (buttons && y - 16 < buttons.y1 && x + 8 > buttons.x0 && textLeft < buttons.x1) y = buttons.y1 + 16;
        const len = Math.hypot(out.dx, out.dy), ux = out.dx / len, uy = -out.dy / len;
        ctx.globalAlpha = isFaded(lane.id) ? fadedAlpha : 1;
        ctx.fillStyle = style.colour;
        ctx.strokeStyle = theme.bg;
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.moveTo(x + ux * 7, y + uy * 7);
        ctx.lineTo(x - ux * 5 - uy * 6, y - uy * 5 + ux * 6);
        ctx.lineTo(x - ux * 5 + uy * 6, y - uy * 5 - ux * 6);
        ctx.closePath();
        ctx.fill();
        ctx.stroke();
        ctx.textBaseline = 'middle';
        ctx.textAlign = 'left';
        // The text on the inner side of the arrow.
        const tx = ux > 0.3 ? x - 10 - width : ux < -0.3 ? x + 10 : Math.min(Math.max(x - width / 2, r.x + 2), r.x + r.w - width - 2);
        const ty = Math.abs(ux) > 0.3 ? y : uy > 0 ? y - 14 : y + 14;
        this.haloText(text, tx, ty, style.colour, theme);
        // Where it is drawn (CSS px): the arrow's point and the text's box, for the report.
        Object.assign(marker, { x, y, box: [Math.min(tx, x - 7), Math.min(ty, y) - 8, Math.max(tx + width, x + 7), Math.max(ty, y) + 8] });
      }
    }
    ctx.globalAlpha = 1;
    ctx.font = `11px ${theme.font}`;
    return markers;
  }

  // The plots' time cursor (a hover): every lane's bodies at that time, faint.
  drawCursorMarkers(maps, shownLanes, time, theme) {
    const i = this.history.indexAt(time);
    if (i < 0) return;
    const ctx = this.ctx, p = this.scratch;
    ctx.globalAlpha = 0.45;
    for (const lane of shownLanes) {
      const style = laneStyle(lane.id, theme.scheme), m = maps[lane.index];
      for (let b = 0; b < this.sim.bodies; ++b) {
        this.history.body(i, lane.index, b, p);
        const x = m.px(p.x), y = m.py(p.y);
        if (!nearRect(m, x, y)) continue;
        ctx.strokeStyle = style.colour;
        ctx.lineWidth = 2;
        drawMarker(ctx, style.marker, x, y, this.markSize(m, this.markerSize));
        ctx.stroke();
      }
    }
    ctx.globalAlpha = 1;
    this.cursorMarkers = true;
  }

  // A body being dragged to a new start: a ring where it would start and its start velocity.
  drawDragPreview(maps, theme) {
    const d = this.dragPreview, m = maps[d.lane];
    if (!m) return;
    const ctx = this.ctx, x = m.px(d.x), y = m.py(d.y);
    if (!nearRect(m, x, y)) return;
    ctx.strokeStyle = theme.fg;
    ctx.lineWidth = 2;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.arc(x, y, 10, 0, Math.PI * 2);
    ctx.stroke();
    ctx.setLineDash([]);
    const s = this.arrowScale(m);
    this.drawArrow(x, y, d.vx * s, -d.vy * s, theme.fg);
  }

  // An arrow of (dx, dy) pixels from (x, y), its length capped at 3 × arrowPx.
  drawArrow(x, y, dx, dy, colour) { arrowMark(this.ctx, x, y, dx, dy, colour, 3 * arrowPx); }

  // A lane's trail: the recorded one, or (scrubbing) the history's samples up to the time shown.
  drawLaneTrails(map, lane, colour, alpha, scrubbing) {
    if (!scrubbing) {
      this.drawTrails(map, this.trails[lane.index], colour, alpha);
      return;
    }
    const ctx = this.ctx, p = this.scratch, end = this.scrubIndex;
    ctx.strokeStyle = colour;
    ctx.globalAlpha = alpha * this.alpha();
    for (let b = 0; b < this.sim.bodies; ++b) {
      if (this.trailBody >= 0 && b !== this.trailBody) continue;
      const first = Math.max(0, end - trailLength);
      const at = (i) => { this.history.body(first + i, lane.index, b, p); return p; };
      const start = first + trailStart(end - first + 1, at, map, this.trailCapPx ?? Infinity);
      const path = new ClippedPath(ctx, map.rect);
      for (let i = start; i <= end; ++i) {
        this.history.body(i, lane.index, b, p);
        path.point(map.px(p.x), map.py(p.y));
      }
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }

  drawLane(map, lane, theme, scrubbing) {
    const ctx = this.ctx;
    const style = laneStyle(lane.id, theme.scheme);
    ctx.lineWidth = 2;
    ctx.setLineDash(style.dash);
    this.drawLaneTrails(map, lane, style.colour, 0.8, scrubbing);
    ctx.lineWidth = 1.25;
    ctx.globalAlpha = 0.7 * this.alpha();
    ctx.strokeStyle = style.colour;
    this.drawSprings(map, lane.bodies);
    ctx.globalAlpha = this.alpha();
    ctx.setLineDash([]);
    const scale = this.arrowScale(map), size = this.markSize(map, this.markerSize), only = this.markedBody(size);
    for (let b = 0; b < lane.bodies.length; ++b) {
      if (only >= 0 && b !== only) continue;
      const p = lane.bodies[b];
      const x = map.px(p.x), y = map.py(p.y);
      // A body outside the view is not drawn: an edge marker points at it (drawEdgeMarkers).
      if (!nearRect(map, x, y)) continue;
      if (this.arrows) this.drawArrow(x, y, p.vx * scale, -p.vy * scale, style.colour);
      ctx.fillStyle = style.colour;
      ctx.strokeStyle = theme.bg;
      ctx.lineWidth = 2;
      drawMarker(ctx, style.marker, x, y, only >= 0 ? 5 : size);
      ctx.fill();
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }

  // A stopped lane (diverged, or fallen into a central body): its trail up to the stop and a
  // small cross at its last finite position, when that is in view.
  drawStopped(map, lane, theme, scrubbing) {
    const ctx = this.ctx, r = map.rect;
    const style = laneStyle(lane.id, theme.scheme);
    ctx.lineWidth = 2;
    ctx.setLineDash(style.dash);
    this.drawLaneTrails(map, lane, style.colour, 0.5, scrubbing);
    ctx.setLineDash([]);
    ctx.strokeStyle = style.colour;
    ctx.lineWidth = 2.5;
    ctx.globalAlpha = this.alpha();
    ctx.beginPath();
    for (const p of lane.bodies) {
      const x = map.px(p.x), y = map.py(p.y);
      if (!finite(x, y) || x < r.x || x > r.x + r.w || y < r.y || y > r.y + r.h) continue;
      ctx.moveTo(x - 5, y - 5); ctx.lineTo(x + 5, y + 5);
      ctx.moveTo(x + 5, y - 5); ctx.lineTo(x - 5, y + 5);
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
}
