//===- Exp.cpp - f64 exp and expm1 ----------------------------------------===//
//
// x = k ln2 + r with k = round(x / ln2) and |r| <= ln2 / 2, r computed
// exactly enough by Cody-Waite (k * kLn2Hi is exact for |k| < 2^11). Then
// expm1(r) = r + r^2 P(r) with P the Taylor series of (e^r - 1 - r) / r^2
// (terms to r^15 / 15!; the next is below 2^-68 at |r| = ln2 / 2), and
// exp(x) = 2^k (1 + expm1(r)), expm1(x) = 2^k expm1(r) + (2^k - 1).
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"

using namespace mlir;

namespace tilec::f64math {
namespace {
#include "Constants.inc"

/// The reduction of x (|x| small enough that |k| < 2^11): k and r + tail.
struct Reduced {
  Value k, r;
};

Reduced reduce(MathBuilder &b, Value x, Value tail) {
  Value k = b.roundEven(b.mul(x, b.c(kInvLn2)));
  Value r = b.sub(b.sub(x, b.mul(k, b.c(kLn2Hi))), b.mul(k, b.c(kLn2Lo)));
  return {k, b.add(r, tail)};
}

/// expm1(r) for |r| <= ln2 / 2 (and a little more).
Value expm1Reduced(MathBuilder &b, Value r) {
  return b.add(r, b.mul(b.mul(r, r), b.horner(r, kExpm1Taylor)));
}

} // namespace

Value buildScaledExp(MathBuilder &b, Value x, Value tail, int64_t exponent) {
  // Beyond [-746, 711], exp(x) 2^exponent (exponent -1 or 0) is 0 or inf:
  // clamping keeps k in range and still gives them (the scaling overflows
  // or underflows). NaN becomes 0 here and is passed through at the end.
  Value clamped = b.select(b.gt(x, b.c(711)), b.c(711),
                           b.select(b.lt(x, b.c(-746)), b.c(-746), x));
  clamped = b.select(b.isNaN(x), b.c(0), clamped);
  tail = b.select(b.eq(clamped, x), tail, b.c(0));
  Reduced reduced = reduce(b, clamped, tail);
  Value mantissa = b.add(b.c(1), expm1Reduced(b, reduced.r));
  // |k| <= 1077 after the clamp.
  Value k = b.iadd(b.smallToI64(reduced.k), b.ci(exponent));
  return b.nanPassthrough(x, b.scale(mantissa, k));
}

Value buildExpWithTail(MathBuilder &b, Value x, Value tail) {
  return buildScaledExp(b, x, tail, 0);
}

Value buildExp(MathBuilder &b, Value x) {
  return buildExpWithTail(b, x, b.c(0));
}

Value buildExpm1(MathBuilder &b, Value x) {
  Value clamped = b.select(b.gt(x, b.c(60)), b.c(60),
                           b.select(b.lt(x, b.c(-60)), b.c(-60), x));
  clamped = b.select(b.isNaN(x), b.c(0), clamped);
  Reduced reduced = reduce(b, clamped, b.c(0));
  Value q = expm1Reduced(b, reduced.r);
  Value twoToK = b.pow2(b.smallToI64(reduced.k)); // |k| <= 87
  Value result = b.add(b.mul(twoToK, q), b.sub(twoToK, b.c(1)));
  return b.nanPassthrough(x, result);
}

} // namespace tilec::f64math
