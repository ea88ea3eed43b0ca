//===- OuterProductCost.h - The outer-product tiling, costed ----*- C++ -*-===//
//
// The cost model's view of the outer-product tiling of a contraction
// (Dialect/Kernel/Analysis/OuterProductTiling.h): which schedules of it a
// GPU can run, their estimated time, and the candidates the search adds
// for a contraction on a GPU. docs/cost-model.md explains the terms and
// the H200 measurements behind them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_SCHEDULE_OUTERPRODUCTCOST_H
#define TILEC_LIB_SCHEDULE_OUTERPRODUCTCOST_H

#include "tilec/Dialect/Kernel/Analysis/OuterProductTiling.h"
#include "tilec/Schedule/CostModel.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace tilec::schedule {

/// The tiling `schedule` gives `kernel`, when the mapping accepts it on
/// `device` (the grid's and the tiling's rules) and its work-items fit the
/// registers; std::nullopt otherwise.
std::optional<OuterProductTiling>
legalOuterProductTiling(const KernelModel &kernel,
                        const KernelSchedule &schedule,
                        const DeviceProfile &device);

/// The estimated seconds of an outer-product `schedule`; infinity when it
/// is not legal.
double estimateOuterProductSeconds(const KernelModel &kernel,
                                   const KernelSchedule &schedule,
                                   const DeviceProfile &device);

/// Calls `add` with each outer-product schedule worth ranking for a
/// contraction `kernel` on a known GPU `device` (none for other kernels,
/// on CPU devices and without a device id): 8x8, 4x8 and 4x4 register tiles, subgroup tiles of the
/// device's subgroup, 1 to 8 subgroups per work-group, chunks of 8 and 16,
/// two buffers.
void addOuterProductCandidates(
    const KernelModel &kernel, const DeviceProfile &device,
    llvm::function_ref<void(const KernelSchedule &)> add);

} // namespace tilec::schedule

#endif // TILEC_LIB_SCHEDULE_OUTERPRODUCTCOST_H
