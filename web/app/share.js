// Sharing: the "Copy link" button, the "Embed" dialog with a ready-to-paste iframe snippet (and a
// live preview), the export buttons, and Step code (to paste into a game). Text goes in with
// textContent / value only.
import { fileStem, runPlan, runParts, compositePng } from '../panels/export.js';
import { valueOf } from '../common/query.js';
import { highlightedLane } from '../motion/lane-focus.js';
import { viewRow } from '../views/views.js';
import { fixed } from '../common/text.js';
import { t } from '../common/language.js';
import { copyText, download } from '../common/dom.js';
import { linkFor } from './links.js';

const $ = (id) => document.getElementById(id);

export const embedSizes = {
  small: { width: 400, height: 260, label: 'Small (400 × 260)' },
  medium: { width: 640, height: 400, label: 'Medium (640 × 400)' },
  large: { width: 800, height: 520, label: 'Large (800 × 520)' },
};

const escapeAttribute = (s) => String(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;')
  .replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function embedUrl(config, { ui = 'compact', autoplay = true } = {}) {
  const url = new URL('embed.html', location.href);
  return `${url.origin}${url.pathname}?ui=${ui}${autoplay ? '&autoplay=1' : ''}#${config}`;
}

export function embedSnippet(config, options = {}) {
  const size = embedSizes[options.size] || embedSizes.medium;
  const title = options.title || t('Stepwise simulation');
  return `<iframe src="${escapeAttribute(embedUrl(config, options))}" title="${escapeAttribute(title)}" ` +
    `width="${size.width}" height="${size.height}" style="border:0;max-width:100%" loading="lazy" allowfullscreen></iframe>`;
}

// What the PNG shows: the view on screen. {main: {canvas, caption}, shown: [{canvas, caption}]
// (beside it), title}. The motion view: the canvas, then the clouds and the plots; the cloud
// view (its motion canvas hidden): the cloud panel and the plots; an analysis view: its plots,
// the first as the main one. cloudView, plots: the page's (web/views/cloud.js, web/plots/plots.js).
function viewPicture(page, cloudView, plots) {
  const row = viewRow(page.viewId);
  const name = page.core.views.find((v) => v.id === page.viewId)?.name || page.viewId;
  if (row.layout === 'analysis') {
    const figures = [...$('analysis').querySelectorAll('figure')]
      .filter((f) => f.querySelector('canvas') && f.getClientRects().length > 0)
      .map((f) => ({ canvas: f.querySelector('canvas'), caption: f.querySelector('figcaption')?.firstChild?.textContent || '' }));
    return { main: figures[0] || {}, shown: figures.slice(1), title: `${page.title()} · ${name}` };
  }
  plots.draw(page.sim, page.sim.snapshot, page.theme);
  const clock = `${page.title()} · t = ${fixed(page.sim.snapshot.t, 2)} s`;
  if (row.layout === 'cloud') {
    const [clouds = {}] = cloudView.visible();
    return { main: clouds, shown: plots.visible(), title: clock };
  }
  return { main: { canvas: $('view') }, shown: [...cloudView.visible(), ...plots.visible()], title: clock };
}

// The Step code dialog opens on the lane the user is looking at: the highlighted one, else the
// one a part shows (shownLane(): the X-ray's), else the first.
function stepCodeLane(page, shownLane) {
  const shown = [highlightedLane(), shownLane()];
  return shown.find((id) => id && page.sim.laneIds.includes(id)) || page.sim.laneIds[0];
}

// page: the PageState (web/app/page.js); cloudView, plots: the page's (web/views/cloud.js,
// web/plots/plots.js), for the PNG; shownLane(): the lane a part shows (the X-ray's), or null.
export function installShare({ page, cloudView, plots, shownLane }) {
  const status = $('share-status');
  let clearTimer = null;
  const say = (text, ms = 5000) => {
    status.textContent = text;
    clearTimeout(clearTimer);
    clearTimer = setTimeout(() => { status.textContent = ''; }, ms);
  };

  $('copy-link').addEventListener('click', async () => {
    const ok = await copyText(linkFor(page.sim.config));
    say(ok ? t('Link copied: it opens this exact setup.') : t('Could not copy: the address bar holds the same link.'));
  });

  // The embed dialog.
  const dialog = $('embed-dialog');
  const code = $('embed-code');
  const ui = $('embed-ui');
  const size = $('embed-size');
  const autoplay = $('embed-autoplay');
  // The preview's frame is made when the dialog first opens: a frame in the page's HTML is made
  // with the page, and its first document takes the page's address, which may be a link of
  // megabytes still to be refused (a 2,000,000-character one: 100 ms of the HTML's parsing).
  let preview = null;
  const previewFrame = () => {
    if (!preview) {
      preview = document.createElement('iframe');
      preview.id = 'embed-preview';
      preview.className = 'embed-preview';
      preview.title = t('Preview of the embedded simulation');
      dialog.querySelector('.preview-label').after(preview);
    }
    return preview;
  };
  // The dialog closes with its buttons and Escape only, never on an Enter in a field.
  $('embed-form').addEventListener('submit', (event) => event.preventDefault());
  const options = () => ({ ui: ui.value, size: size.value, autoplay: autoplay.checked, title: page.title() });
  let previewTimer = null;
  const refresh = () => {
    code.value = embedSnippet(page.sim.config, options());
    const s = embedSizes[size.value] || embedSizes.medium;
    previewFrame().style.aspectRatio = `${s.width} / ${s.height}`;
    clearTimeout(previewTimer);
    previewTimer = setTimeout(() => {
      if (dialog.open) previewFrame().src = embedUrl(page.sim.config, options());
    }, 150);
  };
  for (const input of [ui, size, autoplay]) input.addEventListener('change', refresh);
  let help = null;
  $('embed').addEventListener('click', () => {
    refresh();
    help = help || import('../panels/embed-help.js').then((m) => dialog.querySelector('.hint').after(m.messagesList(t)));
    dialog.showModal();
    code.focus();
    code.select();
  });
  $('embed-copy').addEventListener('click', async () => {
    const ok = await copyText(code.value);
    $('embed-status').textContent = ok ? t('Copied. Paste it into your page’s HTML.') : t('Select the text and copy it.');
  });
  dialog.addEventListener('close', () => {
    if (preview) preview.removeAttribute('src');  // the preview's simulation stops with the dialog
    $('embed-status').textContent = '';
  });
  $('embed-close').addEventListener('click', () => dialog.close());

  // Exports: the run as CSV or JSON, made by the core in slices while the page keeps drawing.
  const kinds = {
    csv: { button: 'export-csv', name: 'CSV', type: 'text/csv' },
    json: { button: 'export-json', name: 'JSON', type: 'application/json' },
  };
  for (const [format, kind] of Object.entries(kinds)) {
    $(kind.button).addEventListener('click', () => {
      const config = page.sim.config;
      const s = page.sim.snapshot;
      // integrators=…,reference (or a run of rigid links' reference alone) prints the reference's
      // rows too: a lane more in the rows per sample.
      const rowLanes = s.lanes.length + ((valueOf(config, 'integrators') || '').split(',').includes('reference') ? 1 : 0);
      const plan = runPlan(config, s.steps, rowLanes, s.reference.length || 1, page.core.limits.max_export_rows, format);
      const button = $(kind.button);
      button.disabled = true;
      say(t('Preparing the {kind} ({n} steps)…', { kind: kind.name, n: plan.steps }));
      runParts(page.core, config, plan, rowLanes, (f) => say(t('Preparing the {kind}: {p} %…', { kind: kind.name, p: Math.round(f * 100) })))
        .then((parts) => {
          download(new Blob(parts, { type: kind.type }), `${fileStem(config)}.${format}`);
          const every = plan.every > 1 ? t('every {n} steps', { n: plan.every }) : t('every step');
          const saved = plan.whole ? t('{kind} saved: t = 0 to the end of the run, {every}.', { kind: kind.name, every })
            : t('{kind} saved: t = 0 to now, {every}.', { kind: kind.name, every });
          say(`${saved} ` +
            t('Same text as: {command}', { command: plan.command }), 30000);
        })
        .catch((error) => say(t('The {kind} could not be made: {error}', { kind: kind.name, error: error.message })))
        .finally(() => { button.disabled = false; });
    });
  }
  // The PNG of the view on screen (viewPicture: its main canvas, the others beside, a title); a
  // view with nothing to draw yet, or a picture the browser cannot make, says why here.
  $('export-png').addEventListener('click', async () => {
    const config = page.sim.config;
    try {
      const { main, shown, title } = viewPicture(page, cloudView, plots);
      const blob = await compositePng(main, shown,
        { title, config, laneNames: page.laneNames(), laneIds: page.sim.laneIds, scheme: page.theme.scheme, theme: page.theme });
      download(blob, `${fileStem(config)}.png`);
      say(main.caption ? t('PNG saved: the view, the legend and the plots.') : t('PNG saved: the canvas, the legend and the plots.'));
    } catch (error) {
      say(t('The PNG could not be made: {error}', { error: error.message }), 30000);
    }
  });
  // Step code to paste into a game: its module and the snippets load on the first click.
  $('step-code').addEventListener('click', () => import('../panels/stepcode.js')
    .then((m) => m.openStepCode({ integrators: page.core.integrators, laneId: stepCodeLane(page, shownLane) }))
    .catch((error) => { status.textContent = t('The step code could not load: {error}', { error: error.message }); }));
}
