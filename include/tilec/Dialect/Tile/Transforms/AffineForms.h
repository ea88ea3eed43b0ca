//===- AffineForms.h - Linear parts and values of affine exprs --*- C++ -*-===//
//
// Small pieces of arithmetic on the affine expressions of contractions
// (index maps and constraints over the index variables), shared by
// tile-reindex-sink and convert-tile-to-loops.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_AFFINEFORMS_H
#define TILEC_DIALECT_TILE_TRANSFORMS_AFFINEFORMS_H

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace tilec::tile {

/// Whether `e` uses a dimension at or above `first`.
bool usesDimFrom(mlir::AffineExpr e, unsigned first);

/// An affine expression split as `sum_i coeffs[i] * d(first + i) + rest`,
/// where `rest` uses none of the dimensions from `first` on.
struct LinearPart {
  llvm::SmallVector<int64_t> coeffs;
  mlir::AffineExpr rest;
};

/// `e` split into its part linear in dimensions [first, first + count) and
/// the rest; none when one of those dimensions occurs under a floordiv, a
/// mod or a product that is not by a constant.
std::optional<LinearPart> splitLinear(mlir::AffineExpr e, unsigned first,
                                      unsigned count);

/// A linear `e` over `numDims` dimensions rebuilt as `sum of coefficient *
/// d + constant`, so that terms that cancel (`o - j + j`) go and a guard
/// over one variable is seen as such. Anything else is kept as it is: a
/// generic simplification would rewrite `mod` into floordivs, which
/// Bounds.h would then take for an interval.
mlir::AffineExpr withoutCancelledTerms(mlir::AffineExpr e, unsigned numDims);

/// The value of `e` (no symbols) at the point `dims`, with floor division
/// and a non-negative `mod`.
int64_t evaluate(mlir::AffineExpr e, llvm::ArrayRef<int64_t> dims);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_TRANSFORMS_AFFINEFORMS_H
