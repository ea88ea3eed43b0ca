#!/usr/bin/env bash
# Builds the libFuzzer targets (tools/tilec-fuzz) in build-fuzz/ with clang-22,
# replays every committed seed, then fuzzes each target for its share of a
# bounded time:
#   tilec-fuzz-frontend   .tile source           seeds in test/Fuzz/corpus
#   tilec-fuzz-npy        .npy files             seeds in test/Fuzz/corpus-npy
#   tilec-fuzz-schedule   schedule files         seeds in test/Fuzz/corpus-schedule
#   tilec-fuzz-manifest   launch manifests       seeds in test/Fuzz/corpus-manifest
#
#   scripts/fuzz.sh [SECONDS]     (default $FUZZ_SECONDS, else 60; split
#                                  equally across the targets; 0 replays the
#                                  seeds only)
#
# Environment: FUZZ_BUILD_DIR (default build-fuzz), FUZZ_JOBS (ninja -j, 2).
# Fuzzing runs on scratch copies of the seed folders, so new coverage never
# lands in the source tree. An input that crashes a target, leaks, hangs
# (10 s) or allocates more than 2 GiB does: it is copied into the target's
# seed folder as <kind>-<sha1>, to be fixed and committed as a regression
# seed, and the script exits non-zero.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-${FUZZ_SECONDS:-60}}"
build_dir="${FUZZ_BUILD_DIR:-$here/build-fuzz}"

# name | seed folder (under test/Fuzz) | dictionary | longest input
targets=(
  "frontend|corpus|tile.dict|4096"
  "npy|corpus-npy|npy.dict|4096"
  "schedule|corpus-schedule|schedule.dict|8192"
  "manifest|corpus-manifest|manifest.dict|8192"
)

if [[ ! "$seconds" =~ ^[0-9]+$ ]]; then
  echo "fuzz.sh: SECONDS must be a whole number, not '$seconds'" >&2
  exit 2
fi
if [[ ! -f "$build_dir/build.ninja" ]]; then
  cmake -G Ninja -S "$here" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DTILEC_BUILD_FUZZERS=ON
fi
ninja -C "$build_dir" -j "${FUZZ_JOBS:-2}" tilec-fuzzers

work="$(mktemp -d /tmp/tilec-fuzz.XXXXXX)"
trap 'rm -rf "$work"' EXIT
share=$(( seconds / ${#targets[@]} ))
(( seconds == 0 || share > 0 )) || share=1
failed=0

# The seed in $seeds with the same bytes as file $1, if any.
seed_matching() {
  local sum seed
  sum="$(sha1sum < "$1" | cut -d' ' -f1)"
  for seed in "$seeds"/*; do
    if [[ "$(sha1sum < "$seed" | cut -d' ' -f1)" == "$sum" ]]; then
      echo "${seed#"$here"/}"
      return 0
    fi
  done
  return 0
}

# Runs libFuzzer for target $name with the extra arguments given; on a
# finding, prints the log and saves (or names) the input. Returns 1 then.
run_target() {
  local log="$work/$name.log" artifacts="$work/$name-artifacts" status=0
  rm -rf "$artifacts" && mkdir -p "$artifacts"
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb (and the malloc
  # limit it implies): a huge allocation from a size in the input is a bug.
  "$build_dir/bin/tilec-fuzz-$name" "$corpus" \
    -dict="$here/tools/tilec-fuzz/$dict" -max_len="$max_len" \
    -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$artifacts/" \
    -print_final_stats=1 "$@" > "$log" 2>&1 || status=$?
  if (( status == 0 )) && ! compgen -G "$artifacts/*" > /dev/null; then
    return 0
  fi
  tail -n 60 "$log" >&2
  if ! compgen -G "$artifacts/*" > /dev/null; then
    echo "fuzz.sh: tilec-fuzz-$name failed (exit $status) without saving" \
         "an input; its log is above" >&2
    return 1
  fi
  for found in "$artifacts"/*; do
    local seed saved
    seed="$(seed_matching "$found")"
    if [[ -n "$seed" ]]; then
      echo "fuzz.sh: the seed $seed fails tilec-fuzz-$name" \
           "($(basename "$found" | cut -d- -f1)); fix the bug it shows" >&2
      continue
    fi
    saved="$seeds/$(basename "$found")"
    cp "$found" "$saved"
    echo "fuzz.sh: tilec-fuzz-$name found a failing input; it is saved as" \
         "${saved#"$here"/}. Fix the bug (bad input must give a clear error," \
         "not a crash), then commit that file as a regression seed." \
         "Reproduce: $build_dir/bin/tilec-fuzz-$name ${saved#"$here"/}" >&2
  done
  return 1
}

for entry in "${targets[@]}"; do
  IFS='|' read -r name folder dict max_len <<< "$entry"
  seeds="$here/test/Fuzz/$folder"
  corpus="$work/$name-corpus"
  mkdir -p "$corpus"
  cp "$seeds"/* "$corpus/"
  # Every committed seed once, so a regression fails before any fuzzing.
  if ! run_target -runs=0; then
    failed=1
    continue
  fi
  if (( seconds == 0 )); then
    echo "fuzz.sh: tilec-fuzz-$name: the $(ls "$seeds" | wc -l) seeds pass"
    continue
  fi
  echo "fuzz.sh: fuzzing tilec-fuzz-$name for ${share}s"
  run_target -max_total_time="$share" || failed=1
  grep -h -E '[[:space:]]DONE[[:space:]]' "$work/$name.log" | tail -n 1 || true
done

if (( failed )); then
  echo "fuzz.sh: FAILED (the inputs named above)" >&2
  exit 1
fi
echo "fuzz.sh: no crash, leak, hang or huge allocation found"
