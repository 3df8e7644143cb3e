#!/usr/bin/env bash
# Builds tilec and its tests with clang, AddressSanitizer and UndefinedBehaviorSanitizer in
# build-sanitize/ and runs the whole test suite there; any sanitizer report (a leak, an
# out-of-bounds access, undefined behaviour) fails the run. The same build holds the
# libFuzzer harnesses (scripts/fuzz.sh), so CI compiles the sanitized code once.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/configure.sh" sanitize > /dev/null
build=$root/build-sanitize
cmake --build "$build"
cd "$build"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --output-on-failure -j2
