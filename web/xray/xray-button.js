// The "X-ray" button: the stage X-ray of the next step (web/xray/xray.js, loaded the first time)
// pauses the run and opens, or closes when it is open. Until then the page pays nothing for it.
import { state } from '../app/state.js';
import { notify } from '../app/errors.js';
import { t } from '../common/language.js';

let xray = null;      // once it was first opened
let xrayLoad = null;  // its module's loading

// view: the motion canvas (web/motion/view.js) and plots (web/plots/plots.js) it draws over.
export function installXray({ view, plots }) {
  const opener = document.getElementById('xray-open');
  opener.addEventListener('click', () => {
    state.runner.pause();
    // The X-ray opens one step of one integrator: a run of the reference alone has none to show.
    if (!xray?.shown && state.sim.laneIds.length === 0) {
      notify(t('The X-ray shows one step of an integrator, and this run has none (only the reference): tick one under Integrators.'));
      return;
    }
    xrayLoad = xrayLoad || import('./xray.js').then((m) => m.create(document.getElementById('xray'), {
      sim: () => state.sim, view: () => view, plots: () => plots, theme: () => state.theme, laneNames: () => state.laneNames(),
      playing: () => state.runner.playing, layout: () => state.layout, redraw: () => state.redraw(), opener,
    }));
    xrayLoad.then((x) => { xray = x; x.toggle(); }).catch((error) => notify(t('The X-ray could not load: {error}', { error: error.message })));
  });
}

// Before each frame: the X-ray moves on to the next step when the paused simulation stepped,
// and closes when it played, was replaced or another view shows.
export const xrayFrame = () => { if (xray) xray.frame(); };
export const xrayReport = () => (xray ? xray.report() : { open: false });
// The lane the X-ray shows, or null.
export const xrayLane = () => (xray && xray.shown ? xray.shown.id : null);
