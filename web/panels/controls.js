// The controls, built from the core's tables: system, presets (grouped by system), integrators
// (grouped by family), dt (log slider and number), duration, the system's parameters with their
// meaning, units and allowed ranges, the phase-space cloud (points per integrator and the start
// disc's radius), equal cost, and playback. Every edit becomes a new config string handed to set(); sync() shows a config.
import { withKey, valueOf, withoutKeys } from '../common/query.js';
import { t, coreMessage } from '../common/language.js';
import { plainNumber, groupDigits, readableNumber } from '../common/text.js';
import { methodOf, laneName, withRodLanes, laneSettings, laneIdOf, methodInfo } from '../common/lanes.js';
import { el, showNumber } from '../common/dom.js';
import { ForceLaw, constantMax } from './force-law.js';
import { nextTask } from '../engine/slices.js';

// Presets normalised per start-up task (Controls.recognisePresets).
export const presetsPerTask = 4;

// The room a closed menu's arrow takes at its right (Chromium and Firefox: about 20 px).
const presetArrowPx = 24;

const dtSlider = { min: -4, max: 1 };  // log10 of dt: 0.0001 s to 10 s


// dt from the slider, rounded to 3 significant digits so the config stays readable.
const sliderToDt = (v) => Number(Math.pow(10, v).toPrecision(3));

// The core's groups of the keys every system shares (core/config.hpp shared_keys): a study's keys
// (the cloud, equal cost, the view) and the page's (the language) are kept when the system or the
// preset changes; the game loop's when the system changes (a preset has its own).
const keysOf = (core, ...groups) => core.sharedKeys.filter((k) => groups.includes(k.group)).map((k) => k.key);
const cloudKeys = ['cloud', 'cloud_radius'];
// A config's values of `keys` as '&cloud=…&view=…' (empty when it has none).
function keptPart(config, keys) {
  return keys.map((k) => [k, valueOf(config, k)]).filter(([, v]) => v !== null)
    .map(([k, v]) => `&${k}=${encodeURIComponent(v)}`).join('');
}
// The duration the System menu writes for a system whose default one shows little of its motion,
// from the system's default parameters (the core's defaults, which the CLI and the pinned outputs
// use, stay). The projectile has no ground yet: its 10 s fall 400 m below a 5 m arc, so the menu
// ends the flight where it comes back to its launch height, t = 2·v0y/g.
const menuDurations = {
  projectile: (defaults) => 2 * defaults.v0[1] / defaults.g[0],
};
// How many points the quick button asks for.
const quickCloud = 20000;
function rangeText(spec) {
  const lo = spec.min_exclusive ? `> ${plainNumber(spec.min)}` : plainNumber(spec.min);
  return `${lo} … ${plainNumber(spec.max)}${spec.unit ? ' ' + spec.unit : ''}`;
}

// ↑/↓ in a number field: a step that suits the field. A strictly positive quantity (dt, a mass,
// a stiffness, the duration, a radius) moves along 1, 2, 5, 10, 20, … (dt 0.01 → 0.02 → 0.05;
// 0.25 → 0.5 up, 0.2 down); one that may be zero or negative (a position, damping) by about a
// tenth of its size, a 1, 2 or 5 of a decade (1 → 1.1, 40 → 42; from 0 by a tenth of the default's size).
const decades = (x) => Math.pow(10, Math.floor(Math.log10(x) + 1e-9));
// The largest 1, 2 or 5 × 10^n at most x.
function oneTwoFiveBelow(x) {
  const d = decades(x);
  return [5, 2, 1].map((m) => m * d).find((v) => v <= x * (1 + 1e-9));
}
// The next value of the 1-2-5 sequence above (dir 1) or below (dir -1) x > 0.
function oneTwoFiveNext(x, dir) {
  const d = decades(x);
  const ladder = [0.5, 1, 2, 5, 10, 20].map((m) => m * d);
  return dir > 0 ? ladder.find((v) => v > x * (1 + 1e-9)) : ladder.reverse().find((v) => v < x * (1 - 1e-9));
}
// The smallest 1, 2 or 5 × 10^n at least x > 0 (a linear slider's end).
const nice = (x) => { const d = decades(x); return [1, 2, 5, 10].map((m) => m * d).find((v) => v >= x * (1 - 1e-9)); };
// Rounds away binary noise (0.1 + 0.2): 12 significant digits.
const tidy = (x) => Number(x.toPrecision(12));
// spec: {min, max, minExclusive, scale: a typical size for a field at 0, integer}.
export function nudge(value, dir, spec) {
  const positive = spec.min > 0 || (spec.min === 0 && spec.minExclusive);
  let next;
  if (positive || (spec.integer && spec.min === 0 && value >= 0)) {
    if (value > 0) next = oneTwoFiveNext(value, dir);
    else next = dir > 0 ? oneTwoFiveBelow(Math.max(spec.scale, spec.min > 0 ? spec.min : 1)) : value;
    if (spec.integer && dir < 0 && next < 1) next = 0;  // a count comes down to 0 (off)
  } else {
    const size = Math.abs(value) > 0 ? Math.abs(value) : Math.max(Math.abs(spec.scale), 1);
    next = value + dir * oneTwoFiveBelow(size / 10);
  }
  if (spec.integer) next = Math.round(next);
  next = Math.min(spec.max, Math.max(spec.min, tidy(next)));
  if (spec.minExclusive && next <= spec.min) next = value;  // never onto an excluded bound
  return next;
}
// What a number field's spinner steps by (its step attribute): a tenth of its value's decade, so
// the arrows of the browser never jump 0.01 → 1.01 and the value stays a multiple.
function spinnerStep(value, integer) {
  if (integer) return '1';
  return Number.isFinite(value) && value !== 0 ? String(tidy(decades(Math.abs(value)) / 10)) : '0.1';
}

