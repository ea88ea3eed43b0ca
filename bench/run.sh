#!/usr/bin/env bash
# The benchmark suite on this machine: every case of bench/cases.json with
# tilec's default schedules, its tuned ones, OpenBLAS and oneDNN, printed as
# one markdown table (bench/README.md).
#   bench/run.sh [--build=DIR] [--target=llvm-x86|opencl|spirv] [--tune]
#                [--budget=S] [--repeat=N] [--device=D] [--only CASE]
#                [-D [CASE.]NAME=VALUE]
# --build is tilec's build folder (default: build); the rest goes to
# `bench/table.py cpu` (bench/table.py cpu --help), run by a python that has
# numpy (scripts/python-with-numpy.sh: TILEC_PYTHON, else /usr/bin/python3). With --tune,
# `tilec autotune` first writes bench/results/DEVICE.schedules.json.
# Needs libopenblas-dev and libdnnl-dev (bench/cpu/setup.sh installs them).
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
for arg in "$@"; do
  case $arg in --build=*) build=${arg#--build=} ;; esac
done
tilec=$build/bin/tilec
. "$root/scripts/python-with-numpy.sh"
if [ ! -x "$tilec" ]; then
  echo "bench/run.sh: no $tilec; build tilec first or give --build=DIR" >&2
  exit 2
fi

# The baselines binary, rebuilt when a source is newer than it.
bench=$build/bench/cpu-bench
sources=$(ls "$root"/bench/cpu/*.cpp "$root"/bench/cpu/*.h)
if [ ! -x "$bench" ] || [ -n "$(find $sources -newer "$bench")" ]; then
  mkdir -p "$build/bench"
  echo "bench/run.sh: building $bench" >&2
  # shellcheck disable=SC2086
  clang++-22 -std=c++17 -O2 -I/usr/include/x86_64-linux-gnu \
    $(ls "$root"/bench/cpu/*.cpp) -lopenblas -ldnnl -lpthread -o "$bench.tmp"
  mv "$bench.tmp" "$bench"
fi

# Without --build=, "$@" minus it goes to table.py.
for arg in "$@"; do
  shift
  case $arg in --build=*) ;; *) set -- "$@" "$arg" ;; esac
done
# Debian's OpenBLAS misdetects these machines' CPUs and would use slower
# kernels: SkylakeX is its AVX-512 set, Haswell its AVX2 one, chosen by what
# the CPU reports (the CPU model changes between machines; SkylakeX on a CPU
# without AVX-512 dies of SIGILL). Override by setting the variable.
if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
  default_coretype=SkylakeX
else
  default_coretype=Haswell
fi
OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-$default_coretype} \
  exec "$TILEC_PYTHON" "$root/bench/table.py" cpu --tilec "$tilec" \
  --cpu-bench "$bench" "$@"
