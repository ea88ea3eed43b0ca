//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//
//
// Declares tilec::tile::TileDialect, the first MLIR level of tilec: a bound
// Tile program as ops on static-shaped builtin tensors.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEDIALECT_H
#define TILEC_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tilec/Dialect/Tile/IR/TileOpsDialect.h.inc"

#endif // TILEC_DIALECT_TILE_IR_TILEDIALECT_H
