#!/usr/bin/env bash
# Compiles the benchmark cases (bench/cases.json, at their H200 sizes) here
# for the H200's OpenCL device, which bench/gpu/run.sh then times there
# against PyTorch: the compiler does not run on that machine.
#   bench/gpu/bundle.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, gpu-bundle/bench)
# The device's facts come from bench/gpu/h200-devices.json (`tilec-run
# --devices --json` there; run.sh saves a fresh one), so the cost model picks
# the default schedules for the H200, not for a device of this machine.
# OUT_DIR/default/CASE.cl(.json) are the cost model's schedules;
# OUT_DIR/tuned/ holds the same compiled with the device's schedule file,
# bench/results/opencl_nvidia_nvidia-h200_0.schedules.json, if it exists,
# and a copy of that file (table.py counts the kernels it tuned). Only the
# artefacts travel: run.sh makes the inputs on the H200's machine, so the
# bundle stays small (under 1 MiB) at any size.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
out="${2:-$root/gpu-bundle/bench}"
tilec="$build/bin/tilec"
source "$root/scripts/python-with-numpy.sh"
devices="$root/bench/gpu/h200-devices.json"
device="opencl:nvidia:nvidia-h200:0"
schedules="$root/bench/results/opencl_nvidia_nvidia-h200_0.schedules.json"

# The H200's facts reach the cost model through --devices-from when this
# tilec's compile command has it; otherwise the artefacts get the generic
# limits every OpenCL device meets, and the bundle says so (table.py prints
# compiled_for.txt in the table's header).
facts=(--devices-from="$devices" --device="$device")
compiled_for="$device, its facts from bench/gpu/h200-devices.json"
if ! "$tilec" --help | grep -q -- --devices-from; then
  facts=()
  compiled_for="generic OpenCL limits: this tilec cannot compile for a device's facts (no --devices-from)"
  echo "bundle.sh: warning: $compiled_for" >&2
fi

rm -rf "$out"
mkdir -p "$out/default"
echo "$compiled_for" > "$out/compiled_for.txt"
"$TILEC_PYTHON" "$root/bench/cases.py" --gpu --json > "$out/cases.json"
variants=default
if [ -f "$schedules" ]; then
  mkdir -p "$out/tuned"
  cp "$schedules" "$out/tuned/schedules.json"
  variants="default tuned"
fi
"$TILEC_PYTHON" "$root/bench/cases.py" --gpu | while read -r name kernel defines; do
  for variant in $variants; do
    extra=()
    if [ "$variant" = tuned ]; then
      extra=(--schedule="$schedules")
    fi
    # shellcheck disable=SC2086 # $defines is '-D M=1 -D K=2 ...'
    "$tilec" "$root/bench/kernels/$kernel.tile" $defines --target=opencl \
      "${facts[@]}" "${extra[@]}" -o "$out/$variant/$name.cl"
  done
  echo "bundle.sh: $name ($variants)"
done
du -sh "$out"
