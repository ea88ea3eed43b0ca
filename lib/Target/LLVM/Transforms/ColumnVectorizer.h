//===- ColumnVectorizer.h - A row's columns loop on SIMD lanes --*- C++ -*-===//
//
// The steps of a row nest (RowNest.h) that walk the row's columns, run on a
// CPU as vectors of consecutive columns: loads and stores of a column
// buffer's last index become vector loads and stores, element-wise ops
// become their vector forms, what does not depend on the column stays
// scalar and is broadcast where a vector needs it. A reduction keeps
// several vector accumulators (one FMA latency would otherwise bound a
// row already in L1), combines them, and reduces the vector to a scalar at
// the end. The columns a whole vector does not cover run as the original
// scalar loop.
//
// A vector sum adds the columns in another order than the scalar loop;
// the interpreter's bound of a sum holds for every order, as for the GPU's
// row reductions.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_LLVM_TRANSFORMS_COLUMNVECTORIZER_H
#define TILEC_LIB_TARGET_LLVM_TRANSFORMS_COLUMNVECTORIZER_H

#include "tilec/Dialect/Kernel/Analysis/RowNest.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

#include <optional>

namespace tilec::transforms {

/// How many columns `loop` (a columns loop or a reduction over the columns
/// whose combining op is `aggregate`, RowNest.h) computes at once in
/// `vectorBytes`-byte vectors: the vector of its widest element. None when
/// some access moves with the column other than along a contiguous last
/// dimension, or some op has no vector form.
std::optional<int64_t> columnLanes(mlir::affine::AffineForOp loop,
                                   mlir::Operation *aggregate,
                                   int64_t vectorBytes);

/// `option` (a pass's vector-bytes) when given, else the host's SIMD width.
int64_t vectorBytesOrHost(int64_t option);

/// The loop over the columns of `step`, if it is one (or a reduction over
/// them).
mlir::affine::AffineForOp columnsLoopOf(const RowStep &step);

/// Whether every step of `nest` over the columns has lanes.
bool rowNestVectorizes(const RowNest &nest, int64_t vectorBytes);

/// Rewrites `loop` (for which columnLanes gave `lanes`) to compute `lanes`
/// columns at once; a reduction with `accumulators` vector accumulators.
void vectorizeColumns(mlir::affine::AffineForOp loop,
                      mlir::Operation *aggregate, int64_t lanes,
                      int64_t accumulators);

} // namespace tilec::transforms

#endif // TILEC_LIB_TARGET_LLVM_TRANSFORMS_COLUMNVECTORIZER_H
