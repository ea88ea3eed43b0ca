//===- DeviceProfile.cpp - What the cost model knows of a device ----------===//
//
// Device profiles from what the runtimes report, and the peak rates the
// cost model assumes when `tilec devices --probe` has not measured them.
// The estimates only need to be right within a small factor: the model
// compares schedules on one device, so a wrong peak moves every estimate
// alike and only shifts where the roofline bends.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/DeviceProfile.h"

#include "tilec/Schedule/CPUDefaultSchedule.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::schedule;

namespace {

/// Clocks assumed when a runtime reports none.
constexpr double kDefaultCPUClockMHz = 2500;
constexpr double kDefaultGPUClockMHz = 1000;
/// FMA pipes per CPU core (every x86 core since Haswell has two).
constexpr double kCPUFMAPipes = 2;
/// FP32 lanes per GPU compute unit, in subgroups: an NVIDIA SM or an AMD
/// CU issues to four SIMD units.
constexpr double kGPUSubgroupsPerCU = 4;
/// Memory bandwidth per CPU core that one core can draw (a DDR channel
/// shared by a few cores), and the socket's cap.
constexpr double kCPUBytesPerCorePerSecond = 10e9;
constexpr double kCPUMaxBytesPerSecond = 200e9;
/// A GPU's DRAM delivers roughly 16 bytes per compute unit and clock
/// (H100: 132 SMs x 1.75 GHz x 16 = 3.7 TB/s of 3.35; a Radeon 6800 XT:
/// 72 x 2.0 GHz x 16 = 2.3 TB/s against 0.5 plus its Infinity Cache).
constexpr double kGPUBytesPerCUPerCycle = 16;

} // namespace

double tilec::schedule::clockHz(const DeviceProfile &profile) {
  double mhz = profile.clockMHz > 0
                   ? profile.clockMHz
                   : (profile.isCPU ? kDefaultCPUClockMHz
                                    : kDefaultGPUClockMHz);
  return mhz * 1e6;
}

GPUTargetOptions
tilec::schedule::gpuTargetOptions(const DeviceProfile &device) {
  GPUTargetOptions target;
  target.maxWorkGroupSize = device.maxWorkGroupSize;
  for (unsigned d = 0; d < 3; ++d)
    target.maxWorkItemSizes[d] = device.maxWorkItemSizes[d];
  target.localMemBytes = device.localMemBytes;
  target.computeUnits = device.computeUnits;
  target.preferredVectorWidth = device.preferredVectorWidth;
  target.subgroupSize = device.subgroupSize;
  return target;
}

DeviceProfile tilec::schedule::profileFromDeviceInfo(
    const rt::DeviceInfo &device) {
  DeviceProfile profile;
  profile.id = device.id;
  profile.isCPU = device.type == "cpu";
  auto take = [](int64_t &field, uint64_t value) {
    if (value)
      field = static_cast<int64_t>(value);
  };
  take(profile.computeUnits, device.computeUnits);
  profile.clockMHz = device.clockMHz;
  take(profile.maxWorkGroupSize, device.maxWorkGroupSize);
  for (unsigned d = 0; d < 3 && d < device.maxWorkItemSizes.size(); ++d)
    take(profile.maxWorkItemSizes[d], device.maxWorkItemSizes[d]);
  take(profile.localMemBytes, device.localMemBytes);
  take(profile.subgroupSize, device.subgroupSize);
  take(profile.preferredVectorWidth, device.preferredVectorWidthFloat);
  take(profile.cacheLineBytes, device.cacheLineBytes);
  if (profile.isCPU) {
    // A CPU's OpenCL or Vulkan driver reports its L2 (or last level) as
    // the global cache; its SIMD width is the preferred float vector.
    take(profile.l1Bytes, device.l1CacheBytes);
    take(profile.l2Bytes, device.cacheBytes);
    profile.vectorBytes =
        4 * std::max<int64_t>(profile.preferredVectorWidth, 1);
    profile.vectorRegisters = profile.vectorBytes >= 64 ? 32 : 16;
  } else {
    // A GPU's reported global cache is its L2; L1 is per compute unit and
    // rarely reported, so it stays the default.
    take(profile.l2Bytes, device.cacheBytes);
  }
  return profile;
}

DeviceProfile tilec::schedule::profileFromCPUFacts(const CPUFacts &facts) {
  DeviceProfile profile;
  profile.isCPU = true;
  profile.vectorBytes = facts.vectorBytes;
  profile.vectorRegisters = facts.vectorRegisters;
  profile.l1Bytes = facts.l1Bytes;
  profile.l2Bytes = facts.l2Bytes;
  profile.preferredVectorWidth = std::max<int64_t>(facts.vectorBytes / 4, 1);
  return profile;
}

DeviceProfile tilec::schedule::hostCPUProfile() {
  DeviceProfile profile = profileFromCPUFacts(hostCPUFacts());
  Result<rt::TargetRuntime> host = rt::openTargetRuntime("cpu");
  if (host && !host->devices.empty()) {
    const rt::DeviceInfo &device = host->devices.front();
    profile.id = device.id;
    profile.computeUnits = std::max<int64_t>(device.computeUnits, 1);
    profile.clockMHz = device.clockMHz;
    if (device.cacheLineBytes)
      profile.cacheLineBytes = device.cacheLineBytes;
  }
  return profile;
}

double tilec::schedule::estimatedPeakFlops(const DeviceProfile &profile) {
  if (profile.peakFlopsPerSecond > 0)
    return profile.peakFlopsPerSecond;
  double lanes =
      profile.isCPU
          ? double(std::max<int64_t>(profile.vectorBytes / 4, 1)) * kCPUFMAPipes
          : double(std::max<int64_t>(profile.subgroupSize, 1)) *
                kGPUSubgroupsPerCU;
  // Two flops per lane and cycle: a fused multiply-add.
  return double(profile.computeUnits) * clockHz(profile) * lanes * 2;
}

double tilec::schedule::estimatedPeakBytes(const DeviceProfile &profile) {
  if (profile.peakBytesPerSecond > 0)
    return profile.peakBytesPerSecond;
  if (profile.isCPU)
    return std::min(kCPUMaxBytesPerSecond,
                    double(profile.computeUnits) * kCPUBytesPerCorePerSecond);
  return double(profile.computeUnits) * clockHz(profile) *
         kGPUBytesPerCUPerCycle;
}
