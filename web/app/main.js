// The composition root: makes the page's parts and wires them together. Data flows one way: a
// config string makes a Simulation (web/app/simulation.js), every panel is set to it, and each
// frame the runner advances it and the panels draw it (web/app/frame-loop.js). The page's state
// (web/app/state.js) and services (the banner, the simulations, the frame loop) are made here
// once and handed to the parts that use them; no part imports them, and each owns its own state.
import { loadCore } from '../engine/wasm.js';
import { nextTask, countStartStage } from '../engine/slices.js';
import { MotionPanel } from '../motion/motion-panel.js';
import { onCursor } from '../motion/cursor.js';
import { onLaneFocus } from '../motion/lane-focus.js';
import { CloudPanel } from '../views/cloud-panel.js';
import { createViewSwitch } from '../views/view-switch.js';
import { viewRow } from '../views/views.js';
import { Plots } from '../plots/plots.js';
import { Legend } from '../panels/legend.js';
import { Controls } from '../panels/controls.js';
import { GameLoopPanel } from '../panels/gameloop.js';
import { installSceneEditor } from '../editor/entry.js';
import { PageState } from './state.js';
import { usePageLanguage } from './page-language.js';
import { createSimulations } from './simulation.js';
import { FrameLoop } from './frame-loop.js';
import { createTransport } from './transport.js';
import { laterPart } from './later.js';
import { MessageBanner, showStartFailure } from './errors.js';
import { readHash, onHashEdited } from './links.js';
import { installApi } from './api.js';
import { installMessaging } from './messages.js';
import { registerOffline } from './offline.js';
import { t } from '../common/language.js';
import { keepPlotsByCanvas } from './phone-order.js';

const $ = (id) => document.getElementById(id);

// The embed options web/app/mode.js read from the address's query before the first paint: a
// classic script's one way to hand them to the modules, read here only and handed on in the page.
const mode = globalThis.__stepwiseMode || { embed: false, ui: 'full', autoplay: false, options: [] };

// The page's spine, made before anything else: its state, its message banner, the view switch,
// the simulations and the frame loop; every part is handed what it uses of them.
const page = new PageState({ mode, layoutOf: (id) => viewRow(id).layout });
const banner = new MessageBanner(page);
const views = createViewSwitch({ page, notify: banner.notify });
const simulations = createSimulations({ page, banner, views });
const { apply, applyKeepingView } = simulations;
const frames = new FrameLoop();
const transport = createTransport(page);

// What the first frame does not need (web/app/later-parts.js: the help dialogs, the X-ray's
// button, sharing and export, the legend's quick study, the plots' readouts), imported once the
// page is ready, never before its first frame, and handed the panels start() made (panelsMade);
// a press of one of its controls or keys before then waits for it (whenLater).
let panelsMade;
const panels = new Promise((resolve) => { panelsMade = resolve; });
const later = laterPart({
  after: Promise.all([panels, frames.ready]),
  load: ([made]) => import('./later-parts.js').then((m) => m.installLaterParts({ page, banner, frames, ...made }), (error) => {
    banner.notify(t('Part of the page could not load: {error}', { error: error.message }));
    throw error;
  }),
});
// fn(the later parts) once they are there; a failed load is the banner's to say (above).
const whenLater = (fn) => later.get().then(fn, () => undefined);

// window.stepwise and the embedded frame's messages are there at once; both wait for `ready`,
// the API's until the later parts are there too (its reports read them, and every button works).
// debug's reports by name -> the part's name in the page (below).
const reports = { canvas: 'motion', cloud: 'cloud', plots: 'plots', editor: 'editor', xray: 'xray' };
installApi({ ready: frames.ready.then(later.get).then(() => undefined), page, banner, simulations, frames, views, reports });
const messaging = installMessaging({ ready: frames.ready, page, apply, errorMessages: () => banner.messages() });

