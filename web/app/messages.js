// The postMessage API of an embedded Stepwise frame (docs/embedding.md).
//
// Host → frame (from window.parent only):
//   {type: 'stepwise:set', query}   query: a config string, at most the core's max_query_length
//                                   characters (common/query.js oversize: the same limit as set() and the address)
//   {type: 'stepwise:play'} | {type: 'stepwise:pause'} | {type: 'stepwise:step'} | {type: 'stepwise:reset'}
// Frame → host:
//   Every message from the frame carries version and language: the page's language, the one its
//   names and errors are written in (a host in another language waits for the frame to start
//   again in its own: a link's lang= changing does that).
//   {type: 'stepwise:ready', version, config}                      once, after the first frame
//   {type: 'stepwise:state', version, t, steps, playing, config, errors,
//    integrators: [{id, name, drift, error, diverged, divergedAt, stopReason}]}
//                                                  at most 4 per second, and only while something
//                                                  changes, whatever the host sends; stopReason: '', 'diverged', 'collision',
//                                                  'substep_limit', 'newton_failed', 'needs_compliance'
//   {type: 'stepwise:diverged', version, integrator, name, t, reason}
//                                                  when a lane stops (reason: its stopReason; a
//                                                  force-based lane on rigid links at t = 0)
//
// Sets are coalesced: a set waits for the next frame, and one that comes after it replaces it, so
// the page builds at most one Simulation a frame (the last set before it) however many the host
// sends. Commands that follow a waiting set wait behind it, in order; those a newer set makes moot
// (step and reset of a Simulation it replaces) are dropped, and play / pause keep their last word.
// A host flooding the frame (1,000 messages a second, 30 % of them sets of 64-link chains) made
// every set a build in its own task, 2,940 in 10 s, and the state messages' timer ran once.
//
// Every incoming message is validated: a plain object, a known type, a string query of bounded
// length, from the parent window (and from the parent's origin when that is known). Anything
// else is ignored with a console warning. Nothing from a message is evaluated or inserted as
// markup: the query goes to the core's parser like any link.
//
// Origins. The parent's origin is taken from location.ancestorOrigins (Chromium, Safari) or the
// origin of document.referrer (every browser, unless the host sets Referrer-Policy: no-referrer).
// When it is known, incoming messages must come from it and outgoing ones are posted to it only.
// When it is not, messages from window.parent are accepted and posted with targetOrigin '*':
// they carry only the simulation's public numbers and its config, which the host already has
// in the iframe's src.

import { oversize } from '../common/query.js';
import { pageLanguageId } from './page-language.js';

export const protocolVersion = 1;
export const stateInterval = 250;  // ms: at most 4 state messages per second
const commands = new Set(['stepwise:set', 'stepwise:play', 'stepwise:pause', 'stepwise:step', 'stepwise:reset']);
// Commands waiting behind a set or for the frame to be ready: the ones past this are dropped.
const maxQueued = 32;

// The parent's origin, or null when it cannot be known.
export function parentOrigin() {
  try {
    const ancestors = location.ancestorOrigins;
    if (ancestors && ancestors.length > 0 && ancestors[0]) return ancestors[0];
  } catch { /* not available */ }
  try {
    if (document.referrer) return new URL(document.referrer).origin;
  } catch { /* an unreadable referrer */ }
  return null;
}

// Why a message is rejected, or null when it is a well-formed command. limits: the core's
// (null while it loads: the length is checked again before a queued message runs).
export function rejectReason(data, limits) {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return 'not an object';
  if (typeof data.type !== 'string') return 'no string type';
  if (!commands.has(data.type)) return `unknown type '${data.type.slice(0, 40)}'`;
  if (data.type === 'stepwise:set') {
    if (typeof data.query !== 'string') return 'stepwise:set needs a string query';
    if (limits) return oversize(data.query, limits);
  }
  return null;
}

const warn = (why) => console.warn(`Stepwise: ignored a message: ${why}`);

// What a state message reports: plain numbers and strings only. page: the PageState.
function summary(page) {
  const s = page.sim.snapshot;
  const names = page.laneNames();
  return {
    t: s.t, steps: s.steps, playing: page.runner.playing, config: page.sim.config,
    integrators: s.lanes.map((lane, l) => ({
      id: lane.id, name: names[l], drift: lane.drift, error: lane.error,
      diverged: lane.diverged, divergedAt: lane.diverged ? lane.divergedAt : null,
      stopReason: lane.stopReason,
    })),
  };
}

