//===- VulkanBuffer.cpp - A Vulkan buffer with its own memory -------------===//

#include "VulkanBuffer.h"
#include "VulkanError.h"

#include <initializer_list>
#include <optional>

namespace tilec::rt::vulkan {

namespace {

/// The first memory type allowed by `typeBits` that has all of `flags`.
std::optional<uint32_t>
findMemoryType(const VkPhysicalDeviceMemoryProperties &memory,
               uint32_t typeBits, VkMemoryPropertyFlags flags) {
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
    if ((typeBits & (1u << i)) &&
        (memory.memoryTypes[i].propertyFlags & flags) == flags)
      return i;
  return std::nullopt;
}

/// Memory properties in order of preference. Staging memory must be
/// coherent (no flushes needed); cached makes reading results back fast.
/// Device memory prefers DEVICE_LOCAL but takes any type, as CPUs have.
std::optional<uint32_t>
chooseMemoryType(const VkPhysicalDeviceMemoryProperties &memory,
                 uint32_t typeBits, MemoryKind kind) {
  constexpr VkMemoryPropertyFlags visible =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  std::initializer_list<VkMemoryPropertyFlags> device = {
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
  std::initializer_list<VkMemoryPropertyFlags> staging = {
      visible | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, visible};
  for (VkMemoryPropertyFlags flags :
       kind == MemoryKind::Device ? device : staging)
    if (auto type = findMemoryType(memory, typeBits, flags))
      return type;
  return std::nullopt;
}

} // namespace

Result<Buffer> createBuffer(const Api &api, VkDevice device,
                            const VkPhysicalDeviceMemoryProperties &memory,
                            uint64_t bytes, VkBufferUsageFlags usage,
                            MemoryKind kind, const std::string &what) {
  Buffer result;
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = bytes;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (VkResult r = api.vkCreateBuffer(device, &info, nullptr, &result.buffer))
    return failure("creating " + what, r);

  // From here on, `result` is released on every error path.
  auto fail = [&](Status status) {
    destroyBuffer(api, device, result);
    return Result<Buffer>(status);
  };
  VkMemoryRequirements needs{};
  api.vkGetBufferMemoryRequirements(device, result.buffer, &needs);
  std::optional<uint32_t> type =
      chooseMemoryType(memory, needs.memoryTypeBits, kind);
  if (!type)
    return fail(Status::error("allocating " + what +
                              ": the device has no suitable memory type"));
  VkMemoryAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  alloc.allocationSize = needs.size;
  alloc.memoryTypeIndex = *type;
  if (VkResult r =
          api.vkAllocateMemory(device, &alloc, nullptr, &result.memory))
    return fail(failure("allocating " + what, r));
  if (VkResult r =
          api.vkBindBufferMemory(device, result.buffer, result.memory, 0))
    return fail(failure("binding memory to " + what, r));
  if (kind == MemoryKind::Staging)
    if (VkResult r = api.vkMapMemory(device, result.memory, 0, VK_WHOLE_SIZE, 0,
                                     &result.mapped))
      return fail(failure("mapping " + what, r));
  return result;
}

void destroyBuffer(const Api &api, VkDevice device, Buffer &buffer) {
  // Freeing mapped memory unmaps it.
  if (buffer.buffer != VK_NULL_HANDLE)
    api.vkDestroyBuffer(device, buffer.buffer, nullptr);
  if (buffer.memory != VK_NULL_HANDLE)
    api.vkFreeMemory(device, buffer.memory, nullptr);
  buffer = Buffer();
}

} // namespace tilec::rt::vulkan
