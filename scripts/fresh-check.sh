#!/usr/bin/env bash
# Proves the README's two commands on a fresh machine: builds a minimal Debian 12 root
# (debootstrap, variant minbase), clones this repository's committed HEAD into it, and runs
# the first two commands of the README's first ```sh block there, as root, in order. A
# package the build needs but the setup script forgets fails here, whatever the host has.
#
# Needs root (chroot, mounts) and Debian's package mirror. Prints the time of each step.
# Environment: FRESH_CHECK_DIR (work directory, default: a new one under /var/tmp, removed
# afterwards), FRESH_CHECK_MIRROR (default http://deb.debian.org/debian),
# FRESH_CHECK_KEEP=1 keeps the root for inspection.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
if [[ $(id -u) -ne 0 ]]; then
  echo "fresh-check: needs root (debootstrap and chroot)" >&2
  exit 2
fi

# The README's commands: the first two non-empty lines of its first ```sh block, without
# their trailing comments.
mapfile -t commands < <(awk '/^```sh$/ {inside = 1; next} inside && /^```/ {exit}
                             inside { sub(/[[:space:]]+#.*$/, ""); if (length($0)) print }' \
                        "$repo/README.md" | head -n 2)
if [[ ${#commands[@]} -ne 2 ]]; then
  echo "fresh-check: README.md does not start with a \`\`\`sh block of two commands" >&2
  exit 1
fi

mirror=${FRESH_CHECK_MIRROR:-http://deb.debian.org/debian}

work=${FRESH_CHECK_DIR:-$(mktemp -d /var/tmp/tilec-fresh.XXXXXX)}
chroot_dir=$work/root
mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
  if [[ ${FRESH_CHECK_KEEP:-0} != 1 ]]; then rm -rf "$work"; fi
}
trap cleanup EXIT

step_start=0
step() {
  step_start=$SECONDS
  echo "fresh-check: $*"
}
step_done() { echo "fresh-check:   done in $((SECONDS - step_start)) s"; }

if ! command -v debootstrap >/dev/null; then
  step "installing debootstrap on the host"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
  step_done
fi

step "debootstrap --variant=minbase bookworm from $mirror"
debootstrap --variant=minbase bookworm "$chroot_dir" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  exit 1
}
step_done

for fs in proc sys dev; do
  mount --rbind "/$fs" "$chroot_dir/$fs"
  mounted+=("$chroot_dir/$fs")
done
cp -L /etc/resolv.conf "$chroot_dir/etc/resolv.conf" 2>/dev/null || true
# A fresh machine on this network trusts the network's own CAs (an egress proxy's, say)
# like this one does; ca-certificates adds them to the system bundle when setup installs it.
mkdir -p "$chroot_dir/usr/local/share/ca-certificates"
cp -L /usr/local/share/ca-certificates/*.crt "$chroot_dir/usr/local/share/ca-certificates/" 2>/dev/null || true

step "cloning the committed HEAD of $repo"
git clone -q --no-hardlinks "$repo" "$chroot_dir/src/tilec"
git -C "$chroot_dir/src/tilec" log -1 --format='fresh-check:   at %h %s'
step_done

n=0
for command in "${commands[@]}"; do
  n=$((n + 1))
  step "running in the fresh root: $command"
  log=$work/command-$n.log
  if ! chroot "$chroot_dir" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      LANG=C.UTF-8 /bin/bash -c "cd /src/tilec && $command" >"$log" 2>&1; then
    echo "fresh-check: FAILED: $command; the last lines of its output:" >&2
    tail -n 60 "$log" >&2
    exit 1
  fi
  grep -E '^(setup|build-samples):|tests passed|Total Test time' "$log" | sed 's/^/fresh-check:   | /' || true
  step_done
done
echo "fresh-check: the README's two commands pass on a minimal Debian 12 root ($SECONDS s in all)"
