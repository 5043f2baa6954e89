// The legend: one row per lane with its colour, dash and marker, the integrator's name, its order
// on this kind of system (the core's claim; the tooltip adds the kind, every order and the note),
// symplectic badge and force evaluations per step (from the core's table), and its live energy
// drift and position error; a stopped lane says why and when (diverged, or fell into the central
// mass); with phase-space clouds, each cloud's area ratio and how many of its points are still
// finite. The ghost row names the reference the core uses. Text only through textContent.
import { laneStyle, drawMarker } from './palette.js';
import { formatValue } from './coords.js';
import { areaText } from './cloud.js';
import { orderText, claimTitle } from './study.js';
import { valueOf } from './links.js';
import { el as element } from './dom.js';

// "2,000 points finite", "1,234 of 2,000 points finite".
export function finiteText(finite, points) {
  const n = (k) => Math.max(0, Math.round(k)).toLocaleString('en-US');
  return finite >= points ? `${n(points)} points finite` : `${n(finite)} of ${n(points)} points finite`;
}


// Why and when a lane stopped, in the core's words: "diverged at t = 1.2 s", "fell into the
// central mass at t = 1.12 s", "needed more than 50000 rk45 substeps in one step … at t = 10 s".
export function stopText(lane) {
  return `${lane.stopText} at t = ${formatValue(lane.divergedAt)} s`;
}

// Equal cost: the step a lane effectively takes. "step 4 × dt = 0.04 s"; for a method whose cost
// varies, the measured average, rk45 with its fitted tolerance; "at t = 0.74 s" when the lane is
// behind the clock (it is drawn at that state).
export function effectiveStepText(lane, info, dt) {
  // Always written (never appearing and vanishing, which made the cards jump): its own time.
  const behind = Number.isFinite(lane.laneTime) ? ` · at t = ${formatValue(lane.laneTime)} s` : '';
  if (lane.stride > 0) return `step ${lane.stride} × dt = ${formatValue(lane.stride * dt)} s${behind}`;
  const rtol = info.adaptive && Number.isFinite(lane.rtol) ? ` · rtol ${formatValue(lane.rtol)}` : '';
  return `step ≈ ${formatValue(lane.effectiveDt)} s (measured)${rtol}${behind}`;
}

export class Legend {
  constructor(container) {
    this.container = container;
    this.rows = [];
    this.lastUpdate = -Infinity;
  }

