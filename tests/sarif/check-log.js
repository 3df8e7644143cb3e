#!/usr/bin/env node
// Checks the content of a tilec SARIF log against an expectation file (Expected/*.json):
//   node check-log.js LOG EXPECTED EXIT_STATUS
// Beyond the listed results (rule, level, place, related locations, fix), every result is
// checked against the source it points to: ruleIndex names the rule with the same id, the
// artifact index and URI agree, and each region's charOffset/charLength, line/column and
// snippet select the same text of the file. Prints every mismatch; exits 1 if there is one.
'use strict';
const fs = require('fs');
const path = require('path');
const url = require('url');

const [logPath, expectedPath, exitStatus] = process.argv.slice(2);
const log = JSON.parse(fs.readFileSync(logPath, 'utf8'));
const expected = JSON.parse(fs.readFileSync(expectedPath, 'utf8'));
const problems = [];
const expect = (ok, what) => { if (!ok) problems.push(what); };
const same = (actual, wanted, what) =>
  expect(JSON.stringify(actual) === JSON.stringify(wanted), `${what}: ${JSON.stringify(actual)}, expected ${JSON.stringify(wanted)}`);

same(log.version, '2.1.0', 'version');
same(log.runs.length, 1, 'number of runs');
const run = log.runs[0];
const rules = run.tool.driver.rules;
same(new Set(rules.map((r) => r.id)).size, rules.length, 'distinct rule ids');
same(run.columnKind, 'unicodeCodePoints', 'columnKind');
same(run.invocations[0].exitCode, Number(exitStatus), 'invocation exit code (the status tilec exited with)');
same(Number(exitStatus), expected.exitCode, 'tilec exit status');

// The file an artifact names, read as an array of code points (what SARIF columns count).
const sourceCache = new Map();
function artifactText(index) {
  if (!sourceCache.has(index)) {
    const location = run.artifacts[index].location;
    const base = location.uriBaseId ? run.originalUriBaseIds[location.uriBaseId].uri : '';
    const file = url.fileURLToPath(new URL(location.uri, base || undefined));
    sourceCache.set(index, Array.from(fs.readFileSync(file, 'utf8')));
  }
  return sourceCache.get(index);
}

// Checks one region against its file; returns [start, end) in code points.
function checkRegion(artifactLocation, region, what) {
  const artifact = run.artifacts[artifactLocation.index];
  same(artifactLocation.uri, artifact.location.uri, `${what}: URI of artifact ${artifactLocation.index}`);
  const chars = artifactText(artifactLocation.index);
  const offsetOf = (line, column) => {
    let offset = 0;
    for (let l = 1; l < line; ++l) offset = chars.indexOf('\n', offset) + 1;
    return offset + column - 1;
  };
  const start = offsetOf(region.startLine, region.startColumn);
  const end = offsetOf(region.endLine, region.endColumn);
  same(region.charOffset, start, `${what}: charOffset of line ${region.startLine} column ${region.startColumn}`);
  same(region.charLength, end - start, `${what}: charLength`);
  if (region.snippet) same(region.snippet.text, chars.slice(start, end).join(''), `${what}: snippet`);
  return [start, end];
}

same(run.results.length, expected.results.length, 'number of results');
run.results.forEach((result, i) => {
  const want = expected.results[i] || {};
  const what = `result ${i} (${result.ruleId})`;
  same(rules[result.ruleIndex].id, result.ruleId, `${what}: rule at ruleIndex`);
  same(result.ruleId, want.ruleId, `${what}: ruleId`);
  same(result.level, want.level, `${what}: level`);
  if (want.message) expect(result.message.text.includes(want.message), `${what}: message lacks '${want.message}'`);
  const located = result.locations && result.locations[0].physicalLocation;
  same(located ? [located.region.startLine, located.region.startColumn] : null, want.at || null, `${what}: line, column`);
  let primary = null;
  if (located) primary = checkRegion(located.artifactLocation, located.region, what);
  const related = (result.relatedLocations || []).map((r, k) => {
    same(r.id, k, `${what}: related location id`);
    const at = r.physicalLocation;
    if (at) checkRegion(at.artifactLocation, at.region, `${what}, related ${k}`);
    return { message: r.message.text, at: at ? [at.region.startLine, at.region.startColumn] : null };
  });
  same(related, want.related || [], `${what}: related locations`);
  const fixes = (result.fixes || []).map((fix) => fix.artifactChanges.map((change) =>
    change.replacements.map((r) => {
      const [start, end] = checkRegion(change.artifactLocation, r.deletedRegion, `${what}, fix`);
      return { replaces: artifactText(change.artifactLocation.index).slice(start, end).join(''),
               with: r.insertedContent.text, atPrimary: primary !== null && start === primary[0] && end === primary[1] };
    })).flat());
  same(fixes, want.fixes || [], `${what}: fixes`);
});

if (problems.length) {
  console.error(`${logPath}:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`${path.basename(logPath)}: ${run.results.length} results as expected`);
