// The extension's files: package.json is a manifest VS Code can load (its fields, and every
// file it names exists and is valid JSON), each language has a configuration and a grammar,
// the grammars' includes resolve and every repository rule is used, every grammar regex
// compiles with Oniguruma (what VS Code runs them with), and the configurations' and the
// problem matcher's regexes compile as the JavaScript regexes VS Code makes of them.
// usage: node manifest.js SOURCE_DIR NODE_MODULES
'use strict';
const fs = require('fs');
const path = require('path');
const lib = require('./lib.js');

const [sourceDir, modulesDir] = process.argv.slice(2);
const extensionDir = path.join(sourceDir, lib.EXTENSION_DIR);

// The parsed JSON file `relative` (to the extension folder), or null after a failure.
function jsonFile(relative, what) {
  const file = path.join(extensionDir, relative);
  if (!fs.existsSync(file)) return lib.fail(`${what}: ${relative} does not exist`), null;
  try {
    return lib.readJson(file);
  } catch (e) {
    return lib.fail(`${what}: ${relative} is not valid JSON: ${e.message}`), null;
  }
}

function checkJsRegex(what, source) {
  try {
    return new RegExp(source);
  } catch (e) {
    return lib.fail(`${what}: ${e.message}`), null;
  }
}

function checkManifestFields(manifest) {
  for (const field of ['name', 'displayName', 'description', 'version', 'publisher'])
    if (typeof manifest[field] !== 'string' || !manifest[field]) lib.fail(`package.json: no ${field}`);
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(manifest.name || '')) lib.fail(`package.json: '${manifest.name}' is not a valid extension name`);
  if (!/^\d+\.\d+\.\d+$/.test(manifest.version || '')) lib.fail(`package.json: version '${manifest.version}' is not x.y.z`);
  if (!/^\^?\d+\.\d+\.\d+$/.test((manifest.engines || {}).vscode || '')) lib.fail('package.json: engines.vscode is missing or malformed');
}

function checkConfiguration(language, config) {
  const what = `${language.id} configuration`;
  if (!config.comments || config.comments.lineComment !== '//') lib.fail(`${what}: the line comment is not //`);
  if (language.id === 'tile' && JSON.stringify(config.comments.blockComment) !== '["/*","*/"]')
    lib.fail(`${what}: the block comment is not /* */`);
  for (const pair of ['{}', '[]', '()']) {
    const has = (list) => (list || []).some((p) => (Array.isArray(p) ? p.join('') : p.open + p.close) === pair);
    for (const key of ['brackets', 'autoClosingPairs', 'surroundingPairs'])
      if (!has(config[key])) lib.fail(`${what}: ${key} lacks ${pair}`);
  }
  if (config.wordPattern) checkJsRegex(`${what}: wordPattern`, config.wordPattern);
  for (const [key, source] of Object.entries(config.indentationRules || {}))
    checkJsRegex(`${what}: indentationRules.${key}`, source);
}

// Every include of a grammar resolves, and every repository rule is included somewhere.
function checkIncludes(name, grammar) {
  const used = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    if (typeof node.include === 'string' && node.include.startsWith('#')) {
      used.add(node.include.slice(1));
      if (!grammar.repository[node.include.slice(1)]) lib.fail(`${name}: include ${node.include} has no repository rule`);
    } else if (node.include !== undefined && node.include !== '$self') {
      lib.fail(`${name}: include ${node.include} names another grammar`);
    }
    Object.values(node).forEach(visit);
  };
  visit(grammar);
  for (const key of Object.keys(grammar.repository))
    if (!used.has(key)) lib.fail(`${name}: repository rule ${key} is never included`);
}

function checkOnigRegexes(name, grammar, onig) {
  const visit = (node, at) => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${at}[${i}]`));
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (['match', 'begin', 'end', 'while'].includes(key) && typeof value === 'string') {
        try {
          new onig.OnigScanner([value]).dispose();
        } catch (e) {
          lib.fail(`${name}: ${at}.${key} does not compile: ${e.message || e}`);
        }
      } else {
        visit(value, `${at}.${key}`);
      }
    }
  };
  visit(grammar, name);
}

function checkProblemMatchers(manifest) {
  for (const matcher of manifest.contributes.problemMatchers || []) {
    const what = `problem matcher ${matcher.name}`;
    for (const pattern of [].concat(matcher.pattern)) {
      const regex = checkJsRegex(`${what}: regexp`, pattern.regexp);
      if (!regex) continue;
      const groups = new RegExp(`${pattern.regexp}|`).exec('').length - 1;
      for (const field of ['file', 'line', 'column', 'severity', 'code', 'message'])
        if (!(pattern[field] >= 1 && pattern[field] <= groups)) lib.fail(`${what}: ${field} is not one of its ${groups} groups`);
    }
  }
}

async function main() {
  const manifest = jsonFile('package.json', 'the manifest');
  if (!manifest) return lib.finish('');
  checkManifestFields(manifest);
  const contributes = manifest.contributes || {};
  const languages = contributes.languages || [];
  const grammars = contributes.grammars || [];
  const ids = languages.map((l) => l.id);
  if (ids.join(' ') !== 'tile tir') lib.fail(`the languages are '${ids.join(' ')}', expected 'tile tir'`);
  for (const language of languages) {
    if (!(language.extensions || []).includes(`.${language.id}`)) lib.fail(`${language.id}: not registered for .${language.id} files`);
    const config = jsonFile(language.configuration || '', `${language.id} configuration`);
    if (config) checkConfiguration(language, config);
    if (!grammars.some((g) => g.language === language.id)) lib.fail(`${language.id}: no grammar`);
  }
  const { onig } = await lib.onigLib(modulesDir);
  for (const entry of grammars) {
    if (!ids.includes(entry.language)) lib.fail(`grammar ${entry.path}: unknown language ${entry.language}`);
    const grammar = jsonFile(entry.path || '', `grammar of ${entry.language}`);
    if (!grammar) continue;
    if (grammar.scopeName !== entry.scopeName || entry.scopeName !== `source.${entry.language}`)
      lib.fail(`${entry.path}: scope ${grammar.scopeName}, package.json says ${entry.scopeName}, expected source.${entry.language}`);
    checkIncludes(entry.path, grammar);
    checkOnigRegexes(entry.path, grammar, onig);
  }
  checkProblemMatchers(manifest);
  lib.finish(`package.json, ${languages.length} language configurations and ${grammars.length} grammars`);
}

main().catch((e) => {
  console.error(`FAIL: ${e.stack || e}`);
  process.exit(1);
});
