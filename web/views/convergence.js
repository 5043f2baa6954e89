// The convergence view: the core's convergence study of this config (every integrator at dt,
// dt/2, …), run in slices off the animation path with a progress bar, then two log–log plots,
// max position error against dt and against force evaluations (work–precision), one colour per
// integrator (the motion view's lane colours) and a marker per level, and a table: each
// integrator's table order for this kind of system (the core's claim, with its note), its measured
// order and a verdict in words. A new config cancels the
// study and starts another. With a game-physics solver among the lanes, the study can vary its
// iterations instead (dt fixed, doubled at each level): what they converge to, and whether that
// is the exact motion. Text only through textContent.
import { Plot } from '../plots/plot-canvas.js';
import { laneStyle, drawMarker } from '../common/palette.js';
import { methodOf, laneName, iterationsText } from '../common/lanes.js';
import { runStudy, studySizes, storedStudy, covers, physicsKey, verdict, motionSize, claimFor } from '../engine/study.js';
import { decadeTicks, logRange, el, headedTable, labelCells } from './parts.js';
import { t } from '../common/language.js';
import { formatValue, measuredText, floorText, claimTitle } from '../common/text.js';

export function create(root, app) { return new ConvergenceView(root, app); }

// The verdict on one row of an iterations study (dt fixed, the lane's iterations doubled), from
// the core's trend of its errors: {kind, text, order: null, over: null}. kind: exact (at the
// noise floor), settled (on the step's own error: not the exact motion), falling, diverged,
// pending, unfit.
function iterationsVerdict(row) {
  const plain = (kind, text) => ({ kind, text, order: null, over: null });
  const points = row.points;
  if (points.length === 0) return plain('pending', t('not run yet'));
  const stopped = points.find((q) => q.stopReason !== '');
  if (stopped) return plain('diverged', t('{why} at {iterations}', { why: t(stopped.stopText), iterations: iterationsText(stopped.iterations) }));
  const trend = row.trend;
  if (!trend.valid) return plain('unfit', t('too few levels to say where the iterations go'));
  const first = points[0], last = points[points.length - 1];
  const values = {
    error: formatValue(last.maxError), iterations: iterationsText(last.iterations), first: formatValue(first.maxError),
    iterations0: iterationsText(first.iterations),
    change: formatValue(100 * trend.change), dt: formatValue(first.dt),
  };
  if (trend.atFloor) return plain('exact', t('reaches the exact motion (the noise floor) by {iterations}', values));
  if (trend.settled) {
    return plain('settled', t('settled on {error} m by {iterations}: the step\'s own error at dt = {dt} s, not the ' +
      'exact motion; more substeps or a smaller dt reduce it, more iterations do not', values));
  }
  return plain('falling', last.maxError < first.maxError
    ? t('still falling: {first} m at {iterations0}, {error} m at {iterations} ({change} % at the last doubling)', values)
    : t('still changing: {first} m at {iterations0}, {error} m at {iterations} ({change} % at the last doubling)', values));
}


// Whether a method's note (what else its order depends on) concerns the system on screen: when
// the core's table gives it different orders on different kinds of system (apart from those it
// follows exactly), or when this system is damped or has drag (the notes of methods whose order
// damping leaves alone say why). A note about damping is no note on an undamped spring.
const noteApplies = (info, scene) => Boolean(scene.dissipative) ||
  new Set(Object.values(info.orders || {}).filter((o) => o !== 'exact').map(String)).size > 1;

