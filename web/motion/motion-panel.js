// The motion canvas as one of the page's panels (web/app/main.js): the view (web/motion/view.js)
// and its tools under it (web/motion/view-tools.js), set, drawn and reported together: the tools
// follow the view's simulation, and a frame's timeline ends a scrub before the view draws.
import { View } from './view.js';
import { ViewTools } from './view-tools.js';

export class MotionPanel {
  // page: the PageState (web/app/state.js); apply(query): a config the tools set (a dragged start).
  constructor(canvas, toolsRoot, { page, apply }) {
    const mode = page.mode;
    this.page = page;
    this.view = new View(canvas, { fill: mode.embed });
    this.tools = new ViewTools(toolsRoot, { page, view: this.view, apply, wheel: !mode.embed || mode.ui === 'full' });
  }

  // With clouds the canvas is shorter: the cloud panel fills the column under it.
  setSimulation(sim) {
    this.view.setCompact(sim.cloud.points > 0);
    this.view.setSimulation(sim, this.page.laneNames());
    this.tools.setSimulation(sim);
  }

  frame(snapshot) {
    if (this.page.layout !== 'motion') return;  // the cloud view hides the canvas
    this.tools.frame(snapshot, this.page.runner.playing);
    this.view.draw(snapshot, this.page.theme);
    if (this.view.settling) this.page.redraw();  // the view eases to a grown box: draw on, even paused
  }

  report() { return this.view.report; }

  // The fitted view box and the motion's bounds it fits, as far as they are known.
  box() {
    const view = this.view;
    return view.base ? { ...view.base, following: view.following, bounds: { ...this.page.sim.bounds } } : null;
  }
}
