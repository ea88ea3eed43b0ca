//===- Log.cpp - f64 log, log1p and a double-double log for pow -----------===//
//
// x = 2^e m with m in [sqrt(1/2), sqrt(2)) (subnormals scaled by 2^54
// first), f = m - 1 exactly, and log(1 + f) = 2 atanh(s) with
// s = f / (2 + f), |s| <= 0.1716: log(1 + f) = f - (f^2/2 - s (f^2/2 + R))
// with R = 2 s^2/3 + 2 s^4/5 + ... (the atanh series, to s^26). Adding
// e ln2 in two parts (e * kLn2Hi exact) keeps the error below one ulp.
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"

using namespace mlir;

namespace tilec::f64math {
namespace {
#include "Constants.inc"

constexpr double kSqrt2 = 1.4142135623730951;

/// x = 2^e m, m in [sqrt(1/2), sqrt(2)), for a positive finite x.
struct Decomposed {
  Value e; ///< f64 holding the integer exponent
  Value m;
};

Decomposed decompose(MathBuilder &b, Value x) {
  Value subnormal = b.lt(x, b.c(0x1p-1022));
  Value scaled = b.select(subnormal, b.mul(x, b.c(0x1p54)), x);
  Value bits = b.bits(scaled);
  Value e = b.isub(b.ashr(bits, 52), b.ci(1023));
  e = b.select(subnormal, b.isub(e, b.ci(54)), e);
  Value m = b.fromBits(b.ior(b.iand(bits, b.ci((int64_t(1) << 52) - 1)),
                             b.ci(int64_t(1023) << 52)));
  Value big = b.gt(m, b.c(kSqrt2));
  m = b.select(big, b.mul(m, b.c(0.5)), m);
  e = b.select(big, b.iadd(e, b.ci(1)), e);
  return {b.toF64(e), m};
}

/// log(u) + correction for a positive finite u and a correction below
/// ulp(log(u)) (log1p's rounding error of 1 + x, divided by u).
Value logCore(MathBuilder &b, Value u, Value correction) {
  Decomposed d = decompose(b, u);
  Value f = b.sub(d.m, b.c(1));
  Value s = b.div(f, b.add(b.c(2), f));
  Value z = b.mul(s, s);
  Value r = b.mul(z, b.horner(z, kLogAtanhSeries));
  Value halfSquare = b.mul(b.mul(b.c(0.5), f), f);
  Value low = b.add(b.mul(s, b.add(halfSquare, r)),
                    b.add(b.mul(d.e, b.c(kLn2Lo)), correction));
  return b.sub(b.mul(d.e, b.c(kLn2Hi)), b.sub(b.sub(halfSquare, low), f));
}

/// Whether x is positive and finite.
Value positiveFinite(MathBuilder &b, Value x) {
  return b.andB(b.gt(x, b.c(0)), b.lt(x, b.c(INFINITY)));
}

} // namespace

Value buildLog(MathBuilder &b, Value x) {
  Value ok = positiveFinite(b, x);
  Value result = logCore(b, b.select(ok, x, b.c(1)), b.c(0));
  result = b.select(b.eq(x, b.c(INFINITY)), x, result);
  result = b.select(b.eq(x, b.c(0)), b.c(-INFINITY), result);
  result = b.select(b.lt(x, b.c(0)), b.c(NAN), result);
  return b.nanPassthrough(x, result);
}

Value buildLog1p(MathBuilder &b, Value x) {
  Value ok = b.andB(b.gt(x, b.c(-1)), b.lt(x, b.c(INFINITY)));
  Value xs = b.select(ok, x, b.c(0));
  Value u = b.add(b.c(1), xs);
  // The rounding error of 1 + x, exactly (fast two-sum, larger term first).
  Value error = b.select(b.gt(xs, b.c(1)), b.sub(b.c(1), b.sub(u, xs)),
                         b.sub(xs, b.sub(u, b.c(1))));
  Value result = logCore(b, u, b.div(error, u));
  result = b.select(b.eq(x, b.c(INFINITY)), x, result);
  result = b.select(b.eq(x, b.c(-1)), b.c(-INFINITY), result);
  result = b.select(b.lt(x, b.c(-1)), b.c(NAN), result);
  return b.nanPassthrough(x, result);
}

DoubleDouble buildLogDoubleDouble(MathBuilder &b, Value x) {
  // The same decomposition, and log(m) = 2s + 2s^3/3 + s z^2 R2(z) with
  // s = f / (1 + m) as a double-double: the first two terms in
  // double-double, the rest (below 2^-12 of the total) in double.
  Decomposed d = decompose(b, x);
  Value f = b.sub(d.m, b.c(1));
  DoubleDouble denominator = b.fastTwoSum(b.c(1), d.m);
  Value sHi = b.div(f, denominator.hi);
  DoubleDouble product = b.twoProd(sHi, denominator.hi);
  Value remainder = b.sub(b.sub(b.sub(f, product.hi), product.lo),
                          b.mul(sHi, denominator.lo));
  DoubleDouble s = b.fastTwoSum(sHi, b.div(remainder, denominator.hi));

  DoubleDouble cube = b.mul(b.mul(s, s), s);
  DoubleDouble term3 =
      b.mul(cube, DoubleDouble{b.c(kTwoThirdsHi), b.c(kTwoThirdsLo)});
  Value z = b.mul(s.hi, s.hi);
  Value rest =
      b.mul(b.mul(cube.hi, z),
            b.horner(z, ArrayRef<double>(kLogAtanhSeries).drop_front()));

  DoubleDouble sum = b.twoSum(b.mul(d.e, b.c(kLn2Hi)), b.mul(b.c(2), s.hi));
  DoubleDouble sum3 = b.twoSum(sum.hi, term3.hi);
  Value low = b.add(b.add(sum.lo, sum3.lo),
                    b.add(b.add(b.mul(d.e, b.c(kLn2Lo)), b.mul(b.c(2), s.lo)),
                          b.add(term3.lo, rest)));
  return b.fastTwoSum(sum3.hi, low);
}

} // namespace tilec::f64math
