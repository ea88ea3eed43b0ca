#!/usr/bin/env bash
# On the GPU machine (see gpu-env.sh): builds tilec-run alone and runs the
# bundle that scripts/gpu-bundle.sh made, comparing every output with the
# interpreter's, on the machine's GPU (a runtime without a GPU device fails).
#   scripts/gpu-device-check.sh [BUNDLE_DIR]        (default: gpu-bundle)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bundle="${1:-$root/gpu-bundle}"
source "$root/scripts/gpu-env.sh" || exit 1

"$TILEC_RUN" --devices
# The first GPU of a runtime ("opencl", "vulkan", "cuda", "gl"), or nothing. The machine
# also has PoCL, which tilec-run would pick by default: without --device the
# check ran on the CPU and said nothing about the GPU.
gpu_of() {
  "$TILEC_RUN" --devices --json | python3 -c '
import json, sys
ids = [d["id"] for d in json.load(sys.stdin)["devices"]
       if d.get("runtime") == sys.argv[1] and d.get("type") == "gpu"]
print(ids[0] if ids else "")' "$1"
}
status=0
# The targets scripts/gpu-bundle.sh bundled (the same variable).
for target in ${TILEC_GPU_TARGETS:-opencl spirv ptx}; do
  case $target in
    spirv) runtime=vulkan ;;
    glsl) runtime=gl ;;
    ptx | ptx-h200 | ptx-h200-tf32) runtime=cuda ;;
    *) runtime=$target ;;
  esac
  device=$(gpu_of "$runtime")
  echo "== $target on ${device:-no $runtime GPU}"
  if [ -z "$device" ]; then
    status=1
    continue
  fi
  python3 "$root/scripts/device_check.py" "$bundle/$target" \
    --tilec-run "$TILEC_RUN" --device "$device" || status=1
done
exit $status