// The presets as one <optgroup> per system, in the order of the core's scenario table and each
// scenario's own preset list; a preset no scenario lists (none today) goes last.
function presetGroups(core) {
  const byId = new Map(core.presets.map((p) => [p.id, p]));
  const option = (p) => el('option', { value: p.id, text: p.name });
  const listed = new Set();
  const groups = core.scenarios.filter((s) => s.presets.length > 0).map((s) => {
    const items = s.presets.filter((id) => byId.has(id)).map((id) => { listed.add(id); return option(byId.get(id)); });
    return el('optgroup', { label: s.name }, items);
  });
  const rest = core.presets.filter((p) => !listed.has(p.id));
  if (rest.length > 0) groups.push(el('optgroup', { label: t('Other') }, rest.map(option)));
  return groups;
}

export class Controls {
  // core: tables; set(query): apply a config; getConfig(): the current normalised config (the
  // link); getRunConfig(): the config that runs, which may hold what a view added (the cloud
  // view's cloud): the cloud fields show and edit it, so a cloud setting the user changes enters
  // the link with the cloud in force; getErrors(): the link's errors (the core's, each naming its
  // key) to mark under their fields; notify(message): a UI-side error for the errors list.
  constructor(root, { core, set, getConfig, getRunConfig = getConfig, getErrors, notify }) {
    this.getErrors = getErrors;
    this.core = core;
    this.keptKeys = keysOf(core, 'study', 'page');
    this.loopKeys = keysOf(core, 'loop');
    this.set = set;
    this.getConfig = getConfig;
    this.getRunConfig = getRunConfig;
    this.notify = notify;
    this.root = root;
    // Enter in a field must not submit the form (a reload): every edit applies on its own.
    // A listener, not an inline onsubmit: the page runs under a CSP without inline script.
    root.addEventListener('submit', (event) => event.preventDefault());
    this.scenario = null;
    // Each preset's normalised config, to name the preset a config is (recognisePresets).
    this.presetConfigs = new Map();
    this.fields = new Map();  // key -> {inputs, error, spec}: the number fields (numberField)
    this.mainSliders = [];  // the system's main parameters as sliders (mainSlider)
    this.build();
    // The settings fold under one button on a narrow screen (a phone, a small frame), so the
    // canvas comes first; on a wide one they are the open left column.
    const box = root.closest('details');
    if (box) {
      const wide = window.matchMedia('(min-width: 820px)');
      const fit = () => { box.open = wide.matches; };
      fit();
      wide.addEventListener('change', fit);
      // The skip link opens them and moves the focus there (its #controls must not become the
      // address's config).
      const skip = document.querySelector('a.skip');
      if (skip) {
        skip.addEventListener('click', (event) => {
          event.preventDefault();
          box.open = true;
          root.querySelector('select, input, button')?.focus();
        });
      }
    }
  }

  // A number field of `key` (one input, or the x and y of a vector). Its error shows next to it
  // (role=alert, in its aria-describedby), ↑/↓ step by nudge(), and a value the core refuses is
  // not applied: the run goes on with the value in force. Returns the error's element to place.
  numberField(key, inputs, spec) {
    const error = el('p', { class: 'field-error', id: `${inputs[0].id}-error`, role: 'alert' });
    for (const input of inputs) {
      input.setAttribute('aria-describedby', `${input.getAttribute('aria-describedby') || ''} ${error.id}`.trim());
      input.addEventListener('change', () => this.tryEdit(key));
      input.addEventListener('keydown', (event) => {
        if ((event.key !== 'ArrowUp' && event.key !== 'ArrowDown') || event.altKey || event.ctrlKey || event.metaKey) return;
        event.preventDefault();
        const current = Number(input.value);
        if (input.value === '' || !Number.isFinite(current)) return;
        const d = inputs.indexOf(input);
        input.value = String(nudge(current, event.key === 'ArrowUp' ? 1 : -1, { ...spec, scale: spec.scales ? spec.scales[d] : spec.scale }));
        this.tryEdit(key);
      });
    }
    this.fields.set(key, { inputs, error, spec });
    return error;
  }

  // Applies the field's value unless the core (or the page's own limit, a field's max) refuses
  // it: then the value in force stays, and the field says why, naming the key and the value.
  tryEdit(key) {
    const { inputs } = this.fields.get(key);
    const config = this.base(key);
    const inForce = valueOf(config, key);
    const stays = inForce === null ? '' : ` ${t('{key} stays {value}.', { key, value: inForce })}`;
    if (inputs.some((i) => i.validity.badInput)) {
      this.showFieldError(key, `${t('{key} must be a number; what was typed is not one.', { key })}${stays}`);
      return;
    }
    const values = inputs.map((i) => i.value);
    // An emptied field is not an edit: it shows the value in force again.
    if (values.some((v) => v === '')) { this.sync(this.getConfig(), this.getRunConfig()); return; }
    const candidate = withKey(config, key, values.join(','));
    const problems = this.core.parse(candidate).errors.map(coreMessage);
    for (const input of inputs) {
      if (problems.length === 0 && input.max !== '' && Number(input.value) > Number(input.max)) {
        problems.push(t("{key} must be at most {max} here; got '{value}'", { key, max: plainNumber(input.max), value: input.value }));
      }
    }
    if (problems.length > 0) {
      this.showFieldError(key, `${problems.join('; ')}.${stays}`);
      return;
    }
    this.showFieldError(key, '');
    this.set(candidate);
  }

