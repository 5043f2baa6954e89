// Convergence studies off the animation path: run one of the core's studies in slices (the
// convergence view's, and a small one for the motion legend's measured orders), keep the last
// results per physics (the config without its view), and say in words what each measured order
// means. No DOM.
import { Slices } from './slices.js';
import { formatValue } from './coords.js';

// The page's studies: the convergence view's (the core's default halvings, a work cap that keeps
// a long config to seconds, not minutes) and the motion legend's quick one.
export const studySizes = {
  full: { halvings: 4, maxWork: 2e7, targetMs: 12 },
  quick: { halvings: 4, maxWork: 2e6, targetMs: 6 },  // as many levels as the full study: two would fit pre-asymptotic slopes
};
// A measured order within this of the table's "holds".
const orderTolerance = 0.35;

// The config without its view: the convergence view and the motion view share results.
export function physicsKey(config) {
  return config.split('&').filter((p) => !p.startsWith('view=')).join('&');
}

// The last studies' results by physics key (a few: configs change often while a slider drags).
const finished = new Map();
const keep = 8;
export function storedStudy(config) { return finished.get(physicsKey(config)) || null; }
// True when a stored study is at least as large as `size` (then it can stand in for one).
export function covers(stored, size) { return Boolean(stored) && !larger(size, stored.size); }
// A study's size for comparison: its halvings, then its work cap (which may drop fine levels).
const larger = (a, b) => a.halvings > b.halvings || (a.halvings === b.halvings && a.maxWork > b.maxWork);
function store(config, results, size) {
  const key = physicsKey(config);
  const old = finished.get(key);
  if (old && larger(old.size, size)) return;  // a larger study of the same physics wins
  finished.delete(key);
  finished.set(key, { results, size, halvings: size.halvings });
  while (finished.size > keep) finished.delete(finished.keys().next().value);
}

// Runs a study of `config` in slices. onProgress(results) after every few slices, onDone(results)
// at the end; cancel() stops it and frees the core's object.
export function runStudy(core, config, size, { onProgress = () => {}, onDone = () => {} } = {}) {
  const handle = core.createStudy(config, size.halvings, size.maxWork);
  // The core stops a slice at the deadline too: one step of a stiff system may cost milliseconds.
  const slices = new Slices((work, deadline) => handle.advance(work, deadline - performance.now()), {
    initialUnits: 500, minUnits: 50, maxUnits: 5e7, targetMs: size.targetMs,
    // The results are a few hundred numbers: read after every slice for the progress bar.
    onSlice: () => { if (!slices.finished) onProgress(handle.results(), handle.progress); },
    onDone: () => {
      const results = handle.results();
      handle.delete();
      store(config, results, size);
      onDone(results);
    },
  }).start();
  return {
    cancel() { slices.cancel(); handle.delete(); },
    get running() { return slices.running; },
  };
}

// How many different forces act: springs, gravity, central masses, damping or drag.
function forceKinds(scene) {
  return [scene.springs.length > 0, Boolean(scene.gravity), scene.centres.length > 0, scene.dissipative].filter(Boolean).length;
}

// Why a method may fall short of its table order on this system, from the system and the
// integrator table; '' when nothing in them explains it.
function likelyReason(info, scene) {
  if (info.symplectic && scene.dissipative) {
    return info.order > 2
      ? 'damping or drag depends on velocity, and a composition method like this one is built for forces of position alone'
      : 'damping or drag depends on velocity, which its position-only update treats to first order';
  }
  if (info.family === 'kinematic') {
    if (scene.reference.kind !== 'exact') return 'its step assumes a force with a closed form over the step; this one has none';
    if (forceKinds(scene) > 1) return 'its step treats one force at a time; here several act at once';
  }
  return '';
}

// The verdict on one row of a study: {kind, text}. kind: holds, exact, loses, better, diverged,
// adaptive, pending, unfit.
export function verdict(row, info, scene, results) {
  const points = row.points;
  if (points.length === 0) return { kind: 'pending', text: 'not run yet' };
  const floor = results.noiseFloor;
  const stopped = points.filter((p) => p.stopReason !== '');
  const why = (p) => p.stopText;  // the core's words
  if (stopped.length === points.length) {
    return { kind: 'diverged', text: `${why(points[0])} at every dt tried (down to ${formatValue(points[points.length - 1].dt)} s)` };
  }
  const note = stopped.length > 0
    ? `; ${why(stopped[0])} at the coarsest dt${stopped.length > 1 ? `s (down to ${formatValue(stopped[stopped.length - 1].dt)} s)` : ` (${formatValue(stopped[0].dt)} s)`}, fitted on the finer ones`
    : '';
  if (info.adaptive) {
    return { kind: 'adaptive', text: `adaptive: its error follows its tolerance, not dt${note}` };
  }
  if (points.every((p) => p.stopReason !== '' || !(p.maxError > floor))) {
    // At the floor at every dt: exact for a method that follows this system's flow (the kinematic
    // pair on one force with a closed form), otherwise merely too accurate to measure here.
    return info.family === 'kinematic' && results.reference === 'exact'
      ? { kind: 'exact', text: `exact here (errors at round-off)${note}` }
      : { kind: 'unfit', text: `at the round-off floor at every dt: a larger dt would show its order${note}` };
  }
  // Only an asymptotic error falls as dt^p: errors as large as a tenth of the motion, or slopes
  // between successive halvings that disagree, mean the fit is not an order yet.
  const used = points.filter((p) => p.stopReason === '' && p.maxError > floor);
  const scale = results.lengthScale > 0 ? results.lengthScale : Infinity;
  const slopes = used.slice(1).map((p, k) => Math.log2(used[k].maxError / p.maxError));
  const spread = slopes.length > 1 ? Math.max(...slopes) - Math.min(...slopes) : 0;
  if (used.some((p) => p.maxError > 0.1 * scale) || spread > 0.5) {
    const fitted = row.fit.valid ? ` (fitted ${orderText(row.fit)})` : '';
    const why = used.some((p) => p.maxError > 0.1 * scale) ? 'its errors are as large as the motion' : 'its slope changes from one halving to the next';
    return { kind: 'unfit', text: `not in the asymptotic range yet: ${why}${fitted}; a smaller dt would show its order${note}` };
  }
  if (!row.fit.valid) {
    return { kind: stopped.length ? 'diverged' : 'unfit', text: stopped.length
      ? `${why(stopped[0])} at the coarsest dt; too few levels left to fit`
      : 'too few levels above the floor to fit an order' };
  }
  const gap = row.fit.order - info.order;
  if (Math.abs(gap) <= orderTolerance) return { kind: 'holds', text: `holds${note}` };
  if (gap > 0) return { kind: 'better', text: `better than its table order on this system${note}` };
  const reason = likelyReason(info, scene);
  return { kind: 'loses', text: `loses its order on this system${reason ? `: ${reason}` : ''}${note}` };
}

// "Errors at or below 1e-13 m are round-off (or the reference's own error) and are not fitted."
export function floorText(results) {
  const source = results.reference === 'exact' ? 'round-off' : "round-off or the reference's own error (Dormand–Prince, rtol 1e-12)";
  return `Errors at or below ${formatValue(results.noiseFloor)} m are ${source} and are not fitted.`;
}

// A measured order for a legend or table cell: "3.98", or '' when there is none.
export function orderText(fit) {
  return fit.valid && Number.isFinite(fit.order) ? fit.order.toFixed(2) : '';
}
