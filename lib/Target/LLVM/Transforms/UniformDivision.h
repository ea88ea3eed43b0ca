//===- UniformDivision.h - Vectors divided by a scalar, multiplied -*- C++ -*-===//
//
// A softmax or layer norm divides every element of a row by the row's
// scalar; a vector division issues once per 10-16 cycles on x86 (a layer
// norm 1024x4096 spent a fifth of its time in them). x * RN(1/s) is within
// 2 ulps of x / s (two roundings of 2^-24 relative each, at most 2 ulps at
// the bottom of a binade), inside the 2.5 that the interpreter's bound
// grants a division (OpenCL's), except where 1/s is not a normal number (s
// below the least normal or above 2^(emax-1)), where the quotient is near
// overflow (|q| > 2^emax) and for NaN or inf. The column vectorizer runs
// its vector loops with reciprocals when every divisor's is normal, notes
// whether any quotient came near overflow (or was NaN), and in that case
// runs them again with divisions: a branch per loop, not per vector (LLVM
// would execute a division guarded per vector anyway, as a select).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_LLVM_TRANSFORMS_UNIFORMDIVISION_H
#define TILEC_LIB_TARGET_LLVM_TRANSFORMS_UNIFORMDIVISION_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace tilec::transforms {

/// The reciprocals of a loop's divisors, made before it.
struct Reciprocals {
  /// Divisor -> its reciprocal (scalars).
  llvm::DenseMap<mlir::Value, mlir::Value> of;
  /// i1: every reciprocal is a normal number.
  mlir::Value allNormal;
};

/// The reciprocals of the divisors of `divisions` (scalars defined before
/// `b`'s insertion point), built there.
Reciprocals buildReciprocals(mlir::OpBuilder &b, mlir::Location loc,
                             llvm::ArrayRef<mlir::arith::DivFOp> divisions);

/// `division` of the vector `dividend` by the scalar whose reciprocal is
/// `reciprocal`, as a product; ORs into the i1 `inexact` whether any lane
/// is near overflow or NaN (where the product may be more than 2 ulps off).
mlir::Value multiplyByReciprocal(mlir::OpBuilder &b,
                                 mlir::arith::DivFOp division,
                                 mlir::Value dividend, mlir::Value reciprocal,
                                 mlir::Value &inexact);

/// Whether `division` can be a product: f32 or f64.
bool hasReciprocalForm(mlir::arith::DivFOp division);

} // namespace tilec::transforms

#endif // TILEC_LIB_TARGET_LLVM_TRANSFORMS_UNIFORMDIVISION_H