  build(sim, integrators, scheme) {
    this.container.replaceChildren();
    this.rows = [];
    this.cloudPoints = sim.cloud ? sim.cloud.points : 0;
    this.equalCost = valueOf(sim.config, 'equal_cost') === '1';
    this.dt = sim.dt;
    const byId = new Map(integrators.map((i) => [i.id, i]));
    const list = element('ul', 'legend-list');
    sim.laneIds.forEach((id, l) => {
      const info = byId.get(id);
      const style = laneStyle(id, scheme);
      const li = element('li', 'legend-row');
      li.style.setProperty('--lane', style.colour);
      li.title = info.description;
      const swatch = element('canvas', 'swatch');
      swatch.width = 56;
      swatch.height = 28;
      swatch.setAttribute('aria-hidden', 'true');
      const ctx = swatch.getContext('2d');
      ctx.scale(2, 2);
      ctx.strokeStyle = style.colour;
      ctx.lineWidth = 2;
      ctx.setLineDash(style.dash);
      ctx.beginPath(); ctx.moveTo(1, 7); ctx.lineTo(27, 7); ctx.stroke();
      ctx.fillStyle = style.colour;
      drawMarker(ctx, style.marker, 14, 7, 4.5);
      ctx.fill();
      const name = element('span', 'legend-name', info.name);
      const facts = element('span', 'legend-facts');
      // The table's order for the kind of system on screen (the core's claim for this lane).
      const claim = sim.scene.laneOrders ? sim.scene.laneOrders[l] : null;
      const order = element('span', 'badge order', !claim || claim.kind === 'none' ? 'adaptive'
        : claim.kind === 'exact' ? 'exact here' : `order ${claim.p}`);
      order.title = claimTitle(claim, info, sim.scene);
      facts.append(order);
      // The order a convergence study measured on this system (filled in by measured()).
      const measured = element('span', 'badge measured');
      measured.hidden = true;
      facts.append(measured);
      if (info.symplectic) facts.append(element('span', 'badge symplectic', 'symplectic'));
      if (info.implicit) facts.append(element('span', 'badge implicit', 'implicit'));
      const evals = element('span', 'badge evals', `${info.force_evaluations} f/step`);
      evals.title = `force evaluations per step: ${info.evaluations_note}`;
      facts.append(evals);
      const live = element('span', 'legend-live');
      const drift = element('span', 'drift');
      const error = element('span', 'error');
      const status = element('span', 'status');
      live.append(drift, error, status);
      const area = this.cloudPoints > 0 ? element('span', 'area') : null;
      if (area) live.append(area);
      const step = this.equalCost ? element('span', 'effective-dt') : null;
      if (step) live.append(step);
      li.append(swatch, name, facts, live);
      list.append(li);
      this.rows.push({ id, info, li, drift, error, status, area, step, measured, diverged: false });
    });
    // The reference, as the core names it: exact (a closed form) or the tight Dormand–Prince run.
    const { reference, referencePath } = sim.scene;
    const ghost = element('li', 'legend-row ghost');
    ghost.title = `Reference: ${reference.text}`;
    const ring = element('span', 'ghost-ring');
    ring.setAttribute('aria-hidden', 'true');
    const drawn = referencePath ? 'dashed ring and path' : 'dashed ring';
    const name = reference.kind === 'exact' ? 'Exact solution' : 'Reference: Dormand–Prince, tight tolerance';
    this.ghostName = element('span', 'legend-name', `${name} (${drawn})`);
    const detail = element('span', 'legend-live ghost-text', reference.text);
    ghost.append(ring, this.ghostName, detail);
    // The exact flow's cloud (a grey ghost in the cloud panel), where the scene has a closed form.
    this.ghostArea = this.cloudPoints > 0 && sim.cloud.exact > 0 ? element('span', 'legend-live area ghost-area') : null;
    if (this.ghostArea) ghost.append(this.ghostArea);
    list.append(ghost);
    this.container.append(list);
    this.lastUpdate = -Infinity;
  }

  // The measured orders of a finished study of this system (null: none yet).
  measured(results) {
    const byId = new Map((results ? results.rows : []).map((r) => [r.id, r]));
    for (const row of this.rows) {
      const fit = byId.get(row.id)?.fit;
      const text = fit ? orderText(fit) : '';
      row.measured.hidden = text === '';
      row.measured.textContent = text ? `measured ${text}` : '';
      row.measured.title = text ? 'the order a convergence study measured on this system (Convergence view)' : '';
    }
  }

  // Live numbers, a few times a second: readable, and cheap.
  update(snapshot, force = false) {
    const now = performance.now();
    if (!force && now - this.lastUpdate < 120) return;
    this.lastUpdate = now;
    snapshot.lanes.forEach((lane, l) => {
      const row = this.rows[l];
      if (!row) return;
      row.drift.textContent = `energy ${lane.drift >= 0 ? '+' : '−'}${formatValue(Math.abs(lane.drift) * 100)} %`;
      // Once the reference has stopped there is nothing to measure the error against.
      row.error.textContent = snapshot.referenceStopped ? 'error —' : `error ${formatValue(lane.error)} m`;
      row.error.title = snapshot.referenceStopped
        ? `unknown: the reference ${snapshot.referenceStopText} at t = ${formatValue(snapshot.referenceStoppedAt)} s` : '';
      row.status.textContent = lane.diverged ? stopText(lane) : '';
      if (row.step) row.step.textContent = effectiveStepText(lane, row.info, this.dt);
      if (row.area) row.area.textContent = `${areaText(lane.areaRatio)} · ${finiteText(lane.pointsFinite, this.cloudPoints)}`;
      if (row.diverged !== lane.diverged) {
        row.diverged = lane.diverged;
        row.li.classList.toggle('diverged', lane.diverged);
      }
    });
    if (this.ghostArea) {
      this.ghostArea.textContent = Number.isFinite(snapshot.exactAreaRatio)
        ? `exact flow's cloud (grey): ${areaText(snapshot.exactAreaRatio)}` : '';
    }
  }
}
