#!/usr/bin/env bash
# Installs the Debian packages tilec needs to build and test (with --fuzz, also clang and
# its libFuzzer runtime, for scripts/fuzz.sh). Idempotent: packages that are already
# installed are left alone, and apt is not touched at all when nothing is missing. Runs as
# root (CI) or through sudo.
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache
  uuid-dev  # libantlr4-runtime links -luuid but does not depend on uuid-dev
  antlr4 libantlr4-runtime-dev
  libcli11-dev libspdlog-dev nlohmann-json3-dev doctest-dev
  time  # /usr/bin/time, used by bench/compile-bench.sh for peak memory
)
if [[ ${1:-} == --fuzz ]]; then
  packages+=(clang libclang-rt-14-dev)
elif [[ $# -gt 0 ]]; then
  echo "usage: setup.sh [--fuzz]" >&2
  exit 2
fi

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=()
for package in "${packages[@]}"; do
  installed "$package" || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#packages[@]} packages are installed"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null; then
  as_root=(sudo)
else
  echo "setup: missing packages (${missing[*]}) and neither root nor sudo is available" >&2
  exit 1
fi

echo "setup: installing ${missing[*]}"
"${as_root[@]}" apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
