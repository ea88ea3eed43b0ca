//===- GPUDefaultSchedule.h - A GPU schedule from device limits -*- C++ -*-===//
//
// The schedule a kernel gets on a GPU when no schedule file names it: a
// few rules over the device's limits, the seed of the cost model of the
// autotuning issue.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SCHEDULE_GPUDEFAULTSCHEDULE_H
#define TILEC_SCHEDULE_GPUDEFAULTSCHEDULE_H

#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Schedule/Schedule.h"

#include "llvm/ADT/ArrayRef.h"

namespace tilec::schedule {

/// What the default GPU schedule looks at in a kernel nest.
struct GPUKernelShape {
  /// Trip counts of the parallel band (Dialect/Kernel/Analysis/ParallelBand.h),
  /// outermost first; empty if the nest runs serially.
  std::vector<int64_t> parallelExtents;
  /// Whether a reduction runs inside each work-item (a contraction): its
  /// outputs then cost many loads each and a register tile pays off.
  bool reducesInRegisters = false;
};

/// The default schedule for a kernel of shape `shape` on `target`:
///  - x is the innermost parallel loop, y the next, z the others; the
///    work-group takes the power of two at or above each extent, x first,
///    within the device limits and a total of at most
///    min(maxWorkGroupSize, 256) work-items, rounded down to a multiple of
///    the subgroup size when it reaches one; a contraction's x side is
///    capped at the square root of that total, for a square work-group that
///    shares the loads of both operands;
///  - while there are fewer work-groups than compute units, the work-group
///    is halved along its longest side (not below one subgroup), so every
///    compute unit gets work;
///  - a contraction whose x and y extents are at least 4 work-groups wide
///    computes a 2x2 register tile per work-item;
///  - no staging, no vectors, no unrolling (the default must be safe on
///    every OpenCL 1.2 device; tuned schedules turn them on).
KernelSchedule defaultGPUSchedule(const GPUKernelShape &shape,
                                  const DeviceProfile &target);

} // namespace tilec::schedule

#endif // TILEC_SCHEDULE_GPUDEFAULTSCHEDULE_H
