// The legend's measured orders: from a finished study of this physics (the convergence view's,
// or a quick one run in slices once the motion view is up, web/engine/study.js). Never blocks a
// frame.
import { state, mode } from '../app/state.js';
import { valueOf } from '../app/links.js';
import { runStudy, storedStudy, studySizes, physicsKey } from '../engine/study.js';

// A quick study a moment after the config settles (a dragged slider starts none per step).
const legendStudyDelayMs = 400;
let legend = null;
let ready = null;        // the page's first frame (the study's full module loads after it)
let study = null;        // the quick study running
let studyTimer = null;

// legend: the page's Legend (web/panels/legend.js); firstFrame: a promise of the page's first frame.
export function installLegendStudy(pageLegend, firstFrame) {
  legend = pageLegend;
  ready = firstFrame;
}

// Shows the stored study of this physics, if there is one; says whether there was.
export function showMeasuredOrders() {
  const stored = storedStudy(state.sim.config);
  legend.measured(stored ? stored.results : null);
  return Boolean(stored);
}

export function cancelLegendStudy() {
  clearTimeout(studyTimer);
  studyTimer = null;
  if (study) study.cancel();
  study = null;
}

// No study while the scene editor is open (each edit is a new simulation): it runs once the
// editor closes (web/editor/editor.js, through web/app/main.js).
let held = false;
export function holdLegendStudy(on) {
  held = on;
  if (on) cancelLegendStudy();
  else if (state.sim) scheduleLegendStudy();
}

export function scheduleLegendStudy() {
  cancelLegendStudy();
  // An embedded frame's legend has no badges (style.css): no study, and no full module to load
  // for it (a lesson's frames each would).
  if (mode.embed || held) return;
  // A game loop's step is the loop's, not a dt to halve (the convergence view refuses a loop too).
  if (valueOf(state.sim.config, 'loop') !== null) { legend.measured(null); return; }
  if (showMeasuredOrders()) return;
  const config = state.sim.config;
  // The study runs in the full module: loaded after the first frame, in the background.
  const timer = setTimeout(() => ready.then(() => state.core.full()).then(() => {
    if (studyTimer !== timer || !state.sim || physicsKey(state.sim.config) !== physicsKey(config)) return;
    studyTimer = null;
    study = runStudy(state.core, config, studySizes.quick, {
      onDone: () => { study = null; if (physicsKey(state.sim.config) === physicsKey(config)) showMeasuredOrders(); },
    });
  }).catch(() => { legend.measured(null); }), legendStudyDelayMs);
  studyTimer = timer;
}
