// The scene editor (loaded by web/editor/entry.js the first time "Edit scene" is pressed): an
// Edit mode on the motion canvas for a built scene. Entering it pauses the run at t = 0 and draws
// the scene's start state over a light grid (through the view's overlay hook, View.setOverlay);
// its tools add bodies and anchors, join two points with a spring or a rod, move, pin, delete
// and set a body's start velocity by its arrow; the inspector beside the selection edits its
// numbers. Every edit goes through the core (core.sceneText writes and checks the text): a value
// it refuses shows its message beside the field and the scene stays the last valid one. Each
// valid edit becomes the link's scene= value (applied at once when a drag ends, otherwise at most
// three times a second) and a step of undo. Leaving Edit mode (or Play) runs what was built.
import { loadStylesheet } from '../common/stylesheet.js';
import {
  copyModel, defaultsOf, endOf, elementOfEnd, sameEnd, sameElement, pointOf, exists, stepElement,
  addBody, addAnchor, join, setFields, remove, togglePin, extent, pointLists, joinLists,
} from './scene-model.js';

// The config key of a built scene: the one place the page names it (not a scenario id).
const sceneKey = 'scene';
// The link follows the edits at most this often (replaceState costs 15–25 ms; some browsers refuse rapid calls).
const applyIntervalMs = 340;
// A velocity arrow shows where the body would be after this long (so 1 m/s is half a metre on screen).
const arrowSeconds = 0.5;
const hitPx = { mouse: 12, touch: 22 };
const metres = (v) => `${formatValue(v, 4)} m`;

// The page's helpers, handed over by web/editor/entry.js (page.shared) rather than imported: a
// module loaded on demand that imports the first frame's modules makes the bundler split those
// out of the page's main file into chunks of their own, which the first frame then loads too.
let el, t, coreMessage, formatValue, valueOf, withKey, withRodLanes, ClippedPath, niceStep, stepMultiples, anchorMark, arrowMark;
// Marks a text of a table for translation (web/common/language.js marked): t() translates it where shown.
const marked = (english) => english;

export async function createEditor(page) {
  ({ el, t, coreMessage, formatValue, valueOf, withKey, withRodLanes, ClippedPath, niceStep, stepMultiples, anchorMark, arrowMark } = page.shared);
  await loadStylesheet(new URL('./editor.css', import.meta.url).href);
  return new SceneEditor(page);
}

// The tools: what a press on the canvas does.
const tools = [
  { id: 'move', label: marked('Move'), key: 'm', title: marked('Select and drag bodies and anchors (m)') },
  { id: 'body', label: marked('Body'), key: 'b', title: marked('A click or tap on the empty canvas adds a body (b adds one at the cursor)') },
  { id: 'anchor', label: marked('Anchor'), key: 'a', title: marked('A click or tap on the empty canvas adds an anchor, a fixed point (a)') },
  { id: 'springs', label: marked('Spring'), key: 's', title: marked('Drag from one body or anchor to another (or tap both) to join them with a spring (s)') },
  { id: 'links', label: marked('Rod'), key: 'l', title: marked('Drag from one body or anchor to another (or tap both) to join them with a rigid rod (l)') },
];

// The inspector's fields per kind of element: the model's field and its label (with its unit;
// the meaning, from the core's grammar table, is the field's title).
const fieldRows = {
  anchors: [['x', marked('x (m)')], ['y', marked('y (m)')]],
  bodies: [['x', marked('x (m)')], ['y', marked('y (m)')], ['m', marked('mass (kg)')], ['vx', marked('vx (m/s)')], ['vy', marked('vy (m/s)')]],
  springs: [['k', marked('k (N/m)')], ['d', marked('damping (N·s/m)')], ['rest', marked('rest length (m)')]],
  links: [['alpha', marked('α (m/N), 0: rod')], ['d', marked('damping (N·s/m)')], ['rest', marked('rest length (m)')]],
};
const kindNames = { anchors: marked('Anchor {n}'), bodies: marked('Body {n}'), springs: marked('Spring {n}'), links: marked('Link {n}') };

class SceneEditor {
  constructor(page) {
    this.page = page;
    this.core = page.core;
    this.view = page.view;
    this.canvas = page.view.canvas;
    this.defaults = defaultsOf(this.core.sceneGrammar);
    this.open = false;
    this.model = null;        // the scene as the last valid edit left it
    this.draft = null;        // the model being dragged (drawn; committed when the drag ends)
    this.text = '';           // its text, as the core wrote it
    this.history = [];        // scene texts, for undo and redo
    this.at = -1;             // the history's current entry
    this.selection = null;    // {list, index}
    this.tool = 'move';
    this.joining = null;      // {kind, from: end, target: end|null, pointer: {x, y}|null}: a join under way
    this.action = null;       // a pointer's press: {kind: 'move'|'velocity'|'join'|'empty', pointer, from, moved, …}
    this.box = null;          // the world box shown while editing
    this.map = null;          // the last drawn map
    this.cursor = null;       // the pointer's last place over the canvas (pixels), for keys that add
    this.snap = true;
    this.lastApply = -Infinity;
    this.applyTimer = null;
    this.applies = 0;
    this.placing = 0;         // the inspector's placing, waiting for the next frame
    this.pinch = 0;           // two fingers' distance (pixels) while they pinch
    this.timings = { inputMs: 0, applyMs: 0 };  // the longest input handled, the longest apply
    this.accent = '#0b63c5';
    this.overlay = { box: null, draw: (ctx, map, theme) => this.draw(ctx, map, theme) };
    this.build();
    this.bind();
  }

  // --- The page's side: the panel contract (setSimulation, frame, report), enter and leave. ---

  // A new simulation (this editor's own edit, undo, a link typed, another system chosen).
  setSimulation(sim) {
    if (!this.open) return;
    const row = this.core.scenarios.find((s) => s.id === valueOf(sim.config, 'scenario'));
    if (!row || !row.scene) { this.leave(false); return; }
    const text = valueOf(sim.config, sceneKey);
    if (text === this.text && this.model) return;  // this editor's own edit
    // A scene from elsewhere (the address, a preset): edited from here, a step of undo.
    this.loadModel(sim.config);
    this.record(this.text);
    this.redraw();
  }

