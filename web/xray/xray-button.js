// The "X-ray" button: the stage X-ray of the next step (web/xray/xray.js, loaded the first time)
// pauses the run and opens, or closes when it is open. Until then the page pays nothing for it.
import { t } from '../common/language.js';

// page: the PageState (web/app/state.js); notify(message): the page's message banner; view: the
// motion canvas (web/motion/view.js) and plots (web/plots/plots.js) it draws over. Returns the
// X-ray as a part of the page: frame() before each frame (the frame loop's everyFrame), report()
// and shownLane().
export function installXray({ page, notify, view, plots }) {
  let xray = null;      // once it was first opened
  let xrayLoad = null;  // its module's loading
  const opener = document.getElementById('xray-open');
  opener.addEventListener('click', () => {
    page.runner.pause();
    // The X-ray opens one step of one integrator: a run of the reference alone has none to show.
    if (!xray?.shown && page.sim.laneIds.length === 0) {
      notify(t('The X-ray shows one step of an integrator, and this run has none (only the reference): tick one under Integrators.'));
      return;
    }
    xrayLoad = xrayLoad || import('./xray.js').then((m) => m.create(document.getElementById('xray'), {
      sim: () => page.sim, view: () => view, plots: () => plots, theme: () => page.theme, laneNames: () => page.laneNames(),
      playing: () => page.runner.playing, layout: () => page.layout, redraw: () => page.redraw(), opener,
    }));
    xrayLoad.then((x) => { xray = x; x.toggle(); }).catch((error) => notify(t('The X-ray could not load: {error}', { error: error.message })));
  });
  return {
    // Before each frame: the X-ray moves on to the next step when the paused simulation stepped,
    // and closes when it played, was replaced or another view shows.
    frame: () => { if (xray) xray.frame(); },
    report: () => (xray ? xray.report() : { open: false }),
    // The lane the X-ray shows, or null.
    shownLane: () => (xray && xray.shown ? xray.shown.id : null),
  };
}
