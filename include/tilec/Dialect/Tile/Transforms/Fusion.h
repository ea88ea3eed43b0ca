//===- Fusion.h - Which tile producers fuse into their consumer -*- C++ -*-===//
//
// The legality rules of tile-fuse-elementwise, shared with
// convert-tile-to-loops, which honours the pass's `tilec.fused` marks only
// where these rules still hold (hand-written IR may carry stale marks).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_FUSION_H
#define TILEC_DIALECT_TILE_TRANSFORMS_FUSION_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class Block;
class Operation;
class OpOperand;
} // namespace mlir

namespace tilec::tile {
class ContractOp;

/// Whether `op` is an elementwise tile op: one scalar operation per element
/// with NumPy broadcasting of its operands (casts, comparisons, select and
/// pow included).
bool isElementwiseOp(mlir::Operation *op);

/// Whether a contraction's output map is a permutation of distinct index
/// variables covering every output dimension, so that each output cell is
/// exactly one assignment of those variables.
bool hasPermutationSink(ContractOp op);

/// Whether `use` reads its operand at data-dependent positions, which needs
/// the operand in a buffer (gather's values).
bool needsBuffer(mlir::OpOperand &use);

/// Whether producer `op` may legally be computed inside its consumers: all
/// in its block, none needing it in a buffer, and either an elementwise op
/// used by elementwise ops or contractions, or a contraction with a
/// permutation output map used by elementwise ops of its shape.
bool canFuseIntoUser(mlir::Operation *op);

/// The producers of `block` worth fusing: legal ones whose users all end up
/// in one kernel (so a value read twice, as `max` reads its operand, is
/// computed once per cell), except the results of contractions and their
/// elementwise successors where a contraction reads them: that would redo
/// the work at every multiply-add. Such a value gets a buffer and is the
/// end of its own kernel instead. A kernel holds at most one contraction:
/// of two that one elementwise op combines, the later fuses and the earlier
/// gets a buffer.
llvm::DenseSet<mlir::Operation *> chooseFusedProducers(mlir::Block &block);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_TRANSFORMS_FUSION_H
