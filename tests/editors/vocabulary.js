// The grammars' word lists must not drift from the compiler: each list in
// editors/vscode/syntaxes is compared, as a set, with its source of truth (grammar/Tile.g4,
// tilec --list-builtins, tilec --list-targets, ...), and every word is tokenized
// in a line where it must get its scope.
// usage: node vocabulary.js SOURCE_DIR NODE_MODULES TILEC
'use strict';
const path = require('path');
const lib = require('./lib.js');

const [sourceDir, modulesDir, tilec] = process.argv.slice(2);

// The word alternations of a regex, in order: `\b(load|store)\s*(<)` gives [['load', 'store']].
function wordGroups(regex) {
  return [...regex.matchAll(/\((?:\?:)?([A-Za-z0-9_]+(?:\|[A-Za-z0-9_]+)*)\)/g)].map((m) => m[1].split('|'));
}

function sameSet(what, actual, expected) {
  const have = new Set(actual), want = new Set(expected);
  const missing = [...want].filter((w) => !have.has(w));
  const extra = [...have].filter((w) => !want.has(w));
  if (missing.length) lib.fail(`${what}: the grammar lacks ${missing.join(', ')}`);
  if (extra.length) lib.fail(`${what}: the grammar has ${extra.join(', ')}, which the compiler does not`);
  if (want.size === 0) lib.fail(`${what}: found nothing in the compiler's list (did its source change shape?)`);
}

// The scopes of the first token of `line` whose text is `word`.
function scopesOf(grammar, line, word) {
  const token = lib.tokenize(grammar, line)[0].tokens.find((t) => t.text === word);
  return token ? token.scopes : [];
}

function expectScope(grammar, line, word, accepts, description) {
  const scopes = scopesOf(grammar, line, word);
  if (!scopes.some(accepts)) lib.fail(`'${word}' in '${line}' is not ${description}: ${scopes.join(' ')}`);
}

function exact(scope) {
  return (s) => s === scope;
}

// Every match/begin regex of a grammar's repository.
function allRegexes(node) {
  if (Array.isArray(node)) return node.flatMap(allRegexes);
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    (key === 'match' || key === 'begin') && typeof value === 'string' ? [value] : allRegexes(value));
}

// The rules that name something (`let NAME`, `for NAME in`, a parameter, ...) refuse a
// keyword there with a lookahead `(?!(?:const|...)\b)`; each copy must list them all.
function checkNameLookaheads(repo, compiler) {
  const lookaheads = allRegexes(repo).flatMap((r) => [...r.matchAll(/\(\?!\(\?:([a-z0-9_|]+)\)\\b\)/g)]);
  if (lookaheads.length < 6) lib.fail(`only ${lookaheads.length} keyword lookaheads in the .tile grammar, expected 6`);
  for (const m of lookaheads) sameSet('keywords refused as names', m[1].split('|'), [...compiler.keywords, ...compiler.dtypes]);
}

function checkTileLists(repo, compiler) {
  checkNameLookaheads(repo, compiler);
  const keywordWords = repo.keywords.patterns.flatMap((p) => wordGroups(p.match).flat());
  sameSet('.tile keywords (grammar/Tile.g4)', keywordWords, compiler.keywords);
  sameSet('.tile dtypes (Tile.g4 DTYPE)', wordGroups(repo.dtypes.match)[0], compiler.dtypes);
  sameSet('dtypes of tensor shapes', wordGroups(repo['tensor-shape'].begin)[0], compiler.dtypes);
  const builtinGroups = wordGroups(repo['builtin-calls'].begin);
  sameSet('built-in functions (tilec --list-builtins)', builtinGroups[0], compiler.builtins);
  sameSet('type arguments of built-in calls', builtinGroups[1], compiler.dtypes);
  sameSet('type arguments of other calls', wordGroups(repo.calls.begin)[0], compiler.dtypes);
  sameSet('AIE register operations (AieModel.cpp rawOps)', wordGroups(repo['target-calls'].begin)[0], compiler.targetOps);
  sameSet('memory spaces (tilec --list-targets)', wordGroups(repo['memory-spaces'].match)[0], compiler.memory);
  const [space, rmode, layout] = repo['keyword-arguments'].patterns.map((p) => wordGroups(p.match));
  sameSet('memory spaces after space =', space[1], compiler.memory);
  sameSet('rounding modes after rmode = (src/ir/IR.cpp)', rmode[1], compiler.roundModes);
  sameSet('layouts after layout = (LinxModel.cpp)', layout[1], compiler.layouts);
  const kinds = repo.keywords.patterns.find((p) => p.name.startsWith('storage.modifier.kernel-kind'));
  sameSet('kernel kinds (tilec --list-targets)', wordGroups(kinds.match)[0], compiler.kernels);
}

