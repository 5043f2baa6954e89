// A force law you write (issue 22 §3): the keys fx and fy as text fields, the constants c1 … c4
// that they read as sliders with a number each, and laws to start from. The core parses, checks,
// differentiates and writes every expression (core/expression.hpp); the page never evaluates one
// and never parses one: which constants a law reads, it learns from the core's own messages.
import { withKey, valueOf } from '../common/query.js';
import { t, coreMessage } from '../common/language.js';
import { plainNumber } from '../common/text.js';
import { el } from '../common/dom.js';

const lawKeys = ['fx', 'fy'];
const constantKeys = ['c1', 'c2', 'c3', 'c4'];
// What a constant may be (core/config.hpp written_constant_max), as the core's messages say.
export const constantMax = 1e6;
// A constant the law reads and the link does not give starts at 1 (a slider then sets it).
const newConstant = 1;

// Laws to start from: each a row (what it is, fx, fy, its constants), added to the system's own
// forces. They show what the language can say: a polynomial, time, a velocity, a function.
const examples = [
  { name: 'Duffing spring: −c1·x − c2·x³', fx: '-c1*x-c2*x^3', c: { c1: 4, c2: 2 } },
  { name: 'Driven: −c1·x + c2·cos(c3·t)', fx: '-c1*x+c2*cos(c3*t)', c: { c1: 4, c2: 1, c3: 3 } },
  { name: 'Van der Pol: c1·(1 − x²)·vx − c2·x', fx: 'c1*(1-x^2)*vx-c2*x', c: { c1: 1, c2: 1 } },
  { name: 'Pendulum along x: −c1·sin(x)', fx: '-c1*sin(x)', c: { c1: 4 } },
  { name: 'Wind gusts: c1·sin(c2·t)²', fx: 'c1*sin(c2*t)^2', c: { c1: 2, c2: 1 } },
];

// The config without `key` (a law emptied, a constant nothing reads any more).
function withoutKey(config, key) {
  return config.split('&').filter((p) => p.split('=')[0] !== key).join('&');
}

// The smallest 1, 2 or 5 × 10^n at least x > 0: a constant's slider spans ± that.
function span(x) {
  const d = Math.pow(10, Math.floor(Math.log10(x) + 1e-9));
  return [1, 2, 5, 10].map((m) => m * d).find((v) => v >= x * (1 - 1e-9));
}

export class ForceLaw {
  // set(config): apply a new config; getConfig(): the link's config; core: parse().
  constructor({ core, set, getConfig }) {
    this.core = core;
    this.set = set;
    this.getConfig = getConfig;
    this.inputs = new Map();  // fx, fy -> their text input
    this.errors = new Map();  // fx, fy, c1 … c4 -> the message element under the field
    this.constants = new Map();  // c1 … c4 -> {row, range, number, lo, hi}
    this.element = this.build();
  }

  build() {
    this.example = el('select', { id: 'force-example', 'aria-describedby': 'force-hint' }, [
      el('option', { value: '', text: t('Start from a law…') }),
      ...examples.map((e, i) => el('option', { value: String(i), text: t(e.name) })),
      el('option', { value: 'none', text: t('No written force') }),
    ]);
    this.example.addEventListener('change', () => {
      const choice = this.example.value;
      this.example.value = '';
      if (choice === '') return;
      let config = this.getConfig();
      for (const key of [...lawKeys, ...constantKeys]) config = withoutKey(config, key);
      const law = examples[Number(choice)];
      if (law) {
        config = withKey(config, 'fx', law.fx);
        for (const [key, value] of Object.entries(law.c)) config = withKey(config, key, value);
      }
      this.set(config);
    });
    const laws = lawKeys.map((key) => {
      const input = el('input', {
        type: 'text', id: `force-${key}`, class: 'expression', spellcheck: 'false', autocomplete: 'off',
        autocapitalize: 'off', maxlength: '256', placeholder: '0', 'aria-describedby': `force-${key}-error force-hint`,
      });
      // A law applies when it is committed (Enter or leaving the field), not at every key: half a
      // law ("-c1*") is not one.
      input.addEventListener('change', () => this.editLaw(key, input.value.trim()));
      this.inputs.set(key, input);
      const error = el('p', { class: 'field-error', id: `force-${key}-error`, role: 'alert' });
      this.errors.set(key, error);
      return el('div', { class: 'law' }, [
        el('label', { for: input.id, text: `${key} (N) =` }), input, error,
      ]);
    });
    this.constantRows = el('div', { class: 'constants' }, constantKeys.map((key) => this.constantRow(key)));
    this.inUse = false;
    const group = el('fieldset', { class: 'group', id: 'force-group' }, [
      el('legend', { text: t('Force law') }),
      el('p', {
        class: 'hint', id: 'force-intro',
        text: t('Added to the system\'s own forces on every body: fx and fy in newtons, from the body\'s x, y, vx, vy, its mass m, the time t and the constants c1 … c4.'),
      }),
      el('label', { for: 'force-example', text: t('Examples') }), this.example,
      ...laws,
      this.constantRows,
      el('p', {
        class: 'hint', id: 'force-hint',
        text: t('Write + − * / ^ and parentheses (x^2 is x², and -x^2 is −(x²)) and the functions sin cos tan exp log sqrt abs min max pow atan2; at most 256 characters.'),
      }),
    ]);
    // Folded under one line, as the other settings past the first screen are.
    return el('details', { class: 'fold force-fold', id: 'force-fold' }, [
      el('summary', { text: t('Your own force (fx, fy)') }), group]);
  }

