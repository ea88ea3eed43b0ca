//===- ExpandPowF.cpp - tilec-gpu-expand-powf -----------------------------===//
//
// GL.Pow (what math.powf becomes) is undefined for x < 0 and for x = 0 with
// y <= 0, and lavapipe's version loses the NaNs that upstream's lowering
// feeds it; the interpreter computes C's pow. Here GL.Pow only ever sees
// |x| > 0, and every special case of C's pow is selected explicitly.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

namespace tilec {
#define GEN_PASS_DEF_TILECGPUEXPANDPOWFPASS
#include "tilec/Target/GPU/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// Builds the C pow of one math.powf in front of it.
class PowBuilder {
public:
  explicit PowBuilder(math::PowFOp op)
      : b(op), loc(op.getLoc()), type(op.getType()),
        semantics(cast<FloatType>(getElementTypeOrSelf(type))
                      .getFloatSemantics()) {}

  Value build(Value x, Value y) {
    Value zero = constant(APFloat::getZero(semantics));
    Value one = constant(APFloat::getOne(semantics));
    Value nan = constant(APFloat::getQNaN(semantics));
    Value inf = constant(APFloat::getInf(semantics));
    Value ax = math::AbsFOp::create(b, loc, x);
    Value ay = math::AbsFOp::create(b, loc, y);

    // |x|^y for |x| > 0; C gives +inf (y < 0) or +0 (y > 0) at |x| = 0.
    Value magnitude = math::PowFOp::create(b, loc, ax, y);
    magnitude = select(cmp(arith::CmpFPredicate::OEQ, ax, zero),
                       select(cmp(arith::CmpFPredicate::OLT, y, zero), inf,
                              zero),
                       magnitude);

    // The sign of x survives for odd integer y only. Floats of magnitude
    // 2^precision and more are even integers (and too big to convert).
    Value isInteger =
        cmp(arith::CmpFPredicate::OEQ, math::FloorOp::create(b, loc, y), y);
    APFloat evenFrom(semantics, 1);
    evenFrom = scalbn(evenFrom, APFloat::semanticsPrecision(semantics),
                      APFloat::rmNearestTiesToEven);
    Value small = cmp(arith::CmpFPredicate::OLT, ay, constant(evenFrom));
    Type intType = getTypeLike(b.getI32Type());
    Value asInt = arith::FPToSIOp::create(b, loc, intType,
                                          select(small, y, zero));
    Value intOne = createScalarOrSplatConstant(b, loc, intType, 1);
    Value odd = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, loc, asInt, intOne), intOne);
    Value oddInteger = andI(andI(isInteger, small), odd);
    Value signOfX = math::CopySignOp::create(b, loc, one, x);
    Value negativeX = cmp(arith::CmpFPredicate::OLT, signOfX, zero);
    Value result = select(andI(negativeX, oddInteger),
                          arith::NegFOp::create(b, loc, magnitude), magnitude);

    // A finite negative x to a non-integer y (or NaN) power is NaN.
    Value finiteNegative = andI(cmp(arith::CmpFPredicate::OLT, x, zero),
                                cmp(arith::CmpFPredicate::ONE, ax, inf));
    result = select(andI(finiteNegative,
                         arith::XOrIOp::create(b, loc, isInteger, ones())),
                    nan, result);
    result = select(cmp(arith::CmpFPredicate::UNO, x, y), nan, result);
    // pow(-1, +-inf) = 1, pow(1, y) = 1 and pow(x, 0) = 1, NaNs included.
    Value unitToInf = andI(cmp(arith::CmpFPredicate::OEQ, ax, one),
                           cmp(arith::CmpFPredicate::OEQ, ay, inf));
    Value isOne = arith::OrIOp::create(
        b, loc,
        arith::OrIOp::create(b, loc, unitToInf,
                             cmp(arith::CmpFPredicate::OEQ, x, one)),
        cmp(arith::CmpFPredicate::OEQ, y, zero));
    return select(isOne, one, result);
  }

private:
  /// `element` with the shape of the pow (scalar or vector).
  Type getTypeLike(Type element) {
    if (auto vector = dyn_cast<VectorType>(type))
      return vector.clone(element);
    return element;
  }
  Value constant(const APFloat &value) {
    return createScalarOrSplatConstant(b, loc, type, value);
  }
  Value ones() {
    return createScalarOrSplatConstant(b, loc, getTypeLike(b.getI1Type()),
                                       APInt(1, 1));
  }
  Value cmp(arith::CmpFPredicate predicate, Value lhs, Value rhs) {
    return arith::CmpFOp::create(b, loc, predicate, lhs, rhs);
  }
  Value select(Value condition, Value onTrue, Value onFalse) {
    return arith::SelectOp::create(b, loc, condition, onTrue, onFalse);
  }
  Value andI(Value lhs, Value rhs) {
    return arith::AndIOp::create(b, loc, lhs, rhs);
  }

  OpBuilder b;
  Location loc;
  Type type;
  const llvm::fltSemantics &semantics;
};

struct ExpandPowFPass
    : tilec::impl::TilecGPUExpandPowFPassBase<ExpandPowFPass> {
  void runOnOperation() override {
    // Collected first: the expansion creates the math.powf of |x|.
    SmallVector<math::PowFOp> pows;
    getOperation().walk([&](math::PowFOp op) { pows.push_back(op); });
    for (math::PowFOp op : pows) {
      Value result = PowBuilder(op).build(op.getLhs(), op.getRhs());
      op.replaceAllUsesWith(result);
      op.erase();
    }
  }
};

} // namespace
