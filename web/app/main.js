// The composition root: makes the page's parts and wires them together. Data flows one way: a
// config string makes a Simulation (web/app/simulation.js), every panel is set to it, and each
// frame the runner advances it and the panels draw it (web/app/frame-loop.js). The page's state
// is web/app/state.js; each part owns its own.
import { loadCore } from '../engine/wasm.js';
import { nextTask, countStartStage } from '../engine/slices.js';
import { MotionPanel } from '../motion/motion-panel.js';
import { onCursor } from '../motion/cursor.js';
import { onLaneFocus } from '../motion/lane-focus.js';
import { CloudView } from '../views/cloud.js';
import { installViewTabs, reshowAnalysis } from '../views/view-switch.js';
import { Plots } from '../plots/plots.js';
import { Legend } from '../panels/legend.js';
import { installLegendStudy, showMeasuredOrders } from '../panels/legend-study.js';
import { Controls } from '../panels/controls.js';
import { GameLoopPanel } from '../panels/gameloop.js';
import { installPanels } from '../panels/help.js';
import { installXray } from '../xray/xray-button.js';
import { themeColours } from '../common/palette.js';
import { state, mode } from './state.js';
import { usePageLanguage } from './page-language.js';
import { apply, applyInStages, applyKeepingView, settled, endSimulation } from './simulation.js';
import { ready, startFailed, startFrames, allowFrames } from './frame-loop.js';
import { installTransport, transportChanged, transportPanel } from './transport.js';
import { bindDismiss, notify, showStartFailure } from './errors.js';
import { readHash, onHashEdited } from './links.js';
import { installApi } from './api.js';
import { installMessaging } from './messages.js';
import { installShare } from './share.js';
import { registerOffline } from './offline.js';
import { installSceneEditor } from '../editor/entry.js';
import { holdLegendStudy } from '../panels/legend-study.js';
import { holdProbes } from '../engine/bounds.js';
import { keepPlotsByCanvas } from './phone-order.js';

const $ = (id) => document.getElementById(id);

// window.stepwise and the embedded frame's messages are there at once; both wait for `ready`.
installApi(ready);
const messaging = installMessaging(ready);

// Start-up in stages, a task each, each well under the 50 ms of a long task: the module, the
// page's parts, the controls, the presets (a few a task), the first layout, the frame loop and
// the panels' buttons, the first simulation, each panel set to it, the rest of the page, the last
// layout. Each stage is counted (debug.slices().startStagesInTask), so a seam lost shows.
const stage = async () => { await nextTask(); countStartStage(); };
async function start() {
  countStartStage();
  state.core = await loadCore();
  await usePageLanguage(state.core);
  await stage();
  state.theme = themeColours();
  const motion = new MotionPanel($('view'), $('motion-tools'), apply);
  onCursor(() => state.redraw());
  onLaneFocus(() => state.redraw());
  const cloudView = new CloudView($('cloud-view'), $('cloud-panel'));
  // The plots are hidden in an embedded frame unless ui=full: no drawing into hidden canvases.
  const plots = new Plots(document.querySelector('.plots'), () => state.redraw(), mode.ui !== 'full');
  keepPlotsByCanvas(document.querySelector('.plots'), $('cloud-panel'));
  const legend = new Legend($('legend'), $('live-summary'), $('clock'));
  installViewTabs($('view-tabs'), state.core.views, { apply, withoutLoop: (config) => gameLoop.withoutLoop(config) });
  await stage();
  const controls = new Controls($('controls'), {
    core: state.core, set: applyKeepingView, getConfig: () => state.sim.config, getRunConfig: () => state.sim.runConfig, notify,
  });
  const gameLoop = new GameLoopPanel({
    table: state.core.loopTable, controlsRoot: $('controls'), controls, legendBar: document.querySelector('.legend-bar'),
    set: applyKeepingView, getConfig: () => state.sim.config,
  });
  await stage();
  await controls.recognisePresets();
  // The page's first layout (every panel just built: 15–30 ms on a busy machine) in a task of
  // its own, not inside the first frame, which would otherwise force it.
  document.body.getBoundingClientRect();
  await stage();
  startFrames({ plots, messaging, onStateChange: transportChanged });
  // An embedded frame advances only while it is in the host page's view (the runner holds it
  // otherwise); every page, only while its tab is visible.
  if (mode.embed) state.runner.watch(document.documentElement);
  const help = installPanels({
    integrators: state.core.integrators, laneIds: () => state.sim.laneIds, openers: { methods: $('methods-open'), keys: $('keys-open') },
  });
  installTransport({
    pageLegend: legend, openKeys: () => help.openKeys(),
    // In full screen the canvas takes the room the CSS gives it, not the height fitted to the motion.
    onFullscreen: (on) => { motion.view.setFill(on || mode.embed); state.redraw(); },
  });
  installLegendStudy(legend, ready);
  installXray({ view: motion.view, plots });
  // ---- The scene editor (web/editor/): its Edit button now, the editor when first pressed. ----
  const sceneEditor = installSceneEditor({
    core: state.core, sim: () => state.sim, runner: () => state.runner, view: motion.view, apply, notify, mode,
    redraw: () => state.redraw(), after: $('methods-open'),
    // While editing, no legend study and no probe of the motion's box: each edit is a new simulation.
    holdBackground: (on) => { holdProbes(on); holdLegendStudy(on); },
  });
  // ---- end of the scene editor ----
  // The panels, in the order they are set and drawn: with clouds the motion canvas is shorter
  // and the cloud panel fills the column under it; the legend's numbers after the pictures.
  for (const [name, panel] of [['motion', motion], ['cloud', cloudView], ['plots', plots], ['legend', legend],
    ['controls', controls], ['game loop', gameLoop], ['transport', transportPanel], ['editor', sceneEditor]]) state.panels.set(name, panel);

  // An address longer than the core reads was taken off by web/app/mode.js at once: its length says why.
  await stage();
  if (mode.refusedLength) await applyInStages(`scenario=${state.core.limits.default_scenario}`, mode.refusedLength, stage);
  else await applyInStages(readHash() || `scenario=${state.core.limits.default_scenario}`, 0, stage);
  await stage();
  if (!state.sim) await settled();  // a link with a cloud: its simulation is made in the full module
  onHashEdited((hash) => { if (hash !== state.sim.config) apply(hash); });
  bindDismiss();
  installShare({ cloudView, plots });
  if (mode.autoplay) ready.then(() => state.runner.play());
  // After the first frame: the worker's precaching must not compete with the start.
  ready.then(() => registerOffline());

  const resized = new ResizeObserver(() => state.redraw());
  resized.observe($('view'));
  resized.observe($('cloud-panel'));
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    state.theme = themeColours();
    cloudView.invalidate();
    legend.setSimulation(state.sim);
    showMeasuredOrders();
    reshowAnalysis();
    state.redraw();
  });
  // Leave no Embind object behind.
  window.addEventListener('pagehide', endSimulation);
  document.documentElement.classList.add('ready');
  // The style and layout of everything start() built (the legend's rows, the fields' values,
  // the ready class: 20–40 ms the first time) in a task of their own; the first frame draws
  // after it, so the two never add up to one long task.
  await stage();
  document.body.getBoundingClientRect();
  allowFrames();
}

start().catch((error) => {
  showStartFailure(error);
  startFailed(error);
});
