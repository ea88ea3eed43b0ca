//===- InlineVectorMath.cpp - tilec-cpu-inline-vector-math ----------------===//
//
// exp and tanh of f32 as arithmetic in the kernel rather than a libm call
// per lane (see the pass's description). The other functions keep their
// libm calls: they are rare in networks' hot loops, and libm is correctly
// rounded or close to it.
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
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<math::ExpOp, math::TanhOp>(op) &&
          getElementTypeOrSelf(op->getResult(0).getType()).isF32())
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder builder(op);
      Value x = op->getOperand(0);
      Value result = isa<math::ExpOp>(op)
                         ? tilec::f32math::buildExp(builder, op->getLoc(), x)
                         : tilec::f32math::buildTanh(builder, op->getLoc(), x);
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};

} // namespace
