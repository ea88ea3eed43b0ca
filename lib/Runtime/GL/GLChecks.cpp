//===- GLChecks.cpp - A glsl manifest against a device --------------------===//

#include "GLChecks.h"

using namespace tilec;
using namespace tilec::rt;

namespace {

std::string limitText(uint64_t value, const DeviceInfo &device,
                      const std::string &name) {
  return std::to_string(value) + " that device " + device.id + " allows (" +
         name + ")";
}

Status checkKernel(const ManifestKernel &kernel, const DeviceInfo &device,
                   uint64_t maxStorageBlocks) {
  std::string prefix = kernelPrefix(kernel);
  uint64_t invocations = 1;
  for (int d = 0; d < 3; ++d) {
    uint64_t limit = d < int(device.maxWorkItemSizes.size())
                         ? device.maxWorkItemSizes[d]
                         : 0;
    if (limit && kernel.local[d] > limit)
      return Status::error(prefix + "work-group size " +
                           sizesText(kernel.local) +
                           " is larger in dimension " + std::to_string(d) +
                           " than the " +
                           limitText(limit, device,
                                     "GL_MAX_COMPUTE_WORK_GROUP_SIZE"));
    invocations *= kernel.local[d];
  }
  if (device.maxWorkGroupSize && invocations > device.maxWorkGroupSize)
    return Status::error(
        prefix + "work-group size " + sizesText(kernel.local) + " has " +
        std::to_string(invocations) + " invocations, more than the " +
        limitText(device.maxWorkGroupSize, device,
                  "GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS"));
  std::array<uint64_t, 3> groups = workGroupCounts(kernel);
  for (int d = 0; d < 3; ++d) {
    uint64_t limit = d < int(device.maxWorkGroupCount.size())
                         ? device.maxWorkGroupCount[d]
                         : 0;
    if (limit && groups[d] > limit)
      return Status::error(prefix + "needs " + sizesText(groups) +
                           " work-groups, more in dimension " +
                           std::to_string(d) + " than the " +
                           limitText(limit, device,
                                     "GL_MAX_COMPUTE_WORK_GROUP_COUNT"));
  }
  if (maxStorageBlocks && kernel.args.size() > maxStorageBlocks)
    return Status::error(
        prefix + "binds " + std::to_string(kernel.args.size()) +
        " buffers, more than the " +
        limitText(maxStorageBlocks, device,
                  "GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS"));
  return Status::success();
}

} // namespace

Status gl::checkManifest(const Manifest &manifest, const DeviceInfo &device,
                         uint64_t maxStorageBlocks) {
  if (manifest.target != "glsl")
    return Status::error("the manifest's target is '" + manifest.target +
                         "', but the GL runtime runs 'glsl' kernels");
  for (const ManifestBuffer &buffer : manifest.buffers)
    if (device.maxStorageBufferRange &&
        buffer.bytes > device.maxStorageBufferRange)
      return Status::error(
          "buffer " + std::to_string(buffer.id) +
          (buffer.name.empty() ? "" : " ('" + buffer.name + "')") + " of " +
          std::to_string(buffer.bytes) +
          " bytes is larger than the storage block of " +
          limitText(device.maxStorageBufferRange, device,
                    "GL_MAX_SHADER_STORAGE_BLOCK_SIZE"));
  for (const ManifestKernel &kernel : manifest.kernels)
    if (Status s = checkKernel(kernel, device, maxStorageBlocks); !s)
      return s;
  return Status::success();
}
