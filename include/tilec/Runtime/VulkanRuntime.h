//===- VulkanRuntime.h - Kernels on Vulkan compute devices ------*- C++ -*-===//
//
// The Vulkan back end of the runtime interface (Device.h): it runs the SPIR-V
// module that `tilec --target=spirv` writes, one entry point per kernel, on
// any Vulkan device (lavapipe on a CPU, a GPU's driver). The loader is opened
// at run time, so a machine without it simply has no Vulkan devices.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_VULKANRUNTIME_H
#define TILEC_RUNTIME_VULKANRUNTIME_H

#include "tilec/Runtime/Device.h"

#include <memory>

namespace tilec::rt {

/// The Vulkan runtime. Creating it is cheap: the loader and the instance are
/// opened on first use (devices() or load()).
std::unique_ptr<Runtime> createVulkanRuntime();

} // namespace tilec::rt

#endif // TILEC_RUNTIME_VULKANRUNTIME_H
