// Export: the trajectories as CSV (the CLI's format, computed by the core from t = 0), the canvas
// and plots as one PNG, and the config as JSON. Downloads are named after the scenario and the
// integrators, e.g. stepwise-spring-explicit_euler-rk4.csv.
import { valueOf } from './links.js';
import { laneStyle, drawMarker } from './palette.js';

// At most this many rows of samples in a CSV (the core caps rows at limits.max_csv_rows too).
const maxSamples = 10000;

export function fileStem(config) {
  const scenario = valueOf(config, 'scenario') || 'config';
  const ids = (valueOf(config, 'integrators') || '').split(',').filter(Boolean);
  const names = ids.length <= 3 ? ids.join('-') : `${ids.length}-integrators`;
  return `stepwise-${scenario}-${names}`.replace(/[^A-Za-z0-9_.-]/g, '_');
}

export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// The steps a CSV covers: up to now, or the whole run when the simulation is still at t = 0.
export function csvPlan(config, steps, lanes, bodies, maxRows) {
  let total = steps;
  let whole = false;
  if (total === 0) {
    const dt = Number(valueOf(config, 'dt')), duration = Number(valueOf(config, 'duration'));
    total = Math.ceil(duration / dt - 1e-9);
    whole = true;
  }
  const perSample = Math.max(1, lanes * bodies);
  const samples = Math.max(1, Math.min(maxSamples, Math.floor(maxRows / perSample) - 1));
  const every = Math.max(1, Math.ceil(total / samples));
  return { steps: total, every, whole, command: `stepwise run '${config}' --steps ${total} --every ${every}` };
}

// The CSV text, from the core: a fresh Simulation of the config stepped to `steps`, a row per
// integrator and body every `every` steps, numbers printed with %.17g exactly as the CLI does.
export function csvText(core, config, plan) {
  return core.Module.exportCsv(config, plan.steps, plan.every).join('');
}

// The config as JSON: the normalised string (the link), and its keys as numbers and vectors.
export function configJson(config, extra = {}) {
  const params = {};
  let scenario = null, integrators = [], dt = null, duration = null, version = 1;
  for (const pair of config.split('&')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const key = pair.slice(0, eq), value = decodeURIComponent(pair.slice(eq + 1));
    if (key === 'v') version = Number(value);
    else if (key === 'scenario') scenario = value;
    else if (key === 'integrators') integrators = value.split(',');
    else if (key === 'dt') dt = Number(value);
    else if (key === 'duration') duration = Number(value);
    else params[key] = value.includes(',') ? value.split(',').map(Number) : Number(value);
  }
  return {
    format: 'stepwise-config', version, config, scenario, integrators, dt, duration, params, ...extra,
  };
}

// One PNG: a title, the canvas, a legend, the three plots and the config line.
export function compositePng(canvases, { title, config, laneNames, scheme, theme }) {
  const ratio = canvases.view.width / Math.max(1, canvases.view.getBoundingClientRect().width);
  const pad = Math.round(12 * ratio);
  const width = canvases.view.width + 2 * pad;
  const plots = [canvases.energy, canvases.error, canvases.phase].filter((c) => c.width > 1 && c.height > 1);
  const plotWidth = plots.length ? Math.floor((width - pad * (plots.length + 1)) / plots.length) : 0;
  const plotHeights = plots.map((c) => Math.round((c.height * plotWidth) / c.width));
  const plotRow = plots.length ? Math.max(...plotHeights) + pad : 0;
  const line = Math.round(18 * ratio);
  const legendRows = Math.ceil(laneNames.length / 3);
  const height = pad + line * 1.6 + canvases.view.height + pad + legendRows * line + pad + plotRow + line * 2;
  const out = document.createElement('canvas');
  out.width = width;
  out.height = Math.ceil(height);
  const ctx = out.getContext('2d');
  ctx.fillStyle = theme.bg;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.fillStyle = theme.fg;
  ctx.textBaseline = 'top';
  ctx.font = `600 ${Math.round(15 * ratio)}px ${theme.font}`;
  ctx.fillText(title, pad, pad);
  let y = pad + line * 1.6;
  ctx.drawImage(canvases.view, pad, y);
  y += canvases.view.height + pad;
  ctx.font = `${Math.round(12 * ratio)}px ${theme.font}`;
  const column = (width - 2 * pad) / 3;
  laneNames.forEach((name, l) => {
    const style = laneStyle(l, scheme);
    const x = pad + (l % 3) * column, yy = y + Math.floor(l / 3) * line;
    ctx.fillStyle = style.colour;
    drawMarker(ctx, style.marker, x + 6 * ratio, yy + 7 * ratio, 5 * ratio);
    ctx.fill();
    ctx.fillStyle = theme.fg;
    ctx.fillText(name, x + 16 * ratio, yy);
  });
  y += legendRows * line + pad;
  plots.forEach((c, i) => {
    ctx.drawImage(c, pad + i * (plotWidth + pad), y, plotWidth, plotHeights[i]);
  });
  y += plotRow;
  ctx.fillStyle = theme.muted;
  ctx.font = `${Math.round(11 * ratio)}px ${theme.font}`;
  const maxChars = Math.floor((width - 2 * pad) / (6.2 * ratio));
  ctx.fillText(config.length > maxChars ? config.slice(0, maxChars - 1) + '…' : config, pad, y);
  return new Promise((resolve) => out.toBlob(resolve, 'image/png'));
}
