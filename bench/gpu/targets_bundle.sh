#!/usr/bin/env bash
# Compiles every GPU bench case (bench/cases.py --gpu, at the H200 sizes)
# for the H200 once per target, as OpenCL C (its OpenCL device), PTX (its
# CUDA device) and GLSL (its GL device), with the cost model's default
# schedules, for bench/gpu/targets_vs_opencl.py to time there: the PTX and
# GL columns of the bench tables against tilec's own OpenCL, from one run.
#   bench/gpu/targets_bundle.sh [BUILD_DIR] [OUT_DIR]
#                                  (defaults: build, gpu-bundle/targets-bench)
# The devices' facts come from bench/gpu/h200-devices.json (`tilec-run
# --devices --json` there).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
out="${2:-$root/gpu-bundle/targets-bench}"
tilec="$build/bin/tilec"
source "$root/scripts/python-with-numpy.sh"
devices="$root/bench/gpu/h200-devices.json"
cuda=cuda:nvidia:nvidia-h200:0
gl=gl:nvidia:nvidia-h200:0
rm -rf "$out"
mkdir -p "$out/ptx" "$out/opencl" "$out/glsl"
"$TILEC_PYTHON" "$root/bench/cases.py" --gpu | while read -r name kernel defines; do
  # shellcheck disable=SC2086 # $defines is '-D M=1 -D K=2 ...'
  "$tilec" "$root/bench/kernels/$kernel.tile" $defines --target=ptx \
    --devices-from="$devices" --device=$cuda -o "$out/ptx/$name.ptx"
  # shellcheck disable=SC2086
  "$tilec" "$root/bench/kernels/$kernel.tile" $defines --target=opencl \
    --devices-from="$devices" --device=opencl:nvidia:nvidia-h200:0 \
    -o "$out/opencl/$name.cl"
  # shellcheck disable=SC2086
  "$tilec" "$root/bench/kernels/$kernel.tile" $defines --target=glsl \
    --devices-from="$devices" --device=$gl -o "$out/glsl/$name.glsl"
  echo "targets_bundle.sh: $name"
done
du -sh "$out"
