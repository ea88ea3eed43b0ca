# Sourced on a GPU machine without LLVM (the team's NVIDIA H200: Ubuntu
# 24.04, gcc, cmake, ninja, NVIDIA's OpenCL, Vulkan and EGL drivers): builds
# tilec-run alone (-DTILEC_RUNTIME_ONLY=ON) into /tmp/tilec-runtime-only and
# registers NVIDIA's drivers, then sets TILEC_RUN to the binary.
#   source scripts/gpu-env.sh || exit 1
# NVIDIA's OpenCL driver is installed but not registered with the ICD loader:
# a vendors folder naming libnvidia-opencl.so.1 registers it. If the Vulkan
# loader is missing, the libvulkan1 .deb in .gl/ (see the device tool's
# README) is unpacked. NVIDIA's Vulkan ICD json names libGLX_nvidia, which
# fails to load without X; a copy naming libEGL_nvidia works.
tilec_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tilec_build=/tmp/tilec-runtime-only

# The Vulkan runtime needs the loader's headers to build and the loader to
# run: Debian's libvulkan-dev and libvulkan1 .debs in .gl/ (apt-get download
# libvulkan1 libvulkan-dev) are unpacked when the machine lacks them.
if [ ! -f /usr/include/vulkan/vulkan.h ] || ! ldconfig -p | grep -q libvulkan.so.1; then
  for deb in "$tilec_root"/.gl/libvulkan*.deb; do [ -f "$deb" ] && dpkg -x "$deb" /; done
  ldconfig
fi

# OpenGL through EGL needs glvnd's libEGL.so.1 (Debian's libegl1 and
# libglvnd0 .debs in .gl/ when the machine lacks it) and NVIDIA's EGL vendor
# file, which glvnd does not find where NVIDIA's container puts it.
if ! ldconfig -p | grep -q 'libEGL.so.1 '; then
  for deb in "$tilec_root"/.gl/libegl1_*.deb "$tilec_root"/.gl/libglvnd0_*.deb \
    "$tilec_root"/.gl/libopengl0_*.deb "$tilec_root"/.gl/libgles2_*.deb; do
    [ -f "$deb" ] && dpkg -x "$deb" /
  done
  ldconfig
fi
tilec_egl_vendor=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$tilec_egl_vendor" ] && export __EGL_VENDOR_LIBRARY_FILENAMES="$tilec_egl_vendor"

cmake -G Ninja -S "$tilec_root" -B "$tilec_build" -DTILEC_RUNTIME_ONLY=ON \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ >/dev/null &&
  ninja -C "$tilec_build" tilec-run >/dev/null || { echo "tilec-run build failed" >&2; return 1; }
export TILEC_RUN="$tilec_build/bin/tilec-run"

tilec_vendors=/tmp/tilec-ocl-vendors
mkdir -p "$tilec_vendors"
echo libnvidia-opencl.so.1 > "$tilec_vendors/nvidia.icd"
export OCL_ICD_VENDORS="$tilec_vendors"

tilec_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
tilec_egl=$(ls /usr/local/nvidia/lib64/libEGL_nvidia.so.0 2>/dev/null || true)
if [ -f "$tilec_icd" ] && [ -n "$tilec_egl" ]; then
  sed "s|\"library_path\": *\"[^\"]*\"|\"library_path\": \"$tilec_egl\"|" "$tilec_icd" \
    > /tmp/tilec_nvidia_icd.json
  export VK_DRIVER_FILES=/tmp/tilec_nvidia_icd.json
fi