  // The message under a field ('' clears it) and its inputs' aria-invalid.
  showFieldError(key, message) {
    const field = this.fields.get(key);
    if (!field) return;
    if (field.error.textContent !== message) field.error.textContent = message;
    for (const input of field.inputs) input.setAttribute('aria-invalid', message ? 'true' : 'false');
  }

  edit(key, value) {
    this.set(withKey(this.base(key), key, value));
  }

  // The config an edit of `key` starts from: the link, or for a cloud key the config that runs.
  base(key) {
    return cloudKeys.includes(key) ? this.getRunConfig() : this.getConfig();
  }

  build() {
    const { core } = this;
    // System and presets.
    this.scenarioSelect = el('select', { id: 'scenario', name: 'scenario' },
      core.scenarios.map((s) => el('option', { value: s.id, text: s.name })));
    this.scenarioSelect.addEventListener('change', () => {
      // A new system starts from its defaults, keeping the integrators and dt.
      const c = this.getConfig();
      const dt = valueOf(c, 'dt');  // none while a game loop sets it (the loop's keys are kept)
      // The reference alone is no choice of methods to keep: the new system's defaults.
      const ids = valueOf(c, 'integrators');
      const id = this.scenarioSelect.value, duration = menuDurations[id];
      const defaults = duration && Object.fromEntries(core.scenarios.find((s) => s.id === id).params.map((p) => [p.key, p.default]));
      // A system with rigid links gets methods that step them when none of the kept ones can.
      this.set(withRodLanes(core, `scenario=${id}${ids && ids !== 'reference' ? `&integrators=${ids}` : ''}${dt === null ? '' : `&dt=${dt}`}` +
        `${duration ? `&duration=${duration(defaults)}` : ''}${keptPart(c, this.keptKeys)}${keptPart(c, this.loopKeys)}`));
    });
    this.scenarioText = el('p', { class: 'hint', id: 'scenario-description' });
    this.scenarioSelect.setAttribute('aria-describedby', 'scenario-description');
    this.presetSelect = el('select', { id: 'preset', name: 'preset', 'aria-describedby': 'preset-description' },
      [el('option', { value: '', text: t('Custom (choose a preset…)') }), ...presetGroups(core)]);
    this.presetSelect.addEventListener('change', () => {
      if (!this.presetSelect.value) return;
      // The view stays even where the preset's game loop rules it out: the page then says so in the view.
      const config = this.getConfig(), view = valueOf(config, 'view');
      // A preset this module cannot read (a part of the core reads it: core/parts.hpp) goes as
      // written; the page loads the module that reads it.
      const asked = `preset=${this.presetSelect.value}${keptPart(config, this.keptKeys)}`;
      const next = core.normalise(asked) || asked;
      this.set(view !== null && valueOf(next, 'view') === null ? withKey(next, 'view', view) : next);
    });
    // The chosen preset's whole name (a long one may not fit the closed menu) and what it shows.
    this.presetText = el('p', { class: 'hint preset-text', id: 'preset-description' });
    // Under the menu, the whole name of a preset the closed menu cuts off (issue 31 §2).
    this.presetName = el('p', { class: 'hint preset-name', id: 'preset-name' });
    this.presetName.hidden = true;
    window.addEventListener('resize', () => this.showPresetName());
    // On a phone the settings fold opens later: the menu has its width only then.
    document.getElementById('settings-box')?.addEventListener('toggle', () => this.showPresetName());
    // What the system and the preset show folds under one line: the first screen is the controls'.
    const system = el('fieldset', { class: 'group' }, [
      el('legend', { text: t('System') }),
      el('label', { for: 'scenario', text: t('System') }), this.scenarioSelect,
      el('label', { for: 'preset', text: t('Preset') }), this.presetSelect, this.presetName,
      el('details', { class: 'fold about', id: 'about-setup' }, [el('summary', { text: t('What this system and preset show') }),
        this.scenarioText, this.presetText]),
    ]);

    // Time step and duration.
    this.dtRange = el('input', {
      type: 'range', id: 'dt-slider', min: String(dtSlider.min), max: String(dtSlider.max), step: '0.01',
      'aria-describedby': 'dt-hint',
    });
    // A screen reader says "dt = 0.01 s", not the slider's log10 "-2".
    this.dtRange.addEventListener('input', () => {
      const dt = sliderToDt(Number(this.dtRange.value));
      this.dtRange.setAttribute('aria-valuetext', `dt = ${readableNumber(dt)} s`);
      this.edit('dt', dt);
    });
    this.dtNumber = el('input', {
      type: 'number', id: 'dt', min: String(core.limits.dt_min), max: String(core.limits.dt_max), step: 'any', inputmode: 'decimal',
      'aria-describedby': 'dt-hint',
    });
    this.durationNumber = el('input', {
      type: 'number', id: 'duration', min: String(core.limits.duration_min), max: String(core.limits.duration_max), step: 'any', inputmode: 'decimal',
      'aria-describedby': 'duration-hint',
    });
    const dtError = this.numberField('dt', [this.dtNumber],
      { min: core.limits.dt_min, max: core.limits.dt_max, scale: core.limits.default_dt });
    const durationError = this.numberField('duration', [this.durationNumber],
      { min: core.limits.duration_min, max: core.limits.duration_max, scale: core.limits.default_duration });
    this.dtOut = el('output', { for: 'dt-slider', class: 'slider-value', id: 'dt-slider-value' });
    // The first screen's sliders (issue 23 §2): dt, and the system's main parameters (buildParams).
    this.sliders = el('div', { class: 'sliders' });
    this.main = el('fieldset', { class: 'group main-params', id: 'main-params' }, [
      el('legend', { text: t('Main parameters') }),
      el('div', { class: 'slider-row' }, [el('label', { for: 'dt-slider', text: t('dt (log scale)') }), this.dtOut, this.dtRange]),
      this.sliders,
    ]);
    const timing = el('fieldset', { class: 'group' }, [
      el('legend', { text: t('Time step') }),
      el('div', { class: 'row' }, [
        el('label', { for: 'dt', text: 'dt (s)' }), this.dtNumber,
        el('label', { for: 'duration', text: t('duration (s)') }), this.durationNumber,
      ]),
      dtError, durationError,
      el('p', { class: 'hint', id: 'dt-hint', text: t('dt from {min} to {max} s; ↑/↓ step 1, 2, 5, 10…', { min: plainNumber(core.limits.dt_min), max: plainNumber(core.limits.dt_max) }) }),
      el('p', { class: 'hint', id: 'duration-hint', text: t('duration from {min} to {max} s', { min: plainNumber(core.limits.duration_min), max: plainNumber(core.limits.duration_max) }) }),
      this.buildEqualCost(),
    ]);

    // Integrators, grouped by family.
    const byFamily = new Map(core.families.map((f) => [f.id, []]));
    for (const info of core.integrators) {
      if (!byFamily.has(info.family)) byFamily.set(info.family, []);
      byFamily.get(info.family).push(info);
    }
    this.integratorBoxes = new Map();
    const families = [];
    for (const [family, list] of byFamily) {
      if (list.length === 0) continue;
      const items = list.map((info) => {
        const box = el('input', { type: 'checkbox', id: `int-${info.id}`, value: info.id });
        box.addEventListener('change', () => this.integratorsChanged(box));
        this.integratorBoxes.set(info.id, box);
        const text = `${info.name}${info.symplectic ? ` · ${t('symplectic')}` : ''}`;
        return el('div', { class: 'check', title: info.description }, [box, el('label', { for: box.id, text })]);
      });
      const title = core.families.find((f) => f.id === family)?.name || family;
      families.push(el('fieldset', { class: 'family' }, [el('legend', { text: t(title) }), ...items]));
    }
    // The chosen ones by name; the lanes with their settings and the whole list of methods fold
    // under them (shut at first, on every screen).
    this.chosenText = el('span', { class: 'chosen', id: 'integrators-chosen' });
    this.laneList = el('ol', { class: 'lane-list', id: 'lane-list', 'aria-labelledby': 'lane-list-title' });
    this.laneError = el('p', { class: 'field-error', id: 'lane-list-error', role: 'alert' });
    this.laneKey = null;
    this.untickedLanes = new Map();  // method -> its lanes when its box was unticked (ticking it brings them back)
    const laneHead = [
      el('p', { class: 'lane-list-title', id: 'lane-list-title', text: t('Lanes: each method with its substeps × iterations') }),
      el('p', { class: 'hint', id: 'lane-list-hint', text: t('A step of dt is S substeps of dt/S, each with I iterations (a game-physics solver\'s passes over its constraints); S × I at most {passes}.', {
        passes: groupDigits(core.limits.max_lane_passes) }) }),
    ];
    const integrators = el('fieldset', { class: 'group', id: 'integrators-group' }, [el('legend', { text: t('Integrators') }),
      el('details', { class: 'fold', id: 'integrators-fold' }, [el('summary', {}, [this.chosenText]), ...laneHead, this.laneList, this.laneError, ...families])]);

    // The system's parameters (rebuilt when the system changes).
    this.params = el('fieldset', { class: 'group', id: 'params' }, [el('legend', { text: t('Parameters') })]);

    // Everything else folds away (issue 23 §2), one summary to open, by keyboard too.
    const more = el('details', { class: 'fold more-settings', id: 'more-settings' }, [
      el('summary', { text: t('More: time step, duration, equal cost, phase-space cloud, every parameter') }),
      timing, this.buildCloud(), this.params]);
    this.forceLaw = new ForceLaw({ core, set: this.set, getConfig: this.getConfig });
    this.root.replaceChildren(system, this.main, integrators, more, this.forceLaw.element);
  }

