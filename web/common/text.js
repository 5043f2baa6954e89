// Values as text, the page's one place for it: numbers for people (with the page's decimal sign
// and digit grouping, by language), axis labels, and the legend's, cloud's and study's sentences
// about a lane (why it stopped, its drift, error, area, measured order). Plain text only: callers
// put it into textContent or onto a canvas, never into markup.
import { t } from './language.js';
import { rodSolversText } from './lanes.js';

// How the page writes numbers for people, by language (web/common/language.js). Only formatValue and
// groupDigits read it: links, CSV, JSON and the clipboard's config write the core's text, always
// with points.
const numberStyles = {
  en: { decimal: '.', group: ',' },
  de: { decimal: ',', group: '\u202f' },
};

let numberStyle = numberStyles.en;

export function setNumberLanguage(lang) {
  numberStyle = numberStyles[lang] || numberStyles.en;
}

// A number as JavaScript writes it (every digit kept: a limit, a default), with the page's
// decimal sign; fixed(): with d decimals (toFixed).
export function plainNumber(x) {
  const text = String(x);
  return numberStyle.decimal === '.' ? text : text.replace('.', numberStyle.decimal);
}

export const fixed = (x, d) => plainNumber(x.toFixed(d));

// Numbers for people: 3 significant digits, exponent when tiny or huge.
export function formatValue(x, digits = 3) {
  if (!Number.isFinite(x)) return '—';
  if (x === 0) return '0';
  const abs = Math.abs(x);
  const text = abs >= 1e5 || abs < 1e-3 ? x.toExponential(digits - 1).replace('e+', 'e')
    : Number(x.toPrecision(digits)).toString();
  return numberStyle.decimal === '.' ? text : text.replace('.', numberStyle.decimal);
}

// A number for people where the exact one is kept one click away (exactNumberTitle, the X-ray's
// Exact box): "1/60" where x is exactly 1/n and its decimals run on (1/60, 1/30, 1/64; 1/50 is
// "0.02"), else formatValue's digits ("0.0167", "2.983").
export function readableNumber(x, digits = 3) {
  if (x > 0 && x < 1) {
    const n = Math.round(1 / x);
    if (n <= 1e6 && 1 / n === x && formatValue(x, digits) !== plainNumber(x)) return `1/${n}`;
  }
  return formatValue(x, digits);
}

// "0.016666666666666666 s (exact)": a readable number's every digit, for its title.
export const exactNumberTitle = (x, unit = '') => t('{value} (exact)', { value: `${plainNumber(x)}${unit ? ` ${unit}` : ''}` });

// A whole number with its thousands grouped: 100000 → "100,000" (German: "100 000" with a narrow
// no-break space, as DIN 5008 writes it: a point would read as a decimal point to half the
// class). Written out rather than toLocaleString: a page's first Intl call sets up ICU, 20–50 ms
// of one task at start-up.
export function groupDigits(n) {
  const whole = Math.round(Math.abs(n)).toString();
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, numberStyle.group);
  return n < 0 && whole !== '0' ? `-${grouped}` : grouped;
}

// Tick label text for a value on an axis with this step (no 0.30000000000000004).
export function tickLabel(value, step) {
  if (value === 0 || Math.abs(value) < step * 1e-9) return '0';  // step·1e-9 is 0 below 5e-315
  const abs = Math.abs(value);
  if (abs >= 1e5 || abs < 1e-3) return value.toExponential(Math.max(0, Math.min(3, -Math.floor(Math.log10(step)) + Math.floor(Math.log10(abs))))).replace('e+', 'e');
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  return fixed(value, Math.min(decimals, 6));
}

// An axis name with its labels' offset: "y (m)", or "y + 112700 (m)" when the labels are y + 112700.
export function offsetName(name, unit, offset, step) {
  if (offset === 0) return `${name} (${unit})`;
  const abs = Math.abs(offset);
  const decimals = Math.max(0, -Math.floor(Math.log10(step * 10) + 1e-9));
  const digits = Math.min(15, Math.floor(Math.log10(abs)) - Math.floor(Math.log10(step * 10) + 1e-9));
  const text = abs < 1e9 ? fixed(abs, Math.min(decimals, 9)) : abs.toExponential(Math.max(0, digits)).replace('e+', 'e');
  return `${name} ${offset > 0 ? '\u2212' : '+'} ${text} (${unit})`;
}

// A tick's label: as many decimals as the step needs, even far from zero (a window 1 m wide
// around x = -21707 reads -21707.5, not -2.171e4); an exponent only for huge values.
export function tickText(value, step) {
  if (value === 0 || Math.abs(value) < step * 1e-9) return '0';  // step·1e-9 is 0 below 5e-315
  const decimals = Math.min(6, Math.max(0, -Math.floor(Math.log10(step) + 1e-9)));
  if (Math.abs(value) < 1e9) return fixed(value, decimals);
  const digits = Math.min(8, Math.max(1, Math.floor(Math.log10(Math.abs(value))) - Math.floor(Math.log10(step))));
  return value.toExponential(digits).replace('e+', 'e');
}

// "area × 1.000", "area × 14.1", "area: rim no longer finite". The core's area is signed (the
// shoelace formula): below zero the rim has folded over itself (where x is coupled to other
// coordinates, an orbit's), and the number is no area any more.
export function areaText(ratio) {
  if (!Number.isFinite(ratio)) return t('area: rim no longer finite');
  const text = fixedRatio(Math.abs(ratio));
  return ratio < 0 ? t('area × −{r} (the rim folded over)', { r: text }) : t('area × {r}', { r: text });
}