function checkTirLists(repo, compiler) {
  sameSet('.tir scalar types', wordGroups(repo['scalar-types'].match)[0], [...compiler.dtypes, 'index']);
  const spaces = repo.types.patterns.find((p) => p.name === 'support.constant.memory-space.tir');
  sameSet('.tir memory spaces', wordGroups(spaces.match)[0], [...compiler.memory, 'none']);
  sameSet('.tir function kinds', wordGroups(repo['function-kinds'].match)[0], compiler.kernels);
}

const keywordLike = (s) => /^(keyword|storage|constant\.language)\./.test(s);

function checkTileTokens(tile, compiler) {
  for (const k of compiler.keywords) expectScope(tile, k, k, keywordLike, 'a keyword');
  for (const d of compiler.dtypes) {
    expectScope(tile, `let x: ${d} = 0;`, d, exact('storage.type.primitive.tile'), 'a dtype');
    expectScope(tile, `kernel k(x: in ${d}[4]) {}`, d, exact('storage.type.primitive.tile'), 'a dtype');
  }
  for (const b of compiler.builtins)
    expectScope(tile, `let x = ${b}(a);`, b, exact('support.function.builtin.tile'), 'a built-in');
  for (const op of compiler.targetOps)
    expectScope(tile, `${op}(1, 2);`, op, exact('support.function.target.tile'), 'a target operation');
  for (const s of compiler.memory) {
    expectScope(tile, `let t = create<f32>([16], space = ${s});`, s, exact('support.constant.memory-space.tile'),
                'a memory space');
    expectScope(tile, `let t: tile<f32, [16], ${s}> = a;`, s, exact('support.constant.memory-space.tile'), 'a memory space');
  }
  for (const m of compiler.roundModes)
    expectScope(tile, `let c = cast<f16>(t, rmode = ${m});`, m, exact('support.constant.rounding-mode.tile'), 'a rounding mode');
  for (const l of compiler.layouts)
    expectScope(tile, `let t = load(x, [0], [1], layout = ${l});`, l, exact('support.constant.layout.tile'), 'a layout');
}

function checkTirTokens(tir, compiler) {
  for (const s of compiler.memory)
    expectScope(tir, `%t = tile.create : tile<f32, [16], ${s}>`, s, exact('support.constant.memory-space.tir'),
                'a memory space');
  for (const d of [...compiler.dtypes, 'index'])
    expectScope(tir, `%c = arith.index {value = 0} : ${d}`, d, exact('storage.type.primitive.tir'), 'a type');
  for (const k of compiler.kernels)
    expectScope(tir, `func @f(%n: index) ${k} {`, k, exact('storage.modifier.kernel-kind.tir'), 'a function kind');
}

async function main() {
  const targets = lib.targetVocabulary(tilec);
  const compiler = {
    keywords: lib.lexerKeywords(sourceDir),
    dtypes: lib.lexerDtypes(sourceDir),
    builtins: lib.builtinNames(tilec),
    targetOps: lib.targetOperations(sourceDir),
    roundModes: lib.initializerStrings(sourceDir, 'src/ir/IR.cpp', 'kRoundModes ='),
    layouts: lib.initializerStrings(sourceDir, 'src/backend/linx/LinxModel.cpp', 'm.layouts ='),
    memory: [...targets.memory],
    kernels: [...targets.kernels],
  };
  const files = lib.grammarFiles(sourceDir);
  checkTileLists(lib.readJson(files['source.tile']).repository, compiler);
  checkTirLists(lib.readJson(files['source.tir']).repository, compiler);
  const grammars = await lib.loadGrammars(sourceDir, modulesDir);
  checkTileTokens(grammars['source.tile'], compiler);
  checkTirTokens(grammars['source.tir'], compiler);
  lib.finish(`the grammars' word lists match the compiler (${path.basename(tilec)} --list-targets, Tile.g4, built-ins)`);
}

main().catch((e) => {
  console.error(`FAIL: ${e.stack || e}`);
  process.exit(1);
});