  // A slider for one of the system's main parameters, its value beside it: dragging it applies
  // the value at once (as the dt slider does). A parameter that may be 0 gets a linear slider
  // from 0; a strictly positive one a log slider two decades either side of its default.
  mainSlider(spec) {
    const range = el('input', { type: 'range', id: `slider-${spec.key}`, step: 'any', 'aria-describedby': spec.hintId || `param-${spec.key}-hint` });
    const out = el('output', { for: range.id, class: 'slider-value' });
    const log = spec.min > 0 || spec.min_exclusive;
    // No span yet (NaN): the first value spans it, whatever it is (a span of 0 … 1 taken as given
    // kept k1 = 10 on a log slider of 1 … 10 N/m).
    const slider = { spec, range, out, log, lo: NaN, hi: NaN };
    range.addEventListener('input', () => {
      const v = Number(slider.log ? Math.pow(10, Number(range.value)) : Number(range.value)).toPrecision(3);
      const value = this.withinRules(spec.key, Math.min(spec.max, Math.max(spec.min, Number(v))));
      if (value === null) return;
      this.showSlider(slider, value);
      this.edit(spec.key, value);
    });
    this.mainSliders.push(slider);
    return el('div', { class: 'slider-row' }, [el('label', { for: range.id, text: `${spec.label} (${spec.key})` }), out, range]);
  }

