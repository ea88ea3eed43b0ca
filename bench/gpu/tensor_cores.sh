#!/usr/bin/env bash
# Compiles the tensor-core bench cases for the H200's CUDA device here (bf16
# and f16 matmuls, 4096^3 and 8192^3, the cost model's default schedules,
# the f32 matmuls of 4096^3 and 8192^3 on the SIMT units beside them and in
# TF32 with --allow-tf32, and a bf16 3x3 convolution), for
# bench/gpu/tensor_cores.py to time there against cuBLAS and cuDNN
# (PyTorch) in one process.
#   bench/gpu/tensor_cores.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, gpu-bundle/tc-bench)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
out="${2:-$root/gpu-bundle/tc-bench}"
rm -rf "$out"
mkdir -p "$out"
for case in bf16-4096 bf16-8192 f16-4096 f16-8192 f32-4096 f32-8192 \
    tf32-4096 tf32-8192; do
  dtype=${case%-*} n=${case#*-}
  kernel="$root/bench/kernels/matmul_$dtype.tile"
  flags=()
  case $dtype in
    f32) kernel="$root/bench/kernels/matmul.tile" ;;
    tf32) kernel="$root/bench/kernels/matmul.tile" flags=(--allow-tf32) ;;
  esac
  "$build/bin/tilec" "$kernel" "${flags[@]}" \
    -D M=$n -D K=$n -D N=$n --target=ptx \
    --devices-from="$root/bench/gpu/h200-devices.json" \
    --device=cuda:nvidia:nvidia-h200:0 -o "$out/matmul-$dtype-$n.ptx"
  echo "tensor_cores.sh: matmul-$dtype-$n"
done
# The bf16 3x3 convolution of ResNet's conv3_x shape at batch 32 (issue 17's
# cuDNN case): an implicit GEMM whose padded taps cp.async zero-fills.
"$build/bin/tilec" "$root/bench/kernels/conv3x3_bf16.tile" \
  -D N=32 -D H=56 -D W=56 -D CI=256 -D CO=256 --target=ptx \
  --devices-from="$root/bench/gpu/h200-devices.json" \
  --device=cuda:nvidia:nvidia-h200:0 -o "$out/conv3x3-bf16-32x56x256x256.ptx"
echo "tensor_cores.sh: conv3x3-bf16-32x56x256x256"
du -sh "$out"
