// The stability view: where each selected integrator is stable on the damped oscillator
// x'' = -ω²x - 2ζωx', over ωh (log axis, 0.01 … 100, widened to take in this system's point) and
// the damping ratio ζ (0 … 1), from the core's own step functions (spectral radius ≤ 1 + 1e-12).
// Each integrator's region is computed a row at a time in slices, drawn as a light fill and an
// outline in its lane colour (its legend entry toggles it); this system's point (ω from its
// stiffest mode at the start, ζ of that mode, h = dt) is marked, and a readout gives each
// method's limit and the largest stable dt here. Text only through textContent.
import { Plot } from '../plots/plot-canvas.js';
import { laneStyle } from '../common/palette.js';
import { methodOf, laneSettings, laneName } from '../common/lanes.js';
import { Slices } from '../engine/slices.js';
import { decadeTicks, el, headedTable, labelCells } from './parts.js';
import { stepMultiples } from '../motion/coords.js';
import { valueOf } from '../common/query.js';
import { t } from '../common/language.js';
import { plainNumber, formatValue } from '../common/text.js';

// The map's grid, and its default extent (log10 of ωh; ζ).
const grid = { columns: 400, rows: 101, logMin: -2, logMax: 2, zetaMax: 1 };
const pointMargin = 0.3;        // decades kept beyond the system's point
const logLimits = [-4, 4];      // the widest the axis goes
const zetaLimit = 3;            // the highest ζ the axis goes to take in an overdamped point
const fillAlpha = 0.12;
const rowsPerCall = 4;

// '#rrggbb' as [r, g, b].
const rgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16) || 0);

// "2", "2.83", "0.2": a limit in ωh.
const limitText = (x) => formatValue(x, 3);

export function create(root, app) { return new StabilityView(root, app); }

class StabilityView {
  constructor(root, app) {
    this.app = app;
    this.element = el('div', { class: 'analysis-view stability-view' });
    this.intro = el('p', { class: 'view-intro', text: t('Every method here is linear on a damped oscillator, so one step multiplies the ' +
      'state by a fixed matrix: it is stable where that matrix\'s spectral radius is at most 1. The map shows where, ' +
      'for each step ωh (ω the oscillation\'s angular frequency, h the step) and damping ratio ζ.') });
    this.point = el('p', { class: 'hint system-point' });
    this.legend = el('ul', { class: 'stability-legend' });
    this.legend.setAttribute('aria-label', t('Integrators on the map (click to show or hide)'));
    const figure = el('figure', { class: 'stability-map' });
    const caption = el('figcaption', { text: t('Stable regions') });
    caption.append(el('span', { class: 'hint', text: t('x: ωh, log scale; y: damping ratio ζ; filled: stable (spectral radius ≤ 1 + 1e-12)') }));
    this.canvas = el('canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', t('Stable regions of each integrator over ωh and the damping ratio, with this system\'s point'));
    figure.append(caption, this.canvas);
    const plots = el('div', { class: 'analysis-plots' });
    plots.append(figure);
    this.map = new Plot(this.canvas);
    this.status = el('span', { class: 'study-status' });
    this.status.setAttribute('role', 'status');
    const columns = [t('Integrator'), t('ωh limit at ζ = 0'), t('ωh limit at this ζ'), t('Largest stable dt for this system'), t('Current dt')];
    const { wrap, headCells, tbody } = headedTable('stability-table',
      columns.map((text, k) => ({ text, className: k > 0 && k < 3 ? 'number' : '' })));
    this.headCells = headCells;
    this.tbody = tbody;
    this.element.append(this.intro, this.point, this.legend, plots, this.status, wrap);
    root.append(this.element);
    this.hidden = new Set();  // integrator ids toggled off on the map
    this.lanes = [];
    this.job = null;
    this.key = null;
    this.resize = new ResizeObserver(() => this.draw());
    this.resize.observe(this.canvas);
  }

  show(sim, restyle = false) {
    this.element.hidden = false;
    this.sim = sim;
    // What the map depends on: the integrators, dt and the system's point (not the duration).
    const key = `${sim.laneIds.join(',')}|${sim.dt}|${JSON.stringify(sim.stiffestMode)}`;
    if (key !== this.key || restyle) this.start(key);
    else this.render();
  }

