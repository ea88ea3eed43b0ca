#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for tilec and builds it. Idempotent: run
# it again after pulling, it only installs what is missing and rebuilds what
# changed. Needs root (or sudo) for apt-get.
#
#   scripts/setup.sh            install packages, configure, build into build/
#   BUILD_DIR=out scripts/setup.sh   build elsewhere
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$here/build}"

# Every Debian package tilec's build and tests use.
packages=(
  cmake ninja-build clang-22 libclang-rt-22-dev
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools libomp-22-dev
  libcli11-dev libfmt-dev catch2 nlohmann-json3-dev
  # mimalloc replaces malloc in tilec (tools/tilec/CMakeLists.txt)
  libmimalloc-dev
  python3 python3-numpy python3-psutil
  # scikit-learn ships the 8x8 digits the training test converges on
  python3-sklearn
  # the runtime-only build of tilec-run (scripts/runtime-only-check.sh) uses gcc
  g++
  # OpenCL through the ICD loader, with PoCL as the CPU device
  opencl-headers ocl-icd-opencl-dev pocl-opencl-icd
  # Vulkan through its loader, with lavapipe (mesa) as the CPU device
  libvulkan-dev mesa-vulkan-drivers spirv-tools
  # OpenGL through EGL (glvnd's libEGL.so.1), with llvmpipe (mesa) as the CPU
  # device, and glslang to validate the GLSL shaders
  libegl1 libegl-mesa0 libgl1-mesa-dri glslang-tools
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  if [ "$(id -u)" != 0 ]; then sudo_cmd="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -q
  $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -G Ninja -S "$here" -B "$build_dir" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
fi
cmake --build "$build_dir"
echo "setup: tilec built in $build_dir/bin"
