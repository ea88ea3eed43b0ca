//===- VulkanProgram.cpp - A SPIR-V module loaded on one device -----------===//

#include "VulkanProgram.h"
#include "VulkanBuffer.h"
#include "VulkanChecks.h"
#include "VulkanError.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace tilec::rt::vulkan {

namespace {

/// One kernel's pipeline and the descriptor sets binding its buffers.
struct KernelPipeline {
  std::vector<VkDescriptorSetLayout> setLayouts; ///< sets 0 .. max used
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets;
  /// The layouts and the pipeline are an earlier kernel's, which owns them.
  bool shared = false;
};

/// Whether `a` and `b` can run on one pipeline: the same entry point with
/// the same descriptor slots (their buffers may differ). The compiler gives
/// the launches of equal kernels one entry point (docs/manifest.md), and a
/// pipeline is where the driver compiles the shader.
bool samePipeline(const ManifestKernel &a, const ManifestKernel &b) {
  if (entryPointName(a) != entryPointName(b) ||
      a.bindings.size() != b.bindings.size())
    return false;
  for (size_t i = 0; i < a.bindings.size(); ++i)
    if (a.bindings[i].set != b.bindings[i].set ||
        a.bindings[i].binding != b.bindings[i].binding)
      return false;
  return true;
}

/// A global memory barrier from one pipeline stage's writes to another's
/// accesses: tilec's buffers are whole tensors, so finer barriers gain
/// nothing.
void memoryBarrier(const Api &api, VkCommandBuffer commands,
                   VkPipelineStageFlags srcStage, VkAccessFlags srcAccess,
                   VkPipelineStageFlags dstStage, VkAccessFlags dstAccess) {
  VkMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = srcAccess;
  barrier.dstAccessMask = dstAccess;
  api.vkCmdPipelineBarrier(commands, srcStage, dstStage, 0, 1, &barrier, 0,
                           nullptr, 0, nullptr);
}

class VulkanProgram final : public Program {
public:
  VulkanProgram(std::shared_ptr<const Instance> instance,
                const PhysicalDevice &device, const Manifest &manifest)
      : instance_(std::move(instance)), api_(instance_->api()),
        physical_(device), manifest_(manifest) {}
  ~VulkanProgram() override;

  /// Creates every Vulkan object and records the command buffer.
  Status build(const SpirvModule &module);

  Status run(const std::map<std::string, Tensor> &inputs,
             std::map<std::string, Tensor> &outputs,
             std::vector<KernelTiming> *timings) override;
  Status setInput(const std::string &name, const Tensor &tensor) override;
  Status runResident(const std::map<std::string, Tensor> &fresh,
                     const std::vector<Carry> &carried) override;
  Status readBack(const std::string &name, Tensor &tensor) override;

private:
  /// Records commands into a fresh command buffer, submits it and waits.
  Status submitOnce(const std::string &what,
                    const std::function<void(VkCommandBuffer)> &record);
  /// A primary command buffer from the program's pool, into `commands`.
  Status allocateCommands(VkCommandBuffer &commands, const std::string &what);
  /// Submits `commands` and waits for it.
  Status submitAndWait(VkCommandBuffer commands, const std::string &what);
  /// Records the resident step: uploads of `freshNames`, the kernels, and
  /// the carried copies, device to device.
  Status recordResident(const std::vector<std::string> &freshNames,
                        const std::vector<Carry> &carried);

  Status createDevice();
  Status createBuffers();
  Status createPipeline(const ManifestKernel &kernel, KernelPipeline &out);
  Status createDescriptorSets();
  Status recordCommands();
  /// The dispatch of kernel `index` after a barrier on the one before,
  /// between two timestamps when `timed`.
  void recordKernel(VkCommandBuffer commands, size_t index, bool timed);
  /// Copies `uploads` from their staging buffers, then every kernel, each
  /// behind the barriers its reads need.
  void recordUploadsAndKernels(VkCommandBuffer commands,
                               const std::vector<const ManifestValue *> &uploads,
                               bool timed);
  Status copyInputs(const std::map<std::string, Tensor> &inputs);
  void copyOutputs(std::map<std::string, Tensor> &outputs);
  Status readTimings(std::vector<KernelTiming> &timings);
  /// "kernels a, b on vulkan:...": what a failed submission concerns.
  std::string runDescription() const;

