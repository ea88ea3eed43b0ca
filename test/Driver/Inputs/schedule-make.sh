#!/bin/sh
# schedule-make.sh LOOPS.mlir DEVICE TARGET SCHEDULE-JSON: prints a schedule
# file (schedule-template.json) with one entry, keyed by the first kernel
# fingerprint of LOOPS.mlir (the output of tilec --emit=loops), so that the
# tests do not hard-code fingerprints.
fingerprint=$(sed -n 's/.*tilec.fingerprint = "\([0-9a-f]*\)".*/\1/p' "$1" | head -n 1)
if [ -z "$fingerprint" ]; then
  echo "schedule-make: no kernel fingerprint in $1" >&2
  exit 1
fi
sed -e "s|@FP@|$fingerprint|" -e "s|@DEVICE@|$2|" -e "s|@TARGET@|$3|" \
    -e "s|@SCHEDULE@|$4|" "$(dirname "$0")/schedule-template.json"
