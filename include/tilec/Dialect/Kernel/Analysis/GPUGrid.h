//===- GPUGrid.h - A schedule's work-groups and work-items ------*- C++ -*-===//
//
// The one rule by which a GPU schedule spreads a kernel's parallel band
// (ParallelBand.h) over work-groups and work-items, and the limits it must
// respect. The GPU mapping (tilec-gpu-map-kernels) emits what this
// computes and reports the first rule a schedule breaks; the cost model
// and the candidate search read the same grid from plain numbers, so that
// they rank and keep only schedules the mapping accepts.
//
// The last loop of the schedule's order (the band order when it has none)
// is x, the one before it y, and the rest, outermost first, z. A dimension
// of one loop is tiled as scheduled: `block` iterations per work-group,
// `thread` per work-item, a block of 0 being the whole loop rounded up to
// the thread tile. A dimension of several loops is flattened: one point per
// work-group and work-item.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_ANALYSIS_GPUGRID_H
#define TILEC_DIALECT_KERNEL_ANALYSIS_GPUGRID_H

#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Schedule/Schedule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tilec {

/// One grid dimension (x, y or z) of a kernel.
struct GridDim {
  /// Band positions of the loops it covers, outermost first: none (unused),
  /// one (tiled as scheduled), or several (flattened).
  llvm::SmallVector<unsigned, 2> loops;
  int64_t extent = 1; ///< iterations covered (product when flattened)
  int64_t block = 1;  ///< iterations per work-group
  int64_t thread = 1; ///< iterations per work-item
  int64_t workItems() const { return block / thread; }
  int64_t groups() const { return (extent + block - 1) / block; }
  /// Whether the last work-group runs past the extent and needs a guard.
  bool needsGuard() const { return extent % block != 0; }
};

/// The grid of one kernel.
struct GPUGrid {
  GridDim dims[3]; ///< x, y, z
  /// The grid dimension (0, 1, 2) of each band loop.
  llvm::SmallVector<unsigned> dimOf;
  /// Work-items per work-group.
  int64_t workItems() const;
  /// Work-groups in all (a double: a large grid's count may not fit).
  double groups() const;
  /// The band loop mapped to x (the innermost), or -1 without a band.
  int xLoop() const {
    return dims[0].loops.empty() ? -1 : int(dims[0].loops[0]);
  }
};

/// The grid `schedule` gives a band of trip counts `bandExtents`. An order
/// of the wrong size is ignored here (the band order is used) and reported
/// by checkGPUGrid, so that the cost model can rank any schedule.
GPUGrid computeGPUGrid(llvm::ArrayRef<int64_t> bandExtents,
                       const schedule::KernelSchedule &schedule);

/// A mapping rule a grid breaks, with the numbers its message names; kept
/// as data so that the candidate search rejects schedules without
/// formatting text.
struct GridViolation {
  enum class Rule {
    OrderSize,         ///< {order entries, parallel loops}
    BlockNotMultiple,  ///< {loop, block, thread}
    DimensionTooLarge, ///< {work-items, dimension, device limit}
    WorkGroupTooLarge, ///< {work-items, device limit}
    VectorWidth,       ///< {width}
    VectorWithoutLoop, ///< {width}
    VectorThread,      ///< {width, loop, thread}
    VectorExtent,      ///< {width, iterations, loop}
    VectorStaged,      ///< {width}
  };
  Rule rule;
  int64_t values[3] = {0, 0, 0};

  /// What is wrong, as the mapping reports it after "schedule of kernel
  /// 'k': ".
  std::string message() const;
};

/// The first rule `grid` (from computeGPUGrid of `schedule`) breaks on
/// `device`, in the mapping's order: the order's size; per dimension x, y,
/// z, the block a multiple of the thread tile and the work-items within the
/// device's limit; the work-group within the device's limit; the vector
/// width one of 1, 2, 4, 8, 16 dividing x's thread tile and extent, and no
/// staged operand with it. std::nullopt when it breaks none.
std::optional<GridViolation>
checkGPUGrid(const GPUGrid &grid, const schedule::KernelSchedule &schedule,
             const schedule::DeviceProfile &device);

} // namespace tilec

#endif // TILEC_DIALECT_KERNEL_ANALYSIS_GPUGRID_H
