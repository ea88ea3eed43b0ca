//===- ExpandDivisionByZero.cpp - tilec-gpu-expand-division-by-zero ------===//
//
// `X / 0.0` must give IEEE's +-inf and NaN, but Vulkan bounds the error of
// OpFDiv only for divisors of moderate magnitude, and lavapipe divides by a
// constant +0.0 to 0 whatever the float controls say (a zero-valued tensor,
// or -0.0, divides right). A division by a constant zero is exactly a
// multiplication by the infinity of the zero's sign (finite x: the signed
// infinity; 0: NaN; inf: inf; NaN: NaN), which every driver computes IEEE
// under SignedZeroInfNanPreserve, so that is what the kernel does instead.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

namespace tilec {
#define GEN_PASS_DEF_TILECGPUEXPANDDIVISIONBYZEROPASS
#include "tilec/Target/GPU/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// Whether `value` is a constant +-0.0 (scalar or splat), possibly
/// extended or truncated (f16 arithmetic computes in f32, so an f16
/// literal reaches the division through arith.extf); its sign in
/// `negative`. Extending or truncating a zero keeps it exactly.
bool isConstantZero(Value value, bool &negative) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(def))
      break;
    value = def->getOperand(0);
  }
  APFloat divisor(0.0);
  if (!matchPattern(value, m_ConstantFloat(&divisor)) || !divisor.isZero())
    return false;
  negative = divisor.isNegative();
  return true;
}

struct ExpandDivisionByZeroPass
    : tilec::impl::TilecGPUExpandDivisionByZeroPassBase<
          ExpandDivisionByZeroPass> {
  void runOnOperation() override {
    SmallVector<std::pair<arith::DivFOp, bool>> divisions;
    getOperation().walk([&](arith::DivFOp op) {
      bool negative = false;
      if (isConstantZero(op.getRhs(), negative))
        divisions.push_back({op, negative});
    });
    for (auto [op, negative] : divisions) {
      OpBuilder builder(op);
      const llvm::fltSemantics &semantics =
          cast<FloatType>(getElementTypeOrSelf(op.getType()))
              .getFloatSemantics();
      Value infinity =
          createScalarOrSplatConstant(builder, op.getLoc(), op.getType(),
                                      APFloat::getInf(semantics, negative));
      auto product = arith::MulFOp::create(builder, op.getLoc(), op.getLhs(),
                                           infinity, op.getFastmathAttr());
      op.replaceAllUsesWith(product.getResult());
      op.erase();
    }
  }
};

} // namespace
