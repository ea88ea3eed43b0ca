#!/usr/bin/env bash
# Remote tuning of the benchmark cases (bench/cases.json, H200 sizes) for the
# H200's OpenCL device, in three steps with files between them (docs/autotune.md):
#   bench/gpu/tune.sh export [BUILD_DIR] [DIR] [--only CASE ...]
#       here: candidates, inputs, the interpreter's references
#   bench/gpu/tune.sh measure [DIR]              there: tilec-run --tune on each case
#   bench/gpu/tune.sh import [BUILD_DIR] [DIR] [--only CASE ...]
#       here: merge the winners into
#       bench/results/opencl_nvidia_nvidia-h200_0.schedules.json
# (defaults: build, gpu-bundle/tune, every case). Carry DIR to the H200 (at
# most 64 MiB a call). The export holds each case's inputs and the
# interpreter's outputs and error bounds, so at the H200 sizes only the small
# cases fit (matmul-square-1024 and matmul-large-k, about 20 and 33 MiB, and
# the interpreter takes long on them); --only picks them. A schedule is
# keyed by the kernel's shapes, so tuning a case at other sizes (-D) does
# not tune the benchmark. bench/gpu/bundle.sh then compiles the tuned column
# from that schedule file.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
step="${1:?usage: tune.sh export|measure|import ...}"
shift
devices="$root/bench/gpu/h200-devices.json"
device="opencl:nvidia:nvidia-h200:0"
schedules="$root/bench/results/opencl_nvidia_nvidia-h200_0.schedules.json"

case "$step" in
export)
  tilec="${1:-$root/build}/bin/tilec"
  source "$root/scripts/python-with-numpy.sh"
  dir="${2:-$root/gpu-bundle/tune}"
  shift $(($# < 2 ? $# : 2))
  rm -rf "$dir"
  mkdir -p "$dir"
  "$TILEC_PYTHON" "$root/bench/cases.py" --gpu "$@" | while read -r name kernel defines; do
    # shellcheck disable=SC2086 # $defines is '-D M=1 -D K=2 ...'
    "$tilec" autotune "$root/bench/kernels/$kernel.tile" $defines \
      --target=opencl --devices-from="$devices" --device="$device" \
      --export-candidates "$dir/$name"
  done
  du -sh "$dir"
  ;;
measure)
  dir="${1:-$root/gpu-bundle/tune}"
  source "$root/scripts/gpu-env.sh" || exit 1
  for case_dir in "$dir"/*/; do
    "$TILEC_RUN" --tune "$case_dir" --device="$device" ||
      echo "tune.sh: $case_dir: tilec-run --tune failed" >&2
  done
  ;;
import)
  tilec="${1:-$root/build}/bin/tilec"
  source "$root/scripts/python-with-numpy.sh"
  dir="${2:-$root/gpu-bundle/tune}"
  shift $(($# < 2 ? $# : 2))
  mkdir -p "$(dirname "$schedules")"
  "$TILEC_PYTHON" "$root/bench/cases.py" --gpu "$@" | while read -r name kernel defines; do
    [ -f "$dir/$name/results.json" ] || { echo "tune.sh: $name: not measured" >&2; continue; }
    # shellcheck disable=SC2086
    "$tilec" autotune "$root/bench/kernels/$kernel.tile" $defines \
      --target=opencl --import "$dir/$name" -o "$schedules"
  done
  ;;
*)
  echo "usage: tune.sh export|measure|import ..." >&2
  exit 2
  ;;
esac