class ConvergenceView {
  constructor(root, app) {
    this.app = app;
    this.element = el('div', { class: 'analysis-view convergence-view' });
    this.intro = el('p', { class: 'view-intro' });
    // What the levels vary: dt, or (offered when a lane has iterations) a solver's iterations.
    this.axis = 'dt';
    this.axisChoice = el('label', { class: 'study-axis' });
    this.axisSelect = el('select');
    this.axisSelect.append(el('option', { text: t('dt, halved at each level') }), el('option', { text: t('iterations, doubled at each level (dt fixed)') }));
    this.axisSelect.options[0].value = 'dt';
    this.axisSelect.options[1].value = 'iterations';
    this.axisSelect.addEventListener('change', () => { this.axis = this.axisSelect.value; this.start(false); });
    this.axisChoice.append(el('span', { text: t('Vary') }), this.axisSelect);
    this.progress = el('progress');
    this.progress.max = 1;
    this.progress.value = 0;
    this.progress.setAttribute('aria-label', t('Convergence study progress'));
    this.button = el('button', { class: 'study-button', text: t('Cancel') });
    this.button.type = 'button';
    this.button.addEventListener('click', () => (this.job ? this.cancel() : this.start(true)));
    this.status = el('span', { class: 'study-status' });
    this.status.setAttribute('role', 'status');
    const bar = el('div', { class: 'study-bar' });
    bar.append(this.axisChoice, this.progress, this.button, this.status);
    const figure = (title, hint, label) => {
      const f = el('figure');
      const caption = el('figcaption', { text: title });
      caption.append(el('span', { class: 'hint', text: hint }));
      const canvas = el('canvas');
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', label);
      f.append(caption, canvas);
      return { figure: f, plot: new Plot(canvas) };
    };
    const byDt = figure(t('Max position error against dt'), t('log–log; slope = order; a marker per level'),
      t('Largest position error of each integrator against its time step, log–log'));
    this.byDtCaption = byDt.figure.querySelector('figcaption');
    const byWork = figure(t('Work–precision'), t('max error against force evaluations of the whole run, log–log; lower left is better'),
      t('Largest position error of each integrator against the force evaluations it spent, log–log'));
    this.byDt = byDt.plot;
    this.byWork = byWork.plot;
    const plots = el('div', { class: 'analysis-plots' });
    plots.append(byDt.figure, byWork.figure);
    const { wrap, tbody, headCells } = headedTable('study-table', [
      { text: t('Integrator') }, { text: t('Table order'), className: 'number' }, { text: t('Measured order'), className: 'number' },
      { text: t('Verdict') },
    ]);
    this.tbody = tbody;
    this.headCells = headCells;
    this.floor = el('p', { class: 'hint study-floor' });
    // Which of the table's orders applies: the core's kind of system, and the notes of the
    // integrators whose order depends on more than that.
    this.regime = el('p', { class: 'hint study-regime' });
    this.notes = el('ul', { class: 'hint study-notes' });
    this.element.append(this.intro, bar, plots, this.regime, wrap, this.notes, this.floor);
    root.append(this.element);
    this.job = null;
    this.key = null;
    this.results = null;
    this.state = 'idle';
  }

  // Shows the study of sim's config: the one already run or running for the same physics, or a
  // new one. restyle: only the colours changed (dark mode).
  show(sim, restyle = false) {
    this.element.hidden = false;
    this.sim = sim;
    // The iterations axis is offered while a lane has iterations; without one, dt again.
    const infos = new Map(this.app.core.integrators.map((i) => [i.id, i]));
    const iterating = sim.laneIds.some((id) => infos.get(methodOf(id))?.default_iterations > 0);
    this.axisChoice.hidden = !iterating;
    if (!iterating) this.axis = 'dt';
    this.axisSelect.value = this.axis;
    if (!restyle && this.studyKey() !== this.key) this.start(false);
    else this.render();
  }

  studyKey() { return `${physicsKey(this.sim.config)}|${this.axis}`; }

  // Hidden, it lets the simulation go (show() is given the page's then): a replaced one stays
  // deleted and unreferenced.
  hide() {
    this.element.hidden = true;
    if (this.job) this.cancel();
    this.sim = null;
  }

  // A study of the current config: a finished one of the same physics is reused unless asked again.
  start(again) {
    if (this.job) this.job.cancel();
    this.job = null;
    const { sim, axis } = this;
    this.key = this.studyKey();
    const stored = again ? null : storedStudy(sim.config, axis);
    if (covers(stored, studySizes.full)) {
      this.finish(stored.results);
      return;
    }
    this.results = null;
    this.state = 'running';
    this.fraction = 0;
    this.button.textContent = t('Cancel');
    this.render();
    this.job = runStudy(this.app.core, sim.config, studySizes.full, {
      axis,
      onProgress: (results, fraction) => { this.results = results; this.fraction = fraction; this.render(); },
      onDone: (results) => { this.job = null; this.finish(results); this.app.studied(); },
    });
  }

  finish(results) {
    this.results = results;
    this.state = 'done';
    this.fraction = 1;
    this.button.textContent = t('Run again');
    this.render();
  }

  cancel() {
    if (this.job) this.job.cancel();
    this.job = null;
    this.state = 'cancelled';
    this.key = null;  // coming back starts afresh
    this.button.textContent = t('Restart');
    this.render();
  }

  // Plain numbers and words for the tests and window.stepwise.debug.analysis().
  report() {
    const r = this.results;
    return {
      view: 'convergence', axis: this.axis, state: this.state, progress: this.fraction || 0,
      levelsDone: r ? r.levelsDone : 0, noiseFloor: r ? r.noiseFloor : null,
      rows: this.rowsShown || [],
    };
  }

