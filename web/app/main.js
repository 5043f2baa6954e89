// Wires the page together: the core (wasm), the runner, the canvas view, the plots, the legend,
// the controls, the address hash and window.stepwise. Data flows one way: a config string makes
// a Simulation; each frame the runner advances it and the view, plots and legend draw it.
import { loadCore } from '../engine/wasm.js';
import { Runner, defaultBudgetMs } from '../engine/runner.js';
import { View } from '../motion/view.js';
import { CloudView, ownTaskPoints } from '../views/cloud.js';
import { Plots } from '../plots/plots.js';
import { Legend, LiveSummary } from '../panels/legend.js';
import { Controls } from '../panels/controls.js';
import { readHash, writeHash, onHashEdited, withKey, valueOf, oversize, oversizeLength } from './links.js';
import { themeColours } from '../common/palette.js';
import { installApi } from './api.js';
import { bindKeyboard } from './keyboard.js';
import { installMessaging } from './messages.js';
import { installShare, linkFor } from './share.js';
import { ViewTabs } from '../views/viewtabs.js';
import { viewRow } from '../views/views.js';
import { runStudy, storedStudy, studySizes, physicsKey } from '../engine/study.js';
import { sliceStats, nextTask } from '../engine/slices.js';
import { BoundsProbe, holdProbes } from '../engine/bounds.js';
import { GameLoopPanel } from '../panels/gameloop.js';
import { installFrameControls } from '../motion/framecontrols.js';
import { installPanels } from '../panels/help.js';
import { ViewTools } from '../motion/view-tools.js';
import { onCursor } from '../motion/cursor.js';
import { highlightedLane, onLaneFocus } from '../motion/lane-focus.js';
import { registerOffline } from './offline.js';
import { chooseLanguage, linkLanguage, useLanguage, localisePage, localiseTables, coreMessage, pageMessage, t } from '../common/language.js';
import { setNumberLanguage, fixed } from '../common/text.js';
import { state } from './state.js';
import { el } from '../common/dom.js';
import { methodOf } from '../common/lanes.js';
import { installSceneEditor } from '../editor/entry.js';

// Set by mode.js from the address's query: embedded or not, which controls, autoplay.
const mode = window.__stepwiseMode || { embed: false, ui: 'full', autoplay: false, options: [] };

const $ = (id) => document.getElementById(id);

// The page's language: the link's lang= (read before the core checks it, to start loading its
// texts at once), else the browser's (web/common/language.js). English is built in; another language's
// table (web/strings/<id>.js) loads beside the module, before the first frame.
const languageTables = { de: () => import('../strings/de.js') };
const pageLanguageId = chooseLanguage(linkLanguage(location.hash), navigator.languages || []);
const languageLoad = languageTables[pageLanguageId] ? languageTables[pageLanguageId]() : Promise.resolve(null);

let runner = null;
let view = null;
let cloudView = null;
let plots = null;
let legend = null;
let liveSummary = null;  // the aria-live summary of the numbers (web/panels/legend.js)
let controls = null;
let tabs = null;
let loopNotice = null;       // what that view shows in its place (web/views/loop-notice.js, loaded once a loop is on)
let loopNoticeLoad = null;
let loopNoticeShown = null;  // what it is to show: {view, name, loop}, or null
const loadLoopNotice = () => {
  loopNoticeLoad = loopNoticeLoad || import('../views/loop-notice.js').then((m) => {
    // One click turns the loop off (its physics step stays as dt) and opens the view.
    loopNotice = new m.LoopNotice($('analysis'), (id) => apply(withKey(gameLoop.withoutLoop(state.sim.config), 'view', id)));
    loopNotice.show(loopNoticeShown);
    // The page is ready once the notice is loaded (see onFrame): draw once more to say so.
    if (runner) runner.dirty = true;
  });
  return loopNoticeLoad;
};
// Shows (or, with null, hides) the notice of a view the game loop rules out.
function showLoopNotice(shown) {
  loopNoticeShown = shown;
  if (loopNotice) loopNotice.show(shown);
  else if (shown) loadLoopNotice();
}
const analyses = new Map();  // view id -> Promise of its analysis module's instance
let legendStudy = null;      // the quick study behind the legend's measured orders
let legendStudyTimer = null;
let boundsProbe = null;      // finds the motion's box ahead of the animation
let gameLoop = null;         // the game loop's controls and legend line (web/panels/gameloop.js)
const timing = { frames: 0, simMs: 0, drawMs: 0, steps: 0 };
let xray = null;             // the stage X-ray (web/xray/xray.js), once it was first opened
let xrayLoad = null;         // its module's loading
let frameControls = null;    // play, restart and full screen over the canvas (web/motion/framecontrols.js)
let viewTools = null;        // the motion canvas's layout, zoom, follow, arrows and timeline
let sceneEditor = null;      // the scene editor's panel (web/editor/entry.js)
let studiesHeld = false;     // no legend study while the scene editor is open (holdBackground)

