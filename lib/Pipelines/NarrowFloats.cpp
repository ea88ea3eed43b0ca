//===- NarrowFloats.cpp - f16 and bf16 computed in f32 --------------------===//

#include "NarrowFloats.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void tilec::pipelines::addNarrowFloatsInF32(OpPassManager &pm) {
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(math::createMathExtendToSupportedTypes());
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"bf16"};
  kernels.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
}
