#!/usr/bin/env bash
# On a GPU machine without LLVM (the team's NVIDIA H200: Ubuntu 24.04, gcc,
# cmake, ninja, NVIDIA's OpenCL and Vulkan drivers): builds tilec-run alone
# (-DTILEC_RUNTIME_ONLY=ON) and runs the bundle that scripts/gpu-bundle.sh
# made, comparing every output with the interpreter's.
#   scripts/gpu-device-check.sh [BUNDLE_DIR]        (default: gpu-bundle)
# NVIDIA's OpenCL driver is installed but not registered with the ICD loader:
# a vendors folder naming libnvidia-opencl.so.1 registers it. If the Vulkan
# loader is missing, the libvulkan1 .deb in .gl/ (see the device tool's
# README) is unpacked. NVIDIA's Vulkan ICD json names libGLX_nvidia, which
# fails to load without X; a copy naming libEGL_nvidia works.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bundle="${1:-$root/gpu-bundle}"
build=/tmp/tilec-runtime-only

# The Vulkan runtime needs the loader's headers to build and the loader to
# run: Debian's libvulkan-dev and libvulkan1 .debs in .gl/ (apt-get download
# libvulkan1 libvulkan-dev) are unpacked when the machine lacks them.
if [ ! -f /usr/include/vulkan/vulkan.h ] || ! ldconfig -p | grep -q libvulkan.so.1; then
  for deb in "$root"/.gl/libvulkan*.deb; do [ -f "$deb" ] && dpkg -x "$deb" /; done
  ldconfig
fi

cmake -G Ninja -S "$root" -B "$build" -DTILEC_RUNTIME_ONLY=ON \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ >/dev/null &&
  ninja -C "$build" tilec-run >/dev/null || { echo "build failed"; exit 1; }

vendors=/tmp/tilec-ocl-vendors
mkdir -p "$vendors"
echo libnvidia-opencl.so.1 > "$vendors/nvidia.icd"
export OCL_ICD_VENDORS="$vendors"


icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
egl=$(ls /usr/local/nvidia/lib64/libEGL_nvidia.so.0 2>/dev/null || true)
if [ -f "$icd" ] && [ -n "$egl" ]; then
  sed "s|\"library_path\": *\"[^\"]*\"|\"library_path\": \"$egl\"|" "$icd" \
    > /tmp/tilec_nvidia_icd.json
  export VK_DRIVER_FILES=/tmp/tilec_nvidia_icd.json
fi

"$build/bin/tilec-run" --devices
status=0
for target in opencl spirv; do
  echo "== $target"
  python3 "$root/scripts/device_check.py" "$bundle/$target" \
    --tilec-run "$build/bin/tilec-run" || status=1
done
exit $status