  // Hidden, its grids are freed and the simulation let go (a replaced one stays deleted and
  // unreferenced); show() starts again.
  hide() {
    this.element.hidden = true;
    this.stop();
    this.sim = null;
    this.key = null;
  }

  stop() {
    if (this.job) this.job.cancel();
    this.job = null;
    for (const lane of this.lanes) lane.grid?.delete();
    for (const lane of this.lanes) lane.grid = null;
  }

  start(key) {
    this.stop();
    this.key = key;
    const { sim } = this;
    const mode = sim.stiffestMode;
    const infos = new Map(this.app.core.integrators.map((i) => [i.id, i]));
    // The system's point: ωh = ω dt at its damping ratio, when it oscillates at all.
    this.system = mode.oscillates && mode.omega > 0 && Number.isFinite(mode.omega)
      ? { omegaH: mode.omega * sim.dt, zeta: Math.max(0, mode.zeta), omega: mode.omega } : null;
    const logPoint = this.system ? Math.log10(this.system.omegaH) : grid.logMin;
    const logMin = Math.max(logLimits[0], Math.min(grid.logMin, logPoint - pointMargin));
    const logMax = Math.min(logLimits[1], Math.max(grid.logMax, logPoint + pointMargin));
    const zetaMax = this.system ? Math.min(zetaLimit, Math.max(grid.zetaMax, this.system.zeta * 1.1)) : grid.zetaMax;
    this.extent = { logMin, logMax, zetaMax };
    const scheme = this.app.theme.scheme;
    this.lanes = sim.laneIds.map((id, l) => {
      const info = infos.get(methodOf(id));
      const off = document.createElement('canvas');
      off.width = grid.columns;
      off.height = grid.rows;
      const pixels = off.getContext('2d').createImageData(grid.columns, grid.rows);
      return {
        // The map and the limits are its method's in ωh of the substep; a lane of S substeps
        // steps h = dt/S, so its largest stable dt is S times the method's.
        id, method: methodOf(id), substeps: laneSettings(id)?.substeps || 1, name: laneName(this.app.core.integrators, id),
        info, colour: laneStyle(id, scheme).colour, grid: null, radii: null, rowsDrawn: 0, image: off, pixels,
        limit0: null, limitHere: null, step: null, everywhere: true,  // every cell so far stable
      };
    });
    // The work, in probes of the core's oscillator (a row of the map is `columns` of them; a
    // limit's scan about 1700): limits first (the readout), then each method's map.
    const tasks = [];
    for (const [l, lane] of this.lanes.entries()) {
      tasks.push({ cost: 1700, run: () => { lane.limit0 = this.app.core.stabilityLimit(lane.method, 0); return true; } });
      if (this.system) {
        // The limit at the system's ζ, the largest stable dt and the verdict at the lane's step:
        // the core's, as `stepwise stability` prints them.
        tasks.push({ cost: 1700, run: () => {
          lane.step = this.laneStep(l);
          lane.limitHere = this.app.core.laneStability(lane.method, lane.substeps, this.system.omega, this.system.zeta, lane.step);
          return true;
        } });
      }
    }
    for (const lane of this.lanes) {
      if (lane.info.adaptive) continue;  // rk45 subdivides its own step: stable everywhere
      tasks.push({
        cost: grid.columns, rows: true,
        run: (rows) => {
          if (!lane.grid) {
            lane.grid = this.app.core.createStabilityGrid(lane.method, {
              columns: grid.columns, rows: grid.rows, omegaHMin: Math.pow(10, logMin), omegaHMax: Math.pow(10, logMax), zetaMax,
            });
          }
          lane.grid.fill(rows);
          lane.radii = lane.grid.radii();
          if (!lane.grid.done) return false;
          lane.grid.delete();
          lane.grid = null;
          return true;
        },
      });
    }
    this.total = tasks.reduce((sum, t) => sum + (t.rows ? t.cost * grid.rows : t.cost), 0);
    this.done = 0;
    this.state = 'running';
    this.buildLegend();
    this.render();
    let next = 0;
    this.job = new Slices((units, deadline) => {
      let budget = units;
      while (next < tasks.length && budget > 0 && performance.now() < deadline) {
        const task = tasks[next];
        if (task.rows) {
          // A few rows a call, so the deadline is checked often (a row's cost varies with ζ and ωh).
          const rows = Math.max(1, Math.min(rowsPerCall, Math.floor(budget / task.cost)));
          const finished = task.run(rows);
          budget -= rows * task.cost;
          this.done += rows * task.cost;
          if (finished) next += 1;
        } else {
          task.run();
          budget -= task.cost;
          this.done += task.cost;
          next += 1;
        }
      }
      return next >= tasks.length;
    }, {
      initialUnits: 2000, minUnits: 200, maxUnits: 1e6,
      onSlice: () => this.render(),
      onDone: () => { this.job = null; this.state = 'done'; this.done = this.total; this.render(); },
    }).start();
  }

