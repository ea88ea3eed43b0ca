#!/usr/bin/env bash
# Compiles every example, every conformance program and the 200 random
# programs (seed 1) for OpenCL, SPIR-V and PTX here, with the interpreter's
# outputs beside them, for a GPU machine that has no LLVM
# (scripts/gpu-device-check.sh runs them there). A program that does not
# compile fails the script: the GPU run then counts every program, not the
# subset that compiled.
#   scripts/gpu-bundle.sh [BUILD_DIR] [OUT_DIR]     (defaults: build, gpu-bundle)
# TILEC_GPU_TARGETS="opencl spirv ptx" (the default) picks the targets; the
# device check takes the same list. "ptx-h200" is PTX compiled for the H200's
# CUDA device (bench/gpu/h200-devices.json) rather than for no device: its
# cost model's schedules (outer products, tensor cores, warp shuffles), with
# the programs of test/Target/PTX/Inputs/mma-*.tile (tensor cores) and
# rows-*.tile (row reductions) and the zoo's ResNet-18 and MobileNet in bf16
# beside the corpus; "ptx-h200-tf32" the same
# with --allow-tf32 (f32 sums of products on wgmma in TF32, the references'
# bounds allowing it) and the tf32-*.tile programs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
out="${2:-$root/gpu-bundle}"
diff="$root/test/Differential/differential.py"
tilec="$build/bin/tilec"
# differential.py needs numpy: TILEC_PYTHON is a python that has it.
source "$root/scripts/python-with-numpy.sh"
for bundle in ${TILEC_GPU_TARGETS:-opencl spirv ptx}; do
  target=$bundle
  args=(--bundle "$out/$bundle")
  programs=("$root"/examples/*.tile)
  if [ "$bundle" = ptx-h200 ] || [ "$bundle" = ptx-h200-tf32 ]; then
    target=ptx
    args+=("--compile-arg=--devices-from=$root/bench/gpu/h200-devices.json"
           "--compile-arg=--device=cuda:nvidia:nvidia-h200:0")
    programs+=("$root"/test/Target/PTX/Inputs/mma-*.tile
               "$root"/test/Target/PTX/Inputs/rows-*.tile)
  fi
  if [ "$bundle" = ptx-h200-tf32 ]; then
    args+=("--program-arg=--allow-tf32")
    programs+=("$root"/test/Target/PTX/Inputs/tf32-*.tile)
  fi
  rm -rf "$out/$bundle"
  "$TILEC_PYTHON" "$diff" --tilec "$tilec" --target=$target "${args[@]}" \
    files "${programs[@]}"
  "$TILEC_PYTHON" "$diff" --tilec "$tilec" --target=$target "${args[@]}" \
    conformance --corpus "${TILEC_CONFORMANCE_DIR:-$root/../shared/conformance}"
  "$TILEC_PYTHON" "$diff" --tilec "$tilec" --target=$target "${args[@]}" \
    random --count 200
  # The zoo's CNNs in bf16 (--default-type) on the H200's tensor cores, at a
  # size the interpreter computes quickly.
  if [ "$bundle" = ptx-h200 ]; then
    "$TILEC_PYTHON" "$diff" --tilec "$tilec" --target=$target "${args[@]}" \
      --program-arg=--default-type=bf16 --program-arg=-D --program-arg=N=2 \
      --program-arg=-D --program-arg=Res=64 \
      files "$root"/examples/models/resnet18.tile "$root"/examples/models/mobilenet_v1.tile
  fi
done
# PTX of exactly f64 math on the GPU, beside the corpus (its functions are
# computed in software without libdevice).
if [[ " ${TILEC_GPU_TARGETS:-opencl spirv ptx} " == *" ptx "* ]]; then
  "$TILEC_PYTHON" "$diff" --tilec "$tilec" --target=ptx --bundle "$out/ptx" \
    files "$root"/test/Target/PTX/Inputs/math.tile
fi
du -sh "$out"
