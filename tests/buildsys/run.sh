#!/usr/bin/env bash
# Build-system integration tests: run.sh SCENARIO TILEC BUILD_DIR SOURCE_DIR WORK_ROOT
#   cmake     install BUILD_DIR, move the prefix, build consumer/ with find_package(tilec)
#             under Ninja and Unix Makefiles; the compilation database it writes, read by
#             `tilec lsp`; also tilec_add_kernels' argument errors
#   makefile  consumer/Makefile (tilec -MD -MP, -include *.d)
#   makefile-doc  the Makefile of docs/build-systems.md, as written, in place of it
#   ninja     consumer/build.ninja (depfile = $out.d, deps = gcc)
#   deb       cpack -G DEB from BUILD_DIR, dpkg -x into a scratch root, run tilec from there
# Each works in a fresh directory under WORK_ROOT, removed when it ends. The consumer's
# a.tile imports lib/common.tile and b.tile imports nothing: touching common.tile must
# recompile a.tile's kernel and nothing else, and a second build must do nothing.
set -euo pipefail

scenario=$1 tilec=$2 build_dir=$3 source_dir=$4 work_root=$5
consumer=$source_dir/tests/buildsys/consumer
mkdir -p "$work_root"
work=$(mktemp -d "$work_root/$scenario.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() {
  echo "FAIL ($scenario): $*" >&2
  exit 1
}

# Runs a command with its output in a log, which is shown when it fails.
logged() {
  local log=$1
  shift
  "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "failed: $*"; }
}

# Timestamps: sources start an hour old, outputs are set half an hour old after a build,
# so a touched source is newer than every output whatever the file system's granularity,
# and an output with any other mtime was written by the last build.
now=$(date +%s)
source_time=$((now - 3600))
aged_time=$((now - 1800))

copy_consumer() {
  cp -r "$consumer" "$1"
  find "$1" -exec touch -d "@$source_time" {} +
}

age() {
  touch -d "@$aged_time" "$@"
}

# The outputs among $@ written since they were aged, as "a b ..." (paths relative to $PWD).
rebuilt() {
  local out list=()
  for out in "$@"; do
    [[ $(stat -c %Y "$out") == "$aged_time" ]] || list+=("$out")
  done
  echo "${list[*]-}"
}

expect_rebuilt() {
  local what=$1 expected=$2 actual
  shift 2
  actual=$(rebuilt "$@")
  [[ $actual == "$expected" ]] || fail "$what: expected '$expected' rebuilt, got '$actual'"
}

# Compiles INPUT with the tilec under test and compares the result to OUTPUT byte for byte.
expect_same_as_direct() {
  local output=$1
  shift
  "$tilec" "$@" -o "$work/direct.out" || fail "direct tilec $* failed"
  cmp "$output" "$work/direct.out" || fail "$output differs from a direct 'tilec $*'"
}

expect_in_log() {
  grep -q -- "$2" "$1" || { cat "$1" >&2; fail "expected '$2' in the output above"; }
}

expect_count_in_log() {
  local log=$1 pattern=$2 expected=$3 actual
  actual=$(grep -c -- "$pattern" "$log" || true)
  [[ $actual == "$expected" ]] || { cat "$log" >&2; fail "expected $expected lines with '$pattern' above, got $actual"; }
}

version=$("$tilec" --version | sed -n '1s/^tilec version //p')
[[ -n $version ]] || fail "'$tilec --version' has no 'tilec version' line"

# ---- cmake ----

