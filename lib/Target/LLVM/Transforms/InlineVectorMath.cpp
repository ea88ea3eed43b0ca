//===- InlineVectorMath.cpp - tilec-cpu-inline-vector-math ----------------===//
//
// exp and tanh of f32 as arithmetic in the kernel rather than a libm call
// per lane (see the pass's description). The other functions keep their
// libm calls: they are rare in networks' hot loops, and libm is correctly
// rounded or close to it.
//
// 1 + tanh(w) and 1 - tanh(w) are rewritten first, as one exp and a
// division (F32Math.h's buildOnePlusTanh) where tanh pays a polynomial, an
// exp, a division and its selects: GELU's tanh form, 0.5 x (1 + tanh(..)),
// computes such a sum per element.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/Transforms/Passes.h"
#include "tilec/Target/Math/F32Math.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

namespace tilec {
#define GEN_PASS_DEF_INLINEVECTORMATHPASS
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

bool isF32(Value v) { return getElementTypeOrSelf(v.getType()).isF32(); }

/// A constant 1, scalar, splat or broadcast.
bool isOne(Value v) {
  if (auto broadcast = v.getDefiningOp<vector::BroadcastOp>())
    v = broadcast.getSource();
  return matchPattern(v, m_OneFloat());
}

/// The tanh of f32 that `v` is, if nothing else uses it.
math::TanhOp soleTanh(Value v) {
  auto tanh = v.getDefiningOp<math::TanhOp>();
  return tanh && isF32(v) && v.hasOneUse() ? tanh : math::TanhOp();
}

/// 1 + tanh(w) (either order) or 1 - tanh(w) by buildOnePlusTanh, see the
/// file's header; false if `op` is neither.
bool rewriteOneAndTanh(Operation *op) {
  math::TanhOp tanh;
  bool negated = isa<arith::SubFOp>(op);
  if (auto add = dyn_cast<arith::AddFOp>(op)) {
    if (!(isOne(add.getLhs()) && (tanh = soleTanh(add.getRhs()))) &&
        isOne(add.getRhs()))
      tanh = soleTanh(add.getLhs());
  } else if (auto sub = dyn_cast<arith::SubFOp>(op)) {
    if (isOne(sub.getLhs()))
      tanh = soleTanh(sub.getRhs());
  }
  if (!tanh)
    return false;
  OpBuilder builder(op);
  op->getResult(0).replaceAllUsesWith(tilec::f32math::buildOnePlusTanh(
      builder, op->getLoc(), tanh.getOperand(), negated));
  op->erase();
  tanh.erase();
  return true;
}

struct InlineVectorMathPass
    : public tilec::impl::InlineVectorMathPassBase<InlineVectorMathPass> {
  void runOnOperation() override {
    SmallVector<Operation *> sums;
    getOperation().walk([&](Operation *op) {
      if (isa<arith::AddFOp, arith::SubFOp>(op))
        sums.push_back(op);
    });
    for (Operation *op : sums)
      rewriteOneAndTanh(op);
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<math::ExpOp, math::TanhOp>(op) && isF32(op->getResult(0)))
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