  // Every frame: Play (or a step) leaves Edit mode and runs what was built.
  frame(snapshot) {
    if (!this.open) return;
    // The X-ray took the canvas over (its overlay in place of the editor's): Edit mode ends.
    if (this.page.runner().playing || snapshot.steps > 0 || this.view.overlay !== this.overlay) this.leave(false);
  }

  report() {
    return {
      open: this.open, loaded: true, tool: this.tool, snap: this.snap, step: this.gridStep(),
      selection: this.selection ? { ...this.selection } : null,
      joining: this.joining ? { kind: this.joining.kind, from: { ...this.joining.from }, target: this.joining.target ? { ...this.joining.target } : null } : null,
      text: this.text, model: this.model ? copyModel(this.model) : null,
      history: { length: this.history.length, at: this.at }, applies: this.applies, timings: { ...this.timings },
      waiting: this.applyTimer !== null,  // an edit not yet in the page's config (scheduleApply)
      box: this.box ? { ...this.box } : null,
      // Pixels of every point as last drawn (for tests that press on them).
      pixels: this.map && this.model ? {
        anchors: this.model.anchors.map((p) => ({ x: this.map.px(p.x), y: this.map.py(p.y) })),
        bodies: this.model.bodies.map((p) => ({ x: this.map.px(p.x), y: this.map.py(p.y) })),
        scale: this.map.scale,
      } : null,
      map: this.map ? { ox: this.map.ox, oy: this.map.oy, scale: this.map.scale } : null,
      status: this.status.textContent,
    };
  }

  enter() {
    if (this.open) return;
    const runner = this.page.runner(), sim = this.page.sim();
    runner.pause();
    if (sim.snapshot.t !== 0 || sim.snapshot.steps !== 0) runner.reset();
    this.loadModel(sim.config);
    if (this.history.length === 0 || this.history[this.at] !== this.text) this.record(this.text);
    const map = this.view.map;
    this.box = map ? map.visible() : this.fitBox();
    this.overlay.box = this.box;
    this.accent = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() || this.accent;
    this.view.setOverlay(this.overlay);
    this.view.holdHeight(true);
    // The canvas's description names the editor's keys while it edits.
    this.describedBy = this.canvas.getAttribute('aria-describedby') || '';
    this.canvas.setAttribute('aria-describedby', `${this.describedBy} edit-keys edit-status`.trim());
    this.page.holdBackground(true);
    this.open = true;
    this.bar.hidden = false;
    document.documentElement.classList.add('scene-editing');
    this.say(t('Edit mode: the scene at t = 0. Press Play or Done editing to run it.'));
    this.showInspector();
    this.canvas.focus({ preventScroll: true });
    this.redraw();
  }

  // Leaves Edit mode: the last edit goes into the link at once; with `play`, the run starts.
  leave(play) {
    if (!this.open) return;
    this.flushApply();
    this.open = false;
    this.page.holdBackground(false);
    this.joining = null;
    this.action = null;
    this.draft = null;
    this.view.clearOverlay(this.overlay);
    this.view.holdHeight(false);
    this.canvas.setAttribute('aria-describedby', this.describedBy);
    this.canvas.style.cursor = '';
    // The focus in the editor's tools (about to hide): back to the button that opens it.
    const refocus = this.bar.contains(document.activeElement);
    this.bar.hidden = true;
    this.inspector.hidden = true;
    if (refocus) this.page.button.focus({ preventScroll: true });
    document.documentElement.classList.remove('scene-editing');
    if (play) this.page.runner().play();
    this.redraw();
  }

  loadModel(config) {
    const model = this.core.sceneModel(config);
    this.model = copyModel(model);
    this.text = model.text;
    if (!exists(this.model, this.selection)) this.selection = null;
    this.joining = null;
  }

  // A box around the whole scene (Fit, 0; and before the view has drawn): its points with a
  // quarter of its size to spare, at least 2 m across.
  fitBox() {
    const e = extent(this.model) || { minX: 0, maxX: 0, minY: 0, maxY: 0 };
    const size = Math.max(e.maxX - e.minX, e.maxY - e.minY, 1.5), cx = (e.minX + e.maxX) / 2, cy = (e.minY + e.maxY) / 2;
    const half = size * 0.75;
    return { minX: cx - half, maxX: cx + half, minY: cy - half, maxY: cy + half };
  }

  // --- Edits: each through the core, then into the history and the link. ---

  // The model as the core checks it: {ok, text} or {ok: false, error}.
  check(model) { return this.core.sceneText(model); }

  // Makes `model` the scene when the core takes it; otherwise says why (beside `field`, or in the
  // status line) and keeps the scene as it was. Returns whether it was taken.
  commit(model, { selection = this.selection, field = null, now = false } = {}) {
    const result = this.check(model);
    // The whole link as the core reads it: a scene the grammar takes may still be refused as a
    // config (longer than a scene= value may be, a central body too close to a body).
    const parsed = result.ok ? this.core.parse(withKey(this.page.sim().config, sceneKey, result.text)) : null;
    if (!result.ok || !parsed.ok) {
      this.refused(result.ok ? coreMessage(parsed.errors[0]) : this.messageOf(result.error || {}), field);
      this.redraw();
      return false;
    }
    this.clearErrors();
    this.model = model;
    this.selection = exists(model, selection) ? selection : null;
    if (result.text !== this.text) {
      this.text = result.text;
      this.record(result.text);
      this.scheduleApply(now);
    }
    this.showInspector();
    this.redraw();
    return true;
  }

  // The core's message in the page's language (web/common/language.js coreMessage).
  messageOf(error) {
    return coreMessage({ key: sceneKey, value: '', code: error.code, args: error.args || {}, message: error.message || '' });
  }

  refused(text, field) {
    const row = field && this.fields.get(field);
    if (row) {
      row.error.textContent = text;
      row.input.setAttribute('aria-invalid', 'true');
    } else {
      this.say(text, true);
    }
  }

  clearErrors() {
    for (const row of this.fields.values()) {
      row.error.textContent = '';
      row.input.removeAttribute('aria-invalid');
    }
    this.alert.textContent = '';
  }

  record(text) {
    this.history.length = this.at + 1;
    if (this.history[this.at] === text) return;
    this.history.push(text);
    this.at = this.history.length - 1;
    this.syncButtons();
  }

