#!/usr/bin/env bash
# Runs every tilec test: the Catch2 units and the lit suite (through ctest),
# then a bounded fuzzing run of the front end. Expects scripts/setup.sh to
# have built build/ (or BUILD_DIR).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$here/build}"

cmake --build "$build_dir"
bash "$here/scripts/fuzz.sh" "${FUZZ_SECONDS:-60}"
# The OpenCL (PoCL) and Vulkan (lavapipe) CPU devices that setup.sh installs
# must be seen: their tests fail rather than skip without them.
export TILEC_REQUIRE_DEVICES="${TILEC_REQUIRE_DEVICES-opencl,vulkan}"
ctest --test-dir "$build_dir" --output-on-failure -j2
