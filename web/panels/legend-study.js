// The legend's measured orders: from a finished study of this physics (the convergence view's,
// or a quick one run in slices once the motion view is up, web/engine/study.js). Never blocks a
// frame. Made once, by web/app/main.js (createLegendStudy).
import { valueOf } from '../common/query.js';
import { runStudy, storedStudy, studySizes, physicsKey, verdict, motionSize } from '../engine/study.js';
import { t } from '../common/language.js';
import { measuredText } from '../common/text.js';

// A quick study a moment after the config settles (a dragged slider starts none per step).
const legendStudyDelayMs = 400;

// The legend's badges of a finished study (null: none yet), as Legend.showMeasured takes them:
// the order the Convergence view's verdict rests on, with the dts it holds at when the coarser
// ones were set aside, or "not settled" while the slope still changes; the verdict, why, in its
// title. sim: the simulation the study is of.
function measuredBadges(results, sim) {
  if (!results) return undefined;
  const byId = new Map(results.rows.map((r) => [r.id, r]));
  return (id, claim) => {
    const study = byId.get(id);
    const v = study ? verdict(study, claim, sim.scene, results, motionSize(sim)) : null;
    const m = v ? measuredText(v) : { order: '', over: '' };
    const text = m.order ? `${t('measured {order}', { order: m.order })}${m.over ? ` ${t('at {dts}', { dts: m.over })}` : ''}`
      : v && v.kind === 'unfit' && study.fit.valid ? t('measured: not settled') : '';
    return text ? { text, title: `${t('the order a convergence study measured on this system (Convergence view)')}: ${v.text}` } : null;
  };
}

// page: the PageState (web/app/state.js); legend: the page's Legend (web/panels/legend.js); ready:
// a promise of the page's first frame (the study's full module loads after it). Returns
// {showMeasured(), schedule(), cancel()}: what the view shown calls (web/views/view-switch.js).
export function createLegendStudy({ page, legend, ready }) {
  let study = null;        // the quick study running
  let studyTimer = null;

  // Shows the stored study of this physics, if there is one; says whether there was.
  function showMeasuredOrders() {
    const stored = storedStudy(page.sim.config);
    legend.showMeasured(measuredBadges(stored ? stored.results : null, page.sim));
    return Boolean(stored);
  }

  function cancelLegendStudy() {
    clearTimeout(studyTimer);
    studyTimer = null;
    if (study) study.cancel();
    study = null;
  }

  // No study while the scene editor is open (each edit is a new simulation): it runs once the
  // editor closes (web/editor/editor.js holds the page's background work: PageState.holdBackground).
  let held = false;
  function holdLegendStudy(on) {
    held = on;
    if (on) cancelLegendStudy();
    else if (page.sim) scheduleLegendStudy();
  }

  function scheduleLegendStudy() {
    cancelLegendStudy();
    // An embedded frame's legend has no badges (style.css): no study, and no full module to load
    // for it (a lesson's frames each would).
    if (page.mode.embed || held) return;
    // A game loop's step is the loop's, not a dt to halve (the convergence view refuses a loop too).
    if (valueOf(page.sim.config, 'loop') !== null) { legend.showMeasured(); return; }
    if (showMeasuredOrders()) return;
    const config = page.sim.config;
    // The study runs in the full module: loaded after the first frame, in the background.
    const timer = setTimeout(() => ready.then(() => page.core.full()).then(() => {
      if (studyTimer !== timer || !page.sim || physicsKey(page.sim.config) !== physicsKey(config)) return;
      studyTimer = null;
      study = runStudy(page.core, config, studySizes.quick, {
        onDone: () => { study = null; if (physicsKey(page.sim.config) === physicsKey(config)) showMeasuredOrders(); },
      });
    }).catch(() => { legend.showMeasured(); }), legendStudyDelayMs);
    studyTimer = timer;
  }

  page.onHold(holdLegendStudy);
  // The measured orders again in a new colour scheme (after the legend's own rows).
  page.onThemeChange(() => showMeasuredOrders());
  return { showMeasured: showMeasuredOrders, schedule: scheduleLegendStudy, cancel: cancelLegendStudy };
}