  render() {
    const r = this.results;
    this.progress.value = this.fraction || 0;
    this.status.textContent = this.statusText();
    this.floor.textContent = r ? floorText(r) : '';
    if (!this.sim) return;
    const theme = this.app.theme;
    const infos = new Map(this.app.core.integrators.map((i) => [i.id, i]));
    const { scene, laneIds } = this.sim;
    const byIterations = this.axis === 'iterations';
    this.intro.textContent = byIterations
      ? t('Each game-physics solver runs this system again at its dt and substeps with its iterations doubled at each ' +
        'level, and its largest position error is measured against the exact or reference solution. Where the error ' +
        'settles is the step\'s own error: only substeps or a smaller dt reduce it.')
      : t('Each integrator runs this system again at dt, dt/2, dt/4, … and its largest ' +
        'position error is measured against the exact or reference solution. On a log–log plot an integrator of order p ' +
        'is a line of slope p: halving dt divides its error by 2^p.');
    this.byDtCaption.firstChild.textContent = byIterations ? t('Max position error against iterations') : t('Max position error against dt');
    this.byDtCaption.lastChild.textContent = byIterations ? t('log–log; a marker per level') : t('log–log; slope = order; a marker per level');
    const iterating = (id) => (infos.get(methodOf(id))?.default_iterations || 0) > 0;
    const rows = r ? r.rows : laneIds.filter((id) => !byIterations || iterating(id)).map((id) => ({ id, points: [], fit: { valid: false } }));
    // The kind of system and the methods' notes say which order in dt applies: not along iterations.
    this.regime.textContent = scene.regime && !byIterations
      ? t("This system: {regime}. The table order is each method's order on that kind of system.", { regime: t(scene.regime.text) }) : '';
    this.rowsShown = rows.map((row) => {
      const info = infos.get(methodOf(row.id));
      const claim = claimFor(scene, laneIds, row.id);
      const none = { order: null, over: null };
      const v = r && r.levels === 0 && this.state === 'done' ? { kind: 'unfit', text: t('not run (over the work cap)'), ...none }
        : r ? (byIterations ? iterationsVerdict(row) : verdict(row, claim, scene, r, motionSize(this.sim)))
          : { kind: 'pending', text: this.state === 'cancelled' ? t('cancelled') : t('running…'), ...none };
      const measured = measuredText(v);
      return {
        id: row.id, name: laneName(this.app.core.integrators, row.id),
        tableOrder: !byIterations && claim && claim.kind !== 'none' ? (claim.kind === 'exact' ? t('exact') : claim.text) : '—', claimTitle: claimTitle(claim, info, scene),
        note: noteApplies(info, scene) ? info.order_note : '', measured: measured.order, measuredOver: measured.over, verdict: v.text, kind: v.kind,
      };
    });
    // The notes that concern this system; every note is also in its table order's tooltip.
    this.notes.replaceChildren(...this.rowsShown.filter((row) => row.note && !byIterations)
      .map((row) => el('li', { text: `${row.name}: ${row.note}` })));
    this.tbody.replaceChildren(...this.rowsShown.map((row, l) => {
      const tr = el('tr');
      const name = el('td', { class: 'lane-name', text: row.name });
      tr.style.setProperty('--lane', laneStyle(row.id, theme.scheme).colour);
      const order = el('td', { class: 'number', text: row.tableOrder });
      order.title = row.claimTitle;
      // The order the verdict rests on, and over which dts when the coarser ones were set aside.
      const measured = el('td', { class: 'number', text: row.measured || '—' });
      if (row.measured && row.measuredOver) measured.append(el('span', { class: 'measured-over', text: row.measuredOver }));
      tr.append(name, order, measured, el('td', { class: `verdict-${row.kind}`, text: row.verdict }));
      labelCells(tr, this.headCells);
      return tr;
    }));
    this.draw(r, theme);
  }

