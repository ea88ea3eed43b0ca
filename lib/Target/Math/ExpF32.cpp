//===- ExpF32.cpp - exp of f32 in f32 arithmetic --------------------------===//
//
// Softmax, sigmoid and GELU spend their time in exp. Computing it in f64 (as
// the GPU targets compute the other functions) makes them compute-bound on
// GPUs whose f64 rate is low, and a libm call per element keeps the CPU's
// loops scalar. In f32: x = k ln2 + r with
// k = roundeven(x / ln2) and |r| <= ln2 / 2, r from Cody-Waite (kLn2Hi has
// 15 significant bits, so k * kLn2Hi is exact for |k| <= 2^8); then e^r by
// its Taylor polynomial to r^7 / 7! (the next term is below 2^-27 relative,
// 0.12 ulp), evaluated by Horner with fused multiply-adds, and the result
// 2^k e^r with 2^k applied as two exact powers of two (k reaches -150).
// The error is below 2 ulps, inside the 3 that the interpreter's bound
// grants exp (OpenCL 1.2's accuracy). C's results at the edges come from
// the arithmetic itself: x is clamped to [-104, 89], where the product
// still rounds to +0 below -103.97208 and to +inf above 88.72284, so no
// select per edge is needed (a softmax's row pays ~26 operations per exp);
// NaN is kept. Every op works lane-wise, so the same code serves a scalar
// and a vector.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/Math/F32Math.h"

#include "F32Builder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace {

/// ln2 split so that k * kLn2Hi is exact: its low 9 mantissa bits are 0.
constexpr float kLn2Hi = 0.693145751953125f;         // 0x3F317200
constexpr float kLn2Lo = 1.428606765330187045e-06f;  // ln2 - kLn2Hi
constexpr float kInvLn2 = 1.44269504088896341f;
/// The clamp: e^89 = 1.32 * 2^128 overflows, e^-104 = 0.97 * 2^-150
/// rounds to 0, and k = round(x / ln2) stays in [-150, 128].
constexpr float kHighest = 89.0f;
constexpr float kLowest = -104.0f;
/// 1/n! for n = 7 down to 0, Horner's order.
constexpr float kTaylor[] = {1.0f / 5040, 1.0f / 720, 1.0f / 120, 1.0f / 24,
                             1.0f / 6,    0.5f,       1.0f,       1.0f};

} // namespace

namespace {

/// e^x = 2^k e^r for `x` already within [kLowest, kHighest]: k =
/// roundeven(x / ln2) and e^r, |r| <= ln2 / 2, by Cody-Waite and Horner.
struct Reduced {
  Value k, expOfRest;
};

Reduced reduce(tilec::f32math::F32Builder &b, OpBuilder &builder,
               Location loc, Value x) {
  Value k = math::RoundEvenOp::create(builder, loc, b.mul(x, b.c(kInvLn2)));
  Value r = b.fma(k, b.c(-kLn2Hi), x);
  r = b.fma(k, b.c(-kLn2Lo), r);
  Value p = b.c(kTaylor[0]);
  for (float coefficient : llvm::ArrayRef(kTaylor).drop_front())
    p = b.fma(p, r, b.c(coefficient));
  return {k, p};
}

} // namespace

Value tilec::f32math::buildExp(OpBuilder &builder, Location loc, Value x) {
  tilec::f32math::F32Builder b(builder, loc, x.getType());
  // NaN passes both clamps; what its k converts to (poison in LLVM, a
  // number elsewhere) only reaches a result the last select discards.
  Value clamped = b.select(b.cmp(arith::CmpFPredicate::OGT, x, b.c(kHighest)),
                           b.c(kHighest), x);
  clamped = b.select(b.cmp(arith::CmpFPredicate::OLT, clamped, b.c(kLowest)),
                     b.c(kLowest), clamped);
  Reduced reduced = reduce(b, builder, loc, clamped);
  // 2^k = 2^h 2^(k - h), h = floor(k / 2) (a shift, cheaper than a
  // division): each factor is a normal power of two, 2^-75 to 2^64, and
  // the second product rounds once, to a subnormal, +0 or +inf included.
  Value n = b.toI32(reduced.k);
  Value half = arith::ShRSIOp::create(builder, loc, n, b.ci(1));
  Value rest = arith::SubIOp::create(builder, loc, n, half);
  Value result = b.mul(b.mul(reduced.expOfRest, b.powerOfTwo(half)),
                       b.powerOfTwo(rest));
  return b.select(b.cmp(arith::CmpFPredicate::UNO, x, x), x, result);
}

Value tilec::f32math::buildExpOfModerate(OpBuilder &builder, Location loc,
                                         Value x) {
  tilec::f32math::F32Builder b(builder, loc, x.getType());
  // k in [-126, 127]: 2^k is one normal power of two, and the product
  // rounds once.
  Reduced reduced = reduce(b, builder, loc, x);
  return b.mul(reduced.expOfRest, b.powerOfTwo(b.toI32(reduced.k)));
}