  undo() { this.travel(-1); }
  redo() { this.travel(1); }
  travel(step) {
    const at = this.at + step;
    if (at < 0 || at >= this.history.length) return;
    this.at = at;
    this.joining = null;
    const text = this.history[at];
    const model = this.core.sceneModel(withKey(this.page.sim().config, sceneKey, text));
    this.model = copyModel(model);
    this.text = model.text;
    if (!exists(this.model, this.selection)) this.selection = null;
    this.clearErrors();
    this.scheduleApply(true);
    this.syncButtons();
    this.showInspector();
    this.say(step < 0 ? t('Undone.') : t('Redone.'));
    this.redraw();
  }

  // The scene into the page's config (a new simulation at t = 0, the link written by the
  // page's own writeHash): at once, or at most every applyIntervalMs.
  // Always in a task of its own, after the edit's: a new simulation of 64 bodies (the module,
  // the legend, the plots, the follow list) is work of its own, never added to the input's.
  scheduleApply(now) {
    const wait = now ? 0 : Math.max(0, this.lastApply + applyIntervalMs - performance.now());
    if (this.applyTimer !== null) {
      if (!now) return;
      clearTimeout(this.applyTimer);
    }
    this.applyTimer = setTimeout(() => { this.applyTimer = null; this.applyNow(); }, wait);
  }

  // The edit waiting (if any) into the page at once (leaving Edit mode, Play).
  flushApply() {
    if (this.applyTimer === null) return;
    clearTimeout(this.applyTimer);
    this.applyTimer = null;
    this.applyNow();
  }

  applyNow() {
    const sim = this.page.sim();
    if (valueOf(sim.config, sceneKey) === this.text) return;
    const t0 = performance.now();
    this.lastApply = t0;
    this.applies += 1;
    // A rod in a scene whose lanes all integrate forces: the lanes become methods that step it.
    this.page.apply(withRodLanes(this.core, withKey(sim.config, sceneKey, this.text)));
    this.timings.applyMs = Math.max(this.timings.applyMs, performance.now() - t0);
  }

  // How long the editor's own part of an input took (the longest so far).
  timed(fn) {
    const t0 = performance.now();
    try { return fn(); } finally { this.timings.inputMs = Math.max(this.timings.inputMs, performance.now() - t0); }
  }

  // --- The grid. ---

  // The grid's step: 1, 2 or 5 × 10^k, about 16 across the box shown (0.2 m on a 3 m view).
  gridStep() {
    if (!this.box && !this.model) return 1;
    const box = this.box || this.fitBox();
    return niceStep(Math.max(box.maxX - box.minX, box.maxY - box.minY), 16);
  }

  // A coordinate on the grid (snapping on), or to a hundredth of its step: the link stays short.
  round(value) {
    const step = this.gridStep() / (this.snap ? 1 : 100);
    const decimals = Math.max(0, Math.min(12, -Math.floor(Math.log10(step) + 1e-9)));
    const r = Number((Math.round(value / step) * step).toFixed(decimals));
    return Object.is(r, -0) ? 0 : r;
  }

  // A velocity from an arrow, to a hundredth of the grid step per arrowSeconds.
  roundSpeed(value) {
    const step = this.gridStep() / arrowSeconds / (this.snap ? 10 : 100);
    const decimals = Math.max(0, Math.min(12, -Math.floor(Math.log10(step) + 1e-9)));
    const r = Number((Math.round(value / step) * step).toFixed(decimals));
    return Object.is(r, -0) ? 0 : r;
  }

  // --- What is where on the canvas. ---

  shown() { return this.draft || this.model; }

  worldAt(p) { return { x: (p.x - this.map.ox) / this.map.scale, y: (this.map.oy - p.y) / this.map.scale }; }

  // The point (body or anchor) nearest a pixel, within reach: an element, or null.
  pointAt(p, reach, skip = null) {
    if (!this.map) return null;
    const model = this.shown();
    let best = null, bestD = reach;
    for (const list of pointLists) {
      model[list].forEach((q, index) => {
        if (skip && skip.list === list && skip.index === index) return;
        const d = Math.hypot(this.map.px(q.x) - p.x, this.map.py(q.y) - p.y);
        if (d < bestD) { bestD = d; best = { list, index }; }
      });
    }
    return best;
  }

  // The join (spring or link) nearest a pixel, within reach.
  joinAt(p, reach) {
    const model = this.shown();
    let best = null, bestD = reach;
    for (const list of joinLists) {
      model[list].forEach((s, index) => {
        const a = pointOf(model, s.a), b = pointOf(model, s.b);
        if (!a || !b) return;
        const ax = this.map.px(a.x), ay = this.map.py(a.y), bx = this.map.px(b.x), by = this.map.py(b.y);
        const dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
        const s01 = len2 > 0 ? Math.max(0, Math.min(1, ((p.x - ax) * dx + (p.y - ay) * dy) / len2)) : 0;
        const d = Math.hypot(ax + s01 * dx - p.x, ay + s01 * dy - p.y);
        if (d < bestD) { bestD = d; best = { list, index }; }
      });
    }
    return best;
  }

  // The selected body's arrow tip (pixels): where its start velocity points, or, at rest, a
  // handle beside it to pull one out.
  arrowTip() {
    const s = this.selection;
    if (!s || s.list !== 'bodies' || !this.map) return null;
    const b = this.shown().bodies[s.index];
    if (!b) return null;
    const k = this.map.scale * arrowSeconds;
    const x = this.map.px(b.x), y = this.map.py(b.y);
    const still = b.vx === 0 && b.vy === 0;
    return { x: still ? x + 22 : x + b.vx * k, y: still ? y - 22 : y - b.vy * k, still, from: { x, y } };
  }

  // --- The DOM: the toolbar under the canvas and the inspector beside the selection. ---

