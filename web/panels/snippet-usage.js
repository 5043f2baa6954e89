// The call that puts one integrator's step into the loop around it (snippets/<lang>/loop.*,
// docs/snippets.md): for each language and each variant (the spring step, the any-force step),
// a few lines that make the loop and, each frame, hand it that step. The Step code dialog shows
// them under "The loop around it" (scripts/snippets-module.mjs writes them into the page's
// snippets-data.js); tests/snippets/snippets.test.mjs runs them, as they are, in JavaScript, C++
// and C# against `stepwise run` with loop=accumulator.
//
// The step's arguments are its own parameters, named as in the JavaScript snippet (the four
// languages take them in the same order): body and h are the loop's, the rest (spring, carry,
// accel, jacobian, dissipate, forces) the caller's, as the step file describes them.
// A game-physics solver's step (its parameters start with bodies, constraints) has one variant,
// `constraints`: the loop keeps the time and the solver steps the whole world in its callback, with
// the settings the step's own defaults give (iterations, and PBD's stiffness or Baumgarte's β).
// The comments are written in the page's language (t(): English in node, where the build and the
// tests call this); the code is the same in every language.
import { t } from '../common/language.js';

// The example loop: 60 frames a second, 4 substeps, at most 8 steps a frame.
export const example = { hz: 60, substeps: 4, maxSteps: 8 };

// The loop's settings for a lane of S substeps (and a solver's I iterations, 0: the step's
// default): the example's frame rate, S substeps, a cap of 2·S steps a frame (the example's ratio).
export const laneLoop = (substeps, iterations = 0) => ({ hz: example.hz, substeps, maxSteps: 2 * substeps, iterations });

// The loop's numbers in words: "60 frames a second, 4 substeps (h = 1/240 s), at most 8 steps a frame".
const frameWords = ({ hz, substeps, maxSteps }) => t('{hz} frames a second, {substeps} substeps (h = 1/{rate} s), at most {most} steps a frame',
  { hz, substeps, rate: hz * substeps, most: maxSteps });
// The comment above each frame's call: the frame's time by its variable's name.
const eachFrame = (name) => t('Each frame, {name} after the last one:', { name });
const eachFrameSeconds = (name) => t('Each frame, {name} seconds after the last one:', { name });

// explicit_euler -> ExplicitEuler: the C# class and the GDScript preload constant.
export const pascal = (id) => id.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('');

// The parameters of a JavaScript snippet's exported function: [name, default or undefined].
function declared(jsCode, name) {
  const m = jsCode.match(new RegExp(`^export function ${name}\\(([^)]*)\\)`, 'm'));
  if (!m) throw new Error(`the JavaScript snippet has no exported ${name}()`);
  return m[1].split(',').map((p) => p.split('=').map((s) => s.trim())).filter(([n]) => n);
}
// Their names alone.
const parameters = (jsCode, name) => declared(jsCode, name).map(([n]) => n);

// Whether a snippet is a game-physics solver's: its step takes bodies and constraints.
export const isSolver = (jsCode) => parameters(jsCode, 'step').slice(0, 2).join() === 'bodies,constraints';

