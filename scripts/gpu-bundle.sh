#!/usr/bin/env bash
# Compiles every example, every conformance program and the 200 random
# programs (seed 1) for OpenCL and SPIR-V here, with the interpreter's outputs
# beside them, for a GPU machine that has no LLVM (scripts/gpu-device-check.sh
# runs them there). A program that does not compile fails the script: the
# GPU run then counts every program, not the subset that compiled.
#   scripts/gpu-bundle.sh [BUILD_DIR] [OUT_DIR]     (defaults: build, gpu-bundle)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
out="${2:-$root/gpu-bundle}"
diff="$root/test/Differential/differential.py"
tilec="$build/bin/tilec"
# differential.py needs numpy: TILEC_PYTHON is a python that has it.
source "$root/scripts/python-with-numpy.sh"
for target in opencl spirv; do
  rm -rf "$out/$target"
  "$TILEC_PYTHON" "$diff" --tilec "$tilec" --target=$target --bundle "$out/$target" \
    files "$root"/examples/*.tile
  "$TILEC_PYTHON" "$diff" --tilec "$tilec" --target=$target --bundle "$out/$target" \
    conformance --corpus "${TILEC_CONFORMANCE_DIR:-$root/../shared/conformance}"
  "$TILEC_PYTHON" "$diff" --tilec "$tilec" --target=$target --bundle "$out/$target" \
    random --count 200
done
du -sh "$out"
