#!/usr/bin/env bash
# Configures one of the two builds the scripts share, so that every script building in a
# directory asks for the same flags and none recompiles what another has built:
#   configure.sh release    build/: Release, -Werror, the tests (test.sh, build-samples.sh)
#   configure.sh sanitize   build-sanitize/: clang with ASan, UBSan and libFuzzer's coverage
#                           in every target, the tests and the fuzz harnesses
#                           (test-sanitizers.sh, fuzz.sh); debug information is line tables
#                           only, enough for a sanitizer's stack trace
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in
  release)
    cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILEC_BUILD_TESTS=ON \
      -DTILEC_WERROR=ON ;;
  sanitize)
    CC=clang CXX=clang++ cmake -S "$root" -B "$root/build-sanitize" -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
      -DTILEC_BUILD_TESTS=ON -DTILEC_WERROR=ON -DTILEC_FUZZ=ON ;;
  *) echo "usage: configure.sh release|sanitize" >&2; exit 2 ;;
esac
