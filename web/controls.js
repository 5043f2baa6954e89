// The controls, built from the core's tables: system, presets (grouped by system), integrators
// (grouped by family), dt (log slider and number), duration, the system's parameters with their
// meaning, units and allowed ranges, the phase-space cloud (points per integrator and the start
// disc's radius), equal cost, and playback. Every edit becomes a new config string handed to set(); sync() shows a config.
import { withKey, valueOf } from './links.js';

const familyOrder = ['Euler family', 'Runge–Kutta', 'Verlet family', 'kinematic', 'reference'];
const familyTitle = {
  'Euler family': 'Euler family', 'Runge–Kutta': 'Runge–Kutta', 'Verlet family': 'Verlet family',
  kinematic: 'Kinematic', reference: 'Reference',
};
const dtSlider = { min: -4, max: 1 };  // log10 of dt: 0.0001 s to 10 s

function el(tag, props = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') e.textContent = v;
    else if (k === 'class') e.className = v;
    else if (k in e && typeof v !== 'string') e[k] = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

// dt from the slider, rounded to 3 significant digits so the config stays readable.
const sliderToDt = (v) => Number(Math.pow(10, v).toPrecision(3));

// The keys that are not the system's (the cloud, equal cost, the view): kept when the system or
// the preset changes.
const keptKeys = ['cloud', 'cloud_radius', 'equal_cost', 'view'];
// The game loop's keys: kept when the system changes (not when a preset is chosen: it has its own).
const loopKeys = ['loop', 'hz', 'substeps', 'jitter', 'seed', 'max_steps'];
// A config's kept keys as '&cloud=…&view=…' (empty when it has none).
function keptPart(config, keys = keptKeys) {
  return keys.map((k) => [k, valueOf(config, k)]).filter(([, v]) => v !== null)
    .map(([k, v]) => `&${k}=${encodeURIComponent(v)}`).join('');
}
// The config without its kept keys (to recognise a preset with a cloud or a view added).
function withoutKept(config) {
  return config.split('&').filter((p) => !keptKeys.includes(p.split('=')[0])).join('&');
}
// How many points the quick button asks for.
const quickCloud = 20000;
function rangeText(spec) {
  const lo = spec.min_exclusive ? `> ${spec.min}` : `${spec.min}`;
  return `${lo} … ${spec.max}${spec.unit ? ' ' + spec.unit : ''}`;
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
  if (rest.length > 0) groups.push(el('optgroup', { label: 'Other' }, rest.map(option)));
  return groups;
}

export class Controls {
  // core: tables; set(query): apply a config; getConfig(): the current normalised config;
  // notify(message): a UI-side error for the errors list.
  constructor(root, { core, set, getConfig, notify }) {
    this.core = core;
    this.set = set;
    this.getConfig = getConfig;
    this.notify = notify;
    this.root = root;
    // Enter in a field must not submit the form (a reload): every edit applies on its own.
    // A listener, not an inline onsubmit: the page runs under a CSP without inline script.
    root.addEventListener('submit', (event) => event.preventDefault());
    this.scenario = null;
    this.presetConfigs = new Map(core.presets.map((p) => [core.normalise(`preset=${p.id}`), p.id]));
    this.build();
  }

  edit(key, value) {
    this.set(withKey(this.getConfig(), key, value));
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
      this.set(`scenario=${this.scenarioSelect.value}&integrators=${valueOf(c, 'integrators')}${dt === null ? '' : `&dt=${dt}`}` +
        `${keptPart(c)}${keptPart(c, loopKeys)}`);
    });
    this.scenarioText = el('p', { class: 'hint', id: 'scenario-description' });
    this.scenarioSelect.setAttribute('aria-describedby', 'scenario-description');
    this.presetSelect = el('select', { id: 'preset', name: 'preset', 'aria-describedby': 'preset-description' },
      [el('option', { value: '', text: 'Custom (choose a preset…)' }), ...presetGroups(core)]);
    this.presetSelect.addEventListener('change', () => {
      if (this.presetSelect.value) this.set(core.normalise(`preset=${this.presetSelect.value}${keptPart(this.getConfig())}`));
    });
    // The chosen preset's whole name (a long one may not fit the closed menu) and what it shows.
    this.presetText = el('p', { class: 'hint preset-text', id: 'preset-description' });
    const system = el('fieldset', { class: 'group' }, [
      el('legend', { text: 'System' }),
      el('label', { for: 'scenario', text: 'System' }), this.scenarioSelect, this.scenarioText,
      el('label', { for: 'preset', text: 'Preset' }), this.presetSelect, this.presetText,
    ]);

    // Time step and duration.
    this.dtRange = el('input', {
      type: 'range', id: 'dt-slider', min: String(dtSlider.min), max: String(dtSlider.max), step: '0.01',
      'aria-describedby': 'dt-hint',
    });
    this.dtRange.addEventListener('input', () => this.edit('dt', sliderToDt(Number(this.dtRange.value))));
    this.dtNumber = el('input', {
      type: 'number', id: 'dt', min: '0', max: String(core.limits.dt_max), step: 'any', inputmode: 'decimal',
      'aria-describedby': 'dt-hint',
    });
    // An empty or unparsable number field (the browser reports both as '') is not an edit:
    // the field goes back to the value in force, so it never shows something that is not running.
    this.dtNumber.addEventListener('change', () => {
      if (this.dtNumber.value !== '') this.edit('dt', this.dtNumber.value); else this.sync(this.getConfig());
    });
    this.durationNumber = el('input', {
      type: 'number', id: 'duration', min: '0', max: String(core.limits.duration_max), step: 'any', inputmode: 'decimal',
    });
    this.durationNumber.addEventListener('change', () => {
      if (this.durationNumber.value !== '') this.edit('duration', this.durationNumber.value);
      else this.sync(this.getConfig());
    });
    const timing = el('fieldset', { class: 'group' }, [
      el('legend', { text: 'Time step' }),
      el('label', { for: 'dt-slider', text: 'dt (log scale)' }), this.dtRange,
      el('div', { class: 'row' }, [
        el('label', { for: 'dt', text: 'dt (s)' }), this.dtNumber,
        el('label', { for: 'duration', text: 'duration (s)' }), this.durationNumber,
      ]),
      el('p', { class: 'hint', id: 'dt-hint', text: `dt > 0 and at most ${core.limits.dt_max} s` }),
      this.buildEqualCost(),
    ]);

    // Integrators, grouped by family.
    const byFamily = new Map(familyOrder.map((f) => [f, []]));
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
        const text = `${info.name}${info.symplectic ? ' · symplectic' : ''}`;
        return el('div', { class: 'check', title: info.description }, [box, el('label', { for: box.id, text })]);
      });
      families.push(el('fieldset', { class: 'family' }, [el('legend', { text: familyTitle[family] || family }), ...items]));
    }
    const integrators = el('fieldset', { class: 'group' }, [el('legend', { text: 'Integrators' }), ...families]);

    // The system's parameters (rebuilt when the system changes).
    this.params = el('fieldset', { class: 'group', id: 'params' }, [el('legend', { text: 'Parameters' })]);

    this.root.replaceChildren(system, timing, integrators, this.buildCloud(), this.params);
  }

  // Equal cost (equal_cost=1): every integrator gets the same force evaluations per simulated
  // second, so RK4 (4 a step) steps at 4 dt and a fair race is one of accuracy per unit of work.
  buildEqualCost() {
    this.equalCostBox = el('input', { type: 'checkbox', id: 'equal_cost', 'aria-describedby': 'equal-cost-hint' });
    this.equalCostBox.addEventListener('change', () => this.edit('equal_cost', this.equalCostBox.checked ? 1 : 0));
    return el('div', {}, [
      el('div', { class: 'check' }, [
        this.equalCostBox,
        el('label', { for: 'equal_cost', text: 'Equal cost: same force evaluations per simulated second' }),
      ]),
      el('p', {
        class: 'hint', id: 'equal-cost-hint',
        text: 'A method with s force evaluations a step steps every s dt; the legend shows each one\'s effective step.',
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
    this.cloudNumber.addEventListener('change', () => {
      if (this.cloudNumber.value !== '') this.edit('cloud', this.cloudNumber.value); else this.sync(this.getConfig());
    });
    this.cloudRadius = el('input', {
      type: 'number', id: 'cloud_radius', min: String(limits.min_cloud_radius), max: String(limits.max_cloud_radius),
      step: 'any', inputmode: 'decimal', 'aria-describedby': 'cloud-radius-hint',
    });
    this.cloudRadius.addEventListener('change', () => {
      if (this.cloudRadius.value !== '') this.edit('cloud_radius', this.cloudRadius.value); else this.sync(this.getConfig());
    });
    this.cloudButton = el('button', { type: 'button', id: 'cloud-toggle', class: 'cloud-toggle' });
    this.cloudButton.addEventListener('click', () => {
      this.edit('cloud', Number(valueOf(this.getConfig(), 'cloud') || 0) > 0 ? 0 : Math.min(quickCloud, most));
    });
    return el('fieldset', { class: 'group', id: 'cloud-group' }, [
      el('legend', { text: 'Phase-space cloud' }),
      el('p', {
        class: 'hint', id: 'cloud-intro',
        text: 'Many start states on a small disc around the start, in the (x, vx) plane of body 0, each moved by every ' +
          'integrator: a symplectic method keeps the disc\'s area.',
      }),
      this.cloudButton,
      el('div', { class: 'row' }, [
        el('label', { for: 'cloud', text: 'points' }), this.cloudNumber,
        el('label', { for: 'cloud_radius', text: 'radius' }), this.cloudRadius,
      ]),
      el('p', { class: 'hint', id: 'cloud-hint', text: `points per integrator: 0 (off) … ${most.toLocaleString('en-US')}` }),
      el('p', {
        class: 'hint', id: 'cloud-radius-hint',
        text: `radius of the start disc: m along x, m/s along vx; ${limits.min_cloud_radius} … ${limits.max_cloud_radius}, ` +
          `default ${limits.default_cloud_radius}`,
      }),
    ]);
  }

  integratorsChanged(box) {
    const checked = [];
    // Keep the order of the current config, new ones at the end.
    const current = (valueOf(this.getConfig(), 'integrators') || '').split(',');
    for (const id of current) if (this.integratorBoxes.get(id)?.checked) checked.push(id);
    for (const [id, b] of this.integratorBoxes) if (b.checked && !checked.includes(id)) checked.push(id);
    if (checked.length === 0) {
      box.checked = true;
      this.notify('Keep at least one integrator selected.');
      return;
    }
    this.edit('integrators', checked.join(','));
  }

  buildParams(scenario) {
    const info = this.core.scenarios.find((s) => s.id === scenario);
    this.scenario = scenario;
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
        input.addEventListener('change', () => {
          const values = this.paramInputs.get(spec.key).map((i) => i.value);
          if (values.some((v) => v === '')) { this.sync(this.getConfig()); return; }
          this.edit(spec.key, values.join(','));
        });
        inputs.push(input);
      }
      this.paramInputs.set(spec.key, inputs);
      const title = `${spec.label} (${spec.key}${spec.unit ? ', ' + spec.unit : ''})`;
      const hint = el('span', { class: 'meaning', id: hintId, text: spec.meaning });
      const range = el('span', { class: 'range', id: rangeId, text: rangeText(spec) });
      if (spec.dims === 1) {
        return el('div', { class: 'param' }, [el('label', { for: inputs[0].id, text: title }), inputs[0], hint, range]);
      }
      return el('div', { class: 'param' }, [
        el('span', { class: 'param-title', text: title }),
        el('div', { class: 'pair' }, [
          el('label', { for: inputs[0].id, text: 'x' }), inputs[0],
          el('label', { for: inputs[1].id, text: 'y' }), inputs[1],
        ]),
        hint,
        range,
      ]);
    });
    this.params.replaceChildren(el('legend', { text: `Parameters: ${info.name}` }), ...rows);
    this.scenarioText.textContent = info.description;
  }

  // Shows a (normalised) config in every control.
  sync(config) {
    const scenario = valueOf(config, 'scenario');
    if (scenario !== this.scenario) this.buildParams(scenario);
    this.scenarioSelect.value = scenario;
    const preset = this.presetConfigs.get(config) || this.presetConfigs.get(withoutKept(config)) || '';
    this.presetSelect.value = preset;
    const info = preset ? this.core.presets.find((p) => p.id === preset) : null;
    this.presetText.replaceChildren(...(info ? [el('strong', { text: info.name }), ` — ${info.description}`] : []));
    const dt = Number(valueOf(config, 'dt'));  // none with a game loop: web/gameloop.js shows its step
    if (dt > 0) {
      this.dtNumber.value = String(dt);
      if (document.activeElement !== this.dtRange) this.dtRange.value = String(Math.log10(dt));
    }
    this.durationNumber.value = valueOf(config, 'duration');
    const chosen = new Set((valueOf(config, 'integrators') || '').split(','));
    for (const [id, box] of this.integratorBoxes) box.checked = chosen.has(id);
    for (const [key, inputs] of this.paramInputs) {
      const values = (valueOf(config, key) || '').split(',');
      inputs.forEach((input, d) => { input.value = values[d] ?? ''; });
    }
    this.equalCostBox.checked = valueOf(config, 'equal_cost') === '1';
    const cloud = Number(valueOf(config, 'cloud') || 0);
    this.cloudNumber.value = String(cloud);
    this.cloudRadius.value = valueOf(config, 'cloud_radius') || String(this.core.limits.default_cloud_radius);
    this.cloudButton.textContent = cloud > 0 ? 'Hide the cloud' : `Show a cloud (${Math.min(quickCloud, this.core.limits.max_page_cloud_points).toLocaleString('en-US')} points)`;
    this.cloudButton.setAttribute('aria-pressed', String(cloud > 0));
  }

  // Marks the inputs whose keys the core rejected.
  markErrors(errors) {
    const bad = new Set(errors.map((e) => e.key));
    const mark = (input, key) => input.setAttribute('aria-invalid', bad.has(key) ? 'true' : 'false');
    mark(this.dtNumber, 'dt');
    mark(this.durationNumber, 'duration');
    mark(this.cloudNumber, 'cloud');
    mark(this.cloudRadius, 'cloud_radius');
    mark(this.equalCostBox, 'equal_cost');
    for (const [key, inputs] of this.paramInputs) inputs.forEach((i) => mark(i, key));
  }
}
