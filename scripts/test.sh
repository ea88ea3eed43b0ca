#!/usr/bin/env bash
# Runs every tilec test, as CI does: a bounded fuzzing run, the runtime-only
# build of tilec-run on a real artefact, bench/'s self-tests, the Catch2 units
# (ctest) and the lit suite, whose summary is printed whether or not it
# fails. Expects scripts/setup.sh to have built build/ (or BUILD_DIR).
#
# Every optional test feature (numpy, the conformance folder, the OpenCL and
# Vulkan devices, a C compiler, spirv-val, llvm-x86) must be present:
# TILEC_REQUIRE_FEATURES=all makes a missing one a fatal error, and a test
# that lit still reports UNSUPPORTED fails the run. Set TILEC_REQUIRE_FEATURES
# to a list (e.g. "numpy,conformance"), or empty, to skip the others on
# purpose.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$here/build}"
export TILEC_REQUIRE_FEATURES="${TILEC_REQUIRE_FEATURES-all}"
source "$here/scripts/python-with-numpy.sh"
lit="$(sed -n 's/^LLVM_EXTERNAL_LIT:[A-Z]*=//p' "$build_dir/CMakeCache.txt")"

section() { echo; echo "== test.sh: $*"; }

cmake --build "$build_dir"

section "fuzzing"
bash "$here/scripts/fuzz.sh" "${FUZZ_SECONDS:-60}"

section "the runtime-only tilec-run"
BUILD_DIR="$build_dir" bash "$here/scripts/runtime-only-check.sh"

section "bench/ self-tests"
"$TILEC_PYTHON" -m unittest discover -s "$here/bench/test"
TILEC="$build_dir/bin/tilec" "$TILEC_PYTHON" -m unittest discover -s "$here/bench/models/test"

section "Catch2 units"
ctest_log="$(mktemp)" lit_log="$(mktemp)"
trap 'rm -f "$ctest_log" "$lit_log"' EXIT
ctest --test-dir "$build_dir" --output-on-failure -j2 --timeout 300 -E '^lit$' \
  | tee "$ctest_log"
units="$(sed -n 's/.*tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$ctest_log")"

section "lit"
# A hung test is killed after 15 minutes, the whole suite after 35.
status=0
timeout 2100 "$lit" -sv --show-unsupported --show-xfail --timeout=900 "$build_dir/test" \
  > "$lit_log" 2>&1 || status=$?
# Every failure's log, the skipped and expected-to-fail tests by name, and
# the summary (passed, unsupported, expected failures...), always.
cat "$lit_log"
if ((status == 124)); then
  echo "test.sh: lit ran past 35 minutes" >&2
fi
if ((status != 0)); then
  echo "test.sh: lit failed (exit $status)" >&2
  exit 1
fi
if grep -q '^ *Unsupported *:' "$lit_log" && [[ "$TILEC_REQUIRE_FEATURES" == all ]]; then
  echo "test.sh: lit skipped the tests above as UNSUPPORTED; every test must run" >&2
  exit 1
fi
passed="$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$lit_log")"
echo
echo "test.sh: $((${units:-0} + ${passed:-0})) passed, 0 failed"