  std::shared_ptr<const Instance> instance_;
  const Api &api_;
  PhysicalDevice physical_;
  Manifest manifest_;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::map<int, Buffer> buffers_; ///< every manifest buffer, by id
  std::map<int, Buffer> staging_; ///< inputs and outputs, by buffer id
  VkShaderModule shader_ = VK_NULL_HANDLE;
  std::vector<KernelPipeline> kernels_;
  VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
  VkCommandPool commandPool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  /// Two timestamps per kernel; null when the queue has no timestamps.
  VkQueryPool queries_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  /// The resident step's command buffer and what it was recorded for.
  VkCommandBuffer resident_ = VK_NULL_HANDLE;
  std::vector<std::string> residentFresh_;
  std::vector<std::pair<std::string, std::string>> residentCarried_;
};

VulkanProgram::~VulkanProgram() {
  if (device_ == VK_NULL_HANDLE)
    return;
  // run() waits for every submission, so nothing is in flight here.
  for (KernelPipeline &k : kernels_) {
    if (k.shared)
      continue;
    if (k.pipeline)
      api_.vkDestroyPipeline(device_, k.pipeline, nullptr);
    if (k.layout)
      api_.vkDestroyPipelineLayout(device_, k.layout, nullptr);
    for (VkDescriptorSetLayout layout : k.setLayouts)
      api_.vkDestroyDescriptorSetLayout(device_, layout, nullptr);
  }
  if (descriptorPool_)
    api_.vkDestroyDescriptorPool(device_, descriptorPool_, nullptr);
  if (shader_)
    api_.vkDestroyShaderModule(device_, shader_, nullptr);
  if (fence_)
    api_.vkDestroyFence(device_, fence_, nullptr);
  if (queries_)
    api_.vkDestroyQueryPool(device_, queries_, nullptr);
  if (commandPool_)
    api_.vkDestroyCommandPool(device_, commandPool_, nullptr);
  for (auto &entry : staging_)
    destroyBuffer(api_, device_, entry.second);
  for (auto &entry : buffers_)
    destroyBuffer(api_, device_, entry.second);
  api_.vkDestroyDevice(device_, nullptr);
}

Status VulkanProgram::build(const SpirvModule &module) {
  if (Status s = createDevice(); !s)
    return s;
  if (Status s = createBuffers(); !s)
    return s;
  VkShaderModuleCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  info.codeSize = module.words.size() * sizeof(uint32_t);
  info.pCode = module.words.data();
  if (VkResult r = api_.vkCreateShaderModule(device_, &info, nullptr, &shader_))
    return failure("creating the SPIR-V shader module on " + physical_.info.id,
                   r);
  kernels_.resize(manifest_.kernels.size());
  for (size_t i = 0; i < kernels_.size(); ++i) {
    auto owner = std::find_if(
        kernels_.begin(), kernels_.begin() + i, [&](const KernelPipeline &k) {
          return !k.shared &&
                 samePipeline(manifest_.kernels[&k - kernels_.data()],
                              manifest_.kernels[i]);
        });
    if (owner != kernels_.begin() + i) {
      kernels_[i] = *owner;
      kernels_[i].shared = true;
      continue;
    }
    if (Status s = createPipeline(manifest_.kernels[i], kernels_[i]); !s)
      return s;
  }
  if (Status s = createDescriptorSets(); !s)
    return s;
  return recordCommands();
}

Status VulkanProgram::createDevice() {
  const ShaderFeatures &f = physical_.features;
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{};
  queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue.queueFamilyIndex = physical_.queueFamily;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;

  // Every optional feature the device has is enabled: which ones a module
  // uses was already checked against them (checkManifest).
  VkPhysicalDeviceFeatures enabled{};
  enabled.shaderInt64 = f.int64;
  enabled.shaderInt16 = f.int16;
  enabled.shaderFloat64 = f.float64;
  VkPhysicalDevice16BitStorageFeatures storage16{};
  storage16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES;
  storage16.storageBuffer16BitAccess = f.storageBuffer16Bit;
  VkPhysicalDevice8BitStorageFeatures storage8{};
  storage8.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES;
  storage8.storageBuffer8BitAccess = f.storageBuffer8Bit;
  VkPhysicalDeviceShaderFloat16Int8Features float16Int8{};
  float16Int8.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES;
  float16Int8.shaderFloat16 = f.float16;
  float16Int8.shaderInt8 = f.int8;

  VkDeviceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.pEnabledFeatures = &enabled;
  info.enabledExtensionCount = f.extensions.size();
  info.ppEnabledExtensionNames = f.extensions.data();
  // Chained back to front: each structure only where it was queried.
  void *chain = nullptr;
  if (f.hasFloat16Int8Query) {
    float16Int8.pNext = chain;
    chain = &float16Int8;
  }
  if (f.has8BitStorageQuery) {
    storage8.pNext = chain;
    chain = &storage8;
  }
  if (f.hasStorage16Query) {
    storage16.pNext = chain;
    chain = &storage16;
  }
  info.pNext = chain;
  if (VkResult r =
          api_.vkCreateDevice(physical_.handle, &info, nullptr, &device_))
    return failure("creating Vulkan device " + physical_.info.id, r);
  api_.vkGetDeviceQueue(device_, physical_.queueFamily, 0, &queue_);
  return Status::success();
}

Status VulkanProgram::createBuffers() {
  VkPhysicalDeviceMemoryProperties memory{};
  instance_->api().vkGetPhysicalDeviceMemoryProperties(physical_.handle,
                                                       &memory);
  constexpr VkBufferUsageFlags transfers =
      VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  for (const ManifestBuffer &b : manifest_.buffers) {
    Result<Buffer> buffer =
        createBuffer(api_, device_, memory, b.bytes,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | transfers,
                     MemoryKind::Device, describeBuffer(b));
    if (!buffer)
      return buffer.status();
    buffers_[b.id] = *buffer;
    if (b.role == BufferRole::Temporary)
      continue;
    Result<Buffer> staging = createBuffer(
        api_, device_, memory, b.bytes, transfers, MemoryKind::Staging,
        "the staging copy of " + describeBuffer(b));
    if (!staging)
      return staging.status();
    staging_[b.id] = *staging;
  }
  return Status::success();
}

Status VulkanProgram::createPipeline(const ManifestKernel &kernel,
                                     KernelPipeline &out) {
  std::string prefix = "kernel '" + kernel.name + "': ";
  int maxSet = -1;
  for (const KernelBinding &b : kernel.bindings)
    maxSet = std::max(maxSet, b.set);
  // Sets the kernel skips get empty layouts: a pipeline layout lists every
  // set number below the highest one used.
  for (int set = 0; set <= maxSet; ++set) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (const KernelBinding &b : kernel.bindings) {
      if (b.set != set)
        continue;
      VkDescriptorSetLayoutBinding binding{};
      binding.binding = b.binding;
      binding.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      binding.descriptorCount = 1;
      binding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
      bindings.push_back(binding);
    }
    VkDescriptorSetLayoutCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    info.bindingCount = bindings.size();
    info.pBindings = bindings.data();
    VkDescriptorSetLayout layout;
    if (VkResult r =
            api_.vkCreateDescriptorSetLayout(device_, &info, nullptr, &layout))
      return failure(
          prefix + "creating descriptor set layout " + std::to_string(set), r);
    out.setLayouts.push_back(layout);
  }

