#!/bin/sh
# Times the reference interpreter.
#   bench/interp/run.sh [BUILD_DIR]     (default: build)
# 1. ConvBench.cpp: single convolutions built as typed programs by hand,
#    reported in multiply-adds per second of CPU time.
# 2. examples/models/mobilenet_v1.tile (batch 1, 224x224) through
#    `tilec run --target=interp` (parse, bind, generate inputs, interpret),
#    if the tilec driver is built.
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
ninja -C "$build" TilecInterp >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
clang++-22 -std=c++17 -O2 -fno-exceptions -I"$root/include" -I"$root/test/Unit" \
  -I/usr/lib/llvm-22/include "$root/bench/interp/ConvBench.cpp" \
  "$build/lib/Interp/libTilecInterp.a" "$build/lib/Frontend/libTilecFrontend.a" \
  "$build/lib/Support/libTilecSupport.a" -L/usr/lib/llvm-22/lib -lLLVM \
  -o "$out/conv-bench"
"$out/conv-bench"
if [ -x "$build/bin/tilec" ]; then
  echo "MobileNet v1 224x224 (569M MACs), tilec run --target=interp:"
  /usr/bin/time -f "  wall %e s  cpu %U s user" "$build/bin/tilec" run \
    "$root/examples/models/mobilenet_v1.tile" -D N=1 -D Res=224 --target=interp \
    --output-dir "$out" >/dev/null
fi