  buildLegend() {
    this.legend.replaceChildren(...this.lanes.map((lane) => {
      const li = el('li');
      const button = el('button', { text: lane.name });
      button.type = 'button';
      button.style.setProperty('--lane', lane.colour);
      button.setAttribute('aria-pressed', String(!this.hidden.has(lane.id)));
      button.title = lane.info.adaptive ? t('adaptive: stable at any dt (its controller subdivides)') : t('show or hide its stable region');
      button.addEventListener('click', () => {
        if (this.hidden.has(lane.id)) this.hidden.delete(lane.id); else this.hidden.add(lane.id);
        button.setAttribute('aria-pressed', String(!this.hidden.has(lane.id)));
        this.draw();
      });
      lane.note = el('span', { class: 'hint', text: '' });
      li.append(button, lane.note);
      return li;
    }));
  }

  // The step lane l really takes: dt, or with equal cost s·dt for a method of s evaluations a
  // step (implicit Euler and rk45: their measured average so far).
  laneStep(l) {
    const state = this.sim.snapshot?.lanes?.[l];
    if (!this.equalCost || !state) return this.sim.dt;
    if (state.stride > 0) return state.stride * this.sim.dt;
    return Number.isFinite(state.effectiveDt) && state.effectiveDt > 0 ? state.effectiveDt : this.sim.dt;
  }

  // The readout of one lane: [limit at ζ = 0, limit at the system's ζ, largest stable dt, current dt].
  readout(lane) {
    const { system, sim } = this;
    const pending = '…';
    if (lane.info.adaptive) {
      const text = t('adaptive: stable at any dt (its controller subdivides)');
      return [t('adaptive'), t('adaptive'), text, t('stable')];
    }
    const limitCell = (l) => (!l ? pending : l.unconditional ? t('any ωh') : l.limit > 0 ? limitText(l.limit) : t('none (unstable at every ωh)'));
    const limit0 = limitCell(lane.limit0);
    if (!system) return [limit0, t('no oscillation here'), t('any dt (no oscillation to destabilise)'), t('stable')];
    const here = lane.limitHere;
    if (!here) return [limit0, pending, pending, pending];
    if (here.unconditional) return [limit0, t('any ωh'), t('any dt'), t('stable')];
    const h = lane.step / lane.substeps;
    const stable = here.stable_now;
    const at = h !== sim.dt ? ` ${t('at its step {h} s', { h: formatValue(h) })}` : '';
    const current = (stable ? t('stable') : t('unstable (ωh = {w} > {limit})', { w: limitText(here.omega_h), limit: limitText(here.limit) })) + at;
    const cells = [limit0, limitCell(here), here.limit > 0 ? `${formatValue(here.largest_stable_dt)} s` : t('none'), current];
    cells.unstable = !stable;  // the row's verdict colour (not read from the text, which is translated)
    return cells;
  }

  report() {
    return {
      view: 'stability', state: this.state, progress: this.total ? this.done / this.total : 0,
      system: this.system ? { ...this.system } : null, mark: this.marked ?? null,
      rows: !this.sim ? [] : this.lanes.map((lane) => {
        const [limit0, limitHere, largestDt, current] = this.readout(lane);
        return { id: lane.id, limit0, limitHere, largestDt, current };
      }),
    };
  }