  VkPipelineLayoutCreateInfo layoutInfo{};
  layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layoutInfo.setLayoutCount = out.setLayouts.size();
  layoutInfo.pSetLayouts = out.setLayouts.data();
  if (VkResult r = api_.vkCreatePipelineLayout(device_, &layoutInfo, nullptr,
                                               &out.layout))
    return failure(prefix + "creating the pipeline layout", r);

  const std::string &entry = entryPointName(kernel);
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = shader_;
  info.stage.pName = entry.c_str();
  info.layout = out.layout;
  if (VkResult r = api_.vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1,
                                                 &info, nullptr, &out.pipeline))
    return failure(prefix + "creating the compute pipeline of entry point '" +
                       entry + "'",
                   r);
  return Status::success();
}

Status VulkanProgram::createDescriptorSets() {
  uint32_t numSets = 0, numDescriptors = 0;
  for (size_t i = 0; i < kernels_.size(); ++i) {
    numSets += kernels_[i].setLayouts.size();
    numDescriptors += manifest_.kernels[i].bindings.size();
  }
  if (numSets == 0)
    return Status::success();
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, numDescriptors};
  VkDescriptorPoolCreateInfo poolInfo{};
  poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  poolInfo.maxSets = numSets;
  poolInfo.poolSizeCount = numDescriptors ? 1 : 0;
  poolInfo.pPoolSizes = &size;
  if (VkResult r = api_.vkCreateDescriptorPool(device_, &poolInfo, nullptr,
                                               &descriptorPool_))
    return failure("creating the descriptor pool", r);

  // The buffer infos must stay where they are until the update below.
  std::vector<VkDescriptorBufferInfo> bufferInfos;
  bufferInfos.reserve(numDescriptors);
  std::vector<VkWriteDescriptorSet> writes;
  for (size_t i = 0; i < kernels_.size(); ++i) {
    KernelPipeline &k = kernels_[i];
    if (k.setLayouts.empty())
      continue;
    VkDescriptorSetAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    alloc.descriptorPool = descriptorPool_;
    alloc.descriptorSetCount = k.setLayouts.size();
    alloc.pSetLayouts = k.setLayouts.data();
    k.sets.resize(k.setLayouts.size());
    if (VkResult r =
            api_.vkAllocateDescriptorSets(device_, &alloc, k.sets.data()))
      return failure("kernel '" + manifest_.kernels[i].name +
                         "': allocating descriptor sets",
                     r);
    for (const KernelBinding &b : manifest_.kernels[i].bindings) {
      bufferInfos.push_back({buffers_.at(b.buffer).buffer, 0, VK_WHOLE_SIZE});
      VkWriteDescriptorSet write{};
      write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      write.dstSet = k.sets[b.set];
      write.dstBinding = b.binding;
      write.descriptorCount = 1;
      write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      write.pBufferInfo = &bufferInfos.back();
      writes.push_back(write);
    }
  }
  api_.vkUpdateDescriptorSets(device_, writes.size(), writes.data(), 0,
                              nullptr);
  return Status::success();
}

