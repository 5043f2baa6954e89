// The legend: one row per lane with its colour, dash and marker, the integrator's name, its order
// on this kind of system (the core's claim; the tooltip adds the kind, every order and the note),
// symplectic badge and force evaluations per step (from the core's table), and its live energy
// drift and position error; a stopped lane says why and when (diverged, or fell into the central
// mass); with phase-space clouds, each cloud's area ratio and how many of its points are still
// finite. The ghost row names the reference the core uses. Text only through textContent.
// Each lane's name is a toggle button that highlights it (the others fade) and a second button
// hides or shows it (web/motion/lane-focus.js; the canvas and plots honour both). A lane's energy
// passing ×10 and ×1000 of its start is noted with the time; a short explanation says what
// "diverged at t = …" means.
import { laneStyle, drawMarker } from '../common/palette.js';
import { isHidden, highlightedLane, setHidden, setHighlighted, keepOnly, onLaneFocus } from '../motion/lane-focus.js';
import { valueOf } from '../common/query.js';
import { el } from '../common/dom.js';
import { methodOf, laneName } from '../common/lanes.js';
import { t, marked } from '../common/language.js';
import { fixed, formatValue, areaText, finiteText, stopText, linkText, driftText, errorText, energyMilestones, milestoneText, effectiveStepText, claimTitle } from '../common/text.js';

// Why PBD's energy jumps on a spring (issue 31: ×666 at the first step of the default spring, then −100 %).
const pbdSpringNote = marked('PBD makes each spring a rigid rod of its rest length (its stiffness unused): the first step puts the body there at once, with v = Δx/h, so the energy jumps, and then the rod holds it.');

// What "diverged at t = …" means, said once under the legend (not only in a tooltip).
export const divergedExplanation = marked('The core stops a lane at the step where its position runs away (beyond a ' +
  'million times the size of the motion) or stops being a finite number, and keeps its last good state: that step is ' +
  'the time in "diverged at t = …". The body usually left the view well before; the energy notes (×10, ×1000 ' +
  'of the start) say when it began to run away.');

// What the links' numbers are, in a tooltip.
const linksTitle = marked('links: the constraint error, the largest |length − L|/L over the links (a rigid link\'s violation; a ' +
  'compliant link\'s stretch, physical: compare it with the reference\'s); tension: the first link\'s, in N');

export class Legend {
  // container: the legend's; summary: the spoken summary's region (LiveSummary); clock: the
  // time and step above the canvas; page: the PageState (web/app/state.js).
  constructor(container, summary, clock, page) {
    this.page = page;
    this.container = container;
    this.summary = new LiveSummary(summary);
    this.clock = clock;
    this.rows = [];
    this.lastUpdate = -Infinity;
    this.size = 1;  // the motion's size (m), for what counts as round-off in the error
    this.sim = null;
    // Highlight and hide follow web/motion/lane-focus.js (changed here, or by another part of the page).
    onLaneFocus(() => this.showFocus());
    // Its colours and badges again in a new colour scheme.
    page.onThemeChange(() => this.setSimulation(page.sim));
  }

  // The buttons and rows as lane-focus.js says.
  showFocus() {
    const highlighted = highlightedLane();
    for (const row of this.rows) {
      const hidden = isHidden(row.id);
      row.li.classList.toggle('lane-hidden', hidden);
      row.li.classList.toggle('lane-faded', highlighted !== null && highlighted !== row.id);
      row.nameButton.setAttribute('aria-pressed', String(highlighted === row.id));
      row.hide.setAttribute('aria-pressed', String(hidden));
      row.hide.textContent = hidden ? t('Show') : t('Hide');
    }
  }

