#!/usr/bin/env python3
"""tilec fmt over every .tile file of the repository (samples/ and tests/).

For each file that parses and that formatting changes, the formatted text must be
  - formatted already: formatting it again changes nothing;
  - the same program: the same tokens in the same order (--emit=tokens without positions),
    and, where the original compiles (for the default target, else npu1, else linx), the
    same IR after the pipeline (--emit-ir), byte for byte;
  - the same comments, in the same order (a line comment's trailing blanks aside).
A file formatted already needs none of that; a sample (samples/) formatted already must also
come back from its text with every line's indentation removed. A file that does not parse
must be refused: exit 1 with a coded diagnostic.
Prints how many files were already formatted and the slowest format.

usage: check-corpus.py TILEC SOURCE_DIR WORKDIR
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import threading
import time

TARGETS = [[], ['--target=npu1'], ['--target=linx']]


def run(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, capture_output=True, timeout=120)


def comments(text):
    """The comments of .tile source, skipping string literals."""
    out, i = [], 0
    while i < len(text):
        if text.startswith(b'//', i):
            end = len(text)
            for stop in (b'\r', b'\n'):
                j = text.find(stop, i)
                if j != -1:
                    end = min(end, j)
            out.append(text[i:end].rstrip(b' \t'))
            i = end
        elif text.startswith(b'/*', i):
            end = text.find(b'*/', i + 2)
            end = len(text) if end == -1 else end + 2
            out.append(text[i:end])
            i = end
        elif text[i:i + 1] == b'"':
            m = re.compile(rb'"(?:[^"\\\r\n]|\\[^\r\n])*"?').match(text, i)
            i = m.end()
        else:
            i += 1
    return out


def tokens(tilec, path):
    r = run([tilec, path, '--emit=tokens', '-o', '-'])
    return r.returncode, [re.sub(rb'^\d+:\d+ ', b'', line) for line in r.stdout.splitlines()]


def compiled_ir(tilec, path, include):
    for flags in TARGETS:
        r = run([tilec, path, '--emit-ir', '-o', '-', '-I', include] + flags)
        if r.returncode == 0:
            return flags, r.stdout
    return None, None


STATS_LOCK = threading.Lock()


def count(stats, key, value=1):
    with STATS_LOCK:
        stats[key] += value


def check(tilec, path, work, stats):
    original = open(path, 'rb').read()
    start = time.monotonic()
    first = run([tilec, 'fmt', '-'], original)
    elapsed = time.monotonic() - start
    if first.returncode != 0:
        if first.returncode != 1 or not re.search(rb'error\[E\d{4}\]', first.stderr):
            return f'refused without a coded diagnostic (exit {first.returncode}): {first.stderr[:300]!r}'
        count(stats, 'refused')
        return None
    count(stats, 'formatted')
    with STATS_LOCK:
        if elapsed > stats['slowest'][0]:
            stats['slowest'] = (elapsed, path, len(original))
    if first.stdout == original:
        # Formatted already: the checks below hold trivially. The samples are also formatted
        # from their text without indentation, which must come back as it was.
        count(stats, 'unchanged')
        if os.sep + 'samples' + os.sep in path:
            flat = b'\n'.join(line.lstrip(b' ') for line in original.split(b'\n'))
            if run([tilec, 'fmt', '-'], flat).stdout != original:
                return 'formatting the text without its indentation does not give it back'
            count(stats, 'reindented')
        return None
    second = run([tilec, 'fmt', '-'], first.stdout)
    if second.returncode != 0 or second.stdout != first.stdout:
        return 'formatting the formatted text changes it again'
    if comments(first.stdout) != comments(original):
        return 'the comments differ after formatting'
    # Named after the whole path: two threads may check files of the same name at once.
    copy = os.path.join(work, path.replace(os.sep, '_'))
    with open(copy, 'wb') as f:
        f.write(first.stdout)
    if tokens(tilec, path) != tokens(tilec, copy):
        return 'the token sequence differs after formatting'
    flags, before = compiled_ir(tilec, path, os.path.dirname(path))
    if flags is None:
        return None
    count(stats, 'compiled')
    r = run([tilec, copy, '--emit-ir', '-o', '-', '-I', os.path.dirname(path)] + flags)
    if r.returncode != 0 or r.stdout != before:
        return f'the IR differs after formatting (flags {flags})'
    return None


def main():
    tilec, source, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    paths = sorted(os.path.join(d, f) for top in ('samples', 'tests')
                   for d, _, files in os.walk(os.path.join(source, top)) for f in files if f.endswith('.tile'))
    stats = {'refused': 0, 'formatted': 0, 'unchanged': 0, 'reindented': 0, 'compiled': 0,
             'slowest': (0.0, '', 0)}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        problems = list(pool.map(lambda p: check(tilec, p, work, stats), paths))
    failures = [f'{os.path.relpath(p, source)}: {problem}' for p, problem in zip(paths, problems) if problem]
    seconds, slowest, size = stats['slowest']
    print(f'{len(paths)} files: {stats["formatted"]} formatted ({stats["unchanged"]} already were, '
          f'{stats["reindented"]} samples re-indented from flat text, '
          f'{stats["compiled"]} changed ones compiled to the same IR), {stats["refused"]} refused with a diagnostic; '
          f'slowest {seconds * 1000:.0f} ms ({os.path.relpath(slowest, source)}, {size} bytes)')
    for f in failures:
        print('FAIL ' + f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