const app = {
  get core() { return state.core; },
  get runner() { return runner; },
  config: () => state.sim.config,
  snapshot: () => state.sim.snapshot,
  scene: () => state.sim.scene,
  dt: () => state.sim.dt,
  playing: () => runner.playing,
  // The embed options' problems (web/app/mode.js) first: they stay for the page's life.
  errors: () => [...(mode.problems || []).map(pageMessage),
    ...new Set(state.configErrors.map(describeError)), ...state.uiErrors],
  set: (query) => apply(query),
  settled: () => Promise.resolve(fullModuleWait).then(() => undefined),
  timings: () => {
    const r = runner.recent, n = Math.min(r.count, r.sim.length);
    // The last frames' times, oldest first.
    const last = (a) => Array.from({ length: n }, (_, k) => a[(r.count - n + k) % a.length]);
    return {
      ...runner.stats, capped: runner.capped, maxStepsPerFrame: runner.maxStepsPerFrame,
      budgetMs: runner.budgetMs, stepMs: runner.stepMs, recentSimMs: last(r.sim), recentDrawMs: last(r.draw),
      cloud: cloudView ? { ...cloudView.stats } : null,
      reads: state.sim ? { ...state.sim.readMs } : null,
    };
  },
  cloud: () => state.sim.cloud,
  cloudView: () => panel('cloud').report(),
  mode,
  view: () => (view && view.base ? { ...view.base, following: view.following, bounds: { ...state.sim.bounds } } : null),
  canvas: () => (view ? panel('motion').report() : null),
  shownView: () => state.viewId,
  slices: () => ({ ...sliceStats }),
  analysis: async () => (state.viewId === state.refusedView ? (await loadLoopNotice(), loopNotice.report())
    : analyses.has(state.viewId) ? (await analyses.get(state.viewId)).report() : null),
  xray: () => (xray ? xray.report() : { open: false }),
  plots: () => (plots ? panel('plots').report() : null),
  editor: () => (sceneEditor ? sceneEditor.report() : null),
};

// The core's message names the key and what is allowed, and quotes the bad value, except for a
// few (a repeated key, an over-long value): then the value is added. Identical messages are shown once.
// The embed options belong in the address's query (web/app/mode.js), not in the config after '#':
// a link with them in the hash gets the core's "unknown key" and where to put them instead.
// In another language than English the core's message is translated from its parts
// (web/strings/<id>.js coreMessage: the key, the value and what is allowed), never shown half-translated.
function describeError(e) {
  const value = typeof e.value === 'string' ? e.value : '';
  const text = coreMessage(e);
  const message = value === '' || text.includes(`'${value}'`) ? text : `${text} ${t("(value: '{value}')", { value })}`;
  if (!mode.options.includes(e.key)) return message;
  return `${message}. ${t("{key} is an embed option: put it in the query before the '#', as in embed.html?{key}=…#scenario=…", { key: e.key })}`;
}

const laneNames = () => state.laneNames();

// "Spring: Explicit Euler vs RK4", for the embed snippet's title and the PNG.
function title() {
  const names = laneNames();
  const list = names.length <= 3 ? names.join(t(' vs ')) : t('{n} integrators', { n: names.length });
  const scenario = state.core.scenarios.find((s) => s.id === valueOf(state.sim.config, 'scenario'));
  return `${scenario ? scenario.name : state.sim.scene.name}: ${list}`;
}

// What the postMessage API reports: plain numbers and strings only.
function summary() {
  const s = state.sim.snapshot;
  const names = laneNames();
  return {
    t: s.t, steps: s.steps, playing: runner.playing, config: state.sim.config,
    integrators: s.lanes.map((lane, l) => ({
      id: lane.id, name: names[l], drift: lane.drift, error: lane.error,
      diverged: lane.diverged, divergedAt: lane.diverged ? lane.divergedAt : null,
      stopReason: lane.stopReason,
    })),
  };
}

