// Which view shows: its tab, its layout (html[data-layout] drives the CSS), and for an analysis
// its module (loaded once, on demand) shown with the current simulation; the others stop their
// work. A view the game loop (or a linked system) rules out shows the loop's notice in its place
// (web/views/loop-notice.js, loaded once a loop is on). Switching views goes through the config:
// the link, embeds and Copy link keep it. Made once, by web/app/main.js (createViewSwitch).
import { withKey } from '../common/query.js';
import { ViewTabs } from './viewtabs.js';
import { viewRow } from './views.js';
import { nextTask } from '../engine/slices.js';
import { t } from '../common/language.js';

const $ = (id) => document.getElementById(id);

// page: the PageState (web/app/state.js); notify(message): the page's message banner.
export function createViewSwitch({ page, notify }) {
  let actions = null;          // how a view changes the config (see installTabs)
  let hooks = null;            // what follows the view shown (see installTabs)
  let tabs = null;
  let loopNotice = null;       // the notice, once its module is loaded
  let loopNoticeLoad = null;
  let loopNoticeShown = null;  // what it is to show: {view, name, loop, error}, or null
  const analyses = new Map();  // view id -> Promise of its analysis module's instance

  // The tabs, above the canvas. configActions: {apply(query), withoutLoop(config) (the config with
  // the game loop off, its physics step as dt)}. shownHooks: what else follows the view shown
  // ({motionShown(), analysisShown(), studied()}: the legend's quick study, web/panels/legend-study.js).
  function installTabs(root, views, configActions, shownHooks) {
    actions = configActions;
    hooks = shownHooks;
    tabs = new ViewTabs(root, views, (id) => { if (id !== page.viewId) actions.apply(withKey(page.sim.config, 'view', id)); });
    page.onThemeChange(() => reshowAnalysis());
  }

  function loadLoopNotice() {
    loopNoticeLoad = loopNoticeLoad || import('./loop-notice.js').then((m) => {
      // One click turns the loop off (its physics step stays as dt) and opens the view.
      loopNotice = new m.LoopNotice($('analysis'), (id) => actions.apply(withKey(actions.withoutLoop(page.sim.config), 'view', id)));
      loopNotice.show(loopNoticeShown);
      // The page is ready once the notice is loaded (web/app/frame-loop.js): draw once more to say so.
      page.redraw();
    });
    return loopNoticeLoad;
  }

  // The page is ready for its view: no game loop, or the notice of a view it rules out is loaded.
  const loopNoticeReady = () => Boolean(loopNotice) || !page.sim.loop.kind;

  // Shows (or, with null, hides) the notice of a view the game loop rules out.
  function showLoopNotice(shown) {
    loopNoticeShown = shown;
    if (loopNotice) loopNotice.show(shown);
    else if (shown) loadLoopNotice();
  }

  function showView(id) {
    const row = viewRow(id);
    const refused = id === page.refusedView;  // the loop's notice in its place
    const layout = page.layout;
    document.documentElement.dataset.layout = layout;
    tabs.show(id, refused ? 'analysis' : null);
    // The analysis region, which a screen reader reads as the selected tab's panel.
    $('analysis').setAttribute('aria-labelledby', `tab-${id}`);
    for (const [other, instance] of analyses) if (other !== id || refused) instance.then((v) => v.hide());
    showLoopNotice(refused ? { view: id, name: page.core.views.find((v) => v.id === id)?.name || id, loop: page.sim.loop, error: page.refusal } : null);
    if (layout === 'analysis') {
      page.runner.pause();
      hooks.analysisShown();
      if (refused) { page.redraw(); return; }
      // The module's evaluation, the view's creation and its first show are three tasks: run in
      // one (the microtasks after an import), they were one 80-120 ms task on a busy machine.
      if (!analyses.has(id)) {
        // The analyses run in the full module (loaded once, beside the view's own module).
        analyses.set(id, Promise.all([row.load(), page.core.full()])
          .then(async ([m]) => { await nextTask(); return m.create($('analysis'), analysisContext); }));
      }
      const shown = page.sim;
      // The full module again each time: it may have been let go since (core.releaseFull).
      Promise.all([analyses.get(id), page.core.full()])
        .then(async ([v]) => { await nextTask(); if (page.viewId === id && page.sim === shown) v.show(page.sim); })
        .catch((error) => notify(t('The {view} view could not load: {error}', { view: row.name || id, error: error.message })));
    } else {
      hooks.motionShown();
    }
    page.redraw();
  }

  // The shown analysis again, in the new colours.
  function reshowAnalysis() {
    for (const [id, instance] of analyses) if (id === page.viewId && id !== page.refusedView) instance.then((v) => v.show(page.sim, true));
  }

  // What the shown analysis view reports (its results and readouts, or the loop's notice); null
  // in the motion views.
  async function analysisReport() {
    if (page.viewId === page.refusedView) return (await loadLoopNotice(), loopNotice.report());
    return analyses.has(page.viewId) ? (await analyses.get(page.viewId)).report() : null;
  }

  // What an analysis view gets from the page.
  const analysisContext = {
    get core() { return page.core; },
    get theme() { return page.theme; },
    laneNames: () => page.laneNames(),
    // A study finished: the legend shows its measured orders when it is of the current physics.
    studied: () => hooks.studied(),
  };

  return { installTabs, loadLoopNotice, loopNoticeReady, show: showView, report: analysisReport };
}
