//===- DefaultSchedule.cpp - tilec-gpu-default-schedule -------------------===//
//
// Attaches the default GPU schedule to every kernel that has none, so that
// the mapping pass always reads its tiling from data.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

#include "tilec/Conversion/LoopsToGPU/ParallelBand.h"
#include "tilec/Conversion/LoopsToGPU/TargetOptions.h"
#include "tilec/Schedule/GPUDefaultSchedule.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tilec {
#define GEN_PASS_DEF_TILECGPUDEFAULTSCHEDULEPASS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// Whether the innermost band loop computes a reduction in registers: an
/// affine.for with iter_args directly in its body.
bool reducesInRegisters(MutableArrayRef<affine::AffineForOp> band) {
  if (band.empty())
    return false;
  for (auto loop : band.back().getBody()->getOps<affine::AffineForOp>())
    if (loop.getNumIterOperands() != 0)
      return true;
  return false;
}

struct DefaultSchedulePass
    : tilec::impl::TilecGPUDefaultSchedulePassBase<DefaultSchedulePass> {
  using TilecGPUDefaultSchedulePassBase::TilecGPUDefaultSchedulePassBase;
  TILEC_GPU_TARGET_OPTIONS_PUBLIC(TilecGPUDefaultSchedulePassBase);

  void runOnOperation() override {
    tilec::GPUTargetOptions target = tilec::targetFromOptions(*this);
    for (affine::AffineForOp kernel : tilec::getKernelNests(getOperation())) {
      if (kernel->hasAttr(tilec::schedule::kScheduleAttrName))
        continue;
      SmallVector<affine::AffineForOp> band = tilec::getParallelBand(kernel);
      tilec::schedule::GPUKernelShape shape;
      for (affine::AffineForOp loop : band)
        shape.parallelExtents.push_back(*affine::getConstantTripCount(loop));
      shape.reducesInRegisters = reducesInRegisters(band);
      tilec::schedule::setKernelSchedule(
          kernel, tilec::schedule::defaultGPUSchedule(shape, target));
    }
  }
};

} // namespace
