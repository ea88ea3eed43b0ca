//===- F64Math.h - The software f64 math functions --------------*- C++ -*-===//
//
// Each function builds, with a MathBuilder, the scalar f64 result of one math
// function of the language (docs/language.md section 8.1) from arith ops:
// a range reduction, a polynomial (Taylor coefficients from
// scripts/f64-math-constants.py, Constants.inc) and selects for the
// special values, with C's results for zeros, infinities, NaN and the
// domain edges. The error is a few ulps over the whole domain (measured
// against glibc, which the interpreter calls, by the tests of
// test/Target/SPIRV/f64-math*.test).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_GPU_SOFTWAREMATH_F64MATH_H
#define TILEC_LIB_TARGET_GPU_SOFTWAREMATH_F64MATH_H

#include "F64MathBuilder.h"

namespace tilec::f64math {

// Exp.cpp
mlir::Value buildExp(MathBuilder &b, mlir::Value x);
/// exp(x + tail) for a tail below ulp(x) (pow's double-double exponent).
mlir::Value buildExpWithTail(MathBuilder &b, mlir::Value x, mlir::Value tail);
/// exp(x + tail) 2^exponent, the power of two applied to the exponent of
/// the result rather than by a multiplication that could overflow first
/// (sinh and cosh: e^x / 2).
mlir::Value buildScaledExp(MathBuilder &b, mlir::Value x, mlir::Value tail,
                           int64_t exponent);
/// expm1(x) for |x| <= 60 (callers clamp; beyond, exp(x) - 1 is exp(x)).
mlir::Value buildExpm1(MathBuilder &b, mlir::Value x);

// Log.cpp
mlir::Value buildLog(MathBuilder &b, mlir::Value x);
mlir::Value buildLog1p(MathBuilder &b, mlir::Value x);
/// log(x) as a double-double, for a positive finite x (pow).
DoubleDouble buildLogDoubleDouble(MathBuilder &b, mlir::Value x);

// Hyperbolic.cpp
mlir::Value buildSinh(MathBuilder &b, mlir::Value x);
mlir::Value buildCosh(MathBuilder &b, mlir::Value x);
mlir::Value buildTanh(MathBuilder &b, mlir::Value x);

// InverseHyperbolic.cpp
mlir::Value buildAsinh(MathBuilder &b, mlir::Value x);
mlir::Value buildAcosh(MathBuilder &b, mlir::Value x);
mlir::Value buildAtanh(MathBuilder &b, mlir::Value x);

// Trig.cpp
mlir::Value buildSin(MathBuilder &b, mlir::Value x);
mlir::Value buildCos(MathBuilder &b, mlir::Value x);
mlir::Value buildTan(MathBuilder &b, mlir::Value x);

// InverseTrig.cpp
mlir::Value buildAtan(MathBuilder &b, mlir::Value x);
mlir::Value buildAsin(MathBuilder &b, mlir::Value x);
mlir::Value buildAcos(MathBuilder &b, mlir::Value x);

// Pow.cpp
/// x^y for x >= 0 (tilec-gpu-expand-powf has already applied the sign
/// of a negative base and selected every special case of C's pow).
mlir::Value buildPow(MathBuilder &b, mlir::Value x, mlir::Value y);

} // namespace tilec::f64math

#endif // TILEC_LIB_TARGET_GPU_SOFTWAREMATH_F64MATH_H