// A solver's call in the loop: {lang: {constraints: {imports, setup, frame, after, text}}}. The
// arguments after accel are the step's own defaults (its iterations; PBD's stiffness, Baumgarte's β),
// the iterations the lane's own when `iterations` is given (> 0).
function solverUsage(id, jsCode, { hz, substeps, maxSteps, iterations = 0 }) {
  const settings = declared(jsCode, 'step').slice(4).map(([name, value]) => [name, name === 'iterations' && iterations > 0 ? String(iterations) : value]);
  const values = settings.map(([, value]) => value);
  const P = pascal(id);
  const lane = iterations > 0 ? `${id}@${substeps}x${iterations}` : `${id}@${substeps}`;
  const list = settings.map(([name, value]) => `${name} ${value}`).join(', ');
  const words = `${frameWords({ hz, substeps, maxSteps })};\n` + (iterations > 0
    ? t("{settings} (Stepwise's lane {lane})", { settings: list, lane })
    : t("{settings} (Stepwise's lane {lane} at the defaults)", { settings: list, lane }));
  // Why the loop's own body is a stand-in, said once per language.
  const standIn = [t('The loop keeps the time and calls the step; the solver moves every body in place'), t('(the loop\'s own body stands still: it interpolates one body, not a world).')];
  const cpp = {
    imports: [],
    setup: [
      `// ${t("{file}'s step in the loop ({loop}); bodies, constraints and accel as {file} describes them.", { file: `${id}.cpp`, loop: 'loop.cpp' })}`,
      ...standIn.map((l) => `// ${l}`),
      ...words.split('\n').map((l) => `// ${l}:`.replace(/;:$/, ';')),
      `FixedStepLoop<${id}::Body> loop(${id}::Body{}, ${hz}, ${substeps}, ${maxSteps});`,
    ],
    frame: [
      `// ${eachFrame('frame_seconds')}`,
      `loop.frame(frame_seconds, [&](${id}::Body&, double h) {`,
      `    ${id}::step(bodies, constraints, h, accel, ${values.join(', ')});`,
      '});',
    ],
    after: [`// ${t('Draw the bodies; {dropped} counts the steps the cap dropped.', { dropped: 'loop.dropped' })}`],
  };
  const cs = {
    imports: [],
    setup: [
      `// ${t("{name}'s step ({file}) in the loop ({loop}); bodies, constraints and accel as {file} describes them.", { name: P, file: `${id}.cs`, loop: 'loop.cs' })}`,
      ...standIn.map((l) => `// ${l}`),
      ...words.split('\n').map((l) => `// ${l}:`.replace(/;:$/, ';')),
      `var loop = new FixedStepLoop<${P}.Body>(new ${P}.Body(), ${hz}, ${substeps}, ${maxSteps});`,
    ],
    frame: [
      `// ${eachFrame('frameSeconds')}`,
      `loop.Frame(frameSeconds, (ref ${P}.Body b, double h) =>`,
      `    ${P}.Step(bodies, constraints, h, accel, ${values.join(', ')}));`,
    ],
    after: [`// ${t('Draw the bodies; {dropped} counts the steps the cap dropped.', { dropped: 'loop.Dropped' })}`],
  };
  const js = {
    imports: [`import { step } from './${id}.js';`, "import { FixedStepLoop } from './loop.js';"],
    setup: [
      `// ${t("{file}'s step in the loop ({loop}); bodies, constraints and accel as {file} describes them.", { file: `${id}.js`, loop: 'loop.js' })}`,
      ...standIn.map((l) => `// ${l}`),
      ...words.split('\n').map((l) => `// ${l}:`.replace(/;:$/, ';')),
      `const loop = new FixedStepLoop({ x: 0, y: 0, vx: 0, vy: 0 }, ${hz}, ${substeps}, ${maxSteps});`,
    ],
    frame: [
      `// ${eachFrame('frameSeconds')}`,
      `loop.frame(frameSeconds, (_, h) => step(bodies, constraints, h, accel, ${values.join(', ')}));`,
    ],
    after: [`// ${t('Draw the bodies; {dropped} counts the steps the cap dropped.', { dropped: 'loop.dropped' })}`],
  };
  const gd = {
    imports: [`const ${P} = preload("res://steps/${id}.gd")`, 'const FixedStepLoop = preload("res://steps/loop.gd")'],
    setup: [
      `# ${t("{name}'s step in the loop; bodies, constraints and accel as {file} describes them.", { name: P, file: `${id}.gd` })}`,
      ...standIn.map((l) => `# ${l}`),
      ...words.split('\n').map((l) => `# ${l}:`.replace(/;:$/, ';')),
      `var loop := FixedStepLoop.new(${P}.Body.new(), ${hz}.0, ${substeps}, ${maxSteps})`,
    ],
    frame: [
      `# ${eachFrameSeconds('delta')}`,
      'func _process(delta: float) -> void:',
      `\tloop.frame(delta, func(_b, h): ${P}.step(bodies, constraints, h, accel, ${values.join(', ')}))`,
    ],
    after: [`# ${t('Draw the bodies; {dropped} counts the steps the cap dropped.', { dropped: 'loop.dropped' })}`],
  };
  const out = {};
  for (const [lang, u] of Object.entries({ cpp, cs, js, gd })) {
    u.text = [...u.imports, ...(u.imports.length ? [''] : []), ...u.setup, ...u.frame, ...u.after].join('\n') + '\n';
    out[lang] = { constraints: u };
  }
  return out;
}

