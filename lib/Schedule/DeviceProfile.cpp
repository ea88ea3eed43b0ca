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

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <tuple>

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

int64_t tilec::schedule::rowShuffleLanes(const DeviceProfile &profile,
                                         int64_t items) {
  int64_t warp = profile.subgroupSize;
  if (!profile.subgroupShuffle || !llvm::isPowerOf2_64(uint64_t(warp)) ||
      items > warp * warp)
    return 0;
  return std::min(items, warp);
}

/// The fields in one tuple, so that equality and printing name each once.
static auto fields(const DeviceProfile &p) {
  return std::tie(
      p.id, p.isCPU, p.computeUnits, p.clockMHz, p.maxWorkGroupSize,
      p.maxWorkItemSizes[0], p.maxWorkItemSizes[1], p.maxWorkItemSizes[2],
      p.localMemBytes, p.subgroupSize, p.preferredVectorWidth, p.l1Bytes,
      p.l2Bytes, p.cacheLineBytes, p.vectorBytes, p.vectorRegisters,
      p.peakBytesPerSecond, p.peakFlopsPerSecond, p.spirvVersionMinor, p.fp16,
      p.fp64, p.int8, p.int16, p.int64, p.storage8Bit, p.storage16Bit,
      p.subgroups, p.subgroupShuffle, p.infNanPreserve16, p.infNanPreserve32,
      p.infNanPreserve64, p.denormPreserve16, p.denormPreserve32,
      p.denormPreserve64, p.maxLoopIterations, p.computeCapability,
      p.sharedMemOptInBytes);
}

bool DeviceProfile::operator==(const DeviceProfile &other) const {
  return fields(*this) == fields(other);
}

std::string DeviceProfile::str() const {
  std::ostringstream os;
  os.precision(17);
  unsigned index = 0;
  std::apply([&](const auto &...field) { ((os << (index++ ? " " : "") << field), ...); },
             fields(*this));
  return os.str();
}

namespace {
/// The newest SPIR-V a Vulkan device consumes, from its "Vulkan 1.N.P"
/// API version (the runtime reports what the instance and the device both
/// support): 1.0 takes SPIR-V 1.0, 1.1 takes 1.3, 1.2 takes 1.5 and 1.3 and
/// later 1.6. Another runtime's version leaves `otherwise`.
int64_t spirvVersionOf(const std::string &apiVersion, int64_t otherwise) {
  unsigned major = 0, minor = 0;
  if (std::sscanf(apiVersion.c_str(), "Vulkan %u.%u", &major, &minor) != 2 ||
      major != 1)
    return otherwise;
  static constexpr int64_t kSpirvOfVulkan[] = {0, 3, 5, 6};
  return kSpirvOfVulkan[std::min(minor, 3u)];
}
} // namespace

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
  take(profile.maxWorkGroupSize,
       std::min<uint64_t>(device.maxWorkGroupSize, kMaxKernelWorkGroupSize));
  for (unsigned d = 0; d < 3 && d < device.maxWorkItemSizes.size(); ++d)
    take(profile.maxWorkItemSizes[d],
         std::min<uint64_t>(device.maxWorkItemSizes[d],
                            profile.maxWorkGroupSize));
  take(profile.localMemBytes, device.localMemBytes);
  take(profile.subgroupSize, device.subgroupSize);
  // A CUDA warp always shuffles (shfl.sync); device files written before
  // the runtimes reported it say nothing.
  profile.subgroupShuffle = device.subgroupSize && (device.subgroupShuffle ||
                                                    device.runtime == "cuda");
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
  // Storage of a narrow type comes with its arithmetic: the runtimes
  // report the two together.
  profile.fp16 = profile.storage16Bit = device.fp16;
  profile.fp64 = device.fp64;
  profile.int8 = profile.storage8Bit = device.int8;
  profile.int64 = device.int64;
  profile.infNanPreserve16 = device.infNanPreserveF16;
  profile.infNanPreserve32 = device.infNanPreserveF32;
  profile.infNanPreserve64 = device.infNanPreserveF64;
  profile.denormPreserve16 = device.denormPreserveF16;
  profile.denormPreserve32 = device.denormPreserveF32;
  profile.denormPreserve64 = device.denormPreserveF64;
  profile.spirvVersionMinor =
      spirvVersionOf(device.apiVersion, profile.spirvVersionMinor);
  profile.maxLoopIterations = device.maxLoopIterations;
  profile.computeCapability = device.computeCapability;
  profile.sharedMemOptInBytes = int64_t(device.sharedMemOptInBytes);
  // A runtime that reports its DRAM's bandwidth (CUDA: memory clock and bus
  // width) gives a better peak than the estimate from compute units.
  if (profile.peakBytesPerSecond == 0)
    profile.peakBytesPerSecond = double(device.memoryBandwidthBytes);
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
