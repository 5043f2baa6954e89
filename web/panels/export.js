// Export: the run as CSV or JSON (exactly what `stepwise run … --format csv|json` prints, computed
// by the core from t = 0 with the CLI's own formatter), and the canvas and plots as one PNG.
// Downloads are named after the scenario and the integrators, e.g.
// stepwise-spring-explicit_euler-rk4.csv.
import { valueOf } from '../common/query.js';
import { laneStyle, drawMarker } from '../common/palette.js';
import { nextTask } from '../engine/slices.js';
import { t } from '../common/language.js';
import { groupDigits } from '../common/text.js';

// At most this many samples in time in an export (the core caps rows at limits.max_export_rows too).
const maxSamples = 10000;

export function fileStem(config) {
  const scenario = valueOf(config, 'scenario') || 'config';
  const ids = (valueOf(config, 'integrators') || '').split(',').filter(Boolean);
  const names = ids.length <= 3 ? ids.join('-') : `${ids.length}-integrators`;
  return `stepwise-${scenario}-${names}`.replace(/[^A-Za-z0-9_.-]/g, '_');
}

// The steps an export covers: up to now, or the whole run when the simulation is still at t = 0;
// sampled every `every` steps to stay within maxRows rows. format: 'csv' or 'json'.
export function runPlan(config, steps, lanes, bodies, maxRows, format = 'csv') {
  let total = steps;
  let whole = false;
  if (total === 0) {
    const dt = Number(valueOf(config, 'dt')), duration = Number(valueOf(config, 'duration'));
    // With a game loop the run counts frames of 1/hz (as stepwise run does).
    const hz = valueOf(config, 'loop') !== null ? Number(valueOf(config, 'hz')) : null;
    total = hz ? Math.ceil(duration * hz - 1e-9) : Math.ceil(duration / dt - 1e-9);
    whole = true;
  }
  const perSample = Math.max(1, lanes * bodies);
  const samples = Math.max(1, Math.min(maxSamples, Math.floor(maxRows / perSample) - 1));
  const every = Math.max(1, Math.ceil(total / samples));
  const command = `stepwise run '${config}' --steps ${total} --every ${every}${format === 'json' ? ' --format json' : ''}`;
  return { steps: total, every, whole, format, command };
}

// The run's bytes, from the core (RunExport): a fresh Simulation of the config stepped to
// plan.steps, a row per integrator and body every plan.every steps, numbers printed with %.17g
// exactly as the CLI does; JSON with the CLI's config, reference, rows and per-integrator summary.
// Returned as UTF-8 parts for a Blob: each chunk is encoded as it arrives, so no step at the end
// joins or encodes the whole text at once (18 MB of CSV took one 70–400 ms task that way).
// In slices of about 10 ms with a yield between them, so a long run never freezes the page;
// the slice size follows the measured cost of the last one. onProgress(fraction) after each.
export async function runParts(core, config, plan, lanes, onProgress = () => {}) {
  // The export runs in the full module (web/engine/wasm.js), loaded on the first export.
  await core.full();
  const job = core.createExport(config, plan.steps, plan.every, plan.format);
  const encoder = new TextEncoder();
  const parts = [];
  const targetMs = 10;
  let slice = Math.max(100, Math.floor(20000 / Math.max(1, lanes)));
  try {
    for (;;) {
      const start = performance.now();
      const finished = job.run(slice, targetMs);  // a stiff system's steps may be slow: the time bounds it too
      for (const chunk of job.take()) parts.push(encoder.encode(chunk));
      if (finished) break;
      const ms = performance.now() - start;
      slice = Math.max(10, Math.min(slice * 4, Math.floor(slice * targetMs / Math.max(ms, 0.5))));
      onProgress(job.done() / Math.max(1, job.total()));
      await nextTask();
    }
  } finally {
    job.delete();
  }
  return parts;
}

// Splits text into lines of at most `width` pixels, breaking after '&' or ',' where possible.
function wrap(ctx, text, width) {
  const parts = text.split(/(?<=[&,])/);
  const lines = [];
  let line = '';
  for (const part of parts) {
    if (line && ctx.measureText(line + part).width > width) { lines.push(line); line = ''; }
    line += part;
  }
  if (line) lines.push(line);
  return lines;
}

