// The phase-space cloud panel as the page holds it from the start: its place (the figure, hidden
// in the page's HTML until a simulation has clouds) and the panel's contract, with the cloud view
// itself (web/views/cloud.js) loaded the first time a simulation has clouds. A link without
// clouds (the default one) never loads it; a link with clouds loads it beside the full module
// its clouds need, and its panels are set (web/app/simulation.js) once it is there.

import { t } from '../common/language.js';

// Clouds of more points than this in all (points × lanes) are drawn outside the frame's task
// altogether (web/views/cloud.js), and the run keeps the default stepping budget (web/app/simulation.js).
export const ownTaskPoints = 200000;
// The cloud view's drawing times before it drew (web/views/cloud.js starts from them).
export const noCloudsDrawn = Object.freeze({ draws: 0, points: 0, ms: 0, fitMs: 0, pointsMs: 0, putMs: 0, mostSlicePoints: 0 });

export class CloudPanel {
  #view = null;     // the CloudView, once its module is loaded
  #loading = null;  // its module's loading
  #sim = null;

  // canvas, figure: the panel's elements; page: the PageState (web/app/state.js); notify(message):
  // the page's message banner.
  constructor(canvas, figure, page, notify) {
    this.canvas = canvas;
    this.figure = figure;
    this.page = page;
    this.notify = notify;
  }

  // The cloud view, loaded once (a failed load is tried again by the next simulation with clouds).
  load() {
    this.#loading ||= import('./cloud.js').then((m) => {
      this.#view = new m.CloudView(this.canvas, this.figure, this.page);
      if (this.#sim) this.#view.setSimulation(this.#sim);
      this.page.redraw();
      return this.#view;
    }, (error) => {
      this.#loading = null;
      this.notify(t('The phase-space cloud could not load: {error}', { error: error.message }));
    });
    return this.#loading;
  }

  // A new simulation; with clouds and no view yet, a promise of the view set to it.
  setSimulation(sim) {
    this.#sim = sim;
    if (this.#view) this.#view.setSimulation(sim);
    else if (sim.cloud.points > 0) return this.load();
    return undefined;
  }

  frame(snapshot) { if (this.#view) this.#view.frame(snapshot); }

  // What window.stepwise.debug.cloud() reads (web/views/cloud.js report): before the view is
  // loaded, no cloud has been shown.
  report() {
    return this.#view ? this.#view.report() : { shown: false, cells: [], scale: null, ...this.stats };
  }

  // The drawing times (debug.timings().cloud).
  get stats() {
    return this.#view ? this.#view.stats : noCloudsDrawn;
  }

  // The canvas for the PNG export, when shown.
  visible() { return this.#view ? this.#view.visible() : []; }
}
