//===- VulkanDevices.h - What a Vulkan physical device offers ---*- C++ -*-===//
//
// Turns each VkPhysicalDevice into the DeviceInfo of Device.h plus the facts
// the runtime itself needs to create a device and check a manifest against
// its limits (queue family, timestamps, optional shader features).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_VULKAN_VULKANDEVICES_H
#define TILEC_LIB_RUNTIME_VULKAN_VULKANDEVICES_H

#include "VulkanApi.h"

#include "tilec/Runtime/Device.h"

#include <vector>

namespace tilec::rt::vulkan {

/// Optional shader features tilec's kernels may use; each one that the
/// device has is enabled when a program's device is created.
struct ShaderFeatures {
  bool int64 = false, int16 = false, float64 = false;
  bool float16 = false, int8 = false;
  bool storageBuffer16Bit = false, storageBuffer8Bit = false;
  /// SPV_KHR_float_controls may be used (Vulkan 1.2, or the extension).
  bool floatControls = false;
  /// Which feature structures were queried, and so may be chained when
  /// creating the device: 16-bit storage (1.1), 8-bit storage and
  /// float16/int8 (1.2 or their extensions).
  bool hasStorage16Query = false, has8BitStorageQuery = false;
  bool hasFloat16Int8Query = false;
  /// Extensions that provide those features on a device older than 1.2.
  std::vector<const char *> extensions;
};

/// One physical device, described.
struct PhysicalDevice {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  DeviceInfo info;
  VkPhysicalDeviceLimits limits{};
  uint32_t apiVersion = 0;
  /// The queue family tilec submits to: one with compute, preferring one
  /// with timestamps. `hasComputeQueue` is false if there is none.
  bool hasComputeQueue = false;
  uint32_t queueFamily = 0;
  /// Valid bits of that family's timestamps; 0 when it has none.
  uint32_t timestampValidBits = 0;
  ShaderFeatures features;
};

/// Every physical device of `instance` that has a compute queue.
Result<std::vector<PhysicalDevice>> enumerateDevices(const Instance &instance);

} // namespace tilec::rt::vulkan

#endif // TILEC_LIB_RUNTIME_VULKAN_VULKANDEVICES_H
