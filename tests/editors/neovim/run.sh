#!/usr/bin/env bash
# editors/neovim: run.sh TILEC SOURCE_DIR WORK_DIR. Plays check.lua in a headless Neovim
# against `tilec lsp`; exits 77 (CTest's SKIP) when nvim is not installed.
set -euo pipefail
tilec=$1 here=$2 work=$3
if ! command -v nvim >/dev/null; then
  echo "editors/neovim skipped: nvim is not installed (scripts/setup.sh installs Debian's neovim)" >&2
  exit 77
fi
rm -rf "$work"
mkdir -p "$work/config" "$work/data" "$work/state"
cp "$here/typo.tile" "$work/typo.tile"
# Nothing of the user's: no config, plugins, shada or swap files.
XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state \
  TILEC=$tilec KERNEL=$work/typo.tile \
  timeout 120 nvim --headless -n -i NONE -u "$here/check.lua"
