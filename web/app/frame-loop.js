// The frame loop: the runner (web/engine/runner.js) steps the simulation, and after every frame
// that advanced or asked to be drawn the page's panels draw it (page.panels: an analysis view
// hides them all). Says when the page is ready: its first frame drawn, and whatever else the
// composition root (web/app/main.js) asks for (the plots drawn, a notice loaded). It knows no
// feature: one that follows every frame (the X-ray) registers with everyFrame(), as a panel is
// listed in page.panels.
import { Runner } from '../engine/runner.js';

export class FrameLoop {
  #laidOut = false;  // the start-up's last layout is done: frames may draw
  #firstFrameAt = null;
  #everyFrame = [];  // called first, every frame drawn, in every view
  #resolveReady;
  #rejectReady;

  constructor() {
    // Resolves once the page is ready: window.stepwise and the embedded frame's messages wait for it.
    this.ready = new Promise((resolve, reject) => { this.#resolveReady = resolve; this.#rejectReady = reject; });
  }

  startFailed(error) { this.#rejectReady(error); }
  // When the first frame was drawn (performance.now()), or null.
  firstFrameMs() { return this.#firstFrameAt; }
  // The start-up's last layout is done (web/app/main.js): from now on frames draw.
  allowFrames() { this.#laidOut = true; }
  // fn() before every frame drawn, the analysis views' too, before the panels.
  everyFrame(fn) { this.#everyFrame.push(fn); }

  // Makes the page's runner (page.useRunner). page: the PageState (web/app/state.js);
  // simulations: web/app/simulation.js's (panelsSet(): frames draw only once every panel shows
  // the current simulation; wakeBounds(): the probe of the motion's box, every motion frame);
  // readyWhen(): after the first frame, whether the page is ready (asked after each frame until
  // it is); afterFrame(): after every frame drawn (the embedded frame's messages);
  // onStateChange(): it played, paused, stepped, reset or was replaced.
  start({ page, simulations, readyWhen, afterFrame, onStateChange }) {
    let first = true;
    const draw = () => {
      for (const fn of this.#everyFrame) fn();
      if (page.layout === 'analysis') { afterFrame(); return; }  // the canvas and plots are hidden
      simulations.wakeBounds();
      const snapshot = page.sim.snapshot;
      for (const panel of page.panels) panel.frame(snapshot);
      afterFrame();
    };
    const runner = new Runner({
      sim: () => page.sim,
      onFrame: () => {
        // The page is going away (pagehide ends the simulation, web/app/simulation.js): a frame the
        // browser still runs while closing it draws nothing (it read the null simulation's snapshot).
        if (!page.sim) return;
        if (!this.#laidOut || !simulations.panelsSet()) { runner.redraw(); return; }
        draw();
        // The first frame: the motion (its clouds built, if any).
        if (first && page.sim.cloudReady) {
          first = false;
          this.#firstFrameAt = performance.now();
          performance.mark('stepwise:first-frame');
        }
        if (!first && readyWhen()) this.#resolveReady();
      },
      onStateChange,
    });
    page.useRunner(runner);
  }
}
