// Every `stepwise …` command the README and docs/*.md print is run, and must do what the doc says
// (issue 31 §3, F1: accuracy.md once printed `--every 100000000`, over the CLI's limit of 10^7, so
// two of its commands exited 64 and nothing noticed).
//
// What a doc prints, and how this reads it:
//  - a ```sh fence whose lines start with `$ ` is a transcript: each `$ ` line is run, and every
//    other line of the fence but `...` must be a line of what it printed;
//  - any other ```sh fence is a script: bash runs it whole with `set -eo pipefail`, so a command
//    that fails, or a pipe whose reader fails (a grep that matches nothing), fails it;
//  - an inline `stepwise COMMAND 'QUERY' …` with a whole query (no …, QUERY or CONFIG in it) is run
//    as a command;
//  - a command that is an error on purpose ends with the comment `# exits N`, and must exit N;
//  - a synopsis with placeholders (`'QUERY' [--steps N]`) is a ```text fence, not a command.
// `stepwise` is the built CLI (STEPWISE_BIN, as ctest passes it). Each command is bounded by the
// CLI's own limits (at most 10^7 steps); a timeout of 15 minutes only guards against a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(import.meta.dirname, '../..');
const cli = process.env.STEPWISE_BIN || path.join(root, 'build/native/stepwise');
const docs = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

// A folder holding `stepwise`, put first on the PATH: the CLI under test, with the run-time budget
// of the commands that have one raised to an hour where the doc gives none (what a command may do
// is bounded by its work, at most 10^7 steps; the default 60 s of wall clock would make the test
// depend on how busy the machine is).
const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-docs-'));
fs.writeFileSync(path.join(bin, 'stepwise'), `#!/bin/sh
case "$1" in run|cloud|convergence) case " $* " in *" --budget "*) ;; *) set -- "$@" --budget 3600 ;; esac ;; esac
exec ${JSON.stringify(path.resolve(cli))} "$@"
`, { mode: 0o755 });
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, LC_ALL: 'C' };

const fence = /^( *)```(\w*)\n([\s\S]*?)^\1```/gm;
const expectedExit = (line) => Number(/#\s*exits (\d+)\s*$/.exec(line)?.[1] ?? 0);

// The commands of one doc: { where, kind: 'script' | 'transcript' | 'inline', text, output? }.
export function commandsOf(file, text) {
  const out = [];
  const lineOf = (index) => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(fence)) {
    const [, indent, lang, raw] = m;
    const body = raw.split('\n').map((l) => l.slice(indent.length)).join('\n');
    if (lang !== 'sh' || !/(^|[\s|(])stepwise /m.test(body)) continue;
    const where = `${file}:${lineOf(m.index)}`;
    const lines = body.split('\n').filter((l) => l !== '');
    if (lines.some((l) => l.startsWith('$ '))) {
      let current = null;
      for (const l of lines) {
        if (l.startsWith('$ ')) out.push((current = { where, kind: 'transcript', text: l.slice(2), output: [] }));
        else if (current && l !== '...') current.output.push(l);
      }
    } else out.push({ where, kind: 'script', text: body });
  }
  const prose = text.replace(fence, (block) => block.replace(/[^\n]/g, ' '));
  for (const m of prose.matchAll(/`(stepwise \w+ '[^'`]*=[^'`]*'[^`]*)`/g)) {
    if (/…|\.\.\.|QUERY|CONFIG/.test(m[1])) continue;
    out.push({ where: `${file}:${lineOf(m.index)}`, kind: 'inline', text: m[1] });
  }
  return out;
}

// A script with each `# exits N` line turned into a check of that status.
function scriptOf(text) {
  const body = text.split('\n').map((line) => {
    const n = expectedExit(line);
    if (!n) return line;
    return `set +e; ${line.replace(/#\s*exits \d+\s*$/, '')}\nrc=$?; set -e; [ "$rc" -eq ${n} ] || { echo "expected exit ${n}, got $rc" >&2; exit 1; }`;
  });
  return `set -eo pipefail\n${body.join('\n')}\n`;
}

function run(command) {
  const script = scriptOf(command.text);
  const r = spawnSync('bash', ['-c', script], { cwd: root, env, encoding: 'utf8', maxBuffer: 1 << 28, timeout: 900_000 });
  return { status: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

const all = docs.flatMap((file) => commandsOf(file, fs.readFileSync(path.join(root, file), 'utf8')));

test('the docs print commands, and this test finds them', () => {
  // A reader that found nothing would pass every doc: count what each kind holds.
  const kinds = (k) => all.filter((c) => c.kind === k).length;
  assert.ok(kinds('script') >= 30, `scripts: ${kinds('script')}`);
  assert.ok(kinds('transcript') >= 4, `transcripts: ${kinds('transcript')}`);
  assert.ok(kinds('inline') >= 5, `inline commands: ${kinds('inline')}`);
});

test('the reader tells a script, a transcript, an inline command and an error on purpose apart', () => {
  const doc = ['```sh', "stepwise check 'dt=0'   # exits 2", '```', '', '```sh', "$ stepwise check 'dt=0.5'", 'dt=0.5', '...', '```',
    '', "See `stepwise run 'preset=constant_force' --steps 1` and `stepwise run 'QUERY'`.", '', '```text',
    "stepwise run 'QUERY' [--steps N]", '```'].join('\n');
  const found = commandsOf('x.md', doc);
  assert.deepEqual(found.map((c) => c.kind), ['script', 'transcript', 'inline']);
  assert.deepEqual(found[1].output, ['dt=0.5']);
  // An error on purpose passes only with the status it names.
  assert.equal(run(found[0]).status, 0);
  assert.notEqual(run({ kind: 'script', text: "stepwise check 'dt=0'   # exits 3" }).status, 0);
  assert.notEqual(run({ kind: 'script', text: "stepwise run 'preset=constant_force' --every 100000000" }).status, 0);
});

for (const command of all) {
  test(`${command.where}: ${command.text.split('\n').find((l) => /stepwise /.test(l)).trim().slice(0, 140)}`, () => {
    const r = run(command);
    assert.equal(r.signal, null, `killed (${r.signal}) after the guard's timeout`);
    assert.equal(r.status, 0, `exit ${r.status}\n${r.stderr.slice(-2000)}`);
    if (command.kind === 'transcript') {
      const printed = new Set(r.stdout.split('\n'));
      for (const line of command.output) assert.ok(printed.has(line), `the doc shows '${line}', the command did not print it`);
    }
  });
}
