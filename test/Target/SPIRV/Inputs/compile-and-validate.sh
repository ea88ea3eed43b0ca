#!/bin/bash
# Usage: compile-and-validate.sh OUTDIR FILE.tile... : compiles each program
# through the gpu level to SPIR-V (tilec-translate --tilec-to-spirv, the
# driver's entry point), writes OUTDIR/NAME.spv and runs spirv-val
# (Vulkan 1.1) on it. Stops at the first failure, naming the program.
set -euo pipefail
out=$1
shift
mkdir -p "$out"
for file in "$@"; do
  name=$(basename "$file" .tile)
  tilec "$file" --emit=loops \
    | tilec-opt --tilec-pipeline-gpu \
    | tilec-translate --tilec-to-spirv -o "$out/$name.spv" \
    || { echo "FAILED to compile $file"; exit 1; }
  spirv-val --target-env vulkan1.1 "$out/$name.spv" \
    || { echo "INVALID SPIR-V from $file"; exit 1; }
  echo "valid: $name"
done
