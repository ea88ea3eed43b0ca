//===- InverseTrig.cpp - f64 atan, asin and acos --------------------------===//
//
// atan: |x| is brought to |t| <= 7/16 by atan x = atan c + atan((x - c) /
// (1 + c x)) for c = 1/2, 1, 3/2 and atan x = pi/2 - atan(1/x), each
// atan c in two parts; then the Taylor series of atan to t^55.
// asin: the Taylor series to x^67 for |x| <= 1/2, and
// asin x = pi/2 - 2 asin(sqrt((1 - x) / 2)) above (1 - x exact there);
// acos from the same two pieces.
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"

using namespace mlir;

namespace tilec::f64math {
namespace {
#include "Constants.inc"

/// asin(w) for |w| <= 1/2.
Value asinSeries(MathBuilder &b, Value w) {
  Value z = b.mul(w, w);
  return b.add(w, b.mul(b.mul(w, z), b.horner(z, kAsinTaylor)));
}

/// w = sqrt((1 - a) / 2) for 1/2 < a <= 1 (other lanes: 0).
Value halfAngle(MathBuilder &b, Value a) {
  Value as = b.select(b.andB(b.gt(a, b.c(0.5)), b.le(a, b.c(1))), a, b.c(1));
  return b.sqrt(b.mul(b.sub(b.c(1), as), b.c(0.5)));
}

} // namespace

Value buildAtan(MathBuilder &b, Value x) {
  Value a = b.abs(x);
  Value inRange0 = b.lt(a, b.c(7.0 / 16));
  Value inRange1 = b.lt(a, b.c(11.0 / 16));
  Value inRange2 = b.lt(a, b.c(19.0 / 16));
  Value inRange3 = b.lt(a, b.c(39.0 / 16));
  // Every numerator below is exact (Sterbenz), so t is within an ulp.
  Value t = b.select(
      inRange0, a,
      b.select(inRange1,
               b.div(b.sub(b.mul(b.c(2), a), b.c(1)), b.add(b.c(2), a)),
               b.select(inRange2, b.div(b.sub(a, b.c(1)), b.add(a, b.c(1))),
                        b.select(inRange3,
                                 b.div(b.sub(a, b.c(1.5)),
                                       b.add(b.c(1), b.mul(b.c(1.5), a))),
                                 b.div(b.c(-1), a)))));
  auto pick = [&](double v1, double v2, double v3, double v4) {
    return b.select(inRange0, b.c(0),
                    b.select(inRange1, b.c(v1),
                             b.select(inRange2, b.c(v2),
                                      b.select(inRange3, b.c(v3), b.c(v4)))));
  };
  Value baseHi = pick(kAtanHalfHi, kPiOver4Hi, kAtanThreeHalvesHi, kPiOver2Hi);
  Value baseLo = pick(kAtanHalfLo, kPiOver4Lo, kAtanThreeHalvesLo, kPiOver2Lo);
  Value z = b.mul(t, t);
  Value tail = b.mul(b.mul(t, z), b.horner(z, kAtanTaylor));
  Value result = b.add(baseHi, b.add(t, b.add(tail, baseLo)));
  return b.nanPassthrough(x, b.withSignOf(x, result));
}

Value buildAsin(MathBuilder &b, Value x) {
  Value a = b.abs(x);
  Value small = asinSeries(b, b.select(b.le(a, b.c(0.5)), a, b.c(0)));
  Value big = b.sub(
      b.c(kPiOver2Hi),
      b.sub(b.mul(b.c(2), asinSeries(b, halfAngle(b, a))), b.c(kPiOver2Lo)));
  Value result = b.select(b.le(a, b.c(0.5)), small, big);
  result = b.select(b.gt(a, b.c(1)), b.c(NAN), result);
  return b.nanPassthrough(x, b.withSignOf(x, result));
}

Value buildAcos(MathBuilder &b, Value x) {
  Value a = b.abs(x);
  // |x| <= 1/2: pi/2 - asin x.
  Value xs = b.select(b.le(a, b.c(0.5)), x, b.c(0));
  Value middle =
      b.sub(b.c(kPiOver2Hi), b.sub(asinSeries(b, xs), b.c(kPiOver2Lo)));
  // x > 1/2: 2 asin(sqrt((1 - x) / 2)); x < -1/2: pi - the same for -x.
  Value twice = b.mul(b.c(2), asinSeries(b, halfAngle(b, a)));
  Value negative = b.sub(b.c(kPiHi), b.sub(twice, b.c(kPiLo)));
  Value result = b.select(b.le(a, b.c(0.5)), middle,
                          b.select(b.gt(x, b.c(0)), twice, negative));
  result = b.select(b.gt(a, b.c(1)), b.c(NAN), result);
  return b.nanPassthrough(x, result);
}

} // namespace tilec::f64math
