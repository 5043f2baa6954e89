// The motion canvas's tools: the layout (overlay or a row per integrator), zoom (buttons, the
// wheel, a pinch), pan (a drag on the empty canvas), Reset view, Follow a body, velocity arrows,
// the timeline that scrubs back through the recorded motion, and dragging a body (or the tip of
// its velocity arrow, or with Shift) to set its start position (or velocity). Starts are set
// through the config, so the link keeps them and a bad value gets the core's message.
import { setCursor, cursorTime, cursorSource } from './cursor.js';
import { valueOf, withKey } from '../common/query.js';
import { niceStep } from './coords.js';
import { t } from '../common/language.js';
import { fixed } from '../common/text.js';
import { el } from '../common/dom.js';


const zoomStep = 1.25;
const timelineIntervalMs = 250;

// page: the PageState (web/app/state.js): the simulation, the runner and the core; view: the
// canvas's (web/motion/view.js); apply(query): a config (a dragged start); wheel: the wheel zooms
// (off in a small embed, where it must scroll the host page).
export class ViewTools {
  constructor(root, { page, view, apply, wheel }) {
    this.page = page;
    this.view = view;
    this.apply = apply;
    this.wheel = wheel;
    const id = (name) => `view-${name}`;
    this.layoutSelect = el('select', { id: id('layout') }, [
      el('option', { value: 'auto', text: t('Auto') }),
      el('option', { value: 'overlay', text: t('Overlay') }),
      el('option', { value: 'lanes', text: t('Lanes') }),
    ]);
    this.followSelect = el('select', { id: id('follow') });
    this.arrowsBox = el('input', { type: 'checkbox', id: id('arrows') });
    const button = (name, text, title) => el('button', { type: 'button', id: id(name), title, text });
    // A symbol's button: the symbol hidden from screen readers, the name as (visually hidden) text,
    // so what is seen never contradicts the accessible name.
    const symbolButton = (name, symbol, label, title) => el('button', { type: 'button', id: id(name), title }, [
      el('span', { 'aria-hidden': 'true', text: symbol }), el('span', { class: 'visually-hidden', text: label }),
    ]);
    this.zoomIn = symbolButton('zoom-in', '+', t('Zoom in'), t('Zoom in (or the wheel, a pinch)'));
    // ASCII '-': axe cannot judge the contrast of U+2212 (a symbol to it), as with '+' it can.
    this.zoomOut = symbolButton('zoom-out', '-', t('Zoom out'), t('Zoom out'));
    this.reset = button('reset', t('Reset view'), t('Back to the fitted view (a drag on the canvas pans it)'));
    this.bar = el('div', { class: 'motion-tools', role: 'toolbar', 'aria-label': t('View') }, [
      el('span', { class: 'tool' }, [el('label', { for: id('layout'), text: t('Layout') }), this.layoutSelect]),
      el('span', { class: 'zoom' }, [this.zoomOut, this.zoomIn]), this.reset,
      el('span', { class: 'tool' }, [el('label', { for: id('follow'), text: t('Follow') }), this.followSelect]),
      el('label', { class: 'check', for: id('arrows') }, [this.arrowsBox, ` ${t('Velocity arrows')}`]),
    ]);
    this.timeline = el('input', { type: 'range', id: 'timeline', min: '0', max: '0', step: 'any', value: '0', 'aria-valuetext': 't = 0.00 s' });
    this.timelineOut = el('output', { for: 'timeline', class: 'timeline-out', text: 't = 0.00 s' });
    this.timelineRow = el('div', { class: 'timeline' }, [
      el('label', { for: 'timeline', text: t('Timeline') }), this.timeline, this.timelineOut,
    ]);
    // A touch screen has no Shift and no keys: its hint says what fingers do.
    const touch = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
    this.hint = el('p', { class: 'hint motion-hint', id: id('hint'), text: touch
      ? t('Drag a body to move its start, or its arrow\'s tip to set its velocity; drag the canvas to pan, pinch to zoom.')
      : t('Drag a body to move its start (Shift, or its arrow\'s tip: its velocity); drag the canvas to pan; keys on the canvas: Shift + arrows, +, −, 0.') });
    root.replaceChildren(this.bar, this.timelineRow, this.hint);
    this.shownMax = -1;
    this.lastShown = -Infinity;

    this.layoutSelect.addEventListener('change', () => { this.view.setLayoutChoice(this.layoutSelect.value); this.changed(); });
    this.followSelect.addEventListener('change', () => {
      const [lane, body] = this.followSelect.value.split('/');
      this.view.setFollowBody(lane ? { id: lane, body: Number(body) } : null);
      this.changed();
    });
    this.arrowsBox.addEventListener('change', () => { this.view.setArrows(this.arrowsBox.checked); this.changed(); });
    this.zoomIn.addEventListener('click', () => this.zoomCentre(zoomStep));
    this.zoomOut.addEventListener('click', () => this.zoomCentre(1 / zoomStep));
    this.reset.addEventListener('click', () => { this.view.resetView(); this.followSelect.value = ''; this.changed(); });
    this.timeline.addEventListener('input', () => this.scrub(Number(this.timeline.value)));
    this.bindPointer(this.view.canvas);
  }

