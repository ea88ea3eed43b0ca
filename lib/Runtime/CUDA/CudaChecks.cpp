//===- CudaChecks.cpp - A ptx manifest against a device -------------------===//

#include "CudaChecks.h"

#include <cstdint>
#include <limits>

using namespace tilec;
using namespace tilec::rt;

namespace {

constexpr uint64_t kUIntMax = std::numeric_limits<unsigned>::max();

std::string limitText(uint64_t value, const DeviceInfo &device,
                      const std::string &attribute) {
  return std::to_string(value) + " device " + device.id + " allows (" +
         attribute + ")";
}

/// "X", "Y", "Z": how CUDA names dimension 0, 1, 2.
std::string axis(int d) { return std::string(1, char('X' + d)); }

Status checkBlock(const ManifestKernel &kernel, const DeviceInfo &device) {
  std::string prefix = kernelPrefix(kernel);
  uint64_t threads = 1;
  for (int d = 0; d < 3; ++d) {
    uint64_t limit = d < int(device.maxWorkItemSizes.size())
                         ? device.maxWorkItemSizes[d]
                         : 0;
    if (kernel.local[d] > kUIntMax || (limit && kernel.local[d] > limit))
      return Status::error(
          prefix + "block " + sizesText(kernel.local) +
          " is larger in dimension " + std::to_string(d) + " than the " +
          limitText(limit ? limit : kUIntMax, device,
                    "CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_" + axis(d)));
    threads *= kernel.local[d];
  }
  uint64_t limit = device.maxWorkGroupSize;
  if (limit && threads > limit)
    return Status::error(
        prefix + "block " + sizesText(kernel.local) + " has " +
        std::to_string(threads) + " threads, more than the " +
        limitText(limit, device, "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK"));
  return Status::success();
}

Status checkGrid(const ManifestKernel &kernel, const DeviceInfo &device) {
  std::array<uint64_t, 3> grid = workGroupCounts(kernel);
  for (int d = 0; d < 3; ++d) {
    uint64_t limit = d < int(device.maxWorkGroupCount.size())
                         ? device.maxWorkGroupCount[d]
                         : 0;
    if (grid[d] > kUIntMax || (limit && grid[d] > limit))
      return Status::error(
          kernelPrefix(kernel) + "grid " + sizesText(grid) +
          " (global " + sizesText(kernel.global) + " / block " +
          sizesText(kernel.local) + ") is larger in dimension " +
          std::to_string(d) + " than the " +
          limitText(limit ? limit : kUIntMax, device,
                    "CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_" + axis(d)));
  }
  return Status::success();
}

Status checkSharedMemory(const ManifestKernel &kernel,
                         const DeviceInfo &device) {
  uint64_t bytes = kernel.dynamicSharedBytes;
  // Without an opt-in limit (an old device), the default limit holds.
  uint64_t limit = device.sharedMemOptInBytes ? device.sharedMemOptInBytes
                                              : device.localMemBytes;
  if (bytes > kUIntMax || (limit && bytes > limit))
    return Status::error(
        kernelPrefix(kernel) + "needs " + std::to_string(bytes) +
        " bytes of dynamic shared memory, more than the " +
        limitText(limit ? limit : kUIntMax, device,
                  "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"));
  return Status::success();
}

} // namespace

Status cuda::checkManifest(const Manifest &manifest, const DeviceInfo &device) {
  if (manifest.target != "ptx")
    return Status::error("the manifest's target is '" + manifest.target +
                         "', but the CUDA runtime runs 'ptx' kernels");
  for (const ManifestBuffer &buffer : manifest.buffers)
    if (device.maxAllocBytes && buffer.bytes > device.maxAllocBytes)
      return Status::error(
          "buffer " + std::to_string(buffer.id) +
          (buffer.name.empty() ? "" : " ('" + buffer.name + "')") + " of " +
          std::to_string(buffer.bytes) + " bytes is larger than device " +
          device.id + "'s memory of " + std::to_string(device.maxAllocBytes) +
          " bytes");
  for (const ManifestKernel &kernel : manifest.kernels) {
    if (Status s = checkBlock(kernel, device); !s)
      return s;
    if (Status s = checkGrid(kernel, device); !s)
      return s;
    if (Status s = checkSharedMemory(kernel, device); !s)
      return s;
  }
  return Status::success();
}
