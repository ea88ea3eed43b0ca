//===- RowNest.h - A kernel nest read as work on whole rows ------*- C++ -*-===//
//
// Softmax, layer normalisation and every other chain of "reduce a row, then
// use the result along the same row" (tilec-gpu-fuse-rows makes one nest of
// such a chain) have the form
//
//   for rows... {
//     m = for c in [0, C) iter_args(acc = init) { acc' = aggregate(acc, ..) }
//     store m to S[rows, 0]                  // a row scalar
//     for c in [0, C) { .. load S[rows, 0] .. store E[rows, c] }  // columns
//     s = for c in [0, C) iter_args(..) { .. load E[rows, c] .. }
//     ...
//   }
//
// where every step of the row is a reduction over the columns, a loop over
// the columns, or straight-line work on row scalars, all columns loops of one
// length C. The GPU maps it with one work-group per row whose work-items deal
// out the columns (column c to work-item c mod W): that is correct only if
// no work-item reads a column another one wrote, so the match requires of
// every buffer the nest writes that each access to it in the nest names the
// row (its first indices are the row loops, in order) and then either the
// enclosing columns loop (a column buffer) or only constants outside any
// columns loop (a row scalar). Other buffers are only read, at any index.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_ANALYSIS_ROWNEST_H
#define TILEC_DIALECT_KERNEL_ANALYSIS_ROWNEST_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tilec {

/// Rows shorter than this are not worth a work-group each: too few columns
/// per work-item to pay for the reductions' barriers. tilec-gpu-fuse-rows
/// and the cost model's row schedules start there.
inline constexpr int64_t kMinRowColumns = 64;
/// The most columns one work-item of a row kernel takes: the GPU mapping
/// unrolls them (RowPlan.cpp), so this bounds both code size and registers.
inline constexpr int64_t kMaxRowColumnsPerItem = 64;

/// How a row nest uses a buffer it writes.
enum class RowBuffer {
  Columns, ///< one element per column of the row, [rows..., c]
  Scalar,  ///< elements of the row at constant indices, [rows..., k...]
};

/// One step of a row, in program order.
struct RowStep {
  enum class Kind {
    Columns,   ///< an affine.for over the columns without results
    Reduction, ///< an affine.for over the columns with one iter_arg
    Scalar,    ///< any other op of the row's body (no region)
  };
  Kind kind;
  mlir::Operation *op;
  /// For a reduction: the op that combines the accumulator with the value
  /// of one column (arith, associative and commutative, with an identity).
  mlir::Operation *aggregate = nullptr;
};

struct RowNest {
  /// The row loops (the kernel's parallel band), outermost first.
  llvm::SmallVector<mlir::affine::AffineForOp> rows;
  /// The trip count of every columns loop.
  int64_t columns = 0;
  /// The innermost row loop's body, terminator excluded.
  llvm::SmallVector<RowStep> steps;
  /// The buffers the nest writes.
  llvm::DenseMap<mlir::Value, RowBuffer> written;

  int reductionCount() const;
};

/// Matches `kernel` with parallel band `band` as a row nest: at least one
/// reduction step, every columns loop from 0 with unit step, straight-line
/// bodies, the buffer rule above. std::nullopt otherwise.
std::optional<RowNest>
matchRowNest(mlir::affine::AffineForOp kernel,
             llvm::ArrayRef<mlir::affine::AffineForOp> band);

/// The value a reduction's partial results start from so that combining
/// them with `aggregate` changes nothing (0 for a sum, -inf for a float
/// maximum), or null when it has none.
mlir::TypedAttr rowReductionIdentity(mlir::Operation *aggregate);

} // namespace tilec

#endif // TILEC_DIALECT_KERNEL_ANALYSIS_ROWNEST_H
