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

#include "llvm/ADT/StringMap.h"

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
    // A network repeats its layers: kernels with one fingerprint are the
    // same code, so the search runs once for them.
    llvm::StringMap<KernelSchedule> chosen;
    for (affine::AffineForOp kernel : tilec::getKernelNests(getOperation())) {
      if (kernel->hasAttr(tilec::kernel::Schedule::getNameStr()))
        continue;
      auto fingerprint = tilec::kernel::Fingerprint(kernel->getContext())
                             .getAttr(kernel);
      if (fingerprint) {
        auto found = chosen.find(fingerprint.str());
        if (found != chosen.end()) {
          tilec::kernel::setKernelSchedule(kernel, found->second);
          continue;
        }
      }
      SmallVector<affine::AffineForOp> band = tilec::getParallelBand(kernel);
      KernelModel model = describeKernel(kernel, band);
      KernelSchedule schedule = chooseDefaultGPUSchedule(model, device);
      tilec::kernel::setKernelSchedule(kernel, schedule);
      if (fingerprint)
        chosen[fingerprint.str()] = schedule;
    }
  }
};

} // namespace