install_package() {
  logged "$work/install.log" cmake --install "$build_dir" --prefix "$work/staging"
  mv "$work/staging" "$work/prefix"  # the package must not remember where it was installed
  # Kernels depend on the compiler: it must be older than the aged outputs, or every
  # output is stale whatever was touched (a fresh build of tilec is minutes old).
  touch -d "@$source_time" "$work/prefix/bin/tilec"
  local file
  for file in bin/tilec share/doc/tilec/README.md share/doc/tilec/cli.md share/doc/tilec/build-systems.md \
              lib/cmake/tilec/tilecConfig.cmake lib/cmake/tilec/tilecConfigVersion.cmake \
              lib/cmake/tilec/tilecTargets.cmake lib/cmake/tilec/TilecKernels.cmake; do
    [[ -f $work/prefix/$file ]] || fail "cmake --install did not install $file"
  done
  ! grep -rq "$work/staging" "$work/prefix/lib/cmake" || fail "the installed package names its install prefix"
  [[ $("$work/prefix/bin/tilec" --version | head -1) == "tilec version $version" ]] ||
    fail "the installed tilec reports another version"
  expect_information_uri "$work/prefix/bin/tilec" "$work/prefix/share/doc/tilec/diagnostics.md"
  [[ -f $work/prefix/share/doc/tilec/images/report.png ]] || fail "cmake --install did not install docs/images"
  expect_installed_links_resolve "$work/prefix/share/doc/tilec"
}

