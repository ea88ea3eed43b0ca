//===- VulkanApi.h - The Vulkan entry points tilec uses ---------*- C++ -*-===//
//
// tilec opens the Vulkan loader with dlopen instead of linking it, so tilec
// starts (and simply lists no Vulkan devices) on a machine without it. Only
// the headers are a build dependency. The function table below is filled
// from vkGetInstanceProcAddr; each X-macro list names the functions of one
// level so that adding a call is one line.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_VULKAN_VULKANAPI_H
#define TILEC_LIB_RUNTIME_VULKAN_VULKANAPI_H

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>

#include "tilec/Support/Result.h"

#include <memory>
#include <string>

namespace tilec::rt::vulkan {

/// Functions that exist before an instance does.
#define TILEC_VK_GLOBAL_FUNCTIONS(X)                                           \
  X(vkCreateInstance)                                                          \
  X(vkEnumerateInstanceVersion)

/// Instance-level functions (physical devices, device creation).
#define TILEC_VK_INSTANCE_FUNCTIONS(X)                                         \
  X(vkDestroyInstance)                                                         \
  X(vkEnumeratePhysicalDevices)                                                \
  X(vkGetPhysicalDeviceProperties)                                             \
  X(vkGetPhysicalDeviceProperties2)                                            \
  X(vkGetPhysicalDeviceFeatures)                                               \
  X(vkGetPhysicalDeviceFeatures2)                                              \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                  \
  X(vkGetPhysicalDeviceMemoryProperties)                                       \
  X(vkEnumerateDeviceExtensionProperties)                                      \
  X(vkCreateDevice)

/// Device-level functions, called through the loader's dispatch.
#define TILEC_VK_DEVICE_FUNCTIONS(X)                                           \
  X(vkDestroyDevice)                                                           \
  X(vkGetDeviceQueue)                                                          \
  X(vkCreateBuffer)                                                            \
  X(vkDestroyBuffer)                                                           \
  X(vkGetBufferMemoryRequirements)                                             \
  X(vkAllocateMemory)                                                          \
  X(vkFreeMemory)                                                              \
  X(vkBindBufferMemory)                                                        \
  X(vkMapMemory)                                                               \
  X(vkCreateShaderModule)                                                      \
  X(vkDestroyShaderModule)                                                     \
  X(vkCreateDescriptorSetLayout)                                               \
  X(vkDestroyDescriptorSetLayout)                                              \
  X(vkCreatePipelineLayout)                                                    \
  X(vkDestroyPipelineLayout)                                                   \
  X(vkCreateComputePipelines)                                                  \
  X(vkDestroyPipeline)                                                         \
  X(vkCreateDescriptorPool)                                                    \
  X(vkDestroyDescriptorPool)                                                   \
  X(vkAllocateDescriptorSets)                                                  \
  X(vkUpdateDescriptorSets)                                                    \
  X(vkCreateCommandPool)                                                       \
  X(vkDestroyCommandPool)                                                      \
  X(vkAllocateCommandBuffers)                                                  \
  X(vkFreeCommandBuffers)                                                      \
  X(vkBeginCommandBuffer)                                                      \
  X(vkEndCommandBuffer)                                                        \
  X(vkCmdBindPipeline)                                                         \
  X(vkCmdBindDescriptorSets)                                                   \
  X(vkCmdDispatch)                                                             \
  X(vkCmdPipelineBarrier)                                                      \
  X(vkCmdCopyBuffer)                                                           \
  X(vkCmdResetQueryPool)                                                       \
  X(vkCmdWriteTimestamp)                                                       \
  X(vkCreateQueryPool)                                                         \
  X(vkDestroyQueryPool)                                                        \
  X(vkGetQueryPoolResults)                                                     \
  X(vkCreateFence)                                                             \
  X(vkDestroyFence)                                                            \
  X(vkResetFences)                                                             \
  X(vkWaitForFences)                                                           \
  X(vkQueueSubmit)

/// The loaded entry points. A function the loader lacks stays null (only
/// vkEnumerateInstanceVersion and the *2 queries may, on Vulkan 1.0).
struct Api {
#define TILEC_VK_DECLARE(name) PFN_##name name = nullptr;
  TILEC_VK_GLOBAL_FUNCTIONS(TILEC_VK_DECLARE)
  TILEC_VK_INSTANCE_FUNCTIONS(TILEC_VK_DECLARE)
  TILEC_VK_DEVICE_FUNCTIONS(TILEC_VK_DECLARE)
#undef TILEC_VK_DECLARE
};

/// The opened loader and one VkInstance. Programs share it (shared_ptr) so
/// that the instance outlives every device created from it.
class Instance {
public:
  /// Opens the loader and creates an instance with the newest API version
  /// both the loader and tilec know (at most 1.3). The error says what is
  /// missing: the loader library, or a driver (VK_ERROR_INCOMPATIBLE_DRIVER).
  static Result<std::shared_ptr<Instance>> create();
  ~Instance();
  Instance(const Instance &) = delete;
  Instance &operator=(const Instance &) = delete;

  const Api &api() const { return api_; }
  VkInstance handle() const { return instance_; }
  /// The instance's API version (VK_MAKE_API_VERSION form).
  uint32_t apiVersion() const { return apiVersion_; }

private:
  Instance() = default;
  void *library_ = nullptr;
  VkInstance instance_ = VK_NULL_HANDLE;
  uint32_t apiVersion_ = VK_API_VERSION_1_0;
  Api api_;
};

} // namespace tilec::rt::vulkan

#endif // TILEC_LIB_RUNTIME_VULKAN_VULKANAPI_H