  // A slider's value as the core takes it: one the core refuses by a rule across parameters (a
  // bridge's span less than links × length) comes back to just inside the bound the core's message
  // names (its args' min or max), to 3 significant digits; null when the core refuses that too.
  withinRules(key, value) {
    const refusal = (v) => this.core.parse(withKey(this.getConfig(), key, v)).errors.find((e) => e.key === key);
    const e = refusal(value);
    if (!e) return value;
    const bound = Number(value > Number(e.args?.max) ? e.args.max : value < Number(e.args?.min) ? e.args.min : NaN);
    if (!(bound > 0)) return null;
    const digit = Math.pow(10, Math.floor(Math.log10(bound)) - 2), up = value < bound;
    let inside = Number(bound.toPrecision(3));
    if (up ? inside <= bound : inside >= bound) inside = Number((inside + (up ? digit : -digit)).toPrecision(3));
    return refusal(inside) ? null : inside;
  }

  // A main slider at `value`: its span takes the value in (a value outside it re-spans it).
  showSlider(slider, value) {
    const { spec, range, out, log } = slider;
    const unit = spec.unit ? ` ${spec.unit}` : '';
    showNumber(out, value, spec.unit);
    range.setAttribute('aria-valuetext', `${spec.key} = ${readableNumber(value)}${unit}`);
    if (document.activeElement === range) return;
    const base = Math.abs(spec.default) || Math.abs(value) || 1;
    if (log) {
      const c = Math.log10(Math.max(value, spec.min > 0 ? spec.min : 1e-12));
      if (!(c >= slider.lo && c <= slider.hi)) {
        slider.lo = Math.max(Math.log10(Math.min(base, value) / 100), Math.log10(Math.max(spec.min, 1e-12)));
        slider.hi = Math.min(Math.log10(Math.max(base, value) * 100), Math.log10(spec.max));
      }
      range.min = String(slider.lo); range.max = String(slider.hi); range.value = String(c);
    } else {
      if (!(value >= slider.lo && value <= slider.hi)) {
        slider.lo = Math.max(spec.min, Math.min(0, value));
        // Ten times the default, and at least 0 … 10 in the parameter's unit: a damping of 0.1 N·s/m
        // reaches past critical damping (2·√(k·m) = 7.7 N·s/m on the default spring), a drag of 0 has room.
        slider.hi = Math.min(spec.max, nice(Math.max(10 * Math.max(base, 1), 2 * Math.abs(value))));
      }
      range.min = String(slider.lo); range.max = String(slider.hi); range.value = String(value);
    }
  }

  // Equal cost (equal_cost=1): every integrator gets the same force evaluations per simulated
  // second, so RK4 (4 a step) steps at 4 dt and a fair race is one of accuracy per unit of work.
  buildEqualCost() {
    this.equalCostBox = el('input', { type: 'checkbox', id: 'equal_cost', 'aria-describedby': 'equal-cost-hint' });
    this.equalCostBox.addEventListener('change', () => this.edit('equal_cost', this.equalCostBox.checked ? 1 : 0));
    return el('div', {}, [
      el('div', { class: 'check' }, [
        this.equalCostBox,
        el('label', { for: 'equal_cost', text: t('Equal cost: same force evaluations per simulated second') }),
      ]),
      el('p', {
        class: 'hint', id: 'equal-cost-hint',
        text: t('A method with s force evaluations a step steps every s dt; the legend shows each one\'s effective step.'),
      }),
    ]);
  }

  // The phase-space cloud: points per integrator (0 = off) and the start disc's radius, with a
  // quick on/off button.
  buildCloud() {
    const { limits } = this.core;
    const most = limits.max_page_cloud_points;
    this.cloudNumber = el('input', {
      type: 'number', id: 'cloud', min: '0', max: String(most), step: '1', inputmode: 'numeric',
      'aria-describedby': 'cloud-hint',
    });
    const cloudError = this.numberField('cloud', [this.cloudNumber], { min: 0, max: most, integer: true, scale: 1000 });
    this.cloudRadius = el('input', {
      type: 'number', id: 'cloud_radius', min: String(limits.min_cloud_radius), max: String(limits.max_cloud_radius),
      step: 'any', inputmode: 'decimal', 'aria-describedby': 'cloud-radius-hint',
    });
    const radiusError = this.numberField('cloud_radius', [this.cloudRadius],
      { min: limits.min_cloud_radius, max: limits.max_cloud_radius, scale: limits.default_cloud_radius });
    this.cloudButton = el('button', { type: 'button', id: 'cloud-toggle', class: 'cloud-toggle' });
    this.cloudButton.addEventListener('click', () => {
      this.edit('cloud', Number(valueOf(this.getRunConfig(), 'cloud') || 0) > 0 ? 0 : Math.min(quickCloud, most));
    });
    this.cloudNote = el('p', { class: 'hint cloud-none-note', hidden: '' });
    this.cloudGroup = el('fieldset', { class: 'group', id: 'cloud-group' }, [
      el('legend', { text: t('Phase-space cloud') }), this.cloudNote,
      el('p', {
        class: 'hint', id: 'cloud-intro',
        text: t('Many start states on a small disc around the start, in one plane of phase space (body 0\'s x and vx; a pendulum\'s or chain\'s first link\'s angle and its rate), each moved by every ' +
          'integrator: a symplectic method keeps the disc\'s area.'),
      }),
      this.cloudButton,
      el('div', { class: 'row' }, [
        el('label', { for: 'cloud', text: t('points') }), this.cloudNumber,
        el('label', { for: 'cloud_radius', text: t('radius') }), this.cloudRadius,
      ]),
      cloudError, radiusError,
      el('p', { class: 'hint', id: 'cloud-hint', text: t('points per integrator: 0 (off) … {max}', { max: groupDigits(most) }) }),
      el('p', {
        class: 'hint', id: 'cloud-radius-hint',
        text: t('radius of the start disc: m along x, m/s along vx; {min} … {max}, default {default}', {
          min: plainNumber(limits.min_cloud_radius), max: plainNumber(limits.max_cloud_radius), default: plainNumber(limits.default_cloud_radius),
        }),
      }),
    ]);
    return this.cloudGroup;
  }

