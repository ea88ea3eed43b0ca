#!/usr/bin/env bash
# Compiles every example, every conformance program and the 200 random
# programs (seed 1) for OpenCL, SPIR-V and PTX here, with the interpreter's
# outputs beside them, for a GPU machine that has no LLVM
# (scripts/gpu-device-check.sh runs them there). A program that does not
# compile fails the script: the GPU run then counts every program, not the
# subset that compiled.
#   scripts/gpu-bundle.sh [BUILD_DIR] [OUT_DIR]     (defaults: build, gpu-bundle)
# TILEC_GPU_TARGETS="opencl spirv ptx" (the default) picks the targets; the
# device check takes the same list.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
out="${2:-$root/gpu-bundle}"
diff="$root/test/Differential/differential.py"
tilec="$build/bin/tilec"
# differential.py needs numpy: TILEC_PYTHON is a python that has it.
source "$root/scripts/python-with-numpy.sh"
for target in ${TILEC_GPU_TARGETS:-opencl spirv ptx}; do
  rm -rf "$out/$target"
  "$TILEC_PYTHON" "$diff" --tilec "$tilec" --target=$target --bundle "$out/$target" \
    files "$root"/examples/*.tile
  "$TILEC_PYTHON" "$diff" --tilec "$tilec" --target=$target --bundle "$out/$target" \
    conformance --corpus "${TILEC_CONFORMANCE_DIR:-$root/../shared/conformance}"
  "$TILEC_PYTHON" "$diff" --tilec "$tilec" --target=$target --bundle "$out/$target" \
    random --count 200
done
# PTX of exactly f64 math on the GPU, beside the corpus (its functions are
# computed in software without libdevice).
if [[ " ${TILEC_GPU_TARGETS:-opencl spirv ptx} " == *" ptx "* ]]; then
  "$TILEC_PYTHON" "$diff" --tilec "$tilec" --target=ptx --bundle "$out/ptx" \
    files "$root"/test/Target/PTX/Inputs/math.tile
fi
du -sh "$out"