  build() {
    const button = (text, title, onClick, attrs = {}) => {
      const b = el('button', { type: 'button', title, text, ...attrs });
      b.addEventListener('click', onClick);
      return b;
    };
    this.toolButtons = tools.map((tool) => button(t(tool.label), t(tool.title), () => this.setTool(tool.id),
      { 'aria-pressed': 'false', 'data-tool': tool.id, 'aria-keyshortcuts': tool.key.toUpperCase() }));
    this.pinButton = button(t('Pin'), t('Turn the selected body into an anchor, or an anchor back into a body (p)'), () => this.pin(), { 'aria-keyshortcuts': 'P' });
    this.deleteButton = button(t('Delete'), t('Delete the selection (Delete or Backspace)'), () => this.deleteSelection(), { 'aria-keyshortcuts': 'Delete Backspace' });
    this.undoButton = button(t('Undo'), t('Undo (Ctrl+Z)'), () => this.undo(), { 'aria-keyshortcuts': 'Control+Z Meta+Z' });
    // The view's zoom while editing (the canvas's own tools step aside): symbols seen, names heard.
    const symbol = (mark, label, title, onClick) => {
      const b = el('button', { type: 'button', title }, [el('span', { 'aria-hidden': 'true', text: mark }), el('span', { class: 'visually-hidden', text: label })]);
      b.addEventListener('click', onClick);
      return b;
    };
    this.zoomButtons = [
      symbol('-', t('Zoom out'), t('Zoom out (−, or the wheel)'), () => this.zoom(0.8)),
      symbol('+', t('Zoom in'), t('Zoom in (+, or the wheel)'), () => this.zoom(1.25)),
      button(t('Fit'), t('Show the whole scene (0); a drag on the empty canvas pans'), () => this.setBox(this.fitBox())),
    ];
    this.redoButton = button(t('Redo'), t('Redo (Ctrl+Shift+Z or Ctrl+Y)'), () => this.redo(), { 'aria-keyshortcuts': 'Control+Shift+Z Control+Y Meta+Shift+Z' });
    this.snapBox = el('input', { type: 'checkbox', id: 'edit-snap' });
    this.snapBox.checked = this.snap;
    this.snapBox.addEventListener('change', () => { this.snap = this.snapBox.checked; this.syncButtons(); this.redraw(); });
    this.snapLabel = el('span', { class: 'edit-snap-step' });
    this.doneButton = button(t('Done editing'), t('Leave Edit mode and run the scene'), () => this.leave(true), { class: 'primary', id: 'edit-done' });
    this.status = el('p', { class: 'edit-status', id: 'edit-status', role: 'status', 'aria-live': 'polite' });
    this.alert = el('p', { class: 'edit-alert', id: 'edit-alert', role: 'alert' });
    this.bar = el('div', { class: 'scene-editor', hidden: '' }, [
      el('div', { class: 'edit-tools', role: 'toolbar', 'aria-label': t('Scene editor') }, [
        el('span', { class: 'edit-group', role: 'group', 'aria-label': t('Tool') }, this.toolButtons),
        el('span', { class: 'edit-group' }, [this.pinButton, this.deleteButton]),
        el('span', { class: 'edit-group' }, [this.undoButton, this.redoButton]),
        el('span', { class: 'edit-group' }, this.zoomButtons),
        el('label', { class: 'check', for: 'edit-snap' }, [this.snapBox, ` ${t('Snap to grid')} `, this.snapLabel]),
        this.doneButton,
      ]),
      this.alert,
      this.status,
      el('p', { class: 'hint edit-keys', id: 'edit-keys', text: t('Keys on the canvas: B body, A anchor (at the cursor or the middle), [ and ] select the previous or next element, arrows move it by the grid step (Shift: five), S or L then [ ] and Enter join it with a spring or a rod, P pins, Delete deletes, Ctrl+Z undoes, Escape cancels.') }),
    ]);
    this.inspector = el('section', { class: 'scene-inspector', hidden: '', 'aria-labelledby': 'edit-inspector-title' });
    this.fields = new Map();
    // Under the canvas (before its tools): Tab goes from the canvas to the editor's tools, then the
    // inspector (on a phone right under the tools, before the status and the keys).
    this.page.view.canvas.after(this.bar);
    this.alert.after(this.inspector);
    this.syncButtons();
  }

  setTool(id) {
    this.tool = id;
    this.joining = null;
    this.syncButtons();
    this.say(t(tools.find((tool) => tool.id === id).title));
    this.redraw();
  }

  syncButtons() {
    for (const b of this.toolButtons) b.setAttribute('aria-pressed', String(b.dataset.tool === this.tool));
    const s = this.selection;
    const point = s && pointLists.includes(s.list);
    this.pinButton.disabled = !point;
    this.pinButton.textContent = s && s.list === 'anchors' ? t('Unpin') : t('Pin');
    this.deleteButton.disabled = !s;
    this.undoButton.disabled = this.at <= 0;
    this.redoButton.disabled = this.at >= this.history.length - 1;
    this.snapLabel.textContent = `(${metres(this.gridStep())})`;
  }

  say(text, alert = false) {
    if (alert) this.alert.textContent = text;
    else this.status.textContent = text;
  }

  nameOf(element) { return t(kindNames[element.list], { n: element.index }); }

  // The inspector of the selection: its numbers, each a field checked by the core on change.
  showInspector() {
    this.syncButtons();
    const s = this.selection;
    if (!this.open || !s || !exists(this.model, s)) {
      this.inspector.hidden = true;
      this.inspector.replaceChildren();
      this.fields.clear();
      return;
    }
    const item = this.model[s.list][s.index];
    const key = `${s.list}/${s.index}`;
    if (this.inspector.dataset.key !== key || this.inspector.hidden) {
      this.inspector.dataset.key = key;
      this.fields.clear();
      const rows = fieldRows[s.list].map(([field, label]) => this.fieldRow(s, field, t(label)));
      const ends = joinLists.includes(s.list)
        ? el('p', { class: 'hint', text: t('between {a} and {b}', { a: this.nameOf(elementOfEnd(item.a)), b: this.nameOf(elementOfEnd(item.b)) }) }) : null;
      this.inspector.replaceChildren(
        el('h3', { id: 'edit-inspector-title', text: this.nameOf(s) }),
        ...(ends ? [ends] : []),
        el('div', { class: 'edit-fields' }, rows),
      );
      this.inspector.hidden = false;
    }
    for (const [field, row] of this.fields) {
      if (document.activeElement === row.input && row.input.getAttribute('aria-invalid') === 'true') continue;
      const value = item[field];
      if (row.auto) {
        row.auto.checked = value === null;
        row.input.disabled = value === null;
        row.input.value = value === null ? String(this.distanceOf(item)) : String(value);
      } else {
        row.input.value = String(value);
      }
    }
    this.place();
  }

