//===- InverseHyperbolic.cpp - f64 asinh, acosh and atanh -----------------===//
//
// The usual cancellation-free forms, through log1p near the origin (or 1
// for acosh) and log elsewhere, with log(x) + ln2 where x^2 would overflow.
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"

using namespace mlir;

namespace tilec::f64math {
namespace {
#include "Constants.inc"

constexpr double kTwoTo28 = 0x1p28;

} // namespace

Value buildAsinh(MathBuilder &b, Value x) {
  Value a = b.abs(x);
  // Above 2^28, sqrt(a^2 + 1) = a to double precision.
  Value large = b.add(buildLog(b, a), b.c(kLn2));
  // 2 < a <= 2^28: log(2a + 1 / (sqrt(a^2 + 1) + a)).
  Value am = b.select(b.le(a, b.c(kTwoTo28)), a, b.c(2));
  Value medium = buildLog(
      b, b.add(b.mul(b.c(2), am),
               b.div(b.c(1), b.add(b.sqrt(b.add(b.mul(am, am), b.c(1))), am))));
  // a <= 2: log1p(a + a^2 / (1 + sqrt(1 + a^2))).
  Value as = b.select(b.le(a, b.c(2)), a, b.c(0));
  Value t = b.mul(as, as);
  Value small = buildLog1p(
      b, b.add(as, b.div(t, b.add(b.c(1), b.sqrt(b.add(b.c(1), t))))));
  Value result = b.select(b.gt(a, b.c(kTwoTo28)), large,
                          b.select(b.gt(a, b.c(2)), medium, small));
  return b.nanPassthrough(x, b.withSignOf(x, result));
}

Value buildAcosh(MathBuilder &b, Value x) {
  Value large = b.add(buildLog(b, x), b.c(kLn2));
  // 2 < x <= 2^28: log(2x - 1 / (x + sqrt(x^2 - 1))).
  Value xm =
      b.select(b.andB(b.gt(x, b.c(2)), b.le(x, b.c(kTwoTo28))), x, b.c(2));
  Value medium = buildLog(
      b, b.sub(b.mul(b.c(2), xm),
               b.div(b.c(1), b.add(xm, b.sqrt(b.sub(b.mul(xm, xm), b.c(1)))))));
  // 1 <= x <= 2: log1p(t + sqrt(2t + t^2)), t = x - 1 (exact).
  Value xs = b.select(b.andB(b.ge(x, b.c(1)), b.le(x, b.c(2))), x, b.c(1));
  Value t = b.sub(xs, b.c(1));
  Value small =
      buildLog1p(b, b.add(t, b.sqrt(b.add(b.mul(b.c(2), t), b.mul(t, t)))));
  Value result = b.select(b.gt(x, b.c(kTwoTo28)), large,
                          b.select(b.gt(x, b.c(2)), medium, small));
  result = b.select(b.lt(x, b.c(1)), b.c(NAN), result);
  return b.nanPassthrough(x, result);
}

Value buildAtanh(MathBuilder &b, Value x) {
  Value a = b.abs(x);
  Value as = b.select(b.lt(a, b.c(1)), a, b.c(0));
  Value twice = b.add(as, as);
  // atanh a = log1p(2a / (1 - a)) / 2; below 1/2 written as
  // 2a + 2a^2 / (1 - a), whose first term carries the result exactly.
  Value oneMinus = b.sub(b.c(1), as);
  Value small = buildLog1p(b, b.add(twice, b.div(b.mul(twice, as), oneMinus)));
  Value big = buildLog1p(b, b.div(twice, oneMinus));
  Value result = b.mul(b.c(0.5), b.select(b.lt(as, b.c(0.5)), small, big));
  result = b.select(b.eq(a, b.c(1)), b.c(INFINITY), result);
  result = b.select(b.gt(a, b.c(1)), b.c(NAN), result);
  return b.nanPassthrough(x, b.withSignOf(x, result));
}

} // namespace tilec::f64math
