//===- NarrowIntegers.cpp - tilec-gpu-narrow-integers ---------------------===//
//
// arith's range-based narrowing to 32 bits, on the kernels that gain from
// it (Passes.td says which).
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/PassManager.h"

namespace tilec {
#define GEN_PASS_DEF_TILECGPUNARROWINTEGERSPASS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// Whether `type` (or its elements) is an integer wider than 32 bits that
/// is not index.
bool isWideInteger(Type type) {
  auto integer = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return integer && integer.getWidth() > 32;
}

bool computesWideIntegers(gpu::GPUFuncOp kernel) {
  return kernel
      .walk([](Operation *op) {
        return llvm::any_of(op->getResultTypes(), isWideInteger)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

struct NarrowIntegers
    : tilec::impl::TilecGPUNarrowIntegersPassBase<NarrowIntegers> {
  using TilecGPUNarrowIntegersPassBase::TilecGPUNarrowIntegersPassBase;

  LogicalResult initialize(MLIRContext *context) override {
    arith::ArithIntRangeNarrowingOptions options;
    options.bitwidthsSupported = {32};
    narrowing.addPass(arith::createArithIntRangeNarrowing(options));
    return success();
  }

  void runOnOperation() override {
    if (indexIs32Bit && !computesWideIntegers(getOperation()))
      return;
    if (failed(runPipeline(narrowing, getOperation())))
      signalPassFailure();
  }

  OpPassManager narrowing{gpu::GPUFuncOp::getOperationName()};
};

} // namespace