  // The distance between a join's ends (its rest length when left to it).
  distanceOf(join) {
    const a = pointOf(this.model, join.a), b = pointOf(this.model, join.b);
    if (!a || !b) return 0;
    return Number(Math.hypot(b.x - a.x, b.y - a.y).toPrecision(6));
  }

  fieldRow(s, field, label) {
    const id = `edit-${field}`;
    const input = el('input', { type: 'number', id, step: 'any', inputmode: 'decimal', 'aria-describedby': `${id}-error` });
    const error = el('p', { class: 'field-error', id: `${id}-error`, role: 'alert' });
    const row = { input, error, auto: null };
    const children = [el('label', { for: id, text: label }), input];
    if (field === 'rest') {
      row.auto = el('input', { type: 'checkbox', id: `${id}-auto` });
      row.auto.addEventListener('change', () => {
        const value = row.auto.checked ? null : Number(input.value);
        this.commit(setFields(this.model, this.selection, { rest: value }), { field });
      });
      children.push(el('label', { class: 'check', for: `${id}-auto` }, [row.auto, ` ${t('the distance at the start')}`]));
    }
    input.addEventListener('change', () => {
      const text = input.value.trim().replace(',', '.');
      const value = text === '' ? NaN : Number(text);
      this.commit(setFields(this.model, this.selection, { [field]: value }), { field });
    });
    this.fields.set(field, row);
    return el('div', { class: `edit-field field-${field}` }, [...children, error]);
  }

  // The inspector beside the selection over the canvas (where it covers the fewest points and
  // never the selection itself); under the canvas's tools on a narrow screen, never over it.
  // Before the next frame is painted, not in the input's task: measuring the page there would
  // lay it out in the middle of the edit (the next frame lays it out anyway).
  place() {
    if (this.placing) return;
    this.placing = requestAnimationFrame(() => { this.placing = 0; this.placeNow(); });
  }

  placeNow() {
    if (this.inspector.hidden || !this.map) return;
    const canvas = this.canvas.getBoundingClientRect();
    const wide = window.matchMedia('(min-width: 820px)').matches && canvas.width >= 440;
    this.inspector.classList.toggle('floating', wide);
    if (!wide) { this.inspector.style.left = ''; this.inspector.style.top = ''; return; }
    const p = this.pixelOf(this.selection);
    if (!p) return;
    const host = this.bar.getBoundingClientRect();
    const w = this.inspector.offsetWidth || 210, h = this.inspector.offsetHeight || 160, gap = 26;
    const clamp = (x, y) => ({
      x: Math.max(6, Math.min(canvas.width - w - 6, x)), y: Math.max(6, Math.min(canvas.height - h - 6, y)),
    });
    const model = this.shown();
    const points = [...model.anchors, ...model.bodies].map((q) => ({ x: this.map.px(q.x), y: this.map.py(q.y) }));
    const inside = (c, q, pad) => q.x > c.x - pad && q.x < c.x + w + pad && q.y > c.y - pad && q.y < c.y + h + pad;
    const candidates = [
      clamp(p.x + gap, p.y - h / 2), clamp(p.x - gap - w, p.y - h / 2),
      clamp(p.x - w / 2, p.y + gap), clamp(p.x - w / 2, p.y - gap - h),
      clamp(canvas.width - w - 6, 6), clamp(6, 6), clamp(canvas.width - w - 6, canvas.height - h - 6), clamp(6, canvas.height - h - 6),
    ];
    let best = candidates[0], bestScore = Infinity;
    for (const c of candidates) {
      const score = (inside(c, p, 16) ? 1000 : 0) + points.filter((q) => inside(c, q, 10)).length;
      if (score < bestScore) { best = c; bestScore = score; }
    }
    this.inspector.style.left = `${Math.round(canvas.left - host.left + best.x)}px`;
    this.inspector.style.top = `${Math.round(canvas.top - host.top + best.y)}px`;
  }

  // The pixel of an element: a point's, or a join's middle.
  pixelOf(element) {
    const model = this.shown();
    if (!element || !exists(model, element) || !this.map) return null;
    const item = model[element.list][element.index];
    const p = pointLists.includes(element.list) ? item
      : (() => {
        const a = pointOf(model, item.a), b = pointOf(model, item.b);
        return a && b ? { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } : null;
      })();
    return p ? { x: this.map.px(p.x), y: this.map.py(p.y) } : null;
  }

  select(element) {
    this.selection = element;
    this.showInspector();
    if (element) this.say(t('{name} selected', { name: this.nameOf(element) }) + this.where(element));
    this.redraw();
  }

  // " (x; y)" of a point, "" of a join; and the status after a point moved or got a velocity.
  where(element) {
    const item = this.model[element.list][element.index];
    return pointLists.includes(element.list) ? ` (${formatValue(item.x, 4)}; ${formatValue(item.y, 4)})` : '';
  }

  sayWhere(element) {
    const item = this.model[element.list][element.index];
    const v = element.list === 'bodies' ? `, v = (${formatValue(item.vx, 3)}; ${formatValue(item.vy, 3)}) m/s` : '';
    this.say(`${this.nameOf(element)}${this.where(element)}${v}`);
  }

  // --- The actions of the tools and keys. ---

  addPoint(list, world) {
    const x = this.round(world.x), y = this.round(world.y);
    const made = list === 'bodies' ? addBody(this.model, x, y, this.defaults) : addAnchor(this.model, x, y);
    if (this.commit(made.model, { selection: made.element })) this.say(t('{name} added', { name: this.nameOf(made.element) }));
  }

  joinPoints(kind, a, b) {
    const made = join(this.model, kind, a, b, this.defaults);
    this.joining = null;
    if (this.commit(made.model, { selection: made.element })) this.say(t('{name} added', { name: this.nameOf(made.element) }));
  }

  deleteSelection() {
    if (!this.selection) return;
    const name = this.nameOf(this.selection);
    if (this.commit(remove(this.model, this.selection).model, { selection: null })) this.say(t('{name} deleted', { name }));
  }

