//===- VulkanChecks.cpp - A manifest against a device and its module ------===//

#include "VulkanChecks.h"

#include <algorithm>
#include <set>
#include <utility>

namespace tilec::rt::vulkan {

namespace {

/// Capabilities (SPIR-V specification 3.31) that need a device feature.
struct CapabilityNeed {
  uint32_t capability;
  const char *name;
  bool ShaderFeatures::*feature;
};
const CapabilityNeed capabilityNeeds[] = {
    {9, "Float16", &ShaderFeatures::float16},
    {10, "Float64", &ShaderFeatures::float64},
    {11, "Int64", &ShaderFeatures::int64},
    {22, "Int16", &ShaderFeatures::int16},
    {39, "Int8", &ShaderFeatures::int8},
    {4433, "StorageBuffer16BitAccess", &ShaderFeatures::storageBuffer16Bit},
    {4448, "StorageBuffer8BitAccess", &ShaderFeatures::storageBuffer8Bit},
    {4464, "DenormPreserve", &ShaderFeatures::floatControls},
    {4465, "DenormFlushToZero", &ShaderFeatures::floatControls},
    {4466, "SignedZeroInfNanPreserve", &ShaderFeatures::floatControls},
};

Status checkCapabilities(const SpirvModule &module,
                         const PhysicalDevice &device) {
  for (uint32_t cap : module.capabilities)
    for (const CapabilityNeed &need : capabilityNeeds)
      if (need.capability == cap && !(device.features.*need.feature))
        return Status::error("the SPIR-V module needs capability " +
                             std::string(need.name) + ", which device " +
                             device.info.id + " does not support");
  return Status::success();
}

/// Each float-controls mode of an entry point must be one the device
/// grants for that width (VkPhysicalDeviceFloatControlsProperties): a
/// module compiled for another device may ask for more.
Status checkFloatControls(const ManifestKernel &kernel,
                          const SpirvEntryPoint &entry,
                          const DeviceInfo &device) {
  auto check = [&](const std::vector<uint32_t> &widths, const char *mode,
                   const char *property, bool f16, bool f32, bool f64) {
    for (uint32_t width : widths) {
      bool granted = width == 16 ? f16 : width == 32 ? f32 : width == 64 && f64;
      if (!granted)
        return Status::error(kernelPrefix(kernel) + "entry point '" +
                             entry.name + "' declares " + mode + " " +
                             std::to_string(width) + ", which device " +
                             device.id + " does not grant (" + property +
                             "Float" + std::to_string(width) +
                             "); compile the program for this device");
    }
    return Status::success();
  };
  if (Status s =
          check(entry.infNanPreserveWidths, "SignedZeroInfNanPreserve",
                "shaderSignedZeroInfNanPreserve", device.infNanPreserveF16,
                device.infNanPreserveF32, device.infNanPreserveF64);
      !s)
    return s;
  return check(entry.denormPreserveWidths, "DenormPreserve",
               "shaderDenormPreserve", device.denormPreserveF16,
               device.denormPreserveF32, device.denormPreserveF64);
}

Status checkWorkGroup(const ManifestKernel &kernel, const SpirvModule &module,
                      const VkPhysicalDeviceLimits &limits) {
  std::string prefix = kernelPrefix(kernel);
  const std::string &entry = entryPointName(kernel);
  const SpirvEntryPoint *ep = module.findEntryPoint(entry);
  if (!ep) {
    std::string have;
    for (const SpirvEntryPoint &e : module.entryPoints)
      have += (have.empty() ? "" : ", ") + e.name;
    return Status::error(prefix +
                         "the SPIR-V module has no compute entry "
                         "point '" +
                         entry +
                         "' (it has: " + (have.empty() ? "none" : have) + ")");
  }
  uint64_t invocations = 1;
  for (int d = 0; d < 3; ++d) {
    if (kernel.local[d] == 0 || kernel.global[d] == 0)
      return Status::error(prefix + "zero-sized global " +
                           sizesText(kernel.global) + " or local " +
                           sizesText(kernel.local) + " size");
    if (kernel.local[d] > limits.maxComputeWorkGroupSize[d])
      return Status::error(
          prefix + "work-group size " + sizesText(kernel.local) +
          " exceeds the device's maxComputeWorkGroupSize[" + std::to_string(d) +
          "] = " + std::to_string(limits.maxComputeWorkGroupSize[d]));
    invocations *= kernel.local[d];
  }
  if (invocations > limits.maxComputeWorkGroupInvocations)
    return Status::error(prefix + "work-group size " + sizesText(kernel.local) +
                         " has " + std::to_string(invocations) +
                         " invocations, over the device's "
                         "maxComputeWorkGroupInvocations = " +
                         std::to_string(limits.maxComputeWorkGroupInvocations));
  if (ep->localSize) {
    std::array<uint64_t, 3> baked{(*ep->localSize)[0], (*ep->localSize)[1],
                                  (*ep->localSize)[2]};
    if (baked != kernel.local)
      return Status::error(prefix + "the manifest's local size " +
                           sizesText(kernel.local) +
                           " differs from the LocalSize " + sizesText(baked) +
                           " of entry point '" + entry + "'");
  }
  std::array<uint64_t, 3> groups = workGroupCounts(kernel);
  for (int d = 0; d < 3; ++d)
    if (groups[d] > limits.maxComputeWorkGroupCount[d])
      return Status::error(
          prefix + "needs " + sizesText(groups) +
          " work-groups, over the device's maxComputeWorkGroupCount[" +
          std::to_string(d) +
          "] = " + std::to_string(limits.maxComputeWorkGroupCount[d]));
  return Status::success();
}

Status checkBindings(const Manifest &manifest, const ManifestKernel &kernel,
                     const VkPhysicalDeviceLimits &limits) {
  std::string prefix = kernelPrefix(kernel);
  std::set<std::pair<int, int>> used;
  for (const KernelBinding &b : kernel.bindings) {
    std::string where = "binding (set " + std::to_string(b.set) + ", binding " +
                        std::to_string(b.binding) + ")";
    if (b.set < 0 || b.binding < 0)
      return Status::error(prefix + "negative " + where);
    if (static_cast<uint64_t>(b.set) >= limits.maxBoundDescriptorSets)
      return Status::error(prefix + where +
                           " uses more than the device's "
                           "maxBoundDescriptorSets = " +
                           std::to_string(limits.maxBoundDescriptorSets));
    // Drivers size a set's tables by its highest binding number, and the
    // compiler numbers bindings densely from 0.
    if (static_cast<uint64_t>(b.binding) >=
        limits.maxPerStageDescriptorStorageBuffers)
      return Status::error(
          prefix + where +
          " is not below the device's "
          "maxPerStageDescriptorStorageBuffers = " +
          std::to_string(limits.maxPerStageDescriptorStorageBuffers));
    if (!used.insert({b.set, b.binding}).second)
      return Status::error(prefix + where + " is given twice");
    const ManifestBuffer *buffer = manifest.findBuffer(b.buffer);
    if (!buffer)
      return Status::error(prefix + where + " names buffer " +
                           std::to_string(b.buffer) + ", which does not exist");
    if (buffer->bytes > limits.maxStorageBufferRange)
      return Status::error(
          prefix + "buffer " + std::to_string(b.buffer) +
          (buffer->name.empty() ? "" : " ('" + buffer->name + "')") + " of " +
          std::to_string(buffer->bytes) +
          " bytes is over the device's maxStorageBufferRange = " +
          std::to_string(limits.maxStorageBufferRange) + " bytes");
  }
  if (used.size() > limits.maxPerStageDescriptorStorageBuffers)
    return Status::error(
        prefix + "binds " + std::to_string(used.size()) +
        " storage buffers, over the device's "
        "maxPerStageDescriptorStorageBuffers = " +
        std::to_string(limits.maxPerStageDescriptorStorageBuffers));
  return Status::success();
}

/// Inputs and outputs must name buffers of their role whose size is what
/// their dtype and shape take, since run() copies exactly that many bytes.
Status checkValues(const Manifest &manifest,
                   const std::vector<ManifestValue> &values, BufferRole role,
                   const char *what) {
  for (const ManifestValue &value : values) {
    std::string prefix = std::string(what) + " '" + value.name + "': ";
    const ManifestBuffer *buffer = manifest.findBuffer(value.buffer);
    if (!buffer || buffer->role != role)
      return Status::error(prefix + "buffer " + std::to_string(value.buffer) +
                           " does not exist or is not an " + what);
    int64_t elements = checkedNumElements(buffer->shape);
    if (elements < 0 ||
        static_cast<uint64_t>(elements) * dtypeBytes(buffer->dtype) !=
            buffer->bytes)
      return Status::error(prefix + "buffer " + std::to_string(value.buffer) +
                           " has " + std::to_string(buffer->bytes) +
                           " bytes, which is not the size of its shape");
  }
  return Status::success();
}

} // namespace

const std::string &entryPointName(const ManifestKernel &kernel) {
  return kernel.spirvEntry.empty() ? kernel.name : kernel.spirvEntry;
}

Status checkManifest(const Manifest &manifest, const SpirvModule &module,
                     const PhysicalDevice &device) {
  if (manifest.target != "spirv")
    return Status::error("the manifest's target is '" + manifest.target +
                         "', but the Vulkan runtime runs 'spirv' kernels");
  if (Status s = checkCapabilities(module, device); !s)
    return s;
  if (Status s =
          checkValues(manifest, manifest.inputs, BufferRole::Input, "input");
      !s)
    return s;
  if (Status s =
          checkValues(manifest, manifest.outputs, BufferRole::Output, "output");
      !s)
    return s;
  for (const ManifestBuffer &buffer : manifest.buffers)
    if (buffer.bytes == 0)
      return Status::error("buffer " + std::to_string(buffer.id) +
                           " has size 0");
    else if (device.info.maxAllocBytes &&
             buffer.bytes > device.info.maxAllocBytes)
      return Status::error(
          "buffer " + std::to_string(buffer.id) + " of " +
          std::to_string(buffer.bytes) +
          " bytes is over the device's maxMemoryAllocationSize = " +
          std::to_string(device.info.maxAllocBytes) + " bytes");
  for (const ManifestKernel &kernel : manifest.kernels) {
    if (Status s = checkWorkGroup(kernel, module, device.limits); !s)
      return s;
    if (const SpirvEntryPoint *entry =
            module.findEntryPoint(entryPointName(kernel)))
      if (Status s = checkFloatControls(kernel, *entry, device.info); !s)
        return s;
    if (Status s = checkBindings(manifest, kernel, device.limits); !s)
      return s;
  }
  return Status::success();
}


} // namespace tilec::rt::vulkan