  integratorsChanged(box) {
    const checked = [];
    // Keep the order of the current config, new ones at the end.
    const current = (valueOf(this.getConfig(), 'integrators') || '').split(',');
    // The reference's rows (integrators=…,reference) have no box: kept, and alone they are a run.
    // A lane with its own settings (xpbd@20x1) stays while its method's box is ticked; unticking
    // the box puts its lanes aside, and ticking it again brings them back (heavy_chain_60hz's
    // xpbd@1x20 and xpbd@20x1, not one plain xpbd).
    if (!box.checked) this.untickedLanes.set(box.value, current.filter((id) => methodOf(id) === box.value));
    for (const id of current) if (this.integratorBoxes.get(methodOf(id))?.checked || id === 'reference') checked.push(id);
    for (const [id, b] of this.integratorBoxes) {
      if (b.checked && !checked.some((c) => methodOf(c) === id)) checked.push(...(this.untickedLanes.get(id)?.length ? this.untickedLanes.get(id) : [id]));
    }
    if (checked.length === 0) {
      box.checked = true;
      this.notify(t('Keep at least one integrator selected.'));
      return;
    }
    this.edit('integrators', checked.join(','));
  }

  // The lanes of `config` (its integrators but the reference's row), in order.
  lanesOf(config) {
    return (valueOf(config, 'integrators') || '').split(',').filter((id) => id && id !== 'reference');
  }

  // Applies `lanes` (the reference's row kept where the config has it) unless the core refuses
  // them: then the lanes in force stay and the list says why.
  setLanes(lanes) {
    const config = this.getConfig();
    const reference = (valueOf(config, 'integrators') || '').split(',').includes('reference');
    const candidate = withKey(config, 'integrators', [...lanes, ...(reference ? ['reference'] : [])].join(','));
    const problems = this.core.parse(candidate).errors.map(coreMessage);
    if (problems.length > 0) {
      this.laneError.textContent = `${problems.join('; ')}. ${t('The lanes stay as they were.')}`;
      return;
    }
    this.laneError.textContent = '';
    this.set(candidate);
  }

  // The list of lanes: each its name, its substeps (and a solver's iterations) within the core's
  // bounds (limits.max_lane_substeps, max_lane_iterations, and their product at most
  // max_lane_passes), a button for another lane of its method and one to remove it. Rebuilt when
  // the lanes change; the field that had the focus keeps it.
  showLanes(config) {
    const lanes = this.lanesOf(config);
    const key = lanes.join(',');
    if (key === this.laneKey) return;
    this.laneKey = key;
    const focused = this.laneList.contains(document.activeElement) ? document.activeElement.id : null;
    const { limits, integrators } = this.core;
    const rows = lanes.map((id, index) => {
      const info = methodInfo(integrators, id);
      const method = methodOf(id);
      const settings = laneSettings(id) || { substeps: 1, iterations: 0 };
      const iterating = Boolean(info && info.default_iterations > 0);
      const iterations = settings.iterations || (iterating ? info.default_iterations : 0);
      const name = laneName(integrators, id);
      const edit = (substeps, its) => {
        const next = [...lanes];
        next[index] = laneIdOf(method, substeps, iterating && its !== info.default_iterations ? its : 0);
        this.setLanes(next);
      };
      const number = (field, value, max, label) => {
        const input = el('input', {
          type: 'number', id: `lane-${index}-${field}`, class: 'lane-number', min: '1', max: String(max), step: '1',
          inputmode: 'numeric', value: String(value), 'aria-label': `${name}: ${label}`, 'aria-describedby': 'lane-list-hint lane-list-error',
        });
        input.disabled = Boolean(info && info.adaptive);  // rk45 chooses its own steps: no settings
        input.addEventListener('change', () => {
          const v = Number(input.value);
          const most = Number(input.max);
          if (!Number.isInteger(v) || v < 1 || v > most) {
            input.setAttribute('aria-invalid', 'true');
            this.laneError.textContent = t('{what} of {lane} must be a whole number from 1 to {max}; got \'{value}\'. The lanes stay as they were.',
              { what: label, lane: name, max: groupDigits(most), value: input.value });
            return;
          }
          input.setAttribute('aria-invalid', 'false');
          if (field === 'substeps') edit(v, iterations); else edit(settings.substeps, v);
        });
        return input;
      };
      const perPass = Math.max(1, iterations);
      const parts = [el('span', { class: 'lane-name', text: name, title: info ? info.description : '' })];
      const fields = [number('substeps', settings.substeps, Math.min(limits.max_lane_substeps, Math.floor(limits.max_lane_passes / perPass)), t('substeps'))];
      if (iterating) {
        fields.push(el('span', { class: 'lane-times', 'aria-hidden': 'true', text: '×' }),
          number('iterations', iterations, Math.min(limits.max_lane_iterations, Math.floor(limits.max_lane_passes / settings.substeps)), t('iterations')));
      }
      const another = el('button', { type: 'button', class: 'lane-add', id: `lane-${index}-add`, text: t('+ another'),
        title: t('Another lane of {method}, with other settings', { method: info ? info.name : method }) });
      another.disabled = lanes.length >= limits.max_lanes || Boolean(info && info.adaptive);
      another.addEventListener('click', () => {
        const next = [...lanes];
        next.splice(index + 1, 0, this.anotherLane(lanes, method, settings.substeps, iterating ? iterations : 0, info));
        this.setLanes(next);
      });
      const remove = el('button', { type: 'button', class: 'lane-remove', id: `lane-${index}-remove`, text: '×',
        'aria-label': t('Remove {lane}', { lane: name }), title: t('Remove {lane}', { lane: name }) });
      remove.disabled = lanes.length === 1;
      remove.addEventListener('click', () => this.setLanes(lanes.filter((_, k) => k !== index)));
      return el('li', { class: 'lane-item', 'data-lane': id }, [
        ...parts,
        el('span', { class: 'lane-settings' }, [...fields.map((f) => (f.tagName === 'INPUT' ? el('label', { class: 'lane-field' }, [el('span', { class: 'lane-field-name', text: f.id.endsWith('substeps') ? t('substeps') : t('iterations') }), f]) : f)), another, remove]),
      ]);
    });
    this.laneList.replaceChildren(...rows);
    this.laneError.textContent = '';
    if (focused) document.getElementById(focused)?.focus();
  }

