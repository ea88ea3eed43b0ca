#!/bin/sh
# The first CPU benchmark: a 1024^3 f32 matmul and a ResNet 3x3 convolution,
# tilec's llvm-x86 code against OpenBLAS and oneDNN in one process.
#   bench/cpu/run.sh [BUILD_DIR] [REPEATS]     (defaults: build, 10)
# Needs libopenblas-dev and libdnnl-dev (bench/cpu/setup.sh installs them).
# tilec compiles examples/matmul.tile and examples/conv2d.tile at the
# benchmark's sizes into objects; if this tilec cannot (no llvm-x86 target),
# only the baselines run.
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
repeats=${2:-10}
tilec="$build/bin/tilec"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

compile() { # NAME FILE ENTRY -D... : object + header $out/NAME.{o,h}
  name=$1 file=$2 entry=$3
  shift 3
  "$tilec" "$root/examples/$file" --entry="$entry" "$@" --target=llvm-x86 -O3 \
    -o "$out/$name.o"
}

objects="" defines="" libs=""
if [ -x "$tilec" ] &&
   compile tilec_matmul matmul.tile matmul -D M=1024 -D K=1024 -D N=1024 &&
   compile tilec_conv conv2d.tile conv2d -D N=1 -D H=56 -D W=56 -D CI=64 \
     -D KH=3 -D KW=3 -D CO=64 -D Pad=1; then
  objects="$out/tilec_matmul.o $out/tilec_conv.o"
  # The entry symbol is the object's stem (tilec_matmul.o -> tilec_matmul);
  # the code's parallel loops run on LLVM's OpenMP runtime.
  defines="-DTILEC_BENCH_HAVE_TILEC -DTILEC_MATMUL_FN=tilec_matmul -DTILEC_CONV_FN=tilec_conv"
  libs="-L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -lomp"
else
  echo "cpu-bench: tilec cannot compile for llvm-x86 here; timing the baselines only"
fi

# shellcheck disable=SC2086
clang++-22 -std=c++17 -O2 $defines -I"$out" -I/usr/include/x86_64-linux-gnu \
  "$root/bench/cpu/CpuBench.cpp" $objects $libs -lopenblas -ldnnl -lpthread -lm \
  -o "$out/cpu-bench"

# Debian's OpenBLAS misdetects this CPU (see the README); SkylakeX is its
# AVX-512 kernel set.
OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-SkylakeX} "$out/cpu-bench" "$repeats"
