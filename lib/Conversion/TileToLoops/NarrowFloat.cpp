//===- NarrowFloat.cpp - Rounding into f16 and bf16 once -------*- C++ -*-===//
//
// Every conversion into f16 and bf16 rounds once to nearest even
// (docs/language.md 5.4) and gives the interpreter's bits. LLVM alone does
// not: from f64 and from integers wider than f32's significand it rounds
// twice (through f32) or calls a soft-float routine that the host's libgcc
// may lack (`__truncdfbf2` is not in Debian 12's), and on CPUs with
// AVX512-BF16 its f32 -> bf16 instruction flushes subnormals to zero. So the
// conversions are expanded here into plain integer and float arithmetic.
//
// The value first becomes an f32 that rounds to the same 16-bit value: by
// an exact conversion where f32 holds it, else by rounding to odd (round
// toward zero, then set the last bit when that was inexact). With at least
// two more significand bits than the target, the odd result lies in the
// same interval between neighbouring target values as the exact value and
// is a target value exactly when that is, so the final round to nearest
// even gives the correctly rounded result. f32 has 24 bits and an exponent
// range at least as wide as either target's; 64-bit integers first go to
// f64 the same way. The last step is integer arithmetic for bf16 and the
// hardware's conversion for f16. Overflow, infinities, subnormals and signed
// zeros follow, and a NaN becomes the canonical quiet NaN of its sign, as
// the interpreter writes it.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::loops;

/// An integer constant of type `type`.
static Value intConst(OpBuilder &b, Location loc, Type type, uint64_t v) {
  return arith::ConstantOp::create(b, loc, type, IntegerAttr::get(type, v));
}

/// The round-to-odd fix-up of `rounded`, the round-to-nearest-even result of
/// a conversion: when it was `inexact`, step it back toward zero if it
/// `roundedAway` from zero and set its last bit.
static Value roundToOdd(OpBuilder &b, Location loc, Value rounded,
                        Value inexact, Value roundedAway) {
  auto floatType = cast<FloatType>(rounded.getType());
  Type bitsType = b.getIntegerType(floatType.getWidth());
  Value bits = arith::BitcastOp::create(b, loc, bitsType, rounded);
  // The encoding is sign and magnitude, so one less in the bits is one
  // step toward zero for either sign.
  Value step = arith::ExtUIOp::create(b, loc, bitsType, roundedAway);
  Value truncated = arith::SubIOp::create(b, loc, bits, step);
  Value odd =
      arith::OrIOp::create(b, loc, truncated, intConst(b, loc, bitsType, 1));
  Value fixed = arith::SelectOp::create(b, loc, inexact, odd, bits);
  return arith::BitcastOp::create(b, loc, floatType, fixed);
}

/// An f64 rounded to odd into f32.
static Value f64ToOddF32(OpBuilder &b, Location loc, Value x) {
  Value rounded = arith::TruncFOp::create(b, loc, b.getF32Type(), x);
  Value back = arith::ExtFOp::create(b, loc, b.getF64Type(), rounded);
  // Ordered comparisons: a NaN is neither inexact nor rounded away.
  Value inexact =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, x, back);
  Value away = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                     math::AbsFOp::create(b, loc, back),
                                     math::AbsFOp::create(b, loc, x));
  return roundToOdd(b, loc, rounded, inexact, away);
}

/// A 64-bit integer rounded to odd into f64.
static Value i64ToOddF64(OpBuilder &b, Location loc, Value x,
                         bool isUnsigned) {
  Type i64 = b.getI64Type();
  Type f64 = b.getF64Type();
  Value zero = intConst(b, loc, i64, 0);
  // The magnitude as an unsigned number (that of INT64_MIN is 2^63).
  Value negative;
  Value mag = x;
  if (!isUnsigned) {
    negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
    Value negated = arith::SubIOp::create(b, loc, zero, x);
    mag = arith::SelectOp::create(b, loc, negative, negated, x);
  }
  Value rounded = arith::UIToFPOp::create(b, loc, f64, mag);
  // A magnitude near 2^64 may round to 2^64, which has no u64 to compare
  // with; it is then above the magnitude.
  Value top = arith::ConstantOp::create(b, loc, f64,
                                        b.getF64FloatAttr(18446744073709551616.0));
  Value atTop =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, rounded, top);
  Value safe = arith::SelectOp::create(
      b, loc, atTop, arith::ConstantOp::create(b, loc, f64, b.getF64FloatAttr(0)),
      rounded);
  Value back = arith::FPToUIOp::create(b, loc, i64, safe);
  Value above = arith::OrIOp::create(
      b, loc, atTop,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, back, mag));
  Value inexact = arith::OrIOp::create(
      b, loc, atTop,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, back, mag));
  Value odd = roundToOdd(b, loc, rounded, inexact, above);
  if (isUnsigned)
    return odd;
  return arith::SelectOp::create(b, loc, negative,
                                 arith::NegFOp::create(b, loc, odd), odd);
}

