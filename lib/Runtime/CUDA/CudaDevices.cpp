//===- CudaDevices.cpp - Describing the devices the CUDA driver sees ------===//
//
// Fills every DeviceInfo field the cost model and the launch checks read
// from device attributes. An attribute the driver does not answer leaves
// its field 0 (unknown), as elsewhere: listing devices must not fail over
// one optional property.
//
//===----------------------------------------------------------------------===//

#include "CudaDevices.h"
#include "CudaErrors.h"

#include "tilec/Runtime/DeviceId.h"

#include <fstream>
#include <regex>

using namespace tilec;
using namespace tilec::rt;
using namespace tilec::rt::cuda;

namespace {

int attribute(const Api &api, CUdevice device, int which) {
  int value = 0;
  if (api.cuDeviceGetAttribute(&value, which, device) != kSuccess || value < 0)
    return 0;
  return value;
}

/// The kernel module's version ("580.159.03"), which the driver API does
/// not report; "" where /proc does not show it (containers may hide it).
std::string kernelModuleVersion() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  std::smatch match;
  if (std::getline(in, line) &&
      std::regex_search(
          line, match,
          std::regex("Module[^0-9]*([0-9]+\\.[0-9]+(\\.[0-9]+)?)")))
    return match[1];
  return "";
}

DeviceInfo describe(const Driver &driver, CUdevice device) {
  const Api &api = driver.api();
  auto get = [&](int which) { return attribute(api, device, which); };
  DeviceInfo info;
  info.runtime = "cuda";
  info.type = "gpu";
  info.vendor = "NVIDIA";
  char name[256] = {};
  if (api.cuDeviceGetName(name, sizeof(name) - 1, device) == kSuccess)
    info.name = name;
  info.platform = "NVIDIA CUDA";
  info.apiVersion = "CUDA " + versionText(driver.version());
  info.driverVersion = kernelModuleVersion();
  info.computeUnits = unsigned(get(kMultiprocessorCount));
  info.clockMHz = unsigned(get(kClockRate) / 1000);
  size_t total = 0;
  if (api.cuDeviceTotalMem(&total, device) == kSuccess)
    info.globalMemBytes = total;
  // CUDA has no per-allocation limit below the device's memory.
  info.maxAllocBytes = info.globalMemBytes;
  info.localMemBytes = uint64_t(get(kMaxSharedMemoryPerBlock));
  info.sharedMemOptInBytes = uint64_t(get(kMaxSharedMemoryPerBlockOptin));
  info.sharedMemPerComputeUnitBytes =
      uint64_t(get(kMaxSharedMemoryPerMultiprocessor));
  info.registersPerBlock = unsigned(get(kMaxRegistersPerBlock));
  info.maxWorkGroupSize = uint64_t(get(kMaxThreadsPerBlock));
  for (int d = 0; d < 3; ++d) {
    info.maxWorkItemSizes.push_back(uint64_t(get(kMaxBlockDimX + d)));
    info.maxWorkGroupCount.push_back(uint64_t(get(kMaxGridDimX + d)));
  }
  info.cacheBytes = uint64_t(get(kL2CacheSize));
  info.cacheLineBytes = 128; // an L2 line on every NVIDIA GPU since Fermi
  info.subgroupSize = unsigned(get(kWarpSize));
  info.subgroupShuffle = true; // shfl.sync
  // Scalar loads per thread; a half2 is one 32-bit register.
  info.preferredVectorWidthFloat = 1;
  info.preferredVectorWidthHalf = 2;
  info.fp16 = info.fp64 = info.int64 = info.int8 = true;
  // Two transfers per memory clock (DDR), bus width in bits.
  info.memoryBandwidthBytes = 2 * uint64_t(get(kMemoryClockRate)) * 1000 *
                              uint64_t(get(kGlobalMemoryBusWidth)) / 8;
  info.computeCapability = unsigned(get(kComputeCapabilityMajor) * 10 +
                                    get(kComputeCapabilityMinor));
  // PTX arithmetic without .ftz keeps subnormals and IEEE infinities, NaNs
  // and signed zeros at every width; tilec emits no .ftz.
  info.infNanPreserveF16 = info.infNanPreserveF32 = info.infNanPreserveF64 =
      true;
  info.denormPreserveF16 = info.denormPreserveF32 = info.denormPreserveF64 =
      true;
  return info;
}

} // namespace

std::string cuda::versionText(int version) {
  return std::to_string(version / 1000) + "." +
         std::to_string(version % 1000 / 10);
}

Result<std::vector<CudaDevice>> cuda::enumerateDevices(const Driver &driver) {
  const Api &api = driver.api();
  int count = 0;
  if (CUresult r = api.cuDeviceGetCount(&count); r != kSuccess)
    return callFailed("listing CUDA devices", "cuDeviceGetCount", r, &api);
  std::vector<CudaDevice> found;
  std::vector<DeviceInfo> described;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CudaDevice device;
    if (CUresult r = api.cuDeviceGet(&device.handle, ordinal); r != kSuccess)
      return callFailed("CUDA device " + std::to_string(ordinal), "cuDeviceGet",
                        r, &api);
    device.info = describe(driver, device.handle);
    device.info.id =
        nextDeviceId("cuda", "nvidia", device.info.name, described);
    described.push_back(device.info);
    found.push_back(std::move(device));
  }
  return found;
}
