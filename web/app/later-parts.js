// The parts of the page its first frame does not need, in a module of their own that the
// composition root (web/app/main.js) imports once the page is ready (its first frame and plots
// drawn), never before: the help dialogs (Methods, Keyboard), the X-ray's button, sharing and
// export (Copy link, Embed, Step code, CSV, PNG, JSON), the legend's measured orders (its
// quick study) and the plots' readouts (a plot read at a time by hover, touch or keys). Their buttons are in the page's HTML from the start; a press before this module
// is there waits for it (web/app/later.js), and so does the ? key. What each part
// needs is handed in, as main.js hands it to the parts it makes itself.
import { installPanels } from '../panels/help.js';
import { createLegendStudy } from '../panels/legend-study.js';
import { installXray } from '../xray/xray-button.js';
import { PlotReadout } from '../plots/plot-readout.js';
import { installShare } from './share.js';
import { shortcuts } from './keyboard.js';

const $ = (id) => document.getElementById(id);

// page: the PageState (web/app/state.js); banner: the MessageBanner (web/app/errors.js); frames:
// the FrameLoop (web/app/frame-loop.js); motion, cloud, plots, legend: the page's panels of those
// names. Returns {help (openMethods, openKeys), legendStudy (schedule, cancel, showMeasured)}.
export function installLaterParts({ page, banner, frames, motion, cloud, plots, legend }) {
  const help = installPanels({
    integrators: page.core.integrators, laneIds: () => page.sim.laneIds, shortcuts, openers: { methods: $('methods-open'), keys: $('keys-open') },
  });
  const xray = installXray({ page, notify: banner.notify, view: motion.view, plots });
  frames.everyFrame(xray.frame);  // a step, play, a new config or another view closes the X-ray
  page.addPart('xray', xray);
  installShare({ page, cloudView: cloud, plots, shownLane: xray.shownLane });
  const legendStudy = createLegendStudy({ page, legend, ready: frames.ready });
  plots.attachReadouts(PlotReadout);
  return { help, legendStudy };
}
