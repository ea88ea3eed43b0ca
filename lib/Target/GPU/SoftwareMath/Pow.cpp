//===- Pow.cpp - f64 pow of a non-negative base ---------------------------===//
//
// x^y = exp(y log x), with log x as a double-double (Log.cpp) and y log x
// as a double-double too: exp's argument reaches 745, so an error of one
// ulp in log x alone would cost up to 2^9 ulps of the result, while the
// double-double product keeps it to the ulp or so of exp itself.
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"

using namespace mlir;

namespace tilec::f64math {

Value buildPow(MathBuilder &b, Value x, Value y) {
  Value finite = b.andB(b.gt(x, b.c(0)), b.lt(x, b.c(INFINITY)));
  DoubleDouble log = buildLogDoubleDouble(b, b.select(finite, x, b.c(1)));
  // log 0 = -inf and log inf = inf, in the high part only.
  log.hi =
      b.select(finite, log.hi, b.select(b.eq(x, b.c(0)), b.c(-INFINITY), x));
  log.lo = b.select(finite, log.lo, b.c(0));
  Value product = b.mul(y, log.hi);
  // Where y log x is beyond exp's range (or not finite), the high part
  // alone decides between 0 and inf, and the two-product is not needed.
  Value inRange = b.lt(b.abs(product), b.c(1000));
  Value ys = b.select(inRange, y, b.c(0));
  DoubleDouble exact = b.twoProd(ys, b.select(inRange, log.hi, b.c(0)));
  Value tail = b.add(exact.lo, b.mul(ys, log.lo));
  return buildExpWithTail(b, product, b.select(inRange, tail, b.c(0)));
}

} // namespace tilec::f64math
