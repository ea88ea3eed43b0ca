//===- ParallelizeOuterLoops.cpp - tilec-cpu-parallelize-outer-loops ------===//
//
// One affine.parallel per loop nest, the outermost loop that can be one.
// Proving a loop parallel is the expensive part (a dependence check per pair
// of accesses), so the walk stops at the first parallel loop of a nest, and
// loops the schedule marked `tilec.parallel` are not checked at all.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/Transforms/Passes.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"

namespace tilec {
#define GEN_PASS_DEF_PARALLELIZEOUTERLOOPSPASS
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace mlir::affine;

namespace {

/// Whether threads over `loop` could gain anything: it runs more than once.
bool runsMoreThanOnce(AffineForOp loop) {
  std::optional<uint64_t> trips = getConstantTripCount(loop);
  return !trips || *trips > 1;
}

struct ParallelizeOuterLoopsPass
    : public tilec::impl::ParallelizeOuterLoopsPassBase<
          ParallelizeOuterLoopsPass> {
  void runOnOperation() override {
    SmallVector<AffineForOp> chosen;
    getOperation().walk<WalkOrder::PreOrder>([&](AffineForOp loop) {
      if (!runsMoreThanOnce(loop))
        return WalkResult::advance();
      if (loop->hasAttr(tilec::kernel::Parallel::getNameStr()) || isLoopParallel(loop)) {
        chosen.push_back(loop);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    // Rewritten after the walk: affineParallelize replaces the loop.
    for (AffineForOp loop : chosen)
      (void)affineParallelize(loop);
  }
};

} // namespace