let resolveReady, rejectReady;
const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
const api = installApi(app, ready);
const messaging = installMessaging({
  set: (query) => apply(query),
  play: () => runner.play(),
  pause: () => runner.pause(),
  step: () => runner.step(),
  reset: () => runner.reset(),
  state: () => summary(),
  errors: () => app.errors(),
  limits: () => (state.core ? state.core.limits : null),
}, ready);


// The message banner: every problem of the link (the core's messages name the key, the bad
// value and what is allowed), dismissable; it comes back when the problems change.
let shownErrors = '';
function showErrors() {
  const banner = $('errors');
  const messages = app.errors();
  const key = messages.join('\n');
  if (key === shownErrors && banner.dataset.dismissed === 'true') return;
  shownErrors = key;
  banner.dataset.dismissed = 'false';
  $('error-list').replaceChildren(...messages.map((m) => {
    const li = document.createElement('li');
    li.textContent = m;  // never innerHTML: messages quote text from the address
    return li;
  }));
  const n = state.configErrors.length;
  $('errors-title').textContent = n === 0 ? ''
    : n === 1 ? t('One part of this link could not be used; the rest was.')
      : t('{n} parts of this link could not be used; the rest was.', { n });
  banner.hidden = messages.length === 0;
}

function notify(message) {
  state.uiErrors = [message];
  showErrors();
}

// Makes a new Simulation from a config string (its valid parts; the errors are shown), deletes
// the old one, and shows the normalised config everywhere, the address hash included. A query
// longer than the core could read is refused whole before it reaches the module (the current
// run goes on; at start-up the default one runs), with the reason shown.
function apply(query, refusedAtLoad = 0) {
  const refused = refusedAtLoad ? oversizeLength(refusedAtLoad, state.core.limits) : oversize(query, state.core.limits);
  if (refused && state.sim) {
    notify(refused);
    return state.sim.config;
  }
  const asked = refused ? `scenario=${state.core.limits.default_scenario}` : query;
  const next = withViewDefaults(state.core.createSimulation(asked));
  if (next.needsFullModule) return applyWithFullModule(next, asked);
  fullModuleWait = null;
  if (boundsProbe) boundsProbe.cancel();
  if (state.sim) state.sim.delete();
  state.sim = next;
  // The rest of the motion's box, found in slices between frames (web/engine/bounds.js), and the rest
  // of the clouds (the run takes its first step once they are all built).
  boundsProbe = new BoundsProbe(state.sim, { shownTime: () => state.sim.snapshot.t, onGrow: () => { runner.dirty = true; } });
  buildClouds(state.sim);
  // The Simulation's errors: the parser's, and the page's own limits (a cloud too large here). A
  // view the core cannot run with the game loop is no error of the link: the view says so itself.
  state.uiErrors = refused ? [refused] : [];
  showErrors();
  // Stepping clouds of many points is costly, and drawing them too: a smaller time budget per
  // frame for the stepping keeps the page fluid (the run is then slower than asked, and says so).
  // Large clouds are drawn in tasks of their own (web/views/cloud.js), so they leave the frame more.
  runner.budgetMs = state.sim.cloud.points > 0 && state.sim.cloud.points * state.sim.cloud.lanes <= ownTaskPoints
    ? cloudStepBudgetMs : defaultBudgetMs;
  for (const panel of panels) panel.setSimulation(state.sim);
  if (state.sim.loop.kind) loadLoopNotice();  // a view the loop rules out shows its notice at once
  $('step').title = state.sim.loop.kind ? t('Advance one game frame (→)') : t('Advance exactly one dt (→)');
  writeHash(state.sim.config);
  // A link in another language than the page's (typed into the address, or set by a host): the
  // page starts again in it, once the address holds the link.
  const linkLang = valueOf(state.sim.config, 'lang');
  if (linkLang && linkLang !== pageLanguageId) {
    const link = state.sim.config;
    setTimeout(() => { history.replaceState(null, '', `#${link}`); location.reload(); }, 0);
  }
  $('config-string').textContent = state.sim.config;
  $('frame-title').textContent = `Stepwise: ${title()}`;  // an embedded frame's heading
  $('open-full').href = linkFor(state.sim.config);
  runner.replaced();
  showView(state.viewId);
  return state.sim.config;
}

// A change made with the page's own controls keeps a view shown in place of one the loop rules
// out: the notice stays while the loop does, and the view opens once the loop is off.
function applyKeepingView(query) {
  return apply(state.refusedView && valueOf(query, 'view') === null ? withKey(query, 'view', state.refusedView) : query);
}

