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
  // The game-physics solvers: five found as far from each other as the bounds allow (0.27 apart in
  // OKLab on the light canvas, 0.22 on the dark one), each at least 0.105 from the fifteen above:
  // a rigid system opens with these five alone (the core's default_lanes), which the blues and
  // violets they had before (0.11 apart) made one purple bundle. Found by a farthest-point search
  // over OKLCH under the contrast bounds, the dark colour within 15° of the light one's hue.
  xpbd:                  { light: '#1899ec', dark: '#1795fa', dash: solid,  marker: square },
  pbd:                   { light: '#65188d', dark: '#c22bf5', dash: dashed, marker: triangle },
  soft_step:             { light: '#d514f8', dark: '#f89efd', dash: solid,  marker: circle },
  sequential_impulses:   { light: '#155003', dark: '#b7ef09', dash: dotted, marker: circle },
  vbd:                   { light: '#fb5663', dark: '#ff307e', dash: dashed, marker: square },
};
// An id without a row (a new integrator before its row is added; the palette test fails then).
const unlisted = { light: '#5b6470', dark: '#9aa3ad', dash: [1, 2], marker: circle };

// The style of integrator `id` in colour scheme 'light' or 'dark'.
// A lane with its own settings (xpbd@20x1) takes a shade of its method's colour (lighter, darker,
// or its hue turned, in OKLCH), a dash and a marker of its own, all chosen by its settings' text:
// two lanes of one method (xpbd@1x20 beside xpbd@20x1) are told apart by colour as well as shape,
// and a lane looks the same wherever it is drawn (the style is a function of its id alone).
const settingsDashes = [[10, 3], [4, 2, 1, 2], [1, 3], [12, 3, 3, 3]];
const markers = [circle, square, triangle];
// The shades: `deeper` moves the OKLab lightness away from the canvas (darker on the light one,
// lighter on the dark one, so the contrast only grows), `dh` turns the hue (degrees) and `more`
// adds chroma, so that a turn shows on a greyish colour too (rk45's olive, newton's mauve).
const shades = [{ deeper: 0.14, dh: 0, more: 0 }, { deeper: 0, dh: 50, more: 0.06 }, { deeper: 0, dh: -50, more: 0.06 },
  { deeper: 0.1, dh: 40, more: 0.05 }, { deeper: 0.1, dh: -40, more: 0.05 }, { deeper: 0.26, dh: 0, more: 0 }];
// A lane's shade from its settings: SUBSTEPSxITERATIONS on a log scale (1, 2, 4 … 128), so lanes
// that differ in either (xpbd@1x20, xpbd@20x1, xpbd@100x1) take different shades.
function shadeIndex(settings) {
  const [substeps, iterations = 1] = settings.split('x').map(Number);
  const level = (n) => Math.round(Math.log2(Math.max(1, n) || 1));
  return (((level(substeps) - level(iterations)) % shades.length) + shades.length) % shades.length;
}
// The lanes the presets put side by side (xpbd@1x20 beside xpbd@20x1, xpbd@10x1 beside vbd@4x4):
// their shades from the table below, not from their settings, turned far enough (up to 120° of
// hue) that each is at least 0.18 apart in OKLab from every other lane of each preset that shows
// it and from its own method's colour, in both schemes. The shades above left xpbd@1x20 and
// xpbd@20x1 two dark teals 0.10 apart, and xpbd@10x1 and vbd@4x4 a purple and a magenta. Found
// by a search over turns (20° apart), lightness steps and chroma for the largest smallest
// distance (0.22 with the solvers' colours of now); tests/web/palette.test.mjs checks every preset's lanes against the core's table.
const comparedLaneShades = {
  'xpbd@1x20': { deeper: 0, dh: -100, more: 0 },
  'xpbd@20': { deeper: 0, dh: 120, more: 0.06 },
  'pbd@2': { deeper: 0.14, dh: 120, more: 0 },
  'xpbd@20x1': { deeper: 0.26, dh: 60, more: 0.06 },
  'xpbd@50x1': { deeper: 0.07, dh: 120, more: 0 },
  'xpbd@1x100': { deeper: 0, dh: 120, more: 0.06 },
  'xpbd@100x1': { deeper: 0.2, dh: -120, more: 0 },
  'soft_step@4': { deeper: 0.14, dh: 80, more: 0 },
  'pbd@20x1': { deeper: 0.26, dh: -120, more: 0 },
  'vbd@4x4': { deeper: 0, dh: 120, more: 0 },
  'xpbd@10x1': { deeper: 0.26, dh: 120, more: 0.06 },
};
const styleCache = new Map();
export function laneStyle(id, scheme) {
  const key = `${scheme}|${id}`;
  let style = styleCache.get(key);
  if (!style) {
    style = computeLaneStyle(String(id), scheme);
    styleCache.set(key, style);
  }
  return style;
}

