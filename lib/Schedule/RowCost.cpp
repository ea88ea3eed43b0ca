//===- RowCost.cpp - The cost of a row nest's schedules -------------------===//
//
// A row nest reads each row once and writes it once (its private buffers
// stay in registers), so its time is the traffic over the memory's
// bandwidth, plus what the work-group's width costs: the barriers of each
// reduction's tree (log2 of the width), and idle work-items when the width
// leaves too few rows to fill every compute unit or too few columns per
// work-item to keep loads in flight. The H200 probe of GPU-CPU-TILING.md
// (A21) reached 98% of copy with 16 columns per work-item at 4096 columns;
// the estimate prefers that share where the rows allow it.
//
//===----------------------------------------------------------------------===//

#include "RowCost.h"

#include "CostTerms.h"

#include "tilec/Dialect/Kernel/Analysis/RowNest.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace tilec;
using namespace tilec::schedule;

namespace {

/// Columns per work-item that keep enough loads in flight.
constexpr double kColumnsInFlight = 16;

} // namespace

double schedule::estimateRowSeconds(const KernelModel &kernel,
                                    const KernelSchedule &schedule,
                                    const DeviceProfile &device) {
  double items = double(schedule.row);
  double columns = double(kernel.rowColumns);
  double rows = 1;
  for (int64_t extent : kernel.parallelExtents)
    rows *= double(extent);
  double units = double(std::max<int64_t>(device.computeUnits, 1));
  double perItem = std::ceil(columns / items);
  // Loads in flight per work-item, and work-items with no column at all;
  // more columns than that only add registers.
  double inFlight = std::min(1.0, perItem / kColumnsInFlight);
  double pressure =
      1 + 0.1 * std::abs(std::log2(perItem / kColumnsInFlight));
  double used = std::min(1.0, columns / items);
  // Work-groups per compute unit against the ones a unit can hold.
  double resident = std::max(1.0, std::floor(kGPUMaxItemsPerCU / items));
  double fill = std::min(1.0, rows / (units * resident));
  double memory = kernel.uniqueBytes / estimatedPeakBytes(device);
  // A reduction's tree waits at a barrier per level; by shuffles (where
  // the device has them, RowPlan.cpp) only once, for the warps' partials.
  int64_t lanes = rowShuffleLanes(device, schedule.row);
  double levels = lanes ? (schedule.row > lanes ? 2 : 1)
                        : 1 + std::log2(std::max(items, 1.0));
  double barriers = double(kernel.rowReductions) * levels * kGPUBarrierCycles *
                    std::ceil(rows / (units * resident)) / clockHz(device);
  return memory * pressure /
             (std::max(inFlight * used, 0.05) * std::max(fill, 0.05)) +
         barriers + kLaunchSeconds;
}

void schedule::addRowCandidates(
    const KernelModel &kernel, const DeviceProfile &device,
    llvm::function_ref<void(const KernelSchedule &)> add) {
  if (kernel.rowColumns < kMinRowColumns || !isKnownGPU(device))
    return;
  // Not above 256 through OpenCL: NVIDIA's OpenCL driver on the H200
  // reported a kernel work-group limit (CL_KERNEL_WORK_GROUP_SIZE) of 256
  // for the 512- and 1024-wide softmax row kernels although the device
  // allows 1024. Through GL, 32 columns per work-item and not above 512
  // wide: NVIDIA's GLSL compiler made softmax over rows of 16384 with 64
  // per work-item take 0.26-1.1 ms from run to run on the H200, 0.24 ms
  // with 32; with shuffles, 512 work-items of 32 columns took 0.182 ms
  // (the least of 20 runs, in each of 3 rounds) and 1024 of 16 0.203.
  bool isGL = llvm::StringRef(device.id).starts_with("gl:");
  int64_t limit = std::min<int64_t>(
      {device.maxWorkGroupSize, device.maxWorkItemSizes[0], isGL ? 512 : 256});
  int64_t maxPerItem =
      isGL ? kMaxRowColumnsPerItem / 2 : kMaxRowColumnsPerItem;
  for (int64_t items = 32; items <= limit; items *= 2) {
    if (int64_t(llvm::divideCeil(kernel.rowColumns, items)) > maxPerItem)
      continue;
    KernelSchedule schedule;
    schedule.block.assign(kernel.parallelExtents.size(), 1);
    schedule.thread.assign(kernel.parallelExtents.size(), 1);
    schedule.row = items;
    add(schedule);
  }
}
