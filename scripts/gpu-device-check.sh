#!/usr/bin/env bash
# On the GPU machine (see gpu-env.sh): builds tilec-run alone and runs the
# bundle that scripts/gpu-bundle.sh made, comparing every output with the
# interpreter's.
#   scripts/gpu-device-check.sh [BUNDLE_DIR]        (default: gpu-bundle)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bundle="${1:-$root/gpu-bundle}"
source "$root/scripts/gpu-env.sh" || exit 1

"$TILEC_RUN" --devices
status=0
for target in opencl spirv; do
  echo "== $target"
  python3 "$root/scripts/device_check.py" "$bundle/$target" \
    --tilec-run "$TILEC_RUN" || status=1
done
exit $status
