// Colours, dash patterns and marker shapes per lane. Okabe–Ito's colour-blind-safe set (without
// black), in an order that keeps the first lanes far apart; after seven lanes the colours repeat
// with a different dash and marker, so fifteen integrators stay distinguishable.

const okabeIto = {
  light: ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#8A7A00'],
  // Lighter variants where the dark background would swallow the originals.
  dark: ['#4DA3E0', '#F07A2E', '#22C493', '#E29AC4', '#F0B030', '#7CCBF5', '#F0E442'],
};
const dashes = [[], [7, 4], [2, 3]];
const markers = ['circle', 'square', 'triangle'];

export function laneStyle(index, scheme) {
  const colours = okabeIto[scheme] || okabeIto.light;
  const cycle = Math.floor(index / colours.length) % dashes.length;
  return {
    colour: colours[index % colours.length],
    dash: dashes[cycle],
    marker: markers[cycle],
  };
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
