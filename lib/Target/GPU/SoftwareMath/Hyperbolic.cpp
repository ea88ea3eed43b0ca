//===- Hyperbolic.cpp - f64 sinh, cosh and tanh ---------------------------===//
//
// On |x|, with the sign restored for the odd ones: through expm1 where
// e^x - e^-x would cancel (sinh and tanh near 0), through exp elsewhere,
// and from 22 on as e^|x| / 2 with the halving applied to the exponent, so
// that it is finite where the result is (709.78 < |x| < 710.48) even on a
// driver that reassociates (0.5 h) h into 0.5 (h h).
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"

using namespace mlir;

namespace tilec::f64math {
namespace {

/// e^a / 2, finite wherever the result is (up to a = 710.47).
Value halfExp(MathBuilder &b, Value a) {
  return buildScaledExp(b, a, b.c(0), -1);
}

} // namespace

Value buildSinh(MathBuilder &b, Value x) {
  Value a = b.abs(x);
  // a < 22: (E + E / (E + 1)) / 2 with E = expm1(a); e^-a is below 2^-63
  // of e^a beyond.
  Value e = buildExpm1(b, b.select(b.lt(a, b.c(22)), a, b.c(22)));
  Value small = b.mul(b.c(0.5), b.add(e, b.div(e, b.add(e, b.c(1)))));
  Value result = b.select(b.lt(a, b.c(22)), small, halfExp(b, a));
  return b.nanPassthrough(x, b.withSignOf(x, result));
}

Value buildCosh(MathBuilder &b, Value x) {
  Value a = b.abs(x);
  // e^a / 2 + e^-a / 2: the rounding errors of e^a and 1 / e^a cancel to
  // first order near 0.
  Value t = buildExp(b, b.select(b.lt(a, b.c(22)), a, b.c(22)));
  Value small = b.add(b.mul(b.c(0.5), t), b.div(b.c(0.5), t));
  Value result = b.select(b.lt(a, b.c(22)), small, halfExp(b, a));
  return b.nanPassthrough(x, result);
}

Value buildTanh(MathBuilder &b, Value x) {
  Value a = b.abs(x);
  // E = expm1(2a): tanh a = E / (E + 2) below 1, 1 - 2 / (E + 2) above
  // (no cancellation either way), 1 from 22 on (1 - tanh 22 < 2^-63).
  Value e =
      buildExpm1(b, b.mul(b.c(2), b.select(b.lt(a, b.c(22)), a, b.c(22))));
  Value belowOne = b.div(e, b.add(e, b.c(2)));
  Value aboveOne = b.sub(b.c(1), b.div(b.c(2), b.add(e, b.c(2))));
  Value result = b.select(b.lt(a, b.c(1)), belowOne,
                          b.select(b.lt(a, b.c(22)), aboveOne, b.c(1)));
  return b.nanPassthrough(x, b.withSignOf(x, result));
}

} // namespace tilec::f64math
