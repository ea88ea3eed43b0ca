//===- KernelPlan.cpp - How one kernel nest maps to the grid --------------===//
//
// Resolves a kernel's schedule into grid dimensions and checks it against
// the device limits, so that the emitter never sees a schedule it cannot
// honour.
//
//===----------------------------------------------------------------------===//

#include "KernelPlan.h"

#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;

namespace {

/// The band positions each grid dimension covers: the last loop of the
/// schedule's order (the band order when it has none) is x, the one before
/// it y, and the rest, outermost first, are flattened into z.
LogicalResult assignLoops(KernelPlan &plan) {
  unsigned numLoops = plan.band.size();
  SmallVector<unsigned> order;
  if (plan.schedule.order.empty()) {
    for (unsigned i = 0; i < numLoops; ++i)
      order.push_back(i);
  } else if (plan.schedule.order.size() != numLoops) {
    return scheduleError(plan)
           << "order has " << plan.schedule.order.size()
           << " entries but the kernel has " << numLoops << " parallel loops";
  } else {
    // The #tilec.schedule verifier has checked that the order is a permutation.
    for (int64_t loop : plan.schedule.order)
      order.push_back(unsigned(loop));
  }
  for (unsigned d = 0; d < 2 && d < numLoops; ++d)
    plan.dims[d].loops.push_back(order[numLoops - 1 - d]);
  for (unsigned i = 0; i + 2 < numLoops; ++i)
    plan.dims[2].loops.push_back(order[i]);
  return success();
}

/// Checks that the schedule's vector width fits the x loop: each work-item
/// takes its elements along x as whole vectors of contiguous iterations.
LogicalResult checkVector(KernelPlan &plan) {
  int64_t width = plan.schedule.vector;
  if (width == 1)
    return success();
  if (width != 2 && width != 4 && width != 8 && width != 16)
    return scheduleError(plan)
           << "vector = " << width << " is not one of 1, 2, 4, 8 and 16";
  GridDim &x = plan.dims[0];
  if (x.loops.empty())
    return scheduleError(plan) << "vector = " << width
                               << " needs a parallel loop, and the kernel "
                                  "has none";
  unsigned loop = x.loops.front();
  if (x.thread % width != 0)
    return scheduleError(plan)
           << "vector = " << width << " does not divide thread[" << loop
           << "] = " << x.thread;
  if (x.extent % width != 0)
    return scheduleError(plan)
           << "vector = " << width << " does not divide the " << x.extent
           << " iterations of loop " << loop;
  if (llvm::is_contained(plan.schedule.stage, true))
    return scheduleError(plan)
           << "vector = " << width
           << " cannot be combined with staged operands";
  return success();
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
         << plan.root->getAttrOfType<StringAttr>(tilec::kernel::KernelName::getNameStr()).getValue()
         << "': ";
}

FailureOr<KernelPlan> tilec::planKernel(affine::AffineForOp root,
                                        const schedule::DeviceProfile &target) {
  KernelPlan plan;
  plan.root = root;
  auto found = tilec::kernel::getKernelSchedule(root);
  if (failed(found))
    return failure();
  if (!*found) {
    root.emitError("kernel has no ")
        << tilec::kernel::Schedule::getNameStr()
        << " (tilec-gpu-default-schedule gives every kernel one)";
    return failure();
  }
  plan.schedule = **found;
  plan.band = getParallelBand(root);
  if (failed(assignLoops(plan)))
    return failure();

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
  if (failed(checkVector(plan)) || failed(planStaging(plan, target)))
    return failure();
  return plan;
}
