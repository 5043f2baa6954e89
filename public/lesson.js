// The host side of the lesson: buttons drive the embedded Stepwise frames through postMessage,
// and the frames' state messages feed the live readouts under each demo. Nothing from a message
// is ever inserted as HTML: readouts are set with textContent. The protocol: docs/embedding.md.

import { registerOffline } from './web/app/offline.js';
import { chooseLanguage, linkLanguage, useLanguage, localisePage, t } from './web/common/language.js';
import { setNumberLanguage, fixed } from './web/common/text.js';

// The lesson's language: lesson.html?lang=de (or #lang=de), else the browser's. Its own texts and
// its frames (each frame's link gets the same lang=) follow it.
const lessonLanguage = chooseLanguage(linkLanguage(location.search) || linkLanguage(location.hash), navigator.languages || []);
if (lessonLanguage !== 'en') {
  // The frames' links first, before anything waits: a frame that loaded its page in English
  // before its link said lang= starts again in the lesson's language (below, where its
  // messages are read).
  for (const frame of document.querySelectorAll('iframe[id^="frame-"]')) {
    frame.setAttribute('src', `${frame.getAttribute('src')}&lang=${lessonLanguage}`);
  }
  const full = document.getElementById('open-playground');
  if (full) full.href = `${full.getAttribute('href')}&lang=${lessonLanguage}`;
  const strings = await import('./web/strings/de.js');
  useLanguage(lessonLanguage, strings);
  setNumberLanguage(lessonLanguage);
  document.documentElement.lang = lessonLanguage;
  localisePage(document.documentElement);
}

const frames = new Map();  // iframe id -> {frame, origin, config, readout, events, ready, queue, relinked}

function originOf(frame) {
  return new URL(frame.getAttribute('src'), location.href).origin;
}

function configOf(frame) {
  const src = frame.getAttribute('src');
  return src.slice(src.indexOf('#') + 1);
}

// The config with one key replaced: the lesson edits dt or k and keeps the rest.
function withKey(config, key, value) {
  return config.split('&').map((pair) => (pair.split('=')[0] === key ? `${key}=${value}` : pair)).join('&');
}

// Messages wait until the frame has said 'stepwise:ready' (a lazy frame may not have loaded yet).
function send(id, message) {
  const entry = frames.get(id);
  if (!entry.ready) { entry.queue.push(message); return; }
  entry.frame.contentWindow.postMessage(message, entry.origin);
}

function percent(drift) {
  const p = drift * 100;
  if (Math.abs(p) >= 1e4) return `${p >= 0 ? '+' : '−'}${fixedExponent(Math.abs(p))} %`;
  return `${p >= 0 ? '+' : '−'}${fixed(Math.abs(p), Math.abs(p) < 10 ? 1 : 0)} %`;
}

const fixedExponent = (x) => x.toExponential(1).replace('.', fixed(0.5, 1).charAt(1));

function describe(state) {
  const parts = state.integrators.map((i) => (i.diverged
    ? t('{name}: diverged at t = {t} s', { name: i.name, t: fixed(i.divergedAt, 2) })
    : t('{name}: energy {drift}', { name: i.name, drift: percent(i.drift) })));
  return `t = ${fixed(state.t, 1)} s · ${parts.join(' · ')}`;
}

function isNumber(x) { return typeof x === 'number' && Number.isFinite(x); }

// Only well-formed messages from our own frames are read.
function validDiverged(data) {
  return typeof data.integrator === 'string' && typeof data.name === 'string' && isNumber(data.t);
}

function validState(data) {
  return isNumber(data.t) && Array.isArray(data.integrators) && data.integrators.every(
    (i) => i && typeof i.name === 'string' && typeof i.diverged === 'boolean'
      && (i.diverged ? isNumber(i.divergedAt) : isNumber(i.drift)));
}

window.addEventListener('message', (event) => {
  for (const [, entry] of frames) {
    if (event.source !== entry.frame.contentWindow || event.origin !== entry.origin) continue;
    const data = event.data;
    if (!data || typeof data.type !== 'string') return;
    // A frame's names are in its page's language: one in another is not read. Chromium loads a
    // lazy frame's first address even when its src changed before it started (the lang= added
    // above), so such a frame is sent to its src, once: the new lang= makes it start again.
    if (typeof data.language === 'string' && data.language !== lessonLanguage) {
      if (!entry.relinked) {
        entry.relinked = true;
        entry.frame.contentWindow.location.replace(new URL(entry.frame.getAttribute('src'), location.href).href);
      }
      return;
    }
    if (data.type === 'stepwise:ready' && !entry.ready) {
      entry.ready = true;
      for (const message of entry.queue.splice(0)) send(entry.frame.id, message);
    } else if (data.type === 'stepwise:state' && validState(data)) {
      entry.readout.textContent = describe(data);
    } else if (data.type === 'stepwise:diverged' && validDiverged(data)) {
      entry.events.textContent = t('{name} blew up at t = {t} s: its position ran away, so it stopped advancing.',
        { name: data.name, t: fixed(data.t, 2) });
      entry.events.hidden = false;
    }
    return;
  }
});

for (const frame of document.querySelectorAll('iframe[id^="frame-"]')) {
  const id = frame.id;
  frames.set(id, {
    frame,
    origin: originOf(frame),
    config: configOf(frame),
    readout: document.getElementById(id.replace('frame-', 'readout-')),
    events: document.getElementById(id.replace('frame-', 'events-')),
    ready: false,
    queue: [],
    relinked: false,  // sent to its src once, having loaded in another language
  });
}

const clearEvents = (id) => { frames.get(id).events.textContent = ''; frames.get(id).events.hidden = true; };

for (const button of document.querySelectorAll('button[data-frame]')) {
  button.addEventListener('click', () => {
    const id = button.dataset.frame;
    const entry = frames.get(id);
    if (button.dataset.action === 'reset') {
      clearEvents(id);
      send(id, { type: 'stepwise:reset' });
      send(id, { type: 'stepwise:play' });
      return;
    }
    if (button.dataset.action === 'step') { send(id, { type: 'stepwise:pause' }); send(id, { type: 'stepwise:step' }); return; }
    const key = button.dataset.dt ? 'dt' : 'k';
    entry.config = withKey(entry.config, key, button.dataset.dt || button.dataset.k);
    clearEvents(id);
    send(id, { type: 'stepwise:set', query: entry.config });
    send(id, { type: 'stepwise:play' });
    for (const other of button.parentElement.querySelectorAll(`button[data-${key}]`)) {
      other.setAttribute('aria-pressed', String(other === button));
    }
  });
}

// Offline after the first visit, when served from the bundle (web/app/offline.js).
registerOffline();
