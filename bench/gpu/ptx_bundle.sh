#!/usr/bin/env bash
# Compiles every GPU bench case (bench/cases.py --gpu, at the H200 sizes)
# for the H200 twice, as PTX (its CUDA device) and as OpenCL C (its OpenCL
# device), with the cost model's default schedules, for
# bench/gpu/ptx_vs_opencl.py to time there: the PTX column of the bench
# tables against tilec's own OpenCL, from one run.
#   bench/gpu/ptx_bundle.sh [BUILD_DIR] [OUT_DIR]  (defaults: build, gpu-bundle/ptx-bench)
# The CUDA device's facts come from bench/gpu/h200-devices.json when it has
# a cuda entry, else from test/Target/PTX/Inputs/h200-cuda.json.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
out="${2:-$root/gpu-bundle/ptx-bench}"
tilec="$build/bin/tilec"
source "$root/scripts/python-with-numpy.sh"
devices="$root/bench/gpu/h200-devices.json"
cuda_devices="$devices"
grep -q '"cuda:nvidia:nvidia-h200:0"' "$devices" ||
  cuda_devices="$root/test/Target/PTX/Inputs/h200-cuda.json"
rm -rf "$out"
mkdir -p "$out/ptx" "$out/opencl"
"$TILEC_PYTHON" "$root/bench/cases.py" --gpu | while read -r name kernel defines; do
  # shellcheck disable=SC2086 # $defines is '-D M=1 -D K=2 ...'
  "$tilec" "$root/bench/kernels/$kernel.tile" $defines --target=ptx \
    --devices-from="$cuda_devices" --device=cuda:nvidia:nvidia-h200:0 \
    -o "$out/ptx/$name.ptx"
  # shellcheck disable=SC2086
  "$tilec" "$root/bench/kernels/$kernel.tile" $defines --target=opencl \
    --devices-from="$devices" --device=opencl:nvidia:nvidia-h200:0 \
    -o "$out/opencl/$name.cl"
  echo "ptx_bundle.sh: $name"
done
du -sh "$out"
