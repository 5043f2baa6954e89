// The page's state, in one place: the core (its tables), the simulation running, the runner that
// steps it, the theme and the page's own messages. What the simulation already holds is derived
// from it, never copied: the link's errors are the simulation's (less the refusal of a view the
// game loop or a linked system rules out: that view says so itself), and the view shown is the
// config's view key (or the view refused, whose notice shows in its place).
import { valueOf } from './links.js';
import { laneName } from '../common/lanes.js';
import { viewRow } from '../views/views.js';
import { t } from '../common/language.js';

// Set by mode.js from the address's query: embedded or not, which controls, autoplay.
export const mode = globalThis.__stepwiseMode || { embed: false, ui: 'full', autoplay: false, options: [] };

export const state = {
  core: null,
  sim: null,       // the current SimulationHandle
  runner: null,    // the page's one Runner (web/engine/runner.js), from the start-up's last task on
  // The page's panels by name, in the order they are set and drawn: each has setSimulation(sim)
  // for a new simulation, frame(snapshot) for every frame drawn (an analysis view hides them
  // all) and report() for window.stepwise.debug and the tests. Made once (web/app/main.js).
  panels: new Map(),
  theme: null,
  uiErrors: [],    // from the page (e.g. "keep at least one integrator", a link too long)

  // The core's refusal of the view the link asks for (see viewRefusal), or undefined.
  get refusal() { return refusalOf(this.sim, this.core); },
  get refusedView() { const r = this.refusal; return r ? r.value : null; },
  // The link's errors, from the core, for the current config.
  get configErrors() {
    const r = this.refusal;
    return this.sim ? this.sim.errors.filter((e) => e !== r) : [];
  },
  // The view shown (the core's views table's id).
  get viewId() {
    if (!this.sim) return this.core ? this.core.views[0].id : 'motion';
    return this.refusedView || valueOf(this.sim.config, 'view') || this.core.views[0].id;
  },
  // The shown view's layout (web/views/views.js): its row's, or an analysis's for the loop's
  // notice in its place.
  get layout() {
    return this.viewId === this.refusedView ? 'analysis' : viewRow(this.viewId).layout;
  },
  // The lanes' names in lane order: their methods' from the core's table, with their settings.
  laneNames() {
    return this.sim.laneIds.map((id) => laneName(this.core.integrators, id));
  },
  // "Spring: Explicit Euler vs RK4", for the embed snippet's title, the frame's heading and the PNG.
  title() {
    const names = this.laneNames();
    const list = names.length <= 3 ? names.join(t(' vs ')) : t('{n} integrators', { n: names.length });
    const scenario = this.core.scenarios.find((s) => s.id === valueOf(this.sim.config, 'scenario'));
    return `${scenario ? scenario.name : this.sim.scene.name}: ${list}`;
  },
  // Something on the page changed: draw the next frame though nothing advanced (before the
  // runner exists, its first frame draws anyway).
  redraw() {
    if (this.runner) this.runner.redraw();
  },
};

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
