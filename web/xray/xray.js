// The stage X-ray (loaded on demand, the first time a user opens it): the next step of one
// integrator, every stage of it drawn on the canvas (numbered positions, the velocity and the
// acceleration used there as arrows, the result as a ring) and in the phase plot (the stages'
// numbered (q, p)), and the worked step as a table, as an exercise sheet prints it, with Copy
// (tab-separated) and CSV (the text of `stepwise trace`, made by the core). Every number comes
// from the module as the core's own text, shown rounded to 4 significant digits (the table fits
// its panel) or, with Exact, as it is; bodies are P1, P2 … as the presets' texts name them.
// Nothing from the module or the address is ever parsed as markup. A step (Step, →, Reset) moves it on to the step that is next; playing, a new config
// or another view closes it (frame()).
//
// The work is bounded and sliced like every other call into the module: the step is traced in
// slices of a few milliseconds (a tick of a stiff system is milliseconds of work), the panel reads
// and shows at most shownStageLimit stages and the result (rk45 on a stiff system has up to 14,000
// stages in one step: the table, the numbers on the canvas and their placing grew with them to
// seconds of work), and the CSV, which holds every stage, is written by the core in slices.
import { el, copyText, download } from '../common/dom.js';
import { loadStylesheet } from '../common/stylesheet.js';
import { laneStyle } from '../common/palette.js';
import { valueOf } from '../common/query.js';
import { decodeTrace, joinParts, emptyReason, tabSeparated, canvasStages, phaseStages, fitRanges, placeLabels } from './xray-model.js';
import { nextTask } from '../engine/slices.js';
import { t, marked, sentence } from '../common/language.js';
import { plainNumber, groupDigits, readableNumber } from '../common/text.js';

// The most stages the panel shows of a step (then the result): the table, the canvas and the
// phase plot; a step with more says how many it has, and its CSV holds them all.
export const shownStageLimit = 100;
// Milliseconds of the module's work per task: tracing the step, writing its CSV.
const sliceMs = 8;
// Stages read from the module in one task (each number of them is written as the core's text).
const readStages = 25;

// The table's vector columns: one cell per vector, its two components one above the other (an
// exercise sheet's layout, and narrow enough for the page's column); Copy gives one per column.
const vectors = [
  { title: marked('position x, y (m)'), columns: ['x', 'y'] },
  { title: marked('velocity vx, vy (m/s)'), columns: ['vx', 'vy'] },
  { title: marked('acceleration ax, ay (m/s²)'), columns: ['ax', 'ay'] },
];

// panel: the empty <section> the page keeps for it; page: {sim(), view(), plots(), theme(),
// laneNames(), playing(), layout(), redraw(), opener}.
export async function create(panel, page) {
  await loadStylesheet(new URL('./xray.css', import.meta.url).href);
  return new XRay(panel, page);
}

class XRay {
  constructor(panel, page) {
    this.panel = panel;
    this.page = page;
    this.shown = null;  // {sim, steps, id, lane, name, worked, drawn} while open
    this.lastId = null;
    this.build();
  }

