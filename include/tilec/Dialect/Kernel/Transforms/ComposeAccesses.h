//===- ComposeAccesses.h - Index arithmetic folded into affine maps -*- C++ -*-===//
//
// The loop-level passes that rewrite a nest (flattening loops, slicing a
// reduction, fusing rows) leave index arithmetic beside the accesses:
// affine.apply ops and constant operands. The analyses that read the nest
// afterwards (ContractionNest.h, RowNest.h) and the fingerprint expect the
// indices in the maps of the loads, the stores and the guards themselves.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_TRANSFORMS_COMPOSEACCESSES_H
#define TILEC_DIALECT_KERNEL_TRANSFORMS_COMPOSEACCESSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace tilec {

/// Folds the affine.apply ops and constants that the loads, stores and
/// affine.if guards in `root` take as operands into their maps and sets,
/// and erases the affine.apply ops left without users.
void composeAccesses(mlir::affine::AffineForOp root);

} // namespace tilec

#endif // TILEC_DIALECT_KERNEL_TRANSFORMS_COMPOSEACCESSES_H
