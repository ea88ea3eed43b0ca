//===- LegalizeBoolArith.cpp - tilec-spirv-legalize-bool-arith ------------===//
//
// SPIR-V has no integer min/max on booleans (GL.UMin and friends take 8- to
// 64-bit integers), so min/max of i1 becomes the logical and/or it equals.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/IR/TypeUtilities.h"

namespace tilec {
#define GEN_PASS_DEF_TILECSPIRVLEGALIZEBOOLARITHPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// Replaces `op` by `Logical(lhs, rhs)` when it computes on i1 (or vectors
/// of i1).
template <typename Logical>
void replaceOnBool(Operation *op, IRRewriter &rewriter) {
  if (!getElementTypeOrSelf(op->getResult(0).getType()).isInteger(1))
    return;
  rewriter.setInsertionPoint(op);
  rewriter.replaceOpWithNewOp<Logical>(op, op->getOperand(0),
                                       op->getOperand(1));
}

struct LegalizeBoolArithPass
    : tilec::impl::TilecSPIRVLegalizeBoolArithPassBase<LegalizeBoolArithPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Unsigned: false (0) < true (1). Signed: true (-1) < false (0).
    getOperation().walk([&](Operation *op) {
      if (isa<arith::MinUIOp, arith::MaxSIOp>(op))
        replaceOnBool<arith::AndIOp>(op, rewriter);
      else if (isa<arith::MaxUIOp, arith::MinSIOp>(op))
        replaceOnBool<arith::OrIOp>(op, rewriter);
    });
  }
};

} // namespace
