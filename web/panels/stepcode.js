// The Step code dialog: for the chosen integrator, its step function for one body on a spring and
// for any force (a game-physics solver's: for bodies and distance constraints), in C++, C#,
// JavaScript and GDScript, to paste into a game (docs/snippets.md);
// and the loop around it (a fixed step with an accumulator, substeps and a cap: snippets/*/loop.*)
// with the call that hands it this integrator's step. Loaded on demand with the snippets' text
// (build/site/web/panels/snippets-data.js, generated from snippets/ by scripts/build-site.sh), so the
// first frame never pays for either. The code shown is the file, whole (it compiles alone); the
// variant choice marks the function to call, or picks the step the loop's call hands over. Text
// only through textContent.
import { el } from '../common/dom.js';
import { copyText } from '../common/dom.js';
import { t, pageLanguage } from '../common/language.js';
import { laneName, laneSettings, methodOf, iterationsText } from '../common/lanes.js';
import { loopUsage, laneLoop, example } from './snippet-usage.js';
import { localiseComments, translator } from './code-comments.js';

// The tables of the code's comments by the page's language (English: the files as they are).
const commentTables = { de: () => import('../strings/code-de.js') };

// Where each language's file defines the spring step and the any-force step: a line that starts
// the definition (the comments and a template line above it belong to it). A solver's one step
// (variant `constraints`, scripts/snippet-usage.mjs) is defined as the any-force step is.
const definitions = {
  cpp: { 'on-a-spring': /^inline \w+ step_spring\(/, 'any-force': /^(?:template <.*>)?\s*(?:void|bool) step\(/ },
  cs: { 'on-a-spring': /^\s*public static \w+ StepSpring\(/, 'any-force': /^\s*public static \w+ Step\(/ },
  js: { 'on-a-spring': /^export function stepSpring\(/, 'any-force': /^export function step\(/ },
  gd: { 'on-a-spring': /^static func step_spring\(/, 'any-force': /^static func step\(/ },
};
for (const lang of Object.values(definitions)) lang.constraints = lang['any-force'];

// The lines [start, end) of one function in `code`: its comment (and template) lines above, its
// body (GDScript: its indented lines; the others: to its closing brace, or an expression body's
// semicolon). null when the file has no such function.
export function functionLines(code, lang, variant) {
  const lines = code.split('\n');
  const at = lines.findIndex((l) => definitions[lang][variant].test(l));
  if (at < 0) return null;
  let start = at;
  const comment = lang === 'gd' ? /^\s*#/ : /^\s*(?:\/\/|template\b)/;
  while (start > 0 && comment.test(lines[start - 1])) start--;
  let end = at + 1;
  if (lang === 'gd') {
    while (end < lines.length && /^\s/.test(lines[end])) end++;
  } else if (/=>\s*$/.test(lines[at])) {
    while (end < lines.length && !/;\s*$/.test(lines[end - 1])) end++;
  } else {
    let depth = 0, opened = false;
    for (end = at; end < lines.length; end++) {
      for (const ch of lines[end]) {
        if (ch === '{') { depth++; opened = true; } else if (ch === '}') depth--;
      }
      if (opened && depth === 0) break;
    }
    end++;
  }
  return { start, end: Math.min(end, lines.length), lines };
}

// A fieldset of radio buttons named `name` (ids name-value) under `legend`: [fieldset, inputs].
function radioGroup(name, legend, choices, choose) {
  const group = el('fieldset', { class: 'code-variant' });
  group.append(el('legend', { text: legend }));
  const inputs = choices.map(([value, text]) => {
    const label = el('label', { class: 'check' });
    const input = el('input');
    input.type = 'radio';
    input.name = name;
    input.value = value;
    input.id = `${name}-${value}`;
    input.addEventListener('change', () => choose(value));
    label.append(input, ` ${text}`);
    group.append(label);
    return input;
  });
  return [group, inputs];
}

let dialog = null;

// Opens the dialog on the method of `laneId` (the lane highlighted or X-rayed, else the first).
// app: {integrators (the core's table), laneId}
export async function openStepCode(app) {
  const data = await import('./snippets-data.js');
  const table = commentTables[pageLanguage()];
  const translate = table ? translator(await table()) : null;
  if (!dialog) dialog = new StepCodeDialog(data, app.integrators, translate);
  dialog.open(app.laneId);
  return dialog;
}

class StepCodeDialog {
  // translate: the comments' text in the page's language (code-comments.js), or null for English.
  constructor({ languages, snippets, loop }, integrators, translate) {
    this.integrators = integrators;
    this.translate = translate;
    this.languages = languages;
    this.byId = new Map(snippets.map((s) => [s.integrator, s]));
    this.loop = loop;
    this.lang = 'cpp';
    this.variant = 'on-a-spring';
    this.part = 'step';
    const names = new Map(integrators.map((i) => [i.id, i.name]));
    this.names = names;

    this.element = el('dialog', { class: 'code-dialog' });
    this.element.id = 'code-dialog';
    this.element.setAttribute('aria-labelledby', 'code-title');
    const form = el('form', { class: 'code-form' });
    form.method = 'dialog';
    const title = el('h2', { text: t('Step code for your game') });
    title.id = 'code-title';
    this.intro = el('p', { class: 'hint' });

    const options = el('div', { class: 'code-options' });
    const pick = el('label', { text: t('Integrator') });
    this.select = el('select');
    this.select.id = 'code-integrator';
    for (const s of snippets) {
      const option = el('option', { text: names.get(s.integrator) || s.integrator });
      option.value = s.integrator;
      this.select.append(option);
    }
    pick.append(this.select);
    // The force (which step), and what the code shows: the step, or the loop around it.
    const [variants, variantInputs] = radioGroup('code-variant', t('Force'),
      [['on-a-spring', t('Spring')], ['any-force', t('Any force (a function)')]], (value) => { this.variant = value; this.render(true); });
    const [parts, partInputs] = radioGroup('code-part', t('Show'),
      [['step', t('The step')], ['loop', t('The loop around it')]], (value) => { this.part = value; this.render(true); });
    this.variantInputs = variantInputs;
    this.variants = variants;
    this.partInputs = partInputs;
    options.append(pick, variants, parts);

    this.tabs = el('div', { class: 'code-tabs' });
    this.tabs.setAttribute('role', 'tablist');
    this.tabs.setAttribute('aria-label', t('Language'));
    this.tabButtons = languages.map((l) => {
      const b = el('button', { class: 'code-tab', text: l.name });
      b.type = 'button';
      b.id = `code-tab-${l.id}`;
      b.setAttribute('role', 'tab');
      b.setAttribute('aria-controls', 'code-panel');
      b.addEventListener('click', () => { this.lang = l.id; this.render(true); });
      return b;
    });
    this.tabs.append(...this.tabButtons);
    this.tabs.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
      const i = this.languages.findIndex((l) => l.id === this.lang);
      const next = (i + (e.key === 'ArrowRight' ? 1 : -1) + this.languages.length) % this.languages.length;
      this.lang = this.languages[next].id;
      this.render(true);
      this.tabButtons[next].focus();
    });

    this.pre = el('pre', { class: 'code-block' });
    this.pre.id = 'code-panel';
    this.pre.setAttribute('role', 'tabpanel');
    this.pre.tabIndex = 0;
    this.code = el('code');
    this.pre.append(this.code);
    this.note = el('p', { class: 'hint code-note' });
    this.check = el('p', { class: 'hint code-check' });
    // Said when the lane's method has no step code here (a lane of the reference): the dialog
    // shows another method's and says which, never silently.
    this.missing = el('p', { class: 'hint code-missing', role: 'status' });
    this.missing.hidden = true;

    // The loop's part: the call that hands the chosen step to the loop, above the loop's file.
    this.usage = el('section', { class: 'code-usage' });
    this.usage.id = 'code-usage';
    const usageHead = el('div', { class: 'code-usage-head' });
    this.usageTitle = el('h3');
    this.usageTitle.id = 'code-usage-title';
    this.copyCall = el('button', { text: t('Copy the call') });
    this.copyCall.type = 'button';
    this.copyCall.id = 'code-copy-call';
    this.copyCall.addEventListener('click', async () => {
      const ok = await copyText(this.callText);
      this.status.textContent = ok ? t('Copied: the call for {method}', { method: this.methodName })
        : t('Could not copy: select the code and copy it.');
    });
    usageHead.append(this.usageTitle, this.copyCall);
    this.usagePre = el('pre', { class: 'code-block code-call' });
    this.usagePre.tabIndex = 0;
    this.usagePre.setAttribute('aria-labelledby', 'code-usage-title');
    this.usageCode = el('code');
    this.usagePre.append(this.usageCode);
    // A lane with its own settings: the call is written with the example's, and says what to change.
    this.usageLane = el('p', { class: 'hint code-usage-lane', id: 'code-usage-lane' });
    this.usage.append(usageHead, this.usagePre, this.usageLane);

    const actions = el('div', { class: 'code-actions' });
    this.copy = el('button', { class: 'primary', text: t('Copy') });
    this.copy.type = 'button';
    this.copy.id = 'code-copy';
    const close = el('button', { text: t('Close') });
    close.type = 'button';
    close.addEventListener('click', () => this.element.close());
    this.status = el('span', { class: 'code-status' });
    this.status.id = 'code-status';
    this.status.setAttribute('role', 'status');
    this.status.setAttribute('aria-live', 'polite');
    this.copy.addEventListener('click', async () => {
      const ok = await copyText(this.text);
      this.status.textContent = ok ? t('Copied: {file}', { file: this.fileName }) : t('Could not copy: select the code and copy it.');
    });
    actions.append(this.copy, close, this.status);

    this.select.addEventListener('change', () => this.render(true));
    form.append(title, this.intro, this.missing, options, this.tabs, this.usage, this.pre, actions, this.note, this.check);
    this.element.append(form);
    document.body.append(this.element);
  }

  open(laneId) {
    this.laneId = laneId || null;
    const integratorId = laneId ? methodOf(laneId) : laneId;
    const has = Boolean(integratorId) && this.byId.has(integratorId);
    if (has) this.select.value = integratorId;
    this.missing.hidden = !integratorId || has;
    this.missing.textContent = this.missing.hidden ? '' : t('{method} has no step code here; shown instead: {shown}.', {
      method: this.names.get(integratorId) || integratorId, shown: this.names.get(this.select.value) || this.select.value,
    });
    this.render(false);
    this.element.showModal();
    this.scrollToMark();
  }

  // Shows the chosen file: the step's whole text with the chosen variant's function marked, or
  // the loop's file under the call that hands it the chosen step.
  render(scroll) {
    const id = this.select.value;
    const lang = this.languages.find((l) => l.id === this.lang);
    const loop = this.part === 'loop';
    // A solver has one step, for bodies and constraints: no choice of force.
    const solver = 'constraints' in this.byId.get(id).loop[lang.id];
    const variant = solver ? 'constraints' : this.variant;
    this.variants.hidden = solver;
    this.intro.textContent = solver
      ? t('Bodies and distance constraints, the external forces as a function: the same operations, in the same order, as this page’s core.')
      : t('One body on a spring, or any force you pass as a function: the same operations, in the same order, as this page’s core.');
    this.methodName = this.names.get(id) || id;
    const file = loop ? this.loop.code[lang.id] : this.byId.get(id).code[lang.id];
    // The code as it is, its comments in the page's language (the same code, byte for byte).
    this.text = this.translate ? localiseComments(file, lang.id, this.translate) : file;
    this.fileName = `snippets/${lang.id}/${loop ? 'loop' : id}.${lang.id}`;
    // The lane the dialog was opened for steps with settings of its own (xpbd@20x1): the call is
    // written with them (its substeps, a cap of twice as many steps a frame, its iterations).
    const settings = this.laneId && methodOf(this.laneId) === id ? laneSettings(this.laneId) : null;
    // Written here, its comments in the page's language (t()); the page's data holds the English.
    this.callText = loopUsage(id, this.byId.get(id).code.js,
      settings ? laneLoop(settings.substeps, settings.iterations) : example)[lang.id][variant].text;
    this.usage.hidden = !loop;
    this.usageTitle.textContent = {
      'on-a-spring': t('The call that hands {method}’s spring step to the loop:', { method: this.methodName }),
      'any-force': t('The call that hands {method}’s any-force step to the loop:', { method: this.methodName }),
      constraints: t('The call that hands {method}’s step to the loop:', { method: this.methodName }),
    }[variant];
    this.usageCode.textContent = this.callText;
    this.usageLane.hidden = !settings;
    this.usageLane.textContent = !settings ? '' : (settings.iterations
      ? t('This call is written for your lane, {lane}: {n} substeps a frame of {hz} Hz (h = 1/{rate} s), at most {most} steps a frame, {iterations} each.',
        { lane: laneName(this.integrators, this.laneId), n: settings.substeps, hz: this.loop.example.hz, rate: this.loop.example.hz * settings.substeps, most: 2 * settings.substeps, iterations: iterationsText(settings.iterations) })
      : t('This call is written for your lane, {lane}: {n} substeps a frame of {hz} Hz (h = 1/{rate} s), at most {most} steps a frame.',
        { lane: laneName(this.integrators, this.laneId), n: settings.substeps, hz: this.loop.example.hz, rate: this.loop.example.hz * settings.substeps, most: 2 * settings.substeps }));
    for (const input of this.partInputs) input.checked = input.value === this.part;
    this.tabButtons.forEach((b, i) => {
      const selected = this.languages[i].id === lang.id;
      b.setAttribute('aria-selected', String(selected));
      b.tabIndex = selected ? 0 : -1;
    });
    this.pre.setAttribute('aria-labelledby', `code-tab-${lang.id}`);
    for (const input of this.variantInputs) input.checked = input.value === this.variant;
    const part = loop ? null : functionLines(this.text, lang.id, variant);
    this.code.replaceChildren();
    this.mark = null;
    if (part) {
      const { start, end, lines } = part;
      const before = lines.slice(0, start).join('\n');
      const marked = lines.slice(start, end).join('\n');
      const after = lines.slice(end).join('\n');
      this.mark = el('mark', { class: 'code-mark', text: marked });
      this.code.append(before + (start > 0 ? '\n' : ''), this.mark, (end < lines.length ? '\n' : '') + after);
    } else {
      this.code.textContent = this.text;
    }
    this.note.textContent = loop
      ? solver
        ? t('The loop around the step: each frame’s time fills an accumulator; whole steps of h = 1/(hz·substeps) come out of it, at most max_steps a frame (the rest is dropped and counted). It is the page’s game loop “accumulator”, its substeps the lane’s. A solver moves every body in place: draw the bodies as they are (the loop interpolates one body, not a world). Copy takes the loop’s file.')
        : t('The loop around the step: each frame’s time fills an accumulator; whole steps of h = 1/(hz·substeps) come out of it, at most max_steps a frame (the rest is dropped and counted), and the state drawn is the last two states interpolated. It is the page’s game loop “accumulator”. Copy takes the loop’s file; it works with every integrator’s step.')
      : {
        'on-a-spring': t('Marked: the spring step. The file holds both and compiles alone; Copy takes all of it.'),
        'any-force': t('Marked: the any-force step. The file holds both and compiles alone; Copy takes all of it.'),
        constraints: t('Marked: the step, one substep for bodies and constraints. The file compiles alone; Copy takes all of it.'),
      }[variant];
    this.check.textContent = `${lang.name}: ${t(lang.check)}.`;
    this.status.textContent = '';
    if (scroll) this.scrollToMark();
  }

  scrollToMark() {
    this.usagePre.scrollTop = 0;
    // The pre is the mark's offset parent (position: relative); the loop's file has no mark: its top.
    this.pre.scrollTop = this.mark ? Math.max(0, this.mark.offsetTop - 8) : 0;
  }
}