  // Settings for another lane of `method` that no lane has yet: twice the substeps at the same
  // iterations (the comparison of substeps against iterations starts there), or the next free count.
  anotherLane(lanes, method, substeps, iterations, info) {
    const { limits } = this.core;
    const normal = (s, i) => laneIdOf(method, s, i && i !== info?.default_iterations ? i : 0);
    const taken = new Set(lanes);  // written as the core writes them, as normal() does
    const fits = (s) => s <= limits.max_lane_substeps && s * Math.max(1, iterations) <= limits.max_lane_passes;
    for (let s = substeps * 2; fits(s); s *= 2) if (!taken.has(normal(s, iterations))) return normal(s, iterations);
    for (let s = 1; fits(s); ++s) if (!taken.has(normal(s, iterations))) return normal(s, iterations);
    return normal(substeps, iterations);
  }

  buildParams(scenario) {
    const info = this.core.scenarios.find((s) => s.id === scenario);
    this.scenario = scenario;
    for (const key of this.paramInputs ? this.paramInputs.keys() : []) this.fields.delete(key);
    this.paramInputs = new Map();
    const rows = info.params.map((spec) => {
      const inputs = [];
      // One hint per parameter, under its field(s): what it means and what is allowed. Every
      // input of the parameter (x and y of a vector) is described by both.
      const hintId = `param-${spec.key}-hint`, rangeId = `param-${spec.key}-range`;
      for (let d = 0; d < spec.dims; ++d) {
        const id = `param-${spec.key}${spec.dims === 2 ? ['-x', '-y'][d] : ''}`;
        const input = el('input', {
          type: 'number', id, step: 'any', inputmode: 'decimal',
          min: String(spec.min), max: String(spec.max), 'aria-describedby': `${hintId} ${rangeId}`,
        });
        inputs.push(input);
      }
      this.paramInputs.set(spec.key, inputs);
      const error = this.numberField(spec.key, inputs,
        { min: spec.min, max: spec.max, minExclusive: spec.min_exclusive, scales: spec.default });
      const title = `${spec.label} (${spec.key}${spec.unit ? ', ' + spec.unit : ''})`;
      const hint = el('span', { class: 'meaning', id: hintId, text: spec.meaning });
      const range = el('span', { class: 'range', id: rangeId, text: rangeText(spec) });
      if (spec.dims === 1) {
        return el('div', { class: 'param' }, [el('label', { for: inputs[0].id, text: title }), inputs[0], error, hint, range]);
      }
      return el('div', { class: 'param' }, [
        el('span', { class: 'param-title', text: title }),
        el('div', { class: 'pair' }, [
          el('label', { for: inputs[0].id, text: 'x' }), inputs[0],
          el('label', { for: inputs[1].id, text: 'y' }), inputs[1],
        ]),
        error,
        hint,
        range,
      ]);
    });
    this.params.replaceChildren(el('legend', { text: t('Parameters: {system}', { system: info.name }) }), ...rows);
    this.mainKeys = null;  // the main sliders follow in sync(), which knows the config's force law
    this.scenarioText.textContent = info.description;
  }

  // The first screen's sliders: the system's first three parameters (not a mass), or while a
  // force you write is in force the constants its laws read (up to three): what a student
  // changes first is the law's own numbers. Rebuilt when the list of keys changes.
  showMainSliders(config) {
    const info = this.core.scenarios.find((s) => s.id === this.scenario);
    const constants = ['c1', 'c2', 'c3', 'c4'].filter((k) => valueOf(config, k) !== null).slice(0, 3);
    const specs = constants.length > 0
      ? constants.map((key) => ({ key, label: t('constant'), dims: 1, min: -constantMax, max: constantMax, default: [0], unit: '', hintId: 'force-intro' }))
      : info.params.filter((spec) => spec.dims === 1 && spec.unit !== 'kg').slice(0, 3);
    const keys = specs.map((spec) => spec.key).join(',');
    if (keys === this.mainKeys) return;
    this.mainKeys = keys;
    this.mainSliders = [];
    this.sliders.replaceChildren(...specs.map((spec) => this.mainSlider(spec)));
  }

  // A new simulation: its config in every control, the fields the core refused marked. A system
  // with no phase cloud (a bridge: the core refuses one) has the cloud's settings off, saying
  // the core's reason.
  setSimulation(sim) {
    this.sync(sim.config, sim.runConfig);
    this.markErrors(this.getErrors());
    const none = sim.scene.cloudPlane === null;
    this.cloudGroup.disabled = none;
    this.cloudNote.hidden = !none;
    this.cloudNote.textContent = none ? t('This system has no phase cloud: {why}.', { why: t(sim.scene.cloudWhy) }) : '';
  }

