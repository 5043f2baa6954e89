// Writes docs/reference.md, the config format's and the command line's reference, from the core's
// own tables: `stepwise list --format json` (keys, ranges, defaults, scenarios, presets, lanes,
// limits, views, the scene grammar, the game loop, the integrators and the parser's messages),
// `stepwise --help` (the commands and their options) and, for what an option or a shared key
// accepts, the CLI's own refusal of a wrong value (the words a user who got it wrong reads).
// Nothing here restates a range or a default: a table of the core that changes changes this page.
//   node scripts/gen-reference.mjs            # rewrites docs/reference.md
// The CLI is STEPWISE_BIN, else build/native/stepwise. tests/docs/reference.test.mjs fails when the
// committed page differs from what this makes. The output depends on the core's tables alone.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const referencePath = path.join(root, 'docs/reference.md');
export const readmePath = path.join(root, 'README.md');
export const defaultCli = () => process.env.STEPWISE_BIN || path.join(root, 'build/native/stepwise');

// What `stepwise ARGS…` printed: { status, stdout, stderr }, in the C locale (numbers never depend
// on it, but the test should not either).
function runCli(cli, args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' }, maxBuffer: 1 << 26 });
  if (r.error) throw new Error(`${cli}: ${r.error.message}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// A cell of a Markdown table: a '|' of the text (|v|, |e − 1|) must not end the cell.
const cell = (text) => String(text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text) => `\`${text}\``;
const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');

// A table's number as the core wrote it in its JSON (JavaScript's shortest form that reads back).
const num = (x) => String(x);
const range = (min, max, minExclusive = false, whole = false) =>
  `${whole ? 'whole, ' : ''}${minExclusive ? '> ' : ''}${num(min)} … ${num(max)}`;

// What a refusal says is allowed, from the first line of the CLI's message (its prefix, the value
// given and the usage after it left out), for the three forms the parser and the CLI use:
// "KEY must be ALLOWED; got '?'", "unknown KEY '?'; known: LIST" and, for an expression,
// "KEY: unknown name 'k' at character 1 of 'k'; known: NAMES".
function allowedIn(text) {
  const line = text.split('\n')[0].replace(/^(stepwise|error): /, '');
  let m;
  if ((m = /^(?:list's )?\S+ must be (.*?); got '\?'/.exec(line))) return m[1];
  if ((m = /unknown (?:\w+) '\?'; known: (.*)$/.exec(line))) return `one of: ${m[1]}`;
  if ((m = /unknown name 'k' at character 1 of 'k'; known: (.*)$/.exec(line))) return `an expression of ${m[1]}`;
  throw new Error(`no allowed values in: ${line}`);
}

// The commands and their options, read from the CLI's usage: "  stepwise run 'QUERY' [--steps N | …]".
function commandsOf(usage) {
  return usage.split('\n').filter((l) => /^ {2}stepwise \w+/.test(l)).map((line) => {
    const synopsis = line.trim();
    const name = /^stepwise (\w+)/.exec(synopsis)[1];
    const options = [...new Set([...synopsis.matchAll(/--([a-z]+)/g)].map((m) => m[1]))];
    return { name, synopsis, takesQuery: /'QUERY'/.test(synopsis), options };
  });
}

function cliSection(cli) {
  const help = runCli(cli, ['--help']);
  if (help.status !== 0) throw new Error(`stepwise --help exited ${help.status}`);
  const usage = help.stdout.trimEnd();
  const out = ['## The command line', '',
    'What `stepwise --help` prints:', '', '```text', usage, '```', '',
    'Each option, with what it accepts as the CLI says when it is given a wrong value (for the query',
    '`v=1`, whose lanes are the default ones); an unknown option, an option given twice or one without',
    'a value is a usage error (exit 64). What each command does and how much work it may do:',
    '[cli.md](cli.md).', ''];
  for (const command of commandsOf(usage)) {
    out.push(`### \`stepwise ${command.name}\``, '', '```text', command.synopsis, '```', '');
    const rows = command.options.map((option) => {
      const args = [command.name, ...(command.takesQuery ? ['v=1'] : []), `--${option}`, '?'];
      const r = runCli(cli, args);
      if (r.status !== 64) throw new Error(`stepwise ${args.join(' ')} exited ${r.status}, not 64`);
      return [code(`--${option}`), allowedIn(r.stderr)];
    });
    if (rows.length) out.push(table(['option', 'accepts'], rows), '');
  }
  return out;
}

// The shared keys: the core's table of them with their groups, meanings and what each accepts
// (the parser's refusal of a wrong value where the table leaves that to another part); its
// default from the tables that hold one.
function sharedKeysSection(cli, list) {
  const L = list.limits;
  const loopKey = Object.fromEntries(list.loop.keys.map((k) => [k.key, k]));
  const defaults = {
    v: L.version, scenario: L.default_scenario, integrators: L.default_integrators, dt: L.default_dt,
    duration: L.default_duration, cloud_radius: L.default_cloud_radius,
  };
  const rows = list.shared_keys.map(({ key, group, meaning, allowed }) => {
    // The table's own words where it has them (the same its errors use); else the parser's
    // refusal: an expression's names what it may read, any other key's what it may be.
    const refusal = () => {
      const r = runCli(cli, ['check', `${key}=${group === 'force' && /^f/.test(key) ? 'k' : '?'}`]);
      if (r.status !== 2) throw new Error(`stepwise check '${key}=…' exited ${r.status}, not 2`);
      return allowedIn(r.stderr);
    };
    const accepts = allowed ?? refusal();
    const def = key in loopKey ? loopKey[key].default : defaults[key];
    const means = meaning || (key in loopKey ? loopKey[key].meaning : '');
    return [code(key), group, means, accepts, def === undefined ? '—' : code(def)];
  });
  return ['## Keys every system shares', '',
    'A link is `key=value` pairs joined by `&`, in any order; the keys below are read on every system',
    '(group: where the page shows them). The `fx`/`fy` expressions and the scene have grammars of their',
    'own ([config.md](config.md)). — : no table of the core holds a default; the key is left out of a',
    'normalised link until it is given, and [config.md](config.md#keys-every-system-shares) says what applies then.', '',
    table(['key', 'group', 'meaning', 'accepts', 'default'], rows), ''];
}

function lanesSection(list) {
  const L = list.limits;
  const solvers = list.integrators.filter((i) => i.default_iterations > 0);
  return ['## Lanes', '',
    `\`integrators\` is a comma list of at most ${L.max_lanes} lanes, each \`METHOD\`, \`METHOD@SUBSTEPS\` or`,
    '`METHOD@SUBSTEPSxITERATIONS` ([config.md](config.md#lanes-with-their-own-settings)):', '',
    table(['setting', 'allowed'], [
      ['substeps', `whole, 1 … ${L.max_lane_substeps}`],
      ['iterations (the game-physics solvers only)', `whole, 1 … ${L.max_lane_iterations}`],
      ['substeps × iterations', `at most ${L.max_lane_passes} passes a step`],
    ]), '',
    'Default iterations:', '',
    table(['method', 'iterations'], solvers.map((i) => [code(i.id), i.default_iterations])), ''];
}

function limitsSection(list) {
  const L = list.limits, S = list.scene;
  return ['## Limits', '', table(['what', 'limit'], [
    ['format version (`v`)', L.version],
    ['dt', `${num(L.dt_min)} … ${num(L.dt_max)} s`],
    ['duration', `${num(L.duration_min)} … ${num(L.duration_max)} s`],
    ['steps of a run (duration / dt)', `at most ${L.max_steps}`],
    ['key=value pairs read', `at most ${L.max_pairs}`],
    ['a value', `at most ${L.max_value_length} characters`],
    ['a scene', `at most ${L.max_scene_length} characters, ${S.max_bodies} bodies, ${S.max_anchors} anchors, ${S.max_joins} springs and links`],
    ['cloud points per integrator', `at most ${L.max_cloud_points}`],
    ['cloud_radius', `${num(L.min_cloud_radius)} … ${num(L.max_cloud_radius)}`],
    ['lanes', `at most ${L.max_lanes}`],
    ...Object.entries(L).filter(([k]) => !['version', 'dt_min', 'dt_max', 'duration_min', 'duration_max', 'max_steps',
      'default_dt', 'default_duration', 'default_scenario', 'default_integrators', 'max_pairs', 'max_value_length',
      'max_scene_length', 'max_cloud_points', 'default_cloud_radius', 'min_cloud_radius', 'max_cloud_radius', 'max_lanes',
      'max_lane_substeps', 'max_lane_iterations', 'max_lane_passes'].includes(k)).map(([k, v]) => [code(k), v]),
  ]), ''];
}

function loopSection(list) {
  const loop = list.loop;
  return ['## Game loop', '',
    'Absent `loop`: steps of dt. With one ([game-loops.md](game-loops.md)):', '',
    table(['loop', 'what a frame does'], loop.kinds.map((k) => [code(k.id), k.description])), '',
    table(['key', 'accepts', 'default', 'unit', 'read by loop='], loop.keys.map((k) =>
      [code(k.key), k.allowed, k.default, k.unit, k.loops + (k.needs_jitter ? ', with jitter > 0' : '')])), '',
    `Rules: ${loop.rules}.`, ''];
}

function scenariosSection(list) {
  const out = ['## Scenarios', '', 'Every scenario is one row of `core/scenarios.cpp`; its keys beside the shared ones:', '',
    table(['id', 'name', 'reference', 'phase plot'], list.scenarios.map((s) =>
      [`[${s.id}](#${s.id})`, s.name, s.reference, s.phase_plot])), ''];
  for (const s of list.scenarios) {
    out.push(`### ${s.id}`, '', `**${s.name}.** ${s.description}`, '');
    if (s.params.length) {
      out.push(table(['key', 'meaning', 'range', 'default', 'unit'], s.params.map((p) =>
        [code(p.key), `${p.label}: ${p.meaning}`, range(p.min, p.max, p.min_exclusive) + (p.dims === 2 ? ' (each of x,y)' : ''),
          p.default.map(num).join(','), p.unit])), '');
    }
    if (s.rules) out.push(`Rules: ${s.rules}.`, '');
    if (s.scene) out.push(`Default scene: ${code(s.scene)}.`, '');
    if (s.presets.length) out.push(`Presets: ${s.presets.map((id) => `[${id}](#preset-${id})`).join(', ')}.`, '');
  }
  return out;
}

function presetsSection(list) {
  const scenarioOf = Object.fromEntries(list.scenarios.flatMap((s) => s.presets.map((p) => [p, s.id])));
  const out = ['## Presets', '', '`preset=ID` opens one; the link\'s other keys override it.', ''];
  for (const p of list.presets) {
    out.push(`<a id="preset-${p.id}"></a>**\`${p.id}\`** (${scenarioOf[p.id]}): ${p.name}. ${p.description}`, '',
      '```text', p.query, '```', '');
  }
  return out;
}

function sceneSection(list) {
  const field = (f) => [code(f.name), f.meaning,
    f.words.length ? f.words.map(code).join(', ') : range(f.min, f.max, f.min_exclusive, f.whole),
    f.default === null ? '—' : (f.words.length ? code(f.words[f.default]) : num(f.default)), f.unit];
  const out = ['## Scene items', '',
    '`scenario=scene` reads `scene`, items separated by `;`, each `KIND:ARGUMENTS` with `,FIELD:VALUE` pairs',
    '([config.md](config.md#scenes-you-build-scenarioscene)). A field left out takes its default (—: the',
    'meaning says what it is then).', ''];
  for (const k of list.scene.kinds) {
    out.push(`### \`${k.id}\`: ${k.name}`, '', `${k.meaning[0].toUpperCase()}${k.meaning.slice(1)}.`, '');
    if (k.fields.length) out.push(table(['field', 'meaning', 'range', 'default', 'unit'], k.fields.map(field)), '');
  }
  return out;
}

function integratorsSection(list) {
  const regimes = list.order_regimes.filter((r) => r.id !== 'free_motion');
  const family = Object.fromEntries(list.families.map((f) => [f.id, f.name]));
  const order = (o) => (o === null ? '—' : o);
  return ['## Integrators', '',
    'The orders by kind of system (— : no order in dt), as `core/integrators.cpp` claims them and',
    '`tests/test_orders.cpp` measures them ([config.md](config.md#what-order-holds-where)); on a system',
    'with no force at all every fixed-step method is exact.', '',
    table(['kind of system', 'what it is'], list.order_regimes.map((r) => [code(r.id), r.text])), '',
    table(['id', 'name', 'family', ...regimes.map((r) => code(r.id)), 'force evaluations a step', 'symplectic', 'implicit'],
      list.integrators.map((i) => [code(i.id), i.name, family[i.family] ?? i.family, ...regimes.map((r) => order(i.orders[r.id])),
        i.evaluations_note, i.symplectic ? 'yes' : 'no', i.implicit ? 'yes' : 'no'])), '',
    ...list.integrators.flatMap((i) => [`**\`${i.id}\`**: ${i.description}${i.order_note ? ` ${i.order_note}` : ''}`, '']),
    `\`${list.reference_id}\` in \`integrators\` lists the reference's own rows.`, ''];
}

function viewsSection(list) {
  return ['## Views and languages', '',
    table(['view', 'name', 'what it shows'], list.views.map((v) => [code(v.id), v.name, v.description])), '',
    table(['lang', 'language'], list.languages.map((l) => [code(l.id), l.name])), ''];
}

function messagesSection(list) {
  return ['## Messages', '',
    'Every refusal is a code with named arguments ({key}, {got}, …); the English text is the template',
    'filled in (`core/messages.cpp`). `allowed` names one of the ways of saying a range below.', '',
    table(['code', 'template'], list.messages.map((m) => [code(m.code), m.text])), '',
    table(['allowed', 'template'], list.allowed_forms.map((m) => [code(m.code), m.text])), ''];
}

export function reference(cli = defaultCli()) {
  const listed = runCli(cli, ['list', '--format', 'json']);
  if (listed.status !== 0) throw new Error(`stepwise list --format json exited ${listed.status}`);
  const list = JSON.parse(listed.stdout);
  const lines = ['# Reference: the config format and the command line', '',
    '<!-- Generated by scripts/gen-reference.mjs from `stepwise list --format json` and `stepwise --help`;',
    '     do not edit: run `node scripts/gen-reference.mjs`. tests/docs/reference.test.mjs checks it. -->', '',
    'Every range, default and list on this page is read from the core\'s tables, so it is the one the',
    'parser applies. The hand-written guide to the same format, with the reasons and examples:',
    '[config.md](config.md); the commands at work: [cli.md](cli.md).', '',
    '[The command line](#the-command-line) · [Shared keys](#keys-every-system-shares) · [Lanes](#lanes) ·',
    '[Game loop](#game-loop) · [Limits](#limits) · [Scenarios](#scenarios) · [Presets](#presets) ·',
    '[Scene items](#scene-items) · [Integrators](#integrators) · [Views](#views-and-languages) · [Messages](#messages)', '',
    ...cliSection(cli), ...sharedKeysSection(cli, list), ...lanesSection(list), ...loopSection(list), ...limitsSection(list),
    ...scenariosSection(list), ...presetsSection(list), ...sceneSection(list), ...integratorsSection(list),
    ...viewsSection(list), ...messagesSection(list)];
  return `${lines.join('\n').trimEnd()}\n`;
}

// The README's row of integrators (its table of what is inside names every method:
// tests/docs/readme.test.mjs), written from the same table so that a new method is not one more
// file to edit: every integrator in the table's order, the adaptive reference last.
export function readmeIntegratorsRow(cli = defaultCli()) {
  const list = JSON.parse(runCli(cli, ['list', '--format', 'json']).stdout);
  const stepping = list.integrators.filter((i) => i.family !== 'solver' && !i.adaptive);
  const adaptive = list.integrators.filter((i) => i.adaptive);
  return `| **Integrators** | ${stepping.map((i) => code(i.id)).join(', ')}, ` +
    `${adaptive.map((i) => `and the adaptive ${code(i.id)} (${i.name})`).join(', ')} that is also the reference where no closed form exists |`;
}
// The README with that row put in place of the one it has.
export function readmeWithRow(text, row) {
  return text.replace(/^\| \*\*Integrators\*\* \|.*$/m, row);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(referencePath, reference());
  console.log(`${path.relative(root, referencePath)}: ${fs.statSync(referencePath).size} bytes`);
  fs.writeFileSync(readmePath, readmeWithRow(fs.readFileSync(readmePath, 'utf8'), readmeIntegratorsRow()));
  console.log(`${path.relative(root, readmePath)}: its integrators row`);
}
