//===- VulkanError.h - VkResult codes as tilec errors -----------*- C++ -*-===//
//
// Every Vulkan failure tilec reports names the VkResult, so that a user can
// look it up (VK_ERROR_DEVICE_LOST, VK_ERROR_OUT_OF_DEVICE_MEMORY, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_VULKAN_VULKANERROR_H
#define TILEC_LIB_RUNTIME_VULKAN_VULKANERROR_H

#include "VulkanApi.h"

#include <string>

namespace tilec::rt::vulkan {

/// The enumerator's name, e.g. "VK_ERROR_DEVICE_LOST"; unknown codes print
/// as "VkResult(-42)".
std::string resultName(VkResult result);

/// The error "<what>: <result name>", e.g. "vulkan: allocating buffer 3
/// (4096 bytes): VK_ERROR_OUT_OF_DEVICE_MEMORY".
Status failure(const std::string &what, VkResult result);

} // namespace tilec::rt::vulkan

#endif // TILEC_LIB_RUNTIME_VULKAN_VULKANERROR_H
