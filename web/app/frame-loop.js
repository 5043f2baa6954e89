// The frame loop: the runner (web/engine/runner.js) steps the simulation, and after every frame
// that advanced or asked to be drawn the page's panels draw it (state.panels: an analysis view
// hides them all). Says when the page is ready: its first frame drawn, plots and all.
import { Runner } from '../engine/runner.js';
import { state } from './state.js';
import { wakeBounds, panelsSet } from './simulation.js';
import { loopNoticeReady } from '../views/view-switch.js';
import { xrayFrame } from '../xray/xray-button.js';

let resolveReady, rejectReady;
export const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
export const startFailed = (error) => rejectReady(error);

let laidOut = false;  // the start-up's last layout is done: frames may draw
let firstFrameAt = null;
// When the first frame was drawn (performance.now()), or null.
export const firstFrameMs = () => firstFrameAt;

// The start-up's last layout is done (web/app/main.js): from now on frames draw.
export function allowFrames() { laidOut = true; }

// Makes the page's runner (state.runner). plots: whether its first frame's plots are drawn yet
// (drawn()); messaging: the embedded frame's messages (frame() after every frame drawn);
// onStateChange(): it played, paused, stepped, reset or was replaced.
export function startFrames({ plots, messaging, onStateChange }) {
  let first = true;
  const draw = () => {
    xrayFrame();  // a step, play, a new config or another view closes the X-ray
    if (state.layout === 'analysis') { messaging.frame(); return; }  // the canvas and plots are hidden
    wakeBounds();
    const snapshot = state.sim.snapshot;
    for (const panel of state.panels.values()) panel.frame(snapshot);
    messaging.frame();
  };
  state.runner = new Runner({
    sim: () => state.sim,
    onFrame: () => {
      // The page is going away (pagehide ends the simulation, web/app/simulation.js): a frame the
      // browser still runs while closing it draws nothing (it read the null simulation's snapshot).
      if (!state.sim) return;
      if (!laidOut || !panelsSet()) { state.runner.redraw(); return; }
      draw();
      // The first frame: the motion (its clouds built, if any). Ready once the plots show too,
      // a frame later (web/plots/plots.js frame).
      if (first && state.sim.cloudReady) {
        first = false;
        firstFrameAt = performance.now();
        performance.mark('stepwise:first-frame');
      }
      // With a game loop, once the notice of a view it rules out is loaded too.
      if (!first && (plots.drawn || state.layout === 'analysis') && loopNoticeReady()) resolveReady();
    },
    onStateChange,
  });
}