// ready: resolves after the first frame; page: the PageState (web/app/state.js); apply(query):
// makes the simulation (web/app/simulation.js); errorMessages(): the banner's (web/app/errors.js).
// Returns {frame()} to call after every drawn frame.
export function installMessaging({ ready, page, apply, errorMessages }) {
  // The core's limits: null while it loads (a queued message's length is checked again before it runs).
  const coreLimits = () => (page.core ? page.core.limits : null);
  const parent = window.parent;
  if (!parent || parent === window) return { frame() {} };
  let origin = parentOrigin();
  const target = () => (origin && origin !== 'null' ? origin : '*');
  const post = (message) => {
    try {
      parent.postMessage({ ...message, version: protocolVersion, language: pageLanguageId }, target());
    } catch (error) {
      console.warn(`Stepwise: could not post ${message.type}: ${error.message}`);
    }
  };

  let isReady = false;
  // What waits for the next frame: the last set (or null), the play or pause that came before it
  // and the commands after it, in order. Before the frame is ready every command waits.
  let waiting = { before: [], set: null, after: [] };
  let lastState = -Infinity;
  let timer = null;
  let diverged = [];
  let config = null;

  function sendState() {
    timer = null;
    lastState = performance.now();
    const s = summary(page);
    post({
      type: 'stepwise:state', t: s.t, steps: s.steps, playing: s.playing, config: s.config,
      errors: errorMessages(), integrators: s.integrators,
    });
  }

  // Throttled, trailing: the last change always arrives, at most 4 messages a second.
  function scheduleState() {
    if (timer !== null) return;
    const wait = lastState + stateInterval - performance.now();
    if (wait <= 0) sendState();
    else timer = setTimeout(sendState, wait);
  }

  function checkDivergence() {
    const s = summary(page);
    if (s.config !== config) {  // a new simulation: its lanes start undiverged
      config = s.config;
      diverged = s.integrators.map(() => false);
    }
    s.integrators.forEach((lane, i) => {
      if (lane.diverged && !diverged[i]) {
        post({ type: 'stepwise:diverged', integrator: lane.id, name: lane.name, t: lane.divergedAt, reason: lane.stopReason });
      }
      diverged[i] = lane.diverged;
    });
  }

  function run(data) {
    switch (data.type) {
      case 'stepwise:set': {
        const why = rejectReason(data, coreLimits());
        if (why) warn(why); else apply(data.query);
        break;
      }
      case 'stepwise:play': page.runner.play(); break;
      case 'stepwise:pause': page.runner.pause(); break;
      case 'stepwise:step': page.runner.step(); break;
      case 'stepwise:reset': page.runner.reset(); break;
      default: break;
    }
  }

  window.addEventListener('message', (event) => {
    if (event.source !== parent) { warn('not from the parent frame'); return; }
    if (origin && event.origin !== origin) { warn(`from origin ${event.origin}, expected ${origin}`); return; }
    const why = rejectReason(event.data, coreLimits());
    if (why) { warn(why); return; }
    // Copy the two fields we use: nothing else of the message is kept.
    const data = { type: event.data.type, query: event.data.query };
    if (data.type === 'stepwise:set') {
      // What the new set replaces needs no step or reset; of play and pause the last one counts.
      const playing = [...waiting.before, ...waiting.after].filter((c) => c.type === 'stepwise:play' || c.type === 'stepwise:pause');
      waiting = { before: playing.slice(-1), set: data, after: [] };
      if (isReady) page.runner.redraw();  // a frame comes to build it
      return;
    }
    if (!isReady || waiting.set) {
      if (waiting.after.length >= maxQueued) { warn(isReady ? 'too many commands behind a set' : 'too many messages before the frame was ready'); return; }
      waiting.after.push(data);
      return;
    }
    run(data);
    scheduleState();
  });

  function runWaiting() {
    const { before, set, after } = waiting;
    waiting = { before: [], set: null, after: [] };
    for (const data of before) run(data);
    if (set) run(set);
    for (const data of after) run(data);
    scheduleState();
  }

  ready.then(() => {
    isReady = true;
    const s = summary(page);
    config = s.config;
    diverged = s.integrators.map((lane) => lane.diverged);
    post({ type: 'stepwise:ready', config });
    runWaiting();
  }, () => { /* the page shows why it could not start */ });

  return {
    frame() {
      if (!isReady) return;
      if (waiting.set || waiting.after.length) runWaiting();
      checkDivergence();
      scheduleState();
    },
  };
}
