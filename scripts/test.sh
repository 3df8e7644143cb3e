#!/usr/bin/env bash
# Configures and builds tilec with its tests in build/, then runs every unit and
# lit test through CTest.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILEC_BUILD_TESTS=ON -DTILEC_WERROR=ON
cmake --build "$build"
cd "$build"
ctest --output-on-failure -j2
