//===- Passes.h - Passes on the tile dialect and its kernels ----*- C++ -*-===//
//
// Declares tile-compute-bounds, tile-reindex-sink and tile-fuse-elementwise,
// generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TILEC_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace tilec::tile {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_H