  pin() {
    const s = this.selection;
    if (!s || !pointLists.includes(s.list)) return;
    const made = togglePin(this.model, s, this.defaults);
    if (this.commit(made.model, { selection: made.element })) this.say(t('{name} is now {other}', { name: this.nameOf(s), other: this.nameOf(made.element) }));
  }

  // Moves the selected point by (dx, dy) grid steps (the keys).
  nudge(dx, dy) {
    const s = this.selection;
    if (!s || !pointLists.includes(s.list)) return;
    const p = this.model[s.list][s.index], step = this.gridStep();
    const x = Number((this.round(p.x) + dx * step).toPrecision(12)), y = Number((this.round(p.y) + dy * step).toPrecision(12));
    if (this.commit(setFields(this.model, s, { x: this.round(x), y: this.round(y) }))) this.sayWhere(s);
  }

  // Starts a join from the selected point (keys S and L): [ ] pick the other end, Enter joins.
  startJoin(kind) {
    const from = endOf(this.selection);
    if (!from) { this.say(t('Select a body or an anchor first ([ or ]).')); return; }
    const target = stepElement(this.model, this.selection, 1, { pointsOnly: true, skip: this.selection });
    this.joining = { kind, from, target: target ? endOf(target) : null, pointer: null };
    this.say(t('Joining {name}: [ and ] choose the other end, Enter joins, Escape cancels.', { name: this.nameOf(this.selection) }));
    this.redraw();
  }

  // --- Pointer and keys. ---

