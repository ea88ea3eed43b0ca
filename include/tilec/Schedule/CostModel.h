//===- CostModel.h - Ranking schedules without running them -------*- C++ -*-===//
//
// The analytic cost model of the autotuning issue: from a kernel's loop
// nest and a device profile, an estimate of the time a schedule takes
// (memory traffic per tile against the caches or local memory, arithmetic
// intensity against the roofline, occupancy against the compute units,
// work-item utilisation, padding waste). It ranks the legal candidates;
// the first is the default schedule when no schedule file has an entry,
// and `tilec autotune` measures the best few.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SCHEDULE_COSTMODEL_H
#define TILEC_SCHEDULE_COSTMODEL_H

#include "tilec/Dialect/Kernel/Analysis/OuterProductTiling.h"
#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Schedule/Schedule.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec::schedule {

/// Which mapping the schedule is for: the GPU mapping (OpenCL, Vulkan) or
/// the CPU passes (llvm-x86).
enum class ScheduleKind { GPU, CPU };

/// What the cost model sees of one kernel nest.
struct KernelModel {
  std::string name;        ///< tilec.kernel
  std::string fingerprint; ///< tilec.fingerprint
  /// Trip counts of the loops that may be tiled across threads (the
  /// parallel band), outermost first, then of the reduction loops.
  std::vector<int64_t> parallelExtents;
  std::vector<int64_t> reductionExtents;
  /// One per memref the kernel reads (in the order of the schedule's
  /// `stage`), then the ones it writes.
  struct Operand {
    int64_t elementBytes = 4;
    bool written = false;
    /// Per loop (parallel band, then reductions): whether the operand's
    /// index depends on it.
    std::vector<bool> dependsOn;
    /// Whether the innermost parallel loop walks it contiguously.
    bool contiguousInner = false;
    /// Whether the GPU mapping can copy its tiles to local memory: it is
    /// read, never written, only inside a register reduction (a loop with
    /// iter_args directly inside the band) and at affine indices.
    bool stageable = false;
    /// Per index of the memref, per loop: the largest |coefficient| of the
    /// loop in that index over the accesses (filled when stageable), so a
    /// tile's size is bounded without the mapping.
    std::vector<std::vector<int64_t>> coefficients;
    /// Per index: how far the constant offsets of its accesses spread.
    std::vector<int64_t> offsetSpread;
  };
  std::vector<Operand> operands;
  /// Arithmetic operations per innermost iteration, and in total.
  int64_t flopsPerIteration = 1;
  double totalFlops = 0;
  /// Bytes read and written if every element moved once.
  double uniqueBytes = 0;
  /// Whether the body can be vectorised along the innermost parallel loop.
  bool vectorizable = true;
  /// Whether the first reduction loop carries its sum in registers
  /// (iter_args, constant bounds): a contraction whose work-items keep
  /// their outputs in registers, so register tiles and staging apply.
  bool registerReduction = false;
  /// Set when the nest is a contraction of two operands
  /// (ContractionNest.h), which the outer-product tiling applies to.
  std::optional<tilec::ContractionShape> contraction;
  /// Set when the nest is a row nest (RowNest.h): the columns of its rows
  /// and how many reductions each row runs.
  int64_t rowColumns = 0;
  int64_t rowReductions = 0;
};

/// Describes the kernel nest `kernel` (a top-level loop with tilec.kernel)
/// whose parallel band is `band` (outermost first; the caller's notion of
/// which loops are independent).
KernelModel describeKernel(mlir::affine::AffineForOp kernel,
                           llvm::ArrayRef<mlir::affine::AffineForOp> band);

/// The estimated seconds of `schedule` for `kernel` on `device`.
double estimateSeconds(const KernelModel &kernel,
                       const KernelSchedule &schedule,
                       const DeviceProfile &device, ScheduleKind kind);

/// Which candidates a ranking considers: the others are neither estimated
/// nor returned (an empty filter takes every one).
using CandidateFilter = llvm::function_ref<bool(const KernelSchedule &)>;

/// The legal schedules of `kernel` on `device` (respecting its work-group,
/// local memory and register limits) that `accept` takes, best estimate
/// first, at most `limit`. Never empty: a kernel with nothing to tile, or
/// none accepted, gets the trivial schedule.
std::vector<KernelSchedule> rankCandidates(const KernelModel &kernel,
                                           const DeviceProfile &device,
                                           ScheduleKind kind,
                                           unsigned limit = 64,
                                           CandidateFilter accept = {});

} // namespace tilec::schedule

#endif // TILEC_SCHEDULE_COSTMODEL_H
