// Convergence studies off the animation path: run one of the core's studies in slices (the
// convergence view's, and a small one for the motion legend's measured orders), keep the last
// results per physics (the config without its view), and say in words what each measured order
// means. No DOM.
import { Slices } from './slices.js';
import { t } from '../common/language.js';
import { fixed, formatValue } from '../common/text.js';

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

// The last studies' results by physics key and axis (a few: configs change often while a slider
// drags). axis: 'dt' (halved at each level) or 'iterations' (a solver lane's, doubled at its dt).
const finished = new Map();
const keep = 8;
const studyKey = (config, axis) => (axis === 'iterations' ? `${physicsKey(config)}|iterations` : physicsKey(config));
export function storedStudy(config, axis = 'dt') { return finished.get(studyKey(config, axis)) || null; }
// True when a stored study is at least as large as `size` (then it can stand in for one).
export function covers(stored, size) { return Boolean(stored) && !larger(size, stored.size); }
// A study's size for comparison: its halvings, then its work cap (which may drop fine levels).
const larger = (a, b) => a.halvings > b.halvings || (a.halvings === b.halvings && a.maxWork > b.maxWork);
function store(config, results, size, axis) {
  const key = studyKey(config, axis);
  const old = finished.get(key);
  if (old && larger(old.size, size)) return;  // a larger study of the same physics wins
  finished.delete(key);
  finished.set(key, { results, size, halvings: size.halvings });
  while (finished.size > keep) finished.delete(finished.keys().next().value);
}

