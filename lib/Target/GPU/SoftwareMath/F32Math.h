//===- F32Math.h - Math functions of f32 in f32 arithmetic ------*- C++ -*-===//
//
// The functions whose f32 speed matters enough not to compute them in f64
// (F64Math.h) and round: each builds its scalar f32 result from arith ops.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_GPU_SOFTWAREMATH_F32MATH_H
#define TILEC_LIB_TARGET_GPU_SOFTWAREMATH_F32MATH_H

#include "mlir/IR/Builders.h"

namespace tilec::f32math {

/// exp(x) within 2 ulps (ExpF32.cpp).
mlir::Value buildExp(mlir::OpBuilder &builder, mlir::Location loc,
                     mlir::Value x);

} // namespace tilec::f32math

#endif // TILEC_LIB_TARGET_GPU_SOFTWAREMATH_F32MATH_H
