#!/usr/bin/env node
// Checks that the fixes diagnostics offer compile (docs/diagnostics.md). Each case in
// CASES_DIR is a .tile input whose first line is `// FIX: Ennnn [flags...]`: compiled with
// the flags, it must report Ennnn. Then
//   - without a NAME.fixed.tile beside it, every Ennnn must carry machine-readable fixes
//     (the JSON `fixes`), each replacement must appear in the diagnostic's message or notes
//     (the message offers the edit it makes), and the input with all of them applied must
//     compile with the same flags: exit 0 and no error;
//   - with NAME.fixed.tile, the fix is one tilec cannot make as an edit (a kernel split in
//     two, a tile padded): that file is the input as the message says to change it, and it
//     must compile, once per `// COMPILE: flags` line in it (once with no flags when it has
//     none).
//   node check-fixes.js TILEC CASES_DIR WORK_DIR
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const [tilec, casesDir, workDir] = process.argv.slice(2);
fs.mkdirSync(workDir, { recursive: true });
const problems = [];

function compile(file, flags) {
  const out = path.join(workDir, 'out');
  const r = spawnSync(tilec, [file, ...flags, '--diagnostics-format=json', '-o', out], { encoding: 'utf8' });
  const diagnostics = r.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  return { status: r.status, diagnostics, stderr: r.stderr };
}

function clean(what, result) {
  const errors = result.diagnostics.filter((d) => d.level === 'error');
  if (result.status !== 0 || errors.length)
    problems.push(`${what} does not compile (exit ${result.status}): ${result.stderr.slice(0, 600)}`);
}

// Applies byte-range edits, last first, so earlier offsets stay valid.
function applied(bytes, fixes) {
  const sorted = [...fixes].sort((a, b) => b.byte_start - a.byte_start);
  for (let i = 1; i < sorted.length; ++i)
    if (sorted[i].byte_end > sorted[i - 1].byte_start) throw new Error('overlapping fixes');
  let out = bytes;
  for (const f of sorted)
    out = Buffer.concat([out.subarray(0, f.byte_start), Buffer.from(f.replacement, 'utf8'), out.subarray(f.byte_end)]);
  return out;
}

const cases = fs.readdirSync(casesDir).filter((f) => f.endsWith('.tile') && !f.endsWith('.fixed.tile')).sort();
for (const name of cases) {
  const file = path.join(casesDir, name);
  const bytes = fs.readFileSync(file);
  const header = /^\/\/ FIX: (E\d{4})(.*)$/m.exec(bytes.toString('utf8').split('\n')[0]);
  if (!header) { problems.push(`${name}: the first line is not // FIX: Ennnn [flags]`); continue; }
  const code = header[1];
  const flags = header[2].trim().split(/\s+/).filter(Boolean);
  const found = compile(file, flags).diagnostics.filter((d) => d.code === code);
  if (!found.length) { problems.push(`${name}: reports no ${code}`); continue; }
  const fixedFile = file.replace(/\.tile$/, '.fixed.tile');
  if (fs.existsSync(fixedFile)) {
    const compiles = [...fs.readFileSync(fixedFile, 'utf8').matchAll(/^\/\/ COMPILE:(.*)$/gm)].map((m) => m[1].trim().split(/\s+/).filter(Boolean));
    for (const f of compiles.length ? compiles : [[]]) clean(`${path.basename(fixedFile)} ${f.join(' ')}`, compile(fixedFile, f));
    continue;
  }
  const fixes = [];
  for (const d of found) {
    if (!d.fixes) { problems.push(`${name}: ${code} "${d.message}" offers no machine-readable fix`); continue; }
    const said = [d.message, ...d.notes.map((n) => n.message)].join('\n');
    for (const f of d.fixes) {
      if (!said.includes(f.replacement.trim()))
        problems.push(`${name}: ${code}'s fix writes "${f.replacement}", which its message "${d.message}" does not offer`);
      fixes.push(f);
    }
  }
  if (!fixes.length) continue;
  const fixedCopy = path.join(workDir, name);
  fs.writeFileSync(fixedCopy, applied(bytes, fixes));
  clean(`${name} with its fixes applied`, compile(fixedCopy, flags));
}
for (const p of problems) console.log(p);
console.log(`${cases.length} fix cases checked; ${problems.length} problems`);
process.exit(problems.length || cases.length === 0 ? 1 : 0);
