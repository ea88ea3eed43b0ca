//===- F32Math.h - Math functions of f32 in f32 arithmetic ------*- C++ -*-===//
//
// The functions whose f32 speed matters: each builds its f32 result from
// arith and math.fma/roundeven ops, on a scalar or on a vector of f32 alike,
// so that a vectorised kernel computes them in vector registers. The GPU
// targets use them instead of computing in f64 (their F64Math.h) and
// rounding; the CPU instead of a libm call per element.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_MATH_F32MATH_H
#define TILEC_TARGET_MATH_F32MATH_H

#include "mlir/IR/Builders.h"

namespace tilec::f32math {

/// exp(x) within 2 ulps, for an f32 or a vector of f32 `x` (ExpF32.cpp).
mlir::Value buildExp(mlir::OpBuilder &builder, mlir::Location loc,
                     mlir::Value x);

/// exp(x) within 2 ulps for `x` in [-87, 88] (not NaN), without buildExp's
/// clamps and two-step scaling for the ends of the range: for callers that
/// bound their argument (tanh).
mlir::Value buildExpOfModerate(mlir::OpBuilder &builder, mlir::Location loc,
                               mlir::Value x);

/// tanh(x) within 3 ulps, for an f32 or a vector of f32 `x` (TanhF32.cpp).
mlir::Value buildTanh(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value x);

/// 1 + tanh(w), or 1 - tanh(w) if `negated`, as 2 / (1 + e^(-+2w)): one
/// exp and a division, and more accurate than the sum (TanhF32.cpp).
mlir::Value buildOnePlusTanh(mlir::OpBuilder &builder, mlir::Location loc,
                             mlir::Value w, bool negated);

} // namespace tilec::f32math

#endif // TILEC_TARGET_MATH_F32MATH_H
