//===- VulkanProgram.h - A SPIR-V module loaded on one device ---*- C++ -*-===//
//
// A loaded program owns its own VkDevice, one device buffer per manifest
// buffer, a host-visible staging buffer per input and output, one compute
// pipeline per kernel and a command buffer recorded once: upload inputs,
// dispatch every kernel in order (with barriers and timestamps between
// them), download outputs. Running it is copying inputs into the staging
// memory, one submit, and copying the outputs back.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_VULKAN_VULKANPROGRAM_H
#define TILEC_LIB_RUNTIME_VULKAN_VULKANPROGRAM_H

#include "SpirvModule.h"
#include "VulkanDevices.h"

#include "tilec/Runtime/Device.h"

#include <memory>

namespace tilec::rt::vulkan {

/// Builds the program for `manifest` on `device`. The manifest and module
/// must have passed checkManifest for this device.
Result<std::unique_ptr<Program>>
loadProgram(std::shared_ptr<const Instance> instance,
            const PhysicalDevice &device, const Manifest &manifest,
            const SpirvModule &module);

} // namespace tilec::rt::vulkan

#endif // TILEC_LIB_RUNTIME_VULKAN_VULKANPROGRAM_H
