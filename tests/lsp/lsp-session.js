#!/usr/bin/env node
// Runs one scripted Language Server Protocol session against `tilec lsp`.
//
//   node lsp-session.js TILEC SESSION.json WORKDIR
//   node lsp-session.js --client-stream SESSION.json WORKDIR   (prints the client's bytes)
//
// A session file holds:
//   "args":     extra arguments of `tilec lsp` (optional)
//   "files":    name -> text (a string, or an array of lines joined with "\n"), written
//               to WORKDIR before the server starts (optional); a name may have directories
//   "steps":    in order: {"send": message} (framed as JSON-RPC; an array of messages is
//               written at once, so the server finds them all waiting), {"sendRaw": "bytes"}
//               (sent as they are: broken headers, broken JSON), or {"expect": message},
//               which the server's next message must match. A match is a subset: every
//               key of an expected object must be in the actual one with a matching value;
//               arrays must have the same length and match element by element.
//   "exitCode": what the server must exit with once its input ends (default 0)
//   "keepWorkdir": true to play the session in WORKDIR as it is (a project made by the
//               caller), instead of emptying it and writing "files"
// In every string (file texts too), ${DIR} is WORKDIR and ${URI:name} the file URI of
// WORKDIR/name; a string that is exactly ${TEXT:name} becomes the text of file `name`
// (one of "files", else read from WORKDIR).
// Fails on the first mismatch, on a message nobody expected, if the server exits before
// the steps are done, or after a timeout.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { pathToFileURL } = require('url');

const TIMEOUT_MS = 20000;
const [tilec, sessionPath, workdir] = process.argv.slice(2);
if (!workdir) fail('usage: lsp-session.js TILEC SESSION.json WORKDIR');
const session = JSON.parse(fs.readFileSync(sessionPath, 'utf8'));
const texts = {};

function fail(message) {
  process.stderr.write(`lsp-session: ${path.basename(sessionPath || '')}: ${message}\n`);
  process.exit(1);
}

function substitute(value) {
  if (typeof value === 'string') {
    const whole = /^\$\{TEXT:([^}]+)\}$/.exec(value);
    if (whole) {
      if (!(whole[1] in texts) && fs.existsSync(path.join(workdir, whole[1])))
        texts[whole[1]] = fs.readFileSync(path.join(workdir, whole[1]), 'utf8');
      if (!(whole[1] in texts)) fail(`no file '${whole[1]}' in the session or in ${workdir}`);
      return texts[whole[1]];
    }
    return value
      .replace(/\$\{URI:([^}]+)\}/g, (_, name) => pathToFileURL(path.join(workdir, name)).href)
      .replace(/\$\{DIR\}/g, workdir);
  }
  if (Array.isArray(value)) return value.map(substitute);
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[substitute(k)] = substitute(v);
    return out;
  }
  return value;
}

// Where `actual` fails to match `expected`, as a path; null when it matches.
function mismatch(expected, actual, at) {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array`;
    if (actual.length !== expected.length) return `${at}: expected ${expected.length} elements, got ${actual.length}`;
    for (let i = 0; i < expected.length; ++i) {
      const m = mismatch(expected[i], actual[i], `${at}[${i}]`);
      if (m) return m;
    }
    return null;
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return `${at}: expected an object`;
    for (const [k, v] of Object.entries(expected)) {
      if (!(k in actual)) return `${at}.${k}: missing`;
      const m = mismatch(v, actual[k], `${at}.${k}`);
      if (m) return m;
    }
    return null;
  }
  return expected === actual ? null : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

if (!session.keepWorkdir) {
  fs.rmSync(workdir, { recursive: true, force: true });
  fs.mkdirSync(workdir, { recursive: true });
}
for (const [name, text] of Object.entries(session.files || {})) {
  texts[name] = substitute(Array.isArray(text) ? text.join('\n') : text);
  fs.mkdirSync(path.dirname(path.join(workdir, name)), { recursive: true });
  fs.writeFileSync(path.join(workdir, name), texts[name]);
}

function frame(message) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

function frames(messages) {
  return Array.isArray(messages) ? Buffer.concat(messages.map(frame)) : frame(messages);
}

// `lsp-session.js --client-stream SESSION.json WORKDIR` writes what the client sends, as
// bytes, to standard output instead (the seeds of the fuzz_lsp corpus, scripts/fuzz.sh).
if (tilec === '--client-stream') {
  for (const step of substitute(session.steps)) {
    if (step.send) fs.writeSync(1, frames(step.send));
    else if (step.sendRaw !== undefined) fs.writeSync(1, step.sendRaw);
  }
  process.exit(0);
}

const server = spawn(tilec, ['lsp', ...(session.args || [])], { cwd: workdir, stdio: ['pipe', 'pipe', 'inherit'] });
const received = [];   // parsed messages not yet matched
let buffer = Buffer.alloc(0);
let waiting = null;    // resolves when a message arrives or the server exits
let exited = null;     // the exit code, once the server is gone

server.stdout.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const headerEnd = buffer.indexOf('\r\n\r\n');
    if (headerEnd < 0) break;
    const header = buffer.slice(0, headerEnd).toString('ascii');
    const length = /Content-Length: (\d+)/i.exec(header);
    if (!length) fail(`the server sent a header without Content-Length: ${JSON.stringify(header)}`);
    const end = headerEnd + 4 + Number(length[1]);
    if (buffer.length < end) break;
    const body = buffer.slice(headerEnd + 4, end).toString('utf8');
    buffer = buffer.slice(end);
    try {
      received.push(JSON.parse(body));
    } catch (e) {
      fail(`the server sent a body that is not JSON: ${body}`);
    }
  }
  if (waiting && received.length) waiting();
});
server.on('exit', (code, signal) => {
  exited = signal ? `signal ${signal}` : code;
  if (waiting) waiting();
});
server.stdin.on('error', () => {});  // a server that died shows as an early exit below

function nextMessage(step) {
  return new Promise((resolve) => {
    const check = () => {
      if (received.length) return resolve(received.shift());
      if (exited !== null) fail(`step ${step}: the server exited (${exited}) while a message was expected`);
      waiting = check;
    };
    check();
  });
}

async function main() {
  const timer = setTimeout(() => fail(`timed out after ${TIMEOUT_MS} ms`), TIMEOUT_MS);
  const steps = substitute(session.steps);
  for (let i = 0; i < steps.length; ++i) {
    const step = steps[i];
    if (step.send) {
      server.stdin.write(frames(step.send));
    } else if (step.sendRaw !== undefined) {
      server.stdin.write(step.sendRaw);
    } else if (step.expect) {
      const actual = await nextMessage(i);
      const m = mismatch(step.expect, actual, 'message');
      if (m) fail(`step ${i}: ${m}\n  actual: ${JSON.stringify(actual)}`);
    } else {
      fail(`step ${i}: a step has "send", "sendRaw" or "expect"`);
    }
  }
  server.stdin.end();
  await new Promise((resolve) => {
    if (exited !== null) return resolve();
    waiting = () => exited !== null && resolve();
  });
  clearTimeout(timer);
  if (received.length) fail(`unexpected message: ${JSON.stringify(received[0])}`);
  const wanted = session.exitCode === undefined ? 0 : session.exitCode;
  if (exited !== wanted) fail(`the server exited with ${exited}, expected ${wanted}`);
}

main();
