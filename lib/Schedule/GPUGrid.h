//===- GPUGrid.h - A GPU schedule's grid, as the cost model sees it -*- C++ -*-===//
//
// The work-group and work-item counts a schedule gives a kernel under the
// GPU mapping's rules (Conversion/LoopsToGPU/KernelPlan.cpp and the order
// semantics of the autotuning issue): the last loop of `order` is x, the
// one before it y, and the rest z, tiled as scheduled when z is one loop
// and flattened (one point per work-item) otherwise. Shared by the cost
// model and the candidate search so both agree on what a schedule means.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_SCHEDULE_GPUGRID_H
#define TILEC_LIB_SCHEDULE_GPUGRID_H

#include "tilec/Schedule/CostModel.h"

namespace tilec::schedule {

/// One grid dimension.
struct GPUGridDim {
  std::vector<unsigned> loops; ///< band positions, outermost first
  int64_t extent = 1;
  int64_t block = 1;  ///< iterations per work-group
  int64_t thread = 1; ///< iterations per work-item
  int64_t workItems() const { return block / thread; }
  int64_t groups() const { return (extent + block - 1) / block; }
};

struct GPUGrid {
  GPUGridDim dims[3]; ///< x, y, z
  /// The dimension (0, 1, 2) of each band loop.
  std::vector<unsigned> dimOf;
  int64_t workItems() const;
  double groups() const;
  /// The band loop mapped to x (the innermost), or -1 without a band.
  int xLoop() const { return dims[0].loops.empty() ? -1 : dims[0].loops[0]; }
};

/// The grid of `schedule` for `kernel`. A block of 0 is the whole loop
/// rounded up to the thread tile, as the mapping resolves it.
GPUGrid gridOf(const KernelModel &kernel, const KernelSchedule &schedule);

/// The bytes of local memory the staged operands take per work-group.
int64_t stagedBytes(const KernelModel &kernel,
                    const KernelSchedule &schedule, const GPUGrid &grid);

/// The extent of loop `loop` (band, then reductions).
int64_t loopExtent(const KernelModel &kernel, unsigned loop);

} // namespace tilec::schedule

#endif // TILEC_LIB_SCHEDULE_GPUGRID_H