  changed() { this.page.redraw(); }

  zoomCentre(factor) {
    const r = this.view.map && this.view.map.rect;
    if (!r) return;
    this.view.zoomAt(factor, r.x + r.w / 2, r.y + r.h / 2);
    this.changed();
  }

  // A new simulation: the follow list (each lane's bodies) and the lanes option.
  setSimulation(sim) {
    const names = this.page.laneNames();
    const options = [el('option', { value: '', text: t('Nothing') })];
    sim.laneIds.forEach((lane, l) => {
      for (let b = 0; b < sim.bodies; ++b) {
        options.push(el('option', { value: `${lane}/${b}`, text: sim.bodies > 1 ? t('{name}, body {b}', { name: names[l], b: b + 1 }) : names[l] }));
      }
    });
    this.followSelect.replaceChildren(...options);
    const f = this.view.followBody;
    this.followSelect.value = f ? `${f.id}/${f.body}` : '';
    if (this.followSelect.value === '' && f) this.view.setFollowBody(null);
    this.syncLanesOption();
    this.shownMax = -1;
    if (cursorSource() === 'timeline') setCursor(null, 'timeline');
  }

  // Every frame: the timeline's range (0 to now) and position; playing ends a scrub.
  frame(snapshot, playing) {
    if (playing && cursorSource() === 'timeline') setCursor(null, 'timeline');
    const t = snapshot.t;
    const scrub = cursorSource() === 'timeline' ? cursorTime() : null;
    const shown = scrub === null ? t : scrub;
    // Its time every frame, as the clock above the canvas shows it (its width is fixed).
    const text = `t = ${fixed(Number.isFinite(shown) ? shown : 0, 2)} s`;
    if (this.timelineOut.textContent !== text) this.timelineOut.textContent = text;
    // While playing, the slider moves a few times a second: each change lays the slider out.
    const now = performance.now();
    if (playing && now - this.lastShown < timelineIntervalMs) return;
    this.lastShown = now;
    if (t !== this.shownMax) {
      this.shownMax = t;
      this.timeline.max = String(Number.isFinite(t) ? t : 0);
      this.timeline.step = String(this.page.sim.dt);
    }
    if (Number(this.timeline.value) !== shown && document.activeElement !== this.timeline) this.timeline.value = String(shown);
    if (this.timeline.getAttribute('aria-valuetext') !== text) this.timeline.setAttribute('aria-valuetext', text);
    this.syncLanesOption();
  }

  // Lanes only for a one-dimensional motion (known better once the motion's box is).
  syncLanesOption() {
    const option = this.layoutSelect.options[2], off = this.view.line === null;
    if (option.disabled !== off) option.disabled = off;
  }

  // The timeline moved: pause, and show (here and in the plots and legend) the motion at t.
  scrub(t) {
    const runner = this.page.runner;
    if (runner.playing) runner.pause();
    const now = this.page.sim.snapshot.t;
    setCursor(t >= now ? null : t, 'timeline');
    const text = `t = ${fixed(t, 2)} s`;
    this.timelineOut.textContent = text;
    this.timeline.setAttribute('aria-valuetext', text);
    this.changed();
  }