// One PNG: a title; the view's main picture (the motion canvas, the cloud panel or an analysis
// plot, with its caption when it has one) with the legend under it; the other pictures shown on
// the page ([{canvas, caption}]) stacked beside it at their size on the page; the whole config
// underneath (it reproduces the picture). Resolves to a Blob, or rejects with an Error that says
// why there is no picture (nothing drawn yet, or one larger than the browser makes).
export function compositePng(main, shown, { title, config, laneNames, laneIds, scheme, theme }) {
  const view = main && main.canvas;
  if (!view || !(view.width > 1 && view.height > 1)) return Promise.reject(new Error(t('this view has no picture to save yet')));
  // The canvas's pixels per CSS pixel: from its box on the page, or the screen's for one not laid out.
  const shownWidth = view.getBoundingClientRect().width;
  const ratio = shownWidth > 0 ? view.width / shownWidth : window.devicePixelRatio || 1;
  const px = (n) => Math.round(n * ratio);
  const pad = px(14);
  const visible = shown.filter((p) => p.canvas && p.canvas.width > 1 && p.canvas.height > 1);
  const plots = visible.map((p) => p.canvas);
  const captions = new Map(visible.map((p) => [p.canvas, p.caption]));
  const caption = px(18);
  const mainCaption = main.caption ? caption : 0;
  const plotWidth = plots.length ? Math.max(...plots.map((c) => c.width)) : 0;
  const plotsHeight = plots.reduce((h, c) => h + caption + c.height + pad, 0);
  const width = pad + view.width + (plotWidth ? pad + plotWidth : 0) + pad;
  const line = px(18);
  const columns = Math.max(1, Math.floor(view.width / px(190)));
  const legendHeight = Math.ceil(laneNames.length / columns) * line;
  const top = pad + px(26);
  const out = document.createElement('canvas');
  const measure = out.getContext('2d');
  measure.font = `${px(11)}px ui-monospace, monospace`;
  const configLines = wrap(measure, config, width - 2 * pad);
  const body = Math.max(mainCaption + view.height + pad + legendHeight, plotsHeight - pad);
  out.width = width;
  out.height = top + body + pad + configLines.length * px(15) + pad;
  const ctx = out.getContext('2d');
  ctx.fillStyle = theme.bg;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.textBaseline = 'top';
  ctx.fillStyle = theme.fg;
  ctx.font = `600 ${px(16)}px ${theme.font}`;
  ctx.fillText(title, pad, pad);
  if (main.caption) {
    ctx.font = `600 ${px(12)}px ${theme.font}`;
    ctx.fillText(main.caption, pad + px(4), top);
  }
  ctx.drawImage(view, pad, top + mainCaption);
  ctx.font = `${px(12)}px ${theme.font}`;
  const column = view.width / columns;
  const legendTop = top + mainCaption + view.height + pad;
  laneNames.forEach((name, l) => {
    const style = laneStyle(laneIds[l], scheme);
    const x = pad + (l % columns) * column, y = legendTop + Math.floor(l / columns) * line;
    ctx.fillStyle = style.colour;
    drawMarker(ctx, style.marker, x + px(6), y + px(7), px(5));
    ctx.fill();
    ctx.fillStyle = theme.fg;
    ctx.fillText(name, x + px(16), y);
  });
  let y = top;
  ctx.font = `600 ${px(12)}px ${theme.font}`;
  for (const c of plots) {
    ctx.fillStyle = theme.fg;
    ctx.fillText(captions.get(c), pad + view.width + pad + px(4), y);
    ctx.drawImage(c, pad + view.width + pad, y + caption);
    y += caption + c.height + pad;
  }
  ctx.fillStyle = theme.muted;
  ctx.font = `${px(11)}px ui-monospace, monospace`;
  configLines.forEach((text, i) => ctx.fillText(text, pad, top + body + pad + i * px(15)));
  // toBlob gives null where the browser makes no image of this size.
  return new Promise((resolve, reject) => out.toBlob((blob) => (blob ? resolve(blob)
    : reject(new Error(t('the browser could not make an image of {w} × {h} pixels', { w: groupDigits(out.width), h: groupDigits(out.height) })))), 'image/png'));
}
