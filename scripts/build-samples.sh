#!/usr/bin/env bash
# Builds tilec (Release, in build/, configured as test.sh configures it) and compiles
# every samples/*.tile to build/samples/<name>.pto, plus its final IR to
# build/samples/<name>.tir and its report page to build/samples/<name>.html, and every
# samples/aie/*.tile (runtime sequences) for npu1 to build/samples/aie/<name>.bin (the TXN
# stream, with the sizes of the sample's `// static:` line), <name>.txt (its words as text)
# and <name>.h (the C++ builder that makes the stream for any sizes at dispatch), and every
# samples/linx/*.tile (tile-region kernels) to build/samples/linx/<name>.s (the block
# listing) and <name>.bin (its header words).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
out=$build/samples

"$root/scripts/configure.sh" release
cmake --build "$build" --target tilec

cd "$root"  # relative paths keep diagnostics short
shopt -s nullglob
samples=(samples/*.tile)
if [[ ${#samples[@]} -eq 0 ]]; then
  echo "build-samples: no samples/*.tile to compile"
  exit 0
fi

mkdir -p "$out"
failed=()
for sample in "${samples[@]}"; do
  name=$(basename "$sample" .tile)
  if "$build/tilec" "$sample" -o "$out/$name.pto" &&
     "$build/tilec" "$sample" --emit-ir -o "$out/$name.tir" &&
     "$build/tilec" "$sample" --emit=report -o "$out/$name.html"; then
    echo "  $name: samples/$name.tile -> build/samples/$name.{pto,tir,html}"
  else
    failed+=("$name")
  fi
done

mkdir -p "$out/aie"
for sample in samples/aie/*.tile; do
  name=$(basename "$sample" .tile)
  read -r -a sizes <<< "$(sed -n 's|^// static: ||p' "$sample")"
  if "$build/tilec" "$sample" --target=npu1 "${sizes[@]}" --emit=txn -o "$out/aie/$name.bin" &&
     "$build/tilec" "$sample" --target=npu1 "${sizes[@]}" --emit=txn-text -o "$out/aie/$name.txt" &&
     "$build/tilec" "$sample" --target=npu1 --emit=txn-cpp -o "$out/aie/$name.h"; then
    echo "  aie/$name: samples/aie/$name.tile -> build/samples/aie/$name.{bin,txt,h}"
  else
    failed+=("aie/$name")
  fi
done

mkdir -p "$out/linx"
for sample in samples/linx/*.tile; do
  name=$(basename "$sample" .tile)
  if "$build/tilec" "$sample" --target=linx -o "$out/linx/$name.s" &&
     "$build/tilec" "$sample" --target=linx --emit=linx-bin -o "$out/linx/$name.bin"; then
    echo "  linx/$name: samples/linx/$name.tile -> build/samples/linx/$name.{s,bin}"
  else
    failed+=("linx/$name")
  fi
done

echo "build-samples: outputs are in build/samples/"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "build-samples: failed to compile: ${failed[*]}" >&2
  exit 1
fi