Status VulkanProgram::recordCommands() {
  VkCommandPoolCreateInfo poolInfo{};
  poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  poolInfo.queueFamilyIndex = physical_.queueFamily;
  if (VkResult r =
          api_.vkCreateCommandPool(device_, &poolInfo, nullptr, &commandPool_))
    return failure("creating the command pool", r);
  if (Status s = allocateCommands(commands_, "the command buffer"); !s)
    return s;
  VkFenceCreateInfo fenceInfo{};
  fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  if (VkResult r = api_.vkCreateFence(device_, &fenceInfo, nullptr, &fence_))
    return failure("creating a fence", r);
  uint32_t numQueries = 2 * kernels_.size();
  if (physical_.timestampValidBits != 0 && numQueries != 0) {
    VkQueryPoolCreateInfo queryInfo{};
    queryInfo.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
    queryInfo.queryCount = numQueries;
    if (VkResult r =
            api_.vkCreateQueryPool(device_, &queryInfo, nullptr, &queries_))
      return failure("creating the timestamp query pool", r);
  }

  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  if (VkResult r = api_.vkBeginCommandBuffer(commands_, &begin))
    return failure("recording the command buffer", r);
  if (queries_)
    api_.vkCmdResetQueryPool(commands_, queries_, 0, numQueries);
  std::vector<const ManifestValue *> uploads;
  for (const ManifestValue &input : manifest_.inputs)
    uploads.push_back(&input);
  recordUploadsAndKernels(commands_, uploads, /*timed=*/true);
  for (const ManifestValue &output : manifest_.outputs) {
    VkBufferCopy region{0, 0, manifest_.findBuffer(output.buffer)->bytes};
    api_.vkCmdCopyBuffer(commands_, buffers_.at(output.buffer).buffer,
                         staging_.at(output.buffer).buffer, 1, &region);
  }
  memoryBarrier(api_, commands_, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
  if (VkResult r = api_.vkEndCommandBuffer(commands_))
    return failure("recording the command buffer", r);
  return Status::success();
}

void VulkanProgram::recordUploadsAndKernels(
    VkCommandBuffer commands, const std::vector<const ManifestValue *> &uploads,
    bool timed) {
  for (const ManifestValue *value : uploads) {
    VkBufferCopy region{0, 0, manifest_.findBuffer(value->buffer)->bytes};
    api_.vkCmdCopyBuffer(commands, staging_.at(value->buffer).buffer,
                         buffers_.at(value->buffer).buffer, 1, &region);
  }
  memoryBarrier(api_, commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  for (size_t i = 0; i < kernels_.size(); ++i)
    recordKernel(commands, i, timed);
  // What follows reads the results: copies out, or copies of carried
  // tensors, which also write.
  memoryBarrier(api_, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
}

void VulkanProgram::recordKernel(VkCommandBuffer commands, size_t index,
                                 bool timed) {
  const KernelPipeline &k = kernels_[index];
  // Each kernel may read what the one before it wrote.
  if (index > 0)
    memoryBarrier(api_, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  // Both timestamps wait for all earlier work (bottom of pipe): the first
  // marks the end of the previous kernel, the second the end of this one.
  if (timed && queries_)
    api_.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                             queries_, 2 * index);
  api_.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
  if (!k.sets.empty())
    api_.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                                 k.layout, 0, k.sets.size(), k.sets.data(), 0,
                                 nullptr);
  std::array<uint64_t, 3> groups = workGroupCounts(manifest_.kernels[index]);
  // checkManifest bounded the counts by maxComputeWorkGroupCount (32 bits).
  api_.vkCmdDispatch(commands, static_cast<uint32_t>(groups[0]),
                     static_cast<uint32_t>(groups[1]),
                     static_cast<uint32_t>(groups[2]));
  if (timed && queries_)
    api_.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                             queries_, 2 * index + 1);
}

Status VulkanProgram::copyInputs(const std::map<std::string, Tensor> &inputs) {
  if (Status s = checkInputs(manifest_, inputs); !s)
    return s;
  // Copy only once every input passed, so a bad call changes nothing.
  for (const ManifestValue &input : manifest_.inputs) {
    const Tensor &tensor = inputs.at(input.name);
    std::memcpy(staging_.at(input.buffer).mapped, tensor.data.data(),
                tensor.data.size());
  }
  return Status::success();
}

void VulkanProgram::copyOutputs(std::map<std::string, Tensor> &outputs) {
  for (const ManifestValue &output : manifest_.outputs) {
    const ManifestBuffer &buffer = *manifest_.findBuffer(output.buffer);
    Tensor tensor(TensorType{buffer.dtype, buffer.shape});
    // checkManifest made the buffer exactly the tensor's size.
    std::memcpy(tensor.data.data(), staging_.at(output.buffer).mapped,
                tensor.data.size());
    outputs[output.name] = std::move(tensor);
  }
}

Status VulkanProgram::readTimings(std::vector<KernelTiming> &timings) {
  uint32_t numQueries = 2 * kernels_.size();
  std::vector<uint64_t> ticks(numQueries);
  if (numQueries == 0)
    return Status::success();
  if (VkResult r = api_.vkGetQueryPoolResults(
          device_, queries_, 0, numQueries, ticks.size() * sizeof(uint64_t),
          ticks.data(), sizeof(uint64_t),
          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT))
    return failure("reading the timestamps of " + runDescription(), r);
  uint32_t bits = physical_.timestampValidBits;
  uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  double nanosecondsPerTick = physical_.limits.timestampPeriod;
  for (size_t i = 0; i < kernels_.size(); ++i) {
    // Masking the difference handles a counter that wrapped in between.
    uint64_t elapsed = (ticks[2 * i + 1] - ticks[2 * i]) & mask;
    timings.push_back(
        {manifest_.kernels[i].name,
         static_cast<double>(elapsed) * nanosecondsPerTick * 1e-9});
  }
  return Status::success();
}

std::string VulkanProgram::runDescription() const {
  std::string names;
  for (const ManifestKernel &k : manifest_.kernels)
    names += (names.empty() ? "" : ", ") + k.name;
  return "kernels " + names + " on " + physical_.info.id;
}

Status VulkanProgram::run(const std::map<std::string, Tensor> &inputs,
                          std::map<std::string, Tensor> &outputs,
                          std::vector<KernelTiming> *timings) {
  if (timings && !queries_ && !kernels_.empty())
    return Status::error("cannot time kernels on " + physical_.info.id +
                         ": its compute queue family " +
                         std::to_string(physical_.queueFamily) +
                         " has no timestamps (timestampValidBits is 0)");
  if (Status s = copyInputs(inputs); !s)
    return s;
  if (Status s = submitAndWait(commands_, runDescription()); !s)
    return s;
  copyOutputs(outputs);
  if (timings)
    return readTimings(*timings);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Resident running (Device.h): inputs stay in the device buffers, carried
// outputs are copied into their inputs' buffers on the device.
//===----------------------------------------------------------------------===//


Status VulkanProgram::allocateCommands(VkCommandBuffer &commands,
                                       const std::string &what) {
  VkCommandBufferAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  alloc.commandPool = commandPool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  if (VkResult r = api_.vkAllocateCommandBuffers(device_, &alloc, &commands))
    return failure("allocating " + what, r);
  return Status::success();
}

Status VulkanProgram::submitAndWait(VkCommandBuffer commands,
                                    const std::string &what) {
  if (VkResult r = api_.vkResetFences(device_, 1, &fence_))
    return failure("resetting a fence", r);
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  if (VkResult r = api_.vkQueueSubmit(queue_, 1, &submit, fence_))
    return failure("submitting " + what, r);
  if (VkResult r =
          api_.vkWaitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX))
    return failure("running " + what, r);
  return Status::success();
}

Status VulkanProgram::submitOnce(
    const std::string &what,
    const std::function<void(VkCommandBuffer)> &record) {
  VkCommandBuffer commands = VK_NULL_HANDLE;
  if (Status s = allocateCommands(commands, "a command buffer for " + what); !s)
    return s;
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  Status status = Status::success();
  if (VkResult r = api_.vkBeginCommandBuffer(commands, &begin)) {
    status = failure("recording " + what, r);
  } else {
    record(commands);
    if (VkResult r = api_.vkEndCommandBuffer(commands))
      status = failure("recording " + what, r);
    else
      status = submitAndWait(commands, what);
  }
  api_.vkFreeCommandBuffers(device_, commandPool_, 1, &commands);
  return status;
}

Status VulkanProgram::setInput(const std::string &name, const Tensor &tensor) {
  if (Status s = checkInputs(manifest_, {{name, tensor}}, /*partial=*/true); !s)
    return s;
  const ManifestValue *value = manifest_.findValue(name);
  std::memcpy(staging_.at(value->buffer).mapped, tensor.data.data(),
              tensor.data.size());
  VkBufferCopy region{0, 0, tensor.data.size()};
  return submitOnce("the upload of input '" + name + "'",
                    [&](VkCommandBuffer commands) {
                      api_.vkCmdCopyBuffer(commands,
                                           staging_.at(value->buffer).buffer,
                                           buffers_.at(value->buffer).buffer,
                                           1, &region);
                    });
}

Status VulkanProgram::recordResident(const std::vector<std::string> &freshNames,
                                     const std::vector<Carry> &carried) {
  // Recorded again (rarely: the fresh inputs or carried pairs changed) into
  // a new buffer; the pool does not reset single buffers.
  if (resident_)
    api_.vkFreeCommandBuffers(device_, commandPool_, 1, &resident_);
  resident_ = VK_NULL_HANDLE;
  if (Status s = allocateCommands(resident_, "the resident command buffer"); !s)
    return s;
  Result<std::vector<CarriedCopy>> copies = carriedCopies(manifest_, carried);
  if (!copies)
    return copies.status();
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  if (VkResult r = api_.vkBeginCommandBuffer(resident_, &begin))
    return failure("recording the resident command buffer", r);
  std::vector<const ManifestValue *> uploads;
  for (const std::string &name : freshNames)
    uploads.push_back(manifest_.findValue(name));
  recordUploadsAndKernels(resident_, uploads, /*timed=*/false);
  for (const CarriedCopy &copy : *copies) {
    VkBufferCopy region{0, 0, copy.bytes};
    api_.vkCmdCopyBuffer(resident_, buffers_.at(copy.from).buffer,
                         buffers_.at(copy.to).buffer, 1, &region);
  }
  memoryBarrier(api_, resident_, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                    VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT);
  if (VkResult r = api_.vkEndCommandBuffer(resident_))
    return failure("recording the resident command buffer", r);
  residentFresh_ = freshNames;
  residentCarried_.clear();
  for (const Carry &c : carried)
    residentCarried_.push_back({c.output, c.input});
  return Status::success();
}

Status VulkanProgram::runResident(const std::map<std::string, Tensor> &fresh,
                                  const std::vector<Carry> &carried) {
  if (Status s = checkInputs(manifest_, fresh, /*partial=*/true); !s)
    return s;
  std::vector<std::string> freshNames;
  for (const auto &entry : fresh)
    freshNames.push_back(entry.first);
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const Carry &c : carried)
    pairs.push_back({c.output, c.input});
  if (!resident_ || freshNames != residentFresh_ || pairs != residentCarried_)
    if (Status s = recordResident(freshNames, carried); !s)
      return s;
  for (const auto &[name, tensor] : fresh)
    std::memcpy(staging_.at(manifest_.findValue(name)->buffer).mapped,
                tensor.data.data(), tensor.data.size());
  return submitAndWait(resident_, runDescription());
}