  // A new simulation, or the same in new colours (the colour scheme changed).
  setSimulation(sim) {
    const integrators = this.page.core.integrators, scheme = this.page.theme.scheme;
    // Rebuilt for the same run: its energy notes carry over.
    const carried = sim === this.sim ? new Map(this.rows.map((r) => [r.id, r])) : new Map();
    const carriedSteps = sim === this.sim ? this.steps : -1;
    if (sim !== this.sim) this.explainShown = false;
    this.sim = sim;
    this.container.replaceChildren();
    this.rows = [];
    this.cloudPoints = sim.cloud ? sim.cloud.points : 0;
    this.equalCost = valueOf(sim.config, 'equal_cost') === '1';
    this.dt = sim.dt;
    const byId = new Map(integrators.map((i) => [i.id, i]));
    const list = el('ul', { class: 'legend-list' });
    sim.laneIds.forEach((id, l) => {
      const info = byId.get(methodOf(id));
      const style = laneStyle(id, scheme);
      const li = el('li', { class: 'legend-row' });
      li.style.setProperty('--lane', style.colour);
      li.title = info.description;
      const swatch = el('canvas', { class: 'swatch' });
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
      // The name highlights the lane (the others fade); pressed again, nothing is highlighted.
      const name = laneName(integrators, id);
      const nameButton = el('button', { class: 'legend-name', text: name });
      nameButton.type = 'button';
      nameButton.setAttribute('aria-pressed', 'false');
      nameButton.title = t('Highlight {name} (the other lanes fade); again to stop', { name });
      nameButton.addEventListener('click', () => setHighlighted(highlightedLane() === id ? null : id));
      const hide = el('button', { class: 'lane-hide', text: t('Hide') });
      hide.type = 'button';
      hide.setAttribute('aria-pressed', 'false');
      hide.setAttribute('aria-label', t('Hide {name}', { name }));
      hide.title = t('Hide or show {name} on the canvas and the plots', { name });
      hide.addEventListener('click', () => setHidden(id, !isHidden(id)));
      const facts = el('span', { class: 'legend-facts' });
      // The table's order for the kind of system on screen (the core's claim for this lane).
      const claim = sim.scene.laneOrders ? sim.scene.laneOrders[l] : null;
      // No claim: an adaptive method's error follows its tolerance; PBD's on springs follows nothing.
      const order = el('span', { class: 'badge order', text: !claim || claim.kind === 'none' ? (info.adaptive ? t('adaptive') : t('no order here'))
        : claim.kind === 'exact' ? t('exact here') : t('order {p}', { p: claim.p }) });
      order.title = claimTitle(claim, info, sim.scene);
      facts.append(order);
      // The order a convergence study measured on this system (filled in by showMeasured()).
      const measured = el('span', { class: 'badge measured' });
      measured.hidden = true;
      facts.append(measured);
      if (info.symplectic) facts.append(el('span', { class: 'badge symplectic', text: t('symplectic') }));
      if (info.implicit) facts.append(el('span', { class: 'badge implicit', text: t('implicit') }));
      const evaluations = sim.scene.laneEvaluations ? sim.scene.laneEvaluations[l] : info.force_evaluations;
      const evals = el('span', { class: 'badge evals', text: t('{n} f/step', { n: evaluations }) });
      evals.title = t('force evaluations per step: {note}', { note: info.evaluations_note });
      facts.append(evals);
      const live = el('span', { class: 'legend-live' });
      const drift = el('span', { class: 'drift' });
      const error = el('span', { class: 'error' });
      const status = el('span', { class: 'status' });
      const milestones = el('span', { class: 'milestones' });
      // Linked systems: the constraint error and the first link's tension.
      const links = sim.layout.state.has('constraint_error') ? el('span', { class: 'links' }) : null;
      if (links) links.title = t(linksTitle);
      live.append(drift, error, ...(links ? [links] : []), status, milestones);
      // PBD on springs: the jump its energy makes at the first step is PBD's own, said where it shows.
      if (methodOf(id) === 'pbd' && sim.scene.springs.some((s) => s.kind !== 'link')) {
        live.append(el('span', { class: 'lane-note', text: t(pbdSpringNote) }));
      }
      const area = this.cloudPoints > 0 ? el('span', { class: 'area' }) : null;
      if (area) live.append(area);
      const step = this.equalCost ? el('span', { class: 'effective-dt' }) : null;
      if (step) live.append(step);
      li.dataset.lane = id;
      li.append(swatch, nameButton, hide, facts, live);
      list.append(li);
      this.rows.push({
        id, info, li, nameButton, hide, drift, error, links, status, milestones, area, step, measured, diverged: false,
        startEnergy: carried.get(id)?.startEnergy ?? NaN, passed: carried.get(id)?.passed ?? new Map(), milestoneKey: '',
      });
    });
    // The reference, as the core names it: exact (a closed form) or the tight Dormand–Prince run.
    const { reference, referencePath } = sim.scene;
    const ghost = el('li', { class: 'legend-row ghost' });
    ghost.title = t('Reference: {text}', { text: t(reference.text) });
    const ring = el('span', { class: 'ghost-ring' });
    ring.setAttribute('aria-hidden', 'true');
    const drawn = referencePath ? t('dashed ring and path') : t('dashed ring');
    const name = reference.kind === 'exact' ? t('Exact solution') : t('Reference: Dormand–Prince, tight tolerance');
    this.ghostName = el('span', { class: 'legend-name', text: `${name} (${drawn})` });
    const detail = el('span', { class: 'legend-live ghost-text', text: t(reference.text) });
    ghost.append(ring, this.ghostName, detail);
    // The reference's own constraint error and tension (a compliant link stretches physically).
    this.ghostLinks = sim.layout.state.has('reference_constraint_error') ? el('span', { class: 'legend-live links ghost-links' }) : null;
    if (this.ghostLinks) { this.ghostLinks.title = t(linksTitle); ghost.append(this.ghostLinks); }
    // The exact flow's cloud (a grey ghost in the cloud panel), where the scene has a closed form.
    this.ghostArea = this.cloudPoints > 0 && sim.cloud.exact > 0 ? el('span', { class: 'legend-live area ghost-area' }) : null;
    if (this.ghostArea) ghost.append(this.ghostArea);
    list.append(ghost);
    // What "diverged" means, once, for every lane: shown while a lane has diverged, on demand otherwise.
    this.explain = el('details', { class: 'legend-explain' });
    this.explain.append(el('summary', { text: t('What does "diverged at t = …" mean?') }), el('p', { text: t(divergedExplanation) }));
    // A run of the reference alone (rigid links: no lane, or force-based lanes that never start)
    // has no lane to explain, and its row is the legend (an embed shows it then).
    const alone = sim.snapshot.lanes.every((lane) => lane.stopReason === 'needs_compliance');
    this.explain.hidden = alone;
    list.classList.toggle('reference-alone', alone);
    this.container.append(list, this.explain);
    this.lastUpdate = -Infinity;
    this.steps = carriedSteps;
    if (this.explainShown) this.explain.open = true;
    keepOnly(sim.laneIds);
    this.showFocus();
  }