  statusText() {
    const r = this.results;
    if (this.state === 'cancelled') return t('Cancelled. Restart runs the study again.');
    if (!r) return t('Starting…');
    const dts = r.rows[0]?.points.map((p) => p.dt) || [];
    const range = !dts.length ? ''
      : this.axis === 'iterations'
        ? t('dt {dt} s, iterations ×1 … ×{k}', { dt: formatValue(dts[0]), k: 2 ** (dts.length - 1) })
        : `dt ${formatValue(dts[0])} s … ${formatValue(dts[dts.length - 1])} s`;
    const reference = r.reference === 'exact' ? t('against the exact solution') : t('against a tight Dormand–Prince reference');
    const left = r.levelsRequested - r.levels;
    const dropped = left > 0
      ? ` ${left === 1 ? t('The finest level was left out to keep the study to seconds.')
        : t('The {n} finest levels were left out to keep the study to seconds.', { n: left })}`
      : '';
    if (this.state === 'done' && r.levels === 0) {
      // Every level runs the whole duration: even the coarsest is over the page's work cap.
      const steps = Math.ceil(Number(new URLSearchParams(this.sim.config).get('duration')) / this.sim.dt) * (r.rows.length + 1);
      return t("Not run: even the coarsest level needs {steps} integrator steps, more than the page's {max}. " +
        'Shorten the duration or raise dt for a study.', { steps: formatValue(steps), max: formatValue(studySizes.full.maxWork) });
    }
    // No lane that steps this system: the reference of rigid links alone (asked for), or
    // force-based methods on them (needs_compliance). Nothing was measured, and the status says why.
    if (this.state === 'done' && !r.rows.some((row) => row.points.some((p) => p.stopReason === ''))) {
      return t('Nothing to measure: no integrator here can step this system. Rigid links (compliance 0) are ' +
        'stepped by the game-physics solvers (a rigid system\'s own lanes); or set compliance above 0 to measure the ' +
        'force-based methods\' orders.');
    }
    if (this.state === 'done') return `${t('Done: {n} levels, {range}, {reference}.', { n: r.levelsDone, range, reference })}${dropped}`;
    return t('Running: {done} of {n} levels done ({p} %){range}.', {
      done: r.levelsDone, n: r.levels, p: Math.round((this.fraction || 0) * 100), range: range ? `, ${range}` : '',
    });
  }

  draw(r, theme) {
    const points = r ? r.rows.flatMap((row) => row.points.filter((p) => p.stopReason === '')) : [];
    const floor = r && r.noiseFloor > 0 ? r.noiseFloor : 1e-16;
    // The errors' own range; the floor's line shows when the errors come near it.
    const yr = logRange(points.map((p) => Math.max(p.maxError, floor)), 2) || [Math.log10(floor), Math.log10(floor) + 4];
    if (this.axis === 'iterations') {
      this.plot(this.byDt, theme, r, logRange(points.map((p) => p.iterations), 1) || [0, 2], yr, (p) => p.iterations,
        t('iterations per substep, log'), floor);
    } else {
      this.plot(this.byDt, theme, r, logRange(points.map((p) => p.dt), 1) || [-4, -1], yr, (p) => p.dt, t('dt (s), log'), floor);
    }
    this.plot(this.byWork, theme, r, logRange(points.map((p) => p.evaluations), 1) || [2, 6], yr, (p) => p.evaluations,
      t('force evaluations, log'), floor);
  }

  // One log–log plot: every row's line through its levels that ran to the end, a marker at each,
  // errors at or below the floor drawn on the floor's dashed line.
  plot(p, theme, r, xr, yr, x, xName, floor) {
    p.begin(theme);
    p.axes(theme, xr, yr, decadeTicks(xr[0], xr[1]), decadeTicks(yr[0], yr[1], 6), xName, t('max position error (m), log'));
    const fy = Math.log10(floor);
    p.clip((ctx) => {
      if (fy >= yr[0]) this.floorLine(ctx, p, fy, theme);
      if (!r) return;
      r.rows.forEach((row, l) => {
        const style = laneStyle(row.id, theme.scheme);
        const ran = row.points.filter((pt) => pt.stopReason === '');
        const X = (pt) => Math.log10(x(pt)), Y = (pt) => Math.log10(Math.max(pt.maxError, floor));
        p.line(ran.length, (i) => X(ran[i]), (i) => Y(ran[i]), style);
        ctx.fillStyle = style.colour;
        for (const pt of ran) {
          const px = p.px(X(pt)), py = p.py(Y(pt));
          if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
          drawMarker(ctx, style.marker, px, py, 3.5);
          ctx.fill();
        }
      });
    });
  }

  // The noise floor: a dashed line, labelled.
  floorLine(ctx, p, fy, theme) {
    ctx.strokeStyle = theme.ghost;
    ctx.setLineDash([4, 4]);
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(p.area.x, p.py(fy));
    ctx.lineTo(p.area.x + p.area.w, p.py(fy));
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = theme.ghost;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'bottom';
    ctx.fillText(t('floor'), p.area.x + p.area.w - 4, p.py(fy) - 2);
  }
}