  bind() {
    // In the capture phase on the canvas's parent: while editing, the canvas's own tools (pan,
    // zoom, dragging a start; web/motion/view-tools.js) get none of these events.
    const host = this.canvas.parentElement;
    const mine = (e) => this.open && e.target === this.canvas;
    const at = (e) => {
      const r = this.canvas.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    };
    const fingers = new Map();  // pointer id -> its pixel: two make a pinch
    const spread = () => {
      const [a, b] = [...fingers.values()];
      return { d: Math.hypot(a.x - b.x, a.y - b.y), mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
    };
    host.addEventListener('pointerdown', (e) => {
      if (!mine(e) || e.button !== 0 || !this.map) return;
      e.stopPropagation();
      e.preventDefault();
      this.canvas.focus({ preventScroll: true });
      fingers.set(e.pointerId, at(e));
      this.canvas.setPointerCapture(e.pointerId);
      if (fingers.size === 2) {
        // A second finger: a pinch zooms; what the first one began is dropped.
        this.action = null;
        this.draft = null;
        this.pinch = spread().d;
        this.redraw();
        return;
      }
      if (this.action || this.pinch) return;
      this.timed(() => this.press(at(e), e.pointerType === 'touch' ? hitPx.touch : hitPx.mouse, e.shiftKey, e.pointerId));
    }, true);
    host.addEventListener('pointermove', (e) => {
      if (!mine(e)) return;
      e.stopPropagation();
      const p = at(e);
      this.cursor = p;
      if (fingers.has(e.pointerId)) fingers.set(e.pointerId, p);
      if (this.pinch && fingers.size === 2) {
        const { d, mid } = spread();
        if (d > 0 && this.pinch > 0) this.zoom(d / this.pinch, this.worldAt(mid));
        this.pinch = d;
        return;
      }
      if (this.action && this.action.pointer === e.pointerId) this.timed(() => this.drag(p));
      else if (!this.action && e.pointerType === 'mouse') this.hover(p);
    }, true);
    const end = (e) => {
      fingers.delete(e.pointerId);
      if (fingers.size === 0) this.pinch = 0;
      if (!mine(e) || !this.action || this.action.pointer !== e.pointerId) return;
      e.stopPropagation();
      this.timed(() => this.release(at(e), e.type === 'pointercancel', e.pointerType === 'touch' ? hitPx.touch : hitPx.mouse));
    };
    host.addEventListener('pointerup', end, true);
    host.addEventListener('pointercancel', end, true);
    host.addEventListener('pointerleave', (e) => { if (mine(e)) this.cursor = null; }, true);
    host.addEventListener('wheel', (e) => {
      if (!mine(e) || !this.map) return;
      e.stopPropagation();
      e.preventDefault();
      this.zoom(Math.pow(1.25, -Math.sign(e.deltaY)), this.worldAt(at(e)));
    }, { capture: true, passive: false });
    host.addEventListener('keydown', (e) => { if (mine(e)) this.timed(() => this.key(e)); }, true);
    // Undo and redo anywhere in the editor's parts, except while typing in a field.
    document.addEventListener('keydown', (e) => {
      if (!this.open || !(e.ctrlKey || e.metaKey) || e.altKey) return;
      const target = e.target;
      if (target && target.tagName === 'INPUT' && target.type !== 'checkbox') return;
      if (!(target === this.canvas || this.bar.contains(target) || target === this.page.button || target === document.body)) return;
      const k = e.key.toLowerCase();
      if (k === 'z' && !e.shiftKey) this.undo();
      else if ((k === 'z' && e.shiftKey) || k === 'y') this.redo();
      else return;
      e.preventDefault();
      e.stopPropagation();
    }, true);
    window.addEventListener('resize', () => { if (this.open) this.place(); });
  }

  // The mouse's cursor says what a press there would do: grab a point or an arrow's tip, start a
  // join, or (the CSS's crosshair) add or pan. Set only when it changes.
  hover(p) {
    const tip = this.arrowTip();
    const point = this.pointAt(p, hitPx.mouse);
    const cursor = tip && Math.hypot(p.x - tip.x, p.y - tip.y) < hitPx.mouse ? 'grab'
      : point ? (joinLists.includes(this.tool) ? 'pointer' : 'grab') : '';
    if (this.canvas.style.cursor !== cursor) this.canvas.style.cursor = cursor;
  }

  zoom(factor, w = this.middle()) {
    const b = this.box, f = 1 / factor;
    const next = { minX: w.x + (b.minX - w.x) * f, maxX: w.x + (b.maxX - w.x) * f, minY: w.y + (b.minY - w.y) * f, maxY: w.y + (b.maxY - w.y) * f };
    const span = next.maxX - next.minX;
    if (!(span > 1e-3 && span < 1e5)) return;
    this.setBox(next);
  }

  middle() { return { x: (this.box.minX + this.box.maxX) / 2, y: (this.box.minY + this.box.maxY) / 2 }; }

  // The world box shown (zoom, pan, fit): the grid's step follows it.
  setBox(box) {
    this.box = box;
    this.overlay.box = box;
    this.syncButtons();
    this.redraw();
  }

  press(p, reach, shift, pointer) {
    const tip = this.arrowTip();
    if (tip && Math.hypot(p.x - tip.x, p.y - tip.y) < reach) {
      this.action = { kind: 'velocity', pointer, element: this.selection, from: p, moved: false };
      return;
    }
    const point = this.pointAt(p, reach);
    const joinTool = joinLists.includes(this.tool);
    if (point && (joinTool || this.joining)) {
      // A join's first end (or, with a join waiting for its second end, that end).
      this.action = { kind: 'join', pointer, from: endOf(point), start: p, moved: false };
      this.draftJoin(endOf(point), p);
      return;
    }
    if (point) {
      const velocity = shift && point.list === 'bodies';
      const q = this.model[point.list][point.index];
      this.action = { kind: velocity ? 'velocity' : 'move', pointer, element: point, from: p, origin: { x: q.x, y: q.y }, moved: false };
      if (!sameElement(point, this.selection)) this.select(point);
      return;
    }
    this.action = { kind: 'empty', pointer, from: p, last: p, moved: false, join: joinTool ? null : this.joinAt(p, reach / 2) };
  }

  draftJoin(from, p) {
    const kind = this.joining ? this.joining.kind : this.tool;
    if (!this.joining || !this.joining.from) this.joining = { kind, from, target: null, pointer: p };
    this.redraw();
  }

  drag(p) {
    const a = this.action;
    if (!a.moved && Math.hypot(p.x - a.from.x, p.y - a.from.y) < 4) return;
    a.moved = true;
    if (a.kind === 'empty') {
      // A drag on the empty canvas pans the view.
      const k = this.map.scale, dx = (p.x - a.last.x) / k, dy = (p.y - a.last.y) / k;
      a.last = p;
      const b = this.box;
      this.setBox({ minX: b.minX - dx, maxX: b.maxX - dx, minY: b.minY + dy, maxY: b.maxY + dy });
      return;
    }
    if (a.kind === 'move') {
      if (!this.draft) this.draft = copyModel(this.model);
      const w = this.worldAt(p), w0 = this.worldAt(a.from);
      const q = this.draft[a.element.list][a.element.index];
      q.x = this.round(a.origin.x + w.x - w0.x);
      q.y = this.round(a.origin.y + w.y - w0.y);
    } else if (a.kind === 'velocity') {
      if (!this.draft) this.draft = copyModel(this.model);
      const q = this.draft.bodies[a.element.index], k = this.map.scale * arrowSeconds;
      q.vx = this.roundSpeed((p.x - this.map.px(q.x)) / k);
      q.vy = this.roundSpeed(-(p.y - this.map.py(q.y)) / k);
    } else if (a.kind === 'join' && this.joining) {
      this.joining.pointer = p;
      const target = this.pointAt(p, hitPx.touch, elementOfEnd(this.joining.from));
      this.joining.target = target ? endOf(target) : null;
    }
    this.redraw();
  }

  release(p, cancelled, reach) {
    const a = this.action;
    this.action = null;
    if (cancelled) { this.draft = null; this.joining = null; this.redraw(); return; }
    if (a.kind === 'move' || a.kind === 'velocity') {
      const draft = this.draft;
      this.draft = null;
      // A drag's end writes the link at once.
      if (a.moved && draft && this.commit(draft, { selection: a.element, now: true })) this.sayWhere(a.element);
      else this.redraw();
      return;
    }
    if (a.kind === 'join') {
      const j = this.joining;
      const over = this.pointAt(p, reach, j ? elementOfEnd(j.from) : null);
      if (j && over && !sameEnd(endOf(over), j.from)) {
        this.joinPoints(j.kind, j.from, endOf(over));
      } else if (j && !a.moved) {
        // A tap on the first end: the join waits for a tap on the second.
        this.joining = { kind: j.kind, from: a.from, target: null, pointer: null };
        this.selection = elementOfEnd(a.from);
        this.showInspector();
        this.say(t('Now tap or click the other end (Escape cancels).'));
        this.redraw();
      } else {
        this.joining = null;
        this.redraw();
      }
      return;
    }
    // A press on the empty canvas: adds a point with the Body and Anchor tools; selects the join
    // under it, or clears the selection, with the others.
    if (a.moved) return;
    if (this.joining) { this.joining = null; this.redraw(); return; }
    if (this.tool === 'body' || this.tool === 'anchor') this.addPoint(this.tool === 'body' ? 'bodies' : 'anchors', this.worldAt(p));
    else this.select(a.join);
  }

  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const k = e.key;
    const step = e.shiftKey ? 5 : 1;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (moves[k]) {
      if (this.selection && pointLists.includes(this.selection.list)) this.nudge(...moves[k]);
    } else if (k === ']' || k === '[') {
      const dir = k === ']' ? 1 : -1;
      if (this.joining) {
        const from = elementOfEnd(this.joining.from);
        const now = this.joining.target ? elementOfEnd(this.joining.target) : from;
        const next = stepElement(this.model, now, dir, { pointsOnly: true, skip: from });
        this.joining.target = next ? endOf(next) : null;
        if (next) this.say(t('Join to {name}? Enter joins.', { name: this.nameOf(next) }));
        this.redraw();
      } else {
        this.select(stepElement(this.model, this.selection, dir));
      }
    } else if (k === 'b' || k === 'B' || k === 'a' || k === 'A') {
      const p = this.cursor || { x: this.map.rect.x + this.map.rect.w / 2, y: this.map.rect.y + this.map.rect.h / 2 };
      this.addPoint(k.toLowerCase() === 'b' ? 'bodies' : 'anchors', this.worldAt(p));
    } else if (k === 's' || k === 'S' || k === 'l' || k === 'L') {
      this.startJoin(k.toLowerCase() === 's' ? 'springs' : 'links');
    } else if (k === 'Enter' && this.joining && this.joining.target) {
      this.joinPoints(this.joining.kind, this.joining.from, this.joining.target);
    } else if (k === 'p' || k === 'P') {
      this.pin();
    } else if (k === 'm' || k === 'M') {
      this.setTool('move');
    } else if (k === '+' || k === '=' || k === '-' || k === '−') {
      this.zoom(k === '+' || k === '=' ? 1.25 : 0.8);
    } else if (k === '0') {
      this.setBox(this.fitBox());
    } else if (k === 'Delete' || k === 'Backspace') {
      this.deleteSelection();
    } else if (k === 'Escape') {
      if (this.joining) { this.joining = null; this.say(t('Join cancelled.')); this.redraw(); } else this.select(null);
    } else {
      return;  // Space, r and the others: the page's keys (Play leaves Edit mode)
    }
    e.preventDefault();
    e.stopPropagation();
  }

