//===- KernelPlan.cpp - How one kernel nest maps to the grid --------------===//
//
// Resolves a kernel's schedule into grid dimensions and checks it against
// the device limits (both by the rule of GPUGrid.h), so that the emitter
// never sees a schedule it cannot honour.
//
//===----------------------------------------------------------------------===//

#include "KernelPlan.h"

#include "tilec/Dialect/Kernel/Analysis/GPUGrid.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

using namespace mlir;
using namespace tilec;

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
  GPUGrid grid = computeGPUGrid(getBandExtents(plan.band), plan.schedule);
  if (std::optional<GridViolation> broken =
          checkGPUGrid(grid, plan.schedule, target)) {
    scheduleError(plan) << broken->message();
    return failure();
  }
  llvm::copy(grid.dims, plan.dims);
  if (failed(planStaging(plan, target)))
    return failure();
  return plan;
}
