//===- F64MathBuilder.h - Scalar f64 arithmetic for F64Math -----*- C++ -*-===//
//
// The software f64 math of tilec-gpu-expand-software-math (GLSL.std.450 has no
// f64 Exp, Log, Sin, ...) is written with this builder: scalar f64 and i64
// arith ops (and the exact math ops SPIR-V has on f64: abs, floor,
// round-even, sqrt, copysign) at one location, plus the error-free
// transformations (two-sum, two-product) of double-double arithmetic.
// Every operation is branch-free: alternatives are all computed and chosen
// with selects, so a lane never diverges.
//
// The two-product splits its operands by masking the low 27 bits of the
// encoding (integer ops), not by Dekker's multiplication by 2^27 + 1, so a
// driver that contracts a multiply and an add into an FMA cannot break it:
// every product it forms is exact.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_GPU_SOFTWAREMATH_F64MATHBUILDER_H
#define TILEC_LIB_TARGET_GPU_SOFTWAREMATH_F64MATHBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace tilec::f64math {

/// A value as an unevaluated sum hi + lo with |lo| <= ulp(hi) / 2.
struct DoubleDouble {
  mlir::Value hi, lo;
};

class MathBuilder {
public:
  MathBuilder(mlir::OpBuilder &builder, mlir::Location loc)
      : b(builder), loc(loc) {}

  // Constants.
  mlir::Value c(double value);
  mlir::Value ci(int64_t value);

  // f64 arithmetic.
  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value sub(mlir::Value x, mlir::Value y);
  mlir::Value mul(mlir::Value x, mlir::Value y);
  mlir::Value div(mlir::Value x, mlir::Value y);
  mlir::Value neg(mlir::Value x);
  mlir::Value abs(mlir::Value x);
  mlir::Value floor(mlir::Value x);
  mlir::Value roundEven(mlir::Value x);
  mlir::Value sqrt(mlir::Value x);
  /// |magnitude| with the sign of `sign`.
  mlir::Value copySign(mlir::Value magnitude, mlir::Value sign);

  // Comparisons (ordered: false when either side is NaN) and selects.
  mlir::Value lt(mlir::Value x, mlir::Value y);
  mlir::Value le(mlir::Value x, mlir::Value y);
  mlir::Value gt(mlir::Value x, mlir::Value y);
  mlir::Value ge(mlir::Value x, mlir::Value y);
  mlir::Value eq(mlir::Value x, mlir::Value y);
  mlir::Value isNaN(mlir::Value x);
  /// Whether the sign bit of x is set (-0 and NaNs with the bit included).
  mlir::Value signBit(mlir::Value x);
  mlir::Value select(mlir::Value condition, mlir::Value onTrue,
                     mlir::Value onFalse);
  mlir::Value andB(mlir::Value x, mlir::Value y);
  mlir::Value orB(mlir::Value x, mlir::Value y);

  // i64 arithmetic on encodings and exponents.
  mlir::Value bits(mlir::Value x);     ///< f64 -> its i64 encoding
  mlir::Value fromBits(mlir::Value i); ///< i64 encoding -> f64
  mlir::Value iadd(mlir::Value x, mlir::Value y);
  mlir::Value isub(mlir::Value x, mlir::Value y);
  mlir::Value imul(mlir::Value x, mlir::Value y);
  mlir::Value idiv(mlir::Value x, mlir::Value y); ///< signed, truncating
  mlir::Value iand(mlir::Value x, mlir::Value y);
  mlir::Value ior(mlir::Value x, mlir::Value y);
  mlir::Value ieq(mlir::Value x, mlir::Value y);
  mlir::Value shl(mlir::Value x, int64_t count);
  mlir::Value ashr(mlir::Value x, int64_t count);
  mlir::Value toF64(mlir::Value i); ///< i64 -> f64 (exact below 2^53)
  mlir::Value toI64(mlir::Value x); ///< f64 holding an integer -> i64
  /// f64 holding an integer within int32's range -> i64, through i32: a
  /// cheaper conversion on GPUs, and the one NVIDIA's GL compiler gets right
  /// (with f64 -> i64 there, the exp's 2^k came out wrong on the H200).
  mlir::Value smallToI64(mlir::Value x);

  // Building blocks.
  /// c[0] + z * (c[1] + z * (... + z * c[n-1])).
  mlir::Value horner(mlir::Value z, llvm::ArrayRef<double> coefficients);
  /// 2^k for an i64 k in [-1022, 1023].
  mlir::Value pow2(mlir::Value k);
  /// x * 2^k for a normal or zero x and an i64 k in [-2000, 2000], rounded
  /// once: k is added to the exponent field where the result is normal,
  /// +-inf beyond, and multiplied in where it is subnormal.
  mlir::Value scale(mlir::Value x, mlir::Value k);
  /// `magnitude` (computed for |x|) negated where x has its sign bit set:
  /// the result of an odd function, -0 for -0 included.
  mlir::Value withSignOf(mlir::Value x, mlir::Value magnitude);
  /// x if x is NaN, else `result` (the functions propagate NaN arguments).
  mlir::Value nanPassthrough(mlir::Value x, mlir::Value result);
  /// `table[index]` for an i64 index in range, by a tree of selects on the
  /// bits of the index (a constant array in Function storage would be
  /// copied by every invocation: 70 times slower on lavapipe).
  mlir::Value lookup(llvm::ArrayRef<double> table, mlir::Value index);

  // Double-double arithmetic.
  /// a + b exactly, for any a, b (Knuth).
  DoubleDouble twoSum(mlir::Value a, mlir::Value b);
  /// a + b exactly, when a is 0 or its exponent is at least b's (Dekker).
  DoubleDouble fastTwoSum(mlir::Value a, mlir::Value b);
  /// a * b exactly (up to 2^-106 relative), for finite a, b whose product
  /// neither overflows nor underflows.
  DoubleDouble twoProd(mlir::Value a, mlir::Value b);
  /// (a.hi + a.lo) * (b.hi + b.lo) to about 2^-100 relative.
  DoubleDouble mul(DoubleDouble a, DoubleDouble b);
  /// The high 26 significant bits of x (the low 27 encoding bits cleared):
  /// x - highHalf(x) is exact and products of halves are exact.
  mlir::Value highHalf(mlir::Value x);

private:
  mlir::Value cmp(mlir::arith::CmpFPredicate predicate, mlir::Value x,
                  mlir::Value y);

  mlir::OpBuilder &b;
  mlir::Location loc;
};

} // namespace tilec::f64math

#endif // TILEC_LIB_TARGET_GPU_SOFTWAREMATH_F64MATHBUILDER_H