  // A constant's row: a slider over ± a round span around its value, and its number.
  constantRow(key) {
    const range = el('input', { type: 'range', id: `force-${key}-slider`, step: 'any', 'aria-label': key });
    const number = el('input', {
      type: 'number', id: `force-${key}`, step: 'any', inputmode: 'decimal',
      min: String(-constantMax), max: String(constantMax), 'aria-describedby': `force-${key}-error`,
    });
    const error = el('p', { class: 'field-error', id: `force-${key}-error`, role: 'alert' });
    this.errors.set(key, error);
    const row = el('div', { class: 'constant', hidden: '' }, [
      el('label', { for: number.id, text: key }), number, range, error,
    ]);
    const constant = { row, range, number, lo: -1, hi: 1 };
    range.addEventListener('input', () => {
      const value = Number(Number(range.value).toPrecision(3));
      number.value = String(value);
      this.editConstant(key, String(value));
    });
    number.addEventListener('change', () => this.editConstant(key, number.value.trim()));
    this.constants.set(key, constant);
    return row;
  }

  // A law typed: constants it reads that the link lacks start at 1, ones nothing reads any more
  // leave the link, both as the core's messages name them; any other problem stays under the
  // field and the law in force runs on.
  editLaw(key, text) {
    let config = text === '' ? withoutKey(this.getConfig(), key) : withKey(this.getConfig(), key, text);
    // A law is read by a part of the core the default link's module leaves out (core/parts.hpp):
    // the module that reads it is loaded first, then the law is read there.
    const missing = this.core.parse(config).missingParts;
    if (missing.length) {
      this.core.withParts(missing).then(() => this.editLaw(key, text), (error) => this.showError(key, error.message));
      return;
    }
    for (let pass = 0; pass < 2; ++pass) {
      let changed = false;
      for (const e of this.core.parse(config).errors) {
        if (e.code === 'expr_constant_missing' && e.args?.name) {
          config = withKey(config, e.args.name, newConstant);
          changed = true;
        } else if (e.code === 'written_constant_unused' && constantKeys.includes(e.key)) {
          config = withoutKey(config, e.key);
          changed = true;
        }
      }
      if (!changed) break;
    }
    this.applyUnlessRefused(key, config, [...lawKeys, ...constantKeys]);
  }

  editConstant(key, text) {
    if (text === '' || !Number.isFinite(Number(text))) {
      this.showError(key, t('{key} must be a number; what was typed is not one.', { key }));
      return;
    }
    this.applyUnlessRefused(key, withKey(this.getConfig(), key, text), [key, ...lawKeys]);
  }

  // Applies `config` unless the core refuses one of `keys` in it: then the messages stand under
  // the field of `key`, and the config in force runs on.
  applyUnlessRefused(key, config, keys) {
    const problems = this.core.parse(config).errors.filter((e) => keys.includes(e.key));
    this.showError(key, problems.map(coreMessage).join('; '));
    if (problems.length === 0) this.set(config);
  }

  showError(key, message) {
    const error = this.errors.get(key);
    if (error.textContent !== message) error.textContent = message;
    const input = this.inputs.get(key) || this.constants.get(key).number;
    input.setAttribute('aria-invalid', message ? 'true' : 'false');
  }

  // A (normalised) config in the fields: its laws as the core wrote them, a row for each constant
  // it gives (the core refuses a constant nothing reads, so those are the ones the laws read).
  sync(config) {
    // The laws as the core wrote them (a law typed with spaces comes back without them).
    for (const [key, input] of this.inputs) input.value = valueOf(config, key) ?? '';
    for (const [key, c] of this.constants) {
      const given = valueOf(config, key);
      c.row.hidden = given === null;
      if (given === null) continue;
      const value = Number(given);
      if (document.activeElement !== c.number) c.number.value = given;
      // The slider spans ± a round number above twice the value; while it is in use it keeps its
      // span (a drag must not move its own ends) unless the value left it.
      if (document.activeElement !== c.range || !(value >= c.lo && value <= c.hi)) {
        c.hi = span(Math.max(1, 2 * Math.abs(value)));
        c.lo = -c.hi;
        c.range.min = String(c.lo);
        c.range.max = String(c.hi);
      }
      c.range.value = String(value);
      c.range.setAttribute('aria-valuetext', `${key} = ${plainNumber(value)}`);
    }
    // The fold opens when a law comes into force (a preset, a link), and is left as the user set it.
    const inUse = lawKeys.some((k) => valueOf(config, k) !== null);
    if (inUse && !this.inUse) this.element.open = true;
    this.inUse = inUse;
    for (const key of this.errors.keys()) this.showError(key, '');
  }

  // The core's refusals of this group's keys (byKey: key -> messages), beside their fields.
  markErrors(byKey) {
    for (const key of this.errors.keys()) this.showError(key, (byKey.get(key) || []).join('; '));
  }
}