// A link that asks for a phase-space cloud runs in the full module (web/engine/wasm.js): until it has
// loaded the current run goes on (at start-up nothing runs yet), then the link is applied. The
// link shows in the address at once; a later link replaces this one.
let fullModuleWait = null;
function applyWithFullModule(handle, query) {
  const config = handle.config;
  handle.delete();
  const wait = state.core.full().then(() => { if (fullModuleWait === wait) apply(query); });
  fullModuleWait = wait;
  wait.catch((error) => notify(t('The phase-space cloud could not load: {error}', { error: error.message })));
  writeHash(config);
  return config;
}

// Builds a simulation's clouds in slices between frames until they are all there.
const cloudBuildSliceMs = 8;
function buildClouds(handle) {
  const next = () => {
    if (state.sim !== handle) return;  // replaced meanwhile
    if (handle.prepare(cloudBuildSliceMs)) runner.dirty = true;
    else setTimeout(next, 0);
  };
  if (!handle.cloudReady) setTimeout(next, 0);
}

// What a view adds to a link that lacks it: the cloud view starts a cloud of its default size
// when the link asks for none (a link with a bad cloud value keeps it, and its error). Given the
// simulation of the link, and returns it or its replacement: the link crosses into the module
// once (a 400 KB link took 8 ms to encode and 6 ms to parse, twice). The view's cloud runs
// (runConfig) but is not the user's setting: the link (config) stays the one asked for, so it
// never enters the address, Copy link or an embed, and leaving the view leaves no cloud behind.
// A cloud setting the user changes is written into the link (Controls edits runConfig's).
function withViewDefaults(handle) {
  const row = viewRow(valueOf(handle.config, 'view') || state.core.views[0].id);
  const query = handle.query, link = handle.config;
  if (!row.cloudPoints || valueOf(handle.config, 'cloud') !== null || valueOf(query, 'cloud') !== null) return handle;
  handle.delete();
  const run = state.core.createSimulation(withKey(query, 'cloud', Math.min(row.cloudPoints, state.core.limits.max_page_cloud_points)));
  run.config = link;
  return run;
}

// Shows a view: its layout (html[data-layout] drives the CSS), its tab, and for an analysis its
// module (loaded once, on demand), shown with the current simulation. The others stop their work.
function showView(id) {
  const row = viewRow(id);
  const refused = id === state.refusedView;  // the loop's notice in its place
  const layout = shownLayout();
  document.documentElement.dataset.layout = layout;
  tabs.show(id, refused ? 'analysis' : null);
  // The analysis region, which a screen reader reads as the selected tab's panel.
  $('analysis').setAttribute('aria-labelledby', `tab-${id}`);
  for (const [other, instance] of analyses) if (other !== id || refused) instance.then((v) => v.hide());
  showLoopNotice(refused ? { view: id, name: state.core.views.find((v) => v.id === id)?.name || id, loop: state.sim.loop, error: state.refusal } : null);
  if (layout === 'analysis') {
    runner.pause();
    cancelLegendStudy();
    if (refused) { runner.dirty = true; return; }
    // The module's evaluation, the view's creation and its first show are three tasks: run in
    // one (the microtasks after an import), they were one 80-120 ms task on a busy machine.
    if (!analyses.has(id)) {
      // The analyses run in the full module (loaded once, beside the view's own module).
      analyses.set(id, Promise.all([row.load(), state.core.full()])
        .then(async ([m]) => { await nextTask(); return m.create($('analysis'), analysisContext); }));
    }
    const shown = state.sim;
    analyses.get(id).then(async (v) => { await nextTask(); if (state.viewId === id && state.sim === shown) v.show(state.sim); })
      .catch((error) => notify(t('The {view} view could not load: {error}', { view: row.name || id, error: error.message })));
  } else {
    scheduleLegendStudy();
  }
  runner.dirty = true;
}

// The shown view's layout: its row's, or an analysis's for the loop's notice in its place.
function shownLayout() {
  return state.viewId === state.refusedView ? 'analysis' : viewRow(state.viewId).layout;
}

// What an analysis view gets from the page.
const analysisContext = {
  get core() { return state.core; },
  get theme() { return state.theme; },
  laneNames: () => laneNames(),
  // A study finished: the legend shows its measured orders when it is of the current physics.
  studied: () => showMeasuredOrders(),
};

// The legend's measured orders: from a finished study of this physics (the convergence view's,
// or a quick one run in slices once the motion view is up). Never blocks a frame.
function showMeasuredOrders() {
  const stored = storedStudy(state.sim.config);
  legend.measured(stored ? stored.results : null);
  return Boolean(stored);
}

