#!/usr/bin/env bash
# Builds the front-end fuzzer (tools/tilec-fuzz) in build-fuzz/ with clang-22
# and runs it for a bounded time on a scratch copy of test/Fuzz/corpus, so the
# committed seeds are never modified.
#
#   scripts/fuzz.sh [SECONDS]     (default 60)
#
# Environment: FUZZ_BUILD_DIR (default build-fuzz), FUZZ_JOBS (ninja -j, 2).
# Exits non-zero if the fuzzer finds a crash, a leak or a timeout; the input
# that triggered it is left in the scratch folder, whose path is printed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
build_dir="${FUZZ_BUILD_DIR:-$here/build-fuzz}"

if [[ ! -f "$build_dir/build.ninja" ]]; then
  cmake -G Ninja -S "$here" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DTILEC_BUILD_FUZZERS=ON
fi
ninja -C "$build_dir" -j "${FUZZ_JOBS:-2}" tilec-fuzz-frontend

work="$(mktemp -d /tmp/tilec-fuzz.XXXXXX)"
mkdir -p "$work/corpus" "$work/artifacts"
cp "$here"/test/Fuzz/corpus/* "$work/corpus/"
echo "fuzzing for ${seconds}s in $work"

# -timeout: one input taking 10 s is a hang; -rss_limit_mb: a huge allocation
# from a user-given size is a bug too.
"$build_dir/bin/tilec-fuzz-frontend" "$work/corpus" \
  -dict="$here/tools/tilec-fuzz/tile.dict" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 || status=$?

if [[ "${status:-0}" != 0 ]] || compgen -G "$work/artifacts/*" > /dev/null; then
  echo "fuzz.sh: the fuzzer left failing inputs in $work/artifacts" >&2
  exit 1
fi
rm -rf "$work"
