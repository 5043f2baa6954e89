// What a view shows in its place when the core cannot run it with the config's game loop (the
// convergence study halves dt and the phase-space cloud steps at one fixed dt, while a loop sets
// its physics step from its frame rate; a variable loop has no one step for the stability map):
// why, in the view's own words, and one button that turns the loop off, keeping the loop's
// physics step as dt. The tab the user clicked stays selected; the link is not changed and no
// banner shows (the user clicked a tab, not a link). A view the core refuses for the system itself
// (the phase cloud of a linked system) shows the core's own reason there, with no button. Text
// only through textContent.
import { el } from '../common/dom.js';
import { t, sentence, coreMessage } from '../common/language.js';
import { formatValue } from '../common/text.js';

// Why a view cannot run in a game loop, by the view's id (the core decides which views it refuses).
function why(view) {
  if (view === 'convergence') {
    return t('The convergence study halves dt again and again to measure each method\'s order. A game loop sets ' +
      'the physics step from its frame rate, so this setup has no dt of its own to halve.');
  }
  if (view === 'cloud') {
    return t('The phase-space cloud carries many start states side by side at one fixed dt. A game loop steps by ' +
      'frames instead, so the cloud cannot follow it.');
  }
  if (view === 'stability') {
    return t('The stability map places one step h at ωh. A variable game loop steps each frame by its own length, ' +
      'so this setup has no one step to place.');
  }
  return t('This view cannot run inside a game loop.');
}

export class LoopNotice {
  // root: the analysis region; turnOff(view): turns the loop off and opens the view. The notice's
  // elements are made the first time it shows (most pages never need them).
  constructor(root, turnOff) {
    this.root = root;
    this.turnOff = turnOff;
    this.element = null;
    this.shown = null;
  }

  build() {
    this.element = el('section', { class: 'analysis-view loop-notice' });
    this.title = el('h3', { class: 'loop-notice-title' });
    this.why = el('p', { class: 'loop-notice-why' });
    this.loop = el('p', { class: 'hint loop-notice-loop' });
    this.change = el('p', { class: 'loop-notice-change' });
    this.button = el('button', { class: 'primary' });
    this.button.type = 'button';
    this.button.id = 'loop-off';
    this.button.addEventListener('click', () => { if (this.shown) this.turnOff(this.shown.view); });
    this.back = el('p', { class: 'hint' });
    this.element.append(this.title, this.why, this.loop, this.change, this.button, this.back);
    this.root.append(this.element);
  }

  // shown: {view (id), name (the tab's), loop (the simulation's: text, step), error (the core's
  // refusal: {key, value, message})}, or null to hide. Without a game loop the refusal is the
  // system's own: its message alone.
  show(shown) {
    this.shown = shown;
    if (!shown) {
      if (this.element) this.element.hidden = true;
      return;
    }
    if (!this.element) this.build();
    this.element.hidden = false;
    const loop = Boolean(shown.loop.kind);
    for (const part of [this.loop, this.change, this.button]) part.hidden = !loop;
    if (!loop) {
      this.title.textContent = t('{view}: not available for this system', { view: shown.name });
      this.why.textContent = shown.error ? coreMessage(shown.error) : t('This view cannot run with this system.');
      this.back.textContent = t('The Motion tab shows the system as it moves.');
      return;
    }
    this.back.textContent = t('The Motion tab shows the game loop as it is.');
    const dt = formatValue(shown.loop.step, 3);
    this.title.textContent = t('{view}: turn the game loop off first', { view: shown.name });
    this.why.textContent = why(shown.view);
    this.loop.textContent = t('game loop: {loop}', { loop: sentence('loop', shown.loop.text) });
    this.change.textContent = t('Turned off, the integrators step a fixed dt = {dt} s, the loop\'s physics step, and ' +
      'the rest of the setup stays.', { dt });
    this.button.textContent = t('Turn the game loop off (dt = {dt} s)', { dt });
  }

  // For window.stepwise.debug.analysis().
  report() {
    if (!this.shown) return null;
    return { view: this.shown.view, state: this.shown.loop.kind ? 'needs the loop off' : 'not available', text: this.element.textContent };
  }
}
