//===- CPUDefaultSchedulePass.cpp - The tilec-cpu-default-schedule pass ---===//
//
// Describes each unscheduled kernel for the cost model (CostModel.h) and
// stores its best-ranked schedule on it. Kernels of a form the schedule cannot
// be applied to get none.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/Transforms/Passes.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "tilec/Target/LLVM/Transforms/CPUSchedules.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace tilec {
#define GEN_PASS_DEF_CPUDEFAULTSCHEDULEPASS
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace mlir::affine;
using namespace tilec::schedule;
using namespace tilec::transforms;

namespace {

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
      if (!kernel || kernel->hasAttr(tilec::kernel::Schedule::getNameStr()))
        continue;
      std::vector<KernelSchedule> ranked =
          rankCPUSchedules(kernel, facts, /*top=*/1);
      if (!ranked.empty())
        tilec::kernel::setKernelSchedule(kernel, ranked.front());
    }
  }
};

} // namespace