  build() {
    const p = this.panel;
    const head = el('div', { class: 'xray-head' });
    const title = el('h3', { class: 'xray-title', text: t('X-ray of the next step') });
    title.id = 'xray-title';
    const pick = el('label', { class: 'xray-pick', text: `${t('Integrator')} ` });
    this.select = el('select');
    this.select.id = 'xray-lane';
    pick.htmlFor = 'xray-lane';
    pick.append(this.select);
    const button = (id, text, label, onClick) => {
      const b = el('button', { text });
      b.type = 'button';
      b.id = id;
      b.setAttribute('aria-label', label);
      b.title = label;
      b.addEventListener('click', onClick);
      return b;
    };
    const actions = el('span', { class: 'xray-actions' });
    actions.append(
      button('xray-copy', t('Copy'), t('Copy the worked step as tab-separated text (for a spreadsheet)'), () => this.copy()),
      button('xray-csv', 'CSV', t('Download the worked step as CSV: the text of stepwise trace'), () => this.csv()),
      button('xray-close', t('Close'), t('Close the X-ray'), () => this.close(true)),
    );
    // Rounded to 4 significant digits by default (a sheet's precision, and the table fits the
    // panel); Exact shows the core's own text, every digit (then the table may scroll sideways).
    const exact = el('label', { class: 'xray-exact' });
    this.exactBox = el('input');
    this.exactBox.type = 'checkbox';
    this.exactBox.id = 'xray-exact';
    exact.htmlFor = 'xray-exact';
    exact.append(this.exactBox, ` ${t('Exact')}`);
    exact.title = t('Every digit the core computed (as stepwise trace prints it), not rounded to 4 significant digits');
    this.exactBox.addEventListener('change', () => { if (this.shown && this.shown.worked) this.render(); });
    // Back to the sheet's step: Reset, and the X-ray moves on to step 0 (frame()).
    this.first = button('xray-first', t('Back to step 0'), t('Back to step 0: reset to t = 0 and show the first step, the exercise sheet\'s'), () => {
      const reset = document.getElementById('reset');
      if (reset) reset.click();
    });
    this.first.hidden = true;
    head.append(title, pick, exact, this.first, actions);
    this.summary = el('p', { class: 'xray-summary' });
    this.legend = el('ul', { class: 'xray-legend' });
    this.legend.setAttribute('aria-label', t('What the canvas and the phase plot show'));
    const key = (cls, text) => { const li = el('li', { class: cls }); li.append(el('span', { class: 'xray-swatch' }), el('span', { text })); return li; };
    this.legend.append(
      key('key-point', t('1, 2, …: the stages, in the order the method computes them (the table\'s #)')),
      key('key-ring', t('ring: the step\'s result')),
      key('key-velocity', t('solid arrow: the velocity used there, drawn as v·h (where it carries the body in one step)')),
      key('key-acceleration', t('dashed arrow: the acceleration found there (its direction; lengths in one scale)')),
    );
    this.scroll = el('div', { class: 'xray-scroll' });
    this.scroll.tabIndex = 0;
    this.scroll.setAttribute('role', 'region');
    this.scroll.setAttribute('aria-label', t('The worked step, stage by stage'));
    this.command = el('p', { class: 'xray-command' });
    this.status = el('p', { class: 'xray-status' });
    this.status.setAttribute('role', 'status');
    this.status.setAttribute('aria-live', 'polite');
    p.replaceChildren(head, this.summary, this.legend, this.scroll, this.command, this.status);
    p.setAttribute('aria-labelledby', 'xray-title');
    this.select.addEventListener('change', () => this.open(this.select.value));
    p.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') { e.stopPropagation(); this.close(true); }
      // The arrows scroll the table (the page's → would step, and close the X-ray).
      if (e.target === this.scroll && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) e.stopPropagation();
    });
    // Escape closes it from anywhere on the page (the canvas, the transport, the body), not only
    // from inside the panel; an open dialog's own Escape comes first.
    document.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || !this.shown || e.defaultPrevented || document.querySelector('dialog[open]')) return;
      this.close(true);
    });
  }

  // Opens (or re-opens) the X-ray of the next step of lane `id` (default: the one chosen last,
  // while it still runs, else the first lane that has not stopped: a diverged lane has no next
  // step to show). The step is traced in slices (trace()); the panel says so meanwhile.
  open(id) {
    const sim = this.page.sim();
    const ids = sim.laneIds;
    const names = this.page.laneNames();
    const runs = (l) => l >= 0 && !sim.snapshot.lanes[l].diverged;
    let lane = ids.indexOf(id || this.lastId);
    if (!id && !runs(lane)) lane = ids.findIndex((_, l) => runs(l));
    if (lane < 0) lane = Math.max(0, ids.indexOf(this.lastId));
    this.select.replaceChildren(...ids.map((laneId, l) => {
      const o = el('option', { text: names[l] });
      o.value = laneId;
      return o;
    }));
    this.select.value = ids[lane];
    this.stop();
    if (!sim.traceStart(ids[lane])) return;
    this.shown = { sim, steps: sim.snapshot.steps, id: ids[lane], lane, name: names[lane], worked: null, drawn: null, timer: null };
    this.lastId = ids[lane];
    this.first.hidden = this.shown.steps === 0;
    this.panel.style.setProperty('--lane', laneStyle(ids[lane], this.page.theme().scheme).colour);
    this.status.textContent = '';
    this.render();
    this.panel.hidden = false;
    if (this.page.opener) this.page.opener.setAttribute('aria-expanded', 'true');
    this.page.redraw();
    this.trace(this.shown);
  }

  // Traces the step in tasks of about sliceMs of the module's work each, then reads the stages
  // the panel shows (a few at a time: each number is the core's text), lays the table out and
  // draws them, each in a task of its own.
  async trace(shown) {
    const current = () => this.shown === shown && shown.sim === this.page.sim();  // not closed, moved on or replaced
    const pause = () => new Promise((resolve) => { shown.timer = setTimeout(resolve, 0); });
    await pause();
    while (current() && !shown.sim.traceRun(sliceMs)) await pause();
    if (!current()) return;
    const head = decodeTrace(shown.sim.traceStages(0, readStages));
    const parts = [head];
    const wanted = head.total <= shownStageLimit + 1 ? [[head.stages.length, head.total]] : [[head.stages.length, shownStageLimit], [head.total - 1, head.total]];
    for (const [from, to] of wanted) {
      for (let first = from; first < to; first += readStages) {
        await pause();
        if (!current()) return;
        parts.push(decodeTrace(shown.sim.traceStages(first, Math.min(readStages, to - first))));
      }
    }
    await pause();
    if (!current()) return;
    shown.worked = joinParts(parts);
    this.render();
    await pause();
    if (!current()) return;
    this.panel.getBoundingClientRect();  // its layout in this task, not in the next frame's
    this.attach();
    this.page.redraw();
  }

  // Stops the work under way for the step shown, and frees its job in the module.
  stop() {
    const s = this.shown;
    if (!s) return;
    clearTimeout(s.timer);
    s.timer = null;
    if (s.sim === this.page.sim()) s.sim.traceEnd();
    this.detach();
  }

  detach() {
    const view = this.page.view(), plots = this.page.plots();
    view.clearOverlay(this.canvasOverlay);
    if (plots.phaseOverlay === this.phaseOverlay) plots.setPhaseOverlay(null);
  }

  toggle() {
    if (this.shown) this.close(true);
    else this.open();
  }

  // Closes it and takes its drawings away; focus goes back to the button that opened it.
  close(byUser = false) {
    if (!this.shown) return;
    this.stop();
    this.shown = null;
    this.panel.hidden = true;
    this.status.textContent = '';
    if (this.page.opener) this.page.opener.setAttribute('aria-expanded', 'false');
    this.page.redraw();
    if (byUser && this.page.opener) this.page.opener.focus();
  }

  // Called before each frame is drawn: the X-ray is of one step of one simulation, in the motion
  // view, paused: a step moves it on, anything else closes it.
  frame() {
    const s = this.shown;
    if (!s) return;
    const sim = this.page.sim();
    if (sim !== s.sim || this.page.playing() || this.page.layout() !== 'motion') this.close();
    // Paused and stepped (Step, →, Reset): the X-ray moves on to the step that is next now, so a
    // student checks steps 1, 2, 3 … without reopening it.
    else if (sim.snapshot.steps !== s.steps) this.open(s.id);
  }

  render() {
    const { worked, name, id } = this.shown;
    const sim = this.shown.sim;
    this.summary.title = '';
    if (!worked) {
      this.summary.textContent = t('Tracing the next step of {name}…', { name });
      this.scroll.replaceChildren(el('span'));
      this.scroll.hidden = true;
      this.legend.hidden = true;
      this.command.replaceChildren();
      return;
    }
    if (!worked.stepped) {
      this.summary.textContent = t('{name} stopped before this step ({why}): it has no next step to show.',
        { name, why: t(worked.stop.text || worked.stop.name) });
    } else {
      const evaluations = worked.evaluations === 1 ? t('one force evaluation') : t('{n} force evaluations', { n: worked.evaluations });
      // Its t and h for people ("t = 2.983 s with h = 1/60 s"), every digit with the Exact box
      // and in the summary's title.
      const sentenceWith = (number) => t('{name}: the step from t = {t} s with h = {h} s, {evaluations}; {n} stages, the last its result.', {
        name, t: number(Number(worked.text.t), 4), h: number(Number(worked.text.h)), evaluations, n: groupDigits(worked.total),
      });
      const exactSentence = sentenceWith((x) => plainNumber(x));
      this.summary.title = exactSentence;
      let text = this.exactBox.checked ? exactSentence : sentenceWith(readableNumber);
      if (worked.stages.length < worked.total) {
        text += ` ${t('The table and the drawings show the first {shown} and the result; the CSV has all {n}.', {
          shown: groupDigits(worked.stages.length - 1), n: groupDigits(worked.total) })}`;
      }
      if (worked.stop.name) text += ` ${t('This step stops it ({why}): the run keeps the state before it.', { why: t(worked.stop.text) })}`;
      text += loopNote(sim.loop, worked.step);
      this.summary.textContent = text;
    }
    this.scroll.replaceChildren(worked.stepped ? this.table(worked) : el('span'));
    this.scroll.hidden = !worked.stepped;
    this.legend.hidden = !worked.stepped;
    this.command.replaceChildren(
      `${t('The same numbers from the command line: run stepwise trace with this page\'s setup, the integrator and the step number; the CSV is its text, every digit:')} `,
      el('code', { text: this.commandLine(sim, id) }));
  }

  commandLine(sim, id) {
    return `stepwise trace '${sim.config}' --integrator ${id} --step ${this.shown.worked.step}`;
  }

  // The worked step: a row per stage and body, the core's exact text in each cell.
  table(worked) {
    const exact = this.exactBox.checked;
    const table = el('table', { class: `xray-table${exact ? ' exact' : ''}` });
    const caption = el('caption', { class: 'visually-hidden', text: t('Each stage of the step: its position, velocity and acceleration per body, then the result') });
    const head = el('thead');
    const hr = el('tr');
    for (const [text, cls] of [['#', 'num'], [t('stage'), ''], [t('body'), 'num'], ...vectors.map((v) => [t(v.title), 'num'])]) {
      const th = el('th', { class: cls, text });
      th.scope = 'col';
      hr.append(th);
    }
    head.append(hr);
    const body = el('tbody');
    const last = worked.total;
    worked.stages.forEach((stage, index) => {
      if (index > 0 && stage.number !== worked.stages[index - 1].number + 1) {
        // The stages left out (a step with more than the panel shows): one row says how many.
        const gap = el('tr', { class: 'xray-gap' });
        const cell = el('td');
        cell.append(el('span', { text: t('… {n} more stages: the CSV has them all …', { n: groupDigits(stage.number - worked.stages[index - 1].number - 1) }) }));
        cell.colSpan = 3 + vectors.length;
        gap.append(cell);
        body.append(gap);
      }
      const rows = stage.kind === 'note' ? [stage.bodies[0]] : stage.bodies;
      rows.forEach((b, k) => {
        const tr = el('tr', { class: `kind-${stage.kind}${stage.number === last ? ' xray-result' : ''}${k === 0 ? ' first' : ''}` });
        if (k === 0) {
          const number = el('th', { class: 'num', text: String(stage.number) });
          number.scope = 'row';
          const label = el('td', { class: 'label', text: sentence('stage', stage.label) });
          number.rowSpan = rows.length;
          label.rowSpan = rows.length;
          tr.append(number, label);
        }
        tr.append(el('td', { class: 'num', text: stage.kind === 'note' ? '' : bodyName(k) }));
        for (const v of vectors) {
          const td = el('td', { class: 'num vec' });
          for (const c of v.columns) {
            const text = b.cells[worked.columns.indexOf(c)];
            const part = el('span', { class: 'part', text: plainNumber(exact ? text : rounded(text)) });
            part.dataset.column = c;
            part.dataset.exact = text;
            const why = emptyReason(stage, c, text);
            if (why) { part.title = why; part.classList.add('empty'); }
            td.append(part);
          }
          tr.append(td);
        }
        body.append(tr);
      });
    });
    table.append(caption, head, body);
    return table;
  }

  attach() {
    const view = this.page.view(), plots = this.page.plots();
    const { worked, lane, id } = this.shown;
    const stages = canvasStages(worked);
    const phase = phaseStages(worked);
    const drawn = { canvas: { points: [], labels: [], velocityArrows: 0, accelerationArrows: 0, box: stages.box }, phase: { points: [], labels: [] } };
    this.shown.drawn = drawn;
    this.canvasOverlay = {
      box: stages.box,
      draw: (ctx, map, theme) => {
        const style = laneStyle(id, theme.scheme);
        const px = (p) => ({ x: map.px(p.x), y: map.py(p.y) });
        drawn.canvas.velocityArrows = 0;
        drawn.canvas.accelerationArrows = 0;
        drawn.canvas.arrows = [];
        // The stages' path, faint, in order per body: how the method walks through the step.
        ctx.strokeStyle = style.colour;
        ctx.globalAlpha = 0.35;
        ctx.lineWidth = 1;
        for (let b = 0; b < worked.bodies; ++b) {
          const path = stages.points.filter((p) => p.body === b);
          if (path.length < 2) continue;
          ctx.beginPath();
          path.forEach((p, k) => { const q = px(p); if (k === 0) ctx.moveTo(q.x, q.y); else ctx.lineTo(q.x, q.y); });
          ctx.stroke();
        }
        ctx.globalAlpha = 1;
        for (const p of stages.points) {
          const from = px(p);
          if (p.velocity) { arrow(ctx, from, px(p.velocity), style.colour, []); drawn.canvas.velocityArrows += 1; }
          if (p.acceleration) { arrow(ctx, from, px(p.acceleration), theme.fg, [4, 3]); drawn.canvas.accelerationArrows += 1; }
          for (const tip of [p.velocity, p.acceleration]) if (tip && drawn.canvas.arrows.length < 200) drawn.canvas.arrows.push({ from, to: px(tip) });
        }
        drawn.canvas.points = [];
        for (const p of stages.points) {
          const q = px(p);
          ctx.lineWidth = 2;
          if (p.result) {
            ctx.strokeStyle = style.colour;
            ctx.beginPath(); ctx.arc(q.x, q.y, 6.5, 0, Math.PI * 2); ctx.stroke();
          } else {
            ctx.fillStyle = style.colour;
            ctx.strokeStyle = theme.bg;
            ctx.beginPath(); ctx.arc(q.x, q.y, 4, 0, Math.PI * 2); ctx.fill(); ctx.stroke();
          }
          drawn.canvas.points.push({ stage: p.stage, body: p.body, x: p.x, y: p.y, result: p.result, px: q.x, py: q.y });
        }
        // Each body named as the preset names it (P1, P2) beside its first stage, and the stage
        // numbers placed clear of each other, the points and the arrows.
        const named = new Set();
        const marks = [];
        for (const p of stages.points) {
          marks.push({ ...px(p), number: p.stage });
          if (worked.bodies > 1 && !named.has(p.body)) { named.add(p.body); marks.push({ ...px(p), text: bodyName(p.body) }); }
        }
        // (a step of few stages: a crowded one, rk45's many substeps, would take too long)
        const obstacles = [];
        if (stages.points.length <= 20) for (const p of stages.points) {
          for (const tip of [p.velocity, p.acceleration]) if (tip) obstacles.push(...segmentBoxes(px(p), px(tip)));
        }
        drawn.canvas.labels = numbers(ctx, marks, theme, map.rect, obstacles);
      },
    };
    this.phaseOverlay = {
      fit: (xr, yr) => fitRanges(phase, xr, yr),
      draw: (ctx, plot, theme) => {
        const style = laneStyle(id, theme.scheme);
        const pts = phase.map((p) => ({ x: plot.px(p.q), y: plot.py(p.p), number: p.stage, result: p.result }));
        ctx.strokeStyle = style.colour;
        ctx.lineWidth = 1;
        ctx.globalAlpha = 0.4;
        ctx.beginPath();
        pts.forEach((q, k) => { if (k === 0) ctx.moveTo(q.x, q.y); else ctx.lineTo(q.x, q.y); });
        ctx.stroke();
        ctx.globalAlpha = 1;
        for (const q of pts) {
          ctx.lineWidth = 2;
          ctx.beginPath(); ctx.arc(q.x, q.y, q.result ? 5.5 : 3.5, 0, Math.PI * 2);
          if (q.result) { ctx.strokeStyle = style.colour; ctx.stroke(); } else { ctx.fillStyle = style.colour; ctx.fill(); }
        }
        drawn.phase.points = phase.map((p, k) => ({ stage: p.stage, q: p.q, p: p.p, result: p.result, px: pts[k].x, py: pts[k].y }));
        drawn.phase.labels = numbers(ctx, pts, theme, plot.area);
      },
    };
    view.setOverlay(this.canvasOverlay);
    plots.setPhaseOverlay(this.phaseOverlay);
  }

  copy() {
    if (!this.shown || !this.shown.worked) return;
    const { worked } = this.shown;
    const text = tabSeparated(worked);
    copyText(text).then((ok) => {
      const rows = text.split('\n').length - 2;
      this.status.textContent = !ok ? t('Could not copy: select the table and copy it.')
        : worked.stages.length < worked.total
          ? t('Copied {n} rows, tab-separated: the stages shown (the CSV has all {all}).', { n: rows, all: groupDigits(worked.total) })
          : t('Copied {n} rows, tab-separated.', { n: rows });
    });
  }

  // The CSV: the core writes it (every stage, %.17g) in slices of about sliceMs, between which the
  // page draws; a step, play or Close meanwhile drops it.
  async csv() {
    const shown = this.shown;
    if (!shown || !shown.worked || shown.csv) return;
    shown.csv = true;
    const { sim, id, worked } = shown;
    const encoder = new TextEncoder();
    const parts = [];
    let next = 0;
    try {
      for (;;) {
        if (this.shown !== shown || sim !== this.page.sim()) return;
        const part = sim.traceCsv(next, sliceMs);
        parts.push(encoder.encode(part.text));
        next = part.next;
        if (!(next < worked.total)) break;
        this.status.textContent = t('Preparing the {kind}: {p} %…', { kind: 'CSV', p: Math.round((100 * next) / worked.total) });
        await nextTask();
      }
    } finally {
      shown.csv = false;
    }
    const scenario = valueOf(sim.config, 'scenario') || 'config';
    const name = `stepwise-trace-${scenario}-${id}-step${worked.step}.csv`.replace(/[^A-Za-z0-9_.-]/g, '_');
    download(new Blob(parts, { type: 'text/csv' }), name);
    this.status.textContent = t('Downloaded {file}.', { file: name });
  }

  // What the tests read: the step, the table's text, what was drawn (in world and pixel units).
  report() {
    const s = this.shown;
    if (!s) return { open: false };
    // Each row as the table shows it: #, stage (first row of a stage only), body, then x … ay.
    const rows = [...this.scroll.querySelectorAll('tbody tr:not(.xray-gap)')].map((tr) => [...tr.cells]
      .flatMap((c) => (c.classList.contains('vec') ? [...c.children].map((part) => part.textContent) : [c.textContent])));
    const exact = [...this.scroll.querySelectorAll('tbody tr:not(.xray-gap)')].map((tr) => [...tr.cells]
      .flatMap((c) => (c.classList.contains('vec') ? [...c.children].map((part) => part.dataset.exact) : [c.textContent])));
    if (!s.worked) return { open: true, tracing: true, integrator: s.id, steps: s.steps, summary: this.summary.textContent, canvas: null, phase: null };
    return {
      open: true, integrator: s.id, steps: s.steps, stepped: s.worked.stepped, stages: s.worked.total,
      shownStages: s.worked.stages.map((st) => st.number), labels: s.worked.stages.map((st) => st.label),
      summary: this.summary.textContent, rows, exact, exactShown: this.exactBox.checked,
      canvas: s.drawn ? structuredClone(s.drawn.canvas) : null, phase: s.drawn ? structuredClone(s.drawn.phase) : null,
    };
  }
}

