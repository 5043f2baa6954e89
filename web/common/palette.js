import { methodOf } from './lanes.js';

// One style per integrator, the same wherever it is drawn (canvas, plots, legend, exports, every
// embed and the lesson): a colour, a dash pattern and a marker shape, keyed by the core's
// integrator id, never by list position. Fifteen colours cannot all be far apart, so each lane
// also has its own dash and marker, and neighbours in colour differ in shape.
// The light colours have a contrast of at least 3:1 against the white canvas (WCAG's figure for
// graphics), the dark ones at least 4:1 against the dark canvas; within each set the closest
// two are 0.105 (light) and 0.115 (dark) apart in OKLab, a clearly visible step. Picked by
// greedy farthest-point search in OKLCH under those contrast bounds; the dark colour keeps
// the light one's hue (within 15°) so an integrator looks the same in both schemes.
// tests/web/palette.test.mjs checks the contrasts, the distances and that every integrator of
// the core's table has a row here.
const circle = 'circle', square = 'square', triangle = 'triangle';
const solid = [], dashed = [7, 4], dotted = [2, 3];
export const integratorStyles = {
  explicit_euler:        { light: '#D55E00', dark: '#dd8e66', dash: solid,  marker: circle },
  semi_implicit_euler:   { light: '#0072B2', dark: '#7eaacf', dash: solid,  marker: square },
  rk4:                   { light: '#3c9e40', dark: '#78b777', dash: solid,  marker: triangle },
  velocity_verlet:       { light: '#9b357f', dark: '#e17cc1', dash: dashed, marker: circle },
  heun:                  { light: '#966cd7', dark: '#a76ef8', dash: dashed, marker: square },
  midpoint:              { light: '#a43d2b', dark: '#e94023', dash: dashed, marker: triangle },
  leapfrog:              { light: '#429596', dark: '#35dee0', dash: dotted, marker: circle },
  yoshida4:              { light: '#8c7a2b', dark: '#dcbc1a', dash: dotted, marker: square },
  rk45:                  { light: '#595c33', dark: '#808368', dash: dotted, marker: triangle },
  implicit_euler:        { light: '#684bb5', dark: '#7c6fb1', dash: solid,  marker: triangle },
  kinematic:             { light: '#057918', dark: '#41e14d', dash: dashed, marker: square },
  kinematic_avg:         { light: '#71597b', dark: '#d8c1e1', dash: dashed, marker: circle },
  newton:                { light: '#a57785', dark: '#b9587b', dash: dotted, marker: square },
  stormer_verlet:        { light: '#016372', dark: '#1e92a7', dash: solid,  marker: circle },
  semi_implicit_euler_x: { light: '#c35aa4', dark: '#dc3ab3', dash: dotted, marker: triangle },
  // The game-physics solvers: the five found farthest from the fifteen above under the same
  // bounds (at least 0.11 apart in OKLab in both schemes), blues and violets, each with its own shape.
  xpbd:                  { light: '#0000e4', dark: '#0078fc', dash: solid,  marker: square },
  pbd:                   { light: '#6c0090', dark: '#fc54fc', dash: dashed, marker: triangle },
  soft_step:             { light: '#9c00e4', dark: '#cc00fc', dash: solid,  marker: circle },
  sequential_impulses:   { light: '#5400cc', dark: '#b49cfc', dash: dotted, marker: circle },
  vbd:                   { light: '#c000b4', dark: '#fc9cfc', dash: dashed, marker: square },
};
// An id without a row (a new integrator before its row is added; the palette test fails then).
const unlisted = { light: '#5b6470', dark: '#9aa3ad', dash: [1, 2], marker: circle };

// The style of integrator `id` in colour scheme 'light' or 'dark'.
// A lane with its own settings (xpbd@20x1) keeps its method's colour and takes a dash and a
// marker of its own from its settings, so two lanes of one method stay apart.
const settingsDashes = [[10, 3], [4, 2, 1, 2], [1, 3], [12, 3, 3, 3]];
const markers = [circle, square, triangle];
export function laneStyle(id, scheme) {
  const method = methodOf(id), settings = String(id).slice(method.length + 1);
  const row = integratorStyles[method] || unlisted;
  const style = { colour: scheme === 'dark' ? row.dark : row.light, dash: row.dash, marker: row.marker };
  if (!settings) return style;
  let hash = 0;
  for (const ch of settings) hash = (hash * 31 + ch.charCodeAt(0)) % 997;
  return { ...style, dash: settingsDashes[hash % settingsDashes.length], marker: markers[(hash >> 2) % markers.length] };
}

export function currentScheme() {
  return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

// The page's own colours, from the CSS custom properties (they follow light/dark).
export function themeColours() {
  const css = getComputedStyle(document.documentElement);
  const get = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
  return {
    scheme: currentScheme(),
    bg: get('--canvas-bg', '#ffffff'),
    fg: get('--fg', '#1b1f24'),
    muted: get('--muted', '#5b6470'),
    grid: get('--grid', '#e3e7ec'),
    ghost: get('--ghost', '#6b7280'),
    ground: get('--ground', '#8b7355'),
    font: get('--font-ui', 'system-ui, sans-serif'),
  };
}

// Draws a lane's marker (the same shapes in the canvas, the plots and the legend).
export function drawMarker(ctx, shape, x, y, r) {
  ctx.beginPath();
  if (shape === 'square') {
    ctx.rect(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
  } else if (shape === 'triangle') {
    ctx.moveTo(x, y - r * 1.1);
    ctx.lineTo(x + r, y + r * 0.75);
    ctx.lineTo(x - r, y + r * 0.75);
    ctx.closePath();
  } else {
    ctx.arc(x, y, r, 0, Math.PI * 2);
  }
}
