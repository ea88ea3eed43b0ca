//===- VulkanError.cpp - VkResult codes as tilec errors -------------------===//

#include "VulkanError.h"

namespace tilec::rt::vulkan {

std::string resultName(VkResult result) {
  switch (result) {
#define TILEC_VK_RESULT(name)                                                  \
  case name:                                                                   \
    return #name;
    TILEC_VK_RESULT(VK_SUCCESS)
    TILEC_VK_RESULT(VK_NOT_READY)
    TILEC_VK_RESULT(VK_TIMEOUT)
    TILEC_VK_RESULT(VK_EVENT_SET)
    TILEC_VK_RESULT(VK_EVENT_RESET)
    TILEC_VK_RESULT(VK_INCOMPLETE)
    TILEC_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    TILEC_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    TILEC_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    TILEC_VK_RESULT(VK_ERROR_DEVICE_LOST)
    TILEC_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    TILEC_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    TILEC_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    TILEC_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    TILEC_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    TILEC_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    TILEC_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    TILEC_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    TILEC_VK_RESULT(VK_ERROR_UNKNOWN)
    TILEC_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    TILEC_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    TILEC_VK_RESULT(VK_ERROR_FRAGMENTATION)
    TILEC_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    TILEC_VK_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
    TILEC_VK_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef TILEC_VK_RESULT
  default:
    return "VkResult(" + std::to_string(static_cast<int>(result)) + ")";
  }
}

Status failure(const std::string &what, VkResult result) {
  return Status::error(what + ": " + resultName(result));
}

} // namespace tilec::rt::vulkan