// A body as the presets' texts name it: P1, P2, …
export const bodyName = (index) => `P${index + 1}`;

// A number of the core's text to 4 significant digits ('' stays ''; an integer stays whole).
export function rounded(text) {
  if (text === '') return text;
  const x = Number(text);
  if (!Number.isFinite(x) || (Number.isInteger(x) && Math.abs(x) < 1e6)) return text;
  return String(Number(x.toPrecision(4)));
}

// What a game loop changes about the step shown (the core's step numbers are physics steps; the
// page's Step and clock count frames).
function loopNote(loop, step) {
  if (!loop || !loop.kind) return '';
  const frame = loop.kind === 'variable' ? t(', one frame of its own length.')
    : loop.kind === 'fixed' ? (loop.substeps > 1 ? t('; every frame takes {n} of them.', { n: loop.substeps }) : t(', one frame.'))
    : t('; a frame takes the whole steps its accumulator holds, at most {n}. It starts from the ' +
      'physics state: the bodies drawn are the render state, between two physics steps.', { n: loop.maxSteps });
  return ` ${t('Game loop: this is physics step {step}', { step })}${frame}`;
}

// An arrow from a to b (pixels); none shorter than 3 px (a dot says enough).
function arrow(ctx, a, b, colour, dash) {
  const dx = b.x - a.x, dy = b.y - a.y, length = Math.hypot(dx, dy);
  if (!(length >= 3) || !Number.isFinite(length)) return;
  const ux = dx / length, uy = dy / length, head = Math.min(8, length * 0.45);
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = 1.75;
  ctx.setLineDash(dash);
  ctx.beginPath(); ctx.moveTo(a.x, a.y); ctx.lineTo(b.x - ux * head * 0.8, b.y - uy * head * 0.8); ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(b.x, b.y);
  ctx.lineTo(b.x - ux * head - uy * head * 0.45, b.y - uy * head + ux * head * 0.45);
  ctx.lineTo(b.x - ux * head + uy * head * 0.45, b.y - uy * head - ux * head * 0.45);
  ctx.closePath();
  ctx.fill();
}

