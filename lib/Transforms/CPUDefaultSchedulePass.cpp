//===- CPUDefaultSchedulePass.cpp - The tilec-cpu-default-schedule pass ---===//
//
// Describes each unscheduled kernel by its shape (KernelNest) and stores
// the cost model's schedule on it. Kernels of a form the schedule cannot
// be applied to get none.
//
//===----------------------------------------------------------------------===//

#include "tilec/Transforms/Passes.h"

#include "KernelNest.h"

#include "tilec/Schedule/CPUDefaultSchedule.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace tilec {
#define GEN_PASS_DEF_CPUDEFAULTSCHEDULEPASS
#include "tilec/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace mlir::affine;
using namespace tilec::schedule;
using namespace tilec::transforms;

namespace {

/// Iterations of the loop chain below the band per output element; 0 when
/// there is none or a trip count is not constant.
int64_t reductionExtent(Block *body) {
  for (Operation &op : *body) {
    auto loop = dyn_cast<AffineForOp>(op);
    if (!loop)
      continue;
    std::optional<uint64_t> trips = getConstantTripCount(loop);
    if (!trips || *trips == 0)
      return 0;
    int64_t inner = reductionExtent(loop.getBody());
    bool innermost = llvm::none_of(loop.getBody()->getOperations(),
                                   [](Operation &o) {
                                     return isa<AffineForOp>(o);
                                   });
    return innermost ? static_cast<int64_t>(*trips)
                     : (inner == 0 ? 0 : inner * static_cast<int64_t>(*trips));
  }
  return 0;
}

struct CPUDefaultSchedulePass
    : public tilec::impl::CPUDefaultSchedulePassBase<CPUDefaultSchedulePass> {
  using CPUDefaultSchedulePassBase::CPUDefaultSchedulePassBase;

  void runOnOperation() override {
    CPUFacts facts = hostCPUFacts();
    if (vectorBytes > 0)
      facts.vectorBytes = vectorBytes;
    if (vectorRegisters > 0)
      facts.vectorRegisters = vectorRegisters;
    if (l1Bytes > 0)
      facts.l1Bytes = l1Bytes;
    if (l2Bytes > 0)
      facts.l2Bytes = l2Bytes;
    for (Operation &op : getOperation().getBody().getOps()) {
      auto kernel = dyn_cast<AffineForOp>(op);
      // Every top-level nest is a kernel (the loop level emits one per
      // kernel); the `tilec.kernel` name is not needed to schedule it.
      if (!kernel || kernel->hasAttr(kScheduleAttrName))
        continue;
      std::optional<KernelNest> nest = matchKernelNest(kernel);
      if (!nest)
        continue;
      KernelShape shape;
      shape.extents.assign(nest->extents.begin(), nest->extents.end());
      Type element = nest->storedElementType();
      shape.elementBytes =
          element.isIndex()
              ? 8
              : std::max<int64_t>(1, (element.getIntOrFloatBitWidth() + 7) / 8);
      shape.reductionExtent = reductionExtent(nest->body());
      shape.vectorizable = nest->vectorizable;
      setKernelSchedule(kernel, defaultCPUSchedule(shape, facts));
    }
  }
};

} // namespace
