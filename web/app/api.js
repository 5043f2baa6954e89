// window.stepwise: a small API for tutorial authors (from the console) and for the tests.
//
//   await stepwise.ready          resolves once the core is loaded, the first frame is drawn and
//                                 the parts that come after it are there (web/app/later-parts.js)
//   stepwise.config()             the normalised config string (also in the address hash)
//   stepwise.state()              {t, steps, dt, playing, speed (simulated s per wall s),
//                                  referenceKind, reference: [...],
//                                  bodies: [{integrator, body, x, y, vx, vy, energy, drift, error,
//                                  diverged, stopReason, divergedAt}],
//                                  integrators: [{id, energy, drift, error, diverged, stopReason,
//                                  divergedAt, angularMomentum, angularMomentumDrift, phase,
//                                  areaRatio, pointsFinite, constraintError, tension}],
//                                  cloud: {points, radius}, exactAreaRatio,
//                                  links: {constraintError, tension} (the reference's) or null}
//                                 (constraintError: the largest |length − L|/L over the links,
//                                 tension: the first link's in N; null without links)
//                                 (areaRatio: the phase-space cloud's area over its start area,
//                                 null without a cloud or once its rim is not finite)
//   stepwise.scene()              what the canvas draws, from the core (bodies, anchors, springs,
//                                  central bodies, gravity, reference, phase plot axes, the kind
//                                  of system and each lane's order on it: regime, laneOrders)
//   stepwise.errors()             the messages shown to the user (config errors and others)
//   stepwise.set(query)           apply a config string; returns the normalised one
//   await stepwise.settled()      resolves once the last set() or link runs: at once, or for a
//                                 link with a phase-space cloud when the full module has loaded
//   stepwise.play(), pause(), step(), reset()
//   stepwise.integrators(), scenarios(), presets()   the core's tables
//   stepwise.debug                handles() live Embind objects; timings(); view() the fitted view
//                                 box and the motion's bounds it fits, as far as they are known
//                                 ({…, t, done}: web/engine/bounds.js); cloud() the cloud panel's windows
//                                 and drawing times; firstFrameMs; xray() the stage X-ray
//                                 (web/xray/xray.js report()); canvas() the motion canvas's last frame
//                                 (layout, rows and "same as", edge markers, visible box, scale,
//                                 motionFraction, scrub time, zoom, follow: web/motion/view.js report);
//                                 modules: the shared cursor, lane focus and palette modules;
//                                 builds() the Simulations made so far
import { sliceStats, coreCallsInTask, startStagesInTask } from '../engine/slices.js';
import { cursorTime, setCursor } from '../motion/cursor.js';
import { isHidden, isFaded, highlightedLane, setHidden, setHighlighted } from '../motion/lane-focus.js';
import { laneStyle } from '../common/palette.js';

// The runner's timings and the last frames' (oldest first), the cloud panel's and the
// simulation's reading times.
function timings(page) {
  const runner = page.runner, r = runner.recent, n = Math.min(r.count, r.sim.length);
  const last = (a) => Array.from({ length: n }, (_, k) => a[(r.count - n + k) % a.length]);
  return {
    ...runner.stats, capped: runner.capped, maxStepsPerFrame: runner.maxStepsPerFrame,
    budgetMs: runner.budgetMs, stepMs: runner.stepMs, recentSimMs: last(r.sim), recentDrawMs: last(r.draw),
    cloud: page.part('cloud') ? { ...page.part('cloud').stats } : null,
    reads: page.sim ? { ...page.sim.readMs } : null,
  };
}

