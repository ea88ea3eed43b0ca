//===- InlineVectorMath.cpp - tilec-cpu-inline-vector-math ----------------===//
//
// exp of f32 as arithmetic in the kernel rather than a libm call per lane
// (see the pass's description). The other functions keep their libm calls:
// they are rare in networks' hot loops, and libm is correctly rounded or
// close to it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/Transforms/Passes.h"
#include "tilec/Target/Math/F32Math.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

namespace tilec {
#define GEN_PASS_DEF_INLINEVECTORMATHPASS
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

struct InlineVectorMathPass
    : public tilec::impl::InlineVectorMathPassBase<InlineVectorMathPass> {
  void runOnOperation() override {
    SmallVector<math::ExpOp> exps;
    getOperation().walk([&](math::ExpOp exp) {
      if (getElementTypeOrSelf(exp.getType()).isF32())
        exps.push_back(exp);
    });
    for (math::ExpOp exp : exps) {
      OpBuilder builder(exp);
      exp.replaceAllUsesWith(
          tilec::f32math::buildExp(builder, exp.getLoc(), exp.getOperand()));
      exp.erase();
    }
  }
};

} // namespace
