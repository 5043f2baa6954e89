// The page's state, in one place: the embed mode, the core (its tables), the simulation running,
// the runner that steps it, the theme, and the parts of the page by name. The composition root
// (web/app/main.js) makes the one PageState and hands it to the parts that read it; no part
// imports it. Each field has one writer, through a method named for its change (the start-up sets
// the core, web/app/simulation.js the simulation, web/app/frame-loop.js the runner). What the
// simulation already holds is derived from it, never copied: the link's errors are the
// simulation's (less the refusal of a view the game loop or a linked system rules out: that view
// says so itself), and the view shown is the config's view key (or the view refused, whose
// notice shows in its place).
import { valueOf } from '../common/query.js';
import { laneName } from '../common/lanes.js';
import { themeColours } from '../common/palette.js';
import { t } from '../common/language.js';

export class PageState {
  #core = null;
  #sim = null;      // the current SimulationHandle
  #runner = null;   // the page's one Runner (web/engine/runner.js), from the start-up's last task on
  #theme = null;
  // The page's panels by name, in the order they are set and drawn: each has setSimulation(sim)
  // for a new simulation, frame(snapshot) for every frame drawn (an analysis view hides them
  // all) and report() for window.stepwise.debug and the tests. Listed once (web/app/main.js).
  #panels = new Map();
  #parts = new Map();          // the parts that only report (the X-ray), by name
  #themeListeners = [];        // the colour scheme changed: in the order they were added
  #holdListeners = [];         // background work held or let go again

  // mode: the embed options from the address's query (web/app/mode.js): embedded or not, which
  // controls, autoplay. layoutOf(viewId): the layout a view shows in (web/views/views.js).
  constructor({ mode, layoutOf }) {
    this.mode = mode;
    this.layoutOf = layoutOf;
  }

  get core() { return this.#core; }
  get sim() { return this.#sim; }
  get runner() { return this.#runner; }
  get theme() { return this.#theme; }

  // The start-up loaded the core (web/engine/wasm.js loadCore).
  useCore(core) { this.#core = core; }
  // web/app/simulation.js replaced the simulation (it deletes the old one), or ended it (null).
  useSimulation(sim) { this.#sim = sim; }
  // web/app/frame-loop.js made the page's runner.
  useRunner(runner) { this.#runner = runner; }

  // The panels, in the order they are set and drawn; a part by name (a panel or one that only reports).
  addPanel(name, panel) { this.#panels.set(name, panel); }
  addPart(name, part) { this.#parts.set(name, part); }
  get panels() { return this.#panels.values(); }
  part(name) { return this.#panels.get(name) || this.#parts.get(name) || null; }

  // The colours of the scheme the page shows in (web/common/palette.js): read at start-up, and
  // again when the system's scheme changes, after which every part that added a listener redraws
  // in it (the listeners first, in the order they were added, then one frame).
  readTheme() { this.#theme = themeColours(); }
  onThemeChange(listener) { this.#themeListeners.push(listener); }
  followColourScheme() {
    window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
      this.readTheme();
      for (const listener of this.#themeListeners) listener(this.#theme);
      this.redraw();
    });
  }

  // Background work the page does between frames (the probe of the motion's box, the legend's
  // quick study) held while on (the scene editor is open: each edit is a new simulation), and
  // let go again.
  onHold(listener) { this.#holdListeners.push(listener); }
  holdBackground(on) { for (const listener of this.#holdListeners) listener(on); }

  // The core's refusal of the view the link asks for (see viewRefusal), or undefined.
  get refusal() { return refusalOf(this.#sim, this.#core); }
  get refusedView() { const r = this.refusal; return r ? r.value : null; }
  // The link's errors, from the core, for the current config.
  get configErrors() {
    const r = this.refusal;
    return this.#sim ? this.#sim.errors.filter((e) => e !== r) : [];
  }
  // The view shown (the core's views table's id).
  get viewId() {
    if (!this.#sim) return this.#core ? this.#core.views[0].id : 'motion';
    return this.refusedView || valueOf(this.#sim.config, 'view') || this.#core.views[0].id;
  }
  // The shown view's layout (web/views/views.js): its row's, or an analysis's for the loop's
  // notice in its place.
  get layout() {
    return this.viewId === this.refusedView ? 'analysis' : this.layoutOf(this.viewId);
  }
  // The lanes' names in lane order: their methods' from the core's table, with their settings.
  laneNames() {
    return this.#sim.laneIds.map((id) => laneName(this.#core.integrators, id));
  }
  // "Spring: Explicit Euler vs RK4", for the embed snippet's title, the frame's heading and the PNG.
  title() {
    const names = this.laneNames();
    const list = names.length <= 3 ? names.join(t(' vs ')) : t('{n} integrators', { n: names.length });
    const scenario = this.#core.scenarios.find((s) => s.id === valueOf(this.#sim.config, 'scenario'));
    return `${scenario ? scenario.name : this.#sim.scene.name}: ${list}`;
  }
  // Something on the page changed: draw the next frame though nothing advanced (before the
  // runner exists, its first frame draws anyway).
  redraw() {
    if (this.#runner) this.#runner.redraw();
  }
}

// The core's refusal of the view the link asks for, when the reason is the config's game loop
// (the convergence study and the cloud step dt themselves; a variable loop has no one step for
// the stability map) or a linked system (no phase cloud: its disc would pull the links apart),
// or undefined. Found once per simulation.
const refusals = new WeakMap();
function refusalOf(handle, core) {
  if (!handle) return undefined;
  if (!refusals.has(handle)) {
    const refused = (e) => e.key === 'view' && core.views.some((v) => v.id === e.value);
    let found;
    if (handle.loop.kind) found = handle.errors.find(refused);
    else if (handle.layout.state.has('constraint_error')) found = handle.errors.find((e) => refused(e) && e.value === 'cloud');
    refusals.set(handle, found);
  }
  return refusals.get(handle);
}
