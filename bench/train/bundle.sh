#!/usr/bin/env bash
# Compiles here, for the H200 (its facts from bench/gpu/h200-devices.json),
# what the GPU machine runs without the compiler (docs/training.md):
#   - the training steps of bench/train at their benchmark batch sizes, for
#     OpenCL, Vulkan and PTX (train_bench.py --artefacts times them there
#     with tilec-run --train against PyTorch CUDA);
#   - gradient programs of the zoo (the small CNN, MobileNet and ResNet-18 at
#     reduced sizes, tilec grad --vjp) with the interpreter's outputs on
#     inputs of a fixed seed, which tilec-run --expect compares with there.
#   bench/train/bundle.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, gpu-bundle/train)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
out="${2:-$root/gpu-bundle/train}"
tilec="$build/bin/tilec"
devices="$root/bench/gpu/h200-devices.json"
here="$root/bench/train"
rm -rf "$out"
mkdir -p "$out/steps" "$out/grads"

# Steps: model, its -D sizes (the batch is the benchmark's).
steps=(
  "resnet_seed -D N=16"
  "mlp_mnist -D N=128"
  "mnist_cnn -D N=128"
)
for entry in "${steps[@]}"; do
  read -r model defines <<<"$entry"
  # shellcheck disable=SC2086
  "$tilec" "$here/$model.tile" $defines --target=opencl --devices-from="$devices" \
    --device=opencl:nvidia:nvidia-h200:0 -o "$out/steps/$model.cl"
  # shellcheck disable=SC2086
  "$tilec" "$here/$model.tile" $defines --target=spirv --devices-from="$devices" \
    --device=vulkan:nvidia:nvidia-h200:0 -o "$out/steps/$model.spv"
  # shellcheck disable=SC2086
  "$tilec" "$here/$model.tile" $defines --target=ptx --devices-from="$devices" \
    --device=cuda:nvidia:nvidia-h200:0 -o "$out/steps/$model.ptx"
  echo "bundle.sh: step $model"
done

# Zoo gradients with their reference outputs.
grads=(
  "cnn $root/examples/small_cnn.tile --wrt=F1,C1,F2,C2,W,B"
  "mobilenet $root/examples/models/mobilenet_v1.tile -D N=2 -D Res=32 --wrt=F0,S0,B0,D1,DS1,DB1,P1,PS1,PB1,D7,DS7,DB7,D13,DS13,DB13,Fc,Fb"
  "resnet $root/examples/models/resnet18.tile -D N=2 -D Res=32 --wrt=Stem,StemB,L1aF1,L1aB1,L2aF1,L2aFp,L2aBp,L3aFp,L4bB2,Fc,Fb"
)
for entry in "${grads[@]}"; do
  read -r name args <<<"$entry"
  # shellcheck disable=SC2086
  "$tilec" grad $args --vjp -o "$out/grads/$name.tile"
  "$tilec" run "$out/grads/$name.tile" --target=interp --seed=1 \
    --output-dir "$out/grads/$name.ref" > /dev/null
  "$tilec" "$out/grads/$name.tile" --target=opencl --devices-from="$devices" \
    --device=opencl:nvidia:nvidia-h200:0 -o "$out/grads/$name.cl"
  "$tilec" "$out/grads/$name.tile" --target=spirv --devices-from="$devices" \
    --device=vulkan:nvidia:nvidia-h200:0 -o "$out/grads/$name.spv"
  "$tilec" "$out/grads/$name.tile" --target=ptx --devices-from="$devices" \
    --device=cuda:nvidia:nvidia-h200:0 -o "$out/grads/$name.ptx"
  echo "bundle.sh: gradients of $name"
done
du -sh "$out"