  // Every frame (cheap): the times at which each lane's energy first passed ×10 and ×1000 of its
  // start, seen at the frame's time (a step, when stepping). A reset forgets them.
  track(snapshot) {
    if (snapshot.steps === this.steps) return;
    const restarted = snapshot.steps < this.steps || this.steps < 0;
    this.steps = snapshot.steps;
    snapshot.lanes.forEach((lane, l) => {
      const row = this.rows[l];
      if (!row) return;
      if (restarted || snapshot.steps === 0) {
        row.passed.clear();
        if (snapshot.steps === 0) row.startEnergy = lane.energy;
      }
      const e0 = Math.abs(row.startEnergy);
      if (!(e0 > 0) || !Number.isFinite(lane.energy)) return;
      // A start energy that is round-off (a rope released level with its anchor: 1e-16 J) has no
      // factors to pass: a change counts once it is 1 % of the energy scale (the drift) at least.
      if (Math.abs(lane.drift) < 0.01) return;
      const t = lane.diverged ? Math.min(snapshot.t, lane.divergedAt) : snapshot.t;
      for (const f of energyMilestones) if (!row.passed.has(f) && Math.abs(lane.energy) >= f * e0) row.passed.set(f, t);
    });
  }

  // The measured orders' badges (web/panels/legend-study.js works them out): badge(id, claim)
  // gives a lane's {text, title} from its claim (the core's, for the kind of system on screen),
  // or null for none; no badge() at all hides them all.
  showMeasured(badge = () => null) {
    const { scene, laneIds } = this.sim || {};
    for (const row of this.rows) {
      const claim = scene && scene.laneOrders ? scene.laneOrders[laneIds.indexOf(row.id)] : null;
      const shown = badge(row.id, claim);
      row.measured.hidden = !shown;
      row.measured.textContent = shown ? shown.text : '';
      row.measured.title = shown ? shown.title : '';
    }
  }

  // Every frame drawn: the numbers, throttled while playing.
  frame() { this.showNumbers(!this.page.runner.playing); }

  report() { return { rows: this.rows.length }; }

  // Every number in words: the legend's (throttled while playing) and the clock; with `now`
  // (paused, stepped, reset, ended) the legend's at once and the spoken summary too. Called by the
  // frame, and at once by a pause or a step, so nothing on screen is the state of a frame ago.
  showNumbers(now) {
    const snapshot = this.page.sim.snapshot;
    this.update(snapshot, now);
    this.summary.update(snapshot, this.page.laneNames(), this.page.core.integrators, now);
    // With a game loop the page steps whole frames (a frame may hold several physics steps). The
    // time and the count are two parts: where the clock's room is short (a narrow row, the
    // "slowed" badge beside it) the count is cut, never the time (public/style.css, .clock-box).
    if (!this.clockParts) {
      this.clockParts = [document.createElement('span'), document.createElement('span')];
      this.clockParts[1].className = 'clock-count';
      this.clock.replaceChildren(...this.clockParts);
    }
    this.clockParts[0].textContent = `t = ${fixed(snapshot.t, 2)} s`;
    this.clockParts[1].textContent = ` · ${this.page.sim.loop.kind ? t('frame') : t('step')} ${snapshot.steps}`;
  }

