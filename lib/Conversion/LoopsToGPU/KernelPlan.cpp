//===- KernelPlan.cpp - How one kernel nest maps to the grid --------------===//
//
// Resolves a kernel's schedule into grid dimensions and checks it against
// the device limits, so that the emitter never sees a schedule it cannot
// honour.
//
//===----------------------------------------------------------------------===//

#include "KernelPlan.h"

#include "tilec/Conversion/LoopsToGPU/ParallelBand.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;

namespace {

/// The band positions each grid dimension covers: the innermost loop is x,
/// the next y, and the rest z.
void assignLoops(KernelPlan &plan) {
  unsigned numLoops = plan.band.size();
  for (unsigned d = 0; d < 2 && d < numLoops; ++d)
    plan.dims[d].loops.push_back(numLoops - 1 - d);
  for (unsigned i = 0; i + 2 < numLoops; ++i)
    plan.dims[2].loops.push_back(i);
}

/// Fills in one grid dimension's sizes from the schedule.
LogicalResult sizeDim(KernelPlan &plan, GridDim &dim) {
  if (dim.loops.empty())
    return success();
  dim.extent = 1;
  for (unsigned loop : dim.loops)
    dim.extent *= int64_t(*affine::getConstantTripCount(plan.band[loop]));
  if (dim.loops.size() > 1)
    return success(); // flattened: one point per work-group and work-item
  unsigned loop = dim.loops.front();
  dim.thread = plan.schedule.threadOf(loop);
  dim.block = plan.schedule.blockOf(loop);
  if (dim.block == 0)
    dim.block = llvm::alignTo(dim.extent, dim.thread);
  if (dim.block % dim.thread != 0)
    return scheduleError(plan)
           << "block[" << loop << "] = " << dim.block
           << " is not a multiple of thread[" << loop << "] = " << dim.thread;
  return success();
}

} // namespace

InFlightDiagnostic tilec::scheduleError(KernelPlan &plan) {
  return plan.root.emitError("schedule of kernel '")
         << plan.root->getAttrOfType<StringAttr>(kKernelAttrName).getValue()
         << "': ";
}

FailureOr<KernelPlan> tilec::planKernel(affine::AffineForOp root,
                                        const GPUTargetOptions &target) {
  KernelPlan plan;
  plan.root = root;
  auto found = schedule::getKernelSchedule(root);
  if (failed(found))
    return failure();
  if (!*found) {
    root.emitError("kernel has no ")
        << schedule::kScheduleAttrName
        << " (tilec-gpu-default-schedule gives every kernel one)";
    return failure();
  }
  plan.schedule = **found;
  plan.band = getParallelBand(root);
  assignLoops(plan);

  int64_t workGroup = 1;
  for (unsigned d = 0; d < 3; ++d) {
    GridDim &dim = plan.dims[d];
    if (failed(sizeDim(plan, dim)))
      return failure();
    if (dim.workItems() > target.maxWorkItemSizes[d]) {
      scheduleError(plan) << dim.workItems() << " work-items along "
                          << "xyz"[d] << " exceed the device limit of "
                          << target.maxWorkItemSizes[d];
      return failure();
    }
    workGroup *= dim.workItems();
  }
  if (workGroup > target.maxWorkGroupSize) {
    scheduleError(plan) << "a work-group of " << workGroup
                        << " work-items exceeds the device limit of "
                        << target.maxWorkGroupSize;
    return failure();
  }
  if (failed(planStaging(plan, target)))
    return failure();
  return plan;
}
