//===- CPUSchedules.cpp - The CPU schedules a kernel can take -------------===//
//
// See CPUSchedules.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/Transforms/CPUSchedules.h"

#include "tilec/Dialect/Kernel/Analysis/KernelNest.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Schedule/CostModel.h"

using namespace tilec;
using namespace tilec::schedule;

std::vector<KernelSchedule>
tilec::transforms::rankCPUSchedules(mlir::affine::AffineForOp kernel,
                                    const CPUFacts &facts, unsigned top) {
  if (tilec::kernel::RowKernel(kernel->getContext()).isAttrPresent(kernel))
    return {};
  std::optional<KernelNest> nest = matchKernelNest(kernel);
  if (!nest)
    return {};
  KernelModel model = describeKernel(kernel, nest->band);
  // The lane analysis knows better than the model's index check.
  model.vectorizable = nest->vectorizable;
  return rankCandidates(model, profileFromCPUFacts(facts), ScheduleKind::CPU,
                        top);
}
