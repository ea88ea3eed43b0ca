#!/usr/bin/env bash
# On the H200 machine (no LLVM; PyTorch with CUDA): what bench/train/bundle.sh
# compiled here, run with tilec-run.
#   1. the zoo's gradient programs on OpenCL, Vulkan and PTX (CUDA) against
#      the interpreter's outputs (tilec-run --expect);
#   2. train_bench.py with tilec-run --train on the training steps, OpenCL,
#      Vulkan and PTX, against PyTorch CUDA eager and as a CUDA graph.
#   bench/train/gpu_run.sh [BUNDLE_DIR] [train_bench.py options ...]
# TILEC_TRAIN_KINDS (cl spv ptx) and TILEC_TRAIN_TARGETS (opencl spirv ptx)
# pick what runs.
# Reports go to $OUT (the device tool's output folder) or /tmp/tilec-train.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bundle="${1:-$root/gpu-bundle/train}"
shift $(($# < 1 ? $# : 1))
out="${OUT:-/tmp/tilec-train}"
mkdir -p "$out"
source "$root/scripts/gpu-env.sh" || exit 1
"$TILEC_RUN" --devices --json > "$out/devices.json"

status=0
for kind in ${TILEC_TRAIN_KINDS:-cl spv ptx}; do
  for manifest in "$bundle"/grads/*."$kind".json; do
    name="$(basename "$manifest" ."$kind".json)"
    if "$TILEC_RUN" "$manifest" --seed=1 --expect "$bundle/grads/$name.ref" \
        > "$out/grads-$name-$kind.txt" 2>&1; then
      echo "gradients of $name ($kind): $(grep -c '; ok)' "$out/grads-$name-$kind.txt") outputs match the interpreter"
    else
      status=1
      echo "gradients of $name ($kind): FAILED"
      tail -5 "$out/grads-$name-$kind.txt"
    fi
  done
done

for target in ${TILEC_TRAIN_TARGETS:-opencl spirv ptx}; do
  "${TILEC_PYTHON:-python3}" "$root/bench/train/train_bench.py" --tilec-run "$TILEC_RUN" \
    --artefacts "$bundle/steps" --target "$target" --cuda --no-torch-cpu "$@" \
    --out "$out/train-$target.json" || status=1
done
exit $status
