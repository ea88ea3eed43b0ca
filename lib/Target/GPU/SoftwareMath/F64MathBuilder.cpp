//===- F64MathBuilder.cpp - Scalar f64 arithmetic for the math expansions -===//

#include "F64MathBuilder.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace tilec::f64math;

Value MathBuilder::c(double value) {
  return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(value));
}
Value MathBuilder::ci(int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
}

Value MathBuilder::add(Value x, Value y) {
  return arith::AddFOp::create(b, loc, x, y);
}
Value MathBuilder::sub(Value x, Value y) {
  return arith::SubFOp::create(b, loc, x, y);
}
Value MathBuilder::mul(Value x, Value y) {
  return arith::MulFOp::create(b, loc, x, y);
}
Value MathBuilder::div(Value x, Value y) {
  return arith::DivFOp::create(b, loc, x, y);
}
Value MathBuilder::neg(Value x) { return arith::NegFOp::create(b, loc, x); }
Value MathBuilder::abs(Value x) { return math::AbsFOp::create(b, loc, x); }
Value MathBuilder::floor(Value x) { return math::FloorOp::create(b, loc, x); }
Value MathBuilder::roundEven(Value x) {
  return math::RoundEvenOp::create(b, loc, x);
}
Value MathBuilder::sqrt(Value x) { return math::SqrtOp::create(b, loc, x); }
Value MathBuilder::copySign(Value magnitude, Value sign) {
  return math::CopySignOp::create(b, loc, magnitude, sign);
}

Value MathBuilder::cmp(arith::CmpFPredicate predicate, Value x, Value y) {
  return arith::CmpFOp::create(b, loc, predicate, x, y);
}
Value MathBuilder::lt(Value x, Value y) {
  return cmp(arith::CmpFPredicate::OLT, x, y);
}
Value MathBuilder::le(Value x, Value y) {
  return cmp(arith::CmpFPredicate::OLE, x, y);
}
Value MathBuilder::gt(Value x, Value y) {
  return cmp(arith::CmpFPredicate::OGT, x, y);
}
Value MathBuilder::ge(Value x, Value y) {
  return cmp(arith::CmpFPredicate::OGE, x, y);
}
Value MathBuilder::eq(Value x, Value y) {
  return cmp(arith::CmpFPredicate::OEQ, x, y);
}
Value MathBuilder::isNaN(Value x) {
  return cmp(arith::CmpFPredicate::UNO, x, x);
}
Value MathBuilder::signBit(Value x) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bits(x),
                               ci(0));
}
Value MathBuilder::select(Value condition, Value onTrue, Value onFalse) {
  return arith::SelectOp::create(b, loc, condition, onTrue, onFalse);
}
Value MathBuilder::andB(Value x, Value y) {
  return arith::AndIOp::create(b, loc, x, y);
}
Value MathBuilder::orB(Value x, Value y) {
  return arith::OrIOp::create(b, loc, x, y);
}

Value MathBuilder::bits(Value x) {
  return arith::BitcastOp::create(b, loc, b.getI64Type(), x);
}
Value MathBuilder::fromBits(Value i) {
  return arith::BitcastOp::create(b, loc, b.getF64Type(), i);
}
Value MathBuilder::iadd(Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}
Value MathBuilder::isub(Value x, Value y) {
  return arith::SubIOp::create(b, loc, x, y);
}
Value MathBuilder::imul(Value x, Value y) {
  return arith::MulIOp::create(b, loc, x, y);
}
Value MathBuilder::idiv(Value x, Value y) {
  return arith::DivSIOp::create(b, loc, x, y);
}
Value MathBuilder::iand(Value x, Value y) {
  return arith::AndIOp::create(b, loc, x, y);
}
Value MathBuilder::ior(Value x, Value y) {
  return arith::OrIOp::create(b, loc, x, y);
}
Value MathBuilder::ieq(Value x, Value y) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
}
Value MathBuilder::shl(Value x, int64_t count) {
  return arith::ShLIOp::create(b, loc, x, ci(count));
}
Value MathBuilder::ashr(Value x, int64_t count) {
  return arith::ShRSIOp::create(b, loc, x, ci(count));
}
Value MathBuilder::toF64(Value i) {
  return arith::SIToFPOp::create(b, loc, b.getF64Type(), i);
}
Value MathBuilder::toI64(Value x) {
  return arith::FPToSIOp::create(b, loc, b.getI64Type(), x);
}
Value MathBuilder::smallToI64(Value x) {
  Value narrow = arith::FPToSIOp::create(b, loc, b.getI32Type(), x);
  return arith::ExtSIOp::create(b, loc, b.getI64Type(), narrow);
}

