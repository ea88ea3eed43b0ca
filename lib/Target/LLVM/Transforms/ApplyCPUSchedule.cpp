//===- ApplyCPUSchedule.cpp - The tilec-cpu-apply-schedule pass -----------===//
//
// Reads each kernel's schedule, checks it against the kernel's band (an
// entry for a loop the kernel does not have, a lane tile that is no whole
// number of vectors, a tile so large its code would explode: errors) and
// rebuilds the kernel from tiles (TiledKernel.h).
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/Transforms/Passes.h"

#include "tilec/Dialect/Kernel/Analysis/KernelNest.h"
#include "TiledKernel.h"

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Schedule/Schedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

namespace tilec {
#define GEN_PASS_DEF_APPLYCPUSCHEDULEPASS
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace mlir::affine;
using namespace tilec::transforms;
using tilec::schedule::KernelSchedule;

namespace {

/// Bounds on what one micro-kernel may copy, so that a schedule cannot make
/// the compiler emit (or LLVM chew on) unbounded code.
constexpr int64_t kMaxPoints = 256;
constexpr int64_t kMaxUnroll = 32;

FailureOr<BandTiling> resolve(AffineForOp kernel, const KernelNest &nest,
                              const KernelSchedule &schedule) {
  unsigned loops = nest.loopCount(), n = nest.band.size();
  auto fail = [&]() {
    return kernel.emitError()
           << tilec::kernel::Schedule::getNameStr() << ": ";
  };
  if (schedule.block.size() > loops || schedule.thread.size() > loops)
    return fail() << "names " << std::max(schedule.block.size(),
                                          schedule.thread.size())
                  << " loops, the kernel has " << loops;
  if (!schedule.order.empty() && schedule.order.size() != n)
    return fail() << "'order' must permute the " << n
                  << " parallel loops, it has " << schedule.order.size()
                  << " entries";
  if (!llvm::isPowerOf2_64(schedule.vector))
    return fail() << "'vector' must be a power of two, not "
                  << schedule.vector;
  if (schedule.unroll > kMaxUnroll)
    return fail() << "'unroll' is " << schedule.unroll << ", at most "
                  << kMaxUnroll;
  BandTiling tiling;
  for (unsigned i = 0; i < n; ++i) {
    tiling.thread.push_back(schedule.threadOf(i));
    tiling.block.push_back(schedule.blockOf(i));
    tiling.order.push_back(schedule.order.empty() ? i : schedule.order[i]);
  }
  int64_t &lanes = tiling.thread.back();
  int64_t vector = schedule.vector;
  lanes = std::max(lanes, vector);
  if (lanes % vector != 0)
    return fail() << "the innermost parallel loop's thread tile (" << lanes
                  << ") is no multiple of 'vector' (" << vector << ")";
  if (nest.vectorizable) {
    tiling.vector = vector;
  } else {
    // Scalar code: keep the schedule's register budget, one lane a vector.
    lanes /= vector;
  }
  int64_t points = 1;
  for (unsigned i = 0; i < n; ++i)
    points *= i + 1 == n ? lanes / tiling.vector : tiling.thread[i];
  if (points > kMaxPoints)
    return fail() << "a thread tile of " << points << " points, at most "
                  << kMaxPoints;
  tiling.unroll = schedule.unroll;
  return tiling;
}

struct ApplyCPUSchedulePass
    : public tilec::impl::ApplyCPUSchedulePassBase<ApplyCPUSchedulePass> {
  using ApplyCPUSchedulePassBase::ApplyCPUSchedulePassBase;

  void runOnOperation() override {
    SmallVector<AffineForOp> kernels;
    for (Operation &op : getOperation().getBody().getOps())
      if (auto loop = dyn_cast<AffineForOp>(op);
          loop && loop->hasAttr(tilec::kernel::Schedule::getNameStr()))
        kernels.push_back(loop);
    for (AffineForOp kernel : kernels) {
      auto schedule = tilec::kernel::getKernelSchedule(kernel);
      if (failed(schedule)) {
        signalPassFailure();
        continue;
      }
      std::optional<KernelNest> nest = matchKernelNest(kernel);
      if (!nest)
        continue; // Not a form this pass knows: left as it is.
      FailureOr<BandTiling> tiling = resolve(kernel, *nest, **schedule);
      if (failed(tiling)) {
        signalPassFailure();
        continue;
      }
      tiling->prefetchMinBytes = prefetchMinBytes;
      (void)tileKernel(*nest, *tiling);
    }
  }
};

} // namespace