  // Live numbers, a few times a second: readable, and cheap.
  // force: now, whatever the time since the last update (a pause, a step, a reset, the end).
  update(snapshot, force = false) {
    this.track(snapshot);
    const now = performance.now();
    if (!force && now - this.lastUpdate < 120) return;
    this.lastUpdate = now;
    // The motion's size as far as it is known (the box grows as web/engine/bounds.js finds it).
    const b = this.sim.bounds;
    this.size = b ? Math.max(b.maxX - b.minX, b.maxY - b.minY, Math.abs(b.maxX), Math.abs(b.minX), Math.abs(b.maxY), Math.abs(b.minY)) : 1;
    let anyDiverged = false;
    snapshot.lanes.forEach((lane, l) => {
      const row = this.rows[l];
      if (!row) return;
      // A lane that never started (needs_compliance) has no numbers: its status says why.
      const never = lane.stopReason === 'needs_compliance';
      row.drift.textContent = t('energy {drift}', { drift: never ? '—' : driftText(lane.drift) });
      // Once the reference has stopped there is nothing to measure the error against.
      row.error.textContent = t('error {error}', { error: snapshot.referenceStopped || never ? '—' : errorText(lane.error, this.size) });
      if (row.links) row.links.textContent = never ? '' : linkText(lane.constraintError, lane.tension);
      const key = milestoneText(row.passed);
      if (key !== row.milestoneKey) { row.milestoneKey = key; row.milestones.textContent = key; }
      anyDiverged = anyDiverged || (lane.diverged && !never);
      row.error.title = snapshot.referenceStopped
        ? t('unknown: the reference {what} at t = {t} s', { what: t(snapshot.referenceStopText), t: formatValue(snapshot.referenceStoppedAt) }) : '';
      row.status.textContent = lane.diverged ? stopText(lane, this.page.core.integrators) : '';
      if (row.step) row.step.textContent = effectiveStepText(lane, row.info, this.dt);
      if (row.area) row.area.textContent = `${areaText(lane.areaRatio)} · ${finiteText(lane.pointsFinite, this.cloudPoints)}`;
      if (row.diverged !== lane.diverged) {
        row.diverged = lane.diverged;
        row.li.classList.toggle('diverged', lane.diverged && !never);
        row.li.classList.toggle('never-started', never);
      }
    });
    // A lane diverged: its explanation is open the first time (the reader may close it again).
    if (anyDiverged && !this.explainShown) { this.explainShown = true; this.explain.open = true; }
    if (!anyDiverged && this.steps === 0) this.explainShown = false;
    if (this.ghostLinks) this.ghostLinks.textContent = linkText(snapshot.referenceConstraintError, snapshot.referenceTension);
    if (this.ghostArea) {
      this.ghostArea.textContent = Number.isFinite(snapshot.exactAreaRatio)
        ? t("exact flow's cloud (grey): {area}", { area: areaText(snapshot.exactAreaRatio) }) : '';
    }
  }
}

// The spoken summary (a visually hidden aria-live="polite" region): the numbers at a pause, a
// step or the end, and every few seconds while playing, only when its text changed. One short
// sentence: "t = 12 s: Runge–Kutta 4 energy −0.3 %; Explicit Euler diverged at t = 1.25 s."
export const summaryIntervalMs = 5000;

export function summaryText(snapshot, names, integrators) {
  const lanes = snapshot.lanes.map((lane, l) => (lane.diverged
    ? `${names[l]} ${stopText(lane, integrators)}` : `${names[l]} ${t('energy {drift}', { drift: driftText(lane.drift) })}`));
  // The reference of rigid links alone: its first link's tension.
  if (lanes.length === 0 && snapshot.linked) lanes.push(linkText(snapshot.referenceConstraintError, snapshot.referenceTension));
  return `t = ${formatValue(snapshot.t)} s: ${lanes.join('; ')}.`;
}

class LiveSummary {
  constructor(region) {
    this.region = region;
    this.last = -Infinity;
  }

  // now: the summary is due (a pause, a step); otherwise only once the interval has passed.
  update(snapshot, names, integrators, now = false) {
    const wall = performance.now();
    if (!now && wall - this.last < summaryIntervalMs) return;
    this.last = wall;
    const text = summaryText(snapshot, names, integrators);
    if (text !== this.region.textContent) this.region.textContent = text;
  }
}