Value MathBuilder::horner(Value z, ArrayRef<double> coefficients) {
  Value result = c(coefficients.back());
  for (double coefficient : llvm::reverse(coefficients.drop_back()))
    result = add(mul(result, z), c(coefficient));
  return result;
}

Value MathBuilder::pow2(Value k) {
  return fromBits(shl(iadd(k, ci(1023)), 52));
}

Value MathBuilder::scale(Value x, Value k) {
  // A normal result: k added to the exponent field, no multiplication a
  // driver could reassociate into an overflow (0.5 h h as 0.5 (h h)).
  Value exponent = iadd(iand(ashr(bits(x), 52), ci(0x7ff)), k);
  Value normal = fromBits(iadd(bits(x), shl(k, 52)));
  // A subnormal one: rounded once by the second multiplication (or, if
  // the two are reassociated, by the single multiplication by 2^k).
  Value lowK = select(
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, k, ci(-2000)),
      ci(-2000), k);
  Value subnormal = mul(mul(x, pow2(iadd(lowK, ci(1000)))), c(0x1p-1000));
  Value overflow = copySign(c(INFINITY), x);
  auto below = [&](int64_t bound) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, exponent,
                                 ci(bound));
  };
  Value result =
      select(below(1), subnormal, select(below(0x7ff), normal, overflow));
  return select(eq(x, c(0)), x, result);
}

Value MathBuilder::withSignOf(Value x, Value magnitude) {
  return select(signBit(x), neg(magnitude), magnitude);
}

Value MathBuilder::nanPassthrough(Value x, Value result) {
  return select(isNaN(x), x, result);
}

Value MathBuilder::lookup(ArrayRef<double> table, Value index) {
  // A tree of selects on the bits of the index: no memory, no array copy
  // per invocation (which a Function-storage table would cost).
  SmallVector<Value> level;
  for (double value : table)
    level.push_back(c(value));
  for (int64_t bit = 0; level.size() > 1; ++bit) {
    Value set = ieq(iand(ashr(index, bit), ci(1)), ci(1));
    SmallVector<Value> next;
    for (size_t i = 0; i < level.size(); i += 2)
      next.push_back(i + 1 < level.size() ? select(set, level[i + 1], level[i])
                                          : level[i]);
    level = std::move(next);
  }
  return level.front();
}

DoubleDouble MathBuilder::twoSum(Value a, Value x) {
  Value s = add(a, x);
  Value xVirtual = sub(s, a);
  Value aVirtual = sub(s, xVirtual);
  Value error = add(sub(a, aVirtual), sub(x, xVirtual));
  return {s, error};
}

DoubleDouble MathBuilder::fastTwoSum(Value a, Value x) {
  Value s = add(a, x);
  return {s, sub(x, sub(s, a))};
}

Value MathBuilder::highHalf(Value x) {
  return fromBits(iand(bits(x), ci(~((int64_t(1) << 27) - 1))));
}

DoubleDouble MathBuilder::twoProd(Value x, Value y) {
  Value p = mul(x, y);
  Value xh = highHalf(x), yh = highHalf(y);
  Value xl = sub(x, xh), yl = sub(y, yh);
  // ((xh yh - p) + xh yl + xl yh) + xl yl: each partial sum is exact but
  // the last product's rounding, 2^-106 of |x y|.
  Value error =
      add(add(add(sub(mul(xh, yh), p), mul(xh, yl)), mul(xl, yh)), mul(xl, yl));
  return {p, error};
}

DoubleDouble MathBuilder::mul(DoubleDouble x, DoubleDouble y) {
  DoubleDouble p = twoProd(x.hi, y.hi);
  Value lo = add(p.lo, add(mul(x.hi, y.lo), mul(x.lo, y.hi)));
  return fastTwoSum(p.hi, lo);
}
