// Makes the simulation from a config string and replaces the running one: its valid parts run,
// its errors show, and every panel (page.panels) is set to it; the address, the embedded frame's
// heading and the Open link show the normalised config. Owns what lives as long as one
// simulation: the probe of the motion's box and the building of its clouds. Made once, by
// web/app/main.js (createSimulations), which hands its functions to the parts that change the config.
import { writeHash, linkFor } from './links.js';
import { withKey, valueOf, oversize, oversizeLength } from '../common/query.js';
import { defaultBudgetMs } from '../engine/runner.js';
import { BoundsProbe, holdProbes } from '../engine/bounds.js';
import { ownTaskPoints } from '../views/cloud-panel.js';
import { viewRow } from '../views/views.js';
import { t } from '../common/language.js';
import { nextTask } from '../engine/slices.js';
import { pageLanguageId } from './page-language.js';

const $ = (id) => document.getElementById(id);

// Milliseconds of stepping per frame when there are clouds (see Runner.budgetMs).
const cloudStepBudgetMs = 5;
// Milliseconds per slice of building the clouds, between frames.
const cloudBuildSliceMs = 8;

// page: the PageState (web/app/state.js); banner: the MessageBanner (web/app/errors.js); views:
// the ViewSwitch (web/views/view-switch.js) that shows the new simulation's view.
export function createSimulations({ page, banner, views }) {
  // While the scene editor is open no probe of the motion's box runs: each edit is a new simulation.
  page.onHold(holdProbes);
  let boundsProbe = null;     // finds the motion's box ahead of the animation
  let fullModuleWait = null;  // a link waiting for the full module or a variant (applyWithFullModule, applyWithParts)
  let builds = 0;             // Simulations made by apply (debug.builds(): an embed host's flood counts them)
  const simulationBuilds = () => builds;
  // Makes a new Simulation from a config string (its valid parts; the errors are shown), deletes
  // the old one, and shows the normalised config everywhere, the address hash included. A query
  // longer than the core could read is refused whole before it reaches the module (the current
  // run goes on; at start-up the default one runs), with the reason shown.
  // A panel whose own module arrives with its first use (the cloud panel, web/views/cloud-panel.js)
  // returns a promise of it from setSimulation: settled() waits for it; the start-up and a link
  // that waited for a module (applyInStages) wait for it before the next panel.
  function apply(query, refusedAtLoad = 0) {
    const made = make(query, refusedAtLoad);
    if (!made.next) return made.config;
    adopt(made);
    const arriving = [];
    for (const panel of page.panels) arriving.push(panel.setSimulation(page.sim));
    panelsArriving = Promise.all(arriving);
    return shown();
  }
  let panelsArriving = null;  // the panels the last apply set that were still loading, or null

  // apply() cut at its seams, for the start-up and for a link that waited for the full module: the
  // simulation made, then each panel set to it, then the rest, each after seam() (a new task). No
  // frame draws meanwhile (panelsSet(), web/app/frame-loop.js); at start-up the host's messages and
  // the address's edits are taken only after it. A newer apply meanwhile takes over.
  async function applyInStages(query, refusedAtLoad, seam) {
    const made = make(query, refusedAtLoad);
    if (!made.next) return;
    adopt(made);
    const sim = page.sim;
    settingPanels = sim;
    let done;
    stagesDone = new Promise((resolve) => { done = resolve; });
    try {
      for (const panel of page.panels) {
        await seam();
        if (page.sim !== sim) return;
        await panel.setSimulation(sim);
      }
      await seam();
      if (page.sim !== sim) return;
      settingPanels = null;
      shown();
    } finally {
      done();
    }
  }
  let settingPanels = null;  // the Simulation applyInStages is setting the panels to, or null
  let stagesDone = null;     // resolves when the last applyInStages has set every panel or was replaced
  // Whether every panel shows the current Simulation (frames draw only then).
  const panelsSet = () => settingPanels === null;

  // The Simulation of a query ({next, refused}), or the config to answer with when none replaces
  // the running one ({config}): a query too long is refused whole; a cloud waits for the full module.
  function make(query, refusedAtLoad) {
    const refused = refusedAtLoad ? oversizeLength(refusedAtLoad, page.core.limits) : oversize(query, page.core.limits);
    if (refused && page.sim) {
      banner.notify(refused);
      return { config: page.sim.config };
    }
    const asked = refused ? `scenario=${page.core.limits.default_scenario}` : query;
    const next = withViewDefaults(page.core.createSimulation(asked));
    builds += 1;
    if (next.missingParts.length) return { config: applyWithParts(next, asked) };
    if (next.needsFullModule) return { config: applyWithFullModule(next, asked) };
    return { next, refused };
  }

  // The new Simulation replaces the running one, before the panels are set to it.
  function adopt({ next, refused }) {
    fullModuleWait = null;
    settingPanels = null;
    if (boundsProbe) boundsProbe.cancel();
    if (page.sim) page.sim.delete();
    page.useSimulation(next);
    page.core.releaseFull();  // a large cloud's gigabyte, once nothing uses it
    // The rest of the motion's box, found in slices between frames (web/engine/bounds.js), and the rest
    // of the clouds (the run takes its first step once they are all built).
    boundsProbe = new BoundsProbe(page.sim, { shownTime: () => page.sim.snapshot.t, onGrow: () => page.redraw() });
    buildClouds(page.sim);
    // The Simulation's errors: the parser's, and the page's own limits (a cloud too large here). A
    // view the core cannot run with the game loop is no error of the link: the view says so itself.
    banner.showFor(refused ? [refused] : []);
    // Stepping clouds of many points is costly, and drawing them too: a smaller time budget per
    // frame for the stepping keeps the page fluid (the run is then slower than asked, and says so).
    // Large clouds are drawn in tasks of their own (web/views/cloud.js), so they leave the frame more.
    page.runner.setBudget(page.sim.cloud.points > 0 && page.sim.cloud.points * page.sim.cloud.lanes <= ownTaskPoints
      ? cloudStepBudgetMs : defaultBudgetMs);
  }

  // Once every panel is set to the new Simulation: its config everywhere, the view shown.
  function shown() {
    if (page.sim.loop.kind) views.loadLoopNotice();  // a view the loop rules out shows its notice at once
    writeHash(page.sim.config);
    // A link in another language than the page's (typed into the address, or set by a host): the
    // page starts again in it, once the address holds the link.
    const linkLang = valueOf(page.sim.config, 'lang');
    if (linkLang && linkLang !== pageLanguageId) {
      const link = page.sim.config;
      setTimeout(() => { history.replaceState(null, '', `#${link}`); location.reload(); }, 0);
    }
    $('config-string').textContent = page.sim.config;
    $('frame-title').textContent = `Stepwise: ${page.title()}`;  // an embedded frame's heading
    $('open-full').href = linkFor(page.sim.config);
    page.runner.replaced();
    views.show(page.viewId);
    return page.sim.config;
  }

  // A change made with the page's own controls keeps a view shown in place of one the loop rules
  // out: the notice stays while the loop does, and the view opens once the loop is off.
  function applyKeepingView(query) {
    return apply(page.refusedView && valueOf(query, 'view') === null ? withKey(query, 'view', page.refusedView) : query);
  }

  // Resolves once the last link applied runs: at once, or for a link with a phase-space cloud
  // when the full module has loaded and every panel is set to it (the cloud view's own module
  // loaded with the first clouds).
  const settled = () => Promise.all([fullModuleWait, Promise.resolve(page.core.partsLoading).catch(() => undefined)])
    .then(() => Promise.all([stagesDone, panelsArriving])).then(() => undefined);

  // Every frame: a resting probe of the motion's box starts again when the animation comes near.
  const wakeBounds = () => boundsProbe.wake();

  // The page goes away: no Embind object left behind.
  function endSimulation() {
    if (boundsProbe) boundsProbe.cancel();
    if (page.sim) { page.sim.delete(); page.useSimulation(null); }
  }

  // A link that asks for a phase-space cloud runs in the full module (web/engine/wasm.js): until it has
  // loaded the current run goes on (at start-up nothing runs yet), then the link is applied. The
  // link shows in the address at once; a later link replaces this one.
  function applyWithFullModule(handle, query) {
    const config = handle.config;
    handle.delete();
    const wait = page.core.full().then(() => (fullModuleWait === wait ? applyInStages(query, 0, nextTask) : undefined));
    fullModuleWait = wait;
    wait.catch((error) => banner.notify(t('The phase-space cloud could not load: {error}', { error: error.message })));
    writeHash(config);
    return config;
  }

  // A link of a family of systems the motion module does not carry (a chain in the default link's
  // module: core/parts.hpp): the variant that carries it is loaded, then the link is made there.
  // Meanwhile the running simulation, if any, goes on, and the address holds the link asked for.
  function applyWithParts(handle, query) {
    const parts = handle.missingParts;
    handle.delete();
    const wait = page.core.withParts(parts).then(() => (fullModuleWait === wait ? applyInStages(query, 0, nextTask) : undefined));
    fullModuleWait = wait;
    wait.catch((error) => banner.notify(t('This system could not load: {error}', { error: error.message })));
    return page.sim ? page.sim.config : query;
  }

  // Builds a simulation's clouds in slices between frames until they are all there.
  function buildClouds(handle) {
    const next = () => {
      if (page.sim !== handle) return;  // replaced meanwhile
      if (handle.prepare(cloudBuildSliceMs)) page.redraw();
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
    const row = viewRow(valueOf(handle.config, 'view') || page.core.views[0].id);
    const query = handle.query, link = handle.config;
    if (!row.cloudPoints || valueOf(handle.config, 'cloud') !== null || valueOf(query, 'cloud') !== null) return handle;
    handle.delete();
    return page.core.createSimulation(withKey(query, 'cloud', Math.min(row.cloudPoints, page.core.limits.max_page_cloud_points)), link);
  }

  return { apply, applyInStages, applyKeepingView, settled, panelsSet, wakeBounds, endSimulation, builds: simulationBuilds };
}
