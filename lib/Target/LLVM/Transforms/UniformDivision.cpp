//===- UniformDivision.cpp - Vectors divided by a scalar, multiplied ------===//
//
// See UniformDivision.h.
//
//===----------------------------------------------------------------------===//

#include "UniformDivision.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace {

Value floatConstant(OpBuilder &b, Location loc, FloatType type,
                    const APFloat &value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

Value powerOfTwo(OpBuilder &b, Location loc, FloatType type, int exponent) {
  return floatConstant(
      b, loc, type,
      llvm::scalbn(APFloat::getOne(type.getFloatSemantics()), exponent,
                   APFloat::rmNearestTiesToEven));
}

int maxExponent(FloatType type) {
  return APFloat::semanticsMaxExponent(type.getFloatSemantics());
}

} // namespace

bool tilec::transforms::hasReciprocalForm(arith::DivFOp division) {
  Type type = division.getType();
  return type.isF32() || type.isF64();
}

tilec::transforms::Reciprocals
tilec::transforms::buildReciprocals(OpBuilder &b, Location loc,
                                    ArrayRef<arith::DivFOp> divisions) {
  Reciprocals reciprocals;
  reciprocals.allNormal = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (arith::DivFOp division : divisions) {
    Value divisor = division.getRhs();
    if (reciprocals.of.count(divisor))
      continue;
    auto type = cast<FloatType>(divisor.getType());
    const llvm::fltSemantics &semantics = type.getFloatSemantics();
    reciprocals.of[divisor] = arith::DivFOp::create(
        b, loc, floatConstant(b, loc, type, APFloat::getOne(semantics)),
        divisor, division.getFastmath());
    Value magnitude = math::AbsFOp::create(b, loc, divisor);
    Value aboveLeast = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OGE, magnitude,
        floatConstant(b, loc, type, APFloat::getSmallestNormalized(semantics)));
    Value belowMost = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OLE, magnitude,
        powerOfTwo(b, loc, type, maxExponent(type) - 1));
    reciprocals.allNormal = arith::AndIOp::create(
        b, loc, reciprocals.allNormal,
        arith::AndIOp::create(b, loc, aboveLeast, belowMost));
  }
  return reciprocals;
}

Value tilec::transforms::multiplyByReciprocal(OpBuilder &b,
                                              arith::DivFOp division,
                                              Value dividend, Value reciprocal,
                                              Value &inexact) {
  Location loc = division.getLoc();
  auto vectorType = cast<VectorType>(dividend.getType());
  auto type = cast<FloatType>(vectorType.getElementType());
  Value quotient = arith::MulFOp::create(
      b, loc, dividend,
      vector::BroadcastOp::create(b, loc, vectorType, reciprocal),
      division.getFastmath());
  // Unordered: NaN counts as near overflow.
  Value nearOverflow = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::UGT, math::AbsFOp::create(b, loc, quotient),
      vector::BroadcastOp::create(b, loc, vectorType,
                                  powerOfTwo(b, loc, type, maxExponent(type))));
  inexact = arith::OrIOp::create(
      b, loc, inexact,
      vector::ReductionOp::create(b, loc, vector::CombiningKind::OR,
                                  nearOverflow));
  return quotient;
}
