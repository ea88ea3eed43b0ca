//===- Bounds.h - Constraints implied by index-variable ranges --*- C++ -*-===//
//
// The rule behind tile-compute-bounds, shared with convert-tile-to-loops: a
// contraction's variables carry their exact ranges, so a guard that holds
// on every value of those ranges needs no test in the loop nest.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_BOUNDS_H
#define TILEC_DIALECT_TILE_TRANSFORMS_BOUNDS_H

#include "mlir/IR/AffineExpr.h"

namespace tilec::tile {

/// Whether the inequality `e >= 0` over a contraction's index variables
/// holds for every value of each variable's exact range: `e` is a
/// non-negative constant, or mentions a single variable and no `mod` (its
/// feasible set is then an interval, which holds every valid value of the
/// variable and hence the hull of them, the range).
bool isImpliedByVariableRanges(mlir::AffineExpr e);

/// Whether constraint `e == 0` (or `e >= 0`) holds whatever the variables
/// are: a constant such as the `0 == 0` of an empty integer set.
bool isTriviallyTrue(mlir::AffineExpr e, bool isEquality);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_TRANSFORMS_BOUNDS_H
