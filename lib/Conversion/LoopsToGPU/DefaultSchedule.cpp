//===- DefaultSchedule.cpp - tilec-gpu-default-schedule -------------------===//
//
// Attaches the cost model's best schedule (Schedule/CostModel.h) to every
// kernel that has none, so that the mapping pass always reads its tiling
// from data.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

#include "tilec/Conversion/LoopsToGPU/ParallelBand.h"
#include "tilec/Conversion/LoopsToGPU/TargetOptions.h"
#include "tilec/Schedule/CostModel.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <limits>

namespace tilec {
#define GEN_PASS_DEF_TILECGPUDEFAULTSCHEDULEPASS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec::schedule;

namespace {

/// The profile the cost model ranks on: the pass's device facts; clocks,
/// caches and peaks unknown (the model's estimates stand in).
DeviceProfile profileOf(const tilec::GPUTargetOptions &target) {
  DeviceProfile profile;
  profile.computeUnits = target.computeUnits;
  profile.maxWorkGroupSize = target.maxWorkGroupSize;
  for (unsigned d = 0; d < 3; ++d)
    profile.maxWorkItemSizes[d] = target.maxWorkItemSizes[d];
  profile.localMemBytes = target.localMemBytes;
  profile.subgroupSize = target.subgroupSize;
  profile.preferredVectorWidth = target.preferredVectorWidth;
  return profile;
}

/// The best-ranked schedule without staging and vectors. The pass knows
/// the device's limits but not its kind: staging pays on a GPU but costs a
/// CPU OpenCL device barriers per work-item (PoCL ran a staged 512^3
/// matmul 5x slower), and vector loads vary as much, so the default
/// leaves both to `tilec autotune`, which measures them.
KernelSchedule pickDefault(const std::vector<KernelSchedule> &ranked) {
  for (const KernelSchedule &schedule : ranked)
    if (schedule.vector == 1 && !llvm::is_contained(schedule.stage, true))
      return schedule;
  return ranked.front(); // never reached: every tiling comes unstaged too
}

struct DefaultSchedulePass
    : tilec::impl::TilecGPUDefaultSchedulePassBase<DefaultSchedulePass> {
  using TilecGPUDefaultSchedulePassBase::TilecGPUDefaultSchedulePassBase;
  TILEC_GPU_TARGET_OPTIONS_PUBLIC(TilecGPUDefaultSchedulePassBase);

  void runOnOperation() override {
    DeviceProfile device = profileOf(tilec::targetFromOptions(*this));
    for (affine::AffineForOp kernel : tilec::getKernelNests(getOperation())) {
      if (kernel->hasAttr(kScheduleAttrName))
        continue;
      SmallVector<affine::AffineForOp> band = tilec::getParallelBand(kernel);
      KernelModel model = describeKernel(kernel, band);
      setKernelSchedule(kernel, pickDefault(rankCandidates(
                                    model, device, ScheduleKind::GPU,
                                    std::numeric_limits<unsigned>::max())));
    }
  }
};

} // namespace
