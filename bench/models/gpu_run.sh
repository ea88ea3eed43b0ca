#!/usr/bin/env bash
# On the H200 machine (no compiler; PyTorch with CUDA installed): times the
# zoo's OpenCL artefacts from `compare.py bundle` with tilec-run against
# PyTorch on CUDA, on the same weights drawn there from the same seed, and
# prints the markdown table (also to $OUT/h200.md when $OUT is set: the
# device tool's output folder).
#   bench/models/gpu_run.sh [BUNDLE_DIR] [REPEAT]   (defaults: gpu-bundle/models, 50)
# TILEC_PYTHON names the python that has torch and numpy (default: python3).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bundle="${1:-$root/gpu-bundle/models}"
repeat="${2:-50}"
results="${OUT:-/tmp/tilec-models-gpu}"

# tilec-run alone and NVIDIA's OpenCL driver registered.
source "$root/scripts/gpu-env.sh" || exit 1

mkdir -p "$results"
"$TILEC_RUN" --devices --json > "$results/h200-devices.json"
"${TILEC_PYTHON:-python3}" "$root/bench/models/compare.py" gpu "$bundle" --tilec-run "$TILEC_RUN" \
  --repeat "$repeat" --results "$results/h200.md"
