//===- UnrollSmallLoops.cpp - tilec-gpu-unroll-small-loops ---------------===//
//
// A loop of constant trip count whose unrolled body stays small is
// replaced by its iterations, innermost loops first, so that an outer loop
// sees its inner ones already unrolled and is measured with them. Loops
// outside kernels (the host side of the gpu level) are left alone.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace tilec {
#define GEN_PASS_DEF_TILECGPUUNROLLSMALLLOOPSPASS
#include "tilec/Target/GPU/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// The operations `loop`'s body holds, nested ones included.
uint64_t bodySize(scf::ForOp loop) {
  uint64_t size = 0;
  loop.getBody()->walk([&](Operation *) { ++size; });
  return size;
}

class UnrollSmallLoops
    : public tilec::impl::TilecGPUUnrollSmallLoopsPassBase<UnrollSmallLoops> {
public:
  using Base::Base;

  void runOnOperation() override {
    // Post-order: inner loops are visited (and unrolled) before the loops
    // around them.
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](gpu::GPUFuncOp kernel) {
      kernel.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    });
    for (scf::ForOp loop : loops) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!trips || trips->getZExtValue() > maxOps)
        continue;
      if (trips->getZExtValue() * bodySize(loop) > maxOps)
        continue;
      if (failed(loopUnrollFull(loop)))
        return signalPassFailure();
    }
  }
};

} // namespace
