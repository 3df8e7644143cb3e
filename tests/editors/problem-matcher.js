// The extension's `tilec` problem matcher (editors/vscode/package.json) applied, the way VS
// Code applies a single-line matcher, to what tilec writes for Inputs/diagnostics.tile: the
// warning, the error and the note must come out with their file, line, column, severity,
// code and message, no other line (source lines, carets) may match, and the file must be
// found from the workspace folder (the source tree) whether tilec was given a relative or
// an absolute path.
// usage: node problem-matcher.js SOURCE_DIR TILEC
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const lib = require('./lib.js');

const [sourceDir, tilec] = process.argv.slice(2);
const INPUT = 'tests/editors/Inputs/diagnostics.tile';

const EXPECTED = [
  { line: 5, column: 3, severity: 'warning', code: 'E0723',
    message: "the result of 'exp' is discarded; bind it: let t2 = exp(t);" },
  { line: 6, column: 20, severity: 'error', code: 'E0701', message: "unknown name 'tt'" },
  { line: 4, column: 7, severity: 'info', code: undefined, message: "did you mean 't'?" },
];

// VS Code reads `error`, `warning`/`warn` and `info` in any case; any other word takes the
// matcher's own severity (error when it has none).
function severity(matcher, word) {
  const known = { error: 'error', warning: 'warning', warn: 'warning', info: 'info' };
  return known[(word || '').toLowerCase()] || matcher.severity || 'error';
}

function match(matcher, line) {
  const m = new RegExp(matcher.pattern.regexp).exec(line);
  if (!m) return null;
  const p = matcher.pattern;
  return {
    file: m[p.file],
    line: Number(m[p.line]),
    column: Number(m[p.column]),
    severity: severity(matcher, m[p.severity]),
    code: m[p.code],
    message: m[p.message],
  };
}

// The file a problem names, resolved as VS Code does for the matcher's fileLocation.
function resolve(matcher, file) {
  const [kind, base] = matcher.fileLocation;
  const workspace = base.replace('${workspaceFolder}', sourceDir);
  if (kind === 'absolute') return file;
  if (kind === 'autoDetect' && path.isAbsolute(file)) return file;
  return path.join(workspace, file);
}

function checkRun(matcher, input) {
  const run = spawnSync(tilec, [input, '-fsyntax-only', '--color=never'], { cwd: sourceDir, encoding: 'utf8' });
  if (run.status !== 1) lib.fail(`tilec ${input} exited ${run.status}, expected 1: ${run.stderr}`);
  const lines = run.stderr.split('\n').filter((l) => l !== '');
  const problems = [];
  for (const line of lines) {
    const problem = match(matcher, line);
    if (problem) problems.push(problem);
    else if (!line.startsWith(' ')) lib.fail(`the matcher misses the diagnostic line '${line}'`);
    if (problem && line.startsWith(' ')) lib.fail(`the matcher takes the source or caret line '${line}'`);
  }
  if (problems.length !== EXPECTED.length)
    lib.fail(`${problems.length} problems from tilec ${input}, expected ${EXPECTED.length}:\n${run.stderr}`);
  EXPECTED.forEach((want, i) => {
    const got = problems[i] || {};
    for (const field of Object.keys(want))
      if (got[field] !== want[field]) lib.fail(`problem ${i + 1} (${input}): ${field} is ${JSON.stringify(got[field])}, expected ${JSON.stringify(want[field])}`);
    if (got.file !== input) lib.fail(`problem ${i + 1}: file is '${got.file}', expected '${input}'`);
    else if (!fs.existsSync(resolve(matcher, got.file))) lib.fail(`problem ${i + 1}: ${resolve(matcher, got.file)} does not exist`);
  });
}

function main() {
  const matchers = lib.readManifest(sourceDir).contributes.problemMatchers || [];
  const matcher = matchers.find((m) => m.name === 'tilec');
  if (!matcher) {
    lib.fail('package.json contributes no problem matcher named tilec');
    return lib.finish('');
  }
  if (matcher.owner !== 'tilec') lib.fail(`the matcher's owner is '${matcher.owner}', expected 'tilec'`);
  if (!Array.isArray(matcher.fileLocation) || matcher.fileLocation[1] !== '${workspaceFolder}')
    lib.fail(`the matcher's fileLocation ${JSON.stringify(matcher.fileLocation)} is not relative to the workspace folder`);
  checkRun(matcher, INPUT);
  checkRun(matcher, path.join(sourceDir, INPUT));
  lib.finish(`the tilec problem matcher reads ${EXPECTED.length} problems from relative and absolute paths`);
}

main();