  render() {
    const { system, sim } = this;
    this.headCells[2].textContent = system ? t('ωh limit at ζ = {zeta} (this system)', { zeta: formatValue(system.zeta) }) : t('ωh limit at this system\'s ζ');
    this.equalCost = valueOf(sim.config, 'equal_cost') === '1';
    this.headCells[4].textContent = this.equalCost ? t('Each lane\'s step (equal cost)') : `dt = ${formatValue(sim.dt)} s`;
    this.element.classList.toggle('undamped', !system || system.zeta === 0);
    const scene = sim.scene;
    const nonlinear = scene && (scene.centres.length > 0 || scene.reference.kind !== 'exact');
    this.point.textContent = system
      ? t('This system: its fastest mode at the start has ω = {omega} rad/s and ζ = {zeta}; with dt = {dt} s its point is ' +
        'ωh = {w} (the ringed cross on the map{edge}).', {
        omega: formatValue(system.omega), zeta: formatValue(system.zeta), dt: formatValue(sim.dt), w: formatValue(system.omegaH),
        edge: system.zeta > this.extent.zetaMax
          ? t(", drawn on the top edge: its ζ is above the map's {max}", { max: formatValue(this.extent.zetaMax) }) : '',
      }) +
        (nonlinear ? ` ${t('This system is nonlinear, so its stiffness changes along the path (an orbit\'s is largest at its closest ' +
          'approach): a dt stable at the start may not be stable everywhere.')}` : '')
      : t('This system does not oscillate (no restoring force, as for a projectile): there is no ωh to mark, and no step ' +
        'size makes it unstable in this sense. The map shows the methods on the oscillator.');
    this.status.textContent = this.state === 'done' ? '' : t('Computing the map: {p} %', { p: Math.round((this.total ? this.done / this.total : 0) * 100) });
    for (const lane of this.lanes) {
      if (!lane.note) continue;
      const whole = lane.info.adaptive || (lane.everywhere && lane.rowsDrawn === grid.rows);
      // What the map leaves out of the method, after what it shows (a sentence of its own).
      const parts = [whole ? t('stable on the whole map') : '', lane.info.stability_note].filter(Boolean);
      lane.note.textContent = parts.length ? ` ${parts.join('. ')}` : '';
    }
    this.tbody.replaceChildren(...this.lanes.map((lane) => {
      const tr = el('tr');
      tr.style.setProperty('--lane', lane.colour);
      const cells = this.readout(lane);
      tr.append(el('td', { class: 'lane-name', text: lane.name }), ...cells.map((text, k) => el('td', { class: k < 2 ? 'number' : '', text })));
      labelCells(tr, this.headCells);
      if (cells.unstable) tr.lastChild.className = 'verdict-loses';
      return tr;
    }));
    this.draw();
  }

  // Each lane's new rows into its offscreen image (one pixel a cell, stable ones in its colour).
  paint(lane) {
    if (!lane.radii) return;
    const from = lane.rowsDrawn, data = lane.pixels.data;
    const [red, green, blue] = rgb(lane.colour);
    for (let r = from; r < grid.rows; ++r) {
      if (!(lane.radii[r * grid.columns] >= 0)) break;  // NaN: not filled yet
      const base = (grid.rows - 1 - r) * grid.columns * 4;
      for (let c = 0; c < grid.columns; ++c) {
        if (!this.stable(lane, r, c)) { lane.everywhere = false; continue; }
        const i = base + 4 * c;
        data[i] = red; data[i + 1] = green; data[i + 2] = blue; data[i + 3] = 255;
      }
      lane.rowsDrawn = r + 1;
    }
    if (lane.rowsDrawn > from) lane.image.getContext('2d').putImageData(lane.pixels, 0, 0);
  }

  stable(lane, r, c) { return lane.radii[r * grid.columns + c] <= 1 + 1e-12; }

