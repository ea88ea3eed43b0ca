//===- DeviceProfile.h - What the cost model knows of a device ----*- C++ -*-===//
//
// A device profile (docs/architecture.md): the properties `tilec devices` reports
// plus the peak bandwidth and compute rate that `tilec devices --probe`
// measures and caches. The cost model ranks schedules against it; schedule
// files are keyed by its `id`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SCHEDULE_DEVICEPROFILE_H
#define TILEC_SCHEDULE_DEVICEPROFILE_H

#include "tilec/Pipelines/Pipelines.h"
#include "tilec/Runtime/Device.h"

#include <cstdint>
#include <string>

namespace tilec::schedule {

struct CPUFacts;

struct DeviceProfile {
  std::string id;     ///< rt::DeviceInfo::id
  bool isCPU = false; ///< CPU code (llvm-x86, or PoCL/lavapipe on a CPU)
  int64_t computeUnits = 1;
  double clockMHz = 0;
  // GPU (and OpenCL/Vulkan on a CPU): the limits schedules must respect.
  int64_t maxWorkGroupSize = 256;
  int64_t maxWorkItemSizes[3] = {256, 256, 64};
  int64_t localMemBytes = 16384;
  int64_t subgroupSize = 32;
  int64_t preferredVectorWidth = 1; ///< floats
  // Caches (CPU: per core L1 and L2; GPU: the global memory cache).
  int64_t l1Bytes = 32 * 1024;
  int64_t l2Bytes = 1024 * 1024;
  int64_t cacheLineBytes = 64;
  // CPU SIMD.
  int64_t vectorBytes = 16;
  int64_t vectorRegisters = 16;
  /// Measured by `tilec devices --probe` (0: not measured; the cost model
  /// then estimates them from the properties above and says so).
  double peakBytesPerSecond = 0;
  double peakFlopsPerSecond = 0;
};

/// The profile of an OpenCL or Vulkan device from what its runtime reports.
DeviceProfile profileFromDeviceInfo(const rt::DeviceInfo &device);
/// The profile of the host CPU for llvm-x86 code (CPUDefaultSchedule.h's
/// facts plus the core count).
DeviceProfile hostCPUProfile();
/// A CPU profile with `facts`' SIMD and caches and nothing else known (one
/// core, no clock): what the CPU default-schedule pass compares schedules
/// on, since its facts may be given as options for another CPU.
DeviceProfile profileFromCPUFacts(const CPUFacts &facts);

/// The limits and facts of `profile` that the GPU mapping passes take.
GPUTargetOptions gpuTargetOptions(const DeviceProfile &profile);

/// The clock in Hz, or an assumed one (2.5 GHz for a CPU, 1 GHz for a GPU)
/// when the runtime reports none.
double clockHz(const DeviceProfile &profile);

/// Peak rates when none was measured: compute units x clock x SIMD lanes x 2
/// (FMA) and a bandwidth guess; documented where defined.
double estimatedPeakFlops(const DeviceProfile &profile);
double estimatedPeakBytes(const DeviceProfile &profile);

} // namespace tilec::schedule

#endif // TILEC_SCHEDULE_DEVICEPROFILE_H
