// Shared by the editors/ tests: the npm tools (tests/npm, installed by scripts/setup.sh),
// the VS Code extension's files, the compiler's vocabulary, and tokenizing with the
// extension's TextMate grammars the way VS Code does (vscode-textmate + vscode-oniguruma).
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const EXTENSION_DIR = path.join('editors', 'vscode');

let failures = 0;

function fail(message) {
  failures++;
  console.error(`FAIL: ${message}`);
}

// Ends the test: exit 1 when any check failed.
function finish(what) {
  if (failures > 0) {
    console.error(`${failures} check(s) failed`);
    process.exit(1);
  }
  console.log(`ok: ${what}`);
}

// A missing tool is a failure, never a skip: the test cannot say anything without it.
function requireTool(modulesDir, name) {
  const dir = path.resolve(modulesDir, name);
  if (!fs.existsSync(dir)) {
    console.error(`FAIL: ${dir} is missing; run scripts/setup.sh to install the npm test tools`);
    process.exit(1);
  }
  return require(dir);
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function readManifest(sourceDir) {
  return readJson(path.join(sourceDir, EXTENSION_DIR, 'package.json'));
}

// The extension's grammars by scope name: { scopeName: absolute path }.
function grammarFiles(sourceDir) {
  const files = {};
  for (const g of readManifest(sourceDir).contributes.grammars)
    files[g.scopeName] = path.join(sourceDir, EXTENSION_DIR, g.path);
  return files;
}

function onigLib(modulesDir) {
  const onig = requireTool(modulesDir, 'vscode-oniguruma');
  const wasm = fs.readFileSync(path.join(modulesDir, 'vscode-oniguruma', 'release', 'onig.wasm'));
  return onig.loadWASM(wasm).then(() => ({
    createOnigScanner: (patterns) => new onig.OnigScanner(patterns),
    createOnigString: (text) => new onig.OnigString(text),
    onig,
  }));
}

// { 'source.tile': IGrammar, 'source.tir': IGrammar }
async function loadGrammars(sourceDir, modulesDir) {
  const textmate = requireTool(modulesDir, 'vscode-textmate');
  const files = grammarFiles(sourceDir);
  const registry = new textmate.Registry({
    onigLib: onigLib(modulesDir),
    loadGrammar: async (scopeName) =>
      files[scopeName] ? textmate.parseRawGrammar(fs.readFileSync(files[scopeName], 'utf8'), files[scopeName]) : null,
  });
  const grammars = {};
  for (const scopeName of Object.keys(files)) {
    grammars[scopeName] = await registry.loadGrammar(scopeName);
    grammars[scopeName].initial = textmate.INITIAL;
  }
  return grammars;
}

// [{ text, tokens: [{ start, end, text, scopes }] }], one entry per line (1-based line n
// is entry n - 1). Tokenizing carries the rule stack from line to line, as an editor does.
function tokenize(grammar, text) {
  let state = grammar.initial;
  return text.split(/\r?\n/).map((line) => {
    const result = grammar.tokenizeLine(line, state);
    if (result.stoppedEarly) fail(`tokenizing stopped early on '${line}'`);
    state = result.ruleStack;
    const tokens = result.tokens.map((t) => ({
      start: t.startIndex,
      end: Math.min(t.endIndex, line.length),
      text: line.slice(t.startIndex, t.endIndex),
      scopes: t.scopes,
    }));
    return { text: line, tokens };
  });
}

// A scope that says what a token is: not the file's root scope and not a meta.* region.
function hasSpecificScope(token) {
  return token.scopes.slice(1).some((s) => !s.startsWith('meta.'));
}

function filesUnder(dir, extension) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full, extension));
    else if (entry.name.endsWith(extension)) out.push(full);
  }
  return out;
}

// ---------------------------------------------------------------- the compiler's vocabulary

function readSource(sourceDir, file) {
  return fs.readFileSync(path.join(sourceDir, file), 'utf8');
}

function quoted(text) {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2]);
}

// The keywords of grammar/Tile.g4's lexer: every rule that is one lowercase word.
function lexerKeywords(sourceDir) {
  const g4 = readSource(sourceDir, 'grammar/Tile.g4');
  return [...g4.matchAll(/^[A-Z_]+\s*:\s*'([a-z]+)'\s*;/gm)].map((m) => m[1]);
}

function lexerDtypes(sourceDir) {
  const rule = readSource(sourceDir, 'grammar/Tile.g4').match(/^DTYPE\s*:([^;]*);/m);
  return rule ? quoted(rule[1]) : [];
}

// The names of the built-in functions, as tilec --list-builtins calls them.
function builtinNames(tilec) {
  const listing = execFileSync(tilec, ['--list-builtins'], { encoding: 'utf8' });
  return [...listing.matchAll(/^([a-z_0-9]+)[(<]/gm)].map((m) => m[1]);
}

// The quoted strings of the C++ initializer that follows `marker` in `file`, up to its `;`.
function initializerStrings(sourceDir, file, marker) {
  const text = readSource(sourceDir, file);
  const at = text.indexOf(marker);
  if (at < 0) return [];
  return quoted(text.slice(at + marker.length, text.indexOf(';', at)));
}

// The register operations of the AIE target models: the first name of each rawOps entry.
function targetOperations(sourceDir) {
  const text = readSource(sourceDir, 'src/backend/aie/AieModel.cpp');
  const at = text.indexOf('m.rawOps =');
  if (at < 0) return [];
  return [...text.slice(at, text.indexOf(';', at)).matchAll(/\{"([a-z_0-9]+)",\s*\{/g)].map((m) => m[1]);
}

// tilec --list-targets: { kernels: Set, memory: Set } over every target.
function targetVocabulary(tilec) {
  const listing = execFileSync(tilec, ['--list-targets'], { encoding: 'utf8' });
  const kernels = new Set(), memory = new Set();
  for (const m of listing.matchAll(/^\s+kernels: (.*)$/gm)) m[1].split(/\s+/).forEach((k) => kernels.add(k));
  for (const m of listing.matchAll(/^\s+memory: (.*)$/gm))
    for (const space of m[1].matchAll(/(?:^|\s)([a-z_0-9]+)=/g)) memory.add(space[1]);
  return { kernels, memory };
}

module.exports = {
  EXTENSION_DIR,
  fail,
  finish,
  requireTool,
  readJson,
  readManifest,
  grammarFiles,
  onigLib,
  loadGrammars,
  tokenize,
  hasSpecificScope,
  filesUnder,
  readSource,
  quoted,
  lexerKeywords,
  lexerDtypes,
  builtinNames,
  initializerStrings,
  targetOperations,
  targetVocabulary,
};
