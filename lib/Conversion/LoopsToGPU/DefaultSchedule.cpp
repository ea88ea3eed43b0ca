//===- DefaultSchedule.cpp - tilec-gpu-default-schedule -------------------===//
//
// Attaches the default schedule of the one rule every tool shares
// (Schedule/DefaultScheduleRule.h) to every kernel that has none, so that
// the mapping pass always reads its tiling from data. The device is the
// module's #tilec.gpu_target, which `tilec` puts there from the same
// profile its own schedule choice ranks on.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Schedule/CostModel.h"
#include "tilec/Schedule/DefaultScheduleRule.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tilec {
#define GEN_PASS_DEF_TILECGPUDEFAULTSCHEDULEPASS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec::schedule;

namespace {

struct DefaultSchedulePass
    : tilec::impl::TilecGPUDefaultSchedulePassBase<DefaultSchedulePass> {
  using TilecGPUDefaultSchedulePassBase::TilecGPUDefaultSchedulePassBase;

  void runOnOperation() override {
    DeviceProfile device = tilec::kernel::getGPUTarget(getOperation());
    for (affine::AffineForOp kernel : tilec::getKernelNests(getOperation())) {
      if (kernel->hasAttr(tilec::kernel::Schedule::getNameStr()))
        continue;
      SmallVector<affine::AffineForOp> band = tilec::getParallelBand(kernel);
      KernelModel model = describeKernel(kernel, band);
      tilec::kernel::setKernelSchedule(kernel, chooseDefaultGPUSchedule(model, device));
    }
  }
};

} // namespace