  redraw() { this.page.redraw(); }

  // --- Drawing: over the view's picture, through its overlay hook. ---

  draw(ctx, map, theme) {
    const moved = !this.map || this.map.ox !== map.ox || this.map.oy !== map.oy || this.map.scale !== map.scale;
    this.map = map;
    if (moved) this.place();
    const model = this.shown();
    if (!model) return;
    const r = map.rect;
    ctx.save();
    ctx.fillStyle = theme.bg;
    ctx.fillRect(r.x, r.y, r.w, r.h);
    this.drawGrid(ctx, map, theme);
    const pt = (end) => pointOf(model, end);
    const sel = this.selection;
    const selected = (list, index) => sel && sel.list === list && sel.index === index;
    // Springs and compliant links as coils, rods as bars; the selected one in the accent colour.
    for (const list of joinLists) {
      model[list].forEach((s, index) => {
        const a = pt(s.a), b = pt(s.b);
        if (!a || !b) return;
        const rod = list === 'links' && s.alpha === 0;
        ctx.strokeStyle = selected(list, index) ? this.accent : theme.fg;
        ctx.lineWidth = rod ? 3.5 : 1.5;
        ctx.lineCap = 'round';
        const path = new ClippedPath(ctx, r);
        if (rod) { path.point(map.px(a.x), map.py(a.y)); path.point(map.px(b.x), map.py(b.y)); } else this.view.drawCoil(path, map.px(a.x), map.py(a.y), map.px(b.x), map.py(b.y));
        ctx.stroke();
      });
    }
    ctx.lineCap = 'butt';
    // A join under way: a dashed line to the pointer or the chosen end.
    if (this.joining) {
      const a = pt(this.joining.from);
      const target = this.joining.target ? pt(this.joining.target) : null;
      const to = target ? { x: map.px(target.x), y: map.py(target.y) } : this.joining.pointer;
      if (a && to) {
        ctx.strokeStyle = this.accent;
        ctx.lineWidth = 2;
        ctx.setLineDash([6, 4]);
        ctx.beginPath();
        ctx.moveTo(map.px(a.x), map.py(a.y));
        ctx.lineTo(to.x, to.y);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      if (target) this.ring(ctx, map.px(target.x), map.py(target.y), 13, this.accent, true);
    }
    model.anchors.forEach((p, index) => {
      const x = map.px(p.x), y = map.py(p.y);
      anchorMark(ctx, x, y, selected('anchors', index) ? this.accent : theme.fg, theme.bg);
      if (selected('anchors', index)) this.ring(ctx, x, y, 11, this.accent);
    });
    const labels = model.bodies.length <= 32;
    ctx.font = `11px ${theme.font}`;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    model.bodies.forEach((p, index) => {
      const x = map.px(p.x), y = map.py(p.y);
      if (!Number.isFinite(x) || !Number.isFinite(y)) return;
      const on = selected('bodies', index);
      const k = map.scale * arrowSeconds;
      // The tip exactly where the velocity points (its handle drags it); none past 100,000 px.
      if ((p.vx !== 0 || p.vy !== 0) && Math.hypot(p.vx, p.vy) * k < 1e5) arrowMark(ctx, x, y, p.vx * k, -p.vy * k, on ? this.accent : theme.muted);
      const radius = Math.max(4, Math.min(9, 4 + 2 * Math.cbrt(p.m)));
      ctx.fillStyle = on ? this.accent : theme.fg;
      ctx.beginPath();
      ctx.arc(x, y, radius, 0, Math.PI * 2);
      ctx.fill();
      if (on) this.ring(ctx, x, y, radius + 4, this.accent);
      if (labels) {
        ctx.fillStyle = theme.muted;
        ctx.fillText(String(index), x + radius + 2, y - radius);
      }
    });
    // The selected body's arrow tip, a handle to drag.
    const tip = this.arrowTip();
    if (tip) {
      if (tip.still) {
        ctx.strokeStyle = this.accent;
        ctx.setLineDash([2, 3]);
        ctx.lineWidth = 1.5;
        ctx.beginPath(); ctx.moveTo(tip.from.x, tip.from.y); ctx.lineTo(tip.x, tip.y); ctx.stroke();
        ctx.setLineDash([]);
      }
      ctx.fillStyle = theme.bg;
      ctx.strokeStyle = this.accent;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.rect(tip.x - 5, tip.y - 5, 10, 10);
      ctx.fill();
      ctx.stroke();
    }
    ctx.restore();
  }

  drawGrid(ctx, map, theme) {
    const step = this.gridStep(), v = map.visible(), r = map.rect;
    if (step * map.scale < 6) return;
    ctx.strokeStyle = theme.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const k of stepMultiples(v.minX, v.maxX, step, 0, 400)) {
      const px = Math.round(map.px(k * step)) + 0.5;
      ctx.moveTo(px, r.y); ctx.lineTo(px, r.y + r.h);
    }
    for (const k of stepMultiples(v.minY, v.maxY, step, 0, 400)) {
      const py = Math.round(map.py(k * step)) + 0.5;
      ctx.moveTo(r.x, py); ctx.lineTo(r.x + r.w, py);
    }
    ctx.stroke();
  }

  ring(ctx, x, y, radius, colour, dashed = false) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    if (dashed) ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.arc(x, y, radius, 0, Math.PI * 2);
    ctx.stroke();
    ctx.setLineDash([]);
  }
}
