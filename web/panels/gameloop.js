// The game loop in the page (loop=fixed|variable|accumulator, core/frame_loop.hpp,
// docs/game-loops.md): its controls in the settings, built from the core's table of loop keys
// (ranges, defaults, which loops read each), and the line under the legend that names the loop
// and what the accumulator's cap dropped. The motion itself needs nothing here: with a loop the
// module's unit of time is a frame of 1/hz (Simulation.dt()), so the runner shows one new game
// frame per 1/hz of wall time, and the state it reads is what a player sees (the accumulator's
// render state).
import { withKey, valueOf } from '../common/query.js';
import { el, showNumber } from '../common/dom.js';
import { t, sentence } from '../common/language.js';
import { plainNumber, fixed } from '../common/text.js';

// The query without the given keys.
export function withoutKeys(query, keys) {
  return query.replace(/^[#?]/, '').split('&').filter((p) => p.length > 0 && !keys.includes(p.split('=')[0])).join('&');
}

// Whether a loop of `kind` with this jitter reads the key (the core's rule, from its table).
export function loopReads(spec, kind, jitter) {
  return Boolean(kind) && spec[kind] === true && (!spec.needs_jitter || jitter > 0);
}

// "slowed: 1.30 s of game time dropped in 12 frames", or '' (the core's dropped_text, from the
// state's numbers: no call into the module per frame).
export function droppedText(droppedTime, cappedFrames) {
  if (!(droppedTime > 0)) return '';
  return cappedFrames === 1 ? t('slowed: {s} s of game time dropped in 1 frame', { s: fixed(droppedTime, 2) })
    : t('slowed: {s} s of game time dropped in {n} frames', { s: fixed(droppedTime, 2), n: cappedFrames });
}

export class GameLoopPanel {
  // table: core.loopTable ({kinds, keys, rules}); controls: the settings (its dt inputs are
  // disabled while a loop sets dt); legendBar: where the loop's line goes.
  constructor({ table, controlsRoot, controls, legendBar, set, getConfig }) {
    this.table = table;
    this.controls = controls;
    this.set = set;
    this.getConfig = getConfig;
    this.loopKeys = ['loop', ...table.keys.map((k) => k.key)];
    this.line = el('p', { class: 'hint loop-line' });
    this.line.id = 'loop-line';
    this.line.hidden = true;
    legendBar.append(this.line);
    // Under the main parameters and the integrators: a loop's controls belong to the first screen.
    const after = controlsRoot.querySelector('#integrators-group');
    if (after) after.after(this.build()); else controlsRoot.append(this.build());
    this.shown = '';
  }

  build() {
    this.select = document.createElement('select');
    this.select.id = 'loop';
    this.select.setAttribute('aria-describedby', 'loop-hint');
    this.select.append(el('option', { text: t('none: steps of dt') }));
    this.select.options[0].value = '';
    for (const kind of this.table.kinds) {
      // A translated name (German) with the id the link keeps: "Akkumulator (accumulator)".
      const option = el('option', { text: kind.name ? `${kind.name} (${kind.id})` : kind.id });
      option.value = kind.id;
      option.title = kind.description;
      this.select.append(option);
    }
    this.select.addEventListener('change', () => this.chooseLoop(this.select.value));
    this.hint = el('p', { class: 'hint', text: '' });
    this.hint.id = 'loop-hint';
    this.inputs = new Map();
    const rows = this.table.keys.map((spec) => {
      const input = document.createElement('input');
      input.type = 'number';
      input.id = `loop-${spec.key}`;
      input.min = String(spec.min);
      input.max = String(spec.max);
      input.step = spec.whole ? '1' : 'any';
      input.inputMode = spec.whole ? 'numeric' : 'decimal';
      const hintId = `loop-${spec.key}-hint`;
      input.setAttribute('aria-describedby', hintId);
      input.addEventListener('change', () => this.edit(spec, input.value));
      this.inputs.set(spec.key, input);
      // The key in brackets where the label does not already say it (hz: "frame rate (hz, Hz)").
      const note = [spec.label === spec.key ? '' : spec.key, spec.unit].filter(Boolean).join(', ');
      const label = el('label', { text: note ? `${spec.label} (${note})` : spec.label });
      label.htmlFor = input.id;
      const hint = el('span', { class: 'range', text: t('{meaning}; {allowed}, default {default}', { meaning: spec.meaning, allowed: spec.allowed.replace(/ \(.*\)$/, ''), default: plainNumber(spec.default) }) });
      hint.id = hintId;
      const row = el('div', { class: 'param' });
      row.append(label, input, hint);
      return row;
    });
    const label = el('label', { text: t('Loop') });
    label.htmlFor = 'loop';
    const group = el('fieldset', { class: 'group' });
    group.id = 'loop-group';
    // The introduction is the select's description too (a wide screen shows the controls only).
    const intro = el('p', { class: 'hint loop-intro', text: t('Run the integrators inside a game\'s frame loop: ' +
      'what a player sees at this frame rate.') });
    intro.id = 'loop-intro';
    this.select.setAttribute('aria-describedby', 'loop-intro loop-hint');
    group.append(el('legend', { text: t('Game loop') }), intro, label, this.select, this.hint, ...rows);
    this.rows = new Map(this.table.keys.map((spec, i) => [spec.key, rows[i]]));
    return group;
  }

  // A new loop (or none): the keys the new loop does not read go (the core refuses them), and
  // dt goes while a loop sets it; back to no loop, dt is the loop's physics step.
  chooseLoop(kind) {
    const config = this.getConfig();
    const jitter = Number(valueOf(config, 'jitter') || 0);
    if (!kind) {
      this.set(this.withoutLoop(config));
      return;
    }
    const drop = ['dt', ...this.table.keys.filter((spec) => !loopReads(spec, kind, jitter)).map((spec) => spec.key)];
    this.set(withKey(withoutKeys(config, drop), 'loop', kind));
  }

  // The config with no loop: its keys go, and dt is the loop's physics step (the step shown).
  withoutLoop(config) {
    return withKey(withoutKeys(config, this.loopKeys), 'dt', this.step);
  }

  edit(spec, value) {
    if (value === '') { this.setSimulation(this.handle); return; }
    let config = withKey(this.getConfig(), spec.key, value);
    if (spec.key === 'jitter' && !(Number(value) > 0)) config = withoutKeys(config, ['seed']);  // no jitter, no seed
    this.set(config);
  }

  // Shows a simulation's loop: the controls, the dt inputs (set by the loop), the line.
  setSimulation(handle) {
    this.handle = handle;
    const loop = handle.loop;
    const kind = loop.kind;
    this.step = loop.step;
    this.select.value = kind;
    const description = this.table.kinds.find((k) => k.id === kind);
    this.hint.textContent = description ? description.description : t('No game loop: the integrators step dt at a time.');
    this.hint.title = this.hint.textContent;  // a wide screen shows two lines of it
    for (const spec of this.table.keys) {
      this.rows.get(spec.key).hidden = !loopReads(spec, kind, loop.jitter);  // the seed shows once there is jitter
      const input = this.inputs.get(spec.key);
      input.value = String(valueOf(handle.config, spec.key) ?? spec.default);
      input.setAttribute('aria-invalid', handle.errors.some((e) => e.key === spec.key) ? 'true' : 'false');
    }
    const { dtNumber, dtRange } = this.controls;
    dtNumber.disabled = dtRange.disabled = Boolean(kind);
    // The first screen's dt slider gives way to the loop's controls, which set the step.
    const dtRow = dtRange.closest('.slider-row');
    if (dtRow) dtRow.hidden = Boolean(kind);
    if (kind) {
      dtNumber.value = String(loop.step);
      dtRange.value = String(Math.log10(loop.step));
      showNumber(this.controls.dtOut, loop.step, 's');
    }
    this.text = kind ? t('game loop: {loop}', { loop: sentence('loop', loop.text) }) : '';
    this.shown = null;
    this.line.hidden = !kind;
  }

  // Each frame: the line, with what the cap dropped so far.
  frame(snapshot) {
    if (!this.text) return;
    const dropped = droppedText(snapshot.loopDroppedTime, snapshot.loopCappedFrames);
    const text = dropped ? `${this.text} · ${dropped}` : this.text;
    if (text !== this.shown) {
      this.line.textContent = text;
      this.line.classList.toggle('slowed', Boolean(dropped));
      this.shown = text;
    }
  }

  report() { return { loop: this.handle.loop.kind }; }
}