// Runs a study of `config` in slices. onProgress(results) after every few slices, onDone(results)
// at the end; cancel() stops it and frees the core's object.
export function runStudy(core, config, size, { axis = 'dt', onProgress = () => {}, onDone = () => {} } = {}) {
  const handle = core.createStudy(config, size.halvings, size.maxWork, axis);
  // The core stops a slice at the deadline too: one step of a stiff system may cost milliseconds.
  const slices = new Slices((work, deadline) => handle.advance(work, deadline - performance.now()), {
    initialUnits: 500, minUnits: 50, maxUnits: 5e7, targetMs: size.targetMs,
    // The results are a few hundred numbers: read after every slice for the progress bar.
    onSlice: () => { if (!slices.finished) onProgress(handle.results(), handle.progress); },
    onDone: () => {
      const results = handle.results();
      handle.delete();
      store(config, results, size, axis);
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
// core's, never worked out here): {kind, text, order, over}. kind: holds, exact, loses, better,
// diverged, adaptive, pending, unfit. It rests on the numbers the view shows: the slope between
// each two successive levels (how many factors of 2 the error fell by per halving of dt). An
// order holds over the finest levels whose slopes are within the tolerance of the table's; the
// coarser levels before them are named, with why they do not show it (errors as large as the
// motion, or a slope not yet the order). order: the slope fitted over the levels the verdict
// rests on (null: no order to show); over: the largest dt of those levels when the coarser
// ones are left out (null: every level that ran). size0: the motion's size (motionSize).
export function verdict(row, claim, scene, results, size0 = NaN) {
  const points = row.points;
  const plain = (kind, text) => ({ kind, text, order: null, over: null });
  if (points.length === 0) return plain('pending', t('not run yet'));
  const floor = results.noiseFloor;
  const stopped = points.filter((q) => q.stopReason !== '');
  const why = (q) => t(q.stopText);  // the core's words
  if (stopped.length === points.length) {
    return plain('diverged', t('{why} at every dt tried (down to {dt} s)', { why: why(points[0]), dt: formatValue(points[points.length - 1].dt) }));
  }
  const note = stopped.length > 0
    ? `; ${stopped.length > 1
      ? t('{why} at the coarsest dts (down to {dt} s), fitted on the finer ones', { why: why(stopped[0]), dt: formatValue(stopped[stopped.length - 1].dt) })
      : t('{why} at the coarsest dt ({dt} s), fitted on the finer ones', { why: why(stopped[0]), dt: formatValue(stopped[0].dt) })}`
    : '';
  const kind = scene.regime ? t(scene.regime.text) : t('this kind of system');
  if (!claim || claim.kind === 'none') return plain('adaptive', `${t('adaptive: its error follows its tolerance, not dt')}${note}`);
  const atFloor = points.every((q) => q.stopReason !== '' || !(q.maxError > floor));
  if (claim.kind === 'exact') {
    // The table says this method follows this kind of system's flow: round-off at every dt.
    return atFloor
      ? plain('exact', `${t('exact here, as the table says for {kind} (errors at round-off)', { kind })}${note}`)
      : plain('loses', `${t('the table says exact for {kind}, but its errors are above round-off', { kind })}${note}`);
  }
  if (atFloor) return plain('unfit', `${t('at the round-off floor at every dt: a larger dt would show its order')}${note}`);
  // The levels the core fits (above the floor, run to the end), coarsest first, and the slope
  // between each two of them.
  const used = points.filter((q) => q.stopReason === '' && q.maxError > floor);
  if (used.length < 2 || !row.fit.valid) {
    return plain(stopped.length ? 'diverged' : 'unfit', stopped.length
      ? t('{why} at the coarsest dt; too few levels left to fit', { why: why(stopped[0]) })
      : t('too few levels above the floor to fit an order'));
  }
  const slopes = used.slice(1).map((q, k) => Math.log(used[k].maxError / q.maxError) / Math.log(used[k].dt / q.dt));
  const p = claim.p;
  const size = size0 > 0 ? size0 : results.lengthScale;
  // The finest levels whose slopes agree with the table's order: there it holds.
  const from = tailStart(slopes, (s) => Math.abs(s - p) <= orderTolerance);
  if (from < slopes.length) return judged('holds', t('holds'), used, from, row, p, slopes, size, note);
  // Not the table's order at the finest levels. Errors as large as the motion there cannot show
  // an order; else a settled slope (the last two halvings agree) is better or worse than the
  // table's, and a slope still moving is no order yet.
  const large = used.filter((q) => q.maxError >= largeError * size);
  if (large.length && large[large.length - 1] === used[used.length - 1]) {
    return plain('unfit', `${largeErrors(large, size, p, large.length === used.length)}; ${t('a smaller dt would show its order')}${note}`);
  }
  const last = slopes[slopes.length - 1];
  // The settled slopes' levels, after the last one whose error is as large as the motion.
  const start = Math.max(tailStart(slopes, (s) => Math.abs(s - last) <= 2 * settledTolerance), used.indexOf(large[large.length - 1]) + 1);
  const settled = slopes.length >= 2 && Math.abs(last - slopes[slopes.length - 2]) <= settledTolerance && start < slopes.length;
  if (settled) {
    return last > p
      ? judged('better', t("better than the table's order {p} for {kind}", { p, kind }), used, start, row, p, slopes, size, note)
      : judged('loses', t('loses its order on this system: the table says {p} for {kind}', { p, kind }), used, start, row, p, slopes, size, note);
  }
  const gaps = slopes.map((s) => Math.abs(s - p));
  if (slopes.length >= 2 && gaps.every((g, k) => k === 0 || g < gaps[k - 1])) {
    return plain('unfit', `${t("its slope goes from {a} to {b} as dt shrinks, towards the table's order {p}: not settled yet",
      { a: slopeList([slopes[0]]), b: slopeList([last]), p })}; ${t('a smaller dt would show its order')}${note}`);
  }
  // The levels the error fell slowly from: errors as large as the motion there are why.
  const because = largeErrors(used.filter((q, k) => k < slopes.length && slopes[k] < p - orderTolerance), size, p);
  return plain('unfit', `${t('its slope changes from one halving to the next ({slopes}): not settled into an order yet', { slopes: slopeList(slopes) })}${
    because ? `; ${because}` : ''}; ${t('a smaller dt would show its order')}${note}`);
}

// The size of the motion a study is of: the exact or reference motion's box as far as the page
// knows it (sim.bounds), its larger side; NaN when nothing is known yet (then the core's length
// scale stands in).
export function motionSize(sim) {
  const b = sim && sim.bounds;
  return b ? Math.max(b.maxX - b.minX, b.maxY - b.minY) : NaN;
}

// An error of this fraction of the motion's size or more is "as large as the motion": it cannot
// fall as dtᵖ (nor grow much further as dt grows).
const largeError = 0.25;

// Slopes of successive halvings agreeing within this have settled on an order.
const settledTolerance = 0.1;

// The index of the first slope of the longest run at the end of `slopes` that passes `ok`
// (slopes.length when the last one does not).
function tailStart(slopes, ok) {
  let from = slopes.length;
  while (from > 0 && ok(slopes[from - 1])) --from;
  return from;
}

// "at dt ≥ 0.025 s its errors (up to 2 m) are as large as the motion: too large to fall as dt²
// yet", for those of `levels` (coarse levels) whose errors are as large as the motion; '' if none.
// every: they are every level that ran ("at every dt tried (down to 0.01 s) …").
function largeErrors(levels, size, p, every = false) {
  const large = levels.filter((q) => q.maxError >= largeError * size);
  if (large.length === 0) return '';
  const values = {
    dt: formatValue(Math.min(...large.map((q) => q.dt))), error: formatValue(Math.max(...large.map((q) => q.maxError))), power: power(p),
  };
  return every
    ? t('at every dt tried (down to {dt} s) its errors (up to {error} m) are as large as the motion: too large to fall as {power} yet', values)
    : t('at dt ≥ {dt} s its errors (up to {error} m) are as large as the motion: too large to fall as {power} yet', values);
}

// "dt²": dt to the power p, with superscript digits.
function power(p) {
  const digits = '⁰¹²³⁴⁵⁶⁷⁸⁹';
  return `dt${String(p).replace(/\d/g, (d) => digits[d])}`;
}

// Slopes for the page: "0.33 → −1.68 → 2.96".
const slopeList = (slopes) => slopes.map((s) => fixed(s, 2).replace('-', '−')).join(' → ');

// A verdict that rests on the levels from used[from] on: over all of them, the core's fit and the
// plain words; over the finer ones, their own fitted slope, the dts it holds at and why the
// coarser ones do not show it.
function judged(kind, words, used, from, row, p, slopes, size, note) {
  if (from === 0) return { kind, text: `${words}${note}`, order: row.fit.order, over: null };
  const tail = used.slice(from);
  const order = fitSlope(tail);
  const over = tail[0].dt;
  const large = largeErrors(used.slice(0, from), size, p);
  const coarse = large || t('at dt ≥ {dt} s its slope ({slopes}) is not {p} yet', {
    dt: formatValue(used[from - 1].dt), slopes: slopeList(slopes.slice(0, from)), p,
  });
  return {
    kind, order, over,
    text: `${t('{verdict} at dt ≤ {dt} s (slope {order}); {coarse}', { verdict: words, dt: formatValue(over), order: fixed(order, 2), coarse })}${note}`,
  };
}

// The least-squares slope of log(error) against log(dt) (the core's fit, over these levels).
function fitSlope(levels) {
  const xs = levels.map((p) => Math.log(p.dt)), ys = levels.map((p) => Math.log(p.maxError));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length, my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0, sxx = 0;
  xs.forEach((x, k) => { sxy += (x - mx) * (ys[k] - my); sxx += (x - mx) * (x - mx); });
  return sxy / sxx;
}