// A ratio's size as the legend and the windows write it: "1.000", "14.1".
export function fixedRatio(magnitude) {
  return magnitude >= 0.001 && magnitude < 10 ? fixed(magnitude, 3) : formatValue(magnitude);
}

// "2,000 points finite", "1,234 of 2,000 points finite".
export function finiteText(finite, points) {
  const n = (k) => groupDigits(Math.max(0, k));
  return finite >= points ? t('{n} points finite', { n: n(points) })
    : t('{k} of {n} points finite', { k: n(finite), n: n(points) });
}

// Why and when a lane stopped, in the core's words: "diverged at t = 1.2 s", "fell into the
// central mass at t = 1.12 s", "needed more than 50000 rk45 substeps in one step … at t = 10 s".
// A lane that never started (a force-based method on rigid links: needs_compliance) says why
// alone, naming the key to change; it has no time to give.
// With the core's integrators, that lane also names the methods that step rods (rodSolversText).
export function stopText(lane, integrators = null) {
  if (lane.stopReason === 'needs_compliance') return integrators ? `${t(lane.stopText)}; ${rodSolversText(integrators)}` : t(lane.stopText);
  return t('{what} at t = {t} s', { what: t(lane.stopText), t: formatValue(lane.divergedAt) });
}

// A linked system's numbers beside energy and error: the constraint error (the largest
// |length − L|/L over the links; a compliant link's stretch is physical) and the first link's
// tension. "links 1.20e-5 · tension 19.6 N".
// The links' error in % of a link, as the presets' texts give it ("stretched 14 %"): the core's
// constraint_error is the fraction |length − L|/L.
export function linkText(constraintError, tension) {
  const error = !Number.isFinite(constraintError) ? '—' : constraintError < 1e-15 ? '0 %' : `${formatValue(constraintError * 100)} %`;
  return t('links {error} · tension {tension}', { error, tension: Number.isFinite(tension) ? `${formatValue(tension)} N` : '—' });
}

// Below these the numbers are round-off, not drift or error: shown as 0. A relative energy
// drift under 1e-12 (1e-10 %) is a few thousand units in the last place of a double; a position
// error under 1e-12 of the motion's size likewise.
export const roundOffDrift = 1e-12;

export const roundOffError = 1e-12;

// "+5.8 %", "−36.9 %", "0 %" (round-off), "—" (not a number).
export function driftText(drift) {
  if (!Number.isFinite(drift)) return '—';
  if (Math.abs(drift) < roundOffDrift) return '0 %';
  return `${drift >= 0 ? '+' : '−'}${formatValue(Math.abs(drift) * 100)} %`;
}

// "0.858 m", "0 m" below round-off of a motion of size `size` (m).
export function errorText(error, size) {
  if (!Number.isFinite(error)) return '—';
  if (error < roundOffError * Math.max(size, 1e-300)) return '0 m';
  return `${formatValue(error)} m`;
}

// The factors of the start energy the legend notes the time of: a lane whose energy passes
// them is running away (long before the core stops it as diverged).
export const energyMilestones = [10, 1000];

// "energy ×10 by t = 0.31 s · ×1000 by t = 0.52 s" (empty when none was passed).
export function milestoneText(passed) {
  const parts = energyMilestones.filter((f) => passed.has(f))
    .map((f) => t('×{factor} by t = {t} s', { factor: f, t: formatValue(passed.get(f)) }));
  return parts.length ? t('energy {milestones}', { milestones: parts.join(' · ') }) : '';
}

// Equal cost: the step a lane effectively takes. "step 4 × dt = 0.04 s"; for a method whose cost
// varies, the measured average, rk45 with its fitted tolerance; "at t = 0.74 s" when the lane is
// behind the clock (it is drawn at that state).
export function effectiveStepText(lane, info, dt) {
  // Always written (never appearing and vanishing, which made the cards jump): its own time.
  const behind = Number.isFinite(lane.laneTime) ? ` · ${t('at t = {t} s', { t: formatValue(lane.laneTime) })}` : '';
  if (lane.stride > 0) return `${t('step {s} × dt = {h} s', { s: lane.stride, h: formatValue(lane.stride * dt) })}${behind}`;
  const rtol = info.adaptive && Number.isFinite(lane.rtol) ? ` · rtol = atol = ${formatValue(lane.rtol)}` : '';
  return `${t('step ≈ {h} s (measured)', { h: formatValue(lane.effectiveDt) })}${rtol}${behind}`;
}

// The measured order a verdict rests on, for a table cell or a badge: {order: "3.98" ('' when
// none), over: "dt ≤ 0.0125 s" ('' when every level that ran)}.
export function measuredText(v) {
  return {
    order: v.order !== null && Number.isFinite(v.order) ? fixed(v.order, 2) : '',
    over: v.over !== null ? t('dt ≤ {dt} s', { dt: formatValue(v.over) }) : '',
  };
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
  const here = !claim || claim.kind === 'none' ? (info.adaptive ? t('no order in dt here (adaptive)') : t('no order in dt here'))
    : claim.kind === 'exact' ? t('exact here') : t('order {p} here', { p: claim.p });
  const kind = scene.regime ? ` (${t(scene.regime.text)})` : '';
  return `${here}${kind}. ${t('Its orders: {orders}.', { orders: info.orders_text })}${info.order_note ? ` ${info.order_note}` : ''}`;
}
