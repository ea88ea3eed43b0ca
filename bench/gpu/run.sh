#!/usr/bin/env bash
# On the H200 machine (no LLVM; PyTorch with CUDA installed): times the
# artefacts of bench/gpu/bundle.sh with tilec-run against PyTorch (cuBLAS,
# cuDNN) on the same inputs, checks tilec's outputs against PyTorch's, and
# prints the markdown table of bench/table.py.
#   bench/gpu/run.sh [BUNDLE_DIR] [REPEAT] [--only CASE ...]
#                                 (defaults: gpu-bundle/bench, 20, every case)
# At the H200 sizes of cases.json the run writes about 2 GB of inputs and
# 4 GB of outputs (PyTorch's and tilec's) under /tmp/tilec-bench-data;
# --only splits it across calls of a limited length.
# When $OUT is set (the device tool's output folder), the table, the raw
# PyTorch report and the machine's `tilec-run --devices --json` go there.
# TILEC_PYTHON names the python that has torch and numpy (default: python3).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bundle="${1:-$root/gpu-bundle/bench}"
repeat="${2:-20}"
shift $(($# < 2 ? $# : 2))
only=("$@") # --only CASE ..., for both scripts
data=/tmp/tilec-bench-data
results="${OUT:-$data}"

# tilec-run alone and NVIDIA's drivers registered, as for the device check.
source "$root/scripts/gpu-env.sh" || exit 1
tilec_run="$TILEC_RUN"

mkdir -p "$data" "$results"
"$tilec_run" --devices --json > "$results/h200-devices.json"
"${TILEC_PYTHON:-python3}" "$root/bench/gpu/torch_baselines.py" --cases "$bundle/cases.json" \
  --data "$data" --repeat "$repeat" "${only[@]}" > "$results/torch.json" || exit 1
"${TILEC_PYTHON:-python3}" "$root/bench/table.py" gpu --bundle "$bundle" --tilec-run "$tilec_run" \
  --torch "$results/torch.json" --data "$data" --repeat "$repeat" "${only[@]}" |
  tee "$results/table.md"
exit "${PIPESTATUS[0]}"
