//===- Fusion.h - Which tile producers fuse into their consumer -*- C++ -*-===//
//
// The legality rules of tile-fuse-elementwise, shared with
// convert-tile-to-loops, which honours the pass's `tilec.fused` marks only
// where these rules still hold (hand-written IR may carry stale marks).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_FUSION_H
#define TILEC_DIALECT_TILE_TRANSFORMS_FUSION_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class Operation;
class OpOperand;
} // namespace mlir

namespace tilec::tile {
class ContractOp;

/// The unit attribute that marks a producer computed inside its consumer.
constexpr llvm::StringLiteral kFusedAttrName = "tilec.fused";

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

/// Whether producer `op` may be computed inside its single consumer: an
/// elementwise op used once by an elementwise op or a contraction, or a
/// contraction with a permutation output map used once by an elementwise op
/// of the same shape.
bool canFuseIntoUser(mlir::Operation *op);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_TRANSFORMS_FUSION_H