/// The canonical quiet NaN of 16-bit float `type` with the sign of f32 `x`
/// where `x` is a NaN; `value` elsewhere.
static Value canonicalNaN(OpBuilder &b, Location loc, Value x, Value value,
                          FloatType type) {
  const llvm::fltSemantics &sem = type.getFloatSemantics();
  auto nan = [&](bool negative) {
    return arith::ConstantOp::create(
        b, loc, type, FloatAttr::get(type, APFloat::getQNaN(sem, negative)));
  };
  Type i32 = b.getI32Type();
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                         bits, intConst(b, loc, i32, 0));
  Value signedNaN =
      arith::SelectOp::create(b, loc, negative, nan(true), nan(false));
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  return arith::SelectOp::create(b, loc, isNaN, signedNaN, value);
}

/// An f32 rounded to nearest even into bf16 on its bits: adding just under
/// half of bf16's last place, plus one on a tie with an odd last bit, and
/// dropping the low half carries into the exponent where it must (up to
/// infinity) and keeps subnormals. NaNs are replaced by the caller.
static Value f32ToBF16Bits(OpBuilder &b, Location loc, Value x) {
  Type i32 = b.getI32Type();
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value sixteen = intConst(b, loc, i32, 16);
  Value high = arith::ShRUIOp::create(b, loc, bits, sixteen);
  Value lastBit =
      arith::AndIOp::create(b, loc, high, intConst(b, loc, i32, 1));
  Value bias = arith::AddIOp::create(b, loc, lastBit,
                                     intConst(b, loc, i32, 0x7fff));
  Value sum = arith::AddIOp::create(b, loc, bits, bias);
  Value rounded = arith::ShRUIOp::create(b, loc, sum, sixteen);
  Value half = arith::TruncIOp::create(b, loc, b.getI16Type(), rounded);
  return arith::BitcastOp::create(b, loc, b.getBF16Type(), half);
}

/// An f32 that rounds to nearest even to the same 16-bit float as `x`.
static Value toOddF32(OpBuilder &b, Location loc, Value x, bool isUnsigned) {
  Type f32 = b.getF32Type(), f64 = b.getF64Type();
  if (auto f = dyn_cast<FloatType>(x.getType())) {
    if (f.getWidth() < 32)
      return arith::ExtFOp::create(b, loc, f32, x);
    return f.getWidth() == 32 ? x : f64ToOddF32(b, loc, x);
  }
  unsigned width = cast<IntegerType>(x.getType()).getWidth();
  auto exactly = [&](Type to) {
    return isUnsigned ? Value(arith::UIToFPOp::create(b, loc, to, x))
                      : Value(arith::SIToFPOp::create(b, loc, to, x));
  };
  if (width <= 16)
    return exactly(f32);
  Value wide = width <= 32 ? exactly(f64) : i64ToOddF64(b, loc, x, isUnsigned);
  return f64ToOddF32(b, loc, wide);
}

Value loops::roundToNarrowFloat(OpBuilder &b, Location loc, Value x,
                                bool isUnsigned, FloatType to) {
  Value odd = toOddF32(b, loc, x, isUnsigned);
  Value rounded = to.isBF16() ? f32ToBF16Bits(b, loc, odd)
                              : Value(arith::TruncFOp::create(b, loc, to, odd));
  return canonicalNaN(b, loc, odd, rounded, to);
}
