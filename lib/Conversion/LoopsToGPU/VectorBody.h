//===- VectorBody.h - A kernel body computing vectors along x ---*- C++ -*-===//
//
// Emits the body of a kernel whose schedule asks for a vector width: each
// work-item computes `vector` neighbouring iterations of the x loop at once.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_LOOPSTOGPU_VECTORBODY_H
#define TILEC_LIB_CONVERSION_LOOPSTOGPU_VECTORBODY_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tilec {

/// Emits at `b` the ops of `body` (the innermost band loop's body) for
/// `width` consecutive iterations of `xLoop`, whose induction variable
/// `mapping` maps to the first of them. Loads and stores contiguous along x
/// become affine.vector_load and affine.vector_store, loads invariant along
/// x stay scalar and are broadcast where a vector needs them, element-wise
/// arith and math ops on f32, f64 and i8..i64 work on vector<width x T>,
/// and reductions carry vectors. Everything else (gathers, scatters, i1,
/// f16, bf16 and index values, conditions and loop bounds that depend on x)
/// is computed lane by lane, one clone per iteration, so any body is
/// correct. Values from outside `body` are looked up in `mapping`.
void emitVectorBody(mlir::Block &body, mlir::affine::AffineForOp xLoop,
                    int64_t width, mlir::OpBuilder &b,
                    mlir::IRMapping &mapping);

} // namespace tilec

#endif // TILEC_LIB_CONVERSION_LOOPSTOGPU_VECTORBODY_H