  draw() {
    if (!this.sim || this.element.hidden || !this.extent) return;
    const theme = this.app.theme, p = this.map, { logMin, logMax, zetaMax } = this.extent;
    // Cells are centred on their samples: the axes run half a cell beyond the first and last.
    const halfX = (logMax - logMin) / (grid.columns - 1) / 2, halfY = zetaMax / (grid.rows - 1) / 2;
    p.begin(theme);
    // Below ζ = 0 room for this system's ringed cross (11 px) at ζ = 0: inside the frame, whole.
    const below = Math.max(halfY, ((zetaMax + halfY) * 13) / Math.max(1, p.area.h - 13));
    const xr = [logMin - halfX, logMax + halfX], yr = [-below, zetaMax + halfY];
    const step = zetaMax > 1.5 ? 0.5 : 0.25;
    const yTicks = stepMultiples(0, zetaMax, step, 1e-9).map((k) => ({ value: k * step, label: plainNumber(Number((k * step).toFixed(2))) }));
    p.axes(theme, xr, yr, decadeTicks(xr[0], xr[1], 8), yTicks, t('ωh (log scale)'), t('damping ratio ζ'));
    const x = (c) => p.px(logMin + (c - 0.5) * 2 * halfX), y = (r) => p.py((r - 0.5) * 2 * halfY);
    p.clip((ctx) => {
      for (const lane of this.lanes) {
        if (this.hidden.has(lane.id) || !lane.radii) continue;
        this.paint(lane);
        // Stable on the whole map (implicit Euler, the kinematic integrator on one spring): a
        // fill over everything would only wash out the others; its legend entry says so instead.
        if (lane.everywhere) continue;
        ctx.imageSmoothingEnabled = false;
        ctx.globalAlpha = fillAlpha;
        ctx.drawImage(lane.image, x(0), y(grid.rows), x(grid.columns) - x(0), y(0) - y(grid.rows));
        ctx.globalAlpha = 1;
        // The outline: every edge between a stable and an unstable cell.
        ctx.strokeStyle = lane.colour;
        ctx.lineWidth = 1.75;
        ctx.setLineDash(laneStyle(lane.id, theme.scheme).dash);
        ctx.beginPath();
        for (let r = 0; r < lane.rowsDrawn; ++r) {
          for (let c = 0; c < grid.columns; ++c) {
            const here = this.stable(lane, r, c);
            if (c + 1 < grid.columns && here !== this.stable(lane, r, c + 1)) { ctx.moveTo(x(c + 1), y(r)); ctx.lineTo(x(c + 1), y(r + 1)); }
            if (r + 1 < lane.rowsDrawn && here !== this.stable(lane, r + 1, c)) { ctx.moveTo(x(c), y(r + 1)); ctx.lineTo(x(c + 1), y(r + 1)); }
          }
        }
        ctx.stroke();
        ctx.setLineDash([]);
      }
    });
    // Drawn over the frame, not clipped by it: at ζ = 0 the point sits on the bottom axis.
    if (this.system) this.mark(p.ctx, p, theme);
  }

  // The system's point: a ringed cross, labelled.
  mark(ctx, p, theme) {
    const X = p.px(Math.log10(this.system.omegaH)), Y = p.py(Math.min(this.system.zeta, this.extent.zetaMax));
    if (!Number.isFinite(X) || !Number.isFinite(Y)) return;
    ctx.strokeStyle = theme.fg;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(X, Y, 7, 0, 2 * Math.PI);
    ctx.moveTo(X - 11, Y); ctx.lineTo(X + 11, Y);
    ctx.moveTo(X, Y - 11); ctx.lineTo(X, Y + 11);
    ctx.stroke();
    this.marked = { left: X - 11, top: Y - 11, right: X + 11, bottom: Y + 11, area: { ...p.area } };
    const text = t('this system (ωh = {w})', { w: formatValue(this.system.omegaH) });
    ctx.font = `600 11px ${theme.font}`;
    const width = ctx.measureText(text).width;
    const right = X + 14 + width <= p.area.x + p.area.w - 2;
    ctx.textAlign = right ? 'left' : 'right';
    ctx.textBaseline = 'bottom';
    const ty = Math.max(p.area.y + 14, Y - 8);
    ctx.lineWidth = 3;
    ctx.strokeStyle = theme.bg;
    ctx.strokeText(text, right ? X + 12 : X - 12, ty);
    ctx.fillStyle = theme.fg;
    ctx.fillText(text, right ? X + 12 : X - 12, ty);
  }
}
