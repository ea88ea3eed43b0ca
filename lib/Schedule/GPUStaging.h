//===- GPUStaging.h - Staged bytes, as the cost model sees them -*- C++ -*-===//
//
// The local memory a GPU schedule's staged operands take per work-group,
// bounded from the kernel's numbers alone so that the cost model and the
// candidate search never need the IR. It mirrors the staging plan of the
// mapping (Conversion/LoopsToGPU/StagingPlan.cpp, its LoopRange), which
// computes the exact tiles on the IR.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_SCHEDULE_GPUSTAGING_H
#define TILEC_LIB_SCHEDULE_GPUSTAGING_H

#include "tilec/Dialect/Kernel/Analysis/GPUGrid.h"
#include "tilec/Schedule/CostModel.h"

namespace tilec::schedule {

/// The bytes of local memory the staged operands take per work-group, for
/// the grid `grid` of `schedule` (computeGPUGrid).
int64_t stagedBytes(const KernelModel &kernel, const KernelSchedule &schedule,
                    const tilec::GPUGrid &grid);

} // namespace tilec::schedule

#endif // TILEC_LIB_SCHEDULE_GPUSTAGING_H
