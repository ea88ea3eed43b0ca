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

#include <limits>

namespace tilec {
#define GEN_PASS_DEF_PARALLELIZEOUTERLOOPSPASS
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace mlir::affine;

namespace {

/// Operations below which a nest runs alone: an OpenMP team's fork and
/// join cost microseconds, more than such a nest takes (the MLP's 10-wide
/// bias add took 3 us on two threads and 2 on one).
constexpr double kMinParallelWork = 4096;

double workOf(Block &block);

/// Operations one run of `loop` executes, each op of its body once per
/// iteration; a loop of unknown trip count counts as large.
double workOf(AffineForOp loop) {
  std::optional<uint64_t> trips = getConstantTripCount(loop);
  if (!trips)
    return std::numeric_limits<double>::infinity();
  if (*trips == 0) // not 0 * infinity
    return 0;
  return double(*trips) * workOf(*loop.getBody());
}

double workOf(Block &block) {
  double work = 0;
  for (Operation &op : block.without_terminator()) {
    if (auto loop = dyn_cast<AffineForOp>(op)) {
      work += workOf(loop);
      continue;
    }
    work += 1;
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        work += workOf(inner);
  }
  return work;
}

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
      // Too little work to pay for a team: no loop inside does more (a
      // loop that runs no times holds none), so the walk need not look in.
      if (workOf(loop) < kMinParallelWork)
        return WalkResult::skip();
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