// The loop's usage for one integrator: {lang: {variant: {imports, setup, frame, after, text}}}
// (variants on-a-spring and any-force; a solver's: constraints).
// setup runs once, frame every frame (it reads frameSeconds / frame_seconds / delta and makes
// the state to draw); text is the whole, as the dialog shows it. settings: the loop's numbers
// (the test runs the usage at its cases' own).
export function loopUsage(id, jsCode, settings = example) {
  if (isSolver(jsCode)) return solverUsage(id, jsCode, settings);
  const out = {};
  for (const variant of ['on-a-spring', 'any-force']) {
    const fn = variant === 'on-a-spring' ? 'stepSpring' : 'step';
    const params = parameters(jsCode, fn);
    const carry = params.includes('carry');
    const args = (body) => params.map((p) => (p === 'body' ? body : p));
    const { hz, substeps, maxSteps } = settings;
    const words = frameWords(settings);
    const P = pascal(id);
    const cppArgs = args('b').flatMap((a) => (a === 'forces' ? ['gravity', 'drag'] : [a]));
    const cpp = {
      imports: [],
      setup: [
        `// ${t("{file}'s step in the loop ({loop}); start is the {body} at t = 0.", { file: `${id}.cpp`, loop: 'loop.cpp', body: `${id}::Body` })}`,
        ...(carry ? [`${id}::Carry carry{};`] : []),
        `// ${words}:`,
        `FixedStepLoop<${id}::Body> loop(start, ${hz}, ${substeps}, ${maxSteps});`,
      ],
      frame: [
        `// ${eachFrame('frame_seconds')}`,
        `const ${id}::Body shown = loop.frame(frame_seconds, [&](${id}::Body& b, double h) {`,
        `    ${id}::${variant === 'on-a-spring' ? 'step_spring' : 'step'}(${cppArgs.join(', ')});`,
        '});',
      ],
      after: [`// ${t('Draw shown; {dropped} counts the steps the cap dropped.', { dropped: 'loop.dropped' })}`],
    };
    if (params.includes('forces')) cpp.setup.splice(1, 0, `// ${t('gravity, drag: forces made with {gravity} and {approximate}.', { gravity: `${id}::gravity`, approximate: `${id}::approximate` })}`);
    const cs = {
      imports: [],
      setup: [
        `// ${t("{name}'s step ({file}) in the loop ({loop}); start is the {body} at t = 0.", { name: P, file: `${id}.cs`, loop: 'loop.cs', body: `${P}.Body` })}`,
        ...(carry ? [`var carry = new ${P}.Carry();`] : []),
        `// ${words}:`,
        `var loop = new FixedStepLoop<${P}.Body>(start, ${hz}, ${substeps}, ${maxSteps});`,
      ],
      frame: [
        `// ${eachFrame('frameSeconds')}`,
        `loop.Frame(frameSeconds, (ref ${P}.Body b, double h) =>`,
        `    ${P}.${variant === 'on-a-spring' ? 'StepSpring' : 'Step'}(${args('ref b').join(', ')}));`,
        'double x = loop.Shown(b => b.X), y = loop.Shown(b => b.Y);',
      ],
      after: [`// ${t('Draw the body at (x, y); {dropped} counts the steps the cap dropped.', { dropped: 'loop.Dropped' })}`],
    };
    const js = {
      imports: [
        `import { ${[...(carry ? ['newCarry'] : []), fn].join(', ')} } from './${id}.js';`,
        "import { FixedStepLoop } from './loop.js';",
      ],
      setup: [
        `// ${t("{file}'s step in the loop ({loop}); start is the body {x, y, vx, vy} at t = 0.", { file: `${id}.js`, loop: 'loop.js' })}`,
        ...(carry ? ['const carry = newCarry();'] : []),
        `// ${words}:`,
        `const loop = new FixedStepLoop(start, ${hz}, ${substeps}, ${maxSteps});`,
      ],
      frame: [
        `// ${eachFrame('frameSeconds')}`,
        `const shown = loop.frame(frameSeconds, (b, h) => ${fn}(${args('b').join(', ')}));`,
      ],
      after: [`// ${t('Draw shown; {dropped} counts the steps the cap dropped.', { dropped: 'loop.dropped' })}`],
    };
    const gd = {
      imports: [
        `const ${P} = preload("res://steps/${id}.gd")`,
        'const FixedStepLoop = preload("res://steps/loop.gd")',
      ],
      setup: [
        `# ${t("{name}'s step in the loop; start is the {body} at t = 0.", { name: P, body: `${P}.Body` })}`,
        ...(carry ? [`var carry := ${P}.Carry.new()`] : []),
        `# ${words}:`,
        `var loop := FixedStepLoop.new(start, ${hz}.0, ${substeps}, ${maxSteps})`,
      ],
      frame: [
        `# ${eachFrameSeconds('delta')}`,
        'func _process(delta: float) -> void:',
        `\tloop.frame(delta, func(b, h): ${P}.${variant === 'on-a-spring' ? 'step_spring' : 'step'}(${args('b').join(', ')}))`,
        '\tposition = Vector2(loop.shown_x, loop.shown_y) * pixels_per_metre',
      ],
      after: [`# ${t('{dropped} counts the steps the cap dropped.', { dropped: 'loop.dropped' })}`],
    };
    for (const [lang, u] of Object.entries({ cpp, cs, js, gd })) {
      u.text = [...u.imports, ...(u.imports.length ? [''] : []), ...u.setup, ...u.frame, ...u.after].join('\n') + '\n';
      (out[lang] ??= {})[variant] = u;
    }
  }
  return out;
}