# Every relative link of the installed Markdown (README.md's docs/..., the report image,
# docs' ../editors/...) resolves in the installed tree.
expect_installed_links_resolve() {
  local doc=$1 md target bad=()
  while IFS= read -r md; do
    while IFS= read -r target; do
      target=${target#](}
      target=${target%)}
      target=${target%%#*}
      [[ -z $target || $target == *://* || $target == mailto:* ]] && continue
      [[ -e $(dirname "$md")/$target ]] || bad+=("${md#"$doc"/}: $target")
    done < <(grep -o '](\([^)]*\))' "$md" || true)
  done < <(find "$doc" -name '*.md')
  ((${#bad[@]} == 0)) || fail "links in the installed docs that do not resolve: ${bad[*]}"
}

# A SARIF log names the diagnostics.md installed beside the tilec that wrote it, wherever
# the prefix was installed or moved to (it named the configured prefix's before).
expect_information_uri() {
  local installed=$1 doc=$2 uri
  "$installed" "$source_dir/samples/softmax.tile" -fsyntax-only --diagnostics-format=sarif 2>"$work/sarif.json" ||
    fail "$installed failed on softmax.tile"
  uri=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["runs"][0]["tool"]["driver"]["informationUri"])' \
    "$work/sarif.json")
  [[ $uri == "file://$doc" && -f $doc ]] || fail "informationUri is '$uri', expected file://$doc (an installed file)"
}

consume_with() {
  local generator=$1 src=$work/src-${1// /} bld=$work/build-${1// /}
  copy_consumer "$src"
  logged "$bld.configure.log" cmake -S "$src" -B "$bld" -G "$generator" -DCMAKE_PREFIX_PATH="$work/prefix"
  grep -rqF "$work/prefix/bin/tilec" "$bld" --include=build.ninja --include=build.make ||
    fail "$generator: the build does not run the installed $work/prefix/bin/tilec"
  logged "$bld.build.log" cmake --build "$bld"
  cd "$bld"
  local outputs=(a.pto b.pto a2a3/b.pto)
  expect_same_as_direct a.pto "$src/a.tile" --target=a5 -I "$src/lib" -Werror
  expect_same_as_direct b.pto "$src/b.tile" --target=a5 -I "$src/lib" -Werror
  expect_same_as_direct a2a3/b.pto "$src/b.tile" --target=a2a3
  expect_in_log a.pto.d "$src/lib/common.tile"

  # The whole tree, not just the outputs: the Makefile generators make each output
  # depend on a stamp (compiler_depend.ts) that every build writes.
  find "$bld" -exec touch -h -d "@$aged_time" {} +
  touch "$src/lib/common.tile"
  logged "$bld.rebuild.log" cmake --build "$bld"
  expect_rebuilt "$generator, common.tile touched" a.pto "${outputs[@]}"
  expect_count_in_log "$bld.rebuild.log" "tilec: compiling" 1
  expect_in_log "$bld.rebuild.log" "tilec: compiling a.tile"

  find "$bld" -exec touch -h -d "@$aged_time" {} +
  touch "$src/a.tile" "$src/lib/common.tile" -d "@$source_time"
  logged "$bld.noop.log" cmake --build "$bld"
  expect_rebuilt "$generator, nothing changed" "" "${outputs[@]}"
  expect_count_in_log "$bld.noop.log" "tilec: compiling" 0
  if [[ $generator == Ninja ]]; then
    expect_in_log "$bld.noop.log" "ninja: no work to do"
  fi
  cd "$work"
}

# The compilation database the module writes gives `tilec lsp` each kernel's flags: with
# the build directory at the source's build/, where the server looks, a.tile's import of
# lib/common.tile (found through INCLUDE_DIRECTORIES) is no error (consumer-lsp.json).
check_compile_commands() {
  local src=$work/src-lsp database
  copy_consumer "$src"
  logged "$src.configure.log" cmake -S "$src" -B "$src/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix"
  database=$src/build/tilec_compile_commands.json
  [[ -f $database ]] || fail "configuring wrote no $database"
  expect_count_in_log "$database" '"file": ' 3
  expect_in_log "$database" "\"file\": \"$src/a.tile\""
  expect_in_log "$database" "\"-I\", \"$src/lib\""
  command -v node >/dev/null || fail "node is missing: run scripts/setup.sh"
  logged "$work/lsp.log" node "$source_dir/tests/lsp/lsp-session.js" "$tilec" "$source_dir/tests/buildsys/consumer-lsp.json" "$src"
}

# A project whose only call is CALL must fail to configure with MESSAGE.
expect_call_rejected() {
  local call=$1 message=$2 dir=$work/bad
  rm -rf "$dir"
  mkdir -p "$dir"
  printf 'cmake_minimum_required(VERSION 3.20)\nproject(bad LANGUAGES NONE)\nfind_package(tilec REQUIRED)\n%s\n' \
    "$call" >"$dir/CMakeLists.txt"
  touch "$dir/k.tile" "$dir/x.tile"
  mkdir -p "$dir/sub"
  touch "$dir/sub/k.tile"
  if cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$work/prefix" >"$dir.log" 2>&1; then
    fail "'$call' configured without an error"
  fi
  expect_in_log "$dir.log" "$message"
}

scenario_cmake() {
  install_package
  consume_with Ninja
  consume_with "Unix Makefiles"
  check_compile_commands
  expect_call_rejected "tilec_add_kernels(k)" "tilec_add_kernels(k): no kernels; list them with SOURCES"
  expect_call_rejected "tilec_add_kernels(k SOURCES k.tile TARGETARCH a5)" \
    "tilec_add_kernels(k): unknown argument(s) 'TARGETARCH;a5'"
  expect_call_rejected "tilec_add_kernels(SOURCES k.tile)" "name the target first"
  expect_call_rejected "tilec_add_kernels(k SOURCES k.tile TARGET_ARCH)" "TARGET_ARCH given without a value"
  expect_call_rejected "tilec_add_kernels(k SOURCES k.tile TARGET_ARCH z9)" \
    "no default extension known for TARGET_ARCH 'z9'"
  expect_call_rejected "tilec_add_kernels(k SOURCES k.tile sub/k.tile)" "two sources compile to"
}

# ---- plain Makefile and build.ninja ----

# Runs the build tool in the consumer copy with the tilec under test first on PATH.
build_in() {
  local log=$1
  shift
  PATH="$(dirname "$tilec"):$PATH" logged "$log" "$@"
}

# Builds, checks the outputs, touches common.tile and checks that only a.pto was rebuilt,
# then that nothing is left to do. TOOL... is the build command.
touch_and_rebuild() {
  local outputs=(a.pto b.pto)
  build_in "$work/build.log" "$@"
  expect_same_as_direct a.pto a.tile -I lib
  expect_same_as_direct b.pto b.tile -I lib
  age "${outputs[@]}"
  touch lib/common.tile
  build_in "$work/rebuild.log" "$@"
  expect_rebuilt "common.tile touched" a.pto "${outputs[@]}"
  age "${outputs[@]}"
  touch a.tile lib/common.tile -d "@$source_time"
  build_in "$work/noop.log" "$@"
  expect_rebuilt "nothing changed" "" "${outputs[@]}"
}

scenario_makefile() {
  copy_consumer "$work/src"
  cd "$work/src"
  touch_and_rebuild make
  expect_in_log "$work/noop.log" "Nothing to be done for 'all'"
  expect_in_log a.pto.d "^lib/common.tile:$"  # -MP's empty rule

  # a.tile stops importing common.tile, which is deleted: the empty rule keeps make going.
  sed -i 's|^import "common.tile";|const ROWS = 16; const COLS = 128;|' a.tile
  rm lib/common.tile
  age a.pto b.pto
  build_in "$work/deleted.log" make
  expect_rebuilt "import deleted" a.pto a.pto b.pto
  ! grep -q common.tile a.pto.d || fail "a.pto.d still lists common.tile"
}

# The snippet a reader copies must build and rebuild as the tested Makefile does.
scenario_makefile-doc() {
  copy_consumer "$work/src"
  cd "$work/src"
  awk '/^```make$/ { inside = 1; next } /^```$/ { inside = 0 } inside' "$source_dir/docs/build-systems.md" >Makefile
  grep -q 'include' Makefile || fail "no make snippet in docs/build-systems.md"
  touch -d "@$source_time" Makefile
  touch_and_rebuild make
  expect_in_log "$work/noop.log" "Nothing to be done for 'all'"
  expect_in_log a.pto.d "^lib/common.tile:$"
}

scenario_ninja() {
  copy_consumer "$work/src"
  cd "$work/src"
  touch_and_rebuild ninja
  expect_in_log "$work/noop.log" "ninja: no work to do"
  ninja -t deps a.pto >"$work/deps-a.log"
  expect_in_log "$work/deps-a.log" "lib/common.tile"
  ninja -t deps b.pto >"$work/deps-b.log"
  ! grep -q common.tile "$work/deps-b.log" || fail "ninja -t deps lists common.tile for b.pto"
}

# ---- deb ----

expect_field() {
  local deb=$1 field=$2 pattern=$3 value
  value=$(dpkg-deb -f "$deb" "$field")
  [[ $value =~ $pattern ]] || fail "the .deb's $field is '$value', expected /$pattern/"
}

scenario_deb() {
  logged "$work/cpack.log" cpack --config "$build_dir/CPackConfig.cmake" -B "$work/pkg"
  local deb=$work/pkg/tilec_${version}_$(dpkg --print-architecture).deb
  [[ -f $deb ]] || { cat "$work/cpack.log" >&2; fail "cpack wrote no $(basename "$deb")"; }
  expect_field "$deb" Package '^tilec$'
  expect_field "$deb" Version "^${version//./\\.}$"
  expect_field "$deb" Architecture "^$(dpkg --print-architecture)$"
  expect_field "$deb" Section '^devel$'
  expect_field "$deb" Maintainer '^[^<]+ <[^@>]+@[^>]+>$'
  expect_field "$deb" Depends '(^|, )libc6 '  # filled in by dpkg-shlibdeps
  expect_field "$deb" Description '^ahead-of-time compiler for \.tile'
  dpkg-deb -c "$deb" >"$work/contents.log"
  ! grep -v ' \./usr/' "$work/contents.log" | grep -v ' \./$' || fail "the .deb installs files outside /usr"

  dpkg -x "$deb" "$work/root"
  local installed=$work/root/usr/bin/tilec
  [[ $("$installed" --version | head -1) == "tilec version $version" ]] ||
    fail "the packaged tilec does not report version $version"
  "$installed" "$source_dir/samples/softmax.tile" -o "$work/softmax.pto" || fail "the packaged tilec failed"
  expect_information_uri "$installed" "$work/root/usr/share/doc/tilec/diagnostics.md"
  expect_installed_links_resolve "$work/root/usr/share/doc/tilec"
  expect_same_as_direct "$work/softmax.pto" "$source_dir/samples/softmax.tile"
  [[ -f $work/root/usr/share/doc/tilec/README.md && -f $work/root/usr/lib/cmake/tilec/tilecConfig.cmake ]] ||
    fail "the .deb lacks the docs or the CMake package"
}

cd "$work"
case $scenario in
  cmake | makefile | makefile-doc | ninja | deb) "scenario_$scenario" ;;
  *) fail "unknown scenario (cmake, makefile, makefile-doc, ninja, deb)" ;;
esac
echo "PASS ($scenario)"