// ready: resolves after the first frame; page: the PageState (web/app/state.js); banner: the
// MessageBanner (web/app/errors.js); simulations: web/app/simulation.js's; frames: the FrameLoop
// (web/app/frame-loop.js); views: the ViewSwitch (web/views/view-switch.js). reports: debug's
// name for each part's report() -> the part's name in the page (web/app/main.js lists them).
export function installApi({ ready, page, banner, simulations, frames, views, reports }) {
  const { apply, settled } = simulations;
  // A part's report, or null before the page has it.
  const report = (name) => (page.part(name) ? page.part(name).report() : null);
  const api = {
    ready,
    config: () => page.sim.config,
    state: () => {
      const s = page.sim.snapshot;
      const bodies = [];
      for (const lane of s.lanes) {
        lane.bodies.forEach((b, i) => {
          bodies.push({
            integrator: lane.id, body: i, x: b.x, y: b.y, vx: b.vx, vy: b.vy,
            energy: lane.energy, drift: lane.drift, error: b.error,
            diverged: lane.diverged, stopReason: lane.stopReason, divergedAt: lane.diverged ? lane.divergedAt : null,
          });
        });
      }
      const cloud = page.sim.cloud;
      const ratio = (r) => (cloud.points > 0 && Number.isFinite(r) ? r : null);
      return {
        t: s.t, steps: s.steps, dt: page.sim.dt, playing: page.runner.playing, speed: page.runner.speed,
        cloud: { points: cloud.points, radius: cloud.radius },
        exactAreaRatio: ratio(s.exactAreaRatio),
        reference: s.reference.map((b, i) => ({ body: i, ...b })),
        referenceKind: s.referenceKind,
        bodies,
        integrators: s.lanes.map((lane) => ({
          id: lane.id, energy: lane.energy, drift: lane.drift, error: lane.error, diverged: lane.diverged,
          stopReason: lane.stopReason, divergedAt: lane.diverged ? lane.divergedAt : null,
          angularMomentum: lane.angularMomentum, angularMomentumDrift: lane.angularMomentumDrift,
          phase: { ...lane.phase },
          areaRatio: ratio(lane.areaRatio), pointsFinite: cloud.points > 0 ? lane.pointsFinite : 0,
          constraintError: s.linked ? lane.constraintError : null, tension: s.linked ? lane.tension : null,
        })),
        links: s.linked ? { constraintError: s.referenceConstraintError, tension: s.referenceTension } : null,
      };
    },
    scene: () => structuredClone(page.sim.scene),
    errors: () => banner.messages(),
    set: (query) => apply(String(query)),
    settled,
    play: () => page.runner.play(),
    pause: () => page.runner.pause(),
    step: () => page.runner.step(),
    reset: () => page.runner.reset(),
    integrators: () => page.core.integrators.map((i) => ({ ...i })),
    scenarios: () => page.core.scenarios.map((s) => ({ ...s })),
    presets: () => page.core.presets.map((p) => ({ ...p })),
    debug: {
      handles: () => page.core.handles(),
      timings: () => timings(page),
      view: () => (page.part('motion') ? page.part('motion').box() : null),
      // Each part's report by name (canvas: the motion canvas's last frame: layout, rows, edge
      // markers, scrub time, web/motion/view.js report; plots: per plot its ranges, ticks, lanes
      // drawn, off-scale lanes, draws and readout; editor: the scene editor's {open, tool,
      // selection, text, model, history, pixels, status, …}, web/editor/editor.js report, or
      // {open: false, loaded: false} before it first opened; xray: the stage X-ray's {open: false},
      // or its integrator, step, table rows and what it drew).
      ...Object.fromEntries(Object.entries(reports).map(([name, part]) => [name, () => report(part)])),
      // The view shown, the longest analysis slice so far ({longestMs, slices}), and what the
      // shown analysis view reports (its results and readouts; null in the motion views).
      shownView: () => page.viewId,
      slices: () => ({ ...sliceStats, coreCallsInTask: { ...coreCallsInTask }, startStagesInTask: { ...startStagesInTask } }),
      // The simulation's work per call in the core's units ({last, most, evaluation, cap}).
      work: () => ({ ...page.sim.work(), cap: page.core.limits.max_work_per_call }),
      analysis: () => views.report(),
      get firstFrameMs() { return frames.firstFrameMs(); },
      // The page's own instances of the modules the tests drive directly, by their path under web/
      // (in dist/ they are inside the bundle, with no address of their own to import).
      // The functions named, not the whole modules: the bundler keeps only what is used.
      modules: {
        'motion/cursor.js': { cursorTime, setCursor },
        'motion/lane-focus.js': { isHidden, isFaded, highlightedLane, setHidden, setHighlighted },
        'common/palette.js': { laneStyle },
      },
      // How many Simulations the page has made (a link, a set, an edit each make one).
      builds: simulations.builds,
    },
  };
  window.stepwise = api;
  return api;
}