  frame() {}

  report() { return { config: this.getConfig() }; }

  // The chosen preset's name under the menu when the closed menu cannot show it whole: its text
  // measured in the menu's font against the menu's width less its padding and arrow.
  showPresetName() {
    const select = this.presetSelect, option = select.selectedOptions[0];
    const name = select.value && option ? option.text : '';
    let cut = false;
    if (name && select.clientWidth > 0) {
      const style = getComputedStyle(select);
      const measure = (this.measureContext ||= document.createElement('canvas').getContext('2d'));
      measure.font = style.font;
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - presetArrowPx;
      cut = measure.measureText(name).width > room;
    }
    this.presetName.textContent = cut ? name : '';
    this.presetName.hidden = !cut;
  }

  // Normalises every preset's link, to recognise a config as a preset (sync): a few a task (35
  // presets were 55–108 ms of one start-up task), before the first simulation is set.
  // A preset the motion module cannot read yet (its scene or its written force is a part of the
  // core a larger variant carries: core/parts.hpp) is read once one that carries it has loaded.
  async recognisePresets() {
    const presets = this.core.presets;
    for (let k = 0; k < presets.length; k += presetsPerTask) {
      this.readPresets(presets.slice(k, k + presetsPerTask));
      await nextTask();
    }
  }

  readPresets(presets) {
    this.partsRead = this.core.carriedParts.length;
    const unread = [];
    for (const p of presets) {
      const config = this.core.normalise(`preset=${p.id}`);
      if (config) this.presetConfigs.set(config, p.id);
      else unread.push(p);
    }
    this.unreadPresets = [...(this.unreadPresets || []).filter((p) => !presets.includes(p)), ...unread];
  }

  // Shows a (normalised) config in every control; the cloud fields show runConfig's cloud.
  sync(config, runConfig = config) {
    if (this.unreadPresets?.length && this.core.carriedParts.length !== this.partsRead) this.readPresets(this.unreadPresets);
    const scenario = valueOf(config, 'scenario');
    if (scenario !== this.scenario) this.buildParams(scenario);
    this.scenarioSelect.value = scenario;
    const preset = this.presetConfigs.get(config) || this.presetConfigs.get(withoutKeys(config, this.keptKeys)) || '';
    this.presetSelect.value = preset;
    const info = preset ? this.core.presets.find((p) => p.id === preset) : null;
    this.presetText.replaceChildren(...(info ? [el('strong', { text: info.name }), ` — ${info.description}`] : []));
    this.showPresetName();
    const dt = Number(valueOf(config, 'dt'));  // none with a game loop: web/panels/gameloop.js shows its step
    if (dt > 0) {
      this.dtNumber.value = String(dt);
      if (document.activeElement !== this.dtRange) this.dtRange.value = String(Math.log10(dt));
      this.dtRange.setAttribute('aria-valuetext', `dt = ${readableNumber(dt)} s`);
    }
    if (dt > 0) showNumber(this.dtOut, dt, 's');
    else this.dtOut.textContent = '';
    this.durationNumber.value = valueOf(config, 'duration');
    const lanes = (valueOf(config, 'integrators') || '').split(',').filter((id) => id && id !== 'reference');
    const chosen = new Set(lanes.map(methodOf));
    for (const [id, box] of this.integratorBoxes) box.checked = chosen.has(id);
    this.chosenText.textContent = lanes.map((id) => laneName(this.core.integrators, id)).join(', ');
    this.showLanes(config);
    for (const [key, inputs] of this.paramInputs) {
      const values = (valueOf(config, key) || '').split(',');
      inputs.forEach((input, d) => { input.value = values[d] ?? ''; });
    }
    this.showMainSliders(config);
    for (const slider of this.mainSliders) {
      const value = Number(valueOf(config, slider.spec.key));
      if (Number.isFinite(value)) this.showSlider(slider, value);
    }
    this.equalCostBox.checked = valueOf(config, 'equal_cost') === '1';
    const cloud = Number(valueOf(runConfig, 'cloud') || 0);
    this.cloudNumber.value = String(cloud);
    this.cloudRadius.value = valueOf(runConfig, 'cloud_radius') || String(this.core.limits.default_cloud_radius);
    this.cloudButton.textContent = cloud > 0 ? t('Hide the cloud')
      : t('Show a cloud ({n} points)', { n: groupDigits(Math.min(quickCloud, this.core.limits.max_page_cloud_points)) });
    this.cloudButton.setAttribute('aria-pressed', String(cloud > 0));
    // Every field shows the value in force: no refused value's message is left (markErrors adds
    // the config's own), and the spinners step by a tenth of each value's decade.
    for (const [key, field] of this.fields) {
      this.showFieldError(key, '');
      for (const input of field.inputs) input.step = spinnerStep(Number(input.value), field.spec.integer);
    }
    this.forceLaw.sync(config);
  }

  // Marks the inputs whose keys the core rejected.
  // Marks the inputs whose keys the core rejected, each with the core's message next to it (the
  // banner at the top has them all, but it is off-screen while editing a field lower down).
  markErrors(errors) {
    const byKey = new Map();
    for (const e of errors) byKey.set(e.key, [...(byKey.get(e.key) || []), coreMessage(e)]);
    for (const key of this.fields.keys()) this.showFieldError(key, (byKey.get(key) || []).join('; '));
    this.forceLaw.markErrors(byKey);
    this.equalCostBox.setAttribute('aria-invalid', byKey.has('equal_cost') ? 'true' : 'false');
  }
}
