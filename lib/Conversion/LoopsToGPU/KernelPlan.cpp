//===- KernelPlan.cpp - How one kernel nest maps to the grid --------------===//
//
// Resolves a kernel's schedule into grid dimensions and checks it against
// the device limits (both by the rule of GPUGrid.h), so that the emitter
// never sees a schedule it cannot honour; and the one way a grid position
// becomes the band's induction variables, which every kind of kernel body
// shares.
//
//===----------------------------------------------------------------------===//

#include "KernelPlan.h"

#include "tilec/Dialect/Kernel/Analysis/GPUGrid.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

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
  if (plan.schedule.row > 0) {
    if (failed(planRows(plan, target)))
      return failure();
    return plan;
  }
  if (plan.schedule.tilesOuterProduct()) {
    if (failed(planOuterProduct(plan, grid, target)))
      return failure();
    return plan;
  }
  if (failed(planStaging(plan, target)))
    return failure();
  return plan;
}

void tilec::mapBandInductionVars(const KernelPlan &plan, const GridDim &dim,
                                 Value position, OpBuilder &b,
                                 IRMapping &mapping) {
  affine::AffineForOp root = plan.root;
  Location loc = root.getLoc();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value rest = position;
  for (unsigned n = dim.loops.size(); n-- > 0;) {
    affine::AffineForOp loop = plan.band[dim.loops[n]];
    Value iteration = rest;
    if (n > 0) {
      Value trips = constant(*affine::getConstantTripCount(loop));
      iteration = arith::RemUIOp::create(b, loc, rest, trips);
      rest = arith::DivUIOp::create(b, loc, rest, trips);
    }
    Value iv = iteration;
    if (int64_t step = loop.getStepAsInt(); step != 1)
      iv = arith::MulIOp::create(b, loc, iv, constant(step));
    if (int64_t lower = loop.getConstantLowerBound(); lower != 0)
      iv = arith::AddIOp::create(b, loc, iv, constant(lower));
    mapping.map(loop.getInductionVar(), iv);
  }
}
