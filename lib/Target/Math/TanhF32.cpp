//===- TanhF32.cpp - tanh of f32 in f32 arithmetic ------------------------===//
//
// GELU's tanh form spends its time here. For |x| < 0.625, tanh(x) =
// x + x^3 P(x^2) with P of degree 5 fitted to (tanh(x) - x) / x^3 on
// [0, 0.625^2] (Chebyshev, 40 digits; below 0.6 ulp in f32 with fmas). Above,
// tanh|x| = 1 - 2 / (e^(2|x|) + 1): e^(2|x|) >= 3.49 there, so the quotient
// is below 0.45 and its error (exp's 2 ulps, two roundings) counts about
// half as much in the result, which is above 0.55: within 3 ulps, inside
// the 5 that the interpreter's bound grants tanh. |x| is first cut to 9,
// where 1 - tanh is 2^-25 and the result already rounds to 1, so that
// e^(2|x|) needs no clamps nor scaling for the ends of exp's range (GELU
// computes this per element: every op counts). The sign comes back by
// copysign (so -0 stays -0), and NaN by a last select.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/Math/F32Math.h"

#include "F32Builder.h"

using namespace mlir;

namespace {

constexpr float kPolynomialBelow = 0.625f;
/// tanh(9) = 1 - 3.0e-8 rounds to 1 in f32, as does tanh of anything above.
constexpr float kSaturatesAt = 9.0f;
/// P(u), highest power first.
constexpr float kTanhSmall[] = {0.002292744815349579f, -0.008343945257365704f,
                                0.02176891826093197f,  -0.053959257900714874f,
                                0.13333304226398468f,  -0.3333333432674408f};

} // namespace

Value tilec::f32math::buildTanh(OpBuilder &builder, Location loc, Value x) {
  F32Builder b(builder, loc, x.getType());
  Value u = b.mul(x, x);
  Value small = b.fma(b.mul(x, u), b.horner(u, kTanhSmall), x);
  Value magnitude = b.abs(x);
  // NaN stays NaN here; its exp is discarded by the last select.
  Value bounded = b.select(
      b.cmp(arith::CmpFPredicate::OGT, magnitude, b.c(kSaturatesAt)),
      b.c(kSaturatesAt), magnitude);
  Value e = buildExpOfModerate(builder, loc, b.add(bounded, bounded));
  Value large = b.copySign(
      b.sub(b.c(1.0f), b.div(b.c(2.0f), b.add(e, b.c(1.0f)))), x);
  Value result = b.select(
      b.cmp(arith::CmpFPredicate::OLT, magnitude, b.c(kPolynomialBelow)),
      small, large);
  return b.select(b.cmp(arith::CmpFPredicate::UNO, x, x), x, result);
}

// 1 + tanh(w) = 2 / (1 + e^(-2w)), since tanh w = (1 - e^(-2w)) / (1 +
// e^(-2w)); 1 - tanh(w) likewise with e^(2w). The sum cancels as tanh(w)
// nears -1 (its result carries tanh's error, absolute), the quotient does
// not (exp's 2 ulps, the sum's and the division's roundings, relative:
// within 3.5 ulps). At the ends e^(-2w) = inf gives 0 and e^(-2w) = 0
// gives 2, as the sum does; NaN stays NaN through exp and the division.
Value tilec::f32math::buildOnePlusTanh(OpBuilder &builder, Location loc,
                                       Value w, bool negated) {
  F32Builder b(builder, loc, w.getType());
  Value e = buildExp(builder, loc, b.mul(w, b.c(negated ? 2.0f : -2.0f)));
  return b.div(b.c(2.0f), b.add(b.c(1.0f), e));
}
