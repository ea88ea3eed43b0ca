//===- DeviceProfile.h - What the compiler knows of a device ------*- C++ -*-===//
//
// A device profile (docs/architecture.md, "Three things that exist once"):
// a device's facts as the compiler uses them, made once from what its
// runtime reports (profileFromDeviceInfo) plus the peak bandwidth and
// compute rate that `tilec devices --probe` measures and caches. The cost
// model ranks schedules against it and schedule files are keyed by its `id`;
// on the IR it is one attribute, #tilec.gpu_target (KernelAttrs.td, whose
// GPUTargetAttr::get and getProfile are the one conversion), which every GPU
// pass reads. Plain data: no MLIR, no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SCHEDULE_DEVICEPROFILE_H
#define TILEC_SCHEDULE_DEVICEPROFILE_H

#include "tilec/Runtime/Device.h"

#include <cstdint>
#include <string>

namespace tilec::schedule {

/// The defaults are the device a compile without one targets: limits every
/// OpenCL 1.2 and Vulkan 1.1 GPU supports, and the SPIR-V features both
/// lavapipe and NVIDIA's Vulkan driver offer (SPIR-V 1.3, shaderFloat16 and
/// shaderInt8, 16-bit and 8-bit storage, shaderInt16/Int64/Float64,
/// subgroup operations, IEEE infinities and NaNs on request).
struct DeviceProfile {
  std::string id;     ///< rt::DeviceInfo::id; empty: no device known
  bool isCPU = false; ///< CPU code (llvm-x86, or PoCL/lavapipe on a CPU)
  int64_t computeUnits = 8;
  double clockMHz = 0;
  // The limits schedules must respect (GPU, and OpenCL/Vulkan on a CPU).
  int64_t maxWorkGroupSize = 256;
  int64_t maxWorkItemSizes[3] = {256, 256, 64};
  int64_t localMemBytes = 16384; ///< per work-group
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
  // What SPIR-V for the device may use; a kernel that needs more is an
  // error naming the capability (tilec-spirv-check-device).
  int64_t spirvVersionMinor = 3; ///< SPIR-V 1.<minor>, 0 to 6
  bool fp16 = true;         ///< Float16 (shaderFloat16)
  bool fp64 = true;         ///< Float64 (shaderFloat64)
  bool int8 = true;         ///< Int8 (shaderInt8)
  bool int16 = true;        ///< Int16 (shaderInt16)
  bool int64 = true;        ///< Int64 (shaderInt64)
  bool storage8Bit = true;  ///< StorageBuffer8BitAccess
  bool storage16Bit = true; ///< StorageBuffer16BitAccess
  bool subgroups = true;    ///< GroupNonUniform (subgroup operations)
  /// Row reductions may shuffle within subgroups of subgroupSize
  /// consecutive work-items (rt::DeviceInfo::subgroupShuffle).
  bool subgroupShuffle = false;
  /// Float controls, per width: whether the device keeps infinities, NaNs
  /// and signed zeros (shaderSignedZeroInfNanPreserveFloat*) and subnormals
  /// (shaderDenormPreserveFloat*) when an entry point asks it to.
  bool infNanPreserve16 = true, infNanPreserve32 = true,
       infNanPreserve64 = true;
  bool denormPreserve16 = false, denormPreserve32 = false,
       denormPreserve64 = false;
  /// The device's budget of loop iterations per invocation
  /// (rt::DeviceInfo::maxLoopIterations; 0: none).
  uint64_t maxLoopIterations = 0;
  /// CUDA compute capability, major * 10 + minor (rt::DeviceInfo's; 0:
  /// unknown, and PTX is generated for the oldest GPU tilec supports).
  int64_t computeCapability = 0;
  /// CUDA: the shared memory a block may use when it opts in, beyond
  /// localMemBytes (rt::DeviceInfo's; 0: unknown, no more than that).
  int64_t sharedMemOptInBytes = 0;

  bool operator==(const DeviceProfile &other) const;
  /// Every field's value in declaration order, defaults included: what a
  /// compile for the device depends on (the compile cache's key).
  std::string str() const;
  bool operator!=(const DeviceProfile &other) const {
    return !(*this == other);
  }
};

/// The largest work-group a kernel is given, whatever the device allows:
/// the default schedule only needs enough work-items to fill the device.
constexpr int64_t kMaxKernelWorkGroupSize = 1024;

/// The profile of an OpenCL or Vulkan device from what its runtime reports,
/// with the work-group limits capped at kMaxKernelWorkGroupSize (and each
/// dimension at the work-group size). Facts the runtime does not report keep
/// the defaults above.
DeviceProfile profileFromDeviceInfo(const rt::DeviceInfo &device);

/// Whether `profile` knows which device it is (a runtime's report or a
/// device list): the default GPU schedule then trusts the cost model fully.
inline bool knowsDevice(const DeviceProfile &profile) {
  return !profile.id.empty();
}

/// Whether `profile` is a known device that is not a CPU: the mappings made
/// for GPUs (the outer-product tiling, flattened convolutions, row kernels)
/// apply there, and only there.
inline bool isKnownGPU(const DeviceProfile &profile) {
  return knowsDevice(profile) && !profile.isCPU;
}

/// The clock in Hz, or an assumed one (2.5 GHz for a CPU, 1 GHz for a GPU)
/// when the runtime reports none.
double clockHz(const DeviceProfile &profile);

/// The lanes a row reduction over `items` work-items shuffles among, or 0
/// when it reduces by a tree in local memory: the device's subgroup (or
/// the whole work-group when smaller) where its subgroups shuffle, are a
/// power of two wide and are no more than their lanes (the warps' partials
/// are combined by shuffles again). RowPlan.cpp plans by it, RowCost.cpp
/// prices by it.
int64_t rowShuffleLanes(const DeviceProfile &profile, int64_t items);

/// Peak rates when none was measured: compute units x clock x SIMD lanes x 2
/// (FMA) and a bandwidth guess; documented where defined.
double estimatedPeakFlops(const DeviceProfile &profile);
double estimatedPeakBytes(const DeviceProfile &profile);

} // namespace tilec::schedule

#endif // TILEC_SCHEDULE_DEVICEPROFILE_H
