//===- RowCost.h - The cost of a row nest's schedules -----------*- C++ -*-===//
//
// Part of the cost model (CostModel.h): the schedules of a row nest
// (RowNest.h, `row` = work-items per row) and their estimate.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_SCHEDULE_ROWCOST_H
#define TILEC_LIB_SCHEDULE_ROWCOST_H

#include "tilec/Schedule/CostModel.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace tilec::schedule {

/// The estimated seconds of a row schedule for a row nest.
double estimateRowSeconds(const KernelModel &kernel,
                          const KernelSchedule &schedule,
                          const DeviceProfile &device);

/// Calls `add` with each row schedule worth ranking for a row nest `kernel`
/// on a known GPU that is no CPU (none for other kernels, rows shorter than
/// kMinRowColumns and other devices): 32 to 256 work-items per row (powers of two
/// within the device's work-group), at most 64 columns per work-item.
void addRowCandidates(const KernelModel &kernel, const DeviceProfile &device,
                      llvm::function_ref<void(const KernelSchedule &)> add);

} // namespace tilec::schedule

#endif // TILEC_LIB_SCHEDULE_ROWCOST_H
