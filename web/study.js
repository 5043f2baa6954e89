// Convergence studies off the animation path: run one of the core's studies in slices (the
// convergence view's, and a small one for the motion legend's measured orders), keep the last
// results per physics (the config without its view), and say in words what each measured order
// means. No DOM.
import { Slices } from './slices.js';
import { formatValue, fixed } from './coords.js';
import { t } from './language.js';

// The page's studies: the convergence view's (the core's default halvings, a work cap that keeps
// a long config to seconds, not minutes) and the motion legend's quick one.
export const studySizes = {
  full: { halvings: 4, maxWork: 2e7, targetMs: 12 },
  quick: { halvings: 4, maxWork: 2e6, targetMs: 6 },  // as many levels as the full study: two would fit pre-asymptotic slopes
};
// A measured order within this of the table's claim "holds".
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

// The order the core's table claims for lane `id` on the system on screen (scene.laneOrders, in
// lane order, for the kind of system scene.regime): {kind: 'power' | 'exact' | 'none', p, text}.
export function claimFor(scene, laneIds, id) {
  const l = laneIds.indexOf(id);
  return l >= 0 && scene.laneOrders ? scene.laneOrders[l] : null;
}

// The verdict on one row of a study, against the table's claim for this kind of system (the
// core's, never worked out here): {kind, text}. kind: holds, exact, loses, better, diverged,
// adaptive, pending, unfit.
export function verdict(row, claim, scene, results) {
  const points = row.points;
  if (points.length === 0) return { kind: 'pending', text: t('not run yet') };
  const floor = results.noiseFloor;
  const stopped = points.filter((p) => p.stopReason !== '');
  const why = (p) => t(p.stopText);  // the core's words
  if (stopped.length === points.length) {
    return { kind: 'diverged', text: t('{why} at every dt tried (down to {dt} s)', { why: why(points[0]), dt: formatValue(points[points.length - 1].dt) }) };
  }
  const note = stopped.length > 0
    ? `; ${stopped.length > 1
      ? t('{why} at the coarsest dts (down to {dt} s), fitted on the finer ones', { why: why(stopped[0]), dt: formatValue(stopped[stopped.length - 1].dt) })
      : t('{why} at the coarsest dt ({dt} s), fitted on the finer ones', { why: why(stopped[0]), dt: formatValue(stopped[0].dt) })}`
    : '';
  const kind = scene.regime ? t(scene.regime.text) : t('this kind of system');
  if (!claim || claim.kind === 'none') {
    return { kind: 'adaptive', text: `${t('adaptive: its error follows its tolerance, not dt')}${note}` };
  }
  const atFloor = points.every((p) => p.stopReason !== '' || !(p.maxError > floor));
  if (claim.kind === 'exact') {
    // The table says this method follows this kind of system's flow: round-off at every dt.
    return atFloor
      ? { kind: 'exact', text: `${t('exact here, as the table says for {kind} (errors at round-off)', { kind })}${note}` }
      : { kind: 'loses', text: `${t('the table says exact for {kind}, but its errors are above round-off', { kind })}${note}` };
  }
  if (atFloor) {
    return { kind: 'unfit', text: `${t('at the round-off floor at every dt: a larger dt would show its order')}${note}` };
  }
  // Only an asymptotic error falls as dt^p: errors as large as a tenth of the motion, or slopes
  // between successive halvings that disagree, mean the fit is not an order yet.
  const used = points.filter((p) => p.stopReason === '' && p.maxError > floor);
  const scale = results.lengthScale > 0 ? results.lengthScale : Infinity;
  const slopes = used.slice(1).map((p, k) => Math.log2(used[k].maxError / p.maxError));
  const spread = slopes.length > 1 ? Math.max(...slopes) - Math.min(...slopes) : 0;
  if (used.some((p) => p.maxError > 0.1 * scale) || spread > 0.5) {
    const fitted = row.fit.valid ? ` ${t('(fitted {order})', { order: orderText(row.fit) })}` : '';
    const why = used.some((p) => p.maxError > 0.1 * scale) ? t('its errors are as large as the motion') : t('its slope changes from one halving to the next');
    return { kind: 'unfit', text: `${t('not in the asymptotic range yet: {why}{fitted}; a smaller dt would show its order', { why, fitted })}${note}` };
  }
  if (!row.fit.valid) {
    return { kind: stopped.length ? 'diverged' : 'unfit', text: stopped.length
      ? t('{why} at the coarsest dt; too few levels left to fit', { why: why(stopped[0]) })
      : t('too few levels above the floor to fit an order') };
  }
  const gap = row.fit.order - claim.p;
  if (Math.abs(gap) <= orderTolerance) return { kind: 'holds', text: `${t('holds')}${note}` };
  if (gap > 0) return { kind: 'better', text: `${t("better than the table's order {p} for {kind}", { p: claim.p, kind })}${note}` };
  return { kind: 'loses', text: `${t('loses its order on this system: the table says {p} for {kind}', { p: claim.p, kind })}${note}` };
}

// "Errors at or below 1e-13 m are round-off (or the reference's own error) and are not fitted."
export function floorText(results) {
  return results.reference === 'exact'
    ? t('Errors at or below {floor} m are round-off and are not fitted.', { floor: formatValue(results.noiseFloor) })
    : t("Errors at or below {floor} m are round-off or the reference's own error (Dormand–Prince, rtol = atol = 1e-12) and are not fitted.",
      { floor: formatValue(results.noiseFloor) });
}

// The table's claim for a lane in words, for a badge's tooltip or a table cell's: the kind of
// system, the claim there, and the integrator's note where the order depends on more.
export function claimTitle(claim, info, scene) {
  const here = !claim || claim.kind === 'none' ? t('no order in dt here (adaptive)')
    : claim.kind === 'exact' ? t('exact here') : t('order {p} here', { p: claim.p });
  const kind = scene.regime ? ` (${t(scene.regime.text)})` : '';
  return `${here}${kind}. ${t('Its orders: {orders}.', { orders: info.orders_text })}${info.order_note ? ` ${info.order_note}` : ''}`;
}

// A measured order for a legend or table cell: "3.98", or '' when there is none.
export function orderText(fit) {
  return fit.valid && Number.isFinite(fit.order) ? fixed(fit.order, 2) : '';
}