function cancelLegendStudy() {
  clearTimeout(legendStudyTimer);
  legendStudyTimer = null;
  if (legendStudy) legendStudy.cancel();
  legendStudy = null;
}

// A quick study a moment after the config settles (a dragged slider starts none per step).
const legendStudyDelayMs = 400;
function scheduleLegendStudy() {
  cancelLegendStudy();
  // An embedded frame's legend has no badges (style.css): no study, and no full module to load
  // for it (a lesson's frames each would). Nor while a scene is being edited (each edit is a new
  // simulation): the study runs once Edit mode is left (holdBackground below).
  if (mode.embed || studiesHeld) return;
  // A game loop's step is the loop's, not a dt to halve (the convergence view refuses a loop too).
  if (valueOf(state.sim.config, 'loop') !== null) { legend.measured(null); return; }
  if (showMeasuredOrders()) return;
  const config = state.sim.config;
  // The study runs in the full module: loaded after the first frame, in the background.
  const timer = setTimeout(() => ready.then(() => state.core.full()).then(() => {
    if (legendStudyTimer !== timer || !state.sim || physicsKey(state.sim.config) !== physicsKey(config)) return;
    legendStudyTimer = null;
    legendStudy = runStudy(state.core, config, studySizes.quick, {
      onDone: () => { legendStudy = null; if (physicsKey(state.sim.config) === physicsKey(config)) showMeasuredOrders(); },
    });
  }).catch(() => { legend.measured(null); }), legendStudyDelayMs);
  legendStudyTimer = timer;
}

// Switching views goes through the config: the link, embeds and Copy link keep it.
function selectView(id) {
  if (id === state.viewId) return;
  apply(withKey(state.sim.config, 'view', id));
}

// The plots change slowly: redrawing them 10 times a second while playing is plenty, and
// leaves the frame budget to the animation.
const plotInterval = 100;  // ms
let lastPlot = -Infinity;
let plotsAfterFirstFrame = true;
let laidOut = false;  // the start-up's last layout is done: frames may draw
let plotsDrawn = false;
let plotRound = false;  // a round of the plots under way, a plot a frame (while playing)
// Milliseconds of stepping per frame when there are clouds (see Runner.budgetMs).
const cloudStepBudgetMs = 5;

function draw() {
  if (xray) xray.frame();  // a step, play, a new config or another view closes the X-ray
  if (shownLayout() === 'analysis') { messaging.frame(); return; }  // the canvas and plots are hidden
  boundsProbe.wake();
  const snapshot = state.sim.snapshot;
  for (const panel of panels) panel.frame(snapshot);
  $('capped').hidden = !runner.capped;
  messaging.frame();
}

// The plots, throttled: see plotInterval.
function drawPlots(snapshot) {
  const now = performance.now();
  if (plotsAfterFirstFrame) {
    // The page's first frame draws the motion alone and the plots one frame later: together
    // they were one task of 40–50 ms on a busy machine.
    plotsAfterFirstFrame = false;
    runner.dirty = true;
  } else if (!runner.playing || plotRound || now - lastPlot >= plotInterval) {
    // Playing: a plot a frame until each is drawn (see Plots.draw); paused: all of them at once.
    if (!plotRound) lastPlot = now;
    if (showPlots) plotRound = !plots.draw(state.sim, snapshot, state.theme, runner.playing ? 1 : Infinity);
    plotsDrawn = true;
  }
}

