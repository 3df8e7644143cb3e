#!/usr/bin/env bash
# Installs the Debian packages tilec needs to build and test (with --fuzz, also clang and
# its libFuzzer runtime, for scripts/fuzz.sh), then the npm tools the tests run (the SARIF
# Multitool, vscode-textmate and vscode-oniguruma, playwright-core and pngjs, pinned by
# tests/npm/package-lock.json, into tests/npm/node_modules). Idempotent: packages that are already installed are left
# alone, apt is not touched at all when nothing is missing, and npm only runs when the
# installed tools do not match the lock file. Runs as root (CI) or through sudo.
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache
  uuid-dev  # libantlr4-runtime links -luuid but does not depend on uuid-dev
  antlr4 libantlr4-runtime-dev
  libcli11-dev libspdlog-dev nlohmann-json3-dev doctest-dev
  time  # /usr/bin/time, used by bench/compile-bench.sh for peak memory
  make  # the build-system tests drive a plain Makefile and CMake's Unix Makefiles generator
  dpkg-dev  # dpkg-shlibdeps, which CPack's .deb generator runs to fill in Depends
  file      # which CPack's .deb generator runs to find the binaries for dpkg-shlibdeps
  chromium fonts-dejavu-core  # the report tests render --emit=report pages headless
  python3-numpy  # tests/lit/interp checks --run against NumPy (run with /usr/bin/python3)
  neovim  # editors/neovim drives a headless nvim (0.7 on Debian 12) as a client of tilec lsp
)
# A machine with its own Node.js (nodesource's, say) already has npm; only a machine
# without one takes Debian's nodejs and npm.
command -v npm >/dev/null || packages+=(nodejs npm)
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

install_npm_tools() {
  local dir
  dir=$(cd "$(dirname "$0")/../tests/npm" && pwd)
  if [[ -f $dir/node_modules/.installed-lock &&
        $(cat "$dir/node_modules/.installed-lock") == $(sha256sum <"$dir/package-lock.json") ]]; then
    echo "setup: the npm test tools are installed"
    return
  fi
  echo "setup: installing the npm test tools into tests/npm/node_modules"
  # Node trusts only its built-in CAs; where the machine reaches the registry through a
  # proxy with its own CA (installed in the system store), npm needs the system bundle.
  local system_cas=/etc/ssl/certs/ca-certificates.crt
  if [[ -z ${NODE_EXTRA_CA_CERTS:-} && -r $system_cas ]]; then
    export NODE_EXTRA_CA_CERTS=$system_cas
  fi
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  sha256sum <"$dir/package-lock.json" >"$dir/node_modules/.installed-lock"
}

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#packages[@]} packages are installed"
  install_npm_tools
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
install_npm_tools
