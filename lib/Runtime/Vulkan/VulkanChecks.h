//===- VulkanChecks.h - A manifest against a device -------------*- C++ -*-===//
//
// Everything about a spirv manifest that can be wrong for one device is
// checked before any Vulkan object is made, so that the user reads which
// kernel exceeds which limit instead of a driver's VK_ERROR_UNKNOWN (or a
// crash: drivers need not check these limits themselves).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_VULKAN_VULKANCHECKS_H
#define TILEC_LIB_RUNTIME_VULKAN_VULKANCHECKS_H

#include "SpirvModule.h"
#include "VulkanDevices.h"

#include "tilec/Runtime/Manifest.h"
#include "tilec/Support/Tensor.h"

#include <array>
#include <map>
#include <string>

namespace tilec::rt::vulkan {

/// The entry point a kernel runs: its spirv_entry, else its name.
const std::string &entryPointName(const ManifestKernel &kernel);

/// Checks the manifest's target, each kernel's entry point, work-group size
/// (against the module's LocalSize and the device's limits), group counts,
/// descriptor bindings and buffer sizes, and the module's capabilities
/// against the device's features. Messages name the kernel and the limit.
Status checkManifest(const Manifest &manifest, const SpirvModule &module,
                     const PhysicalDevice &device);


} // namespace tilec::rt::vulkan

#endif // TILEC_LIB_RUNTIME_VULKAN_VULKANCHECKS_H
