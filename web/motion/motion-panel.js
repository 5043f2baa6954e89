// The motion canvas as one of the page's panels (web/app/main.js): the view (web/motion/view.js)
// and its tools under it (web/motion/view-tools.js), set, drawn and reported together: the tools
// follow the view's simulation, and a frame's timeline ends a scrub before the view draws.
import { View } from './view.js';
import { ViewTools } from './view-tools.js';
import { state, mode } from '../app/state.js';

export class MotionPanel {
  // apply(query): a config the tools set (a dragged start).
  constructor(canvas, toolsRoot, apply) {
    this.view = new View(canvas, { fill: mode.embed });
    this.tools = new ViewTools(toolsRoot, { view: this.view, apply, wheel: !mode.embed || mode.ui === 'full' });
  }

  // With clouds the canvas is shorter: the cloud panel fills the column under it.
  setSimulation(sim) {
    this.view.setCompact(sim.cloud.points > 0);
    this.view.setSimulation(sim, state.laneNames());
    this.tools.setSimulation(sim);
  }

  frame(snapshot) {
    if (state.layout !== 'motion') return;  // the cloud view hides the canvas
    this.tools.frame(snapshot, state.runner.playing);
    this.view.draw(snapshot, state.theme);
    if (this.view.settling) state.redraw();  // the view eases to a grown box: draw on, even paused
  }

  report() { return this.view.report; }

  // The fitted view box and the motion's bounds it fits, as far as they are known.
  box() {
    const view = this.view;
    return view.base ? { ...view.base, following: view.following, bounds: { ...state.sim.bounds } } : null;
  }
}
