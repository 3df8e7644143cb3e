#!/usr/bin/env bash
# Configures and builds tilec with its tests in build/, then runs every unit and
# lit test through CTest.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build

"$root/scripts/configure.sh" release
cmake --build "$build"
cd "$build"
ctest --output-on-failure -j2
