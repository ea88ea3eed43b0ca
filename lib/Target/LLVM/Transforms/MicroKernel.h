//===- MicroKernel.h - One copy of a kernel body per tile point -*- C++ -*-===//
//
// The register-blocked, vectorised body of a tile: the band body copied
// once per point of the tile and jammed, so one reduction loop carries
// every point's accumulator and one guard covers every point it can.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TRANSFORMS_MICROKERNEL_H
#define TILEC_LIB_TRANSFORMS_MICROKERNEL_H

#include "tilec/Dialect/Kernel/Analysis/KernelNest.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"

namespace tilec::transforms {

/// Emits at `builder`'s insertion point the band body of `nest` for every
/// point in `points` (each maps the band IVs to that point's indices).
/// With `vectorWidth` > 1 each point computes that many lanes of the
/// innermost band loop, starting at its mapped index; the nest must then be
/// vectorizable. A vector load from a memref that `aheadViews` maps comes
/// with a prefetch into L2 of the same indices in the view it maps to.
mlir::LogicalResult
emitMicroKernel(mlir::OpBuilder &builder, const KernelNest &nest,
                llvm::MutableArrayRef<mlir::IRMapping> points,
                int64_t vectorWidth,
                const llvm::DenseMap<mlir::Value, mlir::Value> &aheadViews);

/// Moves each affine.if that is the whole body of an affine.for and whose
/// condition does not change in that loop out of it: the loop is copied
/// into both branches (loop unswitching), so the condition is tested once
/// per loop instead of once per iteration.
void unswitchInvariantGuards(mlir::Operation *root);

} // namespace tilec::transforms

#endif // TILEC_LIB_TRANSFORMS_MICROKERNEL_H