// The page's panels under one contract, in the order they are set and drawn: setSimulation(sim)
// for a new simulation, frame(snapshot) for every frame drawn (an analysis view hides them all),
// report() for window.stepwise.debug and the tests. Made once every part is built (start()).
let panels = [];
function makePanels() {
  return [
    {
      name: 'motion',  // the canvas and its tools; with clouds shorter (the cloud panel fills the column under it)
      setSimulation: (sim) => { view.setCompact(sim.cloud.points > 0); view.setSimulation(sim, laneNames()); viewTools.setSimulation(sim); },
      frame: (snapshot) => {
        if (shownLayout() !== 'motion') return;
        viewTools.frame(snapshot, runner.playing);
        view.draw(snapshot, state.theme);
        if (view.settling) runner.dirty = true;  // the view eases to a grown box: draw on, even paused
      },
      report: () => view.report,
    },
    {
      name: 'cloud',
      setSimulation: (sim) => cloudView.setSimulation(sim, laneNames()),
      frame: (snapshot) => { if (state.sim.cloudReady) cloudView.draw(state.sim, snapshot, state.theme, runner.playing); },
      report: () => ({
        shown: cloudView.active, cells: (cloudView.cells || []).map((c) => ({ ...c })), scale: cloudView.scale ? { ...cloudView.scale } : null,
        ...cloudView.stats,
      }),
    },
    { name: 'plots', setSimulation: (sim) => plots.configure(sim, laneNames()), frame: drawPlots, report: () => plots.report() },
    {
      name: 'legend',
      setSimulation: (sim) => legend.build(sim, state.core.integrators, state.theme.scheme),
      frame: () => showNumbers(!runner.playing),
      report: () => ({ rows: legend.rows.length }),
    },
    {
      name: 'controls',
      setSimulation: (sim) => { controls.sync(sim.config, sim.runConfig); controls.markErrors(state.configErrors); showCloudNote(sim); },
      frame: () => {},
      report: () => ({ config: state.sim.config }),
    },
    { name: 'game loop', setSimulation: (sim) => gameLoop.sync(sim), frame: (snapshot) => gameLoop.update(snapshot), report: () => ({ loop: state.sim.loop.kind }) },
  ];
}
const panel = (name) => panels.find((p) => p.name === name);

// A system with no phase cloud (a bridge: the core refuses one) has the cloud's settings off,
// saying the core's reason.
function showCloudNote(sim) {
  const cloudGroup = $('cloud-group');
  if (!cloudGroup) return;
  const none = sim.scene.cloudPlane === null;
  cloudGroup.disabled = none;
  let note = cloudGroup.querySelector('.cloud-none-note');
  if (!note) {
    note = el('p', { class: 'hint cloud-none-note' });
    cloudGroup.querySelector('legend').after(note);
  }
  note.hidden = !none;
  note.textContent = none ? t('This system has no phase cloud: {why}.', { why: t(sim.scene.cloudWhy) }) : '';
}

// Every number in words: the legend's (throttled while playing) and the clock; with `now`
// (paused, stepped, reset, ended) the legend's at once and the spoken summary too. Called by the
// frame, and at once by a pause or a step, so nothing on screen is the state of a frame ago.
function showNumbers(now) {
  const snapshot = state.sim.snapshot;
  legend.update(snapshot, now);
  liveSummary.update(snapshot, laneNames(), now);
  // With a game loop the page steps whole frames (a frame may hold several physics steps).
  $('clock').textContent = `t = ${fixed(snapshot.t, 2)} s · ${state.sim.loop.kind ? t('frame') : t('step')} ${snapshot.steps}`;
}

// The stage X-ray of the next step (web/xray/xray.js, loaded the first time): pauses the run, and
// opens it, or closes it when it is open.
function toggleXray() {
  runner.pause();
  xrayLoad = xrayLoad || import('../xray/xray.js').then((m) => m.create($('xray'), {
    sim: () => state.sim, view: () => view, plots: () => plots, theme: () => state.theme, laneNames,
    playing: () => runner.playing, layout: shownLayout, redraw: () => { runner.dirty = true; },
    opener: $('xray-open'),
  }));
  xrayLoad.then((x) => { xray = x; x.toggle(); }).catch((error) => notify(t('The X-ray could not load: {error}', { error: error.message })));
}

// What the PNG export shows: the view on screen. {main: {canvas, caption}, shown: [{canvas,
// caption}] (beside it), title}. The motion view: the canvas, then the clouds and the plots; the
// cloud view (its motion canvas hidden): the cloud panel and the plots; an analysis view: its
// plots, the first as the main one.
function exportPicture() {
  const row = viewRow(state.viewId);
  const name = state.core.views.find((v) => v.id === state.viewId)?.name || state.viewId;
  if (row.layout === 'analysis') {
    const figures = [...$('analysis').querySelectorAll('figure')]
      .filter((f) => f.querySelector('canvas') && f.getClientRects().length > 0)
      .map((f) => ({ canvas: f.querySelector('canvas'), caption: f.querySelector('figcaption')?.firstChild?.textContent || '' }));
    return { main: figures[0] || {}, shown: figures.slice(1), title: `${title()} · ${name}` };
  }
  plots.draw(state.sim, state.sim.snapshot, state.theme);
  const clock = `${title()} · t = ${fixed(state.sim.snapshot.t, 2)} s`;
  if (row.layout === 'cloud') {
    const [clouds = {}] = cloudView.visible();
    return { main: clouds, shown: plots.visible(), title: clock };
  }
  return { main: { canvas: $('view') }, shown: [...cloudView.visible(), ...plots.visible()], title: clock };
}

