//===- VulkanBuffer.h - A Vulkan buffer with its own memory -----*- C++ -*-===//
//
// tilec's buffers are few and large (one per tensor or folded temporary), so
// each gets its own allocation instead of a sub-allocator: simple, and far
// below maxMemoryAllocationCount.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_VULKAN_VULKANBUFFER_H
#define TILEC_LIB_RUNTIME_VULKAN_VULKANBUFFER_H

#include "VulkanApi.h"

#include <string>

namespace tilec::rt::vulkan {

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  /// Host address of the memory, for host-visible buffers (kept mapped).
  void *mapped = nullptr;
};

/// Where a buffer lives: on the device for kernels, or in host-visible
/// memory for staging copies to and from host tensors.
enum class MemoryKind { Device, Staging };

/// Creates a buffer of `bytes` with `usage` and binds fresh memory to it.
/// `what` names the buffer in the error ("buffer 3 (4096 bytes)").
Result<Buffer> createBuffer(const Api &api, VkDevice device,
                            const VkPhysicalDeviceMemoryProperties &memory,
                            uint64_t bytes, VkBufferUsageFlags usage,
                            MemoryKind kind, const std::string &what);

/// Releases `buffer` (a no-op for an empty one).
void destroyBuffer(const Api &api, VkDevice device, Buffer &buffer);

} // namespace tilec::rt::vulkan

#endif // TILEC_LIB_RUNTIME_VULKAN_VULKANBUFFER_H