// Start-up in stages, a task each, each well under the 50 ms of a long task: the module, the
// page's parts, the controls, the presets (a few a task), the first layout, the frame loop and
// the panels' buttons, the first simulation, each panel set to it, the rest of the page, the last
// layout. Each stage is counted (debug.slices().startStagesInTask), so a seam lost shows.
const stage = async () => { await nextTask(); countStartStage(); };
async function start() {
  countStartStage();
  page.useCore(await loadCore());
  await usePageLanguage(page.core);
  await stage();
  page.readTheme();
  const motion = new MotionPanel($('view'), $('motion-tools'), { page, apply });
  onCursor(() => page.redraw());
  onLaneFocus(() => page.redraw());
  const cloudView = new CloudPanel($('cloud-view'), $('cloud-panel'), page, banner.notify);
  // The plots are hidden in an embedded frame unless ui=full: no drawing into hidden canvases.
  const plots = new Plots(document.querySelector('.plots'), { page, requestDraw: () => page.redraw(), notify: banner.notify, hidden: mode.ui !== 'full' });
  keepPlotsByCanvas(document.querySelector('.plots'), $('cloud-panel'));
  const legend = new Legend($('legend'), $('live-summary'), $('clock'), page);
  panelsMade({ motion, cloud: cloudView, plots, legend });
  // The legend's quick study is a later part: what the view shown asks of it waits for it, in order.
  views.installTabs($('view-tabs'), page.core.views, { apply, withoutLoop: (config) => gameLoop.withoutLoop(config) }, {
    motionShown: () => whenLater((p) => p.legendStudy.schedule()),
    analysisShown: () => whenLater((p) => p.legendStudy.cancel()),
    studied: () => whenLater((p) => p.legendStudy.showMeasured()),
  });
  await stage();
  const controls = new Controls($('controls'), {
    core: page.core, set: applyKeepingView, getConfig: () => page.sim.config, getRunConfig: () => page.sim.runConfig,
    getErrors: () => page.configErrors, notify: banner.notify,
  });
  const gameLoop = new GameLoopPanel({
    table: page.core.loopTable, controlsRoot: $('controls'), controls, legendBar: document.querySelector('.legend-bar'),
    set: applyKeepingView, getConfig: () => page.sim.config,
  });
  await stage();
  await controls.recognisePresets();
  // The page's first layout (every panel just built: 15–30 ms on a busy machine) in a task of
  // its own, not inside the first frame, which would otherwise force it.
  document.body.getBoundingClientRect();
  await stage();
  // Ready once the first frame's plots show too, a frame later (web/plots/plots.js frame), and
  // with a game loop, once the notice of a view it rules out is loaded.
  frames.start({
    page, simulations, onStateChange: () => transport.changed(), afterFrame: () => messaging.frame(),
    readyWhen: () => (plots.drawn || page.layout === 'analysis') && views.loopNoticeReady(),
  });
  // An embedded frame advances only while it is in the host page's view (the runner holds it
  // otherwise); every page, only while its tab is visible.
  if (mode.embed) page.runner.watch(document.documentElement);
  // The later parts' controls (help.js's, xray-button.js's, share.js's), shown from the start: a
  // press before they are there waits for them.
  later.hold(['methods-open', 'keys-open', 'xray-open', 'copy-link', 'embed', 'step-code', 'export-csv', 'export-png', 'export-json'].map($));
  transport.install({
    pageLegend: legend, openKeys: () => whenLater((p) => p.help.openKeys()),
    // In full screen the canvas takes the room the CSS gives it, not the height fitted to the motion.
    onFullscreen: (on) => { motion.view.setFill(on || mode.embed); page.redraw(); },
  });
  // ---- The scene editor (web/editor/): its Edit button now, the editor when first pressed. ----
  const sceneEditor = installSceneEditor({
    core: page.core, sim: () => page.sim, runner: () => page.runner, view: motion.view, apply, notify: banner.notify, mode,
    redraw: () => page.redraw(), after: $('methods-open'),
    // While editing, the page's background work waits (each edit is a new simulation).
    holdBackground: (on) => page.holdBackground(on),
  });
  // ---- end of the scene editor ----
  // The panels, in the order they are set and drawn: with clouds the motion canvas is shorter
  // and the cloud panel fills the column under it; the legend's numbers after the pictures.
  for (const [name, panel] of [['motion', motion], ['cloud', cloudView], ['plots', plots], ['legend', legend],
    ['controls', controls], ['game loop', gameLoop], ['transport', transport.panel], ['editor', sceneEditor]]) page.addPanel(name, panel);

  // An address longer than the core reads was taken off by web/app/mode.js at once: its length says why.
  await stage();
  if (mode.refusedLength) await simulations.applyInStages(`scenario=${page.core.limits.default_scenario}`, mode.refusedLength, stage);
  else await simulations.applyInStages(readHash() || `scenario=${page.core.limits.default_scenario}`, 0, stage);
  await stage();
  if (!page.sim) await simulations.settled();  // a link with a cloud: its simulation is made in the full module
  onHashEdited((hash) => { if (hash !== page.sim.config) apply(hash); });
  banner.bindDismiss();
  if (mode.autoplay) frames.ready.then(() => page.runner.play());
  // After the first frame and the later parts: the worker's precaching must not compete with them.
  frames.ready.then(() => whenLater(() => undefined)).then(() => registerOffline());

  const resized = new ResizeObserver(() => page.redraw());
  resized.observe($('view'));
  resized.observe($('cloud-panel'));
  // A new colour scheme: each part that draws in it follows (PageState.onThemeChange).
  page.followColourScheme();
  // Leave no Embind object behind.
  window.addEventListener('pagehide', simulations.endSimulation);
  document.documentElement.classList.add('ready');
  // The style and layout of everything start() built (the legend's rows, the fields' values,
  // the ready class: 20–40 ms the first time) in a task of their own; the first frame draws
  // after it, so the two never add up to one long task.
  await stage();
  document.body.getBoundingClientRect();
  frames.allowFrames();
}

start().catch((error) => {
  showStartFailure(error);
  frames.startFailed(error);
});
