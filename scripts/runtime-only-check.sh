#!/usr/bin/env bash
# The deployment path: builds tilec-run alone (-DTILEC_RUNTIME_ONLY=ON) with
# gcc, where no LLVM header is on the include path, and runs an artefact that
# the full build's tilec compiled, on every runtime this machine has a device
# for, against the interpreter's outputs (--expect). Fails when the runtime
# build, a run or a comparison fails, or when no runtime could be tried.
#
#   scripts/runtime-only-check.sh        (after scripts/setup.sh)
#
# Environment: BUILD_DIR (the full build, default build), RUNTIME_BUILD_DIR
# (default build-runtime).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$here/build}"
runtime_dir="${RUNTIME_BUILD_DIR:-$here/build-runtime}"
tilec="$build_dir/bin/tilec"

if [[ ! -f "$runtime_dir/build.ninja" ]]; then
  cmake -G Ninja -S "$here" -B "$runtime_dir" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DTILEC_RUNTIME_ONLY=ON
fi
ninja -C "$runtime_dir" tilec-run
tilec_run="$runtime_dir/bin/tilec-run"

work="$(mktemp -d /tmp/tilec-runtime-only.XXXXXX)"
trap 'rm -rf "$work"' EXIT
program="$here/examples/mlp.tile"
"$tilec" run "$program" --target=interp --seed=5 --output-dir "$work/expected" > /dev/null

devices="$("$tilec_run" --devices --json)"
tried=0
for entry in opencl/opencl/cl spirv/vulkan/spv; do
  IFS=/ read -r target runtime suffix <<< "$entry"
  if ! grep -q "\"runtime\": *\"$runtime\"" <<< "$devices"; then
    echo "runtime-only-check: no $runtime device, $target not tried"
    continue
  fi
  "$tilec" "$program" --target="$target" -o "$work/mlp.$suffix"
  "$tilec_run" "$work/mlp.$suffix.json" --seed=5 --expect "$work/expected"
  tried=$((tried + 1))
done
if ((tried == 0)); then
  echo "runtime-only-check: no device to run an artefact on" >&2
  exit 1
fi
echo "runtime-only-check: the runtime-only tilec-run ran $tried artefact(s) correctly"