// The stage numbers beside their points, with a halo, placed apart (xray-model.js placeLabels).
// area: the plot's rectangle {x, y, w, h} the numbers stay in.
function numbers(ctx, points, theme, area, obstacles = []) {
  ctx.font = `600 12px ${theme.font}`;
  const bounds = { left: area.x + 2, top: area.y + 2, right: area.x + area.w - 2, bottom: area.y + area.h - 2 };
  const labels = placeLabels(points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y)),
    (text) => ctx.measureText(text).width, 12, { bounds, obstacles });
  for (const l of labels) {
    ctx.textAlign = l.align;
    ctx.textBaseline = l.baseline;
    ctx.strokeStyle = theme.bg;
    ctx.lineWidth = 3;
    ctx.lineJoin = 'round';
    ctx.strokeText(l.text, l.x, l.y);
    ctx.fillStyle = theme.fg;
    ctx.fillText(l.text, l.x, l.y);
  }
  return labels.map((l) => ({ text: l.text, x: l.x, y: l.y, rect: l.rect }));
}

// A line from a to b (pixels) as small boxes along it, for the labels to keep clear of.
function segmentBoxes(a, b) {
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  if (!Number.isFinite(length)) return [];
  const n = Math.min(40, Math.ceil(length / 4));
  const boxes = [];
  for (let k = 1; k <= n; ++k) {
    const x = a.x + ((b.x - a.x) * k) / n, y = a.y + ((b.y - a.y) * k) / n;
    boxes.push({ left: x - 1.5, right: x + 1.5, top: y - 1.5, bottom: y + 1.5 });
  }
  return boxes;
}