// The Step code dialog opens on the lane the user is looking at: the highlighted one, else the
// X-ray's, else the first.
function stepCodeLane() {
  const shown = [highlightedLane(), xray && xray.shown ? xray.shown.id : null];
  return methodOf(shown.find((id) => id && state.sim.laneIds.includes(id)) || state.sim.laneIds[0]);
}

// The plots are hidden in an embedded frame unless ui=full: no drawing into hidden canvases.
const showPlots = mode.ui === 'full';

function syncTransport() {
  const play = $('play');
  play.textContent = runner.playing ? t('Pause') : t('Play');
  play.setAttribute('aria-pressed', String(runner.playing));
  play.classList.toggle('playing', runner.playing);
}

function setSpeed(exponent) {
  runner.speed = Number(Math.pow(10, exponent).toPrecision(2));
  $('speed-out').textContent = `${runner.speed}×`;
  $('speed').setAttribute('aria-valuetext', `${runner.speed}×`);  // not the slider's log10 "0"
}

// Start-up in a few tasks, each well under the 50 ms of a long task: the module, the page's
// parts, the controls, the first layout, then the first simulation and frame.
async function start() {
  state.core = await loadCore();
  const strings = await languageLoad;
  if (strings) {
    // The page in the link's (or the browser's) language: its HTML's texts, the core's tables
    // and the page's own texts (t()), and its numbers (a decimal comma in German; never in links,
    // CSV or JSON, which write the core's text).
    useLanguage(pageLanguageId, strings);
    setNumberLanguage(pageLanguageId);
    document.documentElement.lang = pageLanguageId;
    localisePage(document.documentElement);
    localiseTables(state.core, strings);
  }
  await nextTask();
  state.theme = themeColours();
  view = new View($('view'), { fill: mode.embed });
  viewTools = new ViewTools($('motion-tools'), {
    view, core: state.core, sim: () => state.sim, runner: () => runner, apply, laneNames, redraw: () => { runner.dirty = true; },
    wheel: !mode.embed || mode.ui === 'full',
  });
  onCursor(() => { if (runner) runner.dirty = true; });
  onLaneFocus(() => { if (runner) runner.dirty = true; });
  cloudView = new CloudView($('cloud-view'), $('cloud-panel'));
  plots = new Plots(document.querySelector('.plots'), () => { if (runner) runner.dirty = true; });
  legend = new Legend($('legend'));
  liveSummary = new LiveSummary($('live-summary'));
  tabs = new ViewTabs($('view-tabs'), state.core.views, (id) => selectView(id));
  await nextTask();
  controls = new Controls($('controls'), {
    core: state.core, set: applyKeepingView, getConfig: () => state.sim.config, getRunConfig: () => state.sim.runConfig, notify,
  });
  gameLoop = new GameLoopPanel({
    table: state.core.loopTable, controlsRoot: $('controls'), controls, legendBar: document.querySelector('.legend-bar'),
    set: applyKeepingView, getConfig: () => state.sim.config,
  });
  await nextTask();
  // The page's first layout (every panel just built: 15–30 ms on a busy machine) in a task of
  // its own, not inside the first frame, which would otherwise force it.
  document.body.getBoundingClientRect();
  await nextTask();
  let first = true;
  runner = new Runner({
    sim: () => state.sim,
    onFrame: () => {
      if (!laidOut) { runner.dirty = true; return; }  // see the end of start()
      draw();
      // The first frame: the motion (its clouds built, if any). Ready once the plots show too,
      // a frame later (see draw).
      if (first && state.sim.cloudReady) {
        first = false;
        api.debug.firstFrameMs = performance.now();
        performance.mark('stepwise:first-frame');
      }
      // With a game loop, once the notice of a view it rules out is loaded too (see gameLoop.sync).
      if (!first && (plotsDrawn || shownLayout() === 'analysis') && (loopNotice || !state.sim.loop.kind)) resolveReady();
    },
    // A pause or a reset draws once more: the legend's numbers (updated a few times a second
    // while playing) then match the picture.
    // A pause, a step or a reset also shows its numbers at once, not at the next frame.
    onStateChange: () => {
      syncTransport();
      if (frameControls) frameControls.sync();
      if (!runner) return;
      runner.dirty = true;
      if (!runner.playing && state.sim && legend.rows.length) showNumbers(true);
    },
  });
  // An embedded frame advances only while it is in the host page's view (the runner holds it
  // otherwise); every page, only while its tab is visible.
  if (mode.embed) runner.watch(document.documentElement);
  frameControls = installFrameControls({
    runner, mode, stage: document.querySelector('.stage'),
    // In full screen the canvas takes the room the CSS gives it, not the height fitted to the motion.
    onFullscreen: (on) => { view.setFill(on || mode.embed); runner.dirty = true; },
  });
  const help = installPanels({
    integrators: state.core.integrators, laneIds: () => state.sim.laneIds, openers: { methods: $('methods-open'), keys: $('keys-open') },
  });
  // ---- The scene editor (web/editor/): its Edit button now, the editor when first pressed. ----
  sceneEditor = installSceneEditor({
    core: state.core, sim: () => state.sim, runner: () => runner, view, apply, notify, mode,
    redraw: () => { runner.dirty = true; }, after: $('methods-open'),
    // While editing, no legend study and no probe of the motion's box: each edit is a new simulation.
    holdBackground: (on) => {
      studiesHeld = on;
      holdProbes(on);
      if (on) cancelLegendStudy(); else scheduleLegendStudy();
    },
  });
  panels = [...makePanels(), sceneEditor];
  // ---- end of the scene editor ----
  // An address longer than the core reads was taken off by web/app/mode.js at once: its length says why.
  if (mode.refusedLength) apply(`scenario=${state.core.limits.default_scenario}`, mode.refusedLength);
  else apply(readHash() || `scenario=${state.core.limits.default_scenario}`);
  if (!state.sim) await fullModuleWait;  // a link with a cloud: its simulation is made in the full module
  onHashEdited((hash) => { if (hash !== state.sim.config) apply(hash); });

  $('errors-dismiss').addEventListener('click', () => {
    $('errors').hidden = true;
    $('errors').dataset.dismissed = 'true';
  });
  installShare({
    core: state.core, config: () => state.sim.config, snapshot: () => state.sim.snapshot, title, laneNames, laneIds: () => state.sim.laneIds,
    theme: () => state.theme, picture: exportPicture,
  });
  // Step code to paste into a game: its module and the snippets load on the first click.
  $('step-code').addEventListener('click', () => import('../panels/stepcode.js')
    .then((m) => m.openStepCode({ integrators: state.core.integrators, integratorId: stepCodeLane() }))
    .catch((error) => { $('share-status').textContent = t('The step code could not load: {error}', { error: error.message }); }));
  if (mode.autoplay) ready.then(() => runner.play());
  // After the first frame: the worker's precaching must not compete with the start.
  ready.then(() => registerOffline());

  $('play').addEventListener('click', () => runner.toggle());
  // The Step button and → stop at the duration (t = 10 of 10 s stays there; Reset or Play starts
  // again). stepwise.step() and the embed's message still step exactly one dt, as before.
  const stepInDuration = () => { if (state.sim.snapshot.steps < runner.endSteps()) runner.step(); };
  $('step').addEventListener('click', stepInDuration);
  $('reset').addEventListener('click', () => runner.reset());
  $('xray-open').addEventListener('click', toggleXray);
  $('speed').addEventListener('input', () => setSpeed(Number($('speed').value)));
  setSpeed(Number($('speed').value));
  bindKeyboard({ toggle: () => runner.toggle(), step: stepInDuration, reset: () => runner.reset(), help: () => help.openKeys() });

  const redraw = () => { runner.dirty = true; };
  const resized = new ResizeObserver(redraw);
  resized.observe($('view'));
  resized.observe($('cloud-panel'));
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    state.theme = themeColours();
    cloudView.invalidate();
    legend.build(state.sim, state.core.integrators, state.theme.scheme);
    showMeasuredOrders();
    for (const [id, instance] of analyses) if (id === state.viewId && id !== state.refusedView) instance.then((v) => v.show(state.sim, true));
    redraw();
  });
  // Leave no Embind object behind.
  window.addEventListener('pagehide', () => {
    if (boundsProbe) boundsProbe.cancel();
    if (state.sim) { state.sim.delete(); state.sim = null; }
  });
  document.documentElement.classList.add('ready');
  // The style and layout of everything start() built (the legend's rows, the fields' values,
  // the ready class: 20–40 ms the first time) in a task of their own; the first frame draws
  // after it, so the two never add up to one long task.
  await nextTask();
  document.body.getBoundingClientRect();
  laidOut = true;
}

start().catch((error) => {
  const li = document.createElement('li');
  li.textContent = t('The simulation could not start: {error}', { error: error.message });
  $('error-list').replaceChildren(li);
  $('errors').hidden = false;
  rejectReady(error);
});