  bindPointer(canvas) {
    const pointers = new Map();  // id -> {x, y}
    let action = null;           // {kind: 'pan'|'pinch'|'body', …}
    const at = (e) => {
      const r = canvas.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    };
    canvas.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      const p = at(e);
      pointers.set(e.pointerId, p);
      canvas.setPointerCapture(e.pointerId);
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        action = { kind: 'pinch', distance: Math.hypot(a.x - b.x, a.y - b.y) };
        this.view.setDragPreview(null);
        return;
      }
      action = this.startBodyDrag(p, e.shiftKey) || { kind: 'pan', last: p, moved: false };
    });
    canvas.addEventListener('pointermove', (e) => {
      if (!pointers.has(e.pointerId) || !action) return;
      const p = at(e);
      const before = pointers.get(e.pointerId);
      pointers.set(e.pointerId, p);
      if (action.kind === 'pinch' && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        if (action.distance > 0 && d > 0) this.view.zoomAt(d / action.distance, (a.x + b.x) / 2, (a.y + b.y) / 2);
        action.distance = d;
      } else if (action.kind === 'pan') {
        this.view.panBy(p.x - before.x, p.y - before.y);
      } else if (action.kind === 'body') {
        // A click on a body is not a drag: the run is taken back to t = 0 once it moves.
        if (!action.started && Math.hypot(p.x - action.from.x, p.y - action.from.y) < 3) return;
        if (!action.started) this.beginBodyDrag(action);
        this.moveBodyDrag(action, p);
      }
      this.changed();
    });
    const end = (e) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.delete(e.pointerId);
      if (action && action.kind === 'body' && e.type === 'pointerup') this.finishBodyDrag(action);
      this.view.setDragPreview(null);
      action = null;
      this.changed();
    };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
    // The focused canvas: Shift + arrow keys pan, + and − zoom, 0 resets the view (plain → still
    // steps the run, as everywhere on the page).
    canvas.tabIndex = 0;
    canvas.setAttribute('aria-keyshortcuts', 'Shift+ArrowLeft Shift+ArrowRight Shift+ArrowUp Shift+ArrowDown + - 0');
    canvas.addEventListener('keydown', (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const pan = e.shiftKey && { ArrowLeft: [40, 0], ArrowRight: [-40, 0], ArrowUp: [0, 40], ArrowDown: [0, -40] }[e.key];
      if (pan) this.view.panBy(pan[0], pan[1]);
      else if (e.key === '+' || e.key === '=') this.zoomCentre(zoomStep);
      else if (e.key === '-' || e.key === '−') this.zoomCentre(1 / zoomStep);
      else if (e.key === '0') { this.view.resetView(); this.followSelect.value = ''; } else return;
      e.preventDefault();
      e.stopPropagation();
      this.changed();
    });
    canvas.addEventListener('wheel', (e) => {
      if (!this.wheel && !e.ctrlKey) return;  // a small embed: the wheel scrolls the host page
      e.preventDefault();
      const p = at(e);
      this.view.zoomAt(Math.pow(zoomStep, -Math.sign(e.deltaY)), p.x, p.y);
      this.changed();
    }, { passive: false });
  }

  // The config keys of body b's start position and velocity: the scenario's two-component
  // parameters whose value is that body's start (the scene's) and its start velocity (the state
  // at t = 0), preferring ones the core labels as a position or a velocity. null when none.
  startKeys(b) {
    const sim = this.page.sim, config = sim.config;
    const info = this.page.core.scenarios.find((s) => s.id === valueOf(config, 'scenario'));
    if (!info) return null;
    const lane = sim.snapshot.lanes[0], start = sim.scene.bodies[b] && sim.scene.bodies[b].start;
    if (!lane || !start) return null;
    const vector = (key) => (valueOf(config, key) || '').split(',').map(Number);
    const find = (x, y, word) => {
      const matches = info.params.filter((p) => p.dims === 2).filter((p) => {
        const [vx, vy] = vector(p.key);
        return vx === x && vy === y;
      });
      return (matches.find((p) => p.label.includes(word)) || matches[0] || {}).key || null;
    };
    const position = find(start.x, start.y, 'position');
    const body = lane.bodies[b];
    const velocity = find(body.vx, body.vy, 'velocity');
    return position && velocity ? { position, velocity } : null;
  }

  // A press on a body (or its arrow's tip, or with Shift): the run goes back to t = 0 and the
  // drag sets that body's start. null when nothing draggable is under the pointer.
  startBodyDrag(p, shift) {
    const sim = this.page.sim;
    const hit = this.view.hitBody(p.x, p.y, sim.snapshot.lanes);
    if (!hit) return null;
    const keys = this.startKeys(hit.body);
    if (!keys) return null;
    return { kind: 'body', lane: hit.lane, body: hit.body, velocity: shift || hit.tip, keys, from: p, started: false, moved: false };
  }

  // The drag really starts: paused, back at t = 0, from the body's start.
  beginBodyDrag(action) {
    const runner = this.page.runner, sim = this.page.sim;
    runner.pause();
    if (sim.snapshot.t !== 0) runner.reset();
    const start = sim.snapshot.lanes[action.lane].bodies[action.body];
    Object.assign(action, { started: true, x: start.x, y: start.y, vx: start.vx, vy: start.vy });
  }

  moveBodyDrag(action, p) {
    const view = this.view, w = view.worldAt(p.x, p.y, action.lane);
    const oneLine = view.layoutNow === 'lanes';
    if (action.velocity) {
      const m = view.maps[action.lane], s = view.arrowScale(m);
      const bx = m.px(action.x), by = m.py(action.y);
      action.vx = (p.x - bx) / s;
      action.vy = oneLine ? action.vy : -(p.y - by) / s;
    } else {
      action.x = w.x;
      if (!oneLine) action.y = w.y;
    }
    action.moved = true;
    view.setDragPreview({ lane: action.lane, body: action.body, x: action.x, y: action.y, vx: action.vx, vy: action.vy });
  }

  // The new start into the config (rounded to a hundredth of the view's grid step, or of the
  // fastest speed's): the page applies it, and shows the core's message if it is refused.
  finishBodyDrag(action) {
    if (!action.moved) return;
    const view = this.view, v = view.map.visible();
    const round = (value, step) => {
      const decimals = Math.max(0, Math.min(12, -Math.floor(Math.log10(step))));
      const text = fixed(Math.round(value / step) * step, decimals);
      return Number(text) === 0 ? '0' : String(Number(text));
    };
    const sim = this.page.sim;
    let query;
    if (action.velocity) {
      const step = niceStep(Math.max(view.speedMax, Math.hypot(action.vx, action.vy), 1e-9), 100);
      query = withKey(sim.config, action.keys.velocity, `${round(action.vx, step)},${round(action.vy, step)}`);
    } else {
      const step = niceStep(v.maxX - v.minX, 100);
      query = withKey(sim.config, action.keys.position, `${round(action.x, step)},${round(action.y, step)}`);
    }
    this.apply(query);
  }
}