Status VulkanProgram::readBack(const std::string &name, Tensor &tensor) {
  const ManifestValue *value = manifest_.findValue(name);
  if (!value)
    return Status::error("'" + name + "' is not an input or output");
  const ManifestBuffer &buffer = *manifest_.findBuffer(value->buffer);
  VkBufferCopy region{0, 0, buffer.bytes};
  Status copied =
      submitOnce("reading '" + name + "' back", [&](VkCommandBuffer commands) {
        api_.vkCmdCopyBuffer(commands, buffers_.at(value->buffer).buffer,
                             staging_.at(value->buffer).buffer, 1, &region);
        memoryBarrier(api_, commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                      VK_ACCESS_HOST_READ_BIT);
      });
  if (!copied)
    return copied;
  tensor = Tensor(TensorType{buffer.dtype, buffer.shape});
  std::memcpy(tensor.data.data(), staging_.at(value->buffer).mapped,
              tensor.data.size());
  return Status::success();
}

} // namespace

Result<std::unique_ptr<Program>>
loadProgram(std::shared_ptr<const Instance> instance,
            const PhysicalDevice &device, const Manifest &manifest,
            const SpirvModule &module) {
  auto program =
      std::make_unique<VulkanProgram>(std::move(instance), device, manifest);
  if (Status s = program->build(module); !s)
    return s;
  return std::unique_ptr<Program>(std::move(program));
}

} // namespace tilec::rt::vulkan