function computeLaneStyle(id, scheme) {
  const method = methodOf(id), settings = id.slice(method.length + 1);
  const row = integratorStyles[method] || unlisted;
  const colour = scheme === 'dark' ? row.dark : row.light;
  if (!settings) return { colour, dash: row.dash, marker: row.marker };
  let hash = 0;
  for (const ch of settings) hash = (hash * 31 + ch.charCodeAt(0)) % 997;
  return {
    colour: shade(colour, comparedLaneShades[id] || shades[shadeIndex(settings)], scheme),
    dash: settingsDashes[hash % settingsDashes.length],
    marker: markers[(hash >> 2) % markers.length],
  };
}

// ---- A shade of a colour in OKLCH, kept in the sRGB gamut and at the palette's contrast --------
const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toGamma = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
function hexToOklab(hex) {
  const [r, g, b] = hexLinear(hex);
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s];
}
// Linear sRGB of an OKLab colour (may lie outside [0, 1]: out of gamut).
function oklabToLinear([L, a, b]) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.2914855480 * b) ** 3;
  return [4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s];
}
const luminance = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
const hexLinear = (hex) => [1, 3, 5].map((i) => toLinear(parseInt(hex.slice(i, i + 2), 16) / 255));
// The canvases' luminance (public/style.css --canvas-bg, light and dark: palette.test reads them
// there and checks every shade) and the contrast each scheme's lanes keep against it.
const canvasLuminance = { light: luminance(hexLinear('#ffffff')), dark: luminance(hexLinear('#12161b')) };
const minContrast = { light: 3, dark: 4 };
const contrastOf = (lum, scheme) => (scheme === 'light' ? (canvasLuminance.light + 0.05) / (lum + 0.05) : (lum + 0.05) / (canvasLuminance.dark + 0.05));
function shade(hex, { deeper, dh, more }, scheme) {
  const [L0, a0, b0] = hexToOklab(hex);
  // Away from the canvas, or toward it when that end is too near (a near-white lane on the dark
  // canvas goes darker; the contrast loop below stops it at the scheme's contrast).
  let dL = scheme === 'light' ? -deeper : deeper;
  if (L0 + dL > 0.88 || L0 + dL < 0.22) dL = -dL;
  const C0 = Math.hypot(a0, b0) + more, h = Math.atan2(b0, a0) + (dh * Math.PI) / 180;
  // Toward more contrast when a step falls short: darker on the light canvas, lighter on the dark.
  const toward = scheme === 'light' ? -0.01 : 0.01;
  // Kept off black and white, where every hue and chroma look alike.
  for (let L = Math.min(0.88, Math.max(0.22, L0 + dL)), k = 0; k < 100; L += toward, ++k) {
    // The largest chroma up to the shade's that the sRGB gamut holds at this lightness and hue.
    let C = C0, rgb = oklabToLinear([L, C * Math.cos(h), C * Math.sin(h)]);
    while (C > 0 && rgb.some((c) => c < 0 || c > 1)) {
      C = Math.max(0, C - 0.005);
      rgb = oklabToLinear([L, C * Math.cos(h), C * Math.sin(h)]);
    }
    const inGamut = rgb.map((c) => Math.min(1, Math.max(0, c)));
    if (contrastOf(luminance(inGamut), scheme) >= minContrast[scheme] + 0.05) {
      return `#${inGamut.map((c) => Math.round(toGamma(c) * 255).toString(16).padStart(2, '0')).join('')}`;
    }
  }
  return hex;  // no shade reaches the contrast: the method's own colour (its dash and marker differ)
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
