// Tokenizes every sample (samples/**/*.tile), the inputs under tests/editors/Inputs and every
// .tile and .tir file under tests/lit (many of them malformed on purpose) with the extension's
// grammars, as VS Code does, and checks:
//   1. every token that is not blank has a scope that says what it is (not only the root or
//      a meta.* region), and the samples and valid inputs have no invalid.* token;
//   2. every occurrence of a keyword or dtype of grammar/Tile.g4 outside comments and
//      strings has a keyword scope, and every call of a built-in the built-in scope;
//   3. the scopes listed in expectations.txt.
// usage: node tokenize.js SOURCE_DIR NODE_MODULES TILEC
'use strict';
const fs = require('fs');
const path = require('path');
const lib = require('./lib.js');

const [sourceDir, modulesDir, tilec] = process.argv.slice(2);

const INPUTS = path.join(sourceDir, 'tests', 'editors', 'Inputs');
// Inputs that contain a character that is not .tile on purpose.
const INVALID_ON_PURPOSE = new Set([path.join(INPUTS, 'lexical.tile')]);

function relative(file) {
  return path.relative(sourceDir, file);
}

function grammarFor(grammars, file) {
  return grammars[file.endsWith('.tir') ? 'source.tir' : 'source.tile'];
}

const inCommentOrString = (token) => token.scopes.some((s) => /^(comment|string)\./.test(s));
const keywordLike = (s) => /^(keyword|storage|constant\.language)\./.test(s);

function checkCoverage(file, lines) {
  const invalidAllowed = INVALID_ON_PURPOSE.has(file) || file.startsWith(path.join(sourceDir, 'tests', 'lit'));
  lines.forEach((line, i) => {
    for (const token of line.tokens) {
      if (!token.text.trim()) continue;
      const where = `${relative(file)}:${i + 1}:${token.start + 1} '${token.text}'`;
      if (!lib.hasSpecificScope(token)) lib.fail(`${where} has no scope of its own: ${token.scopes.join(' ')}`);
      if (!invalidAllowed && token.scopes.some((s) => s.startsWith('invalid.')))
        lib.fail(`${where} is marked invalid: ${token.scopes.join(' ')}`);
    }
  });
}

// Keywords and built-in calls found by the test's own reading of the text, so a token the
// grammar splits or merges wrongly is caught too.
function checkVocabulary(file, lines, keywords, builtins) {
  lines.forEach((line, i) => {
    for (const token of line.tokens) {
      if (inCommentOrString(token)) continue;
      const where = `${relative(file)}:${i + 1}:${token.start + 1}`;
      for (const word of token.text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
        const at = token.start + word.index;
        const called = /^\s*(<[^<>()]*>)?\s*\(/.test(line.text.slice(at + word[0].length)) &&
                       !/\bkernel\s+$/.test(line.text.slice(0, at));
        // `where` is a keyword (the kernel header's) and, called, a built-in.
        const builtinCall = builtins.has(word[0]) && called;
        if (keywords.has(word[0]) && !builtinCall && !(word[0] === token.text && token.scopes.some(keywordLike)))
          lib.fail(`${where} keyword '${word[0]}' has no keyword scope: ${token.scopes.join(' ')}`);
        if (builtins.has(word[0]) && called && !(word[0] === token.text && token.scopes.includes('support.function.builtin.tile')))
          lib.fail(`${where} call of the built-in '${word[0]}' is not support.function.builtin.tile: ${token.scopes.join(' ')}`);
      }
    }
  });
}

// FILE:LINE `TEXT`[#N] SCOPE [!SCOPE ...]
function parseExpectations(text) {
  const out = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim() || line.startsWith('#')) return;
    const m = line.match(/^(\S+):(\d+) `([^`]+)`(?:#(\d+))?((?: +!?[A-Za-z0-9_.-]+)+)$/);
    if (!m) return lib.fail(`expectations.txt:${i + 1}: cannot read '${line}'`);
    const scopes = m[5].trim().split(/ +/);
    out.push({
      source: `expectations.txt:${i + 1}`,
      file: m[1],
      line: Number(m[2]),
      text: m[3],
      occurrence: Number(m[4] || 1),
      present: scopes.filter((s) => !s.startsWith('!')),
      absent: scopes.filter((s) => s.startsWith('!')).map((s) => s.slice(1)),
    });
  });
  return out;
}

const isWordChar = (c) => c !== undefined && /[A-Za-z0-9_]/.test(c);

// Where the N-th occurrence of `needle` starts; a needle that begins or ends with a word
// character only occurs where it is not part of a longer word (`x` is not in `softmax`).
function occurrenceStart(text, needle, occurrence) {
  let at = -1;
  for (let n = 0; n < occurrence; ) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) return -1;
    const joinsBefore = isWordChar(needle[0]) && isWordChar(text[at - 1]);
    const joinsAfter = isWordChar(needle[needle.length - 1]) && isWordChar(text[at + needle.length]);
    if (!joinsBefore && !joinsAfter) n++;
  }
  return at;
}

function checkExpectation(e, line) {
  const start = line ? occurrenceStart(line.text, e.text, e.occurrence) : -1;
  if (start < 0) return lib.fail(`${e.source}: ${e.file}:${e.line} has no occurrence ${e.occurrence} of '${e.text}'`);
  for (const token of line.tokens) {
    if (token.end <= start || token.start >= start + e.text.length) continue;
    const missing = e.present.filter((s) => !token.scopes.includes(s));
    const unwanted = e.absent.filter((s) => token.scopes.includes(s));
    if (missing.length || unwanted.length)
      lib.fail(`${e.source}: '${token.text}' in '${e.text}' (${e.file}:${e.line}) has ${token.scopes.join(' ')}` +
               (missing.length ? `; lacks ${missing.join(' ')}` : '') +
               (unwanted.length ? `; must not have ${unwanted.join(' ')}` : ''));
  }
}

async function main() {
  const grammars = await lib.loadGrammars(sourceDir, modulesDir);
  const files = [
    ...lib.filesUnder(path.join(sourceDir, 'samples'), '.tile'),
    ...lib.filesUnder(INPUTS, '.tile'),
    ...lib.filesUnder(INPUTS, '.tir'),
    ...lib.filesUnder(path.join(sourceDir, 'tests', 'lit'), '.tile'),
    ...lib.filesUnder(path.join(sourceDir, 'tests', 'lit'), '.tir'),
  ];
  const keywords = new Set([...lib.lexerKeywords(sourceDir), ...lib.lexerDtypes(sourceDir)]);
  const builtins = new Set(lib.builtinNames(tilec));
  const tokenized = new Map();
  let tokens = 0;
  for (const file of files) {
    const lines = lib.tokenize(grammarFor(grammars, file), fs.readFileSync(file, 'utf8'));
    tokenized.set(relative(file), lines);
    tokens += lines.reduce((n, l) => n + l.tokens.length, 0);
    checkCoverage(file, lines);
    if (file.endsWith('.tile')) checkVocabulary(file, lines, keywords, builtins);
  }
  const expectations = parseExpectations(fs.readFileSync(path.join(__dirname, 'expectations.txt'), 'utf8'));
  for (const e of expectations) {
    const lines = tokenized.get(e.file);
    if (!lines) lib.fail(`${e.source}: ${e.file} is not among the tokenized files`);
    else checkExpectation(e, lines[e.line - 1]);
  }
  lib.finish(`${files.length} files, ${tokens} tokens, ${expectations.length} expectations`);
}

main().catch((e) => {
  console.error(`FAIL: ${e.stack || e}`);
  process.exit(1);
});
