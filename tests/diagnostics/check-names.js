#!/usr/bin/env node
// Checks every diagnostic of the survey records (tee-tilec.sh) against the rule of
// docs/diagnostics.md, "Names in messages": a message, note or fix names what the author
// wrote, never the compiler's internals. Fails on
//   - an IR value name: `%` followed by a letter, digit or `_`;
//   - an IR op name: any name of the op table (src/ir/Ops.def), `tile.load` say;
//   - a quoted identifier that is none of the author's words: not a word of the input files
//     (the sources the run read, and any file a diagnostic points into), of the command
//     line, or of the language (the grammar's keywords), so a name a pass or the printer
//     made ('x_left', 'acc_lhs0_page', 'tmp', 'x_1') is caught;
//   - a message longer than MAX_MESSAGE characters: every list and every quoted piece of
//     source in a message is bounded.
// A run whose input is IR text (.tir) is held only to the last two: its author wrote the
// IR, so `%x` and `tile.load` are the author's own words there.
//   node check-names.js SURVEY_DIR OPS_DEF GRAMMAR     (the records anywhere under SURVEY_DIR)
'use strict';
const fs = require('fs');
const path = require('path');

const MAX_MESSAGE = 1000;
const [surveyDir, opsDef, grammar] = process.argv.slice(2);

const opNames = [...fs.readFileSync(opsDef, 'utf8').matchAll(/^TILEC_OP\(\s*\w+,\s*"([a-z_]+\.[a-z_0-9]+)"/gm)].map((m) => m[1]);
if (opNames.length < 10) throw new Error(`read only ${opNames.length} op names from ${opsDef}`);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const opName = new RegExp(`(?<![\\w.])(${opNames.map(escape).join('|')})(?![\\w])`);
const irValue = /%[A-Za-z0-9_]/;
const keywords = new Set([...fs.readFileSync(grammar, 'utf8').matchAll(/'([A-Za-z_]\w*)'/g)].map((m) => m[1]));

const wordsOf = (text) => new Set(text.match(/[A-Za-z_]\w*/g) || []);
const fileWords = new Map();
function wordsOfFile(file) {
  if (!fileWords.has(file)) {
    let words = new Set();
    try { words = wordsOf(fs.readFileSync(file, 'latin1')); } catch (e) { /* not a file this run can read */ }
    fileWords.set(file, words);
  }
  return fileWords.get(file);
}

// Text diagnostics: `file:line:col: error[E0123]: message`, `tilec: error[...]: message`,
// and note lines; JSON Lines diagnostics (--diagnostics-format=json) carry their notes and fixes.
const textHeader = /^(?:(.*?):(\d+):(\d+): |tilec: )?(error|warning|note)(?:\[E\d{4}\])?: (.*)$/;
function diagnosticsOf(lines) {
  const out = [];
  for (const line of lines) {
    if (line.startsWith('{"$message_type":"diagnostic"')) {
      const d = JSON.parse(line);
      out.push({ file: d.file, text: d.message, what: `${d.code} message` });
      for (const n of d.notes) out.push({ file: n.file, text: n.message, what: `${d.code} note` });
      for (const f of d.fixes || []) out.push({ file: f.file, text: f.replacement, what: `${d.code} fix` });
      continue;
    }
    const m = textHeader.exec(line);
    if (m) out.push({ file: m[1], text: m[5], what: m[4] });
  }
  return out;
}

const problems = [];
let checked = 0;
function recordsUnder(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...recordsUnder(full));
    else if (/^run\.\w+$/.test(entry.name)) out.push(full);
  }
  return out;
}
const records = recordsUnder(surveyDir).sort();
for (const record of records) {
  const lines = fs.readFileSync(record, 'utf8').split('\n');
  const end = lines.indexOf('---');
  const args = lines.slice(0, end).filter((l) => l.startsWith('arg ')).map((l) => l.slice(4));
  const inputs = lines.slice(0, end).filter((l) => l.startsWith('input ')).map((l) => l.slice(6));
  const irText = args.some((a) => a.endsWith('.tir') || a === '--input-kind=tir');
  const known = new Set([...keywords, ...wordsOf(args.join(' '))]);
  for (const file of inputs) for (const w of wordsOfFile(file)) known.add(w);
  for (const d of diagnosticsOf(lines.slice(end + 1))) {
    ++checked;
    if (d.file) for (const w of wordsOfFile(path.resolve(d.file))) known.add(w);
    const found = [];
    if (d.text.length > MAX_MESSAGE) found.push(`${d.text.length} characters long (at most ${MAX_MESSAGE})`);
    if (!irText && irValue.test(d.text)) found.push(`an IR value name (${irValue.exec(d.text)[0]}...)`);
    if (!irText && opName.test(d.text)) found.push(`the IR op name ${opName.exec(d.text)[1]}`);
    for (const m of d.text.matchAll(/'([A-Za-z_]\w*)'/g))
      if (!known.has(m[1])) found.push(`'${m[1]}', which the author never wrote`);
    if (found.length)
      problems.push(`${d.what} "${d.text.slice(0, 300)}"\n    in tilec ${args.join(' ').slice(0, 300)}\n    names ${found.join('; ')}`);
  }
}
for (const p of problems) console.log(p);
console.log(`${checked} diagnostics (messages, notes and fixes) from ${records.length} tilec runs checked; ${problems.length} break the rule`);
if (checked < 500) { console.log('too few diagnostics: the survey did not run'); process.exit(1); }
process.exit(problems.length ? 1 : 0);
